"""A function's query from its docstring: the summary a reader would say the function does.

:func:`summary` keeps the docstring's first prose paragraph and drops what is not prose:

- doctest examples (``>>>`` lines, their ``...`` continuations and their expected output,
  up to the next blank line or prompt);
- a first paragraph that is only a signature (``capwords(s [,sep]) -> string``,
  ``quote('abc def') -> 'abc%20def'``): the next paragraph is the summary;
- reST field lists (``:param x:``, ``:returns:``, ``:raises ValueError:`` and their indented
  continuation lines);
- Google sections (a line ``Args:``, ``Returns:``, ``Raises:``, ``Examples:`` ... on its own)
  and NumPy sections (a title underlined with ``---``): the section and everything after it.

Whitespace is normalised to single spaces. A summary of fewer than :data:`MIN_WORDS` words is
no usable docstring (``None``), as is an empty one: a task's query must say something.
"""

from __future__ import annotations

import inspect
import re

__all__ = ["MIN_WORDS", "summary"]

#: Fewer words than this is not a query ("Helper.", "Internal use only").
MIN_WORDS = 3

_GOOGLE = re.compile(
    r"(args|arguments|parameters|params|returns?|yields?|raises|exceptions|examples?|"
    r"notes?|attributes|see also|references|warnings?|todo|keyword args|keyword arguments|"
    r"other parameters|methods)\s*:\s*$", re.IGNORECASE)
_NUMPY_RULE = re.compile(r"-{3,}\s*$")
_FIELD = re.compile(r":(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|"
                    r"except|exception|var|ivar|cvar|yields?|ytype|meta)\b[^:]*:", re.IGNORECASE)
_PROMPT = re.compile(r">>>( |$)")
# an old-style first line giving the call instead of prose: "capwords(s [,sep]) -> string"
_SIGNATURE = re.compile(r"[\w.]+\(.*\)\s*(->.*)?")


def _structure_start(lines: list[str]) -> int:
    """Index of the first line of a Google or NumPy section (len(lines) when none)."""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if _GOOGLE.fullmatch(stripped):
            return i
        if stripped and i + 1 < len(lines) and _NUMPY_RULE.fullmatch(lines[i + 1].strip()):
            return i
    return len(lines)


def _prose(lines: list[str]) -> list[str]:
    """The lines with doctest blocks and reST fields replaced by blank lines."""
    kept: list[str] = []
    in_doctest = in_field = False
    field_indent = 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped:
            in_doctest = in_field = False
            kept.append("")
            continue
        if _PROMPT.match(stripped):
            in_doctest = True
        if in_doctest:
            kept.append("")
            continue
        if _FIELD.match(stripped):
            in_field, field_indent = True, indent
            kept.append("")
            continue
        if in_field and indent > field_indent:
            kept.append("")
            continue
        in_field = False
        kept.append(stripped)
    return kept


def summary(docstring: str | None) -> str | None:
    """The first prose paragraph of ``docstring``, whitespace normalised; None when unusable."""
    if not docstring:
        return None
    lines = inspect.cleandoc(docstring).splitlines()
    lines = _prose(lines[:_structure_start(lines)])
    text = ""
    paragraph: list[str] = []
    for line in [*lines, ""]:
        if line:
            paragraph.append(line)
        elif paragraph:
            text = " ".join(" ".join(paragraph).split())
            if not _SIGNATURE.fullmatch(text):
                break
            text, paragraph = "", []
    if len(text.split()) < MIN_WORDS:
        return None
    return text
