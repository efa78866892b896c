"""Flag the selected query's suite, one of its tests or a candidate, with a category and a
note; see who flagged what, whether its query changed since (stale), resolve or remove it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from execretrieval.benchmark.annotations import CATEGORIES, Flag

from .models import OBJECT_ROLE
from .state_flags import categories_for
from .suite_models import FlagsModel

if TYPE_CHECKING:
    from .state import CandidateView, FlagsView, InspectorState

__all__ = ["FlagsPanel"]


class FlagsPanel(QWidget):
    """Builds :class:`Flag` objects; the window saves them and reports back."""

    flag_requested = Signal(object)   # Flag without id
    remove_requested = Signal(int)    # flag id
    status_requested = Signal(int, str)   # flag id, "open" | "resolved"
    annotator_edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = FlagsModel(self)
        self.query_id: str | None = None
        self.target_box = QComboBox()
        self.target_box.setObjectName("flagTarget")
        self.category_box = QComboBox()
        self.category_box.setObjectName("flagCategory")
        for box in (self.target_box, self.category_box):   # a long label must not widen the dock
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(12)
        self._fill_categories("query")
        self.note = QLineEdit()
        self.note.setObjectName("flagNote")
        self.note.setPlaceholderText("Note (what you saw)")
        self.add_button = QPushButton("Flag")
        self.add_button.setToolTip("Save this flag (or Enter in the note; Ctrl+D goes to the note)")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Remove the selected flag (Ctrl+Z puts it back)")
        self.resolve_button = QPushButton("Resolve")
        self.resolve_button.setObjectName("flagResolve")
        self.resolve_button.setToolTip("Mark the selected flag resolved (or open again)")
        self.annotator = QLineEdit()
        self.annotator.setObjectName("flagAnnotator")
        self.annotator.setToolTip("Who new flags are from (the OS user by default)")
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        # target, who and status as wide as their text; category and note share the rest
        # (a long category elides, whole in the tooltip): no column is ever pushed out
        for col in (0, 3, 4):
            header.setSectionResizeMode(col, header.ResizeMode.ResizeToContents)
        for col in (1, 2):
            header.setSectionResizeMode(col, header.ResizeMode.Stretch)
        header.setMinimumSectionSize(36)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setColumnHidden(5, True)   # when: in every cell's tooltip instead
        self.store_label = QLabel()
        self.store_label.setObjectName("storeLabel")
        self.store_label.setWordWrap(True)

        form = QGridLayout()
        form.setSpacing(3)
        form.addWidget(QLabel("On"), 0, 0)
        form.addWidget(self.target_box, 0, 1)
        form.addWidget(QLabel("Category"), 1, 0)
        form.addWidget(self.category_box, 1, 1)
        form.addWidget(QLabel("Note"), 2, 0)
        form.addWidget(self.note, 2, 1)
        form.addWidget(QLabel("By"), 3, 0)
        form.addWidget(self.annotator, 3, 1)
        form.setColumnStretch(1, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.store_label, 1)
        buttons.addWidget(self.resolve_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)

        self.add_button.clicked.connect(self._on_add_clicked)
        self.note.returnPressed.connect(self._on_add_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.resolve_button.clicked.connect(self._on_resolve_clicked)
        self.annotator.editingFinished.connect(
            lambda: self.annotator_edited.emit(self.annotator.text()))
        self.table.selectionModel().currentRowChanged.connect(self._on_table_row_changed)
        self.target_box.currentIndexChanged.connect(self._on_target_changed)
        # Ctrl+Z in a field with nothing of its own to undo puts the removed flag back
        self._flag_undo = False
        for field in (self.note, self.annotator):
            field.installEventFilter(self)
        self.setEnabled(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """A line edit claims Ctrl+Z before the window's shortcut sees it (Qt's shortcut
        override); when the field has no edit to undo and a removed flag can be put back,
        it lets the window have it."""
        if (event.type() == QEvent.Type.ShortcutOverride and self._flag_undo
                and isinstance(watched, QLineEdit) and not watched.isUndoAvailable()
                and isinstance(event, QKeyEvent)
                and event.matches(QKeySequence.StandardKey.Undo)):
            event.ignore()
            return True
        return super().eventFilter(watched, event)

    def _on_state_undo_changed(self, available: bool) -> None:
        """A flag was removed (or put back): that is now the last thing done, so the
        fields' own edits before it are no longer what Ctrl+Z undoes first."""
        self._flag_undo = available
        if available:
            for field in (self.note, self.annotator):
                field.setText(field.text())   # same text, empty undo history

    def _target_kind(self) -> str:
        return str(self.target_box.currentData() or "query").partition(":")[0]

    def _fill_categories(self, target: str) -> None:
        """Offer only the categories a flag on ``target`` can have (a distractor's edit
        is no verdict on the suite); the chosen one stays when it still applies."""
        keep = self.category_box.currentData()
        allowed = categories_for(target)
        if [self.category_box.itemData(i) for i in range(self.category_box.count())] == allowed:
            return
        self.category_box.blockSignals(True)
        self.category_box.clear()
        for key in allowed:
            self.category_box.addItem(CATEGORIES[key], key)
        self.category_box.setCurrentIndex(max(0, self.category_box.findData(keep)))
        self.category_box.blockSignals(False)

    def _on_target_changed(self, _index: int = -1) -> None:
        self._fill_categories(self._target_kind())

    def set_targets(self, query_id: str | None, n_tests: int, corpus_ids: list[str],
                    selected_corpus_id: str | None = None) -> None:
        """Offer the query's suite, each test and each shown candidate.

        The suite is the default (every category is about tests or the query); a test
        chosen before stays chosen within the same query, and a chosen candidate follows
        the selected one.
        """
        keep = str(self.target_box.currentData() or "") if query_id == self.query_id else ""
        self.query_id = query_id
        self.setEnabled(query_id is not None)
        self.target_box.clear()
        self.target_box.addItem("the query's suite", "query")
        for i in range(n_tests):
            self.target_box.addItem(f"test {i + 1}", f"test:{i}")
        for cid in corpus_ids:
            self.target_box.addItem(f"candidate {cid}", f"candidate:{cid}")
        if keep.startswith("candidate:") and selected_corpus_id:
            keep = f"candidate:{selected_corpus_id}"
        i = self.target_box.findData(keep)
        self.target_box.setCurrentIndex(max(i, 0))

    def select_target(self, target: str, test_index: int | None = None,
                      corpus_id: str | None = None) -> None:
        key = {"query": "query", "test": f"test:{test_index}",
               "candidate": f"candidate:{corpus_id}"}.get(target, "")
        i = self.target_box.findData(key)
        if i >= 0:
            self.target_box.setCurrentIndex(i)

    def set_flags(self, flags: list[Flag]) -> None:
        self.model.set_flags(flags)
        self._on_table_row_changed()

    def _on_add_clicked(self) -> None:
        if self.query_id is None:
            return
        target, _, rest = str(self.target_box.currentData() or "query").partition(":")
        test_index = int(rest) if target == "test" else None
        corpus_id = rest if target == "candidate" else None
        flag = Flag(query_id=self.query_id, category=self.category_box.currentData(),
                    target=target, test_index=test_index, corpus_id=corpus_id,
                    note=self.note.text().strip())
        self.flag_requested.emit(flag)

    def confirm_saved(self, _flag: object = None) -> None:
        """Called once the store has the flag on disk."""
        self.note.clear()

    def _selected_flag(self) -> Flag | None:
        index = self.table.currentIndex()
        flag = index.data(OBJECT_ROLE) if index.isValid() else None
        return flag if flag is not None and flag.flag_id is not None else None

    def _on_remove_clicked(self) -> None:
        flag = self._selected_flag()
        if flag is not None:
            self.remove_requested.emit(int(flag.flag_id or 0))

    def _on_resolve_clicked(self) -> None:
        flag = self._selected_flag()
        if flag is not None:
            self.status_requested.emit(int(flag.flag_id or 0),
                                       "open" if flag.status == "resolved" else "resolved")

    def _on_table_row_changed(self, *_: object) -> None:
        flag = self._selected_flag()
        self.resolve_button.setText("Reopen" if flag is not None and flag.status == "resolved"
                                    else "Resolve")

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """Offer the selected query's targets, list its flags; save through ``state``."""
        state.candidate_changed.connect(self._on_state_candidate_changed)
        state.flags_changed.connect(self._on_state_flags_changed)
        state.flag_saved.connect(self.confirm_saved)
        state.undo_changed.connect(self._on_state_undo_changed)
        self.flag_requested.connect(state.add_flag)
        self.remove_requested.connect(state.remove_flag)
        self.status_requested.connect(state.set_flag_status)
        self.annotator_edited.connect(state.set_annotator)
        state.annotator_changed.connect(self.annotator.setText)
        self.annotator.setText(state.annotator)

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.set_targets(view.query.query_id, len(view.query.test_suite),
                         list(view.corpus_ids), view.snippet.corpus_id)

    def _on_state_flags_changed(self, view: FlagsView) -> None:
        self.set_flags(list(view.flags))
        if view.store_path is None:
            self.store_label.setText("no annotation store")
            self.store_label.setToolTip("")
            return
        where, home = str(view.store_path), str(Path.home())
        if where.startswith(home + "/"):
            where = "~" + where[len(home):]
        n = len(view.flagged)
        stale = sum(1 for f in view.flags if f.stale)
        # the file's name here, its whole path in the tooltip: a long path never wraps
        self.store_label.setText(f"{n} flagged {'query' if n == 1 else 'queries'} · "
                                 f"{view.store_path.name}"
                                 + (f" · {stale} changed since flagged" if stale else ""))
        self.store_label.setToolTip(f"Flags are kept in {where}")
