"""Progress reporting for the command line (the engine itself only calls hooks)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["TerminalProgress"]


class TerminalProgress:
    """A ``progress(done, total)`` hook that draws a throttled one-line bar on stderr.

    Silent when stderr is not a terminal, except for a final summary line, so logs and
    captured output stay clean.
    """

    def __init__(self, label: str, stream: TextIO | None = None, interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._last = 0.0
        self._started = time.monotonic()
        self._shown = False
        self._done = self._total = 0

    def __call__(self, done: int, total: int) -> None:
        self._done, self._total = done, total
        now = time.monotonic()
        if not self._tty() or (now - self._last < self.interval and done < total):
            return
        self._last = now
        width = 30
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        self.stream.flush()
        self._shown = True

    def _tty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._shown:
            self.stream.write("\n")
        if self._total:
            elapsed = time.monotonic() - self._started
            self.stream.write(f"{self.label}: {self._done}/{self._total} in {elapsed:.1f}s\n")
        self.stream.flush()
