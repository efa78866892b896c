"""The selected query's ranked candidates, and the diff of one against the canonical."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QRadioButton,
    QSpinBox,
    QStyle,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Query, Snippet

from . import diffing
from .models import OBJECT_ROLE, CandidatesModel

if TYPE_CHECKING:
    from .state import CandidateView, InspectorState, QueryView

__all__ = ["CandidatesPanel", "DiffView"]


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
        header = self.table.horizontalHeader()
        for col, width in ((0, 40), (1, 64), (2, 70), (3, 124), (4, 150), (5, 78), (6, 56)):
            header.resizeSection(col, width)
        header.setSectionResizeMode(CandidatesModel.BUG, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnHidden(CandidatesModel.B_RANK, True)   # until a model B is chosen

        top = QHBoxLayout()
        top.addWidget(self.title, 1)
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

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.select_corpus_id(view.snippet.corpus_id)

    def _on_state_result_changed(self, corpus_id: str, _row: int, result: Any) -> None:
        self.model.set_outcome(corpus_id, result)


def _escape(text: str) -> str:
    import html

    return html.escape(text)


class DiffView(QWidget):
    """The candidate against the canonical, marks on the edited characters."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.description = QLabel()
        self.description.setObjectName("bugDescription")
        self.description.setWordWrap(True)
        self.description.setTextFormat(Qt.TextFormat.RichText)
        self.side_button = QRadioButton("Side by side")
        self.unified_button = QRadioButton("Unified")
        self.side_button.setChecked(True)
        self.mode_group = QButtonGroup(self)
        self.mode_group.addButton(self.side_button)
        self.mode_group.addButton(self.unified_button)
        self.browser = QTextBrowser()
        self.browser.setObjectName("diffBrowser")
        self.browser.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        self.browser.setOpenLinks(False)

        top = QHBoxLayout()
        top.addWidget(self.description, 1)
        top.addWidget(self.side_button, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.unified_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addLayout(top)
        layout.addWidget(self.browser, 1)

        self.canonical: Snippet | None = None
        self.candidate: Snippet | None = None
        self.marked: tuple[list[str], list[str]] = ([], [])
        self.wrap = self._wrap_width()
        self.browser.installEventFilter(self)
        self.side_button.toggled.connect(self._on_mode_toggled)

    def _wrap_width(self) -> int:
        """Characters that fit in one half of the side-by-side table, scroll bar or not."""
        char = QFontMetricsF(QFont("DejaVu Sans Mono", 8)).horizontalAdvance("M") or 7.0
        scroll = self.browser.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        # two line-number columns (26 px), the 6 px gutter, document margins, cell padding
        usable = self.browser.width() - 2 * self.browser.frameWidth() - scroll - 2 * 26 - 6 - 18
        return max(16, int(usable / 2 / char))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.browser and event.type() == QEvent.Type.Resize:
            wrap = self._wrap_width()
            if wrap != self.wrap:
                self.wrap = wrap
                if not self.unified and self.candidate is not None:
                    self._render()
        return super().eventFilter(watched, event)

    @property
    def unified(self) -> bool:
        return self.unified_button.isChecked()

    def set_unified(self, unified: bool) -> None:
        (self.unified_button if unified else self.side_button).setChecked(True)

    def show_pair(self, canonical: Snippet | None, candidate: Snippet | None) -> None:
        self.canonical, self.candidate = canonical, candidate
        self._render()

    def clear(self) -> None:
        self.show_pair(None, None)

    def _render(self) -> None:
        cand, canon = self.candidate, self.canonical
        self.marked = ([], [])
        if cand is None:
            self.description.setText("")
            self.browser.setHtml("")
            return
        if canon is None or cand.corpus_id == canon.corpus_id:
            label = "the canonical" if canon is not None else cand.corpus_id
            self.description.setText(f"<b>{cand.corpus_id}</b> — {label}, shown as is "
                                     f"(it passes the query's tests by construction)"
                                     if canon is not None else f"<b>{cand.corpus_id}</b>")
            self.browser.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
            self.browser.setHtml(diffing.render_plain(cand.code))
            return
        if cand.query_id != canon.query_id:
            # not a mutant of this canonical: a character diff would only be noise
            what = f"its bug: <i>{cand.bug_type}</i>" if cand.bug_type else "its canonical"
            source = _escape(str(cand.extra.get("source", "")))
            self.description.setText(
                f"<b>{cand.corpus_id}</b> — background code from the pool ({source}), "
                "shown as is: real code of no query" if cand.role == "background" else
                f"<b>{cand.corpus_id}</b> — a snippet of another query ({cand.query_id}; "
                f"{what}), shown as is: it is not an edit of this query's canonical")
            self.browser.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
            self.browser.setHtml(diffing.render_plain(cand.code))
            return
        else:
            desc = (f"<b>{cand.corpus_id}</b> · <i>{cand.bug_type}</i> — "
                    f"{_escape(cand.bug_description or 'no description')}")
        self.description.setText(desc + "<br><span style='color:#666'>left: canonical "
                                 f"{canon.corpus_id} · right: candidate</span>"
                                 if not self.unified else desc)
        self.marked = diffing.marked_fragments(canon.code, cand.code)
        self.browser.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap if self.unified else
                                     QTextBrowser.LineWrapMode.WidgetWidth)
        if self.unified:
            self.browser.setHtml(diffing.render_unified(canon.code, cand.code))
        else:   # rows wrapped to the half's width: both sides stay aligned line for line
            self.browser.setHtml(diffing.render_side_by_side(canon.code, cand.code, self.wrap))

    def _on_mode_toggled(self, _checked: bool) -> None:
        self._render()

    def bind(self, state: InspectorState) -> None:
        """Show the diff of the candidate ``state`` selects."""
        state.candidate_changed.connect(self._on_state_candidate_changed)

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.show_pair(view.canonical, view.snippet)
