"""The selected query's ranked candidates, and the diff of one against the canonical."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Query

from .columns import ColumnFitter, share
from .diffview import DiffView
from .models import OBJECT_ROLE, CandidateRow, CandidatesModel
from .viewports import own_viewport

if TYPE_CHECKING:
    from .state import CandidateView, InspectorState, QueryView

__all__ = ["CandidatesPanel", "DiffView"]   # DiffView: from .diffview, kept importable here


class CandidatesPanel(QWidget):
    """Query text on top, then the top-k table. Emits the selected candidate's corpus id."""

    candidate_selected = Signal(str)
    depth_changed = Signal(int)
    lists_stacked = Signal(bool)   # A's and B's lists one above the other (True) or beside

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = CandidatesModel(self)
        self._selected = ""   # the corpus id selected in whichever list
        self.title = QLabel("No query selected")
        self.title.setObjectName("queryTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, 100)
        self.depth_box.setValue(10)
        self.depth_box.setPrefix("top ")
        self.depth_box.setToolTip("How many ranked candidates to show")
        self.table, self.fitter = self._make_table(self.model, "candidateTable")
        # the A|B view: model B's own top-k beside A's, once a Compare model is chosen
        self.model_b = CandidatesModel(self)
        self.model_b.other = "A"
        self.table_b, self.fitter_b = self._make_table(self.model_b, "candidateTableB")
        self.label_a = QLabel()
        self.label_b = QLabel()
        for label in (self.label_a, self.label_b):
            label.setObjectName("rankingLabel")
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("abSplitter")
        self.split.setChildrenCollapsible(False)
        # the two lists share the width by what their columns need (B's Stage column makes
        # it the wider), until the user drags the handle
        self._split_by_user = False
        self._stacked = False   # as last told through lists_stacked
        self.split.splitterMoved.connect(self._on_split_moved)
        self._balance_timer = QTimer(self)
        self._balance_timer.setSingleShot(True)
        self._balance_timer.setInterval(0)
        self._balance_timer.timeout.connect(self.balance_lists)
        for label, table in ((self.label_a, self.table), (self.label_b, self.table_b)):
            pane = QWidget()
            pl = QVBoxLayout(pane)
            pl.setContentsMargins(0, 0, 0, 0)
            pl.setSpacing(1)
            pl.addWidget(label)
            pl.addWidget(table, 1)
            self.split.addWidget(pane)
        self._show_b_list(False)

        # the query header is as tall as its text (a long HumanEval query whole), up to
        # two fifths of the panel; past that it scrolls, the candidates keep the rest
        self.title_area = QScrollArea()
        self.title_area.setObjectName("queryTitleArea")
        own_viewport(self.title_area)   # before the title goes in (see .viewports)
        self.title_area.setWidget(self.title)
        self.title_area.setWidgetResizable(True)
        self.title_area.setFrameShape(QFrame.Shape.NoFrame)
        self.title_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        title_font = QFont(self.title.font())
        title_font.setPointSize(10)   # the style sheet's size for #queryTitle
        self._title_line = QFontMetrics(title_font).lineSpacing()
        self.title_area.setFixedHeight(2 * self._title_line + 6)
        self.title_area.setSizePolicy(QSizePolicy.Policy.Preferred,
                                      QSizePolicy.Policy.Fixed)
        self.title_area.viewport().installEventFilter(self)
        top = QHBoxLayout()
        top.addWidget(self.title_area, 1)
        top.addWidget(self.depth_box, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addLayout(top)
        layout.addWidget(self.split, 1)

        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.table_b.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.depth_box.valueChanged.connect(self.depth_changed)

    def _make_table(self, model: CandidatesModel, name: str) -> tuple[QTableView, ColumnFitter]:
        table = QTableView()
        table.setObjectName(name)
        table.setModel(model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(22)
        table.setWordWrap(False)
        m = CandidatesModel
        # every column as wide as its text; short of room a long bug type is elided a
        # little, then the score difference and a pipeline's stage moves step aside (both
        # are in every row's tooltip), then bug type and role are elided further
        fitter = ColumnFitter(table, shrink=((m.BUG, 110), (m.DELTA, 0), (m.STAGE, 0),
                                             (m.BUG, 40), (m.ROLE, 44)),
                              grow=None, whole=(m.DELTA, m.STAGE))
        table.viewport().installEventFilter(self)
        fitter.set_hidden(m.B_RANK, True)   # until a model B is chosen
        fitter.set_hidden(m.STAGE, True)    # until a pipeline's ranking is shown
        return table, fitter

    def _show_b_list(self, shown: bool) -> None:
        """Two lists side by side share the width: each drops the score difference and
        the score (both in the row's tooltip), folds role and bug type into one short
        "What" column (canonical, a short bug type, another query's id) and shows the test
        count alone (its colour and count say pass or fail)."""
        if self.model.compact == shown and self.split.widget(1).isVisibleTo(self) == shown:
            return
        if shown and not self.split.widget(1).isVisibleTo(self):
            self._split_by_user = False
        self.split.widget(1).setVisible(shown)
        self.label_a.setVisible(shown)
        for model, fitter in ((self.model, self.fitter), (self.model_b, self.fitter_b)):
            model.compact = shown
            fitter.set_hidden(CandidatesModel.DELTA, shown)
            fitter.set_hidden(CandidatesModel.SCORE, shown)
            fitter.set_hidden(CandidatesModel.BUG, shown)
            model.layoutChanged.emit()
            fitter.schedule()
        self._balance_timer.start()

    def show_b_rows(self, rows: tuple[CandidateRow, ...] | None,
                    a_ranks: list[int | None] | None, model_b: str) -> None:
        """Model B's ranking of the query beside A's (None: no model B, one list)."""
        self._show_b_list(rows is not None)
        self.model_b.set_rows(list(rows or ()), self.model.n_tests, self.model.visible)
        if rows is not None:
            self.model_b.set_b_ranks(a_ranks, self.label_a.property("model") or "")
            self.label_b.setText(f"<b>B</b>: {model_b}")
            self.fitter_b.set_hidden(CandidatesModel.B_RANK, False)
            self._select_in(self.table_b, self.model_b, self._selected)
        self.fitter_b.set_hidden(CandidatesModel.STAGE,
                                   not any(r.stage for r in rows or ()))
        self.fitter_b.schedule()
        self._balance_timer.start()

    def balance_lists(self) -> None:
        """Side by side, give each list the width its columns ask for (:func:`share`):
        B's list of a pipeline, with its Stage column, is wider than A's. Too narrow for
        both lists' essential columns side by side (1024 px, tied rank ranges), stack them,
        each with the whole width. A share the user chose by dragging the handle stays."""
        if not self.split.widget(1).isVisibleTo(self):
            self._note_stacking()
            return
        split = self.split
        horizontal = Qt.Orientation.Horizontal
        width = split.width() - (split.handleWidth() if split.orientation() == horizontal
                                 else 0)
        if width <= 0:
            return
        # each pane holds its label above its table: the table's needs are the pane's
        needs = [self.fitter.needs(), self.fitter_b.needs()]
        side_by_side = sum(essential for _full, essential in needs) <= width
        orientation = horizontal if side_by_side else Qt.Orientation.Vertical
        if split.orientation() != orientation:
            split.setOrientation(orientation)
            self._split_by_user = False
            if not side_by_side:
                half = max(1, split.height() // 2)
                split.setSizes([half, half])
        self._note_stacking()
        if self._split_by_user or not side_by_side:
            return
        sizes = split.sizes()
        wanted = share(sum(sizes), needs)
        if wanted != sizes:
            split.setSizes(wanted)

    def stacked(self) -> bool:
        """A's and B's lists are shown one above the other."""
        return self.split.orientation() == Qt.Orientation.Vertical \
            and self.split.widget(1).isVisibleTo(self)

    def _note_stacking(self) -> None:
        """Refit the header and tell the window when the lists stack or unstack."""
        stacked = self.stacked()
        if stacked != self._stacked:
            self._stacked = stacked
            self.fit_title()
            self.lists_stacked.emit(stacked)

    def _on_split_moved(self, _pos: int, _index: int) -> None:
        self._split_by_user = True

    def show_query(self, query: Query | None, model_label: str = "",
                   canonical_rank: int = 0, view: QueryView | None = None) -> None:
        if query is None:
            self.title.setText("No query selected")
            self.fit_title()
            return
        where = ""
        if canonical_rank:
            worst = view.canonical_rank_worst if view is not None else canonical_rank
            colour = "#1e7d32" if worst == 1 else "#b45f06"
            text = f"canonical at rank {canonical_rank}"
            if view is not None and worst > canonical_rank:
                # a tie: no rank decided by file order, but who it ties with and the range
                parts = []
                if view.tied_mutants:
                    parts.append(f"{view.tied_mutants} mutant{'s' * (view.tied_mutants > 1)}")
                if view.tied_others:
                    parts.append(f"{view.tied_others} other snippet"
                                 f"{'s' * (view.tied_others > 1)}")
                text = (f"canonical tied with {' and '.join(parts)} at "
                        f"{view.canonical_score:.2f} (ranks {canonical_rank}-{worst})")
            where = f" · <span style='color:{colour}'>{text}</span>"
        origin = source_text(query)
        origin = f" · from {_escape(origin)}" if origin else ""
        self.title.setText(
            f"<b>{query.function_name}</b> <span style='color:#666'>({query.query_id} · "
            f"{query.domain}{' · ' + model_label if model_label else ''}){origin}</span>"
            f"{where}<br>"
            f"<span style='white-space:pre-wrap'>{_escape(query.query)}</span>")
        self.fit_title()

    def show_b_ranks(self, ranks: list[int | None] | None, model_b: str = "") -> None:
        """Give each listed candidate its rank under model B; None hides the column."""
        self.model.set_b_ranks(ranks, model_b)
        self.fitter.set_hidden(CandidatesModel.B_RANK, ranks is None)
        self.fitter.schedule()
        self._balance_timer.start()

    def select_corpus_id(self, corpus_id: str) -> None:
        """Select the snippet in both lists (cleared in a list that does not hold it)."""
        self._selected = corpus_id
        self._select_in(self.table, self.model, corpus_id)
        if self.split.widget(1).isVisibleTo(self):
            self._select_in(self.table_b, self.model_b, corpus_id)

    @staticmethod
    def _select_in(table: QTableView, model: CandidatesModel, corpus_id: str) -> None:
        row = model.row_of(corpus_id)
        selection = table.selectionModel()
        if row < 0:
            selection.blockSignals(True)
            selection.clear()
            selection.blockSignals(False)
            table.viewport().update()
            return
        current = table.currentIndex()
        if not (current.isValid() and current.row() == row):
            selection.setCurrentIndex(model.index(row, 0),
                                      QItemSelectionModel.SelectionFlag.ClearAndSelect
                                      | QItemSelectionModel.SelectionFlag.Rows)
        table.scrollTo(model.index(row, 0))

    def current_corpus_id(self) -> str | None:
        index = self.table.currentIndex()
        row = index.data(OBJECT_ROLE) if index.isValid() else None
        return row.snippet.corpus_id if row is not None else None

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = current.data(OBJECT_ROLE) if current.isValid() else None
        if row is not None:
            self.candidate_selected.emit(row.snippet.corpus_id)

    def fit_title(self) -> None:
        """The header as tall as its wrapped text at the width it has, between two lines
        and two fifths of the panel — one fifth while A's and B's lists are stacked — in
        whole lines (never half of one), scrolling beyond."""
        area = self.title_area
        width = area.viewport().width() or area.width()
        needed = self.title.heightForWidth(max(width, 50))
        if needed <= 0:
            needed = self.title.sizeHint().height()
        line = self._title_line
        share = 0.2 if self.stacked() else 0.4
        cap = max(2 * line, (int(share * self.height()) // line) * line)
        height = min(max(needed, 2 * line), cap) + 6
        if area.height() != height:
            area.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        if hasattr(self, "title_area"):
            self.fit_title()
            self._balance_timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        area = getattr(self, "title_area", None)   # table viewports report before it exists
        if area is not None and watched is area.viewport() \
                and event.type() == QEvent.Type.Resize:
            self.fit_title()
        self.fitter.viewport_event(watched, event)
        self.fitter_b.viewport_event(watched, event)
        timer = getattr(self, "_balance_timer", None)   # made after the tables
        if timer is not None and event.type() == QEvent.Type.Resize \
                and watched in (self.table.viewport(), self.table_b.viewport()):
            timer.start()   # a vertical scroll bar came or went: share the width again
        return super().eventFilter(watched, event)

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """Render what ``state`` selects; send the user's choices back to it."""
        state.query_changed.connect(self._on_state_query_changed)
        state.b_ranks_changed.connect(self.show_b_ranks)
        state.b_rows_changed.connect(self.show_b_rows)
        state.candidate_changed.connect(self._on_state_candidate_changed)
        state.pending_changed.connect(self._on_state_pending_changed)
        state.result_changed.connect(self._on_state_result_changed)
        self.candidate_selected.connect(state.select_candidate)
        self.depth_changed.connect(state.set_depth)

    def _on_state_query_changed(self, view: QueryView) -> None:
        self.show_query(view.query, view.model, view.canonical_rank, view)
        self.label_a.setText(f"<b>A</b>: {view.model}")
        self.label_a.setProperty("model", view.model)
        self.model.set_rows(list(view.rows), len(view.query.test_suite), view.visible)
        self.fitter.set_hidden(CandidatesModel.B_RANK, True)
        self.fitter.set_hidden(CandidatesModel.STAGE, not any(r.stage for r in view.rows))
        self.fitter.schedule()
        self._balance_timer.start()

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.select_corpus_id(view.snippet.corpus_id)

    def _on_state_pending_changed(self, corpus_ids: set[str]) -> None:
        self.model.set_pending(corpus_ids)
        self.model_b.set_pending(corpus_ids)
        self._refit()

    def _on_state_result_changed(self, corpus_id: str, _row: int, result: Any) -> None:
        self.model.set_outcome(corpus_id, result)
        self.model_b.set_outcome(corpus_id, result)
        self._refit()

    def _refit(self) -> None:
        """A badge's text changed ("running…" -> "PASS 8/8"): fit the columns to it if the
        Tests column now asks for another width, else it kept the width of "running…" and
        the bug type stayed elided for the room it had taken."""
        self.fitter.texts_changed(CandidatesModel.BADGE)
        if self.table_b.isVisibleTo(self):   # (and the two lists' shares with it)
            self.fitter_b.texts_changed(CandidatesModel.BADGE)
            self._balance_timer.start()


def source_text(query: Query) -> str:
    """Where a query built from real code comes from: ``module (file:line)``, else "".

    Read from the query's ``source`` field (``{"module", "file", "line"}``, written by
    ``execretrieval build-from-code``); a missing or malformed field shows nothing.
    """
    source = query.extra.get("source")
    if not isinstance(source, dict):
        return ""
    module, file, line = source.get("module"), source.get("file"), source.get("line")
    if not isinstance(file, str) or not file:
        return str(module) if isinstance(module, str) and module else ""
    where = f"{file}:{line}" if isinstance(line, int) and not isinstance(line, bool) else file
    return f"{module} ({where})" if isinstance(module, str) and module else where


def _escape(text: str) -> str:
    import html

    return html.escape(text)
