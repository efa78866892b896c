"""The HTML of a diff (for a QTextBrowser): syntax colouring with change marks on top.

Each snippet is coloured once, whole (:mod:`.highlight`: the standard tokenizer in Pygments'
default style, so multi-line strings stay right) and the marks of
:mod:`execretrieval_gui.diff_align` are painted over it, in colours that read "canonical"
(blue) and "mutant" (orange) — the Okabe–Ito pair, distinct for every common form of colour
blindness — rather than good and bad. Every change block's first line number carries an
anchor (:func:`anchor`), so a view can scroll to it.
"""

from __future__ import annotations

import html
import itertools

from .diff_align import (
    DiffRow,
    Gap,
    Span,
    change_blocks,
    diff_rows,
    fold_rows,
    line_marks,
    marked_fragments,
    tokens,
)
from .highlight import highlight_lines

__all__ = ["CANON_LINE", "CANON_MARK", "MUTANT_LINE", "MUTANT_MARK", "DiffRow", "Gap", "anchor",
           "change_blocks", "diff_rows", "fold_rows", "line_marks", "marked_fragments",
           "render_plain", "render_side_by_side", "render_unified", "tokens"]

# rendering ---------------------------------------------------------------------------

# canonical = blue, mutant = orange (Okabe-Ito #0072B2 / #E69F00, tinted): the two sides
# differ in hue and in lightness, so they stay apart without colour vision too
CANON_LINE, CANON_MARK = "#e6f0fa", "#9ec5ea"
MUTANT_LINE, MUTANT_MARK = "#fdf0dc", "#f6c37a"
_GAP_BG = "#f1f2f4"


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
            style = css + (f";background-color:{mark_bg};font-weight:bold" if marked else "")
            esc = html.escape(piece)
            out.append(f'<span style="{style}">{esc}</span>' if style else esc)
        pos += len(text)
    return "".join(out) or "&nbsp;"


def _lines(code: str) -> list[tuple[tuple[str, str], ...]]:
    runs = list(highlight_lines(code))
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


def anchor(k: int) -> str:
    """The name of the anchor at the start of change block ``k`` (for scrolling to it)."""
    return f"change{k}"


def _number(no: int | None, k: int | None) -> str:
    """A line number cell's text, with the anchor of change block ``k`` when it starts one."""
    text = "" if no is None else str(no + 1)
    return f'<a name="{anchor(k)}">{text or "&nbsp;"}</a>' if k is not None else text


def _gap_row(gap: Gap, columns: int) -> str:
    noun = "line" if gap.count == 1 else "lines"
    return (f'<tr><td colspan="{columns}" align="center" style="background-color:{_GAP_BG};'
            f'color:#6a6f78">&#8943; {gap.count} unchanged {noun} &#8943;</td></tr>')


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


def _shown(rows: list[DiffRow], fold: bool) -> tuple[list[DiffRow | Gap], dict[int, int]]:
    """The rows to draw (folded or not) and, per drawn row that starts a change block, the
    block's number."""
    starts = {id(rows[k]): n for n, k in enumerate(change_blocks(rows))}
    shown = fold_rows(rows) if fold else list(rows)
    return shown, {k: starts[id(r)] for k, r in enumerate(shown) if id(r) in starts}


def render_side_by_side(old: str, new: str, wrap: int | None = None, fold: bool = False) -> str:
    """Canonical (left) against candidate (right), changed characters marked.

    With ``wrap``, a line longer than that many characters continues on the next rows (a
    ``↪`` where its number would be) and the other side's row stays blank there, so both
    halves keep one text line per row and never wrap raggedly on their own. With ``fold``,
    long runs of unchanged lines shrink to one "⋯ n unchanged lines" row.
    """
    a, b = _lines(old), _lines(new)
    a_text, b_text = old.splitlines() or [""], new.splitlines() or [""]
    out = [_TABLE_SIDE]
    shown, blocks = _shown(diff_rows(old, new), fold)
    for index, row in enumerate(shown):
        if isinstance(row, Gap):
            out.append(_gap_row(row, 5))
            continue
        block = blocks.get(index)
        anchored = 0 if row.old_no is not None else 1   # the side whose number is the anchor
        halves = []
        for side, (no, runs, text, marks, line_bg, mark_bg) in enumerate((
            (row.old_no, a, a_text, row.old_marks, CANON_LINE, CANON_MARK),
            (row.new_no, b, b_text, row.new_marks, MUTANT_LINE, MUTANT_MARK),
        )):
            bg = "#ffffff" if row.kind == "equal" else (line_bg if no is not None else "#f3f3f3")
            cells = []
            if no is not None:
                for k, (s, e, lead) in enumerate(_chunks(text[no], wrap)):
                    piece, cut = _slice(runs[no], marks, s, e)
                    code = "&nbsp;" * lead + _line_html(piece, cut, mark_bg)
                    number = (_number(no, block if side == anchored else None) if k == 0
                              else "&#8618;")
                    cells.append(_NO.format(bg=bg, no=number) + _HALF.format(bg=bg, html=code))
            halves.append((cells, bg))
        depth = max(len(cells) for cells, _bg in halves) or 1
        filled = [cells + [_NO.format(bg=bg, no="") + _HALF.format(bg=bg, html="&nbsp;")]
                  * (depth - len(cells)) for cells, bg in halves]
        out += [f'<tr>{left}<td width="6"></td>{right}</tr>'
                for left, right in zip(*filled, strict=True)]
    out.append("</table>")
    return "".join(out)


def _unified_rows(no: int, runs: tuple[tuple[str, str], ...], text: str, sign: str,
                  bg: str, marks: tuple[Span, ...], mark_bg: str, wrap: int | None,
                  block: int | None = None) -> list[str]:
    """The table rows of one line of the unified diff, wrapped to ``wrap`` characters."""
    colour = {"-": "#0b4f8a", "+": "#8a4b00"}.get(sign, "#000000")
    out = []
    for k, (s, e, lead) in enumerate(_chunks(text, wrap)):
        piece, cut = _slice(runs, marks, s, e)
        code = "&nbsp;" * lead + _line_html(piece, cut, mark_bg)
        number = _number(no, block) if k == 0 else "&#8618;"
        mark = sign if (k == 0 and sign) else "&nbsp;"
        out.append(f"<tr>{_NO.format(bg=bg, no=number)}"
                   f'<td width="12" style="background-color:{bg};color:{colour}">{mark}</td>'
                   f"{_CODE.format(bg=bg, html=code)}</tr>")
    return out


def render_unified(old: str, new: str, fold: bool = False, wrap: int | None = None) -> str:
    """One column: removed canonical lines (-) then the candidate's lines (+); with ``wrap``,
    long lines continue on the next rows (``↪``)."""
    a, b = _lines(old), _lines(new)
    a_text, b_text = old.splitlines() or [""], new.splitlines() or [""]
    out = [_TABLE]
    pending_new: list[str] = []

    def flush() -> None:
        out.extend(pending_new)
        pending_new.clear()

    shown, blocks = _shown(diff_rows(old, new), fold)
    for index, row in enumerate(shown):
        if isinstance(row, Gap):
            flush()
            out.append(_gap_row(row, 3))
            continue
        block = blocks.get(index)
        if row.kind == "equal":
            flush()
            j = row.new_no or 0
            out += _unified_rows(j, b[j], b_text[j], "", "#ffffff", (), "", wrap)
            continue
        if row.old_no is not None:
            i = row.old_no
            out += _unified_rows(i, a[i], a_text[i], "-", CANON_LINE, row.old_marks,
                                 CANON_MARK, wrap, block)
            block = None
        if row.new_no is not None:
            j = row.new_no
            pending_new += _unified_rows(j, b[j], b_text[j], "+", MUTANT_LINE, row.new_marks,
                                         MUTANT_MARK, wrap, block)
    flush()
    out.append("</table>")
    return "".join(out)
