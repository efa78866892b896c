"""The query browser's filter: search text, domain, bug type, outcome, flagged, discordant."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    QSortFilterProxyModel,
)

from execretrieval import Benchmark, Query

from .engine import QueryStatus
from .models import QUERY_ROLES, SORT_ROLE, QueryTableModel, fill_roles, span_clear

__all__ = ["DISCORDANT", "OUTCOMES", "QueryFilter", "QueryFilterProxy", "accepts", "bug_types_of",
           "matching"]

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

    def to_dict(self) -> dict[str, Any]:
        """The filter as JSON (a saved slice); ``only_ids`` is a moment's list, not kept."""
        return {"text": self.text, "domain": self.domain, "bug_type": self.bug_type,
                "outcome": self.outcome, "flagged_only": self.flagged_only,
                "discordant": self.discordant}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QueryFilter:
        """Back from :meth:`to_dict`; unknown keys are ignored, wrong types become 'any'."""
        def text(key: str, allowed: Collection[str] | None = None) -> str:
            value = data.get(key, "")
            value = value if isinstance(value, str) else ""
            return value if allowed is None or value in allowed else ""
        return cls(text=text("text"), domain=text("domain"), bug_type=text("bug_type"),
                   outcome=text("outcome", OUTCOMES), flagged_only=data.get("flagged_only")
                   is True, discordant=text("discordant", DISCORDANT))

    def describe(self) -> str:
        """One line a user reads: "domain geometry · bug type off_by_one · deceived"."""
        parts = [f"“{self.text}”" if self.text else "", self.domain,
                 f"bug {self.bug_type}" if self.bug_type else "",
                 OUTCOMES.get(self.outcome, "").lower(), "flagged" if self.flagged_only else "",
                 DISCORDANT.get(self.discordant, "")]
        return " · ".join(p for p in parts if p) or "all queries"


class QueryFilterProxy(QSortFilterProxyModel):
    """Filters and sorts a :class:`QueryTableModel`."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.criteria = QueryFilter()
        # each query's bug types, made when a bug-type filter first asks (a walk over the
        # whole corpus that a start, and every filter without a bug type, does without)
        self._bug_types: dict[str, frozenset[str]] = {}
        self._bug_types_of: Benchmark | None = None
        self.setSortRole(SORT_ROLE)

    def setSourceModel(self, model: Any) -> None:  # Qt override
        super().setSourceModel(model)
        model.modelReset.connect(self._on_source_reset)

    def _on_source_reset(self) -> None:
        # another benchmark: the last one's bug types go (and do not keep it alive)
        if getattr(self.sourceModel(), "benchmark", None) is not self._bug_types_of:
            self._bug_types, self._bug_types_of = {}, None

    def _bug_types_for(self, bench: Benchmark) -> dict[str, frozenset[str]]:
        if self._bug_types_of is not bench:
            self._bug_types, self._bug_types_of = bug_types_of(bench), bench
        return self._bug_types

    def multiData(self, index: QModelIndex | QPersistentModelIndex,  # Qt override
                  span: QModelRoleDataSpan) -> None:
        # A delegate asks seven roles of each cell it paints in one multiData(); Qt's
        # default forwards each through data() and maps it to the source again (two calls
        # into Python a role): here the cell is mapped once and the source asked directly,
        # only for the roles it serves
        model = self.sourceModel()
        if not isinstance(model, QueryTableModel):
            super().multiData(index, span)
            return
        source = self.mapToSource(index)
        if source.isValid():
            fill_roles(model, source.row(), source.column(), span, QUERY_ROLES)
        else:
            span_clear(span)

    def set_filter(self, criteria: QueryFilter) -> None:
        # beginFilterChange/endFilterChange left stale rows on PySide6 6.12
        self.criteria = criteria
        self.invalidate()

    def filterAcceptsRow(self, source_row: int,  # Qt override
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, QueryTableModel) or model.benchmark is None:
            return True
        bench = model.benchmark
        return accepts(self.criteria, bench.queries[source_row], source_row, model.status,
                       model.status_b, model.flagged,
                       self._bug_types_for(bench) if self.criteria.bug_type else {})


def bug_types_of(bench: Benchmark) -> dict[str, frozenset[str]]:
    """Each query's distractors' bug types (what the bug-type filter looks at)."""
    return {q.query_id: frozenset(s.bug_type for s in bench.distractors_for(q.query_id)
                                  if s.bug_type) for q in bench.queries}


def accepts(c: QueryFilter, query: Query, row: int, st: QueryStatus | None,
            sb: QueryStatus | None, flagged: Collection[str],
            bug_types: Mapping[str, frozenset[str]]) -> bool:
    """Does ``query`` (row ``row`` of its benchmark) pass the filter ``c``?"""
    if c.only_ids is not None and query.query_id not in c.only_ids:
        return False
    if c.text:
        needle = c.text.lower()
        if (needle not in query.function_name.lower() and needle not in query.query.lower()
                and needle not in query.query_id.lower()):
            return False
    if c.domain and query.domain != c.domain:
        return False
    if c.bug_type and c.bug_type not in bug_types.get(query.query_id, ()):
        return False
    if c.flagged_only and query.query_id not in flagged:
        return False
    if c.outcome and st is not None:
        if c.outcome == "top1_correct" and not st.top1_correct[row]:
            return False
        if c.outcome == "top1_wrong" and (st.top1_correct[row] or st.top1_mixed[row]):
            return False
        if c.outcome == "deceived" and not st.deceived[row]:
            return False
        if c.outcome == "tied" and not st.tied[row]:
            return False
    if c.discordant:
        if st is None or sb is None:
            return False
        # with a tie at rank 1 a model is right with the tie's correct share: the one with
        # the larger share is the one more often right (as in the comparison)
        a, b = _share(st, row), _share(sb, row)
        if c.discordant == "a_only" and not a > b:
            return False
        if c.discordant == "b_only" and not b > a:
            return False
    return True


def _share(status: Any, row: int) -> float:
    """The share of rank-1 orders that put a correct snippet first (0/1 without ties)."""
    share = getattr(status, "top1_share", None)
    return float(share[row]) if share is not None else float(status.top1_correct[row])


def matching(c: QueryFilter, bench: Benchmark, st: QueryStatus | None, sb: QueryStatus | None,
             flagged: Collection[str]) -> list[str]:
    """The ids of the queries of ``bench`` the filter ``c`` lets through, in order."""
    bug_types = bug_types_of(bench)
    return [q.query_id for i, q in enumerate(bench.queries)
            if accepts(c, q, i, st, sb, flagged, bug_types)]
