"""Plain data as Python source, and back, without evaluating anything.

Inputs and outputs travel between the sandbox and the engine as the Python source of
plain data (``None``, ``bool``, ``int``, ``float``, ``complex``, ``str``, ``bytes``,
``bytearray``, ``datetime`` ``date`` / ``datetime`` / ``time`` / ``timedelta`` /
``timezone`` (fixed offsets), ``fractions.Fraction``, ``decimal.Decimal`` and exact
``list`` / ``tuple`` / ``dict`` / ``set`` / ``frozenset`` / ``collections.Counter`` /
``OrderedDict`` / ``defaultdict`` (of a built-in type) / ``deque`` of them; the oracle's
plain-data rule, checked with ``type() is``), so nothing the sandbox sends is unpickled or
``eval``-ed in the engine: :func:`from_source` walks the AST of a literal and builds the
value itself.

:func:`to_source` is written self-contained (no module globals, only builtins) because the
sandbox side runs the very same function: its source is pasted into the generated tests
(:data:`SANDBOX_SOURCE`), so both sides write values the same way. Values of the standard
library's types are written with their module's name (``datetime.date(2024, 11, 17)``,
``fractions.Fraction(1, 3)``), as their reprs are; :mod:`.spelling` writes them with the
names the code under test imports, and the import lines a generated test needs. Sets are
written with their elements sorted by source text, so the same set reads the same under
every hash seed.
"""

from __future__ import annotations

import ast
import inspect
import math
from typing import Any

from ..errors import InputFormatError
from .rich import rich_value

__all__ = ["MAX_SOURCE", "SANDBOX_SOURCE", "call_source", "from_source", "to_source"]

#: longest source of one value either side accepts; longer values are not plain enough
MAX_SOURCE = 2000


def to_source(value, _depth=0):  # type: ignore[no-untyped-def]
    """Python source that evaluates back to ``value``; ValueError when ``value`` is not
    plain data, holds NaN, nests deeper than 30 or has more than 2000 characters."""
    t = type(value)
    if _depth > 30:
        raise ValueError("nested too deep")
    if value is None or t is bool:
        return repr(value)
    if t is int:
        if -(10 ** 30) < value < 10 ** 30:
            return repr(value)
        raise ValueError("integer too large")
    if t is float:
        if value != value:
            raise ValueError("NaN is not equal to itself")
        if value in (float("inf"), float("-inf")):
            return "float('inf')" if value > 0 else "-float('inf')"
        return repr(value)
    if t is complex:
        return "complex(" + to_source(value.real, _depth + 1) + ", " + \
            to_source(value.imag, _depth + 1) + ")"
    if t is str or t is bytes:
        text = repr(value)
        if len(text) > 2000:
            raise ValueError("too long")
        return text
    if t is list or t is tuple or t is set or t is frozenset:
        if len(value) > 400:
            raise ValueError("too long")
        items = [to_source(v, _depth + 1) for v in value]
        if t is set or t is frozenset:
            items.sort()
        body = ", ".join(items)
        if len(body) > 2000:
            raise ValueError("too long")
        if t is list:
            return "[" + body + "]"
        if t is tuple:
            return "(" + body + ("," if len(items) == 1 else "") + ")"
        if t is set:
            return "{" + body + "}" if items else "set()"
        return "frozenset({" + body + "})" if items else "frozenset()"
    if t is dict:
        if len(value) > 400:
            raise ValueError("too long")
        body = ", ".join(to_source(k, _depth + 1) + ": " + to_source(v, _depth + 1)
                         for k, v in value.items())
        if len(body) > 2000:
            raise ValueError("too long")
        return "{" + body + "}"
    if t is bytearray:
        return "bytearray(" + to_source(bytes(value), _depth + 1) + ")"
    # the standard library's types, told by module and name (no import here: a test
    # that names a module makes the sandbox watch it after every test)
    module, name = getattr(t, "__module__", ""), getattr(t, "__qualname__", "")
    if module == "datetime" and name in ("date", "timedelta", "timezone", "datetime", "time"):
        if name in ("datetime", "time"):
            zone = value.tzinfo
            if zone is not None and (type(zone).__module__ != "datetime"
                                     or type(zone).__qualname__ != "timezone"):
                raise ValueError("a time zone other than a fixed offset")
        return repr(value)   # datetime.date(2024, 11, 17), datetime.timedelta(days=1)
    if module == "fractions" and name == "Fraction":
        return ("fractions.Fraction(" + to_source(value.numerator, _depth + 1) + ", "
                + to_source(value.denominator, _depth + 1) + ")")
    if module == "decimal" and name == "Decimal":
        if value.is_nan():
            raise ValueError("NaN is not equal to itself")
        return "decimal." + repr(value)
    if module == "collections" and name in ("Counter", "OrderedDict"):
        return "collections." + name + "(" + to_source(dict(value), _depth + 1) + ")"
    if module == "collections" and name == "defaultdict":
        factory = value.default_factory
        names = {int: "int", list: "list", set: "set", str: "str", float: "float",
                 dict: "dict", tuple: "tuple", bool: "bool", frozenset: "frozenset"}
        if factory is not None and (type(factory) is not type or factory not in names):
            raise ValueError("a defaultdict whose factory is not a built-in type")
        return ("collections.defaultdict(" + (names[factory] if factory else "None")
                + ", " + to_source(dict(value), _depth + 1) + ")")
    if module == "collections" and name == "deque":
        items = to_source(list(value), _depth + 1)
        if value.maxlen is None:
            return "collections.deque(" + items + ")"
        return "collections.deque(" + items + ", maxlen=" + repr(value.maxlen) + ")"
    raise ValueError("not plain data: " + t.__name__)


#: :func:`to_source` as source text, for the sandbox side of generated tests
SANDBOX_SOURCE = inspect.getsource(to_source).replace("to_source(", "_erx_src(") \
    .replace("  # type: ignore[no-untyped-def]", "")


def call_source(function: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """``f(1, 'a', key=[2])``: the call of ``function`` on plain-data arguments."""
    parts = [to_source(a) for a in args]
    parts += [f"{k}={to_source(v)}" for k, v in kwargs.items()]
    return f"{function}({', '.join(parts)})"


_NUMBER = (int, float, complex)


def from_source(text: str, *, where: str = "<plain data>") -> Any:
    """The plain value ``text`` (as written by :func:`to_source`) stands for.

    Accepts literals, displays of lists, tuples, dicts and sets, ``set()``,
    ``frozenset(...)``, ``complex(a, b)`` and ``float('inf')``; anything else is an
    InputFormatError naming ``where``. Nothing is evaluated.
    """
    if len(text) > 20 * MAX_SOURCE:
        raise InputFormatError("plain data too long", file=where)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError) as exc:
        raise InputFormatError(f"not Python source of plain data: {exc}", file=where) from exc
    try:
        return _value(tree.body)
    except (ValueError, TypeError, RecursionError) as exc:
        raise InputFormatError(f"not plain data: {exc}", file=where) from exc


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant) and type(node.value) in (
            int, float, complex, str, bytes, bool, type(None)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value(node.operand)
        if type(inner) not in _NUMBER:
            raise ValueError("a sign on something other than a number")
        return -inner if isinstance(node.op, ast.USub) else +inner
    if isinstance(node, ast.List):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    if isinstance(node, ast.Set):
        return {_value(e) for e in node.elts}
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("** in a dict display")
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values, strict=True)
                if k is not None}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        name, args = node.func.id, node.args
        if name == "set" and not args:
            return set()
        if name == "frozenset" and len(args) <= 1:
            return frozenset(_value(args[0]) if args else ())
        if name == "complex" and len(args) == 2:
            real, imag = _value(args[0]), _value(args[1])
            if type(real) is float or type(real) is int:
                return complex(real, imag)
        if (name == "float" and len(args) == 1 and isinstance(args[0], ast.Constant)
                and args[0].value in ("inf", "-inf")):
            return math.inf if args[0].value == "inf" else -math.inf
        if name == "bytearray" and len(args) == 1:
            inner = _value(args[0])
            if type(inner) is bytes:
                return bytearray(inner)
    if isinstance(node, (ast.Call, ast.Attribute)):
        return rich_value(node, _value)
    raise ValueError(f"{type(node).__name__} is not allowed")
