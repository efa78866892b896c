"""Column widths from the content and the room there is: no column wider than its text, the
spare width to the column that can use it, and when space is short the columns that read
well shortened (elided in the middle, full text in the tooltip) down to a floor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QTableView

from .viewports import own_viewport

__all__ = ["ColumnFitter", "share", "text_width"]

_PAD = 14   # cell padding and the sort indicator's breathing room


def text_width(view: QTableView, texts: Iterable[str]) -> int:
    """The widest of ``texts`` in ``view``'s font, with cell padding."""
    metrics = QFontMetrics(view.font())
    return max((metrics.horizontalAdvance(t) for t in texts), default=0) + _PAD


class ColumnFitter:
    """Keeps ``view``'s columns fitted: call :meth:`fit` after the rows change, and
    :meth:`viewport_event` from the owner's event filter on the view's viewport (the owner —
    the panel holding the table — filters, not this helper: a filter that dies after the
    viewport it watches crashes PySide at exit).

    ``shrink``: columns that give up width when there is too little, in that order, each down
    to its floor in ``minimum`` — or a ``(column, floor)`` step, so a column can give a
    little early and more later. ``whole``: columns that are dropped rather than elided
    (a number cut in the middle reads as another number). ``grow``: the column that takes
    any spare width (None: the
    spare stays blank on the right). ``content``: widths known better than Qt's sample of
    the visible rows (the longest function name of the whole benchmark, say).
    """

    def __init__(self, view: QTableView, shrink: Iterable[int | tuple[int, int]] = (),
                 grow: int | None = None, minimum: Mapping[int, int] | None = None,
                 maximum: Mapping[int, int] | None = None, whole: Iterable[int] = ()) -> None:
        self.view = view
        own_viewport(view)   # the owner filters its events: see :mod:`.viewports`
        self.minimum = dict(minimum or {})
        self.steps = [(c, self.minimum.get(c, 40)) if isinstance(c, int) else c
                      for c in shrink]
        self.whole = set(whole)
        self.grow = grow
        self.maximum = dict(maximum or {})
        self.content: dict[int, int] = {}
        self._width = -1
        self._dropped: set[int] = set()   # columns this fitter hid for want of room
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._timer = QTimer(view)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        self._asked: dict[int, int] = {}   # what each column asked for at the last fit
        self._changed: set[int] = set()     # columns whose texts changed since
        self._check_timer = QTimer(view)
        self._check_timer.setSingleShot(True)
        self._check_timer.setInterval(0)
        self._check_timer.timeout.connect(self._check)

    def schedule(self) -> None:
        """Fit once the event loop runs (several changes in a row fit once)."""
        self._timer.start()

    def texts_changed(self, column: int) -> None:
        """``column``'s texts changed (a badge's "running…" became "FAIL 7/8"): once the event
        loop runs, fit again if the column now asks for another width than at the last fit
        (most changes leave it as it was, and a fit is not free on every query switch)."""
        self._changed.add(column)
        self._check_timer.start()

    def _check(self) -> None:
        changed, self._changed = self._changed, set()
        if self._timer.isActive():
            return   # a fit is coming anyway
        for column in changed:
            asked = self._asked.get(column)
            if asked is not None and not self.view.isColumnHidden(column) \
                    and self.wanted(column) != asked:
                self.fit()
                return

    def viewport_event(self, watched: QObject, event: QEvent) -> None:
        """Refit soon when ``event`` is a width change of the view's viewport."""
        if (watched is self.view.viewport() and event.type() == QEvent.Type.Resize
                and self.view.viewport().width() != self._width):
            self._timer.start()

    def wanted(self, column: int) -> int:
        """The width ``column``'s content and header ask for (capped by ``maximum``)."""
        view = self.view
        header = view.horizontalHeader()
        want = self.content.get(column)
        if want is None:   # the widest text of the column (cheaper than Qt's size hints)
            model = view.model()
            texts = (model.data(model.index(r, column)) for r in range(model.rowCount()))
            want = text_width(view, (str(t) for t in texts if t is not None))
        title = view.model().headerData(column, Qt.Orientation.Horizontal,
                                        Qt.ItemDataRole.DisplayRole)
        want = max(want, header.fontMetrics().horizontalAdvance(str(title or "")) + _PAD)
        return min(want, self.maximum.get(column, want))

    def set_hidden(self, column: int, hidden: bool) -> None:
        """Hide or show ``column`` for the owner's reasons: a column the owner hides stays
        hidden (fitting shows again only the columns it dropped itself)."""
        self._dropped.discard(column)
        self.view.setColumnHidden(column, hidden)

    def needs(self) -> tuple[int, int]:
        """The view's outer width that shows every column whole, and that width less the
        columns that step aside whole (``whole``), frame and vertical scroll bar included."""
        view = self.view
        model = view.model()
        if model is None:
            return 0, 0
        cols = [c for c in range(model.columnCount())
                if not view.isColumnHidden(c) or c in self._dropped]
        widths = {c: self.wanted(c) for c in cols}
        extra = 2 * view.frameWidth()
        bar = view.verticalScrollBar()
        if bar.isVisibleTo(view):
            extra += bar.sizeHint().width()
        full = sum(widths.values()) + extra
        return full, full - sum(w for c, w in widths.items() if c in self.whole)

    def fit(self) -> None:
        view = self.view
        model = view.model()
        if model is None:
            return
        for c in self._dropped:
            view.setColumnHidden(c, False)
        self._dropped.clear()
        avail = view.viewport().width()
        self._width = avail
        cols = [c for c in range(model.columnCount()) if not view.isColumnHidden(c)]
        if not cols or avail <= 0:
            return
        widths = {c: self.wanted(c) for c in cols}
        self._asked = dict(widths)
        excess = sum(widths.values()) - avail
        # the shrink steps in order, each column down to the step's floor (a whole column
        # all the way); still too wide, the elidable ones down to the narrowest a header
        # allows (a scroll bar only when even that does not fit)
        hard = max(24, view.horizontalHeader().minimumSectionSize())
        last = [(c, min(hard, floor)) for c, floor in self.steps if c not in self.whole]
        for c, floor in self.steps + last:
            if excess <= 0:
                break
            if c not in widths:
                continue
            give = widths[c] if c in self.whole else \
                min(excess, widths[c] - min(widths[c], floor))
            widths[c] -= give
            excess -= give
        if excess < 0 and self.grow in widths:
            widths[self.grow] -= excess   # the spare width
        header = view.horizontalHeader()
        for c, w in widths.items():
            if w < max(24, header.minimumSectionSize()):   # too narrow to read: drop it
                view.setColumnHidden(c, True)
                self._dropped.add(c)
            elif header.sectionSize(c) != w:
                header.resizeSection(c, w)


def share(avail: int, needs: Sequence[tuple[int, int]]) -> list[int]:
    """Widths of views side by side in ``avail`` pixels, from each view's (full, essential)
    width (:meth:`ColumnFitter.needs`).

    All fit whole: each its full width and an equal part of the rest. Short of room: each
    its essential width, then, in order, the full width to each view whose optional
    columns then fit, the rest shared equally. Shorter still: in proportion to the
    essential widths (the fitters elide from there).
    """
    if not needs:
        return []
    n = len(needs)
    full = [f for f, _ in needs]
    if sum(full) <= avail:
        spare = avail - sum(full)
        return [f + spare // n + (i < spare % n) for i, f in enumerate(full)]
    essential = [min(e, f) for f, e in needs]
    total = sum(essential)
    if total <= avail:
        widths = list(essential)
        spare = avail - total
        for i, (f, e) in enumerate(zip(full, essential, strict=True)):
            if f - e <= spare:
                widths[i] = f
                spare -= f - e
        return [w + spare // n + (i < spare % n) for i, w in enumerate(widths)]
    widths = [avail * e // max(1, total) for e in essential]
    widths[-1] += avail - sum(widths)
    return widths
