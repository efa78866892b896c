"""Where two snippets differ: line alignment and token-exact change marks.

Lines are aligned with :mod:`difflib`. Inside a changed line pair, both lines are split into
Python tokens (:mod:`tokenize`; whitespace is never a token, so a space is never marked on its
own) and aligned token by token with :class:`difflib.SequenceMatcher`:

* a token replaced by a similar one is narrowed to the characters that differ, so ``<``
  becoming ``<=`` marks only the ``=``;
* when the two lines hold the same tokens in another order (``swap_arguments``), the parts
  that moved are marked whole — the arguments of the call or the operands of the operator
  that were swapped — and the parts that stayed put are not, so
  ``range(len(xs) - 1, -1, -1)`` against ``range(-1, len(xs) - 1, -1)`` marks the first two
  arguments and leaves the step alone.

:func:`fold_rows` folds long unchanged runs; :func:`change_blocks` says where each change
starts (what "next change" steps through). Rendering is :mod:`execretrieval_gui.diffing`.
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["DiffRow", "Gap", "Span", "change_blocks", "diff_rows", "fold_rows", "line_marks",
           "marked_fragments", "tokens"]

Span = tuple[int, int]
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?|\s+|[<>=!]=|//|\*\*|<<|>>|->|.")
_SKIP = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
_OPEN, _CLOSE = "([{", ")]}"


@dataclass(frozen=True)
class DiffRow:
    """One row of a side-by-side diff. A side is None where the other has an extra line."""

    kind: str                       # 'equal' | 'replace' | 'delete' | 'insert'
    old_no: int | None              # 0-based line numbers
    new_no: int | None
    old_marks: tuple[Span, ...] = ()
    new_marks: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Gap:
    """Unchanged lines folded away: ``count`` rows starting at old/new line numbers."""

    count: int
    old_no: int
    new_no: int


def tokens(line: str) -> list[tuple[str, int]]:
    """The Python tokens of one line as ``(text, column)``, whitespace left out.

    A line is often not a whole statement (an open bracket continues below, a string is
    unterminated): what :mod:`tokenize` cannot read is split by a simple regular expression.
    """
    out: list[tuple[str, int]] = []
    pos = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line).readline):
            if tok.type in _SKIP or tok.start[0] != 1:
                continue
            if tok.type == tokenize.ERRORTOKEN and not tok.string.strip():
                continue
            out.append((tok.string, tok.start[1]))
            pos = tok.end[1] if tok.end[0] == 1 else len(line)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    for m in _TOKEN.finditer(line, pos):
        if m.group().strip():
            out.append((m.group(), m.start()))
    return out


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


def _span(toks: list[tuple[str, int]], i1: int, i2: int) -> Span:
    """Characters from token ``i1`` to the end of token ``i2 - 1`` (inner spaces included)."""
    return toks[i1][1], toks[i2 - 1][1] + len(toks[i2 - 1][0])


def _parts(texts: list[str], sep: str) -> list[tuple[int, int]] | None:
    """``texts`` split at ``sep`` tokens outside brackets, as (start, end) index ranges;
    None if the brackets do not balance or a part is empty."""
    depth, start, out = 0, 0, []
    for k, t in enumerate(texts):
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif t == sep and depth == 0:
            out.append((start, k))
            start = k + 1
    out.append((start, len(texts)))
    if depth or any(b <= a for a, b in out):
        return None
    return out


def _enclosing(texts: list[str], lo: int, hi: int) -> tuple[int, int]:
    """The inside of the innermost bracket pair around tokens ``lo..hi`` (else the line)."""
    depth = 0
    for k in range(lo - 1, -1, -1):
        if texts[k] in _CLOSE:
            depth += 1
        elif texts[k] in _OPEN:
            if depth == 0:
                depth = 0
                for m in range(k + 1, len(texts)):
                    if texts[m] in _OPEN:
                        depth += 1
                    elif texts[m] in _CLOSE:
                        if depth == 0:
                            return (k + 1, m) if m >= hi else (0, len(texts))
                        depth -= 1
                return 0, len(texts)
            depth -= 1
    return 0, len(texts)


def _moved(ta: list[tuple[str, int]], tb: list[tuple[str, int]]) -> \
        tuple[list[Span], list[Span]] | None:
    """Marks for a line whose tokens were only reordered: the parts that moved."""
    a, b = [t for t, _ in ta], [t for t, _ in tb]
    if a == b or Counter(a) != Counter(b):
        return None
    diff = [k for k in range(len(a)) if a[k] != b[k]]
    lo, hi = diff[0], diff[-1] + 1
    for start, end in ((lo, hi), _enclosing(a, lo, hi)):
        seps = [","] + [t for t in dict.fromkeys(a[start:end]) if t != "," and
                        not t[0].isalnum() and t not in _OPEN + _CLOSE + "_"]
        for sep in seps:
            pa, pb = _parts(a[start:end], sep), _parts(b[start:end], sep)
            if pa is None or pb is None or len(pa) < 2 or len(pa) != len(pb):
                continue
            ga = [tuple(a[start + x:start + y]) for x, y in pa]
            gb = [tuple(b[start + x:start + y]) for x, y in pb]
            if Counter(ga) != Counter(gb) or ga == gb:
                continue
            old = [_span(ta, start + x, start + y) for (x, y), g, h in zip(pa, ga, gb,
                                                                           strict=True) if g != h]
            new = [_span(tb, start + x, start + y) for (x, y), g, h in zip(pb, ga, gb,
                                                                           strict=True) if g != h]
            return old, new
    return ([_span(ta, k, k + 1) for k in diff], [_span(tb, k, k + 1) for k in diff])


def line_marks(old: str, new: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """Character spans that differ between two versions of one line (token-aligned)."""
    ta, tb = tokens(old), tokens(new)
    moved = _moved(ta, tb)
    if moved is not None:
        return _merge(moved[0]), _merge(moved[1])
    old_marks: list[Span] = []
    new_marks: list[Span] = []
    sm = difflib.SequenceMatcher(None, [t for t, _ in ta], [t for t, _ in tb], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for (x, xo), (y, yo) in zip(ta[i1:i2], tb[j1:j2], strict=True):
                if _similar(x, y, 0.3):   # an edit inside a token: mark characters
                    o, n = _char_marks(x, y, xo, yo)
                else:
                    o, n = [(xo, xo + len(x))], [(yo, yo + len(y))]
                old_marks += o
                new_marks += n
            continue
        if i2 > i1:
            old_marks.append(_span(ta, i1, i2))
        if j2 > j1:
            new_marks.append(_span(tb, j1, j2))
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
    return list(_diff_rows(old, new))


@lru_cache(maxsize=256)
def _diff_rows(old: str, new: str) -> tuple[DiffRow, ...]:
    """:func:`diff_rows`, remembered: a view asks for the same pair's rows several times."""
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
    return tuple(rows)


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


def change_blocks(rows: list[DiffRow]) -> list[int]:
    """Indexes of the rows where a run of changed rows starts (what n/p step through)."""
    return [k for k, row in enumerate(rows)
            if row.kind != "equal" and (k == 0 or rows[k - 1].kind == "equal")]


def fold_rows(rows: list[DiffRow], context: int = 2) -> list[DiffRow | Gap]:
    """``rows`` with runs of unchanged rows longer than ``2 * context + 1`` folded to a
    :class:`Gap`, keeping ``context`` rows next to each change (and none of an all-equal
    snippet folded: there would be nothing left to read)."""
    if all(r.kind == "equal" for r in rows):
        return list(rows)
    keep = [False] * len(rows)
    for k, row in enumerate(rows):
        if row.kind != "equal":
            for m in range(max(0, k - context), min(len(rows), k + context + 1)):
                keep[m] = True
    out: list[DiffRow | Gap] = []
    k = 0
    while k < len(rows):
        if keep[k]:
            out.append(rows[k])
            k += 1
            continue
        m = k
        while m < len(rows) and not keep[m]:
            m += 1
        if m - k == 1:
            out.append(rows[k])
        else:
            out.append(Gap(m - k, rows[k].old_no or 0, rows[k].new_no or 0))
        k = m
    return out
