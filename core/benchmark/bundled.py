"""The benchmarks that ship inside the package, and the one place a benchmark argument
(a folder path or a bundled benchmark's name) becomes a folder.

The bundled folders are package data of ``execretrieval.bundled`` (the repository's
``data/``), found with :mod:`importlib.resources`, so they are found the same way in a
wheel installed by pipx, in an editable checkout and from any working directory.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..errors import BenchmarkNotFoundError

__all__ = ["BUNDLED_PACKAGE", "bundled_benchmarks", "bundled_root", "resolve_benchmark"]

BUNDLED_PACKAGE = "execretrieval.bundled"
_FIRST = "builtin"  # the demo: listed first, opened by the GUI when given nothing


def bundled_root() -> Path | None:
    """The folder holding the bundled benchmarks; None if this installation has none
    (a zipped or stripped install)."""
    try:
        root = resources.files(BUNDLED_PACKAGE)
    except ModuleNotFoundError:
        return None
    # benchmarks are read as ordinary files; a Traversable inside a zip is not one
    return root if isinstance(root, Path) and root.is_dir() else None


def bundled_benchmarks() -> dict[str, Path]:
    """Bundled benchmark folders by name: ``builtin`` first, then alphabetically."""
    root = bundled_root()
    if root is None:
        return {}
    found = [p for p in root.iterdir() if (p / "queries.jsonl").is_file()]
    found.sort(key=lambda p: (p.name != _FIRST, p.name))
    return {p.name: p for p in found}


def resolve_benchmark(spec: str | Path) -> Path:
    """The folder a benchmark argument means: an existing folder wins; a bare name
    (no path separator) that is not a folder here names a bundled benchmark.

    Raises BenchmarkNotFoundError saying what was tried: the path, and for a bare name
    the bundled names too.
    """
    path = Path(spec)
    if path.is_dir():
        return path
    text = str(spec)
    is_name = bool(text) and "/" not in text and "\\" not in text and text not in (".", "..")
    bundled = bundled_benchmarks() if is_name else {}
    if text in bundled:
        return bundled[text]
    if path.exists():
        raise BenchmarkNotFoundError(f"{path}: not a benchmark folder (a file, not a directory)")
    if is_name:
        names = ", ".join(bundled_benchmarks()) or "none are installed"
        raise BenchmarkNotFoundError(
            f"{text}: not a folder and not a bundled benchmark ({names})")
    raise BenchmarkNotFoundError(f"{path}: not a benchmark folder (no such directory)")
