"""The diff of the selected candidate against its canonical: it opens on the change.

Side by side or unified, unchanged runs folded on request, ``n`` / ``p`` (View menu) step
through the changes. A new pair scrolls to its first change, so the edited line of a long
HumanEval canonical is in view without looking for it. Too narrow for two readable halves
(more than :data:`NARROW` of the lines would wrap), the view shows the unified diff and
says so.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetricsF, QTextCursor
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from execretrieval import Snippet

from . import diffing

if TYPE_CHECKING:
    from .state import CandidateView, InspectorState

__all__ = ["NARROW", "DiffView"]

NARROW = 0.2   # side by side wraps more than this share of the lines: show unified


class DiffView(QWidget):
    """The candidate against the canonical, marks on the edited characters."""

    change_shown = Signal(int, int)   # change number (0-based, -1: none), number of changes

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
        self.fold_box = QCheckBox("Fold unchanged")
        self.fold_box.setToolTip("Show only the changed lines and two lines around each")
        self.prev_button = QToolButton(text="▲")
        self.prev_button.setToolTip("Previous change (P)")
        self.next_button = QToolButton(text="▼")
        self.next_button.setToolTip("Next change (N)")
        self.change_label = QLabel()
        self.change_label.setObjectName("changeLabel")
        self.browser = QTextBrowser()
        self.browser.setObjectName("diffBrowser")
        self.browser.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        self.browser.setOpenLinks(False)

        modes = QHBoxLayout()
        modes.setSpacing(6)
        for w in (self.side_button, self.unified_button, self.fold_box):
            modes.addWidget(w)
        modes.addStretch(1)
        modes.addWidget(self.change_label)
        modes.addWidget(self.prev_button)
        modes.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addWidget(self.description)
        layout.addLayout(modes)
        layout.addWidget(self.browser, 1)

        self.canonical: Snippet | None = None
        self.candidate: Snippet | None = None
        self.marked: tuple[list[str], list[str]] = ([], [])
        self.changes = 0            # change blocks in the current pair
        self.change = -1            # the one scrolled to
        self.narrow = False         # shown unified because side by side would not fit
        self.wrap = self._wrap_width()
        self.browser.installEventFilter(self)
        self.side_button.toggled.connect(self._on_mode_toggled)
        self.fold_box.toggled.connect(self._on_fold_toggled)
        self.prev_button.clicked.connect(lambda: self.step_change(-1))
        self.next_button.clicked.connect(lambda: self.step_change(1))
        self._update_change_label()

    def _wrap_width(self) -> int:
        """Characters that fit in one half of the side-by-side table, scroll bar or not."""
        char = QFontMetricsF(QFont("DejaVu Sans Mono", 8)).horizontalAdvance("M") or 7.0
        scroll = self._scroll_extent()
        # two line-number columns (26 px), the 6 px gutter, document margins, cell padding
        usable = self.browser.width() - 2 * self.browser.frameWidth() - scroll - 2 * 26 - 6 - 18
        return max(16, int(usable / 2 / char))

    def _scroll_extent(self) -> int:
        """The vertical scroll bar's width, shown or not (the style's scroll bar extent:
        asked of the bar, so the QStyle class and its enums load only if needed)."""
        return self.browser.verticalScrollBar().sizeHint().width()

    def _unified_wrap(self) -> int:
        """Characters that fit in the unified table's code column."""
        char = QFontMetricsF(QFont("DejaVu Sans Mono", 9)).horizontalAdvance("M") or 7.0
        scroll = self._scroll_extent()
        usable = self.browser.width() - 2 * self.browser.frameWidth() - scroll - 26 - 12 - 18
        return max(16, int(usable / char))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.browser and event.type() == QEvent.Type.Resize:
            wrap = self._wrap_width()
            if wrap != self.wrap:   # both layouts wrap to the width: render again
                self.wrap = wrap
                if self.candidate is not None:
                    self._render(keep_change=True)
        return super().eventFilter(watched, event)

    # modes ----------------------------------------------------------------------------
    @property
    def unified(self) -> bool:
        """The user's choice (a narrow view may show unified while side by side is chosen)."""
        return self.unified_button.isChecked()

    def set_unified(self, unified: bool) -> None:
        (self.unified_button if unified else self.side_button).setChecked(True)

    @property
    def folded(self) -> bool:
        return self.fold_box.isChecked()

    def set_folded(self, folded: bool) -> None:
        self.fold_box.setChecked(folded)

    # content --------------------------------------------------------------------------
    def show_pair(self, canonical: Snippet | None, candidate: Snippet | None) -> None:
        self.canonical, self.candidate = canonical, candidate
        self._render()

    def clear(self) -> None:
        self.show_pair(None, None)

    def _describe(self, text: str) -> None:
        self.description.setText(text)

    def _render(self, keep_change: bool = False) -> None:
        cand, canon = self.candidate, self.canonical
        self.marked = ([], [])
        self.narrow = False
        keep = self.change if keep_change else 0
        self.changes, self.change = 0, -1
        NoWrap = QTextBrowser.LineWrapMode.NoWrap
        if cand is None:
            self._describe("")
            self.browser.setHtml("")
            self._update_change_label()
            return
        if canon is None or cand.corpus_id == canon.corpus_id:
            label = "the canonical" if canon is not None else cand.corpus_id
            self._describe(f"<b>{cand.corpus_id}</b> — {label}, shown as is "
                           f"(it passes the query's tests by construction)"
                           if canon is not None else f"<b>{cand.corpus_id}</b>")
            self._wrap_mode(NoWrap)
            self.browser.setHtml(diffing.render_plain(cand.code))
            self._update_change_label()
            return
        if cand.query_id != canon.query_id:
            # not a mutant of this canonical: a character diff would only be noise
            what = f"its bug: <i>{cand.bug_type}</i>" if cand.bug_type else "its canonical"
            source = html.escape(str(cand.extra.get("source", "")))
            self._describe(
                f"<b>{cand.corpus_id}</b> — background code from the pool ({source}), "
                "shown as is: real code of no query" if cand.role == "background" else
                f"<b>{cand.corpus_id}</b> — a snippet of another query ({cand.query_id}; "
                f"{what}), shown as is: it is not an edit of this query's canonical")
            self._wrap_mode(NoWrap)
            self.browser.setHtml(diffing.render_plain(cand.code))
            self._update_change_label()
            return
        lines = canon.code.splitlines() + cand.code.splitlines()
        wrapped = sum(len(line) > self.wrap for line in lines) / max(1, len(lines))
        unified = self.unified or wrapped > NARROW
        self.narrow = unified and not self.unified
        desc = (f"<b>{cand.corpus_id}</b> · <i>{cand.bug_type}</i> — "
                f"{html.escape(cand.bug_description or 'no description')}")
        key = ("<br><span style='color:#555'><span style='background-color:"
               f"{diffing.CANON_MARK}'>&nbsp;canonical {canon.corpus_id}&nbsp;</span> "
               f"<span style='background-color:{diffing.MUTANT_MARK}'>&nbsp;candidate "
               f"{cand.corpus_id}&nbsp;</span>"
               + (" · unified: too narrow for side by side" if self.narrow else "")
               + "</span>")
        self._describe(desc + key)
        self.marked = diffing.marked_fragments(canon.code, cand.code)
        self.changes = len(diffing.change_blocks(diffing.diff_rows(canon.code, cand.code)))
        # rows wrapped to the width by the renderer: nothing ever sticks out sideways
        self._wrap_mode(QTextBrowser.LineWrapMode.WidgetWidth)
        if unified:
            self.browser.setHtml(diffing.render_unified(canon.code, cand.code, self.folded,
                                                        self._unified_wrap()))
        else:   # rows wrapped to the half's width: both sides stay aligned line for line
            self.browser.setHtml(diffing.render_side_by_side(canon.code, cand.code, self.wrap,
                                                             self.folded))
        if self.changes:
            self.change = min(max(keep, 0), self.changes - 1)
            # the document is laid out once the event loop runs: scroll then
            QTimer.singleShot(0, self._scroll_to_change)
        self._update_change_label()

    def _wrap_mode(self, mode: QTextBrowser.LineWrapMode) -> None:
        """Set the browser's wrap mode only if it changes, and on an empty document: Qt
        lays out the document again on every change (2 ms for a diff), just before setHtml
        replaces it."""
        if self.browser.lineWrapMode() != mode:
            self.browser.clear()
            self.browser.setLineWrapMode(mode)

    # changes --------------------------------------------------------------------------
    def step_change(self, step: int) -> None:
        """Scroll to the next (``step`` > 0) or previous change, wrapping around."""
        if not self.changes:
            return
        self.change = (self.change + step) % self.changes
        self._scroll_to_change()
        self._update_change_label()

    def _scroll_to_change(self) -> None:
        """The current change a third of the way down the view (or the top of a short diff)."""
        if self.change < 0:
            return
        position = self._anchor_position(diffing.anchor(self.change))
        if position is None:
            return
        cursor = QTextCursor(self.browser.document())
        cursor.setPosition(position)
        bar = self.browser.verticalScrollBar()
        top = self.browser.cursorRect(cursor).top() + bar.value()   # in the document
        bar.setValue(max(0, top - self.browser.viewport().height() // 3))
        self.change_shown.emit(self.change, self.changes)

    def _anchor_position(self, name: str) -> int | None:
        """Where the anchor ``name`` starts in the document (None: not there)."""
        block = self.browser.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if name in fragment.charFormat().anchorNames():
                    return int(fragment.position())
                it += 1
            block = block.next()
        return None

    def _update_change_label(self) -> None:
        n = self.changes
        self.change_label.setText(f"change {self.change + 1} of {n}" if n > 1 else "")
        for button in (self.prev_button, self.next_button):   # one change: nothing to step
            button.setVisible(n > 1)

    # slots ----------------------------------------------------------------------------
    def _on_mode_toggled(self, _checked: bool) -> None:
        self._render(keep_change=True)

    def _on_fold_toggled(self, _checked: bool) -> None:
        self._render(keep_change=True)

    def bind(self, state: InspectorState) -> None:
        """Show the diff of the candidate ``state`` selects."""
        state.candidate_changed.connect(self._on_state_candidate_changed)

    def _on_state_candidate_changed(self, view: CandidateView) -> None:
        self.show_pair(view.canonical, view.snippet)
