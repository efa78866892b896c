"""The diff view's colouring (the standard tokenizer) against Pygments, which it replaces."""

from __future__ import annotations

import random

import pytest
from pygments.lexers import PythonLexer
from pygments.styles import get_style_by_name
from pygments.token import Token

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval_gui.highlight import highlight_lines

_STYLE = get_style_by_name("default")


def _pygments_css(ttype: object) -> str:
    while ttype not in _STYLE.styles and ttype is not Token:
        ttype = ttype.parent  # type: ignore[attr-defined]
    style = _STYLE.style_for_token(ttype)
    return ";".join([f"color:#{style['color']}"] * bool(style["color"])
                    + ["font-weight:bold"] * bool(style["bold"])
                    + ["font-style:italic"] * bool(style["italic"]))


def _pygments_chars(code: str) -> list[tuple[str, str]]:
    """Per character, its css in Pygments (white space has none: its colour never shows)."""
    return [("" if ch.isspace() else _pygments_css(ttype), ch) for ttype, value in
            PythonLexer(stripnl=False, ensurenl=False).get_tokens(code) for ch in value]


def _our_chars(code: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for n, line in enumerate(highlight_lines(code)):
        if n:
            out.append(("", "\n"))
        out.extend(("" if ch.isspace() else css, ch) for css, text in line for ch in text)
    return out


def _text(code: str) -> str:
    return "\n".join("".join(text for _css, text in line) for line in highlight_lines(code))


@pytest.mark.parametrize("name", ["builtin", "humaneval"])
def test_every_bundled_snippet_is_coloured_as_pygments_colours_it(name: str) -> None:
    bench = load_benchmark(f"data/{name}")
    differ = []
    for snippet in bench.corpus:
        ours, theirs = _our_chars(snippet.code), _pygments_chars(snippet.code)
        assert [ch for _, ch in ours] == [ch for _, ch in theirs], snippet.corpus_id
        wrong = [(ch, a, b) for (a, ch), (b, _) in zip(ours, theirs, strict=True) if a != b]
        if wrong:
            differ.append((snippet.corpus_id, wrong[:3]))
    assert differ == []


def test_the_token_classes_pygments_tells_apart() -> None:
    code = ('@functools.lru_cache\n@a.b(1)\nclass A(B):\n    """doc \\n"""\n'
            '    def f(self, x: int = 0) -> list[int]:\n'
            '        import os.path as p\n        from a.b import c\n'
            "        s = f\"v{x!r:>3}{{}}\" + b'\\n\\x41' + r'\\d' + 'it\\'s'\n"
            '        if x is not None and x in (1, 2.5, 0x1f, 1e3):\n'
            '            raise ValueError(len(s))  # why\n'
            '        return [True, __name__, self.y, x.len, print]\n'
            '    match x:\n        case [a]:\n            match = 1\n')
    assert _our_chars(code) == _pygments_chars(code)


def test_code_the_tokenizer_cannot_finish_keeps_every_character() -> None:
    broken = ['s = "unterminated\n', 'x = """never closed\n\n', "def f(:\n\treturn 1\n  r\n",
              "if x:\n        a\n    b\n", "f'{a\nb}'", "x = 1\r\ny = 2\r\n", "\x00\x01 é",
              "print(f'''{\nx\n}''')\n", ""]
    rng = random.Random(0)
    codes = broken + [s.code for s in load_benchmark("data/builtin").corpus[:200]]
    for code in codes:
        for cut in {len(code), *(rng.randrange(len(code) + 1) for _ in range(10))}:
            assert _text(code[:cut]) == code[:cut]
    # coloured up to where the tokenizer stopped
    first, second = highlight_lines('x = 1\ns = "open(\n')[:2]
    assert first == (("", "x "), ("color:#666666", "="), ("", " "), ("color:#666666", "1"))
    assert "".join(text for _css, text in second) == 's = "open('
    assert highlight_lines("def f(:\n\treturn 1\n  r\n")[0][0] == (
        "color:#008000;font-weight:bold", "def")
