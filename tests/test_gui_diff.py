"""Diff marks are character-exact inside the changed tokens (no Qt needed)."""

from __future__ import annotations

import pytest

from execretrieval_gui.diffing import (
    diff_rows,
    marked_fragments,
    render_plain,
    render_side_by_side,
    render_unified,
)


@pytest.mark.parametrize(("old", "new", "marks"), [
    ("if n < 3:", "if n <= 3:", ([], ["="])),               # only the added '='
    ("while x & 1 == 0:", "while x & 1 != 0:", (["="], ["!"])),
    ("return 1 << p", "return 1 >> p", (["<<"], [">>"])),
    ("return f(a, b)", "return f(b, a)", (["a", "b"], ["b", "a"])),
    ("for i in range(n):", "for i in range(n - 1):", ([], [" - 1"])),
    ("return total", "return totals", ([], ["s"])),
])
def test_marks_only_the_edited_characters(old: str, new: str, marks) -> None:  # type: ignore[no-untyped-def]
    assert marked_fragments(old, new) == marks


def test_whole_line_removed_and_unchanged_lines() -> None:
    old = "def f(n):\n    if n == 0:\n        return 0\n    return n & -n\n"
    new = "def f(n):\n    return n & -n\n"
    rows = diff_rows(old, new)
    assert [r.kind for r in rows] == ["equal", "delete", "delete", "equal"]
    assert marked_fragments(old, new) == (["    if n == 0:", "        return 0"], [])
    assert marked_fragments(old, old) == ([], [])


def test_rendering_escapes_and_highlights() -> None:
    old, new = "def f(a):\n    return a < 1\n", "def f(a):\n    return a <= 1\n"
    side = render_side_by_side(old, new)
    assert "&lt;" in side and "background-color:#8fd19e" in side   # the '=' mark
    assert side.count("background-color:#8fd19e;text-decoration:underline") == 1
    unified = render_unified(old, new)
    assert ">-</td>" in unified and ">+</td>" in unified
    plain = render_plain('s = """a\nb"""\n')
    assert "text-decoration" not in plain and "color:#" in plain   # highlighted, unmarked
