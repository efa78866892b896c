"""Self-contained snippets of one function: the function plus what it needs from its module.

:func:`slice_function` starts from a function's ``def`` and adds, transitively, every
module-level statement that binds a name it reads (``symtable`` says which names a body reads
from the module, comprehensions, lambdas and methods of helper classes included):

- imports, cut to the names used (``import re`` kept whole, ``from x import a, b`` cut to the
  used aliases); a relative import (``from .util import helper``) is resolved inside the
  source tree and the helper's own slice is inlined (with ``alias = name`` when renamed),
  since a snippet run on its own has no package to import from;
- module constants (assignments, and the import-time statements that fill them in, such as
  ``TABLE.update(...)``, or a call of the module's own setup function that reads or writes
  them), module-level helper functions and classes, each under its own name;
- compound module-level statements (``if``, ``try``, ``for``, ``with``) that bind a needed
  name are kept whole, so the snippet makes the same choice the module makes when it is
  imported: a ``try: from _c import f`` / ``except ImportError:`` fallback keeps both
  branches and runs whichever works. ``if __name__ == "__main__":`` blocks are never kept.

Statements come out module by module (a module whose names another one imports first), each
in its source order, with ``from __future__ import annotations`` first when a sliced module
has it. A name bound both by a star import and explicitly uses the explicit binding (the
stdlib's ``try: from _heapq import *`` accelerator pattern); a name only a star import can
bind is a skip, and a block that deletes a name (``else: del _DAYNAMES``, datetime's
accelerator block) is not taken as providing it. A kept import of a module this Python
cannot find (``winreg`` on Linux) is a skip: the snippet could not run here. Everything
that cannot be sliced faithfully raises :class:`SliceError` with one of
:data:`SLICE_REASONS`.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib.util
import symtable
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from .calls import is_literal

__all__ = ["SLICE_REASONS", "ModuleCode", "SliceError", "slice_function"]

STAR = "star import"
RUNTIME_STATE = "uses module state written at run time"
RELATIVE_OUTSIDE = "relative import outside the package"
RELATIVE_MODULE = "relative import of a module"
UNDEFINED = "reads a name defined nowhere"
MODULE_ATTRS = "uses module attributes"
DYNAMIC = "dynamic name lookup"
DECORATOR = "complex decorator"
CLASH = "name clash across modules"
MISSING = "imports a module this python lacks"
#: Why a function's needs could not be sliced.
SLICE_REASONS = (STAR, RUNTIME_STATE, RELATIVE_OUTSIDE, RELATIVE_MODULE, UNDEFINED,
                 MODULE_ATTRS, DYNAMIC, DECORATOR, CLASH, MISSING)

_BUILTINS = frozenset(dir(builtins))
_MODULE_DUNDERS = frozenset({"__name__", "__file__", "__doc__", "__spec__", "__loader__",
                             "__package__", "__path__", "__cached__", "__builtins__"})
_DYNAMIC = frozenset({"globals", "eval", "exec", "vars", "__import__"})
_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "popitem", "clear",
                       "update", "setdefault", "add", "discard", "sort", "reverse",
                       "appendleft", "extendleft", "rotate", "__setitem__", "__delitem__",
                       "difference_update", "intersection_update",
                       "symmetric_difference_update"})
_FUTURE = "from __future__ import annotations"


class SliceError(Exception):
    """A function whose needs cannot be sliced; ``reason`` is one of SLICE_REASONS."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass
class _Statement:
    node: ast.stmt
    text: str
    binds: frozenset[str]
    reads: frozenset[str]
    declares_global: bool
    mutates_at_run_time: frozenset[str]  # module names written from inside function bodies
    fills: frozenset[str]  # module names this statement changes at import time


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _written_roots(nodes: Iterator[ast.AST]) -> set[str]:
    """Names whose value (not binding) some statement changes: ``N[k] = v``, ``N.add(x)``."""
    roots: set[str] = set()
    for node in nodes:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _MUTATORS):
            root = _root(node.func.value)
            if root:
                roots.add(root)
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Attribute | ast.Subscript):
                    root = _root(sub)
                    if root:
                        roots.add(root)
    return roots


def _guarded_names(test: ast.expr) -> set[str]:
    """The names ``N`` of a lazy-initialisation guard: ``N is None``, ``not N``, ``N is
    None or M is None``; empty for any other test."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_guarded_names(v) for v in test.values]
        return set().union(*parts) if all(parts) else set()
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) \
            and isinstance(test.operand, ast.Name):
        return {test.operand.id}
    if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return {test.left.id}
    return set()


def _lazy_globals(node: ast.stmt) -> set[str]:
    """The ``global`` names of the functions in ``node`` that are only a lazily built
    constant: every binding of the name in the function sits in an ``if`` guarded on
    the function's own global names being unset (``if _table is None:``) whose block
    reads none of the function's parameters, so every call sees the same value once it is
    built (base64's ``_a85chars``, posixpath's ``_varprog``). A global bound anywhere
    else, or from an argument, is module state written at run time."""
    lazy: set[str] = set()
    for fn in ast.walk(node):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        body = fn.body if isinstance(fn.body, list) else [fn.body]
        declared = {n for stmt in body for sub in ast.walk(stmt) if isinstance(sub, ast.Global)
                    for n in sub.names}
        if not declared:
            continue
        a = fn.args
        params = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                  if x is not None}
        guarded: set[int] = set()   # ids of the Name nodes bound inside a good guard
        for stmt in body:
            for sub in ast.walk(stmt):
                if not isinstance(sub, ast.If) or not (_guarded_names(sub.test) & declared):
                    continue
                if not _guarded_names(sub.test) <= declared or sub.orelse:
                    continue
                inner = [n for b in sub.body for n in ast.walk(b)]
                own = {t.id for n in inner if isinstance(n, ast.comprehension)
                       for t in ast.walk(n.target) if isinstance(t, ast.Name)}
                if any(isinstance(n, ast.Name) and n.id in params - own for n in inner):
                    continue
                guarded.update(id(n) for n in inner if isinstance(n, ast.Name))
        bound_outside = {sub.id for stmt in body for sub in ast.walk(stmt)
                         if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load)
                         and sub.id in declared and id(sub) not in guarded}
        bound_outside |= {alias.asname or alias.name for stmt in body
                          for sub in ast.walk(stmt) if isinstance(sub, ast.Import | ast.ImportFrom)
                          for alias in sub.names
                          if (alias.asname or alias.name) in declared}
        lazy |= declared - bound_outside
    return lazy


def _assigned_names(node: ast.stmt) -> set[str]:
    """Names a statement binds other than by ``del`` (assignment, import, def, loop...)."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
        elif isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(sub.name)
        elif isinstance(sub, ast.alias):
            names.add((sub.asname or sub.name).split(".")[0])
    return names


def _findable(module: str) -> bool:
    """Whether this Python has the top-level module ``module`` names (nothing is run)."""
    top = module.split(".")[0]
    if top not in _FINDABLE:
        try:
            _FINDABLE[top] = importlib.util.find_spec(top) is not None
        except (ImportError, ValueError):
            _FINDABLE[top] = False
    return _FINDABLE[top]


_FINDABLE: dict[str, bool] = {}


def _is_main_block(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__")


def _plain_decorator(node: ast.expr) -> bool:
    if isinstance(node, ast.Call):
        return _plain_decorator(node.func) and all(
            is_literal(a) for a in [*node.args, *(k.value for k in node.keywords)])
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


@dataclass
class ModuleCode:
    """One parsed module of a source tree, with what each top-level statement binds."""

    name: str  # dotted module name
    file: str  # path relative to the source root
    text: str
    tree: ast.Module
    is_package: bool = False
    _statements: list[_Statement] = field(default_factory=list, init=False, repr=False)

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines(keepends=True)

    @cached_property
    def future_annotations(self) -> bool:
        return any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
                   and any(a.name == "annotations" for a in n.names) for n in self.tree.body)

    @cached_property
    def statements(self) -> list[_Statement | None]:
        """One entry per top-level statement; None for what is never sliced."""
        body = self.tree.body
        shared = {n.lineno for n in body} & {n.end_lineno for n in body
                                             if n.end_lineno and n.end_lineno > n.lineno}
        line_count: dict[int, int] = {}
        for n in body:
            line_count[n.lineno] = line_count.get(n.lineno, 0) + 1
        out: list[_Statement | None] = []
        for i, node in enumerate(body):
            docstring = (i == 0 and isinstance(node, ast.Expr)
                         and isinstance(node.value, ast.Constant))
            if docstring or _is_main_block(node) or isinstance(node, ast.Delete) or (
                    isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                out.append(None)
                continue
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            crowded = line_count[node.lineno] > 1 or node.lineno in shared or any(
                line_count.get(k, 0) for k in range(first + 1, (node.end_lineno or first) + 1))
            text = (ast.unparse(node) + "\n" if crowded
                    else "".join(self.lines[first - 1:node.end_lineno]))
            out.append(self._analyse(node, text))
        return _with_setup_calls(out)

    def _analyse(self, node: ast.stmt, text: str) -> _Statement:
        prefix = _FUTURE + "\n" if self.future_annotations else ""
        table = symtable.symtable(prefix + text, self.file, "exec")
        # `del X` makes X a symbol too, but a statement that deletes X does not provide it
        deleted = {t.id for n in ast.walk(node) if isinstance(n, ast.Delete)
                   for target in n.targets for t in ast.walk(target)
                   if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Del)}
        binds = {s.get_name() for s in table.get_symbols()
                 if (s.is_assigned() or s.is_imported()) and s.get_name() != "annotations"}
        binds -= deleted - _assigned_names(node)
        reads = {s.get_name() for s in table.get_symbols() if s.is_referenced()}
        declares_global = False
        lazy = _lazy_globals(node)
        stack = list(table.get_children())
        while stack:
            child = stack.pop()
            stack.extend(child.get_children())
            for sym in child.get_symbols():
                if sym.is_declared_global() and sym.get_name() not in lazy:
                    declares_global = True
                if sym.is_global() and sym.is_referenced():
                    reads.add(sym.get_name())
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            reads.discard(node.name)  # recursion, or a class naming itself in a method
            inner = _written_roots(n for stmt in node.body for n in ast.walk(stmt))
            fills: set[str] = set()
        else:
            inner = set()
            for sub in ast.walk(node):
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    inner |= _written_roots(ast.walk(sub))
            fills = _written_roots(ast.walk(node)) - inner
        if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
               for n in ast.walk(node)):
            binds.add("*")
        return _Statement(node, text, frozenset(binds), frozenset(reads), declares_global,
                          frozenset(inner), frozenset(fills))

    @cached_property
    def bindings(self) -> dict[str, list[int]]:
        """Name -> indices of the top-level statements that bind it or fill it in."""
        found: dict[str, list[int]] = {}
        for i, stmt in enumerate(self.statements):
            if stmt is not None:
                for name in sorted(stmt.binds | stmt.fills):
                    found.setdefault(name, []).append(i)
        return found

    @cached_property
    def containers(self) -> frozenset[str]:
        """Names bound by module-level assignments or classes: state a function can write."""
        names: set[str] = set()
        for stmt in self.statements:
            if stmt is not None and not isinstance(stmt.node, ast.Import | ast.ImportFrom
                                                   | ast.FunctionDef | ast.AsyncFunctionDef):
                names |= stmt.binds
        return frozenset(names)


def _with_setup_calls(statements: list[_Statement | None]) -> list[_Statement | None]:
    """Make a module-level call of the module's own function (``_fix_result_transcoding()``
    in urllib.parse) fill in the module-level values that function reads or writes, so a
    slice needing one of them keeps the call that sets it up at import time."""
    defs: dict[str, _Statement] = {}
    values: set[str] = set()
    for stmt in statements:
        if stmt is None:
            continue
        if isinstance(stmt.node, ast.FunctionDef):
            defs[stmt.node.name] = stmt
        elif not isinstance(stmt.node, ast.Import | ast.ImportFrom):
            values |= stmt.binds
    out: list[_Statement | None] = []
    for stmt in statements:
        node = stmt.node if stmt is not None else None
        if stmt is not None and isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Name) and node.value.func.id in defs:
            helper = defs[node.value.func.id]
            touched = (helper.reads | helper.mutates_at_run_time) & values
            stmt = dataclasses.replace(stmt, fills=stmt.fills | touched)
        out.append(stmt)
    return out


Resolver = Callable[[ModuleCode, ast.ImportFrom], "ModuleCode | None"]


class _Slicer:
    def __init__(self, resolve: Resolver) -> None:
        self.resolve = resolve
        self.modules: dict[str, ModuleCode] = {}
        self.order: list[str] = []  # modules in the order they come out (dependencies first)
        self.chosen: dict[tuple[str, int], set[str]] = {}
        self.aliases: dict[tuple[str, int], list[str]] = {}
        self.visiting: list[str] = []

    def need(self, module: ModuleCode, name: str) -> None:
        found = module.bindings.get(name)
        if not found:
            if name in _MODULE_DUNDERS:
                raise SliceError(MODULE_ATTRS, f"{name} in {module.name}")
            if name in _DYNAMIC:
                raise SliceError(DYNAMIC, f"{name}() in {module.name}")
            if name in _BUILTINS:
                return
            if "*" in module.bindings:
                raise SliceError(STAR, f"{name} can only come from a star import "
                                       f"in {module.name}")
            raise SliceError(UNDEFINED, f"{name} in {module.name}")
        for index in found:
            self.add(module, index, name)

    def add(self, module: ModuleCode, index: int, name: str) -> None:
        stmt = module.statements[index]
        assert stmt is not None
        if module.name not in self.modules:
            self.modules[module.name] = module
        key = (module.name, index)
        names = self.chosen.get(key)
        if names is not None and (name in names or not isinstance(stmt.node, ast.Import
                                                                    | ast.ImportFrom)):
            return
        self.chosen.setdefault(key, set()).add(name)
        node = stmt.node
        if stmt.declares_global:
            raise SliceError(RUNTIME_STATE, f"a global statement in {module.name} line "
                                            f"{node.lineno}")
        written = stmt.mutates_at_run_time & module.containers
        if written:
            raise SliceError(RUNTIME_STATE, f"{min(written)} written in {module.name} line "
                                            f"{node.lineno}")
        for deco in getattr(node, "decorator_list", []):
            if not _plain_decorator(deco):
                raise SliceError(DECORATOR, f"{module.name} line {deco.lineno}")
        if isinstance(node, ast.ImportFrom) and (node.level or self._in_tree(module, node)):
            self._inline(module, index, node, name)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            return
        if _relative_inside(node):
            raise SliceError(RELATIVE_OUTSIDE, f"a relative import inside a block in "
                                               f"{module.name} line {node.lineno}")
        for read in sorted(stmt.reads):
            self.need(module, read)

    def _in_tree(self, module: ModuleCode, node: ast.ImportFrom) -> bool:
        return node.module is not None and self.resolve(module, node) is not None

    def _inline(self, module: ModuleCode, index: int, node: ast.ImportFrom, name: str) -> None:
        target = self.resolve(module, node)
        if target is None:
            raise SliceError(RELATIVE_OUTSIDE, f"{module.name} line {node.lineno}")
        for alias in node.names:
            if (alias.asname or alias.name) != name:
                continue
            if target.is_package and alias.name not in target.bindings:
                raise SliceError(RELATIVE_MODULE, f"{alias.name} in {module.name} line "
                                                  f"{node.lineno}")
            if target.name in self.visiting:
                raise SliceError(CLASH, f"import cycle through {target.name}")
            self.visiting.append(target.name)
            try:
                self.need(target, alias.name)
            finally:
                self.visiting.pop()
            if target.name in self.order:
                self.order.remove(target.name)
            position = self.order.index(module.name) if module.name in self.order else len(
                self.order)
            self.order.insert(position, target.name)
            if alias.asname and alias.asname != alias.name:
                self.aliases.setdefault((module.name, index), []).append(
                    f"{alias.asname} = {alias.name}\n")

    def text(self, root_module: str) -> str:
        if root_module not in self.order:
            self.order.append(root_module)
        for name in self.modules:
            if name not in self.order:
                self.order.insert(0, name)
        parts: list[str] = []
        dotted: list[tuple[int, list[ast.alias]]] = []   # plain imports: part, aliases kept
        owner: dict[str, str] = {}
        if any(self.modules[m].future_annotations for m in self.order):
            parts.append(_FUTURE + "\n")
        for module_name in self.order:
            module = self.modules[module_name]
            for index in sorted(i for (m, i) in self.chosen if m == module_name):
                stmt = module.statements[index]
                assert stmt is not None
                node, names = stmt.node, self.chosen[(module_name, index)]
                if isinstance(node, ast.ImportFrom) and (node.level or self._in_tree(module,
                                                                                     node)):
                    parts.extend(self.aliases.get((module_name, index), []))
                    bound = {line.split(" = ")[0] for line in
                             self.aliases.get((module_name, index), [])}
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    kept = [a for a in node.names
                            if (a.asname or a.name.split(".")[0]) in names]
                    wanted = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                        a.name for a in kept]
                    for name in wanted:
                        if not _findable(name):
                            raise SliceError(MISSING, f"{name} in {module_name}")
                    copy = ast.Import(kept) if isinstance(node, ast.Import) else ast.ImportFrom(
                        node.module, kept, node.level)
                    if isinstance(node, ast.Import):
                        dotted.append((len(parts), kept))
                    parts.append(ast.unparse(copy) + "\n")
                    bound = {a.asname or a.name.split(".")[0] for a in kept}
                else:
                    parts.append(stmt.text if stmt.text.endswith("\n") else stmt.text + "\n")
                    bound = set(stmt.binds) - {"*"}
                for name in bound:
                    if owner.setdefault(name, module_name) != module_name:
                        raise SliceError(CLASH, f"{name} in {owner[name]} and {module_name}")
        for at, kept in dotted:
            parts[at] = _used_submodules(kept, parts, at)
        return "".join(_spaced(parts))


def _used_submodules(kept: list[ast.alias], parts: list[str], at: int) -> str:
    """``import a.b, a.c`` as the slice needs it: both bind ``a``, so the statement is kept
    for either; only the submodules the rest of the slice reaches as ``a.b...`` stay (an
    unused ``urllib.request`` costs a suite a tenth of a second to import). All stay when
    ``a`` is used bare or none is reached."""
    rest = ast.parse("".join(p for i, p in enumerate(parts) if i != at))
    chains: set[str] = set()
    bases: set[int] = set()   # Name nodes that start an attribute chain
    bare: set[str] = set()
    for node in ast.walk(rest):
        if isinstance(node, ast.Attribute):
            names, inner = [node.attr], node.value
            while isinstance(inner, ast.Attribute):
                names.append(inner.attr)
                inner = inner.value
            if isinstance(inner, ast.Name):
                bases.add(id(inner))
                names.append(inner.id)
                chain = names[::-1]
                chains.update(".".join(chain[:k]) for k in range(2, len(chain) + 1))
    for node in ast.walk(rest):
        if isinstance(node, ast.Name) and id(node) not in bases:
            bare.add(node.id)
    out: list[ast.alias] = []
    by_root: dict[str, list[ast.alias]] = {}
    for alias in kept:
        if alias.asname or "." not in alias.name:
            out.append(alias)
        else:
            by_root.setdefault(alias.name.split(".")[0], []).append(alias)
    for root, aliases in by_root.items():
        used = [a for a in aliases if a.name in chains]
        out.extend(aliases if root in bare or len(aliases) < 2 or not used else used)
    out.sort(key=kept.index)
    return ast.unparse(ast.Import(out)) + "\n"


def _spaced(parts: list[str]) -> Iterator[str]:
    """The statements with a blank line before and after each multi-line one."""
    previous_long = False
    for i, part in enumerate(parts):
        long = part.count("\n") > 1
        if i and (long or previous_long):
            yield "\n"
        yield part
        previous_long = long


def _relative_inside(node: ast.stmt) -> bool:
    return any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(node))


def slice_function(module: ModuleCode, node: ast.FunctionDef, resolve: Resolver, *,
                   method_of: ast.ClassDef | None = None) -> str:
    """The self-contained source of the top-level function ``node`` of ``module``.

    ``method_of``: ``node`` is a ``@staticmethod`` of that top-level class, sliced as a
    module-level function (dedented, the ``staticmethod`` decorator left out). ``resolve``
    finds the module of the source tree a ``from ... import`` names (None: not in the tree).
    Raises SliceError when the function's needs cannot be sliced.
    """
    slicer = _Slicer(resolve)
    slicer.modules[module.name] = module
    if method_of is None:
        index = module.tree.body.index(node)
        slicer.add(module, index, node.name)
        return slicer.text(module.name)
    decorators = [d for d in node.decorator_list
                  if not (isinstance(d, ast.Name) and d.id == "staticmethod")]
    first = min([node.lineno, *(d.lineno for d in decorators)])
    text = textwrap.dedent("".join(module.lines[first - 1:node.end_lineno]))
    try:
        ast.parse(text)
    except SyntaxError:  # a string literal indented less than the def
        copy = ast.FunctionDef(node.name, node.args, node.body, decorators, node.returns,
                               node.type_comment)
        text = ast.unparse(ast.fix_missing_locations(copy)) + "\n"
    own = module._analyse(ast.parse(text).body[0], text)
    for deco in decorators:
        if not _plain_decorator(deco):
            raise SliceError(DECORATOR, f"{module.name} line {deco.lineno}")
    if own.declares_global or own.mutates_at_run_time & module.containers:
        raise SliceError(RUNTIME_STATE, f"{method_of.name}.{node.name} in {module.name}")
    for read in sorted(own.reads):
        slicer.need(module, read)
    body = slicer.text(module.name)
    if node.name in module.bindings and any((module.name, i) in slicer.chosen
                                            for i in module.bindings[node.name]):
        raise SliceError(CLASH, f"{node.name} is also a module-level name of {module.name}")
    return "".join(_spaced([body, text])) if body else text
