"""Running ``execretrieval build-from-code`` as a subprocess, its progress read as it draws it.

The command draws its progress bar (``label [###---] done/total``, redrawn after ``\\r``)
only on a terminal, so :func:`run_command` gives the child a pseudo-terminal for its
stdout and stderr where the platform has one (a pipe elsewhere: then only the command's
closing ``label: done/total in 1.2s`` lines tell progress). Cancelling sends the child
SIGINT, which the command answers by stopping and leaving its output folder as it was
(exit 130); a child still alive after ``grace`` seconds is killed with its whole process
group (the sandbox workers it started). Plain Python, no Qt: the dialog runs it in a
:class:`~execretrieval_gui.workers.Task`.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["CommandResult", "build_from_code_argv", "build_from_code_available",
           "parse_progress", "run_command"]

_BAR = re.compile(r"(?P<label>.+?) \[[#-]*\] (?P<done>\d+)/(?P<total>\d+)\s*$")
_SUMMARY = re.compile(r"(?P<label>.+?): (?P<done>\d+)/(?P<total>\d+) in [\d.]+s\s*$")


@dataclass(frozen=True)
class CommandResult:
    code: int  # the exit status; 130 after a cancel the command honoured, -9 when killed
    lines: tuple[str, ...]  # every line it wrote (progress redraws left out)
    cancelled: bool


def build_from_code_available() -> bool:
    """Whether this installation's command line has ``build-from-code``."""
    from execretrieval.cli.entry import COMMANDS

    return "build-from-code" in COMMANDS


def build_from_code_argv(sources: Sequence[str], out: str, *, seed: int = 0,
                         limit: int | None = None, include_private: bool = False,
                         python: str | None = None) -> list[str]:
    """The command line the dialog runs."""
    argv = [python or sys.executable, "-m", "execretrieval.cli", "build-from-code",
            *sources, "--out", out, "--seed", str(seed)]
    if limit:
        argv += ["--limit", str(limit)]
    if include_private:
        argv.append("--include-private")
    return argv


def parse_progress(line: str) -> tuple[str, int, int] | None:
    """(label, done, total) of a progress bar or closing progress line, else None."""
    match = _BAR.fullmatch(line) or _SUMMARY.fullmatch(line)
    if match is None:
        return None
    return match["label"], int(match["done"]), int(match["total"])


def _open_terminal() -> tuple[int, int] | None:
    try:
        import pty

        return pty.openpty()
    except (ImportError, OSError):
        return None


def run_command(argv: Sequence[str], *, progress: Callable[[str, int, int], None],
                line: Callable[[str], None], should_stop: Callable[[], bool],
                grace: float = 20.0, env: dict[str, str] | None = None) -> CommandResult:
    """Run ``argv`` to its end, reporting progress and lines; stop it when asked."""
    terminal = _open_terminal()
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    if terminal is not None:
        reader, writer = terminal
        child = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=writer,
                                 stderr=writer, env=environment, start_new_session=True)
        os.close(writer)
    else:
        child = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, env=environment,
                                 start_new_session=True)
        assert child.stdout is not None
        reader = child.stdout.fileno()
    lines: list[str] = []
    pending = ""
    cancelled_at: float | None = None

    def take(text: str, *, redraw: bool) -> None:
        text = text.strip("\r\n")
        if not text.strip():
            return
        shown = parse_progress(text)
        if shown is not None:
            progress(*shown)
        if not redraw or shown is None:
            lines.append(text)
            line(text)

    try:
        while True:
            if cancelled_at is None and should_stop():
                cancelled_at = time.monotonic()
                _signal(child, signal.SIGINT)
            if cancelled_at is not None and time.monotonic() - cancelled_at > grace:
                _kill_group(child)
            ready, _, _ = select.select([reader], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(reader, 65536).decode("utf-8", "replace")
                except OSError:  # EIO: the terminal's last writer has gone
                    chunk = ""
                if not chunk:
                    break
                pending += chunk
                while True:
                    cut = min((i for i in (pending.find("\r"), pending.find("\n")) if i >= 0),
                              default=-1)
                    if cut < 0:
                        break
                    ending = pending[cut]
                    piece, pending = pending[:cut], pending[cut + 1:]
                    # a piece ended by \r is redrawn next; only the last draw is a line
                    take(piece, redraw=ending == "\r" and not pending.startswith("\n"))
            elif child.poll() is not None:  # gone, and nothing more to read
                break
        take(pending, redraw=False)
        code = child.wait()
    finally:
        if child.poll() is None:
            _kill_group(child)
            child.wait()
        if terminal is not None:
            os.close(reader)
    return CommandResult(code, tuple(lines), cancelled_at is not None)


def _signal(child: subprocess.Popen[bytes], number: int) -> None:
    try:
        os.kill(child.pid, number)
    except ProcessLookupError:
        pass


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        _signal(child, signal.SIGKILL)
