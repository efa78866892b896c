"""The selected query's ranked candidates, and the diff of one against the canonical."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Query

from .columns import ColumnFitter
from .diffview import DiffView
from .models import OBJECT_ROLE, CandidatesModel

if TYPE_CHECKING:
    from .state import CandidateView, InspectorState, QueryView

__all__ = ["CandidatesPanel", "DiffView"]   # DiffView: from .diffview, kept importable here


class CandidatesPanel(QWidget):
    """Query text on top, then the top-k table. Emits the selected candidate's corpus id."""

    candidate_selected = Signal(str)
    depth_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = CandidatesModel(self)
        self.title = QLabel("No query selected")
        self.title.setObjectName("queryTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, 100)
        self.depth_box.setValue(10)
        self.depth_box.setPrefix("top ")
        self.depth_box.setToolTip("How many ranked candidates to show")
        self.table = QTableView()
        self.table.setObjectName("candidateTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        m = CandidatesModel
        # every column as wide as its text; short of room, bug type and role give way
        self.fitter = ColumnFitter(self.table, shrink=(m.BUG, m.ROLE), grow=None,
                                   minimum={m.BUG: 70, m.ROLE: 70})
        self.table.viewport().installEventFilter(self)
        self.table.setColumnHidden(CandidatesModel.B_RANK, True)   # until a model B is chosen

        # a long query (HumanEval's run to a dozen lines) scrolls in at most five lines
        # instead of pushing the candidates out of view
        self.title_area = QScrollArea()
        self.title_area.setObjectName("queryTitleArea")
        self.title_area.setWidget(self.title)
        self.title_area.setWidgetResizable(True)
        self.title_area.setFrameShape(QFrame.Shape.NoFrame)
        self.title_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.title_area.setMaximumHeight(6 * self.title.fontMetrics().lineSpacing() + 8)
        self.title_area.setSizePolicy(QSizePolicy.Policy.Preferred,
                                      QSizePolicy.Policy.Maximum)
        top = QHBoxLayout()
        top.addWidget(self.title_area, 1)
        top.addWidget(self.depth_box, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.depth_box.valueChanged.connect(self.depth_changed)

    def show_query(self, query: Query | None, model_label: str = "",
                   canonical_rank: int = 0) -> None:
        if query is None:
            self.title.setText("No query selected")
            return
        where = ""
        if canonical_rank:
            colour = "#1e7d32" if canonical_rank == 1 else "#b45f06"
            where = f" · <span style='color:{colour}'>canonical at rank {canonical_rank}</span>"
        self.title.setText(
            f"<b>{query.function_name}</b> <span style='color:#666'>({query.query_id} · "
            f"{query.domain}{' · ' + model_label if model_label else ''})</span>{where}<br>"
            f"{_escape(query.query)}")

    def show_b_ranks(self, ranks: list[int | None] | None, model_b: str = "") -> None:
        """Give each listed candidate its rank under model B; None hides the column."""
        self.model.set_b_ranks(ranks, model_b)
        self.table.setColumnHidden(CandidatesModel.B_RANK, ranks is None)
        self.fitter.fit()

    def select_corpus_id(self, corpus_id: str) -> None:
        row = self.model.row_of(corpus_id)
        if row >= 0:
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows)

    def current_corpus_id(self) -> str | None:
        index = self.table.currentIndex()
        row = index.data(OBJECT_ROLE) if index.isValid() else None
        return row.snippet.corpus_id if row is not None else None

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = current.data(OBJECT_ROLE) if current.isValid() else None
        if row is not None:
            self.candidate_selected.emit(row.snippet.corpus_id)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        self.fitter.viewport_event(watched, event)
        return super().eventFilter(watched, event)

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """Render what ``state`` selects; send the user's choices back to it."""
        state.query_changed.connect(self._on_state_query_changed)
        state.b_ranks_changed.connect(self.show_b_ranks)
        state.candidate_changed.connect(self._on_state_candidate_changed)
        state.pending_changed.connect(self.model.set_pending)
        state.result_changed.connect(self._on_state_result_changed)
        self.candidate_selected.connect(state.select_candidate)
        self.depth_changed.connect(state.set_depth)

    def _on_state_query_changed(self, view: QueryView) -> None:
        self.show_query(view.query, view.model, view.canonical_rank)
        self.model.set_rows(list(view.rows), len(view.query.test_suite))
        self.table.setColumnHidden(CandidatesModel.B_RANK, True)
        self.fitter.fit()

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.select_corpus_id(view.snippet.corpus_id)

    def _on_state_result_changed(self, corpus_id: str, _row: int, result: Any) -> None:
        self.model.set_outcome(corpus_id, result)


def _escape(text: str) -> str:
    import html

    return html.escape(text)
