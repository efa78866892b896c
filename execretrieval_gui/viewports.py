"""Scroll areas whose viewport Python made, so the first look at it costs nothing.

A scroll area's own viewport is a ``QWidget`` made by Qt. The first time Python is handed a
C++-made ``QWidget*`` (``view.viewport()``), PySide6 looks for its most derived Python class
among every subclass of ``QWidget`` and so loads all of ``QtWidgets``' lazily loaded classes
— 67 of them, with some 190 Python enums, ~15-20 ms — in the middle of building the window.
A viewport made here already has its Python wrapper, so nothing is looked up; the classes
load when something else asks for them, after the first screen.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractScrollArea, QWidget

__all__ = ["own_viewport"]


def own_viewport(area: QAbstractScrollArea) -> QWidget:
    """Give ``area`` a viewport made from Python (before anything is put into it) and return
    it; ``area.viewport()`` returns the same object from then on."""
    viewport = QWidget(area)   # owned by its parent, as Qt's own viewport is
    viewport.setObjectName("qt_scrollarea_viewport")
    area.setViewport(viewport)
    return viewport
