"""Inside the sandbox: the pieces that keep verdicts honest (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. Three parts:

* ``HOOKS``: source of the equality function and the explainer, executed in bare
  globals so that nothing in them leads back to runner modules. Every name they use is a
  default argument (a tuple, immutable; assigning ``__defaults__`` or ``__code__`` of a
  protected function is refused by the guard), never a global or a closure cell, because
  candidates can reach these functions (frames, the tests' code constants) and could
  otherwise rebind what they call. (The audit hooks and the judge's helpers are
  ``CHANNEL`` in ``_sandbox_channel.py``, executed the same way.)
* :func:`compile_test`: parses a test and rewrites every ``==`` / ``!=`` into a call of the
  runner-held equality function (placed into the code object's constants, so no name
  lookup the candidate could shadow leads to it). A bare ``assert A op B`` (``op`` one of
  ``== != < <= > >= in not in``, no message) becomes a call of the runner-held explainer,
  which evaluates both sides once, in order, compares them the same way and, when the
  comparison is false, fails the test with both values: "returned -1, expected 0" when
  exactly one side calls something (that side "returned"), else "-1 == 0 is false".
  Values are shown with the built-in ``repr`` of plain data only, truncated; anything else
  shows as ``<a T object>``, so no candidate code runs to describe a failure.
* The plain-data rule, enforced by that function: when one side of ``==`` / ``!=`` is plain
  data (exact ``int``, ``float``, ``complex``, ``bool``, ``str``, ``bytes``, ``None``, and
  exact ``list`` / ``tuple`` / ``dict`` / ``set`` / ``frozenset`` of plain data, checked
  with ``type() is``, never ``isinstance``), the other side must be plain data too, or the
  test is an ``error`` that says so (recorded in the channel, so catching the exception
  does not help). Two plain values are compared by the built-in types' own equality,
  which no candidate can replace. Comparisons where neither side is plain data (objects
  of classes the code defines, e.g. two dataclasses) keep normal Python semantics.
  ``pytest.approx`` of plain numbers compares with plain data inside the runner.
"""

from __future__ import annotations

import ast
import warnings

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HOOKS", "compile_test"]


_constant: Any = ast.Constant  # (typeshed does not allow a tuple; compile() does)


def _located(node: Any, where: ast.AST) -> Any:
    for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        setattr(node, name, getattr(where, name, None))
    return node


def _rewritten(node: ast.Compare, eq_name: str, chain_name: str) -> Any:
    """``a == b`` -> ``EQ(a, b, False)``; a chain with == or != -> ``CHAIN(ops, thunks)``."""
    if len(node.ops) == 1:
        return _located(ast.Call(
            func=_located(ast.Constant(eq_name), node),
            args=[node.left, node.comparators[0],
                  _located(ast.Constant(isinstance(node.ops[0], ast.NotEq)), node)],
            keywords=[]), node)
    names = tuple(type(op).__name__ for op in node.ops)
    thunks = [_located(ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                     kwonlyargs=[], kw_defaults=[],
                                                     kwarg=None, defaults=[]),
                                  body=operand), operand)
              for operand in [node.left, *node.comparators]]
    return _located(ast.Call(func=_located(ast.Constant(chain_name), node),
                             args=[_located(_constant(names), node), *thunks],
                             keywords=[]), node)


def _rewrite(tree: ast.AST, eq_name: str, chain_name: str, source: str = "") -> None:
    """Replace, in place, every comparison with == or != in it (deepest parents first, so
    a comparison inside another is replaced before the outer one reads its operands)."""
    body = getattr(tree, "body", None)
    if (source.count("==") + source.count("!=") == 1 and isinstance(body, list)
            and len(body) == 1 and isinstance(body[0], ast.Assert)
            and isinstance(body[0].test, ast.Compare) and len(body[0].test.ops) == 1
            and isinstance(body[0].test.ops[0], (ast.Eq, ast.NotEq))):
        # the usual test, ``assert A == B``: its only == is the one at the top
        body[0].test = _rewritten(body[0].test, eq_name, chain_name)
        return
    compares = [n for n in ast.walk(tree) if isinstance(n, ast.Compare)
                and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in n.ops)]
    if not compares:
        return
    wanted = {id(n) for n in compares}
    parents = [n for n in ast.walk(tree) if not isinstance(n, ast.expr_context)]
    for parent in reversed(parents):  # ast.walk is breadth-first
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for k, item in enumerate(value):
                    if id(item) in wanted:
                        value[k] = _rewritten(item, eq_name, chain_name)
            elif id(value) in wanted:
                setattr(parent, field, _rewritten(value, eq_name, chain_name))


_EXPLAINED = {ast.Eq: "Eq", ast.NotEq: "NotEq", ast.Lt: "Lt", ast.LtE: "LtE", ast.Gt: "Gt",
              ast.GtE: "GtE", ast.In: "In", ast.NotIn: "NotIn"}


# Calls that build an expected value rather than compute the answer under test.
_BUILDERS = frozenset({"list", "tuple", "set", "frozenset", "dict", "range", "str", "int",
                       "float", "bool", "bytes", "complex", "sorted", "reversed", "len",
                       "abs", "round", "sum", "min", "max", "enumerate", "zip", "map",
                       "filter", "approx"})


def _calls(node: ast.AST) -> bool:
    """Whether ``node`` calls something other than a builder of expected values."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            func = n.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name not in _BUILDERS:
                return True
    return False


def _explain_asserts(tree: ast.AST, explain_name: str) -> None:
    """``assert A op B`` (no message) -> ``EXPLAIN("Op", A, B, side)`` in place; ``side``
    is "left" / "right" when only that operand calls something, else ""."""
    for parent in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(parent, field, None)
            if not isinstance(block, list):
                continue
            for k, stmt in enumerate(block):
                test = stmt.test if isinstance(stmt, ast.Assert) else None
                if (stmt.__class__ is not ast.Assert or stmt.msg is not None
                        or not isinstance(test, ast.Compare) or len(test.ops) != 1
                        or type(test.ops[0]) not in _EXPLAINED):
                    continue
                left, right = test.left, test.comparators[0]
                side = ("left" if _calls(left) and not _calls(right) else
                        "right" if _calls(right) and not _calls(left) else "")
                func, op = ast.Constant(explain_name), ast.Constant(_EXPLAINED[type(test.ops[0])])
                where = ast.Constant(side)
                call = ast.Call(func=func, args=[op, left, right, where], keywords=[])
                expr = ast.Expr(value=call)
                for node in (func, op, where, call, expr):
                    _located(node, stmt)
                block[k] = expr


def _swap_constants(code, swaps: dict):  # type: ignore[no-untyped-def]
    consts = []
    for const in code.co_consts:
        if type(const) is str and const in swaps:
            const = swaps[const]
        elif type(const) is type(code):
            const = _swap_constants(const, swaps)
        consts.append(const)
    return code.replace(co_consts=tuple(consts))


def compile_test(tree: ast.Module, eq, chain, salt: str,  # type: ignore[no-untyped-def]
                 source: str = "", explain=None):
    """Compile a parsed test with its comparisons routed through ``eq`` / ``chain`` and
    (given ``explain``) its bare comparison asserts through ``explain``.

    ``salt`` makes the placeholder constants unguessable, so a test's own string constants
    are never mistaken for them. Raises SyntaxError / ValueError like ``compile``.
    """
    eq_name, chain_name = f"\0erxr-eq-{salt}", f"\0erxr-chain-{salt}"
    explain_name = f"\0erxr-explain-{salt}"
    swaps = {eq_name: eq, chain_name: chain}
    if explain is not None:
        _explain_asserts(tree, explain_name)
        swaps[explain_name] = explain
    _rewrite(tree, eq_name, chain_name, source)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "'str' object is not callable" on the placeholder
        code = compile(tree, "<test>", "exec")
    return _swap_constants(code, swaps)


HOOKS = r'''
def make_eq(approx, audit, lt, le, gt, ge, contains, is_, is_not, not_, counter, ordered):
    # Every name below is a default argument: nothing a candidate can rebind.
    def eq(a, b, negate=False, _type=type, _int=int, _float=float, _complex=complex,
           _bool=bool, _str=str, _bytes=bytes, _none=type(None), _list=list, _tuple=tuple,
           _dict=dict, _set=set, _frozenset=frozenset, _id=id, _extend=list.extend,
           _pop=list.pop, _add=set.add, _keys=dict.keys, _values=dict.values, _approx=approx,
           _getattr=object.__getattribute__, _abs=abs, _max=max, _len=len, _zip=zip,
           _audit=audit, _error=TypeError, _qualname=type.__dict__["__qualname__"].__get__,
           _tmodule=type.__dict__["__module__"].__get__, _mro=type.__dict__["__mro__"].__get__,
           _tdict=type.__dict__["__dict__"].__get__, _items=dict.items, _counter=counter,
           _ordered=ordered, _iters=(list.__iter__, tuple.__iter__, set.__iter__,
                                      frozenset.__iter__)):
        """The test's ``a == b`` (``a != b`` if ``negate``) under the plain-data rule."""
        if _type(a) is _counter or _type(a) is _ordered:  # as the dict they hold
            a = _dict(_items(a))
        if _type(b) is _counter or _type(b) is _ordered:
            b = _dict(_items(b))
        plain, odd = [], []  # per side: 0 plain data, 1 plain-like (subclasses keeping
        for root in (a, b):  # the base's equality and hash: namedtuples, IntEnum, ...), 2 else
            stack, seen, kind = [root], _set(), 0
            while stack:
                x = _pop(stack)
                t = _type(x)
                if (t is _int or t is _str or t is _float or t is _bool or t is _none
                        or t is _bytes or t is _complex):
                    continue
                if t is _list or t is _tuple or t is _set or t is _frozenset or t is _dict:
                    if _id(x) in seen:
                        continue
                    _add(seen, _id(x))
                    if t is _dict:
                        _extend(stack, _keys(x))
                        _extend(stack, _values(x))
                    else:
                        _extend(stack, x)
                    continue
                base = None
                for k in _mro(t):
                    if (k is _int or k is _str or k is _float or k is _bytes
                            or k is _complex or k is _tuple or k is _list or k is _dict
                            or k is _set or k is _frozenset):
                        base = k
                        break
                    own = _tdict(k)
                    if "__eq__" in own or "__ne__" in own or "__hash__" in own:
                        break
                if base is None:
                    kind = 2
                    odd.append(t)
                    break
                kind = 1
                if _id(x) in seen:
                    continue
                _add(seen, _id(x))
                if base is _dict:
                    _extend(stack, _keys(x))
                    _extend(stack, _values(x))
                elif base is _list:
                    _extend(stack, _iters[0](x))
                elif base is _tuple:
                    _extend(stack, _iters[1](x))
                elif base is _set:
                    _extend(stack, _iters[2](x))
                elif base is _frozenset:
                    _extend(stack, _iters[3](x))
            plain.append(kind)
        kind_a, kind_b = plain
        if kind_a <= 1 and kind_b <= 1:
            # every node compares with its built-in type's own equality: nothing to fool
            return (a != b) if negate else (a == b)
        for expected, other, other_kind in ((a, b, kind_b), (b, a, kind_a)):
            if _type(expected) is _approx and other_kind == 0:
                want = _getattr(expected, "expected")
                rel, tol = _getattr(expected, "rel"), _getattr(expected, "abs")
                pairs = [(other, want)]
                if _type(want) is _list or _type(want) is _tuple:
                    if _type(other) is not _list and _type(other) is not _tuple:
                        return negate
                    if _len(other) != _len(want):
                        return negate
                    pairs = _list(_zip(other, want))
                for x, y in pairs:
                    if not (x == y or _abs(x - y) <= _max(rel * _abs(y), tol)):
                        return negate
                return not negate
        if kind_a <= 1 or kind_b <= 1:
            t = odd[0]
            module = _tmodule(t)
            name = (module + "." if _type(module) is _str else "") + _qualname(t)
            message = ("plain-data comparison: the test compares plain data with an object of "
                       "type " + name + "; plain data "
                       "(numbers, str, bytes, bool, None and lists/tuples/dicts/sets of them, "
                       "exact built-in types) is only compared with plain data")
            _audit("erxr.plain", message.encode("utf-8", "replace"))
            raise _error(message)
        return (a != b) if negate else (a == b)


    def compare(name, left, right, _eq=eq, _lt=lt, _le=le, _gt=gt, _ge=ge,
                _contains=contains, _is=is_, _is_not=is_not, _not=not_):
        """``left <name> right`` for an ``ast.cmpop`` class name, == and != under the rule."""
        if name == "Eq":
            return _eq(left, right, False)
        if name == "NotEq":
            return _eq(left, right, True)
        if name == "Lt":
            return _lt(left, right)
        if name == "LtE":
            return _le(left, right)
        if name == "Gt":
            return _gt(left, right)
        if name == "GtE":
            return _ge(left, right)
        if name == "Is":
            return _is(left, right)
        if name == "IsNot":
            return _is_not(left, right)
        if name == "In":
            return _contains(right, left)
        return _not(_contains(right, left))   # NotIn

    def chain(names, *thunks, _compare=compare, _zip=zip):
        """A chained comparison with == or != in it: each operand evaluated once, in order."""
        left = thunks[0]()
        result = True
        for name, thunk in _zip(names, thunks[1:]):
            right = thunk()
            result = _compare(name, left, right)
            if not result:
                return result
            left = right
        return result
    return eq, chain, compare


def make_explain(compare, approx, assertion_error):
    # Every name below is a default argument: nothing a candidate can rebind.
    def explain(op, a, b, side, _compare=compare, _error=assertion_error, _type=type,
                _repr=repr, _len=len, _id=id, _int=int, _float=float, _complex=complex,
                _bool=bool, _str=str,
                _bytes=bytes, _none=type(None), _list=list, _tuple=tuple, _dict=dict,
                _set=set, _frozenset=frozenset, _pop=list.pop, _extend=list.extend,
                _add=set.add, _keys=dict.keys, _values=dict.values, _approx=approx,
                _getattr=object.__getattribute__, _qualname=type.__dict__["__qualname__"].__get__):
        """``assert a <op> b``: nothing if true, else AssertionError naming both values."""
        if _compare(op, a, b):
            return
        shown = []
        for value in (a, b):
            stack, seen, plain = [value], _set(), True
            while stack and plain:
                x = _pop(stack)
                t = _type(x)
                if (t is _int or t is _str or t is _float or t is _bool or t is _none
                        or t is _bytes or t is _complex):
                    continue
                if t is _list or t is _tuple or t is _set or t is _frozenset or t is _dict:
                    if _id(x) not in seen:
                        _add(seen, _id(x))
                        _extend(stack, _keys(x) if t is _dict else x)
                        if t is _dict:
                            _extend(stack, _values(x))
                    continue
                plain = False
            if plain:
                text = _repr(value)
            elif _type(value) is _approx and _type(_getattr(value, "expected")) in (
                    _int, _float, _list, _tuple):
                text = "approx(" + _repr(_getattr(value, "expected")) + ")"
            else:
                text = "<a " + _qualname(_type(value)) + " object>"
            if _len(text) > 120:
                text = text[:117] + "..."
            shown.append(text)
        sa, sb = shown
        symbol = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
                  "In": "in", "NotIn": "not in"}[op]
        if side == "left":
            got, want = sa, {"Eq": sb, "NotEq": "anything but " + sb, "In": "one of " + sb,
                             "NotIn": "none of " + sb}.get(op, symbol + " " + sb)
        elif side == "right":
            mirror = {"Lt": ">", "LtE": ">=", "Gt": "<", "GtE": "<="}
            got, want = sb, {"Eq": sa, "NotEq": "anything but " + sa,
                             "In": "something containing " + sa,
                             "NotIn": "something not containing " + sa}.get(
                                 op, mirror.get(op, "") + " " + sa)
        else:
            raise _error(sa + " " + symbol + " " + sb + " is false")
        raise _error("returned " + got + ", expected " + want)
    return explain
'''
