"""Saved slices: named query filters (domain × bug type × outcome × deceived × flagged …),
the metrics of each, and the filtered query list as CSV.

:class:`Slices` holds the named filters and says when they change (a QObject with a signal,
no widgets); :func:`slice_metrics` measures a slice from evaluations already computed (means
of the per-query columns over the slice's queries — no execution); :func:`query_list_csv`
writes what the browser shows.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from execretrieval import Benchmark

from .engine import QueryStatus
from .filters import QueryFilter, matching

if TYPE_CHECKING:   # numpy loads with the first measurement, not with the window
    import numpy as np

__all__ = ["SLICE_METRICS", "SliceRow", "Slices", "query_list_csv", "slice_metrics"]

SLICE_METRICS = ("exec@1", "exec@5", "exec@10", "ndcg@10")


@dataclass(frozen=True)
class SliceRow:
    """One slice measured for one model."""

    name: str
    description: str
    model: str
    n_queries: int
    means: Mapping[str, float]   # metric -> mean over the slice's queries (nan: none)
    deceived: float              # this model's deception rate over the slice (nan: none)


class Slices(QObject):
    """The saved slices, by name (insertion order)."""

    changed = Signal(object)   # dict name -> QueryFilter

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.named: dict[str, QueryFilter] = {}

    def save(self, name: str, criteria: QueryFilter) -> str:
        """Keep ``criteria`` as ``name`` (replacing a slice of that name); the name used."""
        name = " ".join(name.split())
        if not name:
            raise ValueError("a slice needs a name")
        self.named[name] = QueryFilter(**{**criteria.to_dict()})   # only_ids is not kept
        self.changed.emit(dict(self.named))
        return name

    def remove(self, name: str) -> None:
        if self.named.pop(name, None) is not None:
            self.changed.emit(dict(self.named))

    def to_json(self) -> str:
        return json.dumps([{"name": n, **c.to_dict()} for n, c in self.named.items()])

    def load_json(self, text: str) -> None:
        """Slices saved by :meth:`to_json`; anything unreadable is skipped, not fatal."""
        try:
            items = json.loads(text) if text else []
        except ValueError:
            items = []
        self.named = {str(item["name"]): QueryFilter.from_dict(item)
                      for item in items if isinstance(item, dict) and item.get("name")}
        self.changed.emit(dict(self.named))


def slice_metrics(slices: Mapping[str, QueryFilter], bench: Benchmark,
                  evaluations: Sequence[Any], status: QueryStatus | None,
                  status_b: QueryStatus | None, flagged: Iterable[str]) -> list[SliceRow]:
    """Every slice (after "all queries") measured for every evaluation: the mean of each
    :data:`SLICE_METRICS` column over the slice's queries the evaluation covers."""
    import numpy as np

    flagged = frozenset(flagged)
    members = {"All queries": ("all queries", [q.query_id for q in bench.queries])}
    for name, criteria in slices.items():
        members[name] = (criteria.describe(), matching(criteria, bench, status, status_b,
                                                       flagged))
    rows = []
    for name, (description, ids) in members.items():
        for ev in evaluations:
            if ev is None:
                continue
            index = {qid: i for i, qid in enumerate(ev.query_ids)}
            picked = np.array([index[q] for q in ids if q in index], dtype=int)
            means = {m: (float(np.mean(np.asarray(ev.per_query[m])[picked]))
                         if picked.size else math.nan)
                     for m in SLICE_METRICS if m in ev.per_query}
            rows.append(SliceRow(name, description, ev.model, int(picked.size), means,
                                 _deceived(ev, picked)))
    return rows


def _deceived(ev: Any, picked: np.ndarray) -> float:
    """The evaluation's own deception figure over the ``picked`` rows: the mean of its
    per-query "deceived" column (the expectation over tie orders, as its deception rate),
    skipping queries that cannot be deceived (NaN) — so "All queries" is the model's
    deception rate, and each model's row is its own."""
    column = (getattr(ev, "per_query_extra", None) or {}).get("deceived")
    if column is None or not picked.size:
        return math.nan
    import numpy as np

    values = np.asarray(column, dtype=np.float64)[picked]
    values = values[~np.isnan(values)]
    return float(values.mean()) if values.size else math.nan


def query_list_csv(bench: Benchmark, query_ids: Sequence[str], status: QueryStatus | None,
                   flagged: Iterable[str]) -> str:
    """The queries ``query_ids`` (in that order) as CSV, one row each, with what the
    browser shows of them."""
    flagged = frozenset(flagged)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["query_id", "function_name", "domain", "rank1_correct", "canonical_rank",
                     "deceived", "flagged", "query"])
    for qid in query_ids:
        i = bench.query_index(qid)
        q = bench.queries[i]
        st = status
        writer.writerow([
            q.query_id, q.function_name, q.domain,
            "" if st is None else int(bool(st.top1_correct[i])),
            "" if st is None else int(st.canonical_rank[i]),
            "" if st is None else int(bool(st.deceived[i])),
            int(q.query_id in flagged), q.query])
    return out.getvalue()
