"""Diff marks come from a token alignment: character-exact inside a changed token, whole
moved arguments or operands for a swap, never a lone space (no Qt needed but for the view)."""

from __future__ import annotations

import pytest

from execretrieval_gui.diffing import (
    MUTANT_MARK,
    Gap,
    anchor,
    change_blocks,
    diff_rows,
    fold_rows,
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
    ("for i in range(n):", "for i in range(n - 1):", ([], ["- 1"])),   # no leading space
    # swap_arguments: the two arguments that moved, not the step that stayed
    ("for i in range(len(items) - 1, -1, -1):", "for i in range(-1, len(items) - 1, -1):",
     (["len(items) - 1", "-1"], ["-1", "len(items) - 1"])),
    # swapped operands of an operator: the operands, not the operator
    ("    while (n >> position) % 2 == 0:", "    while 2 % (n >> position) == 0:",
     (["(n >> position)", "2"], ["2", "(n >> position)"])),
    ("return 0", "return -1", (["0"], ["-1"])),
    ('    s = """abc', '    s = """abd', (["c"], ["d"])),          # a line tokenize cannot end

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
    assert "&lt;" in side and f"background-color:{MUTANT_MARK}" in side   # the '=' mark
    assert side.count(f"background-color:{MUTANT_MARK};font-weight:bold") == 1
    assert "underline" not in side + render_unified(old, new)   # marks are tints, not lines
    unified = render_unified(old, new)
    assert ">-</td>" in unified and ">+</td>" in unified
    plain = render_plain('s = """a\nb"""\n')
    assert "text-decoration" not in plain and "color:#" in plain   # highlighted, unmarked


def _side_rows(html: str) -> list[list[str]]:
    """Per table row, the plain text of its cells (tags and entities dropped)."""
    import re
    from html import unescape

    cells = re.compile(r"<td[^>]*>(.*?)</td>")
    return [[unescape(re.sub(r"<[^>]+>", "", cell)) for cell in cells.findall(tr)]
            for tr in re.findall(r"<tr>(.*?)</tr>", html)]


def test_side_by_side_wraps_both_halves_alike() -> None:
    long_call = "    total = combine(first_value, second_value, third_value, fourth)"
    old = f"def f(first_value):\n{long_call}\n    return total\n"
    new = old.replace("return total", "return total + 1")
    rows = _side_rows(render_side_by_side(old, new, wrap=30))
    # the unchanged long line continues on the same rows on both sides: no ragged blank
    numbers = [(r[0].strip(), r[3].strip()) for r in rows]
    assert numbers[:2] == [("1", "1"), ("2", "2")]
    wrapped = [n for n in numbers if n == ("\u21aa", "\u21aa")]
    assert len(wrapped) >= 2 and numbers[-1] == ("3", "3")
    assert all(len(r[1].rstrip("\xa0")) <= 30 and len(r[4].rstrip("\xa0")) <= 30 for r in rows)
    shown = "".join(r[1] for r in rows[1:-1])
    assert "".join(shown.split()) == "".join(long_call.split())   # nothing lost or doubled
    # the mark still lands on exactly the inserted characters
    side = render_side_by_side(old, new, wrap=30)
    import re
    marked = re.findall(MUTANT_MARK + r';font-weight:bold">([^<]*)<', side)
    assert "".join(marked) == "+ 1"
    # no wrap asked: one row per line as before
    assert len(_side_rows(render_side_by_side(old, new))) == 3


def test_side_by_side_mark_split_across_continuation_rows() -> None:
    old = "x = 1\n"
    new = "x = 1 + another_very_long_name_that_does_not_fit\n"
    html = render_side_by_side(old, new, wrap=20)
    rows = _side_rows(html)
    assert len(rows) >= 3 and rows[0][1].strip() == "x = 1"       # left side: one line
    assert all(r[1] == "\xa0" for r in rows[1:])                   # then blank filler rows
    assert html.count(f"background-color:{MUTANT_MARK};font-weight:bold") >= 2


def test_fold_keeps_context_and_counts_what_it_hides() -> None:
    old = "".join(f"x{i} = {i}\n" for i in range(30))
    new = old.replace("x3 = 3", "x3 = 4").replace("x25 = 25", "x25 = 26")
    rows = diff_rows(old, new)
    assert [rows[k].old_no for k in change_blocks(rows)] == [3, 25]
    folded = fold_rows(rows, context=2)
    gaps = [r for r in folded if isinstance(r, Gap)]
    assert [g.count for g in gaps] == [17, 2]           # rows 6..22 and 28..29
    kept = [r.old_no for r in folded if not isinstance(r, Gap)]
    assert kept == [0, 1, 2, 3, 4, 5, 23, 24, 25, 26, 27]
    assert sum(g.count for g in gaps) + len(kept) == 30  # nothing lost
    assert fold_rows(diff_rows(old, old)) == diff_rows(old, old)   # nothing to fold to
    html = render_side_by_side(old, new, fold=True)
    assert "17 unchanged lines" in html and "x10" not in html
    assert f'name="{anchor(0)}"' in html and f'name="{anchor(1)}"' in html
    assert "2 unchanged lines" in render_unified(old, new, fold=True)


def test_diff_view_rewraps_to_its_width(qtbot) -> None:  # type: ignore[no-untyped-def]
    from execretrieval import Snippet
    from execretrieval_gui.candidates import DiffView

    body = "".join(f"    y{i} = g(x, [{i}.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)  # {i}\n"
                   for i in range(30))             # enough rows for a vertical scroll bar
    old = f"def f(x):\n{body}    return " + " + ".join(f"x{i}" for i in range(40)) + "\n"
    canon = Snippet("c1", "q1", "canonical", None, "", old)
    cand = Snippet("c2", "q1", "distractor", "off_by_one", "d", old.replace("x7 ", "x77 "))
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(500, 300)
    view.show()
    view.show_pair(canon, cand)
    narrow = view.wrap
    view.resize(1000, 300)
    qtbot.waitUntil(lambda: view.wrap > narrow)
    for width in (420, 500, 560, 640, 777, 1000, 1300):
        view.resize(width, 300)
        qtbot.wait(20)
        assert view.browser.verticalScrollBar().isVisible()
        assert view.browser.horizontalScrollBar().maximum() == 0, width  # nothing sticks out
        assert "\u21aa" in view.browser.toPlainText()
