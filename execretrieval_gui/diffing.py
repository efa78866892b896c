"""Line alignment plus character-exact change marks between two snippets, and its HTML.

Lines are aligned with :mod:`difflib`; inside a changed line pair, the lines are split into
Python-ish tokens and aligned token by token, and a replaced token is narrowed to the
characters that differ — so ``<`` becoming ``<=`` marks only the ``=``. Rendering lexes each
snippet once with Pygments (so multi-line strings stay right) and paints marks on top.
"""

from __future__ import annotations

import difflib
import html
import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from pygments.lexers import PythonLexer
from pygments.styles import get_style_by_name
from pygments.token import Token

__all__ = ["DiffRow", "diff_rows", "marked_fragments", "render_plain", "render_side_by_side",
           "render_unified"]

Span = tuple[int, int]
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?|\s+|[<>=!]=|//|\*\*|<<|>>|->|.")


@dataclass(frozen=True)
class DiffRow:
    """One row of a side-by-side diff. A side is None where the other has an extra line."""

    kind: str                       # 'equal' | 'replace' | 'delete' | 'insert'
    old_no: int | None              # 0-based line numbers
    new_no: int | None
    old_marks: tuple[Span, ...] = ()
    new_marks: tuple[Span, ...] = ()


def _char_marks(a: str, b: str, a0: int, b0: int) -> tuple[list[Span], list[Span]]:
    old: list[Span] = []
    new: list[Span] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            old.append((a0 + i1, a0 + i2))
        if j2 > j1:
            new.append((b0 + j1, b0 + j2))
    return old, new


def line_marks(old: str, new: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """Character spans that differ between two versions of one line."""
    ta, tb = _TOKEN.findall(old), _TOKEN.findall(new)
    oa = [0]
    for t in ta:
        oa.append(oa[-1] + len(t))
    ob = [0]
    for t in tb:
        ob.append(ob[-1] + len(t))
    old_marks: list[Span] = []
    new_marks: list[Span] = []
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace":
            a_text, b_text = "".join(ta[i1:i2]), "".join(tb[j1:j2])
            if _similar(a_text, b_text, 0.3):   # an edit inside a token: mark characters
                o, n = _char_marks(a_text, b_text, oa[i1], ob[j1])
            else:                                 # unrelated tokens: mark them whole
                o, n = [(oa[i1], oa[i2])], [(ob[j1], ob[j2])]
            old_marks += o
            new_marks += n
        elif tag == "delete":
            old_marks.append((oa[i1], oa[i2]))
        else:
            new_marks.append((ob[j1], ob[j2]))
    return _merge(old_marks), _merge(new_marks)


def _similar(a: str, b: str, threshold: float) -> bool:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= threshold


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return tuple(out)


def diff_rows(old: str, new: str) -> list[DiffRow]:
    """Aligned rows of ``old`` (the canonical) against ``new`` (the candidate)."""
    a, b = old.splitlines(), new.splitlines()
    rows: list[DiffRow] = []
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            rows += [DiffRow("equal", i, j)
                     for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]
        elif tag == "delete":
            rows += [DiffRow("delete", i, None, ((0, len(a[i])),)) for i in range(i1, i2)]
        elif tag == "insert":
            rows += [DiffRow("insert", None, j, (), ((0, len(b[j])),)) for j in range(j1, j2)]
        else:
            n = max(i2 - i1, j2 - j1)
            for k in range(n):
                i = i1 + k if i1 + k < i2 else None
                j = j1 + k if j1 + k < j2 else None
                if i is not None and j is not None and _similar(a[i].strip(), b[j].strip(), 0.5):
                    om, nm = line_marks(a[i], b[j])
                    rows.append(DiffRow("replace", i, j, om, nm))
                elif j is None or (i is not None and j is not None):
                    # unpaired or too different to pair: whole-line delete (and insert)
                    if i is not None:
                        rows.append(DiffRow("delete", i, None, ((0, len(a[i])),)))
                    if j is not None:
                        rows.append(DiffRow("insert", None, j, (), ((0, len(b[j])),)))
                else:
                    rows.append(DiffRow("insert", None, j, (), ((0, len(b[j])),)))
    return rows


def marked_fragments(old: str, new: str) -> tuple[list[str], list[str]]:
    """The marked text on each side (what a user sees highlighted), for tests and tooltips."""
    a, b = old.splitlines(), new.splitlines()
    olds: list[str] = []
    news: list[str] = []
    for row in diff_rows(old, new):
        if row.old_no is not None:
            olds += [a[row.old_no][s:e] for s, e in row.old_marks]
        if row.new_no is not None:
            news += [b[row.new_no][s:e] for s, e in row.new_marks]
    return olds, news


# rendering ---------------------------------------------------------------------------

_STYLE = get_style_by_name("default")
_DEL_LINE, _INS_LINE = "#fdecec", "#e9f7ec"
_DEL_MARK, _INS_MARK = "#f4a6a6", "#8fd19e"


@lru_cache(maxsize=4096)
def _token_css(ttype: object) -> str:
    while ttype not in _STYLE.styles and ttype is not Token:
        ttype = ttype.parent  # type: ignore[attr-defined]
    style = _STYLE.style_for_token(ttype)
    css = []
    if style["color"]:
        css.append(f"color:#{style['color']}")
    if style["bold"]:
        css.append("font-weight:bold")
    if style["italic"]:
        css.append("font-style:italic")
    return ";".join(css)


@lru_cache(maxsize=512)
def _highlight_lines(code: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Per line, the (css, text) runs of Pygments' highlighting of the whole snippet."""
    lines: list[list[tuple[str, str]]] = [[]]
    for ttype, value in PythonLexer(stripnl=False, ensurenl=False).get_tokens(code):
        css = _token_css(ttype)
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if k:
                lines.append([])
            if part:
                lines[-1].append((css, part))
    return tuple(tuple(line) for line in lines)


def _line_html(runs: tuple[tuple[str, str], ...], marks: tuple[Span, ...], mark_bg: str) -> str:
    out: list[str] = []
    pos = 0
    for css, text in runs:
        cuts = {0, len(text)}
        for s, e in marks:
            for c in (s - pos, e - pos):
                if 0 < c < len(text):
                    cuts.add(c)
        edges = sorted(cuts)
        for a, b in itertools.pairwise(edges):
            piece = text[a:b]
            start = pos + a
            marked = any(s <= start < e for s, e in marks)
            style = css + (f";background-color:{mark_bg};text-decoration:underline"
                           if marked else "")
            esc = html.escape(piece)
            out.append(f'<span style="{style}">{esc}</span>' if style else esc)
        pos += len(text)
    return "".join(out) or "&nbsp;"


def _lines(code: str) -> list[tuple[tuple[str, str], ...]]:
    runs = list(_highlight_lines(code))
    n = len(code.splitlines())
    return (runs + [()] * n)[:max(n, 1)]


_TABLE = ('<table cellspacing="0" cellpadding="1" width="100%" '
          'style="font-family:\'DejaVu Sans Mono\',monospace;">')
# two columns of code share the width: a slightly smaller face keeps ~45 characters a side
_TABLE_SIDE = _TABLE.replace("monospace;", "monospace;font-size:8pt;")
_NO = ('<td width="26" align="right" style="color:#8a8a8a;background-color:{bg}">'
       '{no}&nbsp;</td>')
_CODE = '<td width="95%" style="background-color:{bg};white-space:pre">{html}</td>'
# side by side: one text line per row (render_side_by_side wraps long lines itself)
_HALF = '<td width="48%" style="background-color:{bg};white-space:pre">{html}</td>'


def render_plain(code: str) -> str:
    """The snippet highlighted, with line numbers and no marks."""
    rows = [f"<tr>{_NO.format(bg='#ffffff', no=i + 1)}"
            f"{_CODE.format(bg='#ffffff', html=_line_html(runs, (), ''))}</tr>"
            for i, runs in enumerate(_lines(code))]
    return _TABLE + "".join(rows) + "</table>"


def _chunks(line: str, wrap: int | None) -> list[tuple[int, int, int]]:
    """``(start, end, indent)`` pieces of one line no wider than ``wrap`` characters.

    A continuation piece is indented past the line's own indentation, and breaks after a
    space, comma or opening bracket where there is one, so wrapped code still reads as code.
    """
    if wrap is None or len(line) <= wrap:
        return [(0, len(line), 0)]
    indent = min(len(line) - len(line.lstrip()), wrap // 3) + 2
    pieces: list[tuple[int, int, int]] = []
    start, width, lead = 0, wrap, 0
    while len(line) - start > width:
        end = start + width
        soft = max(line.rfind(c, start + width // 4, end) for c in " ,([")
        end = soft + 1 if soft > start else end
        pieces.append((start, end, lead))
        start, width, lead = end, max(wrap - indent, 8), indent
    pieces.append((start, len(line), lead))
    return pieces


def _slice(runs: tuple[tuple[str, str], ...], marks: tuple[Span, ...], start: int,
           end: int) -> tuple[tuple[tuple[str, str], ...], tuple[Span, ...]]:
    """The runs and marks of characters ``start:end`` of a line, shifted to start at 0."""
    out: list[tuple[str, str]] = []
    pos = 0
    for css, text in runs:
        a, b = max(start, pos), min(end, pos + len(text))
        if a < b:
            out.append((css, text[a - pos:b - pos]))
        pos += len(text)
    cut = tuple((max(s, start) - start, min(e, end) - start) for s, e in marks
                if s < end and e > start)
    return tuple(out), cut


def render_side_by_side(old: str, new: str, wrap: int | None = None) -> str:
    """Canonical (left) against candidate (right), changed characters marked.

    With ``wrap``, a line longer than that many characters continues on the next rows (a
    ``↪`` where its number would be) and the other side's row stays blank there, so both
    halves keep one text line per row and never wrap raggedly on their own.
    """
    a, b = _lines(old), _lines(new)
    a_text, b_text = old.splitlines() or [""], new.splitlines() or [""]
    out = [_TABLE_SIDE]
    for row in diff_rows(old, new):
        halves = []
        for no, runs, text, marks, line_bg, mark_bg in (
            (row.old_no, a, a_text, row.old_marks, _DEL_LINE, _DEL_MARK),
            (row.new_no, b, b_text, row.new_marks, _INS_LINE, _INS_MARK),
        ):
            bg = "#ffffff" if row.kind == "equal" else (line_bg if no is not None else "#f3f3f3")
            cells = []
            if no is not None:
                for k, (s, e, lead) in enumerate(_chunks(text[no], wrap)):
                    piece, cut = _slice(runs[no], marks, s, e)
                    code = "&nbsp;" * lead + _line_html(piece, cut, mark_bg)
                    cells.append(_NO.format(bg=bg, no=no + 1 if k == 0 else "&#8618;")
                                 + _HALF.format(bg=bg, html=code))
            halves.append((cells, bg))
        depth = max(len(cells) for cells, _bg in halves) or 1
        filled = [cells + [_NO.format(bg=bg, no="") + _HALF.format(bg=bg, html="&nbsp;")]
                  * (depth - len(cells)) for cells, bg in halves]
        out += [f'<tr>{left}<td width="6"></td>{right}</tr>'
                for left, right in zip(*filled, strict=True)]
    out.append("</table>")
    return "".join(out)


def render_unified(old: str, new: str) -> str:
    """One column: removed canonical lines (-) then the candidate's lines (+)."""
    a, b = _lines(old), _lines(new)
    out = [_TABLE]
    pending_new: list[str] = []

    def flush() -> None:
        out.extend(pending_new)
        pending_new.clear()

    for row in diff_rows(old, new):
        if row.kind == "equal":
            flush()
            out.append(f"<tr>{_NO.format(bg='#ffffff', no=row.new_no + 1)}"  # type: ignore[operator]
                       f'<td width="12">&nbsp;</td>'
                       f"{_CODE.format(bg='#ffffff', html=_line_html(b[row.new_no], (), ''))}"  # type: ignore[index]
                       f"</tr>")
            continue
        if row.old_no is not None:
            out.append(f"<tr>{_NO.format(bg=_DEL_LINE, no=row.old_no + 1)}"
                       f'<td width="12" style="background-color:{_DEL_LINE};color:#b00000">-</td>'
                       + _CODE.format(bg=_DEL_LINE, html=_line_html(a[row.old_no],
                                                                    row.old_marks, _DEL_MARK))
                       + "</tr>")
        if row.new_no is not None:
            pending_new.append(
                f"<tr>{_NO.format(bg=_INS_LINE, no=row.new_no + 1)}"
                f'<td width="12" style="background-color:{_INS_LINE};color:#006000">+</td>'
                + _CODE.format(bg=_INS_LINE, html=_line_html(b[row.new_no], row.new_marks,
                                                             _INS_MARK))
                + "</tr>")
    flush()
    out.append("</table>")
    return "".join(out)
