"""Seed files: the tasks a benchmark is built from, one JSON object a line.

A seed line holds ``query``, ``function_name``, ``domain`` (one of design §3's ten),
``canonical`` (code) and ``test_suite`` (assert statements), and optionally
``distractors``: hand-written buggy versions, each ``{"code", "bug_type",
"bug_description"}``, which the builder verifies like generated ones. Unknown fields are
ignored. A malformed line raises :class:`~execretrieval.errors.InputFormatError` naming
file, line and field; whether a well-formed task *works* (its canonical passes its tests)
is the builder's business, which reports rather than raises.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputFormatError
from ..fileio import utf8_error_line
from .dataset import BUG_TYPES, DOMAINS

__all__ = ["HandDistractor", "SeedTask", "read_seed", "seed_line"]


@dataclass(frozen=True)
class HandDistractor:
    """A hand-written distractor from a seed line."""

    code: str
    bug_type: str
    bug_description: str


@dataclass(frozen=True)
class SeedTask:
    """One task to build: where it came from (``origin``, e.g. a seed-file line) and what."""

    origin: str
    query: str
    function_name: str
    domain: str
    canonical: str
    test_suite: tuple[str, ...]
    distractors: tuple[HandDistractor, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}),
                                     compare=False)


def _fail(path: Path, line: int, field_name: str | None, message: str) -> InputFormatError:
    return InputFormatError(message, file=path, line=line, field=field_name)


def _string(obj: Mapping[str, Any], name: str, path: Path, line: int) -> str:
    if name not in obj:
        raise _fail(path, line, name, "missing")
    value = obj[name]
    if not isinstance(value, str):
        raise _fail(path, line, name, f"expected a string, got {type(value).__name__}")
    if not value.strip():
        raise _fail(path, line, name, "must not be empty")
    return value


def _distractor(item: Any, i: int, path: Path, line: int) -> HandDistractor:
    where = f"distractors[{i}]"
    if not isinstance(item, dict):
        raise _fail(path, line, where, "expected an object with code, bug_type, "
                                       "bug_description")
    code = _string(item, "code", path, line)
    bug_type = _string(item, "bug_type", path, line)
    if bug_type not in BUG_TYPES:
        raise _fail(path, line, f"{where}.bug_type",
                    f"unknown bug type {bug_type!r}; expected one of {', '.join(BUG_TYPES)}")
    description = item.get("bug_description") or "hand-written distractor"
    if not isinstance(description, str):
        raise _fail(path, line, f"{where}.bug_description", "expected a string")
    return HandDistractor(code, bug_type, description)


def _task(obj: Any, path: Path, line: int) -> SeedTask:
    if not isinstance(obj, dict):
        raise _fail(path, line, None, "expected a JSON object")
    function_name = _string(obj, "function_name", path, line)
    if not function_name.isidentifier() or keyword.iskeyword(function_name):
        raise _fail(path, line, "function_name", f"{function_name!r} is not a Python identifier")
    domain = _string(obj, "domain", path, line)
    if domain not in DOMAINS:
        raise _fail(path, line, "domain",
                    f"unknown domain {domain!r}; expected one of {', '.join(DOMAINS)}")
    tests = obj.get("test_suite")
    if not isinstance(tests, list) or not tests or not all(isinstance(t, str) for t in tests):
        raise _fail(path, line, "test_suite", "expected a non-empty list of strings")
    hand = obj.get("distractors", [])
    if not isinstance(hand, list):
        raise _fail(path, line, "distractors", "expected a list")
    return SeedTask(
        origin=f"{path.name}:{line}",
        query=_string(obj, "query", path, line),
        function_name=function_name,
        domain=domain,
        canonical=_string(obj, "canonical", path, line),
        test_suite=tuple(tests),
        distractors=tuple(_distractor(d, i, path, line) for i, d in enumerate(hand)),
    )


def read_seed(path: str | Path) -> tuple[list[SeedTask], bytes]:
    """Parse a seed file; returns its tasks and the exact bytes read (for hashing/copying)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputFormatError(f"cannot read seed file: {exc.strerror}", file=path) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"not UTF-8: {exc.reason}", file=path,
                               line=utf8_error_line(exc)) from exc
    tasks: list[SeedTask] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _fail(path, lineno, None, f"invalid JSON: {exc.msg} (column {exc.colno})") \
                from exc
        tasks.append(_task(obj, path, lineno))
    if not tasks:
        raise InputFormatError("the seed file holds no tasks", file=path)
    return tasks, data


def seed_line(query: str, function_name: str, domain: str, canonical: str,
              test_suite: list[str]) -> str:
    """One seed line, keys in the documented order (for tools that write seed files)."""
    return json.dumps({"query": query, "function_name": function_name, "domain": domain,
                       "canonical": canonical, "test_suite": list(test_suite)},
                      ensure_ascii=False)
