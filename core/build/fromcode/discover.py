"""The static half of building benchmarks from code: every function a source holds.

:func:`discover_functions` resolves each source as ``execretrieval pool`` does
(:func:`execretrieval.build.background.resolve_source`: a folder, a ``.py`` file or an
importable module or package name; test folders and ``test_*.py`` files are not sources) and
returns, for every function definition it finds, a :class:`FunctionSource`: its query (the
docstring summary, :mod:`.docstrings`), its self-contained canonical (:mod:`.slicing`), the
literal calls its doctests and its package's tests make (:mod:`.calls`), its type hints and
the literals of its body, or the reason it is no candidate task.

What is considered: module-level functions; functions nested in functions ("nested
function"); functions under a module-level ``if``/``try`` ("conditional definition", since
which ``def`` wins depends on the branch that runs); and methods of module-level classes:
"method" unless ``include_methods`` is set, in which case a ``@staticmethod`` is sliced as a
module-level function with what it needs of the module (the class included only when the
method names it) and every other method is still "method" (it needs an instance). A private
``_name`` is "private name" unless ``include_private``. A module that does not parse gives
one "syntax error in module" entry per top-level ``def`` line found in its text.

Order: sources as given, then file path, then line. The same sources give an equal
:class:`Discovery`, field by field, on every run.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import platform
import re
import sysconfig
import tokenize
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import CancelledError, InputFormatError
from ...hooks import Progress, ShouldStop
from ..background import SourceTree, resolve_source
from .calls import TestCalls, doctest_calls
from .docstrings import summary
from .slicing import SLICE_REASONS, ModuleCode, SliceError, slice_function

__all__ = ["SKIP_REASONS", "Discovery", "Example", "FunctionSource", "SourceInfo",
           "discover_functions"]

PRIVATE = "private name"
METHOD = "method"
NESTED = "nested function"
CONDITIONAL = "conditional definition"
GENERATOR = "generator"
ASYNC = "async function"
NO_DOCSTRING = "no docstring"
UNUSABLE_DOCSTRING = "no usable docstring"
SYNTAX = "syntax error in module"
NO_COMPILE = "slice does not compile"
#: Every reason a function is no candidate task, structural ones first.
SKIP_REASONS = (PRIVATE, METHOD, NESTED, CONDITIONAL, ASYNC, GENERATOR, NO_DOCSTRING,
                UNUSABLE_DOCSTRING, *SLICE_REASONS, SYNTAX, NO_COMPILE)


@dataclass(frozen=True)
class Example:
    """One call the function is known to be made with."""

    call: str
    origin: str  # "doctest" | "tests"
    where: str
    expected: str | None = None


@dataclass(frozen=True)
class FunctionSource:
    """One function of a source and what a task built from it would be made of."""

    name: str
    module: str
    file: str
    line: int
    query: str | None
    canonical: str | None
    examples: tuple[Example, ...]
    hints: Mapping[str, str]
    literals: tuple[str, ...]
    skip_reason: str | None


@dataclass(frozen=True)
class SourceInfo:
    """What one source argument resolved to."""

    label: str
    kind: str  # "stdlib" | "package" | "folder" | "file"
    root: str
    distribution: str | None
    version: str | None
    license: str | None


@dataclass(frozen=True)
class Discovery:
    sources: tuple[SourceInfo, ...]
    functions: tuple[FunctionSource, ...]


_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()
# stdlib modules whose tests are not named test_<module>
_STDLIB_TESTS = {"urllib.parse": "urlparse"}


def _is_stdlib(path: Path) -> bool:
    resolved = path.resolve()
    return resolved.is_relative_to(_STDLIB) and "site-packages" not in resolved.parts


def _resolve(label: str) -> SourceTree:
    """``resolve_source``, plus the stdlib modules this Python runs frozen (``posixpath``)."""
    try:
        tree = resolve_source(label)
    except InputFormatError:
        if re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", label):
            path = _STDLIB.joinpath(*label.split(".")).with_suffix(".py")
            if path.is_file():
                return SourceTree(label, path, _STDLIB)
        raise
    if not Path(label).expanduser().exists() and "." in label:
        # a submodule's paths start at its top package's parent: urllib/parse.py
        return SourceTree(label, tree.root, tree.root.parents[label.count(".")])
    return tree


def _info(label: str, tree: SourceTree) -> SourceInfo:
    if _is_stdlib(tree.root):
        return SourceInfo(label, "stdlib", str(tree.base), None, platform.python_version(),
                          "PSF-2.0")
    if Path(label).expanduser().exists():
        kind = "folder" if tree.root.is_dir() else "file"
        return SourceInfo(label, kind, str(tree.base), None, None, None)
    top = label.split(".")[0]
    names = importlib.metadata.packages_distributions().get(top, [])
    if not names:
        return SourceInfo(label, "package", str(tree.base), None, None, None)
    meta = importlib.metadata.metadata(names[0])
    licence = next(iter([*(meta.get_all("License-Expression") or []),
                         *(meta.get_all("License") or [])]), None)
    if not licence or len(licence) > 60:  # a whole licence text, not its name
        classifiers = [c.rsplit(" :: ", 1)[-1] for c in meta.get_all("Classifier") or []
                       if c.startswith("License ::")]
        licence = classifiers[0] if classifiers else None
    return SourceInfo(label, "package", str(tree.base), meta["Name"], meta["Version"], licence)


def _module_name(path: Path, base: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(base).with_suffix("").parts)
    package = parts[-1] == "__init__"
    if package:
        parts.pop()
    return ".".join(parts), package


def _read(path: Path) -> str | None:
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


class _Tree:
    """The modules of one source tree, parsed on demand, and how imports inside it resolve."""

    def __init__(self, tree: SourceTree, stdlib: bool) -> None:
        self.tree = tree
        self.stdlib = stdlib
        self.modules: dict[str, ModuleCode | None] = {}
        top = tree.root if tree.root.is_dir() else None
        self.package = top.name if top is not None and (top / "__init__.py").is_file() else None

    def module(self, path: Path) -> ModuleCode | None:
        name, package = _module_name(path, self.tree.base)
        if name not in self.modules:
            text = _read(path)
            code: ModuleCode | None = None
            if text is not None:
                try:
                    parsed = ast.parse(text, filename=str(path))
                except (SyntaxError, ValueError, RecursionError):
                    parsed = None
                if parsed is not None:
                    code = ModuleCode(name, path.relative_to(self.tree.base).as_posix(), text,
                                      parsed, package)
            self.modules[name] = code
        return self.modules[name]

    def resolve(self, module: ModuleCode, node: ast.ImportFrom) -> ModuleCode | None:
        """The module of this tree ``node`` imports from, or None (outside the tree)."""
        if node.level:
            package = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
            if node.level - 1 > len(package) - 1 or not package:
                return None
            parts = package[:len(package) - (node.level - 1)]
            if node.module:
                parts += node.module.split(".")
        elif self.package and not self.stdlib and node.module and (
                node.module.split(".")[0] == self.package):
            parts = node.module.split(".")
        else:
            return None
        folder = self.tree.base.joinpath(*parts)
        for path in (folder.with_suffix(".py"), folder / "__init__.py"):
            if path.is_file() and path.resolve().is_relative_to(self.tree.root.resolve()):
                return self.module(path)
        if folder.is_dir() and folder.resolve().is_relative_to(self.tree.root.resolve()):
            return ModuleCode(".".join(parts), folder.relative_to(self.tree.base).as_posix(),
                              "", ast.Module([], []), True)
        return None


def _test_files(tree: SourceTree, info: SourceInfo, tests: Sequence[str | Path] | None,
                modules: list[str]) -> list[tuple[Path, str]]:
    """(test file, where-prefix) pairs: the given ones, or the source's own tests."""
    if tests is not None:
        found = []
        for given in tests:
            path = Path(given)
            files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
            found += [(f, f.relative_to(path.parent).as_posix()) for f in files]
        return found
    folders: list[Path] = []
    singles: list[Path] = []
    if info.kind == "stdlib":
        test_root = _STDLIB / "test"
        for module in modules:
            stems = {module.split(".")[0], module.rsplit(".", 1)[-1], module.replace(".", "_")}
            if module in _STDLIB_TESTS:
                stems.add(_STDLIB_TESTS[module])
            for stem in sorted(stems):
                singles.append(test_root / f"test_{stem}.py")
                folders.append(test_root / f"test_{stem}")
    else:
        start = tree.root if tree.root.is_dir() else tree.root.parent
        for place in (start, start.parent) if tree.root.is_dir() else (start,):
            folders += [place / "tests", place / "test"]
        if not tree.root.is_dir():
            singles.append(start / f"test_{tree.root.stem}.py")
    files = [f for f in singles if f.is_file()]
    for folder in folders:
        if folder.is_dir():
            files += sorted(folder.rglob("*.py"))
    out = []
    for f in sorted(set(files)):
        try:
            where = f.relative_to(tree.base if info.kind == "stdlib" else f.parents[1])
        except ValueError:
            where = Path(f.name)
        out.append((f, where.as_posix()))
    return out


def _is_generator(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    stack: list[ast.AST] = list(node.body)
    while stack:
        sub = stack.pop()
        if isinstance(sub, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                          | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(sub))
    return False


def _hints(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    args = node.args
    every = [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []),
             *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]
    hints = {a.arg: ast.unparse(a.annotation) for a in every if a.annotation is not None}
    if node.returns is not None:
        hints["return"] = ast.unparse(node.returns)
    return hints


def _literals(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    constants = sorted((sub.lineno, sub.col_offset, repr(sub.value))
                       for stmt in body for sub in ast.walk(stmt)
                       if isinstance(sub, ast.Constant)
                       and type(sub.value) in (int, float, str, bytes))
    return tuple(dict.fromkeys(text for _, _, text in constants))


def _defs(module: ast.Module) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str,
                                            ast.ClassDef | None]]:
    """(function, placement, class) for every def: top, nested, conditional or method."""
    found: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, ast.ClassDef | None]] = []

    def inside(body: Sequence[ast.stmt], placement: str, owner: ast.ClassDef | None) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((node, placement, owner))
                inside(node.body, "nested", None)
            elif isinstance(node, ast.ClassDef):
                inside(node.body, "method" if placement == "top" else placement, node)
            elif isinstance(node, ast.If | ast.Try | ast.For | ast.While | ast.With):
                blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
                blocks += [h.body for h in getattr(node, "handlers", [])]
                for block in blocks:
                    inside(block, "conditional" if placement == "top" else placement, owner)

    inside(module.body, "top", None)
    return sorted(found, key=lambda item: (item[0].lineno, item[0].col_offset))


_DEF_LINE = re.compile(r"(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(")


def _function(code: ModuleCode, tree: _Tree, node: ast.FunctionDef | ast.AsyncFunctionDef,
              placement: str, owner: ast.ClassDef | None, calls: TestCalls, *,
              include_private: bool, include_methods: bool) -> FunctionSource:
    docstring = ast.get_docstring(node, clean=False)
    query = summary(docstring)
    static = owner is not None and any(isinstance(d, ast.Name) and d.id == "staticmethod"
                                       for d in node.decorator_list)
    reason: str | None = None
    if placement == "method" and not (include_methods and static):
        reason = METHOD
    elif placement in ("nested", "conditional"):
        reason = NESTED if placement == "nested" else CONDITIONAL
    elif node.name.startswith("_") and not include_private:
        reason = PRIVATE
    elif isinstance(node, ast.AsyncFunctionDef):
        reason = ASYNC
    elif _is_generator(node):
        reason = GENERATOR
    elif docstring is None:
        reason = NO_DOCSTRING
    elif query is None:
        reason = UNUSABLE_DOCSTRING
    canonical: str | None = None
    if reason is None:
        assert isinstance(node, ast.FunctionDef)
        try:
            canonical = slice_function(code, node, tree.resolve,
                                       method_of=owner if placement == "method" else None)
            compile(canonical, f"<canonical {code.name}.{node.name}>", "exec")
        except SliceError as exc:
            reason, canonical = exc.reason, None
        except (SyntaxError, ValueError):
            reason, canonical = NO_COMPILE, None
    examples: list[Example] = []
    if docstring is not None:
        first = node.body[0].lineno
        for call in doctest_calls(docstring, node.name, code.name, code.file, first):
            examples.append(Example(call.call, "doctest", f"{call.where_file}:{call.where_line}",
                                    call.expected))
    if placement in ("top", "conditional") or static:
        for call in calls.calls(code.name, node.name):
            examples.append(Example(call.call, "tests", f"{call.where_file}:{call.where_line}"))
    unique: dict[str, Example] = {}
    for example in examples:
        unique.setdefault(example.call, example)
    return FunctionSource(node.name, code.name, code.file, node.lineno, query, canonical,
                          tuple(unique.values()), _hints(node), _literals(node), reason)


def discover_functions(sources: Sequence[str | Path], *, include_private: bool = False,
                       include_methods: bool = False,
                       tests: Sequence[str | Path] | None = None,
                       progress: Progress | None = None,
                       should_stop: ShouldStop | None = None) -> Discovery:
    """Every function of ``sources`` with its query, canonical, examples or skip reason.

    ``tests=None`` reads the sources' own tests (a ``tests/``/``test/`` folder in or beside
    a package folder, ``test_<name>.py`` beside a file; for a stdlib module
    ``Lib/test/test_<module>.py`` and ``Lib/test/test_<module>/``, when this Python has
    them); ``tests=[]`` reads none. ``progress(files_done, files)`` follows the files;
    ``should_stop()`` raises CancelledError between files. Raises InputFormatError for a
    source that is none of a folder, a ``.py`` file or an importable name with Python source.
    """
    if not sources:
        raise InputFormatError("no source given: name a folder, a .py file or a package")
    resolved: list[tuple[str, SourceTree, SourceInfo]] = []
    for source in sources:
        label = os.fspath(source)
        tree = _resolve(label)
        if not tree.root.exists():
            raise InputFormatError("source not found", file=tree.root)
        resolved.append((label, tree, _info(label, tree)))
    work = [(tree, info, path) for _, tree, info in resolved for path in tree.files()]
    if progress:
        progress(0, len(work))
    functions: list[FunctionSource] = []
    done = 0
    for _, tree, info in resolved:
        files = tree.files()
        modules = [_module_name(path, tree.base)[0] for path in files]
        calls = TestCalls(_test_files(tree, info, tests, modules))
        sliced = _Tree(tree, info.kind == "stdlib")
        for path in files:
            if should_stop is not None and should_stop():
                raise CancelledError("function discovery cancelled")
            code = sliced.module(path)
            if code is None:
                functions += _unparseable(path, tree.base)
            else:
                for node, placement, owner in _defs(code.tree):
                    functions.append(_function(code, sliced, node, placement, owner, calls,
                                               include_private=include_private,
                                               include_methods=include_methods))
            done += 1
            if progress:
                progress(done, len(work))
    return Discovery(tuple(info for _, _, info in resolved), tuple(functions))


def _unparseable(path: Path, base: Path) -> list[FunctionSource]:
    text = _read(path) or ""
    name, _ = _module_name(path, base)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _DEF_LINE.match(line)
        if match:
            found.append(FunctionSource(match.group(1), name, path.relative_to(base).as_posix(),
                                        number, None, None, (), {}, (), SYNTAX))
    return found
