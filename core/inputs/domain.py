"""The implicit domain of a function, inferred from its suite's own calls.

A generated input the suite would never pass (a negative where every suite call passes a
non-negative, ``'2024/01/01'`` where every suite string reads ``9999-99-99``) can tell an
equivalent-in-spirit mutant apart, or make a suggested test assert behaviour the query
never promised. The rule is deliberately simple and stated in full: per argument (and,
inside lists, tuples and sets, per element; inside tuples of one length, per position),
over the suite's calls, a precondition holds when **every** suite call satisfies it and
at least two calls show the argument:

* ints (not bools): *non-negative* when no suite value is negative, *positive* when none
  is below 1;
* strings, lists, tuples, dicts, sets: *non-empty* when no suite value is empty;
* strings: one *shape* (each digit written ``9``, each letter ``a``) when all suite
  strings share it; else a *character class* (digits only, letters only, lower case only,
  ASCII only) when all share it;
* lists: *sorted* (ascending) when every suite list with two or more items is, and at
  least one has;
* tuples: one *length* when all suite tuples have it.

An input is *inside* the domain when it keeps every precondition; otherwise
:meth:`Domain.outside` names the first it breaks.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from .plain import _value

__all__ = ["Domain", "Precondition", "call_arguments", "infer_domain"]

_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Precondition:
    """``kind`` holds at ``where`` (``argument 1``, ``each item of argument 2``...);
    ``detail`` is the shape for ``shape``, the length for ``length``."""

    where: str
    kind: str
    detail: str = ""

    @property
    def text(self) -> str:
        words = {"non_negative": "is non-negative", "positive": "is positive",
                 "non_empty": "is not empty", "sorted": "is sorted",
                 "digits": "holds digits only", "letters": "holds letters only",
                 "lower": "is lower case", "ascii": "is ASCII",
                 "shape": f"reads {self.detail!r}", "length": f"has length {self.detail}"}
        return f"{self.where} {words[self.kind]}"


def _shape(text: str) -> str:
    return re.sub(r"\d", "9", _LETTER.sub("a", text))


def _holds(kind: str, detail: str, value: Any) -> bool | None:
    """Whether ``value`` keeps a precondition; None when it does not apply to it."""
    t = type(value)
    if kind in ("non_negative", "positive"):
        if t is not int:
            return None
        return value >= 0 if kind == "non_negative" else value >= 1
    if kind == "non_empty":
        return len(value) > 0 if t in (str, list, tuple, dict, set, frozenset) else None
    if t is str and kind in ("shape", "digits", "letters", "lower", "ascii"):
        return {"shape": lambda: _shape(value) == detail, "digits": value.isdigit,
                "letters": value.isalpha, "lower": lambda: value == value.lower(),
                "ascii": value.isascii}[kind]()
    if kind == "sorted" and t is list:
        try:
            return all(a <= b for a, b in zip(value, value[1:], strict=False))
        except TypeError:
            return False
    if kind == "length" and t is tuple:
        return str(len(value)) == detail
    return None


def _places(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, list[Any]]:
    """Each place of a call (an argument, the items of a container argument, a position
    of a tuple argument) -> the values found there."""
    out: dict[str, list[Any]] = {}

    def visit(where: str, value: Any, depth: int) -> None:
        out.setdefault(where, []).append(value)
        if depth >= 2:
            return
        if type(value) in (list, set, frozenset) or (type(value) is tuple and depth):
            for item in value:
                visit(f"each item of {where}", item, depth + 1)
        if type(value) is tuple:
            for i, item in enumerate(value):
                visit(f"item {i + 1} of {where}", item, depth + 1)

    for i, value in enumerate(args):
        visit(f"argument {i + 1}", value, 0)
    for name, value in kwargs.items():
        visit(f"argument {name}", value, 0)
    return out


@dataclass(frozen=True)
class Domain:
    """The preconditions inferred from a suite's calls (see the module docstring)."""

    preconditions: tuple[Precondition, ...] = ()

    def outside(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        """The first precondition a call breaks, in words (``argument 1 is non-negative
        (the suite's calls all keep it)``), or "" when it keeps them all."""
        places = _places(args, kwargs)
        for pre in self.preconditions:
            for value in places.get(pre.where, ()):
                if _holds(pre.kind, pre.detail, value) is False:
                    return f"{pre.text} in every suite call, not here"
        return ""

    def outside_call(self, call: str) -> str:
        """:meth:`outside` of a call written as source (``f(3, 'a')``); "" when the call
        cannot be read (nothing is claimed about it)."""
        parsed = call_arguments(call)
        return "" if parsed is None else self.outside(*parsed)


def call_arguments(call: str) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """The plain-data arguments of a call written as source, or None; nothing is
    evaluated (the values are read as :func:`~execretrieval.inputs.plain.from_source`
    reads them)."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
        if not isinstance(node, ast.Call):
            return None
        args = tuple(_value(a) for a in node.args)
        kwargs = {k.arg: _value(k.value) for k in node.keywords if k.arg is not None}
    except (SyntaxError, ValueError, TypeError, RecursionError, OverflowError):
        return None
    return args, kwargs


def infer_domain(calls: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> Domain:
    """The preconditions every one of the suite's ``calls`` keeps."""
    if len(calls) < 2:
        return Domain()
    seen: dict[str, list[Any]] = {}
    for args, kwargs in calls:
        for where, values in _places(args, kwargs).items():
            seen.setdefault(where, []).extend(values)
    out: list[Precondition] = []
    for where, values in seen.items():
        types = {type(v) for v in values}
        if len(types) != 1 or len(values) < 2:
            continue
        t = types.pop()
        wanted: list[tuple[str, str]] = []
        if t is int:
            wanted = [("positive", ""), ("non_negative", "")]
        elif t in (str, list, tuple, dict, set, frozenset):
            wanted = [("non_empty", "")]
        if t is str:
            shapes = {_shape(v) for v in values}
            wanted += ([("shape", shapes.pop())] if len(shapes) == 1 else
                       [("digits", ""), ("letters", ""), ("lower", ""), ("ascii", "")])
        if t is list and any(len(v) >= 2 for v in values):
            wanted.append(("sorted", ""))
        if t is tuple and len({len(v) for v in values}) == 1:
            wanted.append(("length", str(len(values[0]))))
        for kind, detail in wanted:
            if all(_holds(kind, detail, v) for v in values):
                out.append(Precondition(where, kind, detail))
                if kind == "positive":   # implies non-negative
                    break
    return Domain(tuple(out))
