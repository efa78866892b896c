"""The names a test reads from its canonical's module, and the imports a test carries.

A test runs in globals copied from the candidate's module namespace (the README's "A test's
inputs are the judge's"), so a name the test reads without binding it is whatever the
candidate binds. :func:`with_imports` gives each test of a seed task the canonical's
top-level import statements for the names it reads, so ``date`` in
``assert add_months_clamped(date(2024, 1, 31), 1) == date(2024, 2, 29)`` is the runner's
pinned ``datetime.date``, not a ``class date`` of the candidate's whose instances equal
everything. Only imports: a class or function the canonical defines may be what the function
raises or returns, and a copy in the test would not be the canonical's object
(``pytest.raises`` of a copied exception class would never match).
HumanEval's :func:`~execretrieval.build.humaneval.with_helpers` builds on the same readers.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

__all__ = ["names_read", "top_level_names", "with_imports"]


def names_read(node: ast.AST) -> set[str]:
    """Every name ``node`` loads, nested functions and lambdas included."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}


def top_level_names(stmt: ast.stmt) -> set[str]:
    """The module names a top-level statement binds (a def's own name, not its locals)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def _read_before_bound(test: ast.Module) -> set[str]:
    """The names the test reads in a statement at or before the first one that binds them
    (a name it binds itself first, ``from datetime import date as d`` then ``d(...)``, is
    its own)."""
    bound: set[str] = set()
    read: set[str] = set()
    for stmt in test.body:
        read |= names_read(stmt) - bound
        bound |= top_level_names(stmt)
    return read


def _import_binders(canonical: ast.Module,
                    entry_point: str) -> dict[str, tuple[ast.Import | ast.ImportFrom, ast.alias]]:
    """Each name whose last top-level binding in the canonical is an import, with the
    statement and the part of it that binds the name (a name rebound after its import is
    not the import's)."""
    binders: dict[str, tuple[ast.Import | ast.ImportFrom, ast.alias] | None] = {}
    for stmt in canonical.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                binders[(alias.asname or alias.name).split(".")[0]] = (stmt, alias)
        else:
            binders.update(dict.fromkeys(top_level_names(stmt)))
    return {name: found for name, found in binders.items()
            if found is not None and name != entry_point}


def _import_line(stmt: ast.Import | ast.ImportFrom, aliases: list[ast.alias]) -> str:
    """``stmt`` binding only ``aliases``, in its own order."""
    names = [a for a in stmt.names if any(a is b for b in aliases)]
    if isinstance(stmt, ast.ImportFrom):
        return ast.unparse(ast.ImportFrom(module=stmt.module, names=names, level=stmt.level))
    return ast.unparse(ast.Import(names=names))


def with_imports(tests: Sequence[str], canonical: str, entry_point: str) -> tuple[str, ...]:
    """Each test with the canonical's top-level imports of the names it reads prepended.

    Only the names the test reads (``from datetime import date, timedelta`` gives a test
    that reads ``date`` alone ``from datetime import date``), as the canonical aliases them,
    in the canonical's order, one statement per canonical statement; ``import m`` comes with
    a test that reads ``m.x``. A test that binds the name itself before reading it, or
    reads none, is unchanged; so is a test that already starts with the imports (running
    this twice gives the same tests).
    """
    binders = _import_binders(ast.parse(canonical), entry_point)
    out = []
    for test in tests:
        chosen: dict[tuple[int, int], tuple[ast.Import | ast.ImportFrom, list[ast.alias]]] = {}
        for name in sorted(_read_before_bound(ast.parse(test)) & binders.keys()):
            stmt, alias = binders[name]
            chosen.setdefault((stmt.lineno, stmt.col_offset), (stmt, []))[1].append(alias)
        lines = [_import_line(stmt, aliases) for _, (stmt, aliases) in sorted(chosen.items())]
        out.append("\n".join([*lines, test]))
    return tuple(out)
