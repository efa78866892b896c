"""The project's exceptions, one tree so callers can catch exactly what they mean.

::

    ExecRetrievalError                  anything this package raises on purpose
    ├── BenchmarkError                  a benchmark folder cannot be used
    │   ├── BenchmarkNotFoundError      the folder or a required file is missing
    │   └── BenchmarkFormatError        a file is malformed (names file, line, field)
    ├── InputFormatError                another input file is malformed (run file, .npz,
    │                                   annotation import, seed file); names file, line, field
    ├── OracleError                     the execution oracle itself failed (not the code it ran)
    ├── CancelledError                  a long operation stopped because should_stop() said so
    ├── RetrieverError                  a retriever cannot be built or cannot score
    │   ├── ModelNotFoundError          a named model, model folder or embedding file is missing
    │   └── ServiceError                an embedding service refused a request or answered
    │                                   nonsense (names the URL and the server's message)
    ├── BuildError                      the dataset builder cannot produce a benchmark
    └── AnnotationError                 the annotation store cannot be read or written

Errors from subprocesses, JSON, SQLite or third-party libraries are re-raised at the
boundary as one of these with ``raise ... from exc``.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "AnnotationError",
    "BenchmarkError",
    "BenchmarkFormatError",
    "BenchmarkNotFoundError",
    "BuildError",
    "CancelledError",
    "ExecRetrievalError",
    "InputFormatError",
    "ModelNotFoundError",
    "OracleError",
    "RetrieverError",
    "ServiceError",
]


class ExecRetrievalError(Exception):
    """Base class of every error this package raises on purpose."""


class BenchmarkError(ExecRetrievalError):
    """A benchmark folder cannot be used."""


class BenchmarkNotFoundError(BenchmarkError):
    """The benchmark folder, or a file it must contain, does not exist."""


class _LocatedError(ExecRetrievalError):
    """An error about one place in one file: ``file:line: field: message``."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.reason = message
        where = ""
        if self.file is not None:
            where = self.file
            if line is not None:
                where += f":{line}"
            where += ": "
        what = f"field '{field}': " if field else ""
        super().__init__(f"{where}{what}{message}")


class BenchmarkFormatError(_LocatedError, BenchmarkError):
    """A benchmark file is malformed; ``file``, ``line`` and ``field`` say where."""


class InputFormatError(_LocatedError):
    """A non-benchmark input file is malformed; ``file``, ``line`` and ``field`` say where."""


class OracleError(ExecRetrievalError):
    """The execution oracle failed (the sandbox could not start, the cache is unusable)."""


class CancelledError(ExecRetrievalError):
    """A long operation was stopped by its ``should_stop`` hook."""


class RetrieverError(ExecRetrievalError):
    """A retriever cannot be built or cannot produce scores."""


class ModelNotFoundError(RetrieverError):
    """A named model, model folder or embedding file does not exist."""


class ServiceError(RetrieverError):
    """An embedding service refused a request (401, 404, ...), kept failing after every
    retry, or answered something that is not the vectors asked for."""


class BuildError(ExecRetrievalError):
    """The dataset builder cannot produce a benchmark."""


class AnnotationError(ExecRetrievalError):
    """The annotation store cannot be read or written."""
