"""The six mutation operators: each yields every candidate :class:`~.mutation.Edit`.

An operator only proposes edits; :func:`execretrieval.mutation.generate_mutants` applies
them, re-parses and rejects no-ops. Precedence is respected: where an inserted ``+ 1`` or a
swapped operand would bind differently, the edit adds the parentheses it needs.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from .source import Edit, SourceMap, function_nodes, short

__all__ = ["OPERATORS"]

Func = ast.FunctionDef | ast.AsyncFunctionDef

_BINOP = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|",
          ast.BitXor: "^", ast.BitAnd: "&", ast.MatMult: "@"}
_OPERATOR_SWAPS = {"+": ("-", "*"), "-": ("+",), "*": ("+", "/"), "/": ("*", "//"),
                   "//": ("/", "%"), "%": ("//",), "**": ("*",), "<<": (">>",),
                   ">>": ("<<",), "&": ("|", "^"), "|": ("&", "^"), "^": ("&", "|"),
                   "and": ("or",), "or": ("and",)}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
            ast.IsNot: "is not"}
_COMPARE_SWAPS = {"<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"), ">=": (">", "<="),
                  "==": ("!=",), "!=": ("==",), "in": ("not in",), "not in": ("in",),
                  "is": ("is not",), "is not": ("is",)}
_NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift,
                    ast.MatMult)

# Binding strength, low to high (the Python language reference, "Operator precedence").
_BINOP_PREC = {ast.BitOr: 6, ast.BitXor: 7, ast.BitAnd: 8, ast.LShift: 9, ast.RShift: 9,
               ast.Add: 10, ast.Sub: 10, ast.Mult: 11, ast.Div: 11, ast.FloorDiv: 11,
               ast.Mod: 11, ast.MatMult: 11, ast.Pow: 13}
_ADDITIVE = 10


def _precedence(node: ast.AST) -> int:
    if isinstance(node, ast.NamedExpr):
        return -1
    if isinstance(node, ast.Lambda):
        return 0
    if isinstance(node, ast.IfExp):
        return 1
    if isinstance(node, ast.BoolOp):
        return 2 if isinstance(node.op, ast.Or) else 3
    if isinstance(node, ast.UnaryOp):
        return 4 if isinstance(node.op, ast.Not) else 12
    if isinstance(node, ast.Compare):
        return 5
    if isinstance(node, ast.BinOp):
        return _BINOP_PREC[type(node.op)]
    if isinstance(node, ast.Await):
        return 14
    return 16


def _int_value(node: ast.AST) -> int | None:
    """The value of an int literal, or of ``-literal``; None for anything else."""
    if (isinstance(node, ast.Constant) and isinstance(node.value, int)
            and not isinstance(node.value, bool)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_value(node.operand)
        return -inner if inner is not None else None
    return None


def _wrap(text: str) -> str:
    return f"({text})"


def _is_parenthesized(text: str) -> bool:
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _additive_safe(node: ast.AST, src: SourceMap) -> bool:
    """True if ``<node> + 1`` in place of ``node`` still adds to exactly that node."""
    parent = src.parents.get(node)
    if isinstance(parent, ast.BinOp):
        return isinstance(parent.op, ast.Add) or (isinstance(parent.op, ast.Sub)
                                                 and node is parent.left)
    if isinstance(parent, (ast.UnaryOp, ast.Attribute, ast.Await)):
        return False
    if isinstance(parent, ast.Subscript) and node is parent.value:
        return False
    return not (isinstance(parent, ast.Call) and node is parent.func)


def _number_text(value: int, node: ast.AST, src: SourceMap) -> str:
    text = str(value)
    parent = src.parents.get(node)
    if value < 0 and isinstance(parent, (ast.BinOp, ast.Attribute)) and (
            not isinstance(parent, ast.BinOp) or node is parent.left):
        text = _wrap(text)  # (-1) ** 2, (-1).bit_length()
    return text


def _int_literals(func: Func, src: SourceMap) -> Iterator[tuple[ast.AST, int]]:
    """Int literals (a ``-literal`` counts once, as a whole) in mutation order."""
    for node in function_nodes(func):
        value = _int_value(node)
        if value is None:
            continue
        parent = src.parents.get(node)
        if isinstance(node, ast.Constant) and isinstance(parent, ast.UnaryOp) \
                and isinstance(parent.op, ast.USub):
            continue
        yield node, value


def _bounds(func: Func, src: SourceMap) -> Iterator[tuple[ast.AST, str]]:
    """Range/slice bounds and ``len(...)`` calls, each with its name for descriptions."""
    for node in function_nodes(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            if node.func.id == "range" and node.args:
                if len(node.args) == 1:
                    yield node.args[0], "range stop"
                else:
                    yield node.args[0], "range start"
                    yield node.args[1], "range stop"
            elif node.func.id == "len" and len(node.args) == 1:
                yield node, "length"
        elif isinstance(node, ast.Slice):
            if node.lower is not None:
                yield node.lower, "slice start"
            if node.upper is not None:
                yield node.upper, "slice end"


def off_by_one(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every int literal, not a range/slice bound, changed by +1 and by -1."""
    bound_ids = set()
    for node, _ in _bounds(func, src):
        bound_ids.add(id(node))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            bound_ids.add(id(node.right))  # the ``k`` of ``n - k`` belongs to the bound
    for node, value in _int_literals(func, src):
        if id(node) in bound_ids:
            continue
        start, end = src.span(node)
        old = src.source[start:end]
        for new in (value + 1, value - 1):
            yield Edit("off_by_one", start, end, _number_text(new, node, src), src.line_of(start),
                       f"constant `{short(old)}` changed to `{new}` {src.context(node)}")


def _shifted(node: ast.AST, delta: int, src: SourceMap) -> str:
    """Source text of ``node`` shifted by ``delta``, reusing a trailing ``± k`` if any."""
    text = src.text(node)
    value = _int_value(node)
    if value is not None:
        return _number_text(value + delta, node, src)
    constant = _int_value(node.right) if isinstance(node, ast.BinOp) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) \
            and constant is not None and isinstance(node.right, ast.Constant):
        start, _ = src.span(node)
        right_start = src.span(node.right)[0]
        op = src.find_token(src.span(node.left)[1], right_start, ("+", "-"))
        if op is not None:
            k = constant if isinstance(node.op, ast.Add) else -constant
            total = k + delta
            left = src.source[start:op[0]].rstrip()
            if total == 0:
                return left  # binds at least as tightly as ``left ± k`` did
            before = src.source[start + len(left):op[0]]
            after = src.source[op[1]:right_start]
            return f"{left}{before}{'+' if total > 0 else '-'}{after}{abs(total)}"
    sign = "+" if delta > 0 else "-"
    if _precedence(node) < _ADDITIVE:
        text = _wrap(text)
    shifted = f"{text} {sign} {abs(delta)}"
    return shifted if _additive_safe(node, src) else _wrap(shifted)


def off_by_one_boundary(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every range start/stop, slice start/end and ``len(...)`` shifted by +1 and by -1."""
    for node, what in _bounds(func, src):
        start, end = src.span(node)
        old = src.source[start:end]
        for delta in (1, -1):
            new = _shifted(node, delta, src)
            label = f"`{short(old, 40)}`" if what == "length" else f"{what} `{short(old, 40)}`"
            yield Edit("off_by_one_boundary", start, end, new, src.line_of(start),
                       f"{label} changed to `{short(new, 40)}` {src.context(node)}")


def _operator_sites(func: Func, src: SourceMap) -> Iterator[tuple[ast.AST, int, int, str]]:
    """(node, start, end, symbol) of every arithmetic, bitwise and boolean operator token."""
    for node in function_nodes(func):
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOP:
            pairs = [(node.left, node.right, _BINOP[type(node.op)])]
        elif isinstance(node, ast.AugAssign) and type(node.op) in _BINOP:
            pairs = [(node.target, node.value, _BINOP[type(node.op)] + "=")]
        elif isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            pairs = [(a, b, word) for a, b in zip(node.values, node.values[1:], strict=False)]
        else:
            continue
        for left, right, symbol in pairs:
            found = src.find_token(src.span(left)[1], src.span(right)[0], (symbol,))
            if found is not None:
                yield node, found[0], found[1], symbol


def wrong_operator(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every arithmetic, bitwise, augmented-assignment and ``and``/``or`` operator replaced."""
    for node, start, end, symbol in _operator_sites(func, src):
        base = symbol.removesuffix("=")
        suffix = symbol[len(base):]
        for new in _OPERATOR_SWAPS.get(base, ()):
            line = src.line_of(start)
            yield Edit("wrong_operator", start, end, new + suffix, line,
                       f"`{symbol}` changed to `{new + suffix}` {src.context(node)}")


def _find_words(src: SourceMap, lo: int, hi: int, symbol: str) -> tuple[int, int] | None:
    """Span of a one- or two-token operator (``not in``, ``is not``) within ``[lo, hi)``."""
    first, *rest = symbol.split()
    found = src.find_token(lo, hi, (first,))
    if found is None:
        return None
    if rest:
        second = src.find_token(found[1], hi, (rest[0],))
        return None if second is None else (found[0], second[1])
    return (found[0], found[1])


def wrong_comparison(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every comparison operator replaced by a near neighbour or its negation.

    ``<`` becomes ``<=`` or ``>`` (and so on), ``==``/``!=``, ``in``/``not in`` and
    ``is``/``is not`` swap with each other.
    """
    for node in function_nodes(func):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
            symbol = _COMPARE.get(type(op))
            if symbol is None:
                continue
            found = _find_words(src, src.span(left)[1], src.span(right)[0], symbol)
            if found is None:
                continue
            for new in _COMPARE_SWAPS[symbol]:
                yield Edit("wrong_comparison", found[0], found[1], new, src.line_of(found[0]),
                           f"`{symbol}` changed to `{new}` {src.context(node)}")


def swap_arguments(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every pair of positional call arguments, and the operands of non-commutative operators."""
    for node in function_nodes(func):
        if isinstance(node, ast.Call):
            args = [a for a in node.args if not isinstance(a, ast.Starred)]
            if len(args) != len(node.args):
                continue
            callee = short(ast.unparse(node.func), 30)
            for i in range(len(args)):
                for j in range(i + 1, len(args)):
                    (a0, a1), (b0, b1) = src.span(args[i]), src.span(args[j])
                    a, b = src.source[a0:a1], src.source[b0:b1]
                    if a == b:
                        continue
                    yield Edit("swap_arguments", a0, b1, b + src.source[a1:b0] + a,
                               args[i].lineno, f"arguments `{short(a, 30)}` and "
                               f"`{short(b, 30)}` swapped in call to `{callee}`")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, _NON_COMMUTATIVE):
            yield from _swap_operands(node, src)


def _swap_operands(node: ast.BinOp, src: SourceMap) -> Iterator[Edit]:
    symbol = _BINOP[type(node.op)]
    start, end = src.span(node)
    found = src.find_token(src.span(node.left)[1], src.span(node.right)[0], (symbol,))
    if found is None:
        return
    left = src.source[start:found[0]].rstrip()
    right = src.source[found[1]:end].lstrip()
    if left == right:
        return
    middle = src.source[start + len(left):end - len(right)]
    prec = _precedence(node)
    is_pow = isinstance(node.op, ast.Pow)
    new_left, new_right = right, left
    if not _is_parenthesized(new_left) and (_precedence(node.right) < prec
                                            or (is_pow and _precedence(node.right) <= prec)):
        new_left = _wrap(new_left)
    if not _is_parenthesized(new_right) and (
            _precedence(node.left) < 12 if is_pow else _precedence(node.left) <= prec):
        new_right = _wrap(new_right)
    yield Edit("swap_arguments", start, end, new_left + middle + new_right, node.lineno,
               f"operands of `{symbol}` swapped (`{short(left, 25)}` and `{short(right, 25)}`) "
               f"{src.context(node)}")


def remove_edge_case_check(src: SourceMap, func: Func) -> Iterator[Edit]:
    """Every guard ``if cond: return ...`` / ``if cond: raise ...`` deleted, whole lines.

    Only guards that share their block with another statement: deleting the sole statement
    of a block would not parse.
    """
    blocks: list[list[ast.stmt]] = [func.body]
    for node in function_nodes(func):
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                blocks.append(stmts)
    edits = [edit for stmts in blocks if len(stmts) >= 2 for stmt in stmts
             if (edit := _guard_removal(stmt, src)) is not None]
    yield from sorted(edits, key=lambda e: e.start)


def _guard_removal(stmt: ast.stmt, src: SourceMap) -> Edit | None:
    if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1
            and isinstance(stmt.body[0], (ast.Return, ast.Raise))):
        return None
    start, end = src.span(stmt)
    first = src.line_start(stmt.lineno)
    if src.source[first:start].strip() or not src.source[start:].startswith("if"):
        return None
    rest_of_line = src.source[end:].split("\n", 1)[0]
    if rest_of_line.strip() and not rest_of_line.strip().startswith("#"):
        return None
    stop = end + len(rest_of_line) + (1 if end + len(rest_of_line) < len(src.source) else 0)
    guard = f"if {short(src.text(stmt.test), 40)}: {short(src.text(stmt.body[0]), 40)}"
    return Edit("remove_edge_case_check", first, stop, "", stmt.lineno,
                f"guard `{guard}` removed")


OPERATORS: dict[str, Callable[[SourceMap, Func], Iterator[Edit]]] = {
    "off_by_one": off_by_one,
    "off_by_one_boundary": off_by_one_boundary,
    "wrong_operator": wrong_operator,
    "wrong_comparison": wrong_comparison,
    "swap_arguments": swap_arguments,
    "remove_edge_case_check": remove_edge_case_check,
}
