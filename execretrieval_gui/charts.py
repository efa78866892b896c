"""A small painted bar chart (no QtCharts dependency): labelled horizontal bars in [0, 1]."""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

__all__ = ["BarChart"]

SERIES_COLORS = (QColor("#3b76b0"), QColor("#e08a2c"))


class BarChart(QWidget):
    """Horizontal bars, one group per label and one bar per series (model)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.labels: list[str] = []
        self.series: list[tuple[str, list[float]]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_data(self, labels: list[str], series: list[tuple[str, list[float]]]) -> None:
        self.labels = list(labels)
        self.series = [(name, list(values)) for name, values in series]
        self.updateGeometry()
        self.update()

    def _bar_h(self) -> int:
        return 14 if len(self.series) > 1 else 16

    def sizeHint(self) -> QSize:  # Qt override
        rows = max(1, len(self.labels))
        group = self._bar_h() * max(1, len(self.series)) + 6
        return QSize(320, 28 + rows * group + (16 if len(self.series) > 1 else 0))

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(160, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#ffffff"))
        fm = p.fontMetrics()
        p.setPen(QColor("#222222"))
        font = p.font()
        font.setBold(True)
        p.setFont(font)
        p.drawText(6, fm.ascent() + 4, p.fontMetrics().elidedText(
            self.title, Qt.TextElideMode.ElideRight, self.width() - 12))
        font.setBold(False)
        p.setFont(font)
        if not self.labels:
            p.setPen(QColor("#888888"))
            p.drawText(6, 2 * fm.height() + 8, "no data yet")
            return
        label_w = min(max(fm.horizontalAdvance(s) for s in self.labels) + 10,
                      int(self.width() * 0.45))
        left, right = 6 + label_w, self.width() - 48
        width = max(10, right - left)
        bar_h = self._bar_h()
        group = bar_h * max(1, len(self.series)) + 6
        y = 24
        for i, label in enumerate(self.labels):
            p.setPen(QColor("#333333"))
            text = fm.elidedText(label, Qt.TextElideMode.ElideRight, label_w - 8)
            p.drawText(QRectF(4, y, label_w - 6, group - 6),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
            for s, (_name, values) in enumerate(self.series):
                value = values[i] if i < len(values) else float("nan")
                top = y + s * bar_h
                p.fillRect(QRectF(left, top + 1, width, bar_h - 2), QColor("#f0f0f0"))
                if not math.isnan(value):
                    w = max(0.0, min(1.0, value)) * width
                    p.fillRect(QRectF(left, top + 1, w, bar_h - 2),
                               SERIES_COLORS[s % len(SERIES_COLORS)])
                    p.setPen(QColor("#222222"))
                    p.drawText(QRectF(left + width + 4, top, 44, bar_h),
                               int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                               f"{value:.2f}")
            y += group
        if len(self.series) > 1:
            x = left
            for s, (name, _values) in enumerate(self.series):
                p.fillRect(QRectF(x, y + 3, 10, 10), SERIES_COLORS[s % len(SERIES_COLORS)])
                p.setPen(QColor("#333333"))
                p.drawText(int(x + 14), int(y + 3 + fm.ascent() - 1), name)
                x += 24 + fm.horizontalAdvance(name)
