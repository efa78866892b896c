"""How a failing comparison explains itself: the values, shown by the runner (stdlib only).

Part of the comparison rules that ``_sandbox_compare.py`` builds. A bare ``assert A op B``
of a test is compiled into a call of :func:`explain` (see ``_sandbox_rewrite.py``), which
compares both sides once, the way the test would, and when that is false fails the test
with both values: "returned -1, expected 0" when exactly one side calls the code under test
(that side "returned"), else "-1 == 0 is false". :func:`show` writes a plain value by its
real repr (``datetime.date(2024, 11, 17)``, ``Fraction(1, 3)``, ``Counter({'a': 2})``),
built here from the value's base types so no method of the value runs, and cut to 120
characters without building the whole text; an int past the int-to-str limit shows its
leading digits and its length. Anything else shows as ``<a T object>``: candidate code is
never asked to describe itself. ``EXPLAIN`` is executed in bare globals; every name is a
default argument.
"""

from __future__ import annotations

EXPLAIN = r'''
def make_explain(plain, compare, approx_type, assertion_error, fraction, datetime, time_,
                 ordered, default, deque):
    SYMBOLS = plain["SYMBOLS"]
    type_type = plain["type_type"]
    scalars = plain["scalars"]
    views = plain["views"]
    frac_num = plain["frac_num"]
    frac_den = plain["frac_den"]
    mro_of = plain["mro_of"]
    dict_of = plain["dict_of"]
    qualname_of = plain["qualname_of"]
    classify = plain["classify"]
    family = plain["family"]
    elements = plain["elements"]
    base_of = plain["base_of"]

    def int_text(v, _repr=int.__repr__, _bits=int.bit_length, _value=ValueError,
                 _pow=pow, _int=int):
        """repr of an int; past the int-to-str limit (or ~36,000 digits) its leading
        digits and its length, never an error."""
        bits = _bits(v)
        if bits <= 12000:
            try:
                return _repr(v)
            except _value:  # a lowered sys.set_int_max_str_digits
                pass
        sign, n = ("-", -v) if v < 0 else ("", v)
        low = _int((bits - 1) * 0.30102999566398120)  # 10 ** low <= n, or nearly
        if bits > 120000:
            return sign + "<an int of about " + _repr(low + 1) + " digits>"
        digits = low + 1 if n >= _pow(10, low) else low
        if n >= _pow(10, digits):
            digits += 1
        return sign + _repr(n // _pow(10, digits - 40)) + "...(" + _repr(digits) + " digits)"

    def render(x, out, left, depth, me, _type=type, _family=family, _classify=classify,
               _int=int, _str=str, _bytes=bytes, _bytearray=bytearray, _tt=type_type,
               _fraction=fraction, _num=frac_num, _den=frac_den, _int_text=int_text,
               _repr=repr, _type_repr=type.__repr__, _str_repr=str.__repr__,
               _bytes_repr=bytes.__repr__, _len=len, _append=list.append,
               _elements=elements, _items=dict.items, _ordered=ordered, _default=default,
               _deque=deque, _maxlen=deque.__dict__["maxlen"].__get__,
               _factory=default.__dict__["default_factory"].__get__,
               _name=type.__dict__["__name__"].__get__, _mro=mro_of, _dict=dict_of,
               _tuple=tuple, _list=list, _set=set, _frozenset=frozenset, _dict_t=dict,
               _sorted=sorted, _float=float, _complex=complex, _base_of=base_of,
               _real=complex.__dict__["real"].__get__, _imag=complex.__dict__["imag"].__get__,
               _scalars=scalars, _dt=datetime, _time=time_, _oitems=ordered.items,
               _str_get=str.__getitem__, _bytes_get=bytes.__getitem__, _slice=slice,
               _views=views, _proxy_items=type(dict_of(object)).items):
        """Append the repr of plain value ``x`` to ``out`` (at most about ``left`` more
        characters); the characters still left. Built here, from the value's base types:
        no method of the value runs."""
        if left <= 0:
            return left
        if depth > 40:
            _append(out, "...")
            return left - 3
        t = _type(x)
        fam = _family(x)
        text = None
        exact = _type(t) is _tt and t in _scalars
        if exact and t is _int:
            text = _int_text(x)
        elif exact and (t is _str or t is _bytes or t is _bytearray):
            text = _repr(x[:left + 2] if _len(x) > left + 2 else x)
        elif exact and t is _tt:
            text = _type_repr(x)
        elif exact or t is _dt or t is _time:
            text = _repr(x)  # an exact C type: its own C repr
        elif t is _fraction:
            text = "Fraction(" + _int_text(_num(x)) + ", " + _int_text(_den(x)) + ")"
        elif fam == "num" or fam == "atom":  # a plain-like subclass: its base's repr
            base = _base_of(t)
            if base is _int:
                text = _int_text(_int.__int__(x))
            elif base is _float:
                text = _repr(_float.__float__(x))
            elif base is _str:
                text = _str_repr(_str_get(x, _slice(0, left + 2)))
            elif base is _bytes:
                text = _bytes_repr(_bytes_get(x, _slice(0, left + 2)))
            else:
                text = _repr(_complex(_real(x), _imag(x)))
        if text is not None:
            _append(out, text)
            return left - _len(text)
        # containers: (opening, items, closing, mapping?)
        name = _name(t)
        if fam == "list":
            head, tail, pairs, items = "[", "]", False, _elements(x, fam)
        elif fam == "tuple":
            items = _elements(x, fam)
            fields = None
            for k in _mro(t):  # (pairs read one by one: a search would compare keys)
                for key, value in _proxy_items(_dict(k)):
                    if _type(key) is _str and key == "_fields":
                        fields = value
                        break
                if fields is not None:
                    break
            if t is not _tuple and _type(fields) is _tuple and _len(fields) == _len(items):
                ok = True
                for f in fields:
                    ok = ok and _type(f) is _str
                if ok:  # a namedtuple: Name(a=1, b=2)
                    _append(out, name + "(")
                    left -= _len(name) + 1
                    i = 0
                    while i < _len(items) and left > 0:
                        if i:
                            _append(out, ", ")
                            left -= 2
                        _append(out, fields[i] + "=")
                        left = me(items[i], out, left - _len(fields[i]) - 1, depth + 1, me)
                        i += 1
                    _append(out, ")")
                    return left - 1
            head, tail, pairs = "(", ",)" if _len(items) == 1 else ")", False
        elif fam == "set":
            items = _elements(x, fam)
            if not items:
                text = name + "()"
                _append(out, text)
                return left - _len(text)
            head = "{" if t is _set else name + "({"
            tail, pairs = "}" if t is _set else "})", False
        elif fam == "deque":
            items = _elements(x, fam)
            size = _maxlen(x)
            head, tail, pairs = "deque([", "])" if size is None else \
                "], maxlen=" + _repr(size) + ")", False
        elif t in _views:
            items = _elements(x, "values")
            head, tail, pairs = name + "([", "])", False
        else:  # the mappings
            items = _list(_oitems(x) if t is _ordered else _items(x))
            if t is _ordered:
                if not items:
                    text = "OrderedDict()"
                    _append(out, text)
                    return left - _len(text)
                head, tail, pairs = "OrderedDict([", "])", "tuples"
            elif t is _default:
                factory = _factory(x)
                shown = _type_repr(factory) if _type(factory) is _tt else "None" \
                    if factory is None else "<a " + _name(_type(factory)) + " object>"
                head, tail, pairs = "defaultdict(" + shown + ", {", "})", True
            elif fam == "count":
                if not items:
                    text = "Counter()"
                    _append(out, text)
                    return left - _len(text)
                simple = True
                for k, v in items:
                    simple = simple and (_type(v) is _int or _type(v) is _float)
                if simple:  # most_common order: by count, high first, ties as inserted
                    ranked, i = [], 0
                    for k, v in items:
                        _append(ranked, (-v, i, k, v))
                        i += 1
                    items = [(k, v) for _, _, k, v in _sorted(ranked)]
                head, tail, pairs = "Counter({", "})", True
            else:
                head, tail, pairs = "{", "}", True
        _append(out, head)
        left -= _len(head)
        i = 0
        while i < _len(items) and left > 0:
            if i:
                _append(out, ", ")
                left -= 2
            if pairs == "tuples":
                _append(out, "(")
                left = me(items[i][0], out, left - 1, depth + 1, me)
                _append(out, ", ")
                left = me(items[i][1], out, left - 2, depth + 1, me)
                _append(out, ")")
                left -= 1
            elif pairs:
                left = me(items[i][0], out, left, depth + 1, me)
                _append(out, ": ")
                left = me(items[i][1], out, left - 2, depth + 1, me)
            else:
                left = me(items[i], out, left, depth + 1, me)
            i += 1
        if i < _len(items):
            _append(out, "...")
            return left - 3
        _append(out, tail)
        return left - _len(tail)

    def show(x, limit=120, _classify=classify, _render=render, _type=type,
             _approx=approx_type, _get=object.__getattribute__, _join="".join,
             _qualname=qualname_of, _len=len):
        """How an explanation shows ``x``: the repr of plain data, cut to ``limit``
        characters; ``<a T object>`` for anything else (it is never asked)."""
        if _classify(x) != 2:
            out = []
            _render(x, out, limit + 1, 0, _render)
            text = _join(out)
        elif _type(x) is _approx and _classify(_get(x, "expected")) != 2:
            out = []
            _render(_get(x, "expected"), out, limit + 1, 0, _render)
            text = "approx(" + _join(out) + ")"
        else:
            text = "<a " + _qualname(_type(x)) + " object>"
        return text if _len(text) <= limit else text[:limit - 3] + "..."

    def explain(op, a, b, side, _compare=compare, _error=assertion_error, _show=show,
                _symbols=SYMBOLS, _mirror=("", "", ">", ">=", "<", "<=")):
        """``assert a <op> b``: nothing if true, else AssertionError naming both values:
        "returned X, expected Y" when only ``side`` calls the code under test."""
        if _compare(a, b, op):
            return
        sa, sb = _show(a), _show(b)
        if side == "left":
            got, want = sa, (sb if op == 0 else "anything but " + sb if op == 1
                             else "one of " + sb if op == 6 else "none of " + sb if op == 7
                             else _symbols[op] + " " + sb)
        elif side == "right":
            got, want = sb, (sa if op == 0 else "anything but " + sa if op == 1
                             else "something containing " + sa if op == 6
                             else "something not containing " + sa if op == 7
                             else _mirror[op] + " " + sa)
        else:
            raise _error(sa + " " + _symbols[op] + " " + sb + " is false")
        raise _error("returned " + got + ", expected " + want)

    return {"explain": explain, "show": show, "functions": (int_text, render, show, explain)}
'''
