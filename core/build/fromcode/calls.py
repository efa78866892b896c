"""Calls a function is known to be made with: its doctests and its package's own tests.

A call counts when it is one call of the function whose arguments (positional and keyword,
no ``*``/``**``) are all literals ``ast.literal_eval`` reads: numbers (negative ones
too), strings, bytes, tuples, lists, dicts, sets, ``None``, booleans. The call is written
back as ``name(args...)`` (``ast.unparse``, so the text is the same whatever the quoting of
the original), a qualified ``module.name(...)`` becoming ``name(...)``.

- :func:`doctest_calls` reads the docstring's examples (``doctest.DocTestParser``) and keeps
  each whose whole source is such a call, with its expected output as written;
- :class:`TestCalls` reads test files once and finds every such call whose callee resolves
  to a module's function: ``f(...)`` where the file did ``from module import f [as g]``,
  ``m.f(...)`` where it did ``import module [as m]`` or ``from package import module``.
  Only the call is recorded (``expected`` None), wherever it sits (``assertEqual(f(1), 2)``,
  ``self.check(f(1))``, a bare statement).

Test files that are missing or do not parse give no calls (fewer examples, never an error),
so a Python without ``Lib/test`` gives doctest examples only.
"""

from __future__ import annotations

import ast
import doctest
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Call", "TestCalls", "call_text", "doctest_calls", "is_literal"]


@dataclass(frozen=True)
class Call:
    call: str
    where_file: str
    where_line: int
    expected: str | None = None


def is_literal(node: ast.expr) -> bool:
    """True when ``ast.literal_eval`` takes the expression."""
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def call_text(node: ast.Call, name: str) -> str | None:
    """``name(args...)`` for a call whose arguments are all literals, else None."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords):
        return None
    if not all(is_literal(a) for a in node.args) or not all(is_literal(k.value)
                                                          for k in node.keywords):
        return None
    copy = ast.Call(ast.Name(name, ast.Load()), node.args, node.keywords)
    try:
        return ast.unparse(copy)
    except (ValueError, RecursionError):
        return None


def doctest_calls(docstring: str | None, name: str, module: str, file: str,
                  first_line: int) -> list[Call]:
    """The docstring's examples that are one literal call of ``name``, in docstring order.

    ``first_line`` is the file line the docstring starts on, so ``where_line`` points at the
    example's ``>>>`` line. ``module.name(...)`` calls count too.
    """
    if not docstring:
        return []
    try:
        examples = doctest.DocTestParser().get_examples(docstring)
    except ValueError:  # an inconsistently indented example
        return []
    found: list[Call] = []
    last = module.rsplit(".", 1)[-1]
    for example in examples:
        try:
            tree = ast.parse(example.source)
        except (SyntaxError, ValueError):
            continue
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
            continue
        node = tree.body[0].value
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        if not (isinstance(callee, ast.Name) and callee.id == name) and not (
                isinstance(callee, ast.Attribute) and callee.attr == name
                and ast.unparse(callee.value) in (module, last)):
            continue
        text = call_text(node, name)
        if text is not None:
            want = example.want[:-1] if example.want.endswith("\n") else example.want
            found.append(Call(text, file, first_line + example.lineno, want or None))
    return found


class TestCalls:
    """Literal calls of a module's functions in test files, read once per file."""

    def __init__(self, files: Iterable[tuple[Path, str]]) -> None:
        """``files``: (path, where-prefix) pairs, the prefix being how ``where`` names it."""
        self._files = sorted(set(files), key=lambda pair: pair[1])
        self._calls: dict[str, list[tuple[str, str, int, str]]] | None = None

    def _read(self) -> dict[str, list[tuple[str, str, int, str]]]:
        """module -> [(function, where file, line, call text)]."""
        calls: dict[str, list[tuple[str, str, int, str]]] = {}
        for path, where in self._files:
            try:
                with tokenize.open(path) as handle:
                    tree = ast.parse(handle.read(), filename=str(path))
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
                continue
            functions: dict[str, tuple[str, str]] = {}  # local name -> (module, function)
            modules: dict[str, str] = {}  # local name -> module
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for alias in node.names:
                        local = alias.asname or alias.name
                        functions[local] = (node.module, alias.name)
                        modules[local] = f"{node.module}.{alias.name}"
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.asname:
                            modules[alias.asname] = alias.name
                        else:
                            modules[alias.name] = alias.name
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                callee = node.func
                target: tuple[str, str] | None = None
                if isinstance(callee, ast.Name) and callee.id in functions:
                    target = functions[callee.id]
                elif isinstance(callee, ast.Attribute):
                    owner = ast.unparse(callee.value)
                    if owner in modules:
                        target = (modules[owner], callee.attr)
                if target is None:
                    continue
                text = call_text(node, target[1])
                if text is not None:
                    calls.setdefault(target[0], []).append(
                        (target[1], where, node.lineno, text))
        return calls

    def calls(self, module: str, name: str) -> list[Call]:
        """Calls of ``module.name``, sorted by file then line (then text)."""
        if self._calls is None:
            self._calls = self._read()
        found = sorted((where, line, text) for function, where, line, text
                       in self._calls.get(module, []) if function == name)
        return [Call(text, where, line) for where, line, text in found]
