"""Writing standard-library values the way the code under test names them.

:func:`~execretrieval.inputs.plain.to_source` writes ``datetime.date(2024, 11, 17)``, a
name that is only right where ``datetime`` is the module. A test runs in the code's own
namespace, so a generated test must use the names the code binds there and import only
names that rebind nothing the code uses. Per class reference ``M.N`` in a value's source,
given the code's top-level bindings:

1. the code runs ``from M import N``: write ``N`` (as the suite's own tests do);
2. the code runs ``import M``: write ``M.N``;
3. ``M`` is not bound: write ``M.N`` and add ``import M``;
4. ``N`` is not bound: write ``N`` and add ``from M import N``;
5. both are bound to something else: add ``import M as _erx_M`` and write ``_erx_M.N``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .rich import QUALIFIED

__all__ = ["Spelling"]


def _bindings(code: str) -> dict[str, str]:
    """Each name the code's top level binds -> ``"from M N"``, ``"import M"`` or
    ``"other"``; an empty map when the code does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    bound: dict[str, str] = {}

    def note(name: str, how: str) -> None:
        bound[name] = how if bound.get(name, how) == how else "other"

    for node in _top_level(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                note(alias.asname or top, f"import {alias.name}" if not alias.asname or
                     alias.asname == alias.name else "other")
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    note(alias.asname or alias.name,
                         f"from {node.module} {alias.name}" if node.level == 0 and (
                             not alias.asname or alias.asname == alias.name) else "other")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            note(node.name, "other")
        for target in _targets(node):
            note(target, "other")
    for each in ast.walk(tree):   # ``global x`` in a function binds a module name too
        if isinstance(each, ast.Global):
            for name in each.names:
                note(name, "other")
    return bound


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run at module level: inside ``if``, ``try``, ``with`` and
    loops, not inside functions or classes."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While)):
            out += _top_level(node.body) + _top_level(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            out += _top_level(node.body)
        elif isinstance(node, ast.Try):
            out += _top_level(node.body) + _top_level(node.orelse) + _top_level(
                node.finalbody)
            for handler in node.handlers:
                out += _top_level(handler.body)
                if handler.name:
                    out.append(ast.Assign(targets=[ast.Name(handler.name)], value=ast.Constant(0)))
    return out


def _targets(node: ast.stmt) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


@dataclass(frozen=True)
class Spelling:
    """How values are named in tests of one piece of code (see the module docstring)."""

    bound: dict[str, str]

    @classmethod
    def of(cls, code: str) -> Spelling:
        return cls(_bindings(code))

    def spell(self, source: str) -> tuple[str, tuple[str, ...]]:
        """``source`` (written by ``to_source``) with every stdlib class named as the code
        names it, and the import lines that naming needs (sorted, no duplicates)."""
        if "." not in source:
            return source, ()
        try:
            tree = ast.parse(source, mode="eval")
        except (SyntaxError, ValueError):
            return source, ()
        edits: list[tuple[int, int, str]] = []
        imports: set[str] = set()
        lines = source.encode("utf-8").split(b"\n")
        starts = [0]
        for line in lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and QUALIFIED.get(node.attr) == node.value.id):
                continue
            name, module = self._name(node.value.id, node.attr)
            imports.update(module)
            assert node.end_lineno is not None and node.end_col_offset is not None
            edits.append((starts[node.lineno - 1] + node.col_offset,
                          starts[node.end_lineno - 1] + node.end_col_offset, name))
        data = source.encode("utf-8")
        for start, end, name in sorted(edits, reverse=True):
            data = data[:start] + name.encode() + data[end:]
        return data.decode("utf-8"), tuple(sorted(imports))

    def _name(self, module: str, name: str) -> tuple[str, tuple[str, ...]]:
        bound = self.bound
        if bound.get(name) == f"from {module} {name}":
            return name, ()
        if bound.get(module) == f"import {module}":
            return f"{module}.{name}", ()
        if module not in bound:
            return f"{module}.{name}", (f"import {module}",)
        if name not in bound:
            return name, (f"from {module} import {name}",)
        return f"_erx_{module}.{name}", (f"import {module} as _erx_{module}",)
