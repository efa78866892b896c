"""Comparing plain values that hold a Fraction or a Counter, exactly as CPython 3.11 does.

Part of the comparison rules that ``_sandbox_compare.py`` builds. ``Fraction`` and
``Counter`` are written in Python: their methods look up builtins and module globals that
candidate code can replace before a test runs (``builtins.isinstance``, ``fractions.math``,
a Fraction's ``__eq__``). So when one occurs anywhere in either side, :func:`rich` compares
here, structurally, mirroring CPython (``fractions.py``, ``collections/__init__.py``,
``listobject.c``, ``dictobject.c``, ``setobject.c``, ``_collectionsmodule.c``, ``_decimal``):
dispatch and reflection, ``NotImplemented`` and identity fall-backs, the identity shortcut
inside containers, ``Counter``'s missing-counts-are-zero, ``OrderedDict``'s order, set
inclusion. Only C primitives taken before any candidate ran are used; hashed lookups go
through :func:`canon`, a key made of C types whose equality is the value's. ``RICH`` is
executed in bare globals; every name is a default argument.
"""

from __future__ import annotations

RICH = r'''
def make_rich(plain, decimal, ordered, isnan, isinf, operators, truth, contains, error):
    REFLECT = plain["REFLECT"]
    NI = plain["NI"]
    frac_num = plain["frac_num"]
    frac_den = plain["frac_den"]
    classify = plain["classify"]
    family = plain["family"]
    numeric = plain["numeric"]
    elements = plain["elements"]
    no_method = plain["no_method"]
    base_of = plain["base_of"]

    def fraction_method(n, d, other, op, _numeric=numeric, _ops=operators, _ni=NI,
                        _isnan=isnan, _isinf=isinf, _ratio=float.as_integer_ratio):
        """Fraction(n, d).__eq__ / ordering against ``other`` as fractions.py does it."""
        o = _numeric(other)
        if op == 0 or op == 1:
            if o is None or o[0] == "d":
                return _ni
            if o[0] == "q":
                same = n == o[1] and d == o[2]
            else:
                if o[0] == "c" and o[2] != 0:
                    return _ni
                x = o[1]
                if _isnan(x) or _isinf(x):
                    same = False
                else:
                    p, q = _ratio(x)
                    same = n == p and d == q
            return same if op == 0 else not same
        if o is None or o[0] == "d" or o[0] == "c":
            return _ni
        if o[0] == "q":
            return _ops[op](n * o[2], d * o[1])
        x = o[1]
        if _isnan(x) or _isinf(x):
            return _ops[op](0.0, x)
        p, q = _ratio(x)
        return _ops[op](n * q, d * p)

    def decimal_vs_fraction(x, n, d, op, _ops=operators, _is_nan=decimal.is_nan,
                            _is_inf=decimal.is_infinite, _ratio=decimal.as_integer_ratio):
        """Decimal ``x`` <op> Fraction(n, d), exactly, as _decimal does it."""
        if _is_nan(x) or _is_inf(x):
            return _ops[op](x, 0)  # what a NaN or an infinity does does not depend on n/d
        p, q = _ratio(x)
        return _ops[op](p * d, n * q)

    def fraction_rich(a, fa, b, op, _type=type, _decimal=decimal, _num=frac_num,
                      _den=frac_den, _method=fraction_method, _dec=decimal_vs_fraction,
                      _reflect=REFLECT, _ni=NI, _no=no_method):
        if fa == "frac":
            result = _method(_num(a), _den(a), b, op)
            if result is not _ni:
                return result
            if _type(b) is _decimal:
                return _dec(b, _num(a), _den(a), _reflect[op])
        else:
            if _type(a) is _decimal:
                return _dec(a, _num(b), _den(b), op)
            result = _method(_num(b), _den(b), a, _reflect[op])
            if result is not _ni:
                return result
        return _no(a, b, op)

    def canon(x, allow_set, me, _family=family, _numeric=numeric, _type=type, _id=id,
              _isnan=isnan, _isinf=isinf, _ratio=float.as_integer_ratio,
              _is_snan=decimal.is_snan, _is_nan=decimal.is_nan, _is_inf=decimal.is_infinite,
              _signed=decimal.is_signed, _dratio=decimal.as_integer_ratio,
              _bytearray=bytearray, _elements=elements, _tuple=tuple, _frozenset=frozenset,
              _set=set, _add=set.add, _append=list.append, _error=error,
              _name=type.__dict__["__name__"].__get__, _base_of=base_of, _len=len):
        """A key made of C types only that equals ``canon(y)`` exactly when CPython's dict
        or set lookup would find ``y`` for ``x`` (``x is y or x == y``); TypeError for an
        unhashable value, like ``hash()``. ``allow_set``: a set probe, as ``x in s``."""
        fam = _family(x)
        if fam == "num" or fam == "frac":
            o = _numeric(x)
            if o[0] == "q":
                return ("n", o[1], o[2])
            if o[0] == "d":
                if _is_snan(x):
                    raise _error("Cannot hash a signaling NaN value.")
                if _is_nan(x):
                    return ("i", _id(x))
                if _is_inf(x):
                    return ("inf", -1 if _signed(x) else 1)
                p, q = _dratio(x)
                return ("n", p, q)
            parts = (o[1],) if o[0] == "f" or o[2] == 0 else (o[1], o[2])
            out = ["c" if _len(parts) == 2 else "f"]
            for v in parts:
                if _isnan(v):
                    return ("i", _id(x))
                if _isinf(v):
                    _append(out, ("inf", 1 if v > 0 else -1))
                else:
                    p, q = _ratio(v)
                    _append(out, ("n", p, q))
            return out[1] if out[0] == "f" else _tuple(out)
        if fam == "values":  # no __eq__ of its own: hashed, and equal, by identity
            return ("i", _id(x))
        if fam == "atom":
            if _type(x) is _bytearray:
                raise _error("unhashable type: 'bytearray'")
            return ("o", x)
        if fam == "tuple":
            out = ["t"]
            for e in _elements(x, fam):
                _append(out, me(e, False, me))
            return _tuple(out)
        if fam == "set":
            t = _type(x)
            mutable = t is _set or (t is not _frozenset and _base_of(t) is _set)
            if mutable and not allow_set:
                raise _error("unhashable type: '" + _name(t) + "'")
            out = _set()
            for e in _elements(x, fam):
                _add(out, me(e, False, me))
            return ("s", _frozenset(out))
        raise _error("unhashable type: '" + _name(_type(x)) + "'")

    def index(pairs, _canon=canon):
        """canon(key) -> value, for (key, value) pairs."""
        out = {}
        for k, v in pairs:
            out[_canon(k, False, _canon)] = v
        return out

    def probe(container, fam, _canon=canon, _index=index, _elements=elements, _keys=dict.keys,
              _set=set, _add=set.add):
        """What ``x in container`` consults: a set of canon keys, or for an items view the
        index of its dict."""
        if fam == "items":
            return ("items", _index(_elements(container, fam)))
        keys = _set()
        source = _elements(container, fam) if fam == "set" or fam == "keys" \
            else _keys(container)
        for k in source:
            _add(keys, _canon(k, False, _canon))
        return ("set" if fam == "set" else "keys", keys)

    def probe_has(p, x, me, _canon=canon, _type=type, _family=family, _elements=elements,
                  _truth=truth, _len=len):
        """``x in`` the container of probe ``p`` (see :func:`probe`)."""
        if p[0] == "items":
            if _family(x) != "tuple":
                return False
            pair = _elements(x, "tuple")
            if _len(pair) != 2:
                return False
            key = _canon(pair[0], False, _canon)
            if key not in p[1]:
                return False
            found = p[1][key]
            return found is pair[1] or _truth(me(found, pair[1], 0, me))
        return _canon(x, p[0] == "set", _canon) in p[1]

    def sequence_rich(x, y, op, me, _len=len, _ops=operators, _truth=truth):
        """list / tuple comparison (listobject.c): first differing item, identity first."""
        lx, ly = _len(x), _len(y)
        if lx != ly and (op == 0 or op == 1):
            return op == 1
        i, n = 0, lx if lx < ly else ly
        while i < n:
            u, v = x[i], y[i]
            if u is not v and not _truth(me(u, v, 0, me)):
                break
            i += 1
        if i >= n:
            return _ops[op](lx, ly)
        if op == 0 or op == 1:
            return op == 1
        return me(x[i], y[i], op, me)

    def deque_rich(a, b, op, me, _elements=elements, _len=len, _ops=operators, _truth=truth):
        """deque comparison (_collectionsmodule.c)."""
        x, y = _elements(a, "deque"), _elements(b, "deque")
        if op == 0 or op == 1:
            if a is b:
                return op == 0
            if _len(x) != _len(y):
                return op == 1
        i, n = 0, _len(x) if _len(x) < _len(y) else _len(y)
        while i < n:
            u, v = x[i], y[i]
            if u is not v and not _truth(me(u, v, 0, me)):
                return me(u, v, op, me)
            i += 1
        return _ops[op](_len(x), _len(y))

    def set_rich(a, fa, b, fb, op, me, _elements=elements, _probe=probe, _has=probe_has,
                 _len=len, _reflect=REFLECT):
        """Sets and the set-like dict views (setobject.c; dictobject.c: all_contained_in)."""
        if fa == "set" and fb != "set":  # set's method does not know views: the view's, reflected
            a, fa, b, fb, op = b, fb, a, fa, _reflect[op]
        x, y = _elements(a, fa), _elements(b, fb)
        lx, ly = _len(x), _len(y)
        if op == 0 or op == 1:
            if lx != ly:
                return op == 1
        elif not (lx < ly if op == 2 else lx <= ly if op == 3 else lx > ly if op == 4
                  else lx >= ly):
            return False
        if op >= 4:  # a > b, a >= b: every item of b is in a
            x, b, fb = y, a, fa
        inside = _probe(b, fb)
        for e in x:
            if not _has(inside, e, me):
                return op == 1
        return op != 1

    def dict_equal(a, b, me, _len=dict.__len__, _index=index, _items=dict.items,
                   _canon=canon, _truth=truth):
        """dict_equal of dictobject.c: same size, every key found, values equal."""
        if _len(a) != _len(b):
            return False
        found = _index(_items(b))
        for k, va in _items(a):
            key = _canon(k, False, _canon)
            if key not in found:
                return False
            vb = found[key]
            if va is not vb and not _truth(me(va, vb, 0, me)):
                return False
        return True

    def same_order(a, b, me, _list=list, _keys=ordered.keys, _len=len, _truth=truth):
        """OrderedDict == OrderedDict also compares the order of the keys."""
        x, y = _list(_keys(a)), _list(_keys(b))
        i = 0
        while i < _len(x):
            if x[i] is not y[i] and not _truth(me(x[i], y[i], 0, me)):
                return False
            i += 1
        return True

    def counter_all(a, b, op, me, _items=dict.items, _index=index, _canon=canon,
                    _truth=truth):
        """``all(a[e] <op> b[e] for c in (a, b) for e in c)``, missing counts being 0."""
        ia, ib = _index(_items(a)), _index(_items(b))
        for k, va in _items(a):
            if not _truth(me(va, ib.get(_canon(k, False, _canon), 0), op, me)):
                return False
        for k, vb in _items(b):
            if not _truth(me(ia.get(_canon(k, False, _canon), 0), vb, op, me)):
                return False
        return True

    def counter_rich(a, fa, b, fb, op, me, _all=counter_all, _equal=dict_equal,
                     _no=no_method):
        """Counter's own comparisons (collections/__init__.py, 3.10+): only against a
        Counter; against another dict, the dict's equality; else nothing."""
        if fa == "count" and fb == "count":
            if op == 0 or op == 1:
                same = _all(a, b, 0, me)
                return same if op == 0 else not same
            if op == 3 or op == 5:
                return _all(a, b, op, me)
            return _all(a, b, 3 if op == 2 else 5, me) and not _all(a, b, 0, me)
        other = b if fa == "count" else a
        fo = fb if fa == "count" else fa
        if (fo == "dict" or fo == "odict") and (op == 0 or op == 1):
            same = _equal(other, a if other is b else b, me)
            return same if op == 0 else not same
        return _no(a, b, op)

    def rich(a, b, op, me, _family=family, _classify=classify, _ops=operators,
             _fraction_rich=fraction_rich, _counter_rich=counter_rich,
             _sequence_rich=sequence_rich, _deque_rich=deque_rich, _set_rich=set_rich,
             _dict_equal=dict_equal, _same_order=same_order, _elements=elements,
             _no=no_method, _setlike=("set", "keys", "items")):
        """``a <op> b`` for plain values with a Fraction or Counter somewhere, mirroring
        CPython (op: 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=); ``me`` is this function."""
        fa, fb = _family(a), _family(b)
        if fa == "frac" or fb == "frac":
            return _fraction_rich(a, fa, b, op)
        if fa == "count" or fb == "count":
            return _counter_rich(a, fa, b, fb, op, me)
        if not (_classify(a) | _classify(b)) & 4:
            return _ops[op](a, b)  # nothing Python-level inside: the interpreter's own
        if fa == fb and (fa == "list" or fa == "tuple"):
            return _sequence_rich(_elements(a, fa), _elements(b, fb), op, me)
        if fa == "deque" and fb == "deque":
            return _deque_rich(a, b, op, me)
        if fa in _setlike and fb in _setlike:
            return _set_rich(a, fa, b, fb, op, me)
        if (fa == "dict" or fa == "odict") and (fb == "dict" or fb == "odict"):
            if op != 0 and op != 1:
                return _no(a, b, op)
            same = _dict_equal(a, b, me) and (fa != "odict" or fb != "odict"
                                              or _same_order(a, b, me))
            return same if op == 0 else not same
        return _ops[op](a, b)  # no comparison of CPython looks inside these two

    def contains_rich(c, x, me, _family=family, _elements=elements, _probe=probe,
                      _has=probe_has, _truth=truth, _contains=contains, _type=type,
                      _range=range, _int=int, _bool=bool):
        """``x in c`` for a plain container ``c`` and plain ``x``, either holding a Fraction
        or Counter (list_contains, set_contains, dict_contains, range_contains...)."""
        fam = _family(c)
        if fam == "list" or fam == "tuple" or fam == "deque" or fam == "values" \
                or (_type(c) is _range and _type(x) is not _int and _type(x) is not _bool):
            for e in (_elements(c, fam) if _type(c) is not _range else c):
                if e is x or _truth(me(e, x, 0, me)):
                    return True
            return False
        if fam == "set" or fam == "keys" or fam == "items" or fam == "dict" \
                or fam == "odict" or fam == "count":
            return _has(_probe(c, fam), x, me)
        return _contains(c, x)  # str, bytes, bytearray, range of ints, numbers: C only


    return {
        "fraction_method": fraction_method, "decimal_vs_fraction": decimal_vs_fraction,
        "fraction_rich": fraction_rich, "canon": canon, "index": index, "probe": probe,
        "probe_has": probe_has, "sequence_rich": sequence_rich, "deque_rich": deque_rich,
        "set_rich": set_rich, "dict_equal": dict_equal, "same_order": same_order,
        "counter_all": counter_all, "counter_rich": counter_rich, "rich": rich,
        "contains_rich": contains_rich}
'''
