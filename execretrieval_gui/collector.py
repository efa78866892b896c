"""Python's cycle collector, held back while the window starts.

A start allocates some 85,000 objects that live as long as the window — this package's
modules and the engine's, the Python enums PySide6 builds for each Qt class as it is first
touched, the widgets' wrappers — and frees almost none of them. With the default thresholds
the collector looks at each of them about twice (some eighty young-generation passes before
the first query is usable, some 8 of the start's 245 ms of CPU) and finds next to nothing.
:func:`hold` (when this package is imported) raises the young generation's threshold so far
that no pass runs during the start; :func:`release` (the first query usable) moves what the
start allocated straight into the oldest generation, unexamined (``gc.freeze`` then
``gc.unfreeze``), and sets the thresholds back. There the objects wait for the next full
collection, as long-lived objects always do: a cycle among them (the first ranking, once
another model replaces it) is still collected then.

The hold only defers: a process that never shows a query still collects, once every
:data:`START_THRESHOLD` allocations.
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
    """Collect as before, what the start allocated now in the oldest generation (nothing
    if not held)."""
    global _saved
    if _saved is not None:
        saved, _saved = _saved, None
        gc.freeze()     # every generation into the permanent one, the young count reset,
        gc.unfreeze()   # and all of it back into the oldest: promoted without a pass
        gc.set_threshold(*saved)
