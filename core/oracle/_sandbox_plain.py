"""What counts as plain data in a test's comparison, told without running candidate code.

Part of the comparison rules that ``_sandbox_compare.py`` builds. ``PLAIN`` is executed in
bare globals and every name its functions use is a default argument (a tuple: immutable),
never a global, a builtin or a closure cell.

**Plain data**: exact ``int``, ``bool``, ``float``, ``complex``, ``str``, ``bytes``,
``bytearray``, ``None``, ``range``, classes (exact ``type``), ``fractions.Fraction``
(normalised), ``decimal.Decimal``, ``datetime`` ``date`` / ``time`` / ``datetime`` /
``timedelta`` / ``timezone`` (``tzinfo`` None or a ``timezone``), and exact ``list``,
``tuple``, ``dict``, ``set``, ``frozenset``, ``collections.deque`` / ``OrderedDict`` /
``defaultdict`` / ``Counter`` and dict views holding plain data at any depth. Subclasses of
the built-in scalars and containers that define no comparison, hash or ``__contains__`` on
the way to their base (namedtuples, ``IntEnum``, ``class L(list)``) count too (plain-like).
Types are told apart with ``type() is``: never ``isinstance``, and a class is hashed (for a
frozenset lookup) only when its metaclass is exactly ``type``, so no metaclass of the
candidate's runs.
"""

from __future__ import annotations

PLAIN = r'''
def make_plain(error, fraction, decimal, date, time_, datetime, timedelta, timezone, counter,
               ordered, default, deque, gcd):
    type_type, none = type, type(None)
    keys_t, values_t, items_t = type({}.keys()), type({}.values()), type({}.items())
    okeys_t = type(ordered().keys())
    ovalues_t, oitems_t = type(ordered().values()), type(ordered().items())
    EQ, NE, LT, LE, GT, GE = 0, 1, 2, 3, 4, 5
    REFLECT = (EQ, NE, GT, GE, LT, LE)
    SYMBOLS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")
    NI = NotImplemented
    # exact types with metaclass ``type`` that are leaves: compared by the interpreter
    scalars = frozenset({int, bool, float, complex, str, bytes, none, bytearray, decimal,
                         date, timedelta, timezone, type_type, range})
    containers = frozenset({list, tuple, set, frozenset, dict, ordered, default, keys_t,
                            values_t, items_t, okeys_t, ovalues_t, oitems_t})
    frac_num = fraction.__dict__["_numerator"].__get__
    frac_den = fraction.__dict__["_denominator"].__get__
    tz_of = (datetime.__dict__["tzinfo"].__get__, time_.__dict__["tzinfo"].__get__)
    mro_of = type.__dict__["__mro__"].__get__
    dict_of = type.__dict__["__dict__"].__get__
    qualname_of = type.__dict__["__qualname__"].__get__
    module_of = type.__dict__["__module__"].__get__
    iters = (list.__iter__, tuple.__iter__, set.__iter__, frozenset.__iter__, dict.keys)
    bases = (int, str, float, bytes, complex, tuple, list, dict, set, frozenset)
    own_names = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__",
                 "__contains__")


    def base_of(t, _mro=mro_of, _dict=dict_of, _bases=bases, _own=frozenset(own_names),
                _type=type, _str=str):
        """The built-in type whose comparisons a subclass keeps, or None if anything on the
        way to it defines a comparison, a hash or ``__contains__`` (identity checks only).
        A class's namespace is read key by key, never searched: a search compares keys,
        and a key of a str subclass would run its own ``__eq__`` here; a key that is not
        an exact str makes the class not plain."""
        for k in _mro(t):
            for b in _bases:
                if k is b:
                    return b
            for name in _dict(k):
                if _type(name) is not _str or name in _own:
                    return None
        return None

    def classify(root, _type=type, _tt=type_type, _scalars=scalars, _containers=containers,
                 _fraction=fraction, _counter=counter, _deque=deque, _dt=datetime,
                 _time=time_, _tz=tz_of, _timezone=timezone, _none=none, _int=int,
                 _gcd=gcd, _base_of=base_of, _iters=iters, _list=list, _tuple=tuple,
                 _set=set, _frozenset=frozenset, _dict=dict, _ordered=ordered,
                 _default=default, _pop=list.pop, _extend=list.extend, _add=set.add,
                 _id=id, _keys=dict.keys, _values=dict.values, _exc=BaseException,
                 _num=frac_num, _den=frac_den):
        """0 plain data, 1 plain data with a plain-like subclass in it, 2 not plain; +4 when
        a Fraction or Counter occurs (compared by :func:`rich`, not by the interpreter)."""
        t = _type(root)
        if _type(t) is _tt and t in _scalars:
            return 0
        stack, seen, code = [root], _set(), 0
        while stack:
            x = _pop(stack)
            t = _type(x)
            if _type(t) is _tt:
                if t in _scalars:
                    continue
                if t in _containers:
                    if _id(x) in seen:
                        continue
                    _add(seen, _id(x))
                    if t is _dict or t is _ordered or t is _default:
                        _extend(stack, _keys(x))
                        _extend(stack, _values(x))
                    else:
                        _extend(stack, x)
                    continue
                if t is _counter:
                    code |= 4
                    if _id(x) not in seen:
                        _add(seen, _id(x))
                        _extend(stack, _keys(x))
                        _extend(stack, _values(x))
                    continue
                if t is _deque:
                    if _id(x) not in seen:
                        _add(seen, _id(x))
                        _extend(stack, x)
                    continue
                if t is _dt or t is _time:
                    zone = _tz[0](x) if t is _dt else _tz[1](x)
                    if zone is None or _type(zone) is _timezone:
                        continue
                    return 2
            if t is _fraction:
                try:
                    n, d = _num(x), _den(x)
                except _exc:
                    return 2
                if _type(n) is not _int or _type(d) is not _int or d <= 0 or _gcd(n, d) != 1:
                    return 2  # not normalised: CPython's own equality is not transitive then
                code |= 4
                continue
            base = _base_of(t)
            if base is None:
                return 2
            code |= 1
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
        return code

    def family(x, _type=type, _tt=type_type, _fraction=fraction, _decimal=decimal,
               _int=int, _bool=bool, _float=float, _complex=complex, _list=list,
               _tuple=tuple, _set=set, _frozenset=frozenset, _dict=dict, _ordered=ordered,
               _default=default, _counter=counter, _deque=deque, _keys=(keys_t, okeys_t),
               _items=(items_t, oitems_t), _values=(values_t, ovalues_t), _base_of=base_of,
               _str=str, _bytes=bytes):
        """Which CPython comparison a plain value gets (see :func:`rich`)."""
        t = _type(x)
        if t is _fraction:
            return "frac"
        if t is _int or t is _bool or t is _float or t is _complex or t is _decimal:
            return "num"
        if t is _list:
            return "list"
        if t is _tuple:
            return "tuple"
        if t is _dict or t is _default:
            return "dict"
        if t is _set or t is _frozenset:
            return "set"
        if t is _counter:
            return "count"
        if t is _ordered:
            return "odict"
        if t is _deque:
            return "deque"
        if t is _keys[0] or t is _keys[1]:
            return "keys"
        if t is _items[0] or t is _items[1]:
            return "items"
        if t is _values[0] or t is _values[1]:
            return "values"
        base = _base_of(t) if _type(t) is _tt else None
        if base is None or base is _str or base is _bytes:
            return "atom"  # str, bytes, None, bytearray, range, type, the datetime types
        if base is _int or base is _float or base is _complex:
            return "num"
        if base is _list or base is _tuple or base is _dict:
            return "list" if base is _list else "tuple" if base is _tuple else "dict"
        if base is _set or base is _frozenset:
            return "set"
        return "atom"

    def numeric(x, _type=type, _int=int, _bool=bool, _float=float, _complex=complex,
                _decimal=decimal, _fraction=fraction, _num=frac_num, _den=frac_den,
                _as_int=int.__int__, _as_float=float.__float__,
                _real=complex.__dict__["real"].__get__, _imag=complex.__dict__["imag"].__get__,
                _base_of=base_of, _tt=type_type):
        """("q", n, d) for int-like values and Fractions, ("f", x) floats, ("c", re, im)
        complex numbers, ("d", x) Decimals, None for anything else (base-type values of
        plain-like subclasses: an IntEnum member is its int)."""
        t = _type(x)
        if t is _int or t is _bool:
            return ("q", _as_int(x), 1)
        if t is _float:
            return ("f", x)
        if t is _fraction:
            return ("q", _num(x), _den(x))
        if t is _decimal:
            return ("d", x)
        if t is _complex:
            return ("c", _real(x), _imag(x))
        base = _base_of(t) if _type(t) is _tt else None
        if base is _int:
            return ("q", _as_int(x), 1)
        if base is _float:
            return ("f", _as_float(x))
        if base is _complex:
            return ("c", _real(x), _imag(x))
        return None

    def elements(x, fam, _type=type, _list=list, _iters=iters, _set=set, _tuple=tuple,
                 _frozenset=frozenset, _deque_iter=deque.__iter__, _base_of=base_of,
                 _tt=type_type):
        """The items of a plain container, through its base type's own iterator."""
        t = _type(x)
        if fam == "deque":
            return _list(_deque_iter(x))
        if fam == "keys" or fam == "items" or fam == "values":
            return _list(x)
        base = t
        if t is not _list and t is not _tuple and t is not _set and t is not _frozenset:
            base = _base_of(t) if _type(t) is _tt else None
        if base is _list:
            return _list(_iters[0](x))
        if base is _tuple:
            return _list(_iters[1](x))
        if base is _set:
            return _list(_iters[2](x))
        return _list(_iters[3](x))

    def no_method(a, b, op, _type=type, _name=type.__dict__["__name__"].__get__,
                  _symbols=SYMBOLS, _error=error):
        """Neither side's method knew the other: identity for == / !=, else TypeError."""
        if op == 0:
            return a is b
        if op == 1:
            return a is not b
        raise _error("'" + _symbols[op] + "' not supported between instances of '"
                     + _name(_type(a)) + "' and '" + _name(_type(b)) + "'")

    def children(x, _type=type, _tt=type_type, _containers=containers, _counter=counter,
                 _deque=deque, _dict=dict, _ordered=ordered, _default=default, _list=list,
                 _keys=dict.keys, _values=dict.values, _base_of=base_of, _family=family,
                 _elements=elements, _extend=list.extend, _leaves=(int, str, float, bytes,
                                                                   complex)):
        """The items of a container (keys and values of a mapping), None for a leaf."""
        t = _type(x)
        base = t if _type(t) is _tt and (t in _containers or t is _counter or t is _deque) \
            else _base_of(t) if _type(t) is _tt else None
        if base is None or base in _leaves:
            return None
        if base is _dict or base is _ordered or base is _default or base is _counter:
            out = _list(_keys(x))
            _extend(out, _values(x))
            return out
        return _elements(x, _family(x))


    views = (keys_t, values_t, items_t, okeys_t, ovalues_t, oitems_t)
    return {
        "views": views, "type_type": type_type, "none": none, "keys_t": keys_t,
        "values_t": values_t, "items_t": items_t, "okeys_t": okeys_t, "ovalues_t": ovalues_t,
        "oitems_t": oitems_t,
        "REFLECT": REFLECT, "SYMBOLS": SYMBOLS, "NI": NI, "scalars": scalars,
        "containers": containers, "frac_num": frac_num, "frac_den": frac_den, "tz_of": tz_of,
        "timezone": timezone, "datetime": datetime, "time": time_,
        "mro_of": mro_of, "dict_of": dict_of, "qualname_of": qualname_of,
        "module_of": module_of, "iters": iters, "bases": bases, "own_names": own_names,
        "base_of": base_of, "classify": classify, "family": family, "numeric": numeric,
        "elements": elements, "no_method": no_method, "children": children}
'''
