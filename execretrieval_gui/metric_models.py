"""Qt item models for the metrics view: the metric table and a comparison's discordant list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from .models import OBJECT_ROLE, ListTableModel

__all__ = ["CostModel", "Discordant", "DiscordantModel", "MetricsModel", "SliceMetricsModel",
           "discordant_rows"]

_Index = QModelIndex | QPersistentModelIndex


def fmt_ci(ci: Any) -> str:
    return f"{ci.mean:.3f}  [{ci.ci_low:.3f}, {ci.ci_high:.3f}]"


class CostModel(QAbstractTableModel):
    """The report's quality-vs-cost table (the engine's ``cost_table``), cell for cell but
    turned a quarter: a measure a row (named in column 0), a system a column, as the
    metric table reads — a dozen measures side by side would not fit the window."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.note = ""
        self.header: list[str] = []       # the engine's: "system", then the measures
        self.rows: list[list[str]] = []   # the engine's: one per system

    def set_table(self, table: tuple[str, list[str], list[list[str]]] | None) -> None:
        self.beginResetModel()
        self.note, self.header, self.rows = table if table is not None else ("", [], [])
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.rows else len(self.header) - 1

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.rows else 1 + len(self.rows)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section <= len(self.rows) \
                and role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return "" if section == 0 else self.rows[section - 1][0]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < self.rowCount()) \
                or not (0 <= index.column() < self.columnCount()):
            return None
        measure, column = index.row() + 1, index.column()
        cell = self.header[measure] if column == 0 else self.rows[column - 1][measure]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return cell
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
        cell = self.rows[index.row()][index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return cell
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class MetricsModel(QAbstractTableModel):
    """Rows: exec@k, execp@k, nDCG@k; columns: each evaluated model's mean [95% CI]."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.evaluations: list[Any] = []   # ModelEvaluation per column
        self.names: list[str] = []

    def set_evaluations(self, evaluations: list[Any]) -> None:
        self.beginResetModel()
        self.evaluations = [e for e in evaluations if e is not None]
        self.names = list(self.evaluations[0].metrics) if self.evaluations else []
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.names)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 1 + len(self.evaluations)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        if section == 0:
            return "Metric"
        if 1 <= section <= len(self.evaluations):
            return self.evaluations[section - 1].model
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self.names)):
            return None
        name, col = self.names[index.row()], index.column()
        if not (0 <= col <= len(self.evaluations)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return name.replace("ndcg", "nDCG")
            return fmt_ci(self.evaluations[col - 1].metrics[name])
        if role == Qt.ItemDataRole.ToolTipRole and col > 0:
            return f"{self.evaluations[col - 1].model}: mean [95% bootstrap CI] over queries"
        if role == OBJECT_ROLE and col > 0:
            return self.evaluations[col - 1].metrics[name]
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _decided(x: float) -> bool:
    return abs(x) < 1e-12 or abs(x - 1.0) < 1e-12


@dataclass(frozen=True)
class Discordant:
    """One query on which the two models' figures differ: who is higher, by how much, and
    whether that is decided (one right at rank 1, the other wrong: figures 1 and 0) or only
    an expectation over the orders of a rank-1 tie (a figure strictly between 0 and 1)."""

    query_id: str
    function_name: str
    higher: str        # the model with the higher figure
    a_value: float
    b_value: float

    @property
    def decided(self) -> bool:
        return _decided(self.a_value) and _decided(self.b_value)


def discordant_rows(comparison: Any, ev_a: Any, ev_b: Any,
                    names: dict[str, str]) -> list[Discordant]:
    """The comparison's discordant queries with both models' per-query figures (from the
    two evaluations the comparison was made of), decided ones first."""
    a_scores = ev_a.per_query[comparison.metric]
    b_scores = ev_b.per_query[comparison.metric]
    index = {q: i for i, q in enumerate(ev_a.query_ids)}
    rows = []
    for qid in comparison.discordant_queries:
        x, y = float(a_scores[index[qid]]), float(b_scores[index[qid]])
        rows.append(Discordant(qid, names.get(qid, ""), comparison.a if x > y else comparison.b,
                               x, y))
    return sorted(rows, key=lambda r: not r.decided)


class DiscordantModel(ListTableModel):
    """The queries on which two models disagree at rank 1 (clickable into the browser)."""

    COLUMNS = ("Query", "Function", "Higher", "How", "A", "B")
    TIPS = ("The query (click to open it)",
            "Its function name",
            "The model whose figure is higher on this query",
            "decided: one model's rank 1 passes, the other's fails (figures 1 and 0); "
            "tie: a figure between 0 and 1 — the expectation over the orders of a tie at "
            "rank 1 that mixes right and wrong candidates (1 of 3 tied right: 0.33)",
            "Model A's figure on this query", "Model B's figure on this query")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Discordant] = []
        self.models = ("A", "B")
        self.metric = "exec@1"

    def set_comparison(self, rows: list[Discordant], a: str, b: str, metric: str) -> None:
        self.models, self.metric = (a, b), metric
        self.set_rows(rows)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(self.COLUMNS) - 1)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole and section >= 4:
                return self.models[section - 4]
            if role == Qt.ItemDataRole.ToolTipRole:
                tip = self.TIPS[section]
                return (f"{self.models[section - 4]}'s {self.metric} on this query"
                        if section >= 4 else tip)
        return super().headerData(section, orientation, role)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = self.row_at(index), index.column()
        if row is None or not 0 <= col < len(self.COLUMNS):
            return None
        if role == OBJECT_ROLE:
            return row.query_id
        if role == Qt.ItemDataRole.DisplayRole:
            return (row.query_id, row.function_name, row.higher,
                    "decided" if row.decided else "tie",
                    f"{row.a_value:.2f}", f"{row.b_value:.2f}")[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            how = ("decided: one model's rank 1 passes and the other's fails" if row.decided
                   else "by a tie: a figure between 0 and 1 is the expectation over the "
                        "orders of a rank-1 tie of right and wrong candidates")
            return (f"{row.query_id} {row.function_name}: {self.models[0]} "
                    f"{row.a_value:.3f} vs {self.models[1]} {row.b_value:.3f} "
                    f"({self.metric}); {how}")
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and not row.decided:
            return QColor("#8d6e00")
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 4:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class SliceMetricsModel(ListTableModel):
    """Saved slices measured: one row per slice and model (SliceRow objects)."""

    COLUMNS = ("Slice", "Model", "Queries", "exec@1", "exec@10", "nDCG@10", "Deceived")
    _METRICS = ("exec@1", "exec@10", "ndcg@10")
    TIPS = ("The saved filter (All queries: the whole benchmark)", "The model of this row",
            "Queries of the slice this model was measured on",
            "This model's mean exec@1 over the slice's queries",
            "This model's mean exec@10 over the slice's queries",
            "This model's mean nDCG@10 over the slice's queries",
            "This model's deception rate over the slice: the share of its queries whose "
            "canonical scores below a paired distractor (a tie counts as its expectation)")

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal
                and 0 <= section < len(self.TIPS)):
            return self.TIPS[section]
        return super().headerData(section, orientation, role)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = self.row_at(index), index.column()
        if row is None:
            return None
        if role == OBJECT_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return row.name
            if col == 1:
                return row.model
            if col == 2:
                return str(row.n_queries)
            if 3 <= col <= 5:
                value = row.means.get(self._METRICS[col - 3], float("nan"))
                return "–" if value != value else f"{value:.3f}"
            if col == 6:
                return "–" if row.deceived != row.deceived else f"{100 * row.deceived:.1f}%"
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{row.name}: {row.description}\n{row.model}, {row.n_queries} queries "
                    "(means over the slice's queries; intervals only for all queries)")
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
