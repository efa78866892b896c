"""File I/O: crash-safe writes (a reader sees the old file or the new one, never half of
one) and UTF-8 reads whose errors name the file and line."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import InputFormatError, _LocatedError

__all__ = ["atomic_directory", "atomic_write_bytes", "atomic_write_text", "read_input_text",
           "read_utf8", "utf8_error_line"]


def utf8_error_line(exc: UnicodeDecodeError) -> int:
    """The 1-based line of the first byte that is not UTF-8, for an error raised while
    decoding a whole file (``Path.read_text``, ``bytes.decode``)."""
    return bytes(exc.object).count(b"\n", 0, exc.start) + 1


def read_utf8(path: Path, error: type[_LocatedError] = InputFormatError) -> str:
    """The text of ``path``; a byte that is not UTF-8 raises ``error`` (a located project
    error: ``file=``, ``line=``) naming the file and the line it sits on. OSErrors pass
    through for the caller to word."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"not valid UTF-8 ({exc.reason})", file=path,
                    line=utf8_error_line(exc)) from exc


def read_input_text(path: Path) -> str:
    """:func:`read_utf8` for an input file the user named: a missing or unreadable file is
    an InputFormatError naming it too, not an OSError."""
    try:
        return read_utf8(path)
    except FileNotFoundError as exc:
        raise InputFormatError("file not found", file=path) from exc
    except OSError as exc:
        raise InputFormatError(f"cannot read ({exc.strerror})", file=path) from exc


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """Re-raise an OSError about a temporary or parent file as one about ``path`` itself,
    so the user reads the name they gave, not '.name.x1y2.tmp'."""
    try:
        yield
    except OSError as exc:
        if exc.filename == str(path) or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a synced temporary file and an atomic rename.

    An OSError names ``path`` (not the temporary file)."""
    path = Path(path)
    with _naming(path):
        _atomic_write_bytes(path, data)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file 0600; give it the mode a plain open() would have had
        # (or keep the mode of the file it replaces).
        os.fchmod(fd, _target_mode(path))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


@contextlib.contextmanager
def atomic_directory(path: str | Path) -> Iterator[Path]:
    """Yield a fresh staging folder that replaces ``path`` only if the block succeeds.

    On any exception (including KeyboardInterrupt) the staging folder is removed and an
    existing ``path`` is left untouched. An OSError making or placing the folder names
    ``path``.
    """
    path = Path(path)
    with _naming(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".staging",
                                        dir=path.parent))
    try:
        yield staging
        old = None
        with _naming(path):
            if path.exists():
                old = path.with_name(f".{path.name}.old-{os.getpid()}")
                os.replace(path, old)
            os.replace(staging, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        _fsync_dir(path.parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _target_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_current_umask()


def _current_umask() -> int:
    # Reading the umask means setting it; /proc tells without that race where it can.
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
