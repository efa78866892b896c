"""Python's cycle collector, held back while the window starts.

A start allocates some 75,000 objects that live as long as the window — this package's
modules and the engine's, the Python enums PySide6 builds for each Qt class as it is first
touched, the widgets' wrappers — and frees almost none of them. With the default threshold
the collector looks at each of them about twice (a hundred young-generation passes before
the first query is usable), some 13 of the start's 250 ms of CPU, and finds next to
nothing. :func:`hold` (when this package is imported) raises the young generation's
threshold so far that no pass runs during the start; :func:`release` (the first query
usable) moves everything allocated so far into the permanent generation, where no pass
ever looks again (``gc.freeze``), and sets the thresholds back.

The hold only defers: a process that never shows a query still collects, once every
:data:`START_THRESHOLD` allocations. Frozen objects are still freed by reference counting
(the first benchmark, when another one is opened); only a reference cycle among them is
never collected — what the start leaves as cyclic garbage (a few hundred objects), and a
cycle the start built that is dropped later.
"""

from __future__ import annotations

import gc

__all__ = ["START_THRESHOLD", "hold", "release"]

START_THRESHOLD = 250_000   # young-generation allocations between passes while held

_saved: tuple[int, int, int] | None = None


def hold() -> None:
    """No collection pass until :func:`release`, or until :data:`START_THRESHOLD` more
    objects are allocated (a second call changes nothing)."""
    global _saved
    if _saved is None:
        _saved = gc.get_threshold()
        gc.set_threshold(max(START_THRESHOLD, _saved[0]), *_saved[1:])


def release() -> None:
    """Freeze what the start allocated and collect as before (nothing if not held)."""
    global _saved
    if _saved is not None:
        saved, _saved = _saved, None
        gc.freeze()
        gc.set_threshold(*saved)
