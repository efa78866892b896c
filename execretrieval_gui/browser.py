"""The query browser: a searchable, filterable table of every query and its status."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Benchmark

from .columns import ColumnFitter, text_width
from .engine import QueryStatus
from .filters import DISCORDANT, OUTCOMES, QueryFilter, QueryFilterProxy
from .models import OBJECT_ROLE, QueryTableModel

if TYPE_CHECKING:
    from .state import FlagsView, InspectorState, QueryView

__all__ = ["QueryBrowser"]


class QueryBrowser(QWidget):
    """Emits ``query_selected(query_id)`` when the current row changes."""

    query_selected = Signal(str)
    slice_saved = Signal(str, object)   # name, QueryFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = QueryTableModel(self)
        self.proxy = QueryFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._only_ids: frozenset[str] | None = None

        self.search = QLineEdit()
        self.search.setObjectName("querySearch")
        self.search.setPlaceholderText("Search name or text  (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.domain_box = QComboBox()
        self.bug_box = QComboBox()
        self.outcome_box = QComboBox()
        self.outcome_box.addItem("Any outcome", "")
        for key, label in OUTCOMES.items():
            self.outcome_box.addItem(label, key)
        self.discordant_box = QComboBox()
        self.discordant_box.addItem("All (A vs B)", "")
        for key, label in DISCORDANT.items():
            self.discordant_box.addItem(label, key)
        self.discordant_box.setEnabled(False)
        self.discordant_box.setToolTip("Choose a second model under Compare to use this")
        self.flagged_box = QCheckBox("Flagged")
        for box in (self.domain_box, self.bug_box, self.outcome_box, self.discordant_box):
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(7)
        self.only_label = QLabel()
        self.only_clear = QToolButton(text="✕")
        self.only_clear.setToolTip("Show all queries again")
        self.only_label.hide()
        self.only_clear.hide()
        # the query shown elsewhere (opened from the Audit or Metrics tab) that the filter
        # hides: the filter stays — the user chose it — and the list says so
        self.hidden_label = QLabel()
        self.hidden_label.setObjectName("hiddenQueryLabel")
        self.hidden_label.setWordWrap(True)
        self.hidden_clear = QToolButton(text="Clear filters")
        self.hidden_clear.setToolTip("Clear the search and filters to list it")
        self.hidden_label.hide()
        self.hidden_clear.hide()
        self._hidden_query: str | None = None

        self.table = QTableView()
        self.table.setObjectName("queryTable")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        # function names whole; the domain (also a filter and in the tooltip) gives way
        m = QueryTableModel
        self.fitter = ColumnFitter(self.table, shrink=(m.DOMAIN, m.NAME), grow=m.DOMAIN,
                                   minimum={m.DOMAIN: 0, m.NAME: 90},
                                   maximum={m.DOMAIN: 150})
        self.table.viewport().installEventFilter(self)
        self.count_label = QLabel()
        self.count_label.setObjectName("countLabel")
        self.slice_box = QComboBox()
        self.slice_box.setObjectName("sliceBox")
        self.slice_box.setToolTip("Saved slices: choose one to filter the list by it")
        self.slice_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.slice_box.setMinimumContentsLength(8)
        self.save_slice_button = QToolButton(text="Save slice…")
        self.save_slice_button.setToolTip("Save the current filter as a named slice "
                                          "(the Metrics tab measures every saved slice)")
        self.export_button = QToolButton(text="CSV…")
        self.export_button.setToolTip("Export the queries listed now (filtered) as CSV")
        self._slices: dict[str, QueryFilter] = {}

        filters = QGridLayout()
        filters.setSpacing(3)
        filters.addWidget(self.domain_box, 0, 0)
        filters.addWidget(self.bug_box, 0, 1)
        filters.addWidget(self.outcome_box, 1, 0)
        filters.addWidget(self.discordant_box, 1, 1)
        filters.addWidget(self.flagged_box, 2, 0)
        filters.addWidget(self.count_label, 2, 1, Qt.AlignmentFlag.AlignRight)
        slices = QHBoxLayout()
        slices.setSpacing(3)
        slices.addWidget(self.slice_box, 1)
        slices.addWidget(self.save_slice_button)
        slices.addWidget(self.export_button)
        filters.addLayout(slices, 3, 0, 1, 2)
        only = QGridLayout()
        only.addWidget(self.only_label, 0, 0)
        only.addWidget(self.only_clear, 0, 1)
        only.addWidget(self.hidden_label, 1, 0)
        only.addWidget(self.hidden_clear, 1, 1)
        only.setColumnStretch(0, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addWidget(self.search)
        layout.addLayout(filters)
        layout.addLayout(only)
        layout.addWidget(self.table, 1)

        self.search.textChanged.connect(self._on_filters_changed)
        self.search.returnPressed.connect(self._on_search_return_pressed)
        down = QShortcut(QKeySequence(Qt.Key.Key_Down), self.search, None, None,
                         Qt.ShortcutContext.WidgetShortcut)
        down.activated.connect(self._on_search_return_pressed)   # Down, like Enter: to the list
        for box in (self.domain_box, self.bug_box, self.outcome_box, self.discordant_box):
            box.currentIndexChanged.connect(self._on_filters_changed)
        self.flagged_box.toggled.connect(self._on_filters_changed)
        self.slice_box.activated.connect(self._on_slice_box_activated)
        self.save_slice_button.clicked.connect(self._on_save_slice_clicked)
        self.only_clear.clicked.connect(self._on_only_clear_clicked)
        self.hidden_clear.clicked.connect(self._on_hidden_clear_clicked)
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current_changed)
        self.proxy.rowsInserted.connect(self._update_count)
        self.proxy.rowsRemoved.connect(self._update_count)
        self.proxy.modelReset.connect(self._update_count)
        self.proxy.layoutChanged.connect(self._update_count)
        self.set_slices({})

    # filling --------------------------------------------------------------------------
    def set_benchmark(self, benchmark: Benchmark | None) -> None:
        self._only_ids = None
        self._show_hidden(None)
        self.only_label.hide()
        self.only_clear.hide()
        self.model.set_benchmark(benchmark)
        for box, first, values in (
            (self.domain_box, "All domains", benchmark.domains if benchmark else ()),
            (self.bug_box, "All bug types", benchmark.bug_types if benchmark else ()),
        ):
            box.blockSignals(True)
            box.clear()
            box.addItem(first, "")
            for value in values:
                box.addItem(value, value)
            box.blockSignals(False)
        m = QueryTableModel
        names = [q.function_name for q in benchmark.queries] if benchmark else []
        self.fitter.content = {
            m.NAME: text_width(self.table, names),
            m.DOMAIN: text_width(self.table, benchmark.domains if benchmark else ()),
            m.CANON: text_width(self.table, ["Canon", "100"]),
            m.TOP1: text_width(self.table, ["R1"]) + 6,
            m.DECEIVED: text_width(self.table, ["Dec.", "yes"]),
            m.FLAG: text_width(self.table, ["⚑"]) + 4}
        self._on_filters_changed()
        self.fitter.fit()

    def set_status(self, status: QueryStatus | None, status_b: QueryStatus | None) -> None:
        current = self.current_query_id()
        self.model.set_status(status, status_b)
        self.discordant_box.setEnabled(status_b is not None)
        if status_b is None and self.discordant_box.currentIndex() != 0:
            self.discordant_box.setCurrentIndex(0)
        self._on_filters_changed()
        if current:
            self.select_query(current, emit=False)

    def set_flagged(self, flagged: set[str]) -> None:
        self.model.set_flagged(flagged)

    def show_only(self, query_ids: set[str] | None, label: str = "") -> None:
        """Restrict the list to ``query_ids`` (e.g. a comparison's discordant queries)."""
        self._only_ids = frozenset(query_ids) if query_ids is not None else None
        self.only_label.setText(label)
        self.only_label.setVisible(query_ids is not None)
        self.only_clear.setVisible(query_ids is not None)
        self._on_filters_changed()

    def preferred_width(self, domain: bool = True) -> int:
        """The width that shows every function name whole (and the domains too)."""
        fixed = sum(self.fitter.wanted(c) for c in range(self.model.columnCount())
                    if domain or c != QueryTableModel.DOMAIN)
        scroll = self.table.verticalScrollBar().sizeHint().width()
        return fixed + scroll + 2 * self.table.frameWidth() + 10

    # selection ------------------------------------------------------------------------
    def current_query_id(self) -> str | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        query = index.data(OBJECT_ROLE)
        return query.query_id if query is not None else None

    def select_query(self, query_id: str, emit: bool = True) -> bool:
        bench = self.model.benchmark
        if bench is None or not bench.has_query(query_id):
            return False
        source = self.model.index(bench.query_index(query_id), 0)
        index = self.proxy.mapFromSource(source)
        if not index.isValid():  # filtered out: keep the filter, say so, offer to clear it
            self._show_hidden(query_id)
            selection = self.table.selectionModel()
            selection.blockSignals(True)
            selection.clear()
            self.table.setCurrentIndex(QModelIndex())
            selection.blockSignals(False)
            self.table.viewport().update()
            return True
        self._show_hidden(None)
        if not emit:
            self.table.selectionModel().blockSignals(True)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        if not emit:
            self.table.selectionModel().blockSignals(False)
        return True

    def _show_hidden(self, query_id: str | None) -> None:
        self._hidden_query = query_id
        bench = self.model.benchmark
        if query_id is not None and bench is not None:
            q = bench.query(query_id)
            self.hidden_label.setText(f"<b>{q.function_name}</b> (shown) is not in the "
                                      f"filtered list")
        self.hidden_label.setVisible(query_id is not None)
        self.hidden_clear.setVisible(query_id is not None)

    def _on_hidden_clear_clicked(self) -> None:
        query_id = self._hidden_query
        self.search.clear()
        self.reset_filters()
        if query_id is not None:
            self.select_query(query_id, emit=False)

    def reset_filters(self) -> None:
        for box in (self.domain_box, self.bug_box, self.outcome_box, self.discordant_box):
            box.setCurrentIndex(0)
        self.flagged_box.setChecked(False)
        self.show_only(None)

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        self.fitter.viewport_event(watched, event)
        return super().eventFilter(watched, event)

    # slices ---------------------------------------------------------------------------
    def current_filter(self) -> QueryFilter:
        return self.proxy.criteria

    def apply_filter(self, criteria: QueryFilter) -> None:
        """Set the search and filter boxes to ``criteria`` (a saved slice)."""
        boxes = ((self.domain_box, criteria.domain), (self.bug_box, criteria.bug_type),
                 (self.outcome_box, criteria.outcome), (self.discordant_box, criteria.discordant))
        for box, value in boxes:
            box.blockSignals(True)
            box.setCurrentIndex(max(0, box.findData(value)))
            box.blockSignals(False)
        self.flagged_box.blockSignals(True)
        self.flagged_box.setChecked(criteria.flagged_only)
        self.flagged_box.blockSignals(False)
        self.search.blockSignals(True)
        self.search.setText(criteria.text)
        self.search.blockSignals(False)
        self._on_filters_changed()

    def visible_query_ids(self) -> list[str]:
        """The queries listed now, in the list's order."""
        out = []
        for row in range(self.proxy.rowCount()):
            query = self.proxy.index(row, 0).data(OBJECT_ROLE)
            if query is not None:
                out.append(query.query_id)
        return out

    def set_slices(self, named: dict[str, QueryFilter]) -> None:
        self._slices = dict(named)
        current = self.slice_box.currentData()
        self.slice_box.blockSignals(True)
        self.slice_box.clear()
        self.slice_box.addItem("Saved slices…" if named else "No saved slices", "")
        for name, criteria in named.items():
            self.slice_box.addItem(name, name)
            self.slice_box.setItemData(self.slice_box.count() - 1, criteria.describe(),
                                       Qt.ItemDataRole.ToolTipRole)
        self.slice_box.setCurrentIndex(max(0, self.slice_box.findData(current)))
        self.slice_box.blockSignals(False)

    def _on_slice_box_activated(self, index: int) -> None:
        name = self.slice_box.itemData(index)
        if name in self._slices:
            self.apply_filter(self._slices[name])

    def _on_save_slice_clicked(self) -> None:
        criteria = self.current_filter()
        name, ok = QInputDialog.getText(self, "Save slice",
                                        f"Name for this filter ({criteria.describe()}):")
        if ok and name.strip():
            self.slice_saved.emit(name, criteria)

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """List ``state``'s benchmark with its statuses and flags; follow its query."""
        state.slices.changed.connect(self.set_slices)
        self.slice_saved.connect(state.slices.save)
        state.benchmark_loaded.connect(self.set_benchmark)
        state.status_changed.connect(self.set_status)
        state.flags_changed.connect(self._on_state_flags_changed)
        state.query_changed.connect(self._on_state_query_changed)
        self.query_selected.connect(state.select_query)

    def _on_state_flags_changed(self, view: FlagsView) -> None:
        if view.flagged != self.model.flagged:
            self.set_flagged(set(view.flagged))

    def _on_state_query_changed(self, view: QueryView) -> None:
        if self.current_query_id() != view.query.query_id:
            self.select_query(view.query.query_id, emit=False)

    # slots ----------------------------------------------------------------------------
    def _on_filters_changed(self, *_: object) -> None:
        self.proxy.set_filter(QueryFilter(
            text=self.search.text().strip(),
            domain=self.domain_box.currentData() or "",
            bug_type=self.bug_box.currentData() or "",
            outcome=self.outcome_box.currentData() or "",
            flagged_only=self.flagged_box.isChecked(),
            discordant=(self.discordant_box.currentData() or "")
            if self.discordant_box.isEnabled() else "",
            only_ids=self._only_ids,
        ))
        self._update_count()
        hidden = self._hidden_query
        if hidden is not None and self.model.benchmark is not None \
                and self.model.benchmark.has_query(hidden):
            source = self.model.index(self.model.benchmark.query_index(hidden), 0)
            if self.proxy.mapFromSource(source).isValid():
                self.select_query(hidden, emit=False)

    def _on_search_return_pressed(self) -> None:
        """Enter or Down in the search box: go to the list (first match unless one is
        current)."""
        self.table.setFocus()
        if not self.table.currentIndex().isValid() and self.proxy.rowCount():
            self.table.setCurrentIndex(self.proxy.index(0, 0))

    def _on_only_clear_clicked(self) -> None:
        self.show_only(None)

    def _on_table_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        query = current.data(OBJECT_ROLE) if current.isValid() else None
        if query is not None:
            self.query_selected.emit(query.query_id)

    def _update_count(self, *_: object) -> None:
        self.count_label.setText(f"{self.proxy.rowCount()} / {self.model.rowCount()} queries")
