"""Hooks every long-running engine function accepts; the engine knows nothing of threads.

``progress(done, total)`` is called as work advances; ``should_stop()`` returning True makes
the function raise :class:`~execretrieval.errors.CancelledError` at its next check.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "ShouldStop"]

Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]
