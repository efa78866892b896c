"""Qt item models for the metrics view: the metric table and a comparison's discordant list."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from .models import OBJECT_ROLE, ListTableModel

__all__ = ["DiscordantModel", "MetricsModel", "SliceMetricsModel"]

_Index = QModelIndex | QPersistentModelIndex


def fmt_ci(ci: Any) -> str:
    return f"{ci.mean:.3f}  [{ci.ci_low:.3f}, {ci.ci_high:.3f}]"


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


class DiscordantModel(ListTableModel):
    """The queries on which two models disagree at rank 1 (clickable into the browser)."""

    COLUMNS = ("Query", "Function", "Right")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, str, str]] = []   # (query_id, function_name, winner)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None:
            return None
        if role == OBJECT_ROLE:
            return row[0]
        if role == Qt.ItemDataRole.DisplayRole and 0 <= index.column() < 3:
            return row[index.column()]
        return None


class SliceMetricsModel(ListTableModel):
    """Saved slices measured: one row per slice and model (SliceRow objects)."""

    COLUMNS = ("Slice", "Model", "Queries", "exec@1", "exec@10", "nDCG@10", "Deceived")
    _METRICS = ("exec@1", "exec@10", "ndcg@10")

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
                return "–" if row.deceived != row.deceived else f"{100 * row.deceived:.0f}%"
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{row.name}: {row.description}\n{row.model}, {row.n_queries} queries "
                    "(means over the slice's queries; intervals only for all queries)")
        if role == Qt.ItemDataRole.TextAlignmentRole and col >= 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
