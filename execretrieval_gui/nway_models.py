"""The Qt item model of the Metrics tab's leaderboard: one metric's standings, best first."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from .models import OBJECT_ROLE, ListTableModel

__all__ = ["LeaderboardModel"]

_Index = QModelIndex | QPersistentModelIndex
_ALPHA = 0.05


class LeaderboardModel(ListTableModel):
    """Rows: the engine's ``Standing`` of each model on one metric; the last column names
    the models it is significantly above after correction (from the report's pairs)."""

    COLUMNS = ("Tier", "Model", "Mean [95% CI]", "Rank", "Rank 95%", "Significantly above")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.beats: dict[str, list[str]] = {}

    def set_report(self, report: Any, metric: str) -> None:
        """Show ``report``'s leaderboard on ``metric`` (None: empty)."""
        standings = [] if report is None else [s for s in report.standings
                                                if s.metric == metric]
        beats: dict[str, list[str]] = {}
        for p in [] if report is None else report.pairs:
            if p.metric != metric or not p.significant(_ALPHA) or p.diff == 0:
                continue
            winner, loser = (p.a, p.b) if p.diff > 0 else (p.b, p.a)
            beats.setdefault(winner, []).append(loser)
        self.beats = beats
        self.set_rows(standings)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        s = self.row_at(index)
        if s is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            interval = (str(s.rank_low) if s.rank_low == s.rank_high
                        else f"{s.rank_low}–{s.rank_high}")
            return (str(s.tier), s.system,
                    f"{s.mean:.3f}  [{s.ci_low:.3f}, {s.ci_high:.3f}]", str(s.rank),
                    interval, ", ".join(self.beats.get(s.system, [])) or "–")[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return ("tier 1: the best model and every model not significantly below it "
                    "(exact paired tests, Holm-corrected); rank 95%: the 2.5%-97.5% range "
                    "of the model's rank over the bootstrap replicates")
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == OBJECT_ROLE:
            return s
        return None
