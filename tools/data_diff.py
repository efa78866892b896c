"""How a shipped data file differs from its rebuild, in words a maintainer can act on.

Used by tools/check_data.py. JSON Lines files are compared line by line (the first
differing line, both versions, how many lines differ); a corpus also lists the queries
whose snippets changed and, for their distractors, how the oracle judges them now, which
is where a change in the oracle's rules shows (a mutant that used to fail a test by
assertion and now only errors is no longer kept, so another one is chosen). Embedding
files are compared array by array; JSON by a unified diff.
"""

from __future__ import annotations

import difflib
import json
import zipfile
from pathlib import Path
from typing import Any

__all__ = ["describe_difference"]

_WIDTH = 240
_QUERIES_SHOWN = 6


def _cut(text: str, width: int = _WIDTH) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def describe_difference(shipped: Path, rebuilt: Path, label: str) -> str:
    """A few lines saying where and how ``rebuilt`` differs from ``shipped``."""
    if shipped.suffix == ".npz":
        return _npz(shipped, rebuilt, label)
    a, b = shipped.read_bytes(), rebuilt.read_bytes()
    try:
        old, new = a.decode("utf-8").splitlines(), b.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
        return f"{label}: differs at byte {at} ({len(a)} bytes shipped, {len(b)} rebuilt)"
    if shipped.suffix == ".json":
        diff = list(difflib.unified_diff(old, new, "shipped", "rebuilt", lineterm="", n=1))
        shown = "\n".join("    " + _cut(d) for d in diff[:40])
        more = f"\n    ... {len(diff) - 40} more diff lines" if len(diff) > 40 else ""
        first = next((i for i, (x, y) in enumerate(zip(old, new, strict=False)) if x != y),
                     min(len(old), len(new)))
        return f"{label}: differs from line {first + 1}:\n{shown}{more}"
    lines = _lines(old, new, label)
    if shipped.name == "corpus.jsonl":
        lines += _corpus(shipped, rebuilt, old, new)
    return "\n".join(lines)


def _lines(old: list[str], new: list[str], label: str) -> list[str]:
    differing = [i for i in range(max(len(old), len(new)))
                 if i >= len(old) or i >= len(new) or old[i] != new[i]]
    if not differing:  # same lines: the bytes differ in line endings or a final newline
        return [f"{label}: same lines, different bytes (line endings or final newline)"]
    first = differing[0]
    a = old[first] if first < len(old) else None
    b = new[first] if first < len(new) else None
    column = 0
    if a is not None and b is not None:
        column = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                      min(len(a), len(b)))
    out = [f"{label}: line {first + 1} differs from column {column + 1} ({len(differing)} of "
           f"{max(len(old), len(new))} lines differ; {len(old)} shipped, {len(new)} rebuilt)"]
    for side, text in (("shipped", a), ("rebuilt", b)):
        out.append(f"    {side}: " + ("(no such line)" if text is None else _around(text, column)))
    return out


def _around(text: str, column: int) -> str:
    """``text`` from a little before ``column``, cut to the width."""
    start = max(0, column - 80)
    return ("…" if start else "") + _cut(text[start:])


def _records(lines: list[str]) -> list[dict[str, Any]]:
    out = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            out.append(record)
    return out


def _corpus(shipped: Path, rebuilt: Path, old: list[str], new: list[str]) -> list[str]:
    """Per changed query: the shipped and rebuilt distractors and today's verdict on each."""
    def by_query(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in records:
            groups.setdefault(str(r.get("query_id")), []).append(r)
        return groups

    def key(r: dict[str, Any]) -> tuple[str, ...]:
        return tuple(str(r.get(k)) for k in ("role", "bug_type", "bug_description", "code"))

    a, b = by_query(_records(old)), by_query(_records(new))
    changed = [q for q in sorted(set(a) | set(b))
               if sorted(map(key, a.get(q, []))) != sorted(map(key, b.get(q, [])))]
    if not changed:
        return ["    the same snippets per query, in another order or with other ids"]
    out = [f"    queries whose snippets changed: {len(changed)} ("
           + ", ".join(changed[:20]) + (", ..." if len(changed) > 20 else "") + ")"]
    queries = _queries(shipped.parent / "queries.jsonl")
    for q in changed[:_QUERIES_SHOWN]:
        out += _query_verdicts(q, queries.get(q, {}), a.get(q, []), b.get(q, []), key)
    if len(changed) > _QUERIES_SHOWN:
        out.append(f"    ... and {len(changed) - _QUERIES_SHOWN} more queries")
    return out


def _query_verdicts(qid: str, query: dict[str, Any], old: list[dict[str, Any]],
                    new: list[dict[str, Any]], key: Any) -> list[str]:
    """The distractors only one side has, and the mutants the keep rule rejects today.

    A selection moves when the set of kept mutants changes (the seeded draw depends on
    it), so the rejected list is where a changed verdict usually shows."""
    name = str(query.get("function_name") or "")
    tests = [str(t) for t in query.get("test_suite") or []]
    canonical = next((str(r.get("code")) for r in old + new if r.get("role") == "canonical"),
                     "")
    only = [("shipped only", r) for r in old if key(r) not in set(map(key, new))] + \
           [("rebuilt only", r) for r in new if key(r) not in set(map(key, old))]
    only = [(side, r) for side, r in only if r.get("role") == "distractor"]
    try:
        from execretrieval.mutation import generate_mutants

        mutants = list(generate_mutants(canonical, name).mutants) if name else []
    except Exception:  # a canonical that no longer parses: its diff says so already
        mutants = []
    verdicts = _verdicts([(str(r.get("code")), tests) for _, r in only]
                         + [(m.code, tests) for m in mutants])
    out = [f"    {qid}" + (f" ({name})" if name else "") + ":"]
    for (side, r), verdict in zip(only, verdicts, strict=False):
        out.append(f"      {side}: {r.get('corpus_id')} {r.get('bug_type')}: "
                   f"{_cut(str(r.get('bug_description')), 90)} -> {verdict}")
    judged = list(zip(mutants, verdicts[len(only):], strict=False))
    rejected = [(m, v) for m, v in judged if not v.startswith("kept")]
    out.append(f"      today {len(judged) - len(rejected)} of {len(judged)} mutants are kept"
               + ("; rejected:" if rejected else ""))
    for m, verdict in rejected[:10]:
        out.append(f"        {m.bug_type}: {_cut(m.bug_description, 80)} -> {verdict}")
    if len(rejected) > 10:
        out.append(f"        ... and {len(rejected) - 10} more")
    return out


def _queries(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    return {str(r.get("query_id")): r
            for r in _records(path.read_text(encoding="utf-8").splitlines())}


def _verdicts(jobs: list[tuple[str, list[str]]]) -> list[str]:
    """What the builder's keep rule says of each snippet today (1 s timeout, no cache)."""
    if not jobs:
        return []
    try:
        from execretrieval.mutation import keep_reason
        from execretrieval.oracle.execution import Oracle

        with Oracle(timeout=1.0, cache=None) as oracle:
            results = oracle.run_many(jobs)
    except Exception as exc:  # the diagnosis is a help; the difference is already reported
        return [f"(not judged: {type(exc).__name__}: {exc})"] * len(jobs)
    out = []
    for result in results:
        reason = keep_reason(result)
        if reason is None:
            out.append("kept today")
        elif result.passed:
            out.append(f"rejected today: {reason}")
        else:
            out.append(f"rejected today: {reason}; {_cut(result.first_problem(), 110)}")
    return out


def _npz(shipped: Path, rebuilt: Path, label: str) -> str:
    import numpy as np

    try:
        with np.load(shipped, allow_pickle=False) as x, np.load(rebuilt, allow_pickle=False) as y:
            a = {k: x[k] for k in x.files}
            b = {k: y[k] for k in y.files}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        return f"{label}: differs, and cannot be read as .npz ({exc})"
    out = [f"{label}: differs"]
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            out.append(f"    array {name}: only in the {'rebuilt' if name in b else 'shipped'}")
            continue
        u, v = a[name], b[name]
        if u.ndim == v.ndim == 0 and u.dtype.kind == v.dtype.kind == "U":
            if str(u) != str(v):  # a string's dtype is its length: compare the text
                out.append(f"    array {name}: shipped {_cut(str(u), 200)}")
                out.append(f"    {' ' * len(name)}         rebuilt {_cut(str(v), 200)}")
        elif u.shape != v.shape or u.dtype != v.dtype:
            out.append(f"    array {name}: {u.dtype}{list(u.shape)} shipped, "
                       f"{v.dtype}{list(v.shape)} rebuilt")
        elif not np.array_equal(u, v):
            if u.dtype.kind == "f":
                rows = np.flatnonzero((u != v).reshape(len(u), -1).any(axis=1))
                ids = a.get("query_ids" if name == "queries" else "corpus_ids")
                first = str(ids[rows[0]]) if ids is not None and len(ids) == len(u) \
                    else f"row {rows[0]}"
                out.append(f"    array {name}: {len(rows)} of {len(u)} rows differ, first "
                           f"{first}; largest difference {float(np.abs(u - v).max()):.3g}")
            elif u.ndim == 0:
                out.append(f"    array {name}: shipped {_cut(str(u), 200)}")
                out.append(f"    {' ' * len(name)}         rebuilt {_cut(str(v), 200)}")
            else:
                at = int(np.flatnonzero(u != v)[0])
                out.append(f"    array {name}: element {at} differs: shipped "
                           f"{str(u.flat[at])!r}, rebuilt {str(v.flat[at])!r}")
    if len(out) == 1:
        out.append("    every array is equal: the zip container differs (order, compression)")
    return "\n".join(out)
