"""Background pools from real code: every function of some Python source trees (issue 14).

:func:`extract_pool` walks source trees (by default the running interpreter's standard
library) and turns each function definition into a :class:`BackgroundSnippet`:

- module-level functions, methods (of classes at any depth), functions defined under a
  module-level ``if``/``try``, and functions nested in other functions; decorators are left
  out, a method is dedented so it parses on its own, and one that still does not (a string
  literal indented less than its ``def``) is skipped;
- deduplicated by normalised code, ``ast.dump`` of the parsed function (so comments, blank
  lines and formatting do not make a copy new); the first occurrence is kept;
- functions named like a benchmark query's ``function_name`` (``exclude_names``) are left
  out, since they could be that query's answer;
- ``source`` is ``<path relative to the tree's parent or the stdlib>:<line of the def>``.

Files are read in sorted path order and functions in source order, and ids are
``bg_000001``, ``bg_000002``, ... in that order, so the same sources give the same pool
byte for byte. Test folders (``test``, ``tests``, ``idle_test``) and ``site-packages`` are
skipped unless ``include_tests`` is set.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import sysconfig
import textwrap
import tokenize
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..benchmark.pool import BackgroundSnippet
from ..errors import CancelledError, InputFormatError
from ..hooks import Progress, ShouldStop

__all__ = ["ExtractionStats", "SourceTree", "extract_pool", "resolve_source", "stdlib_tree"]

_SKIP_DIRS = frozenset({"site-packages", "dist-packages", "__pycache__"})
_TEST_DIRS = frozenset({"test", "tests", "idle_test"})


@dataclass(frozen=True)
class SourceTree:
    """Python files to extract from: ``root`` and the prefix ``source`` paths start with."""

    label: str
    root: Path
    base: Path  # source paths are relative to this folder

    def files(self, *, include_tests: bool = False) -> list[Path]:
        """Every ``.py`` file under the root, in sorted order."""
        if self.root.is_file():
            return [self.root]
        skip = _SKIP_DIRS if include_tests else _SKIP_DIRS | _TEST_DIRS
        found: list[Path] = []
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d not in skip and not d.startswith("."))
            found += [Path(folder) / n for n in sorted(names) if n.endswith(".py")
                      and (include_tests or not n.startswith("test_"))]
        return found


@dataclass(frozen=True)
class ExtractionStats:
    """What an extraction read and what it left out."""

    files: int  # files read (fewer than the tree holds when ``limit`` stopped early)
    unreadable_files: int
    functions: int
    duplicates: int
    unparseable: int
    excluded_by_name: int
    kept: int


def stdlib_tree() -> SourceTree:
    """The running interpreter's standard library."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return SourceTree("stdlib", root, root)


def resolve_source(name: str) -> SourceTree:
    """A folder, a ``.py`` file, ``stdlib``, or an importable package or module name.

    Raises InputFormatError when it is none of these.
    """
    if name == "stdlib":
        return stdlib_tree()
    path = Path(name).expanduser()
    if path.is_dir():
        return SourceTree(name, path, path.parent)
    if path.is_file():
        if path.suffix != ".py":
            raise InputFormatError("not a Python source file or folder", file=path)
        return SourceTree(name, path, path.parent)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as exc:
        raise InputFormatError(f"{name!r} is neither a folder nor an importable package "
                               f"({exc})") from exc
    if spec is None:
        raise InputFormatError(f"{name!r} is neither a folder nor an importable package")
    if spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        return SourceTree(name, root, root.parent)
    if spec.origin and spec.origin.endswith(".py"):
        origin = Path(spec.origin)
        return SourceTree(name, origin, origin.parent)
    if spec.origin == "frozen":   # posixpath, os, genericpath: their source ships beside
        path = Path(sysconfig.get_paths()["stdlib"]).joinpath(*name.split(".")).with_suffix(
            ".py")
        if path.is_file():
            return SourceTree(name, path, path.parent)
    raise InputFormatError(f"{name!r} has no Python source (origin {spec.origin})")


def _functions(body: Sequence[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node
            yield from _functions(node.body)
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body)
        elif isinstance(node, ast.If):
            yield from _functions(node.body)
            yield from _functions(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse,
                          node.finalbody):
                yield from _functions(block)


def _read(path: Path) -> tuple[str, ast.Module] | None:
    """The file's text (decoded as its coding cookie says) and its AST, or None."""
    try:
        with tokenize.open(path) as handle:
            text = handle.read()
        return text, ast.parse(text, filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def extract_pool(
    sources: Sequence[SourceTree] | None = None,
    *,
    limit: int | None = None,
    exclude_names: Collection[str] = (),
    include_tests: bool = False,
    progress: Progress | None = None,
    should_stop: ShouldStop | None = None,
) -> tuple[list[BackgroundSnippet], ExtractionStats]:
    """Background snippets from the source trees (default: the standard library).

    ``limit`` stops after that many kept functions. ``progress(files_done, files)`` follows
    the files; ``should_stop()`` raises CancelledError between files.
    """
    trees = list(sources) if sources else [stdlib_tree()]
    files = [(tree, f) for tree in trees for f in tree.files(include_tests=include_tests)]
    excluded = set(exclude_names)
    seen: set[str] = set()
    kept: list[BackgroundSnippet] = []
    unreadable = functions = duplicates = unparseable = by_name = read_files = 0
    if progress:
        progress(0, len(files))
    for done, (tree, path) in enumerate(files, start=1):
        if should_stop is not None and should_stop():
            raise CancelledError("pool extraction cancelled")
        read = _read(path)
        read_files = done
        if read is None:
            unreadable += 1
        else:
            text, module = read
            lines = io.StringIO(text).readlines()  # only \n ends a line, as for ast
            where = path.relative_to(tree.base).as_posix()
            for node in _functions(module.body):
                functions += 1
                if node.name in excluded:
                    by_name += 1
                    continue
                code = textwrap.dedent("".join(lines[node.lineno - 1:node.end_lineno]))
                try:
                    parsed = ast.parse(code)
                except SyntaxError:
                    unparseable += 1
                    continue
                key = ast.dump(parsed.body[0])
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
                kept.append(BackgroundSnippet(f"bg_{len(kept) + 1:06d}", code.rstrip() + "\n",
                                              f"{where}:{node.lineno}", node.name))
                if limit is not None and len(kept) >= limit:
                    break
        if progress:
            progress(done, len(files))
        if limit is not None and len(kept) >= limit:
            break
    stats = ExtractionStats(files=read_files, unreadable_files=unreadable, functions=functions,
                            duplicates=duplicates, unparseable=unparseable,
                            excluded_by_name=by_name, kept=len(kept))
    return kept, stats
