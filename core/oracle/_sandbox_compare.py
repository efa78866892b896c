"""The comparison rules of the oracle: what a test's comparison means (stdlib only).

Used inside the sandbox by the fork server (``_sandbox_runner.py`` builds them once, before
any candidate code runs) and importable anywhere as :func:`build` (the engine's tests; a
differential run comparing two programs' outputs calls ``values_equal``). Four sources, each
executed in bare globals (every name their functions use is a default argument: a tuple,
immutable; never a global, a builtin or a closure cell; no keyword-only defaults, whose
dict would be mutable), so a candidate that reaches these functions (through a test's code
constants) cannot rebind what they call; the guard refuses changes to their ``__code__`` and
``__defaults__``:

* ``_sandbox_plain.py``: what plain data is (:func:`classify`), without running candidate code;
* ``_sandbox_rich.py``: plain values holding a Fraction or Counter, compared as CPython does;
* ``COMPARE`` here: the rule and the entry points;
* ``_sandbox_explain.py``: failing asserts explained, values shown by the runner.

**The plain-data rule**, for every ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=`` of a test
(chains included) and every ``in`` / ``not in`` whose container is plain data: when one side
is plain data the other must be plain data too, or the test is an ``error`` that says so
(recorded in the channel, so catching the exception does not help). ``pytest.approx``
compares only with a number (int, float, bool, complex, Fraction, Decimal) or a list, tuple
or dict of numbers, by the runner's own arithmetic (pytest's tolerances: ``rel`` 1e-6 and
``abs`` 1e-12 by default, ``abs`` alone when only it is given). Comparisons where neither
side is plain data keep Python's semantics, and so does ``in`` on a container that is not
plain data (the candidate's own container class decides).

**How plain values compare**: exactly as CPython 3.11. Values made only of C types are
compared by the interpreter itself (their types are immutable: no Python-level method can
run); a value holding a ``Fraction`` or ``Counter`` (written in Python) is compared by
:func:`rich` from primitives taken before any candidate ran, so patching
``Fraction.__eq__``, ``Counter.__eq__``, ``builtins.isinstance`` or ``fractions.math``
changes nothing. ``tests/test_comparison_rules.py`` checks the agreement with CPython.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)

if TYPE_CHECKING:
    from typing import Any
if TYPE_CHECKING or __package__:  # in the engine (tools, tests); the server: bare
    from ._sandbox_code import load as load_code
    from ._sandbox_explain import EXPLAIN
    from ._sandbox_plain import PLAIN
    from ._sandbox_rich import RICH
else:
    from _sandbox_code import load as load_code
    from _sandbox_explain import EXPLAIN
    from _sandbox_plain import PLAIN
    from _sandbox_rich import RICH

__all__ = ["build"]

COMPARE = r'''
def make_compare(plain, rich, audit, approx_type, error, fraction, decimal, isnan,
                 isinf, operators, truth, not_, contains, arithmetic, threads):
    SYMBOLS = plain["SYMBOLS"]
    module_of = plain["module_of"]
    qualname_of = plain["qualname_of"]
    classify = plain["classify"]
    numeric = plain["numeric"]
    children = plain["children"]
    contains_rich = rich["contains_rich"]
    index = rich["index"]
    rich = rich["rich"]

    def violation(x, approx, _classify=classify, _children=children, _type=type,
                  _pop=list.pop, _extend=list.extend, _module=module_of, _qualname=qualname_of,
                  _str=str, _audit=audit, _error=error):
        """Record (in the channel, so catching does not help) and raise the rule's error,
        naming the first part of ``x`` that is not plain data."""
        stack, t = [x], _type(x)
        while stack:
            y = _pop(stack)
            if _classify(y) != 2:
                continue
            kids = _children(y)
            if kids is None:
                t = _type(y)
                break
            _extend(stack, kids)
        module = _module(t)
        name = (module + "." if _type(module) is _str and module != "builtins" else "") \
            + _qualname(t)
        if approx == 2:
            message = ("plain-data arithmetic: the test computes with plain data and an "
                       "object of type " + name + " (whose own operator would decide what "
                       "the test then compares, e.g. abs(f(x) - y) < 1e-6); plain data is "
                       "only combined with plain data")
            if module == "pathlib":  # (a call is no operator: the path's own class joins)
                message += "; a path joins as pathlib.Path(base, 'name') or os.path.join"
        elif approx:
            message = ("plain-data comparison: pytest.approx compares only with numbers "
                       "(int, float, bool, complex, Fraction, Decimal) or a list, tuple or "
                       "dict of them, not with an object of type " + name)
        else:
            message = ("plain-data comparison: the test compares plain data with an object "
                       "of type " + name + "; plain data (numbers, str, bytes, None, "
                       "Fraction, Decimal, datetime values and lists/tuples/dicts/sets/"
                       "collections containers of them, exact types) is only compared with "
                       "plain data")
            if name == "unittest.mock._Call":  # (a recorded call: mock's own class)
                message += ("; compare a recorded call with unittest.mock.call(...), or its "
                            ".args and .kwargs with plain data")
        _audit("erxr.plain", message.encode("utf-8", "replace"))
        raise _error(message)

    tz_of = plain["tz_of"]
    timezone = plain["timezone"]
    # exact types whose values nothing can change once made (not bytearray, not Fraction:
    # its slots can be set; not a subclass: its __class__ can be swapped)
    frozen = frozenset(t for t in plain["scalars"] if t is not bytearray)
    stirring = ("plain-data comparison: the test compares (or computes with) a value that "
                "can change (a list, dict, set, bytearray, Fraction, collections container "
                "or a subclass's instance) while a thread the candidate started is still "
                "running, which could change it between the runner's check and the "
                "comparison; end the thread first, or compare values nothing can change "
                "(numbers, str, bytes, None, tuples and frozensets of them)")

    def still(x, _type=type, _tt=plain["type_type"], _frozen=frozen, _tuple=tuple,
              _frozenset=frozenset, _dt=plain["datetime"], _time=plain["time"], _tz=tz_of,
              _timezone=timezone, _pop=list.pop, _extend=list.extend):
        """Whether nothing can change ``x``: exact immutable types all the way down."""
        stack = [x]
        while stack:
            y = _pop(stack)
            t = _type(y)
            if _type(t) is not _tt:
                return False
            if t in _frozen:
                continue
            if t is _tuple or t is _frozenset:
                _extend(stack, y)
            elif t is _dt or t is _time:
                zone = _tz[0](y) if t is _dt else _tz[1](y)
                if zone is not None and _type(zone) is not _timezone:
                    return False
            else:
                return False
        return True

    def settled(a, b, container, _still=still, _classify=classify, _audit=audit,
                _error=error, _text=stirring.encode(), _message=stirring):
        """While a thread of the candidate runs (``threads()`` > 0): both sides must be
        values nothing can change, unless neither is plain data (``container``: only
        ``b`` decides, as for ``in``)."""
        if _still(a) and _still(b):
            return
        if _classify(b) == 2 and (container or _classify(a) == 2):
            return  # Python's own semantics: nothing of the rule to fool
        _audit("erxr.plain", _text)
        raise _error(_message)

    def is_number(x, _numeric=numeric, _type=type, _fraction=fraction, _classify=classify):
        return _numeric(x) is not None and (_type(x) is not _fraction or _classify(x) != 2)

    def numbers_only(x, _is_number=is_number, _type=type, _list=list, _tuple=tuple,
                     _dict=dict, _items=dict.items, _classify=classify):
        """A number, or an exact list / tuple / dict (plain keys) of numbers."""
        if _is_number(x):
            return True
        t = _type(x)
        if t is _list or t is _tuple:
            for e in x:
                if not _is_number(e):
                    return False
            return True
        if t is _dict:
            for k, v in _items(x):
                if _classify(k) == 2 or not _is_number(v):
                    return False
            return True
        return False

    def approx_close(actual, expected, rel, tol, me, _numeric=numeric, _truth=truth,
                     _complex=complex, _float=decimal.__float__, _isnan=isnan, _isinf=isinf,
                     _abs=abs, _overflow=OverflowError, _value=ValueError):
        """pytest's ApproxScalar: equal, or within max(rel * |expected|, abs) of it."""
        if _truth(me(actual, expected, 0, me)):
            return True
        pair = []
        for x in (actual, expected):
            o = _numeric(x)
            try:
                v = o[1] / o[2] if o[0] == "q" else o[1] if o[0] == "f" else \
                    _complex(o[1], o[2]) if o[0] == "c" else _float(o[1])
            except _overflow:
                return False
            pair.append(v)
        a, e = pair
        if _isnan(_abs(e)) or _isinf(_abs(e)):
            return False
        if rel is None and tol is not None:
            limit = tol
        else:
            limit = (1e-6 if rel is None else rel) * _abs(e)
            floor = 1e-12 if tol is None else tol
            limit = floor if floor > limit else limit
        if not limit >= 0:
            raise _value("pytest.approx: tolerances must be non-negative numbers")
        return _abs(e - a) <= limit

    def approx_compare(a, b, op, me, _type=type, _approx=approx_type,
                       _get=object.__getattribute__, _numbers_only=numbers_only,
                       _violation=violation, _close=approx_close, _list=list, _tuple=tuple,
                       _dict=dict, _len=len, _index=index, _items=dict.items,
                       _keys=dict.keys, _error=error, _int=int, _float=float,
                       _symbols=SYMBOLS):
        """``a <op> b`` where one side is a pytest.approx: the runner's own arithmetic."""
        ap, other = (a, b) if _type(a) is _approx else (b, a)
        want, rel, tol = _get(ap, "expected"), _get(ap, "rel"), _get(ap, "abs")
        if not _numbers_only(want):
            raise _error("pytest.approx() compares numbers (int, float, bool, complex, "
                         "Fraction, Decimal) or a list, tuple or dict of them")
        for t in (rel, tol):
            if t is not None and _type(t) is not _int and _type(t) is not _float:
                raise _error("pytest.approx: rel and abs must be int or float")
        if _type(other) is _approx or not _numbers_only(other):
            _violation(other, True)
        if op != 0 and op != 1:
            raise _error("'" + _symbols[op] + "' is not supported with pytest.approx")
        tw, to = _type(want), _type(other)
        same = True
        if tw is _list or tw is _tuple:
            if (to is not _list and to is not _tuple) or _len(other) != _len(want):
                same = False
            else:
                i = 0
                while same and i < _len(want):
                    same = _close(other[i], want[i], rel, tol, me)
                    i += 1
        elif tw is _dict:
            mine, theirs = _index(_items(want)), (_index(_items(other)) if to is _dict
                                                  else None)
            if theirs is None or _keys(mine) != _keys(theirs):
                same = False
            else:
                for key, w in _items(mine):
                    if not _close(theirs[key], w, rel, tol, me):
                        same = False
                        break
        elif to is _list or to is _tuple or to is _dict:
            same = False
        else:
            same = _close(other, want, rel, tol, me)
        return same if op == 0 else not same

    def compare(a, b, op, _classify=classify, _ops=operators, _rich=rich, _contains=contains,
                _contains_rich=contains_rich, _type=type, _approx=approx_type,
                _approx_compare=approx_compare, _violation=violation, _not=not_,
                _threads=threads, _settled=settled):
        """A test's ``a <op> b`` under the plain-data rule. op: 0 ==, 1 !=, 2 <, 3 <=,
        4 >, 5 >=, 6 in, 7 not in (``a in b``: ``b`` is the container)."""
        if _threads():
            _settled(a, b, op >= 6)
        if op >= 6:
            kind_c = _classify(b)
            if kind_c == 2:
                found = _contains(b, a)  # the container is not plain data: its own rules
            else:
                kind_x = _classify(a)
                if kind_x == 2:
                    _violation(a, False)
                found = _contains_rich(b, a, _rich) if (kind_c | kind_x) & 4 \
                    else _contains(b, a)
            return found if op == 6 else _not(found)
        kind_a, kind_b = _classify(a), _classify(b)
        if kind_a != 2 and kind_b != 2:
            if (kind_a | kind_b) & 4:
                return _rich(a, b, op, _rich)
            return _ops[op](a, b)  # C types only: the interpreter compares, nothing to fool
        if _type(a) is _approx or _type(b) is _approx:
            return _approx_compare(a, b, op, _rich)
        if kind_a != 2:
            _violation(b, False)
        if kind_b != 2:
            _violation(a, False)
        return _ops[op](a, b)  # neither side plain data: Python's semantics

    def chain(ops, thunks, _compare=compare, _len=len):
        """A chained comparison: each operand evaluated once, in order, as Python does;
        ops as for :func:`compare`, 8 ``is``, 9 ``is not`` (not under the rule)."""
        left = thunks[0]()
        result = True
        i = 0
        while i < _len(ops):
            right = thunks[i + 1]()
            op = ops[i]
            result = (left is right if op == 8 else left is not right if op == 9
                      else _compare(left, right, op))
            if not result:
                return result
            left = right
            i += 1
        return result

    def values_equal(a, b, _classify=classify, _rich=rich, _eq=operators[0], _bool=bool):
        """Whether two plain values are equal as a test's ``a == b`` judges them; None if
        either is not plain data (nothing recorded, nothing raised: for comparing two
        programs' outputs)."""
        kind_a, kind_b = _classify(a), _classify(b)
        if kind_a == 2 or kind_b == 2:
            return None
        if (kind_a | kind_b) & 4:
            return _bool(_rich(a, b, 0, _rich))
        return _bool(_eq(a, b))

    def arith(a, b, op, _classify=classify, _ops=arithmetic, _violation=violation,
              _type=type, _str=str, _bytes=bytes, _threads=threads, _settled=settled):
        """A test's ``a <op> b`` for the arithmetic and bitwise operators (op: an index
        into ``arithmetic``: + - * / // % ** << >> & | ^ @, then the same in place).
        When one side is plain data the other must be too, or the test is an error: an
        object whose ``-`` gives 0 would otherwise pass ``abs(f(x) - y) < 1e-6`` for any
        ``y``. ``str % x`` and ``bytes % x`` (formatting) are exempt."""
        if _threads():
            _settled(a, b, False)
        kind_a, kind_b = _classify(a), _classify(b)
        if (kind_a == 2) != (kind_b == 2):
            t = _type(a)
            if not ((op == 5 or op == 18) and (t is _str or t is _bytes)):
                _violation(a if kind_a == 2 else b, 2)
        return _ops[op](a, b)

    def approx_eq(self, other, _compare=compare):
        """pytest.approx's ``==``: the runner's comparison, as in a test."""
        return _compare(other, self, 0)

    def approx_ne(self, other, _compare=compare):
        return _compare(other, self, 1)

    functions = (still, settled, violation, is_number, numbers_only, approx_close,
                 approx_compare, compare, chain, values_equal, arith, approx_eq, approx_ne)
    return {"compare": compare, "chain": chain, "values_equal": values_equal,
            "arith": arith,
            "approx_eq": approx_eq, "approx_ne": approx_ne, "functions": functions}
'''

SOURCE = "\n".join((PLAIN, RICH, COMPARE, EXPLAIN))
_CODE = load_code("compare", SOURCE, "<sandbox-compare>")  # compiled once per installation


def build(audit: Any = None, approx_type: Any = None, threads: Any = None) -> dict:
    """The comparison rules, made in bare globals from references taken now. A dict:
    ``compare(a, b, op)`` (op 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=, 6 in, 7 not in; raises
    TypeError on a rule violation), ``chain(ops, thunks)``, ``explain(op, a, b, side)``,
    ``show(value)``, ``values_equal(a, b)`` (True / False for two plain values, None if
    either is not plain data; records nothing), ``approx_eq`` / ``approx_ne`` (the pytest
    shim's ``__eq__`` / ``__ne__``), ``arith(a, b, op)`` (a test's arithmetic), ``functions``:
    every function made, for the guard, and ``factories``: the four ``make_*`` that made
    them (run here only; the guard keeps them as they are too).

    ``audit`` records a violation (the sandbox passes ``sys.audit``; default: nothing is
    recorded); ``approx_type`` is the pytest shim's approx class (default: none);
    ``threads`` counts the threads besides the main one that could change a value between
    the check and the comparison (default ``_thread._count``, what the worker has: only the
    candidate's; a test of the rules in a process with threads of its own passes its own).
    """
    import _thread
    import builtins
    import collections
    import datetime
    import decimal
    import fractions
    import math
    import operator

    namespace: dict = {"__builtins__": builtins}
    exec(_CODE, namespace)
    approx_type = approx_type if approx_type is not None else type("NoApprox", (), {})
    plain = namespace["make_plain"](
        TypeError, fractions.Fraction, decimal.Decimal, datetime.date, datetime.time,
        datetime.datetime, datetime.timedelta, datetime.timezone, collections.Counter,
        collections.OrderedDict, collections.defaultdict, collections.deque, math.gcd)
    operators = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge)
    names = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift",
             "and_", "or_", "xor", "matmul")  # a test's BinOp operators, then in place
    arithmetic = tuple(getattr(operator, n) for n in names) + tuple(
        getattr(operator, "i" + n.rstrip("_")) for n in names)
    rich = namespace["make_rich"](plain, decimal.Decimal, collections.OrderedDict,
                                  math.isnan, math.isinf, operators, operator.truth,
                                  operator.contains, TypeError)
    rules = namespace["make_compare"](
        plain, rich, audit if audit is not None else (lambda *args: None), approx_type,
        TypeError, fractions.Fraction, decimal.Decimal, math.isnan, math.isinf, operators,
        operator.truth, operator.not_, operator.contains, arithmetic,
        _thread._count if threads is None else threads)
    told = namespace["make_explain"](
        plain, rules["compare"], approx_type, AssertionError, fractions.Fraction,
        datetime.datetime, datetime.time, collections.OrderedDict, collections.defaultdict,
        collections.deque)
    functions = tuple(v for k, v in plain.items() if type(v) is type(build)) + tuple(
        v for v in rich.values()) + rules["functions"] + told["functions"]
    return {"compare": rules["compare"], "chain": rules["chain"], "explain": told["explain"],
            "arith": rules["arith"],
            "show": told["show"], "values_equal": rules["values_equal"],
            "approx_eq": rules["approx_eq"], "approx_ne": rules["approx_ne"],
            "functions": functions,
            "factories": tuple(v for v in namespace.values() if type(v) is type(build))}
