"""Two runs side by side: what changed in their manifests, their figures, and which queries
flipped at rank 1.

:func:`diff_reports` takes two report JSON objects (``execretrieval evaluate --out
X.json``) and returns::

    {"settings": [{"key", "a", "b"}],                      # manifest leaves that differ
     "systems": {name: {metric: {"a", "b", "diff", "p_value"}}},   # diff = b - a
     "flips": [{"system", "query_id", "change",
                "a": {"exec@1", "rank1", "outcome"}, "b": {...}}],
     "notes": [...]}

``p_value`` is the tool's paired test (:func:`~execretrieval.measure.statistics.
sign_flip_test`) on the per-query figures when both runs measured the same queries, else
null with a note. A flip is a query whose rank-1 outcome class (correct, own mutant, other
query, background) or exec@1 changed between the runs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputFormatError
from ..fileio import read_utf8
from ..measure.statistics import sign_flip_test
from .manifest import flat_manifest

__all__ = ["diff_reports", "read_report"]

#: manifest leaves that differ between any two runs without changing a figure
_IGNORED = ("oracle.containment.kernel",)


def read_report(path: str | Path) -> dict[str, Any]:
    """A report JSON written by ``evaluate`` (or ``compare --out X.json``); bad input is an
    InputFormatError naming the file and what is missing."""
    file = Path(path)
    try:
        text = read_utf8(file)
    except OSError as exc:
        raise InputFormatError(f"cannot read the report ({exc.strerror or exc})",
                               file=file) from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFormatError(f"not JSON: {exc.msg}", file=file, line=exc.lineno) from exc
    if not isinstance(data, dict) or "benchmark" not in data or "models" not in data:
        raise InputFormatError("not an execretrieval report (no benchmark and models); "
                               "write one with `execretrieval evaluate --out FILE.json`",
                               file=file)
    if "per_query" not in data or "manifest" not in data:
        raise InputFormatError("this report has no per-query figures or run manifest (it "
                               "was written by an older version); evaluate again to write "
                               "them", file=file)
    return data


def _settings(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    fa, fb = flat_manifest(a.get("manifest") or {}), flat_manifest(b.get("manifest") or {})
    out = []
    for key in sorted(set(fa) | set(fb)):
        if key in _IGNORED:
            continue
        if fa.get(key) != fb.get(key):
            out.append({"key": key, "a": fa.get(key), "b": fb.get(key)})
    return out


def _outcome_text(outcome: str | None, value: float | None) -> str:
    return f"{outcome or 'none'} (exec@1 {value:.3g})" if value is not None else \
        str(outcome or "none")


def diff_reports(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """The difference between two report JSON objects (see the module docstring)."""
    notes: list[str] = []
    ba, bb = a.get("benchmark") or {}, b.get("benchmark") or {}
    if ba.get("fingerprint") != bb.get("fingerprint"):
        notes.append(f"the runs measured different benchmarks ({ba.get('name')} "
                     f"{str(ba.get('fingerprint'))[:12]} vs {bb.get('name')} "
                     f"{str(bb.get('fingerprint'))[:12]}): figures are not comparable query "
                     "by query")
    pa, pb = a["per_query"], b["per_query"]
    qa, qb = list(pa.get("query_ids") or ()), list(pb.get("query_ids") or ())
    same_queries = qa == qb and ba.get("fingerprint") == bb.get("fingerprint")
    if not same_queries and qa != qb:
        only_a, only_b = len(set(qa) - set(qb)), len(set(qb) - set(qa))
        notes.append(f"the runs measured different queries ({len(qa)} vs {len(qb)}; "
                     f"{only_a} only in A, {only_b} only in B): no paired tests")
    shared = [name for name in a["models"] if name in b["models"]]
    for name in a["models"]:
        if name not in b["models"]:
            notes.append(f"system {name} is only in A")
    for name in b["models"]:
        if name not in a["models"]:
            notes.append(f"system {name} is only in B")
    systems: dict[str, dict[str, dict[str, Any]]] = {}
    flips: list[dict[str, Any]] = []
    for name in shared:
        ma, mb = a["models"][name]["metrics"], b["models"][name]["metrics"]
        va = (pa.get("models") or {}).get(name) or {}
        vb = (pb.get("models") or {}).get(name) or {}
        rows: dict[str, dict[str, Any]] = {}
        for metric in (m for m in ma if m in mb):
            x, y = ma[metric]["mean"], mb[metric]["mean"]
            entry: dict[str, Any] = {"a": x, "b": y,
                                     "diff": None if x is None or y is None else y - x,
                                     "p_value": None}
            xa = (va.get("metrics") or {}).get(metric)
            xb = (vb.get("metrics") or {}).get(metric)
            if same_queries and xa is not None and xb is not None and len(xa) == len(xb):
                entry["p_value"], entry["test"] = sign_flip_test(
                    np.asarray(xb, dtype=float), np.asarray(xa, dtype=float))
            rows[metric] = entry
        systems[name] = rows
        flips += _flips(name, qa, qb, va, vb)
    return {"a": {"benchmark": ba, "command": a.get("command")},
            "b": {"benchmark": bb, "command": b.get("command")},
            "settings": _settings(a, b), "systems": systems, "flips": flips, "notes": notes}


def _flips(name: str, qa: list[str], qb: list[str], va: Mapping[str, Any],
           vb: Mapping[str, Any]) -> list[dict[str, Any]]:
    where_b = {q: i for i, q in enumerate(qb)}
    out = []
    ea = (va.get("metrics") or {}).get("exec@1")
    eb = (vb.get("metrics") or {}).get("exec@1")
    for i, qid in enumerate(qa):
        j = where_b.get(qid)
        if j is None:
            continue
        sides = []
        for v, e, k in ((va, ea, i), (vb, eb, j)):
            rank1, outcome = v.get("rank1") or [], v.get("rank1_outcome") or []
            sides.append({"exec@1": e[k] if e is not None else None,
                          "rank1": rank1[k] if k < len(rank1) else None,
                          "outcome": outcome[k] if k < len(outcome) else None})
        one, two = sides
        moved = one["outcome"] != two["outcome"]
        changed = (one["exec@1"] is not None and two["exec@1"] is not None
                   and abs(one["exec@1"] - two["exec@1"]) > 1e-9)
        if moved or changed:
            out.append({"system": name, "query_id": qid,
                        "change": f"{_outcome_text(one['outcome'], one['exec@1'])} -> "
                                  f"{_outcome_text(two['outcome'], two['exec@1'])}",
                        "a": one, "b": two})
    return out
