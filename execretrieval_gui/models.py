"""Qt item models over engine data: the query browser and the ranked candidates.

Thin adapters: the data stays in the engine's objects (queries, numpy status arrays, suite
results); ``data()`` formats; raw objects come out through the named roles below.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from execretrieval import Benchmark, Query, Snippet

from . import qtcompat  # noqa: F401  (before anything else touches Qt)
from .engine import QueryStatus

__all__ = [
    "ALIGN_CENTER",
    "ALIGN_RIGHT",
    "FAIL_BG",
    "FAIL_BRUSH",
    "OBJECT_ROLE",
    "OUTCOME_ROLE",
    "PASS_BG",
    "PASS_BRUSH",
    "PENDING_BG",
    "PENDING_BRUSH",
    "QUERY_ROLES",
    "R_ALIGN",
    "R_BACKGROUND",
    "R_DISPLAY",
    "R_FONT",
    "R_FOREGROUND",
    "R_TOOLTIP",
    "TIE_BG",
    "SORT_ROLE",
    "CandidateRow",
    "CandidatesModel",
    "Cell",
    "ListTableModel",
    "QueryTableModel",
    "fill_roles",
    "span_clear",
]

OBJECT_ROLE = Qt.ItemDataRole.UserRole + 1    # the Query / CandidateRow of the row
SORT_ROLE = Qt.ItemDataRole.UserRole + 2      # a sortable raw value of the cell
OUTCOME_ROLE = Qt.ItemDataRole.UserRole + 3   # SuiteResult | None

# A view asks data() for about eight roles per cell at every paint, most of which these
# models do not serve: they answer those at once (a switch of query repaints ~300 cells).
_R = Qt.ItemDataRole
QUERY_ROLES = frozenset(int(r) for r in (_R.DisplayRole, SORT_ROLE, OBJECT_ROLE,
                                        _R.ForegroundRole, _R.TextAlignmentRole,
                                        _R.ToolTipRole))
_CANDIDATE_ROLES = frozenset(int(r) for r in (_R.DisplayRole, OBJECT_ROLE, OUTCOME_ROLE,
                                             _R.BackgroundRole, _R.ForegroundRole,
                                             _R.TextAlignmentRole, _R.ToolTipRole))

# data() runs for every role of every painted cell: the roles it serves as plain ints and
# its brushes made once (an enum member's lookup and a parsed colour per call add up)
R_DISPLAY, R_BACKGROUND, R_FOREGROUND = int(_R.DisplayRole), int(_R.BackgroundRole), \
    int(_R.ForegroundRole)
R_ALIGN, R_TOOLTIP, R_FONT = int(_R.TextAlignmentRole), int(_R.ToolTipRole), int(_R.FontRole)
ALIGN_CENTER = int(Qt.AlignmentFlag.AlignCenter)
ALIGN_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

PASS_BG, FAIL_BG, PENDING_BG = QColor("#cdeccf"), QColor("#f6cccc"), QColor("#ececec")
TIE_BG = QColor("#fff3c4")   # a rank shared by tied scores
PASS_BRUSH, FAIL_BRUSH, PENDING_BRUSH = QBrush(PASS_BG), QBrush(FAIL_BG), QBrush(PENDING_BG)
_TIE_BRUSH, _CANONICAL_BRUSH = QBrush(TIE_BG), QBrush(QColor("#eaf3fb"))
_FLAG_FG, _MIXED_FG = QBrush(QColor("#c0392b")), QBrush(QColor("#8d6e00"))
_RIGHT_FG, _WRONG_FG = QBrush(QColor("#1e7d32")), QBrush(QColor("#b71c1c"))
_WARN_FG, _BLIND_FG = QBrush(QColor("#b45f06")), QBrush(QColor("#7b1fa2"))
_Index = QModelIndex | QPersistentModelIndex


class Cell:
    """A valid cell's row and column, read once: what ``data()`` asks of its index.

    A delegate asks seven roles of every cell it paints in one ``multiData()``; each
    ``data()`` then reads ``isValid()``, ``row()`` and ``column()`` of the index, each a
    call through the binding (21 a cell). :func:`fill_roles` reads them once, hands
    ``data()`` this instead and asks it only for the roles it serves: a repaint of the
    query list ~4% less CPU (Qt's text layout is most of the rest).
    """

    __slots__ = ("_row", "_column")

    def __init__(self, row: int, column: int) -> None:
        self._row, self._column = row, column

    def isValid(self) -> bool:  # noqa: N802  (QModelIndex's names)
        return True

    def row(self) -> int:
        return self._row

    def column(self) -> int:
        return self._column


def fill_roles(model: Any, row: int, column: int, span: QModelRoleDataSpan,
               served: frozenset[int]) -> None:
    """``multiData()`` of a valid cell of ``model`` from its ``data()``: the roles it does
    not serve (``served``) cleared without asking it."""
    cell, data = Cell(row, column), model.data
    for i in range(len(span)):
        role_data = span[i]
        role = role_data.role()
        value = data(cell, role) if role in served else None
        if value is None:
            role_data.clearData()
        else:
            role_data.setData(value)


def span_clear(span: QModelRoleDataSpan) -> None:
    """``multiData()`` of an invalid cell: no role has data."""
    for i in range(len(span)):
        span[i].clearData()


class ListTableModel(QAbstractTableModel):
    """A table over a Python list: one row per item, fixed ``COLUMNS`` as headers.

    Subclasses format cells in ``data()``; ``row_at(index)`` gives the item or None.
    """

    COLUMNS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Any] = []

    def set_rows(self, rows: Any) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row_at(self, index: _Index) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self.rows)):
            return None
        return self.rows[index.row()]

    def index(self, row: int, column: int,
              parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # QAbstractTableModel's asks rowCount() and columnCount() (two calls into Python)
        # for every index, and a view asks one for every role of every cell it paints
        if parent.isValid() or not (0 <= row < len(self.rows)
                                    and 0 <= column < len(self.COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (role == R_DISPLAY and orientation == Qt.Orientation.Horizontal
                and 0 <= section < len(self.COLUMNS)):
            return self.COLUMNS[section]
        return None



class QueryTableModel(QAbstractTableModel):
    """Every query of the benchmark with its status under the current model."""

    COLUMNS = ("⚑", "Function", "Domain", "R1", "Canon", "Dec.")
    FLAG, NAME, DOMAIN, TOP1, CANON, DECEIVED = range(6)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.benchmark: Benchmark | None = None
        self.status: QueryStatus | None = None
        self.status_b: QueryStatus | None = None
        self.flagged: set[str] = set()

    def set_benchmark(self, benchmark: Benchmark | None) -> None:
        self.beginResetModel()
        self.benchmark, self.status, self.status_b = benchmark, None, None
        self.flagged = set()
        self.endResetModel()

    def set_status(self, status: QueryStatus | None, status_b: QueryStatus | None = None) -> None:
        self.beginResetModel()
        self.status, self.status_b = status, status_b
        self.endResetModel()

    def set_flagged(self, flagged: set[str]) -> None:
        self.flagged = set(flagged)
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, 0))

    def query_at(self, row: int) -> Query:
        assert self.benchmark is not None
        return self.benchmark.queries[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.benchmark is None:
            return 0
        return len(self.benchmark.queries)

    def index(self, row: int, column: int,
              parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # the filter proxy maps every data() call it forwards through index(), which in
        # QAbstractTableModel asks rowCount() and columnCount() (two calls into Python):
        # one index here instead, since a repaint of the list asks ~1,000 of them
        bench = self.benchmark
        if parent.isValid() or bench is None or not (0 <= row < len(bench.queries)
                                                     and 0 <= column < len(self.COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
            if role == R_DISPLAY:
                return self.COLUMNS[section]
            if role == R_TOOLTIP:
                return ("Flagged", "Function name", "Domain",
                        ("Is the rank-1 snippet correct? (one of the query's correct ids; "
                         "by execution once metrics are computed; ≈: rank 1 is a tie of "
                         "right and wrong candidates)"),
                        "Best rank of the canonical (over the orders of tied scores)",
                        "Does a paired distractor score above the canonical? (yes; tie: "
                        "one scores exactly the same, none above)")[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in QUERY_ROLES or not index.isValid() or self.benchmark is None:
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self.benchmark.queries)):
            return None
        query = self.benchmark.queries[row]
        if role == OBJECT_ROLE:
            return query
        st = self.status
        if role in (R_DISPLAY, SORT_ROLE):
            sort = role == SORT_ROLE
            if col == self.FLAG:
                flagged = query.query_id in self.flagged
                return int(flagged) if sort else ("⚑" if flagged else "")
            if col == self.NAME:
                return query.function_name
            if col == self.DOMAIN:
                return query.domain
            if st is None:
                return -1 if sort else ""
            if col == self.TOP1:
                ok = bool(st.top1_correct[row])
                if st.top1_mixed[row]:   # a tie at rank 1 mixing right and wrong
                    return float(st.top1_share[row]) if sort else "≈"
                return float(ok) if sort else ("✓" if ok else "✗")
            if col == self.CANON:
                r = int(st.canonical_rank[row])
                return r if sort else (str(r) if r else "–")
            if col == self.DECEIVED:
                d = bool(st.deceived[row])
                tie = st.canonical_tied is not None and bool(st.canonical_tied[row])
                return (2 if d else int(tie)) if sort else ("yes" if d else
                                                            "tie" if tie else "")
        if role == R_FOREGROUND:
            if col == self.FLAG:
                return _FLAG_FG
            if st is not None and col == self.TOP1:
                if st.top1_mixed[row]:
                    return _MIXED_FG
                return _RIGHT_FG if st.top1_correct[row] else _WRONG_FG
            if st is not None and col == self.DECEIVED and st.deceived[row]:
                return _WARN_FG
        if role == R_ALIGN and col in (self.FLAG, self.TOP1,
                                                                 self.CANON, self.DECEIVED):
            return ALIGN_CENTER
        if role == R_TOOLTIP:
            return f"{query.query_id} · {query.function_name}\n{query.query}"
        return None


@dataclass(frozen=True)
class CandidateRow:
    """One ranked candidate of the selected query."""

    rank: int
    corpus_index: int
    snippet: Snippet
    score: float
    delta: float              # score minus the canonical's score
    role: str                 # 'canonical' | 'own distractor' | 'other query' | 'background'
    outcome: Any = None       # SuiteResult once known
    pending: bool = False     # being computed in the background
    below_cut: bool = False   # the query's own snippet, ranked below the top-k
    rank_best: int = 0        # best / worst rank over the orders of tied scores
    rank_worst: int = 0       # (0: not known; then ``rank`` is all there is)
    blind: str = ""           # why the model cannot tell it from the canonical ("" if it can)
    stage: str = ""           # a pipeline's "base rank→final rank · stage score" ("" if none)
    stage_tip: str = ""       # every stage's rank and score

    @property
    def tied(self) -> bool:
        """Does this candidate share its score with others (its rank is arbitrary)?"""
        return self.rank_worst > self.rank_best > 0

    @property
    def rank_label(self) -> str:
        """"10" or, for a tied score, the range of ranks its tie group spans ("10-13")."""
        return f"{self.rank_best}-{self.rank_worst}" if self.tied else str(self.rank)


def role_of(query: Query, snippet: Snippet) -> str:
    if snippet.role == "background":
        return "background"
    if snippet.query_id != query.query_id:
        return "other query"
    return "canonical" if snippet.is_canonical else "own distractor"


# bug types as the A|B view's half-width lists name them (the full name is in the tooltip)
SHORT_BUG = {"off_by_one": "off-by-1", "off_by_one_boundary": "off-by-1 bd",
             "wrong_operator": "wrong op", "wrong_comparison": "wrong cmp",
             "swap_arguments": "swap args", "remove_edge_case_check": "no edge"}


class CandidatesModel(ListTableModel):
    """The top-k ranked snippets of one query, then its own snippets ranked below the cut.

    The canonical and its mutants are always listed, so the user sees how far the correct
    answer fell; rows below the cut carry ``below_cut`` and a grey rank cell.
    """

    COLUMNS = ("Rank", "Score", "Δ canon.", "Role", "Bug type", "Tests", "B rank", "Stage")
    RANK, SCORE, DELTA, ROLE, BUG, BADGE, B_RANK, STAGE = range(8)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[CandidateRow] = []
        self.n_tests = 0
        # each row's 1-based rank under model B, or its (best, worst) ranks over B's tied
        # scores (None: B's run leaves it out); None: no B
        self.b_ranks: list[int | tuple[int, int] | None] | None = None
        self.b_model = ""
        self.other = "B"   # what the other-rank column is called ("A" in the A|B view's B list)
        self.compact = False   # half a panel wide (the A|B view): short roles and badges
        self.visible: frozenset[int] | None = None   # under a split: the visible tests

    def set_rows(self, rows: list[CandidateRow], n_tests: int = 0,
                 visible: tuple[int, ...] | None = None) -> None:
        """``visible``: under a held-out split, the query's visible tests; the Tests column
        then counts the held-out ones, what a pipeline is judged on."""
        self.n_tests = n_tests
        self.visible = None if visible is None else frozenset(visible)
        self.b_ranks = None
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, self.BADGE, self.BADGE)
        super().set_rows(rows)

    def held_out(self, row: CandidateRow) -> tuple[int, int] | None:
        """(held-out tests passed, held-out tests) under a split; None without one, before
        the outcome is known, or when the split leaves the query no held-out test."""
        if self.visible is None or row.outcome is None:
            return None
        judged = [o for i, o in enumerate(row.outcome.outcomes) if i not in self.visible]
        if not judged:
            return None
        return sum(1 for o in judged if o.status == "pass"), len(judged)

    def b_rank_label(self, row: int) -> str:
        """The row's rank under the other model as that model's list shows it: "12", or
        "≡11-14" for a tie of ranks 11 to 14; "—" where it leaves the snippet out."""
        if self.b_ranks is None:
            return ""
        value = self.b_ranks[row]
        if value is None:
            return "—"
        best, worst = value if isinstance(value, tuple) else (value, value)
        if worst > best:
            return f"≡{best}-{worst}" if self.compact else f"≡ {best}-{worst}"
        return str(best)

    def set_b_ranks(self, ranks: list[int | tuple[int, int] | None] | None,
                    model: str = "") -> None:
        """Show the listed rows' ranks under model B (``None``: no model B)."""
        if ranks is not None and len(ranks) != len(self.rows):
            raise ValueError(f"{len(ranks)} B ranks for {len(self.rows)} candidates")
        self.b_ranks, self.b_model = ranks, model if ranks is not None else ""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, self.B_RANK, self.B_RANK)
        if self.rows:
            self.dataChanged.emit(self.index(0, self.B_RANK),
                                  self.index(len(self.rows) - 1, self.B_RANK))

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (section == self.ROLE and self.compact and orientation == Qt.Orientation.Horizontal
                and role == R_DISPLAY):
            return "What"
        if section == self.BADGE and orientation == Qt.Orientation.Horizontal \
                and self.visible is not None:
            if role == R_DISPLAY:
                return "Held" if self.compact else "Held out"
            if role == R_TOOLTIP:
                return ("Held-out tests passed, of the query's held-out tests: what a pipeline "
                        "is judged on (its stages see only the visible ones)")
        if section == self.B_RANK and orientation == Qt.Orientation.Horizontal:
            if role == R_DISPLAY:
                return f"{self.other}#" if self.compact else f"{self.other} rank"
            if role == R_TOOLTIP:
                return (f"Rank under model {self.other} ({self.b_model})" if self.b_model
                        else "Rank under model B (choose one under Compare)")
        return super().headerData(section, orientation, role)

    def set_outcome(self, corpus_id: str, outcome: Any) -> None:
        for i, row in enumerate(self.rows):
            if row.snippet.corpus_id == corpus_id:
                self.rows[i] = replace(row, outcome=outcome, pending=False)
                self.dataChanged.emit(self.index(i, 0), self.index(i, self.BADGE))

    def set_pending(self, corpus_ids: set[str]) -> None:
        for i, row in enumerate(self.rows):
            if row.snippet.corpus_id in corpus_ids and row.outcome is None:
                self.rows[i] = replace(row, pending=True)
                self.dataChanged.emit(self.index(i, self.BADGE), self.index(i, self.BADGE))

    def row_of(self, corpus_id: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.snippet.corpus_id == corpus_id), -1)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _CANDIDATE_ROLES:
            return None
        row, col = self.row_at(index), index.column()
        if row is None:
            return None
        if role == OBJECT_ROLE:
            return row
        if role == OUTCOME_ROLE:
            return row.outcome
        if role == R_DISPLAY:
            if col == self.RANK:
                if not row.tied:
                    return str(row.rank)
                return f"≡{row.rank_label}" if self.compact else f"≡ {row.rank_label}"
            if col == self.SCORE:
                return f"{row.score:.4f}"
            if col == self.DELTA:
                if row.role == "canonical":
                    return "—"
                return "= tie" if row.delta == 0 else f"{row.delta:+.4f}"
            if col == self.ROLE:
                if self.compact:   # role and bug type in one short cell (the A|B view)
                    if row.role == "own distractor":
                        bug = row.snippet.bug_type or ""
                        return SHORT_BUG.get(bug, bug) + (" ⊘" if row.blind else "")
                    return {"canonical": "canonical"}.get(row.role, row.snippet.query_id
                                                          or row.role)
                return {"own distractor": "own mutant", "other query":
                        f"other {row.snippet.query_id}"}.get(row.role, row.role)
            if col == self.BUG:
                blind = " ⊘ blind" if row.blind else ""
                if row.snippet.bug_type:
                    return row.snippet.bug_type + blind
                return "(its canonical)" if row.role == "other query" else ""
            if col == self.BADGE:
                return self._badge(row, self.compact, self.held_out(row))
            if col == self.B_RANK:
                return self.b_rank_label(index.row())
            if col == self.STAGE:
                return row.stage
        if role == R_BACKGROUND:
            if col == self.RANK and row.tied:   # even below the cut: the tie may straddle it
                return _TIE_BRUSH
            if col == self.B_RANK and self.b_rank_label(index.row()).startswith("≡"):
                return _TIE_BRUSH   # tinted as the other model's list tints it
            if col == self.RANK and row.below_cut:
                return PENDING_BRUSH   # the same grey
            if col == self.BADGE:
                if row.outcome is None:
                    return PENDING_BRUSH
                held = self.held_out(row)
                passed = row.outcome.passed if held is None else held[0] == held[1]
                return PASS_BRUSH if passed else FAIL_BRUSH
            if row.role == "canonical":
                return _CANONICAL_BRUSH
        if role == R_FOREGROUND and col == self.DELTA and row.delta >= 0 \
                and row.role != "canonical":
            return _WARN_FG
        if role == R_FOREGROUND and col == self.BUG and row.blind:
            return _BLIND_FG
        if role == R_ALIGN:
            if col in (self.RANK, self.SCORE, self.DELTA, self.B_RANK, self.STAGE):
                return ALIGN_RIGHT
            if col == self.BADGE:
                return ALIGN_CENTER
        if role == R_TOOLTIP:
            tip = (f"{row.snippet.corpus_id} ({row.snippet.query_id}) · rank {row.rank_label} · "
                   f"score {row.score:.4f}"
                   + ("" if row.role == "canonical" else f" ({row.delta:+.4f} vs canonical)")
                   + f"\n{row.role}")
            if row.tied:
                tip += (f"\ntied: {row.rank_worst - row.rank_best + 1} candidates score "
                        f"{row.score:.4f}, so any of ranks {row.rank_label} is as fair as "
                        f"another (listed in corpus order; metrics count the expectation)")
            if row.blind:
                tip += f"\nblind spot: {row.blind}"
            if row.below_cut:
                tip += f"\nbelow the top-k cut: shown because it is this query's own {row.role}"
            if row.snippet.bug_description:
                tip += f"\n{row.snippet.bug_description}"
            if row.stage_tip:
                tip += f"\n{row.stage_tip}"
            if col == self.BADGE and self.visible is not None and row.outcome is not None:
                outcomes = row.outcome.outcomes
                seen = [o for i, o in enumerate(outcomes) if i in self.visible]
                held = self.held_out(row)
                tip += (f"\nvisible tests passed: "
                        f"{sum(o.status == 'pass' for o in seen)}/{len(seen)}; " + (
                            f"held out: {held[0]}/{held[1]}" if held is not None else
                            "no held-out test (the query is left out of held-out figures)"))
            if col == self.B_RANK and self.b_ranks is not None:
                tip += (f"\nmodel {self.other} ({self.b_model}): " + (
                    "not retrieved, or ranked below the candidates it keeps per query"
                    if self.b_ranks[index.row()] is None
                    else f"rank {self.b_rank_label(index.row()).lstrip('≡ ')}"
                    + (" (tied scores: any of these ranks)"
                       if "≡" in self.b_rank_label(index.row()) else "")))
            return tip
        return None

    @staticmethod
    def _badge(row: CandidateRow, compact: bool = False,
               held: tuple[int, int] | None = None) -> str:
        """"PASS 8/8" / "FAIL 3/8"; under a split (``held``) the held-out tests' count, the
        column then headed "Held out"."""
        if row.outcome is None:
            return ("…" if compact else "running…") if row.pending else "?"
        if held is not None:
            passed, total = held
            if compact:
                return f"{passed}/{total}"
            return f"{'PASS' if passed == total else 'FAIL'} {passed}/{total}"
        outcomes = row.outcome.outcomes
        passed = sum(1 for o in outcomes if o.status == "pass")
        if compact:   # half width: the count alone says it (all passed or not), in colour
            return f"{passed}/{len(outcomes)}"
        return f"{'PASS' if row.outcome.passed else 'FAIL'} {passed}/{len(outcomes)}"
