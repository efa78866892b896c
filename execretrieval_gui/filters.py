"""The query browser's filter: search text, domain, bug type, outcome, flagged, discordant."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel

from .models import SORT_ROLE, QueryTableModel

__all__ = ["DISCORDANT", "OUTCOMES", "QueryFilter", "QueryFilterProxy"]

OUTCOMES = {"top1_correct": "Rank-1 correct", "top1_wrong": "Rank-1 wrong",
            "deceived": "Deceived (distractor above canonical)",
            "tied": "Tied (canonical ties a distractor, or rank 1 is a mixed tie)"}
DISCORDANT = {"a_only": "A right, B wrong", "b_only": "B right, A wrong"}


@dataclass(frozen=True)
class QueryFilter:
    """What the browser shows; empty fields mean 'any'."""

    text: str = ""
    domain: str = ""
    bug_type: str = ""
    outcome: str = ""          # a key of OUTCOMES
    flagged_only: bool = False
    discordant: str = ""       # a key of DISCORDANT (needs a second model)
    only_ids: frozenset[str] | None = None   # e.g. a comparison's discordant queries


class QueryFilterProxy(QSortFilterProxyModel):
    """Filters and sorts a :class:`QueryTableModel`."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.criteria = QueryFilter()
        self._bug_types: dict[str, frozenset[str]] = {}
        self.setSortRole(SORT_ROLE)

    def setSourceModel(self, model: Any) -> None:  # Qt override
        super().setSourceModel(model)
        model.modelReset.connect(self._on_source_reset)
        self._on_source_reset()

    def _on_source_reset(self) -> None:
        model = self.sourceModel()
        bench = getattr(model, "benchmark", None)
        self._bug_types = {}
        if bench is not None:
            for q in bench.queries:
                self._bug_types[q.query_id] = frozenset(
                    s.bug_type for s in bench.distractors_for(q.query_id) if s.bug_type)

    def set_filter(self, criteria: QueryFilter) -> None:
        # beginFilterChange/endFilterChange left stale rows on PySide6 6.12
        self.criteria = criteria
        self.invalidate()

    def filterAcceptsRow(self, source_row: int,  # Qt override
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, QueryTableModel) or model.benchmark is None:
            return True
        c = self.criteria
        query = model.benchmark.queries[source_row]
        if c.only_ids is not None and query.query_id not in c.only_ids:
            return False
        if c.text:
            needle = c.text.lower()
            if (needle not in query.function_name.lower() and needle not in query.query.lower()
                    and needle not in query.query_id.lower()):
                return False
        if c.domain and query.domain != c.domain:
            return False
        if c.bug_type and c.bug_type not in self._bug_types.get(query.query_id, ()):
            return False
        if c.flagged_only and query.query_id not in model.flagged:
            return False
        st = model.status
        if c.outcome and st is not None:
            if c.outcome == "top1_correct" and not st.top1_correct[source_row]:
                return False
            if c.outcome == "top1_wrong" and (st.top1_correct[source_row]
                                              or st.top1_mixed[source_row]):
                return False
            if c.outcome == "deceived" and not st.deceived[source_row]:
                return False
            if c.outcome == "tied" and not st.tied[source_row]:
                return False
        if c.discordant:
            sb = model.status_b
            if st is None or sb is None:
                return False
            # with a tie at rank 1 a model is right with the tie's correct share: the one
            # with the larger share is the one more often right (as in the comparison)
            a, b = _share(st, source_row), _share(sb, source_row)
            if c.discordant == "a_only" and not a > b:
                return False
            if c.discordant == "b_only" and not b > a:
                return False
        return True


def _share(status: Any, row: int) -> float:
    """The share of rank-1 orders that put a correct snippet first (0/1 without ties)."""
    share = getattr(status, "top1_share", None)
    return float(share[row]) if share is not None else float(status.top1_correct[row])
