"""Hooks every long-running engine function accepts; the engine knows nothing of threads.

``progress(done, total)`` is called as work advances; ``should_stop()`` returning True makes
the function raise :class:`~execretrieval.errors.CancelledError` at its next check.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Progress", "ShouldStop", "scaled"]

Progress = Callable[[int, int], None]
ShouldStop = Callable[[], bool]


def scaled(progress: Progress, base: int, span: int, total: int) -> Progress:
    """A batch's ``progress(done, n)`` as ``base + span * done // n`` of ``total``: a share of
    the batch counts as that share of the ``span`` units it stands for (``span`` when the
    batch is empty)."""
    def step(done: int, n: int) -> None:
        progress(base + (span * done // n if n else span), total)
    return step
