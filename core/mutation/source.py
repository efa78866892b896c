"""Where an edit can go: source spans of AST nodes, the target function, edit records.

Every mutation operator works on the canonical's AST but edits its *source text* at the exact
span of one node or token (character offsets, via :class:`SourceMap`), so a mutant keeps the
canonical's formatting everywhere except that one span.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import BuildError

__all__ = ["Edit", "SourceMap", "function_nodes", "short", "target_function"]


@dataclass(frozen=True)
class Edit:
    """One candidate edit: replace ``source[start:end]`` by ``replacement``.

    ``start``/``end`` are character offsets into the canonical; ``line`` is 1-based.
    ``description`` says what changed and where, without the line number.
    """

    bug_type: str
    start: int
    end: int
    replacement: str
    line: int
    description: str


class SourceMap:
    """Character offsets of AST nodes and tokens in one source text.

    ``ast`` column offsets count UTF-8 *bytes*; edits need *character* offsets, so every
    position goes through :meth:`offset`.
    """

    def __init__(self, source: str, tree: ast.Module) -> None:
        self.source = source
        self.tree = tree
        self.lines = source.splitlines(keepends=True)
        self._starts = [0]
        for line in self.lines:
            self._starts.append(self._starts[-1] + len(line))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self._tokens: list[tokenize.TokenInfo] | None = None

    def offset(self, lineno: int, col_bytes: int) -> int:
        """Character offset of an AST (line, byte column) position."""
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self._starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        """Character span of a node (parentheses around it excluded)."""
        return (self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.offset(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]

    def text(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def line_of(self, offset: int) -> int:
        """1-based line of a character offset."""
        lo, hi = 0, len(self._starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def line_start(self, lineno: int) -> int:
        return self._starts[lineno - 1]

    def tokens(self) -> list[tokenize.TokenInfo]:
        if self._tokens is None:
            reader = io.StringIO(self.source).readline
            self._tokens = [t for t in tokenize.generate_tokens(reader)
                            if t.type in (tokenize.OP, tokenize.NAME)]
        return self._tokens

    def find_token(self, lo: int, hi: int, strings: Iterable[str]) -> tuple[int, int, str] | None:
        """First OP/NAME token within ``[lo, hi)`` whose text is one of ``strings``."""
        wanted = set(strings)
        for tok in self.tokens():
            start = self._starts[tok.start[0] - 1] + tok.start[1]
            end = self._starts[tok.end[0] - 1] + tok.end[1]
            if start >= hi:
                break
            if start >= lo and end <= hi and tok.string in wanted:
                return (start, end, tok.string)
        return None

    def context(self, node: ast.AST) -> str:
        """Where a node sits, for a description: "in the loop condition", ..."""
        if isinstance(node, ast.stmt):
            return _statement_context(node, None, self)
        child, cur = node, self.parents.get(node)
        while cur is not None:
            if isinstance(cur, ast.IfExp) and child is cur.test:
                return "in the conditional expression"
            if isinstance(cur, ast.comprehension):
                return ("in the comprehension filter" if child in cur.ifs
                        else "in the comprehension")
            if isinstance(cur, ast.Lambda):
                return "in a lambda"
            if isinstance(cur, ast.stmt):
                return _statement_context(cur, child, self)
            child, cur = cur, self.parents.get(cur)
        return "in the function"


def _statement_context(stmt: ast.stmt, child: ast.AST | None, src: SourceMap) -> str:
    if isinstance(stmt, ast.While) and child is stmt.test:
        return "in the loop condition"
    if isinstance(stmt, ast.If) and child is stmt.test:
        keyword = "elif" if src.source[src.span(stmt)[0]:].startswith("elif") else "if"
        return f"in the {keyword} condition"
    if isinstance(stmt, ast.For):
        return "in the for loop header"
    if isinstance(stmt, ast.Return):
        return "in the return value"
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        name = short(ast.unparse(target), 30)
        return f"in the assignment to `{name}`"
    if isinstance(stmt, ast.Assert):
        return "in the assert"
    if isinstance(stmt, ast.Raise):
        return "in the raise statement"
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        return f"in the call to `{short(ast.unparse(stmt.value.func), 30)}`"
    return "in the statement"


def short(text: str, limit: int = 60) -> str:
    """Collapse whitespace and cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def target_function(tree: ast.Module, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The top-level definition of ``name`` (the last one, as Python would bind it)."""
    found = [n for n in tree.body
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    if not found:
        raise BuildError(f"the code does not define {name}() at top level")
    return found[-1]


def function_nodes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """Nodes of the function body that may be mutated: not the docstring, not f-strings.

    f-string internals are skipped because their positions are unreliable before 3.12.
    """
    body: Sequence[ast.stmt] = func.body
    if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        body = body[1:]
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.JoinedStr):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
