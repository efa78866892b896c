"""The tests panel: per-test outcomes, the top-k matrix, live Run/Cancel, scratch edits."""

from __future__ import annotations

import codeop
import re
import warnings
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .suite_models import MatrixModel, OutcomeModel
from .tabs import SteadyTabWidget
from .viewports import own_viewport

if TYPE_CHECKING:
    from .state import CandidateView, InspectorState, QueryView

__all__ = ["TestsPanel", "split_tests"]

_SPIN = "◐◓◑◒"


_CONTINUES = re.compile(r"\s|(elif|else|except|finally)\b|[)\]}]")


def _incomplete(source: str) -> bool:
    """Does ``source`` need more lines (an open bracket or string, a block header)?"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return codeop.compile_command(source + "\n\n", symbol="exec") is None
    except (SyntaxError, ValueError, OverflowError):
        return False   # broken, not unfinished: running it will say so


def split_tests(text: str, known: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The scratch editor's tests: one a line, except that an indented line, a closing
    bracket, an ``else``/``except``… or any line of an unfinished statement continues the
    test above — so a multi-line test (``with pytest.raises(…):`` and its body) stays one.
    Lines that spell out one of the ``known`` tests exactly are that test, whatever its
    shape (a whole script of statements, say)."""
    lines = text.splitlines()
    whole = sorted({tuple(t.splitlines()) for t in known if "\n" in t}, key=len, reverse=True)
    tests: list[str] = []
    fresh = False   # the last test is a known one, taken whole: nothing continues it
    i = 0
    while i < len(lines):
        match = next((w for w in whole if tuple(lines[i:i + len(w)]) == w), None)
        line = lines[i]
        if match is not None:
            tests.append("\n".join(match))
            fresh, i = True, i + len(match)
            continue
        if tests and not fresh and (_incomplete(tests[-1])
                                    or (line.strip() and _CONTINUES.match(line))):
            tests[-1] += "\n" + line
        elif line.strip():
            tests.append(line)
            fresh = False
        i += 1
    return tuple(t.rstrip() for t in tests)


def _mono() -> QFont:
    font = QFont("DejaVu Sans Mono")
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSize(9)
    return font


class TestsPanel(QWidget):
    """Signals ask the window to run things; the panel itself never runs anything."""

    run_requested = Signal()                 # the selected candidate, live
    run_all_requested = Signal()             # every top-k candidate, live
    cancel_requested = Signal()
    scratch_requested = Signal(str, object)  # code, tuple of tests
    matrix_row_chosen = Signal(int)          # a row of the top-k matrix = a candidate's row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outcomes = OutcomeModel(self)
        self.matrix = MatrixModel(self)

        self.heading = QLabel("Tests")
        self.heading.setWordWrap(True)
        self.heading.setObjectName("testsHeading")
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Re-execute the selected candidate's tests now (F5)")
        self.run_all_button = QPushButton("Run top-k")
        self.run_all_button.setToolTip("Re-execute every shown candidate (Shift+F5)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.spinner = QLabel("")
        self.spinner.setObjectName("spinner")
        self.spinner.setMinimumWidth(40)

        self.outcome_table = QTableView()
        own_viewport(self.outcome_table)   # its events are filtered (see .viewports)
        self.outcome_table.setObjectName("outcomeTable")
        self.outcome_table.setModel(self.outcomes)
        self.outcome_table.verticalHeader().hide()
        self.outcome_table.verticalHeader().setDefaultSectionSize(22)
        self.outcome_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.outcome_table.setToolTip("Double-click a test to flag it")
        # read without scrolling sideways at any width: number and outcome first, then the
        # test (with what went wrong under it) wrapped in the rest; the detail column's
        # first line is already in the test cell, the whole detail below and in tooltips
        self.outcome_table.setWordWrap(True)
        self.outcome_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.outcome_table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        h = self.outcome_table.horizontalHeader()
        h.setMinimumSectionSize(20)
        h.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        h.setStretchLastSection(False)
        h.moveSection(OutcomeModel.OUTCOME, 1)   # visual order: #, Outcome, (Scratch,) Test
        self.outcome_table.setColumnHidden(OutcomeModel.DETAIL, True)
        self.outcome_table.viewport().installEventFilter(self)

        self.detail = QLabel()
        self.detail.setObjectName("testDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # what the selected test printed, on demand (the View menu's Ctrl+Shift+O too)
        self.output_button = QPushButton("Output")
        self.output_button.setObjectName("outputToggle")
        self.output_button.setCheckable(True)
        self.output_button.setToolTip("Show what the selected test printed (Ctrl+Shift+O)")
        self.output_view = QPlainTextEdit()
        self.output_view.setObjectName("testOutput")
        self.output_view.setReadOnly(True)
        self.output_view.setFont(_mono())
        self.output_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.output_view.setVisible(False)
        self.outcome_split = QSplitter(Qt.Orientation.Vertical)
        self.outcome_split.addWidget(self.outcome_table)
        self.outcome_split.addWidget(self.output_view)
        self.outcome_split.setStretchFactor(0, 3)
        self.outcome_split.setStretchFactor(1, 2)
        self.outcome_split.setChildrenCollapsible(False)
        detail_row = QHBoxLayout()
        detail_row.addWidget(self.detail, 1)
        detail_row.addWidget(self.output_button, 0, Qt.AlignmentFlag.AlignTop)
        outcome_page = QWidget()
        op = QVBoxLayout(outcome_page)
        op.setContentsMargins(0, 0, 0, 0)
        op.setSpacing(2)
        op.addWidget(self.outcome_split, 1)
        op.addLayout(detail_row)

        self.matrix_table = QTableView()
        self.matrix_table.setObjectName("matrixTable")
        self.matrix_table.setModel(self.matrix)
        # its columns fit their contents from the first time its tab is shown: a header
        # that fits them measures every cell at each reset that changes the columns, shown
        # or not (at start-up the first query's 8x10 cells, before the window is usable)
        self.matrix_table.horizontalHeader().setMinimumSectionSize(26)
        self.matrix_table.verticalHeader().setDefaultSectionSize(22)
        self.matrix_table.setToolTip("Click a row to show that candidate")

        self.scratch_code = QPlainTextEdit()
        self.scratch_code.setFont(_mono())
        self.scratch_code.setPlaceholderText("The candidate's code — edit freely")
        self.scratch_tests = QPlainTextEdit()
        self.scratch_tests.setFont(_mono())
        self.scratch_tests.setPlaceholderText("One test a line (indented lines continue it)")
        self.scratch_run = QPushButton("Run scratch")
        self.scratch_run.setToolTip("Run the edited code against the edited tests and compare "
                                    "with the original outcomes. Nothing is saved.")
        self.scratch_reset = QPushButton("Reset")
        scratch = QWidget()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.scratch_code)
        split.addWidget(self.scratch_tests)
        split.setSizes([200, 120])
        buttons = QHBoxLayout()
        note = QLabel("Never written to the benchmark.")
        note.setWordWrap(True)
        buttons.addWidget(note, 1)
        buttons.addWidget(self.scratch_reset)
        buttons.addWidget(self.scratch_run)
        sl = QVBoxLayout(scratch)
        sl.setContentsMargins(2, 2, 2, 2)
        sl.addWidget(split, 1)
        sl.addLayout(buttons)

        self.tabs = SteadyTabWidget()
        self.tabs.addTab(outcome_page, "Outcomes")
        self.tabs.addTab(self.matrix_table, "Top-k × tests")
        self.tabs.addTab(scratch, "Scratch")
        self._matrix_fits = False
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)

        bar = QHBoxLayout()
        bar.addWidget(self.spinner, 1)
        bar.addWidget(self.run_button)
        bar.addWidget(self.run_all_button)
        bar.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addWidget(self.heading)
        layout.addLayout(bar)
        layout.addWidget(self.tabs, 1)

        self._spin_timer = QTimer(self)
        self._spin_timer.setInterval(120)
        self._spin_step = 0
        self._spin_text = ""
        self._spin_timer.timeout.connect(self._on_spin_timer_timeout)
        self._original_code = ""
        self._original_tests: tuple[str, ...] = ()
        self._original_result: object = None

        self.outcome_table.selectionModel().currentRowChanged.connect(
            self._on_outcome_current_changed)
        self.outcomes.modelReset.connect(self._show_detail)
        self.outcomes.modelReset.connect(self._on_outcomes_model_reset)
        self.matrix_table.selectionModel().currentRowChanged.connect(
            self._on_matrix_current_changed)
        self.matrix_table.verticalHeader().sectionClicked.connect(self.matrix_row_chosen)
        self.run_button.clicked.connect(self.run_requested)
        self.run_all_button.clicked.connect(self.run_all_requested)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.scratch_run.clicked.connect(self._on_scratch_run_clicked)
        self.scratch_reset.clicked.connect(self._on_scratch_reset_clicked)
        self.output_button.toggled.connect(self._on_output_button_toggled)
        self._detail_row = -1

    # content --------------------------------------------------------------------------
    def show_candidate(self, label: str, code: str, tests: tuple[str, ...], result: object) -> None:
        """The selected candidate's outcomes; the scratch editors start from it."""
        self.heading.setText(label)
        self._original_result = result
        self.outcomes.set_tests(tests, result)
        if code != self._original_code or tests != self._original_tests:
            self._original_code, self._original_tests = code, tests
            self._on_scratch_reset_clicked()

    def show_result(self, result: object) -> None:
        """A new result for the selected candidate (filled in, or a live run)."""
        self._original_result = result
        self.outcomes.set_tests(self._original_tests, result, None)

    def show_scratch_result(self, result: object, tests: tuple[str, ...]) -> None:
        """The scratch run beside the original outcome of each test (matched by its text;
        an edited or new test has no original)."""
        original = self._original_result
        if tests == self._original_tests:
            self.outcomes.set_tests(tests, original, result)
        else:
            by_text = {o.test: o for o in getattr(original, "outcomes", ()) or ()}
            aligned = SimpleNamespace(outcomes=[by_text.get(t) for t in tests])
            self.outcomes.set_tests(tests, aligned, result)
        self.tabs.setCurrentIndex(0)

    def set_running(self, running: bool, text: str = "running") -> None:
        self.cancel_button.setEnabled(running)
        self.run_button.setEnabled(not running)
        self.run_all_button.setEnabled(not running)
        self.scratch_run.setEnabled(not running)
        self._spin_text = text
        if running:
            self._spin_timer.start()
            self._on_spin_timer_timeout()
        else:
            self._spin_timer.stop()
            self.spinner.setText("")

    def set_progress_text(self, text: str) -> None:
        self._spin_text = text

    def _show_detail(self, row: int = -1) -> None:
        """The selected test's detail, else the first test that did not pass — of the
        scratch run while one is compared (the original's detail is in the tooltips)."""
        scratch = self.outcomes.compare is not None
        result = self.outcomes.compare if scratch else self.outcomes.result
        outcomes = list(getattr(result, "outcomes", ()) or ())
        if not (0 <= row < len(outcomes)):
            row = next((i for i, o in enumerate(outcomes)
                        if o is not None and o.status != "pass"), -1)
        self._detail_row = row
        self._show_output()
        if row < 0 or outcomes[row] is None:
            known = [o for o in outcomes if o is not None]
            passes = "The scratch run passes every test." if scratch else "All tests pass."
            self.detail.setText(passes if known and row < 0 else "")
            return
        out = outcomes[row]
        detail = (out.detail or "").strip().splitlines()
        self.detail.setText(f"{'scratch run: ' if scratch else ''}t{row + 1} {out.status}: "
                            f"{detail[-1] if detail else ''}"[:300])
        self.detail.setToolTip(out.detail or "")

    def set_output_shown(self, shown: bool) -> None:
        """Show or hide the pane with what the selected test printed."""
        self.output_button.setChecked(shown)

    def _show_output(self) -> None:
        """The output pane: what the test of the detail line printed (the selected test,
        else the first that did not pass), under what loading the code printed."""
        if not self.output_view.isVisible() and not self.output_button.isChecked():
            return
        row = self._detail_row
        printed = self.outcomes.printed(row) if row >= 0 else None
        if printed is None:
            self.output_view.setPlainText("")
            self.output_view.setPlaceholderText(
                "Select a test that has run to see what it printed." if row < 0 or
                self.outcomes.result is None else "This test has not run yet.")
            return
        own, setup = printed
        scratch = "scratch run, " if self.outcomes.compare is not None else ""
        parts = []
        if setup:
            parts.append(f"── loading the code printed ──\n{setup.rstrip()}")
        if own:
            parts.append(f"── {scratch}test {row + 1} printed ──\n{own.rstrip()}")
        elif setup:
            parts.append(f"── {scratch}test {row + 1}: this test printed nothing ──")
        self.output_view.setPlaceholderText(f"Test {row + 1}: this test printed nothing.")
        self.output_view.setPlainText("\n\n".join(parts))

    def current_test_index(self) -> int:
        """The row of the selected test in the outcomes table (-1: none)."""
        index = self.outcome_table.currentIndex()
        return index.row() if index.isValid() else -1

    # the state ------------------------------------------------------------------------
    def bind(self, state: InspectorState) -> None:
        """Render the selected candidate's outcomes and runs; ask ``state`` to run."""
        state.query_changed.connect(self._on_state_query_changed)
        state.result_changed.connect(self._on_state_result_changed)
        state.candidate_changed.connect(self._on_state_candidate_changed)
        state.selected_result_changed.connect(self.show_result)
        state.running_changed.connect(
            lambda running, text: self.set_running(running, text or "running"))
        state.run_progress.connect(self.set_progress_text)
        state.scratch_finished.connect(self.show_scratch_result)
        self.run_requested.connect(lambda: state.run_selected())
        self.run_all_requested.connect(lambda: state.run_selected(everything=True))
        self.cancel_requested.connect(state.cancel_run)
        self.scratch_requested.connect(state.run_scratch)
        self.matrix_row_chosen.connect(state.select_row)

    def _on_state_query_changed(self, view: QueryView) -> None:
        self.matrix.set_rows([f"{r.rank} {r.snippet.corpus_id}" for r in view.rows],
                             [r.outcome for r in view.rows], len(view.query.test_suite))

    def _on_state_result_changed(self, _corpus_id: str, row: int, result: Any) -> None:
        self.matrix.set_result(row, result)

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        if self.outcomes.set_visible(view.visible):
            QTimer.singleShot(0, self._fit_outcomes)
        self.show_candidate(view.label, view.snippet.code, view.query.test_suite, view.result)

    # slots ----------------------------------------------------------------------------
    def _on_outcome_current_changed(self, current: object, _previous: object) -> None:
        self._show_detail(current.row() if current.isValid() else -1)  # type: ignore[attr-defined]

    def _on_output_button_toggled(self, shown: bool) -> None:
        self.output_view.setVisible(shown)
        self.output_button.setText("Hide output" if shown else "Output")
        if shown:
            self._show_output()

    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.matrix_table and not self._matrix_fits:
            self._matrix_fits = True
            self.matrix_table.horizontalHeader().setSectionResizeMode(
                QHeaderView.ResizeMode.ResizeToContents)

    def _on_matrix_current_changed(self, current: object, _previous: object) -> None:
        if current.isValid():  # type: ignore[attr-defined]
            self.matrix_row_chosen.emit(current.row())  # type: ignore[attr-defined]

    def _on_outcomes_model_reset(self) -> None:
        """Comparing with a scratch run: its column goes beside the original outcome."""
        header = self.outcome_table.horizontalHeader()
        # a reset that changes the column count forgets hidden and moved sections
        self.outcome_table.setColumnHidden(OutcomeModel.DETAIL, True)
        header.moveSection(header.visualIndex(OutcomeModel.OUTCOME), 1)
        if self.outcomes.compare is not None:
            header.moveSection(header.visualIndex(OutcomeModel.SCRATCH), 2)
        self._fit_outcomes()

    def _fit_outcomes(self) -> None:
        """Number and outcome(s) as wide as their text, the test the rest, rows as tall as
        their wrapped text."""
        table = self.outcome_table
        fm = table.fontMetrics()
        mark = "V " if self.outcomes.visible is not None else ""   # the split's marks
        number = fm.horizontalAdvance(mark + str(max(1, len(self.outcomes.tests)))) + 12
        outcome = fm.horizontalAdvance("✗ timeout") + 14
        table.setColumnWidth(OutcomeModel.NUMBER, number)
        table.setColumnWidth(OutcomeModel.OUTCOME, outcome)
        used = number + outcome
        if self.outcomes.compare is not None:
            table.setColumnWidth(OutcomeModel.SCRATCH, outcome)
            used += outcome
        width = max(80, table.viewport().width() - used)
        table.setColumnWidth(OutcomeModel.TEST, width)
        model = self.outcomes
        texts = [str(model.index(r, OutcomeModel.TEST).data() or "")
                 for r in range(model.rowCount())]
        mono = table.fontMetrics() if not texts else QFontMetrics(
            model.index(0, OutcomeModel.TEST).data(Qt.ItemDataRole.FontRole) or table.font())
        size = table.verticalHeader().defaultSectionSize()
        for r, text in enumerate(texts):   # only a row that wraps is measured
            if "\n" in text or mono.horizontalAdvance(text) > width - 10:
                table.resizeRowToContents(r)
            elif table.rowHeight(r) != size:
                table.setRowHeight(r, size)

    def eventFilter(self, watched: object, event: QEvent) -> bool:  # Qt override
        if watched is self.outcome_table.viewport() and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self._fit_outcomes)
        return False

    def _on_spin_timer_timeout(self) -> None:
        self._spin_step = (self._spin_step + 1) % len(_SPIN)
        self.spinner.setText(f"{_SPIN[self._spin_step]} {self._spin_text}")

    def _on_scratch_run_clicked(self) -> None:
        tests = split_tests(self.scratch_tests.toPlainText(), self._original_tests)
        self.scratch_requested.emit(self.scratch_code.toPlainText(), tests)

    def _on_scratch_reset_clicked(self) -> None:
        self.scratch_code.setPlainText(self._original_code)
        self.scratch_tests.setPlainText("\n".join(self._original_tests))
        if self.outcomes.compare is not None or self.outcomes.tests != self._original_tests:
            self.outcomes.set_tests(self._original_tests, self._original_result, None)
