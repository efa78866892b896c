"""What a test may take from the candidate's namespace as a class (stdlib only).

Imported by the fork server through :mod:`_sandbox_runner`, never by the engine. ``CLASSES``
is source text executed in bare globals with the channel's (``_sandbox_channel.py``), so
nothing in it leads back to runner modules, and the guard hides and protects what it makes.

A test that reads a class from the candidate's namespace and lets it decide the verdict
(``pytest.raises(StatisticsError)``, ``except StatisticsError``, ``isinstance(e,
StatisticsError)``, through an alias of the test's own: ``E = StatisticsError``) gets it
through one of two runner functions, which the rewriter (``_CandidateClasses`` in
``_sandbox_rewrite.py``) puts at the point of use or at the alias:

* ``own(X, label, name)``: an expected exception. A class the candidate's own code made (its
  ``__module__``, read from its own namespace, is the candidate's), of metaclass exactly
  ``type``, deriving from BaseException; or a standard-library exception class the runner
  held before the candidate ran, by identity, read under its own name (``from statistics
  import StatisticsError`` in the candidate); or a tuple of those.
* ``classes(X, label, name)``: the class of an ``isinstance`` / ``issubclass`` call. The
  same, without the BaseException rule, and a class of the candidate's may also have a
  standard-library metaclass (``enum.Enum``'s, ``abc.ABC``'s); an exception class of the
  candidate's only one whose instance and subclass checks are ``type``'s own (an ABC's
  ``__subclasshook__`` would say which exceptions count).

Anything else (``StatisticsError = Exception``, a metaclass of the candidate's whose
``__instancecheck__`` or ``__subclasscheck__`` says yes, ``StatisticsError = object``, a
standard-library class under another name) would let the candidate choose what counts as
right: the test is an error. Nothing of the candidate's is called: exact types first, the
class's ``__mro__``, flags and namespace read through ``type``'s own descriptors, identity
comparisons and lookups by ``id`` only.

The test's own ``isinstance`` and ``issubclass`` (what the rewriter hands a test that reads
those builtins) decide by the object's real type, never by what the candidate's objects
say of themselves: Python's ``isinstance(x, int)`` falls back to ``x.__class__`` (a
property anyone can define, so an object whose ``__class__`` says ``int`` passed ``assert
isinstance(f(3), int)``) and ``issubclass(obj, int)`` to ``obj.__bases__``. Here
``isinstance(x, C)`` is whether ``type(x)``'s ``__mro__`` holds ``C`` (``type``'s own
``__subclasscheck__``, identity only), for ``C`` of metaclass exactly ``type`` (or a
standard-library metaclass whose checks are ``type``'s, ``enum``'s), in a tuple or
``int | str`` at any depth, in order; when ``type(x)``'s metaclass is another, its
``__bases__`` are walked instead, since its own ``mro()`` may list classes it does not
derive from. For a class of metaclass exactly ``abc.ABCMeta`` (``numbers.Number``,
``collections.abc.Iterable``, an ``ABC`` of the test's or the candidate's) the ABC's own
subclass check is asked about ``type(x)``, never about ``x.__class__``; a registered class
and a subclass of the ABC whose metaclass is another stay what the ABC says.
``issubclass(K, C)`` takes a real class ``K`` only (else a ``TypeError``, as Python gives
for an object without ``__bases__``). Any other ``C`` (``typing``'s aliases and protocols,
a metaclass of the test's) gets Python's own answer. For every honest object these are
Python's answers.

``hold(found, metas, fresh)`` holds classes the runner found before any candidate code ran
(the server: those of the standard-library modules it has loaded, again each time that set
grows; W: those of the modules it preloaded for this suite), as ``id -> class``.
"""

from __future__ import annotations

__all__ = ["CLASSES"]

CLASSES = r'''
def make_classes(audit, error, type_dict, mro_of, flags_of, qualname_of, name_of, items,
                 candidate, base_exception, bases_of, subtype, union, union_args, abc_meta,
                 abc_check, real_isinstance, real_issubclass, current_exception, abc_dump,
                 subclasses_of):
    """(own, classes, hold, isinstance, issubclass, catch, the functions those hold): see
    ``_sandbox_classes.py``."""
    # (id -> class, id -> (metaclass, whether it is plain)) tables of the held classes:
    # the server's (replaced when it has loaded more), then W's for what it preloaded
    # (appended: W writes none of the server's pages)
    held = []

    def hold(found, metas, fresh, _held=held, _id=id, _append=list.append):
        """Hold the classes ``found`` and the metaclasses among them, ``metas`` ((metaclass,
        whether its instance and subclass checks are ``type``'s own) pairs): the runner's,
        found before any candidate code ran. ``fresh``: in place of all held so far."""
        table = ({_id(k): k for k in found}, {_id(pair[0]): pair for pair in metas})
        if fresh:
            _held[:] = [table]
        else:
            _append(_held, table)

    def held_meta(meta, _held=held, _id=id):
        """(``meta``, whether its instance and subclass checks are ``type``'s own) when
        ``meta`` is a metaclass the runner holds (the standard library's), else None."""
        for table in _held:
            pair = table[1].get(_id(meta))
            if pair is not None:
                return pair if pair[0] is meta else None
        return None

    def metaclass(k, _held_meta=held_meta, _mro=mro_of, _base=base_exception, _type=type):
        """Whether the metaclass of the candidate's class ``k`` (not ``type``) may decide
        an ``isinstance`` against it: a standard-library one (``enum.Enum``'s,
        ``abc.ABC``'s), and for an exception class one whose checks are ``type``'s own."""
        pair = _held_meta(_type(k))
        if pair is None:
            return False
        if pair[1]:
            return True
        for ancestor in _mro(k):
            if ancestor is _base:
                return False
        return True

    def whose(k, exception, name, _metaclass=metaclass, _dict=type_dict, _mro=mro_of,
              _flags=flags_of, _qualname=qualname_of, _items=items, _candidate=candidate,
              _base=base_exception, _held=held, _name=name_of, _type=type, _tuple=tuple,
              _str=str, _id=id):
        """The empty str when ``k`` (a class) is one the test may take from the candidate
        under ``name`` (the identifier it reads, or None), else why not."""
        found = False
        for table in _held:
            if table[0].get(_id(k)) is k:
                found = True
                break
        shown = _qualname(k)
        shown = shown if _type(shown) is _str else "?"
        if found:
            # (its name is the one it had before the candidate ran: a standard-library
            # class's attribute set while a test runs is a violation, see the channel)
            own_name = _name(k)
            if _type(name) is not _str or _type(own_name) is not _str or name != own_name:
                return "the class " + shown + " of the standard library, under another name"
        elif _type(k) is not _type and (exception or not _metaclass(k)):
            return "a class of another metaclass"
        else:
            if not _flags(k) & (1 << 9):  # not a heap type: a built-in class
                return "the built-in class " + shown + ", which its code did not define"
            module = None
            for pair in _tuple(_items(_dict(k))):  # one C call: a copy
                if _type(pair[0]) is not _str:
                    module = None
                    break
                if pair[0] == "__module__":
                    module = pair[1]
            if _type(module) is not _str or module != _candidate:
                return ("the class " + (module + "." if _type(module) is _str else "")
                        + shown + ", which its code did not define")
        if not exception:
            return ""
        for ancestor in _mro(k):
            if ancestor is _base:
                return ""
        return "the class " + shown + ", which is not an exception"

    def checked(expected, label, name, exception, _audit=audit, _error=error, _whose=whose,
                _flags=flags_of, _type=type, _tuple=tuple, _pop=list.pop,
                _extend=list.extend):
        stack, why, nodes = [expected], "", 0
        while stack and not why:
            k = _pop(stack)
            nodes += 1
            if nodes > 10000:
                why = "a tuple of too many classes"
            elif _type(k) is _tuple:
                _extend(stack, k)
            elif not _flags(_type(k)) & (1 << 31):  # not a class at all
                why = "an object that is not a class"
            else:
                why = _whose(k, exception, name)
        if why:
            what = ("an expected exception the test reads from the candidate must be a "
                    "class of its own code (metaclass type) or the standard library's"
                    if exception else "a class the test checks against, read from the "
                    "candidate, must be one of its own code or the standard library's")
            text = ("the test takes " + label + " from the candidate's code, which binds "
                    "it to " + why + ": " + what)
            _audit("erxr.plain", text.encode("utf-8", "replace")[:2000])
            raise _error(text)
        return expected

    def own(expected, label, name, _checked=checked):
        """``expected``, when ``pytest.raises(X)`` / ``except X`` may take it from the
        candidate's namespace (``label``: the test's text, ``name``: the identifier read,
        exact strs or None)."""
        return _checked(expected, label, name, True)

    def classes(expected, label, name, _checked=checked):
        """``expected``, when ``isinstance(x, X)`` / ``issubclass(x, X)`` may take it from
        the candidate's namespace."""
        return _checked(expected, label, name, False)
    def derives(k, c, _subtype=subtype, _bases=bases_of, _held_meta=held_meta,
                _type=type, _error=error, _pop=list.pop, _extend=list.extend):
        """Whether the class ``k`` derives from the class ``c``: ``c`` in ``k``'s
        ``__mro__`` (``type.__subclasscheck__``, identity only) when ``k``'s metaclass is
        ``type`` or the standard library's, else ``c`` among the classes its
        ``__bases__`` reach (a metaclass's own ``mro()`` may list a class ``k`` does
        not derive from)."""
        meta = _type(k)
        if meta is _type or _held_meta(meta) is not None:
            return _subtype(c, k)
        stack, nodes = [k], 0
        while stack:
            b = _pop(stack)
            if b is c:
                return True
            nodes += 1
            if nodes > 100000:
                raise _error("a class with too many bases")
            _extend(stack, _bases(b))
        return False

    def abc_says(c, k, _derives=derives, _held_meta=held_meta, _abc=abc_meta,
                 _dump=abc_dump, _subclasses=subclasses_of, _issubclass=real_issubclass,
                 _abc_check=abc_check,
                 _type=type, _getattr=getattr, _tuple=tuple, _set=set, _id=id, _len=len,
                 _error=error, _pop=list.pop, _extend=list.extend, _add=set.add,
                 _not_implemented=NotImplemented):
        """Whether the class ``k`` counts as a subclass of the ABC ``c`` (metaclass
        exactly ``abc.ABCMeta``), decided as ``ABCMeta.__subclasscheck__`` decides but
        without its caches and with every subclass and registered class of ``c`` checked
        here: an ABC of metaclass ``ABCMeta`` the same way (its ``__subclasshook__``
        first), a class of a standard-library subclass of ``ABCMeta`` (typing's
        protocols) by Python's check, any other
        (``type``'s, or a metaclass of the candidate's) by the classes ``k``'s bases
        reach. Asked only when Python's check said yes: a subclass of ``c`` whose own
        metaclass's ``__subclasscheck__`` says yes to any class (and so fills ``c``'s
        cache with them) decides nothing."""
        stack, seen = [c], _set()
        while stack:
            a = _pop(stack)
            if _id(a) in seen:
                continue
            _add(seen, _id(a))
            if _len(seen) > 100000:
                raise _error("an ABC with too many subclasses")
            meta = _type(a)
            if meta is not _abc:
                if _held_meta(meta) is not None and _issubclass(meta, _abc):
                    if _abc_check(a, k):  # (typing's protocols: asked as abc.py asks)
                        return True
                elif _derives(k, a):
                    return True
                continue
            ok = _getattr(a, "__subclasshook__")(k)
            if ok is True:
                return True
            if ok is False:
                continue  # (this ABC says no; another one below c may still say yes)
            if ok is not _not_implemented:
                raise _error("__subclasshook__ must return either False, True, or "
                             "NotImplemented")
            if _derives(k, a):
                return True
            _extend(stack, _subclasses(a))
            for ref in _tuple(_dump(a)[0]):  # (taken first: a registered class is often k)
                registered = ref()
                if registered is k:
                    return True
                if registered is not None:
                    stack.append(registered)
        return False

    def answers_itself(k, _mro=mro_of, _dict=type_dict, _items=items, _type=type,
                       _tuple=tuple, _str=str, _object=object, _flags=flags_of,
                       _names=("__class__", "__getattribute__", "__getattr__")):
        """Whether instances of the class ``k`` answer attribute reads themselves: a class
        of its ``__mro__`` (``object`` and the other immutable types aside: C types, whose
        ``__getattribute__``, a slot wrapper in ``int``'s namespace, is their own C code,
        which no Python code can replace) defines ``__class__`` (a property that can name
        any class), ``__getattribute__`` or ``__getattr__``. Each namespace is read key by
        key (a copy made in one C call), never searched. (``int`` counted: a protocol with
        a data member, asked about ``3`` by the ABC machinery from the runner's frame, was
        a TypeError where Python says no.)"""
        for base in _mro(k):
            if base is _object or _flags(base) & (1 << 8):  # Py_TPFLAGS_IMMUTABLETYPE
                continue
            for key, _value in _tuple(_items(_dict(base))):
                if _type(key) is _str and key in _names:
                    return True
        return False

    def decide(k, info, obj, subclass, _derives=derives, _held_meta=held_meta,
               _union=union, _args=union_args, _abc=abc_meta, _abc_check=abc_check,
               _abc_says=abc_says, _answers_itself=answers_itself, _getattr=getattr,
               _isinstance=real_isinstance, _issubclass=real_issubclass, _type=type,
               _tuple=tuple, _error=error, _pop=list.pop, _extend=list.extend):
        """Whether the class ``k`` (the real type of ``obj``, or ``obj`` itself when
        ``subclass``: None when that is not a class) counts as one of ``info``: a class,
        or a tuple or ``int | str`` of such at any depth, taken in order as Python does."""
        stack, nodes = [info], 0
        while stack:
            c = _pop(stack)
            nodes += 1
            if nodes > 10000:
                raise _error("a tuple of too many classes")
            meta = _type(c)
            if meta is _tuple:
                _extend(stack, c[::-1])
            elif meta is _union:
                _extend(stack, _args(c)[::-1])
            elif k is None:  # (as Python's: only once there is a class to check against)
                raise _error("issubclass() arg 1 must be a class")
            elif meta is _type:
                if _derives(k, c):
                    return True
            elif meta is _abc:  # the ABC's own check, of the real type (a yes: again,
                if _abc_check(c, k) and _abc_says(c, k):  # without caches)
                    return True
            else:
                pair = _held_meta(meta)
                if pair is not None and pair[1]:  # (enum's: type's own checks)
                    if _derives(k, c):
                        return True
                elif (not subclass and pair is not None and _issubclass(meta, _abc)
                      and _answers_itself(k)):
                    # a standard-library subclass of ABCMeta (typing's protocols) reads
                    # x.__class__ and x's attributes, which such an object makes up: the
                    # real type is asked instead, as abc.py asks
                    if (_getattr(c, "_is_protocol", False) is True
                            and _getattr(c, "_is_runtime_protocol", False) is not True):
                        raise _error("Instance and class checks can only be used with "
                                     "@runtime_checkable protocols")
                    if _abc_check(c, k):
                        return True
                elif _issubclass(obj, c) if subclass else _isinstance(obj, c):
                    return True  # (typing's aliases and protocols, a metaclass of another)
        return False

    def isinstance(obj, class_or_tuple, /, _decide=decide, _subtype=subtype, _type=type):
        """Whether the real type of ``obj`` is ``class_or_tuple`` or derives from it (or
        from one in a tuple or union of classes): never what ``obj.__class__`` says."""
        k = _type(obj)
        if _type(class_or_tuple) is _type and _type(k) is _type:
            return _subtype(class_or_tuple, k)
        return _decide(k, class_or_tuple, obj, False)

    def issubclass(cls, class_or_tuple, /, _decide=decide, _subtype=subtype, _type=type,
                   _flags=flags_of):
        """Whether the class ``cls`` is ``class_or_tuple`` or derives from it (or from one
        in a tuple or union of classes): ``cls`` must be a class, never an object whose
        ``__bases__`` say what it derives from."""
        if not _flags(_type(cls)) & (1 << 31):  # not a class at all
            return _decide(None, class_or_tuple, cls, True)
        if _type(class_or_tuple) is _type and _type(cls) is _type:
            return _subtype(class_or_tuple, cls)
        return _decide(cls, class_or_tuple, cls, True)
    def catch(expected, _current=current_exception, _derives=derives,
              _held_meta=held_meta, _type=type, _tuple=tuple, _error=error, _pop=list.pop,
              _extend=list.extend):
        """What a test's ``except X:`` matches (the rewriter makes it ``except
        CATCH(X):``, evaluated while the exception is being handled): ``X`` itself,
        unless the exception's class has a metaclass that is neither ``type`` nor the
        standard library's and its ``__bases__`` reach no class of ``X``; then ``()``,
        which matches nothing, so the exception goes on as if no handler named it.
        Python matches by the class's ``__mro__``, which such a metaclass's own
        ``mro()`` makes: it could list ``ValueError`` for a class that does not derive
        from it."""
        k = _type(_current())
        meta = _type(k)
        if meta is _type or _held_meta(meta) is not None:
            return expected
        stack, nodes = [expected], 0
        while stack:
            c = _pop(stack)
            nodes += 1
            if nodes > 10000:
                raise _error("a tuple of too many classes")
            if _type(c) is _tuple:
                _extend(stack, c)
            elif _derives(k, c):
                return expected
        return ()
    return own, classes, hold, isinstance, issubclass, catch, (whose, checked, metaclass,
                                                             held_meta, derives, decide,
                                                             abc_says, answers_itself)


def make_class_guard(audit, error, type_dict, items, name_of, flags_of, globals_of, mro_of,
                     function_type, getset_type):
    """((start, note, renote, checked, patched, swap), their helpers, (the classes held,
    the permit of ``swap``)): what keeps the
    classes a test defines as the test made them (``_ClassGuard`` in
    ``_sandbox_rewrite.py``; the channel refuses a new ``__class__`` for an instance of
    one of the classes held, ``make_channel``). Python 3.11 audits no write to
    a class's attributes, so a wrong function handed an instance of the test's class could
    rebind a method or value of it (``type(obj).value = ...``) that the test then reads.
    ``start()`` begins a test that defines classes; ``note(cls)``, after each class
    statement, holds the class's namespace (its (key, value) pairs, by identity);
    ``checked(value)``, around every call the test makes, returns ``value`` once every
    class held still binds what it bound: else the test is an error naming the class and
    the attribute. ``renote(names)``, after each statement of the test that writes an
    attribute, takes the test's own writes in: a held class may then differ only in the
    attributes ``names`` (those the statement writes; None: ``setattr`` with a computed
    name), and only if it is one of ``targets`` (the objects written; None: not known),
    and is held anew. Attributes that Python's own machinery stores lazily
    (``__annotations__``, read; ``__slotnames__``, by ``copy`` and ``pickle``) may change.
    The namespaces are read through ``type``'s own descriptor, compared by identity: no
    method of the candidate's runs here."""
    held = []  # [class, its (key, value) pairs] of this test
    # (and unittest's bookkeeping on a TestCase class it runs: suite.py's
    # _classSetupFailed, case.py's doClassCleanups)
    lazy = frozenset({"__annotations__", "__slotnames__", "_classSetupFailed",
                      "tearDown_exceptions"})
    # one per unittest.mock patcher of a test's class this test made (``patched``)
    patches = []
    absent = object()

    def start(_held=held, _patches=patches, _clear=list.clear):
        _clear(_held)
        _clear(_patches)

    def mapped(then, now, _type=type, _str=str):
        """Two namespaces' (key, value) pairs as two dicts, or None if a key is no str."""
        old, new = {}, {}
        for pairs, into in ((then, old), (now, new)):
            for key, value in pairs:
                if _type(key) is not _str:
                    return None
                into[key] = value
        return old, new

    def patched(make, cls, name, rest, named, _patches=patches, _dict=type_dict,
                _type=type, _str=str, _dict_type=dict, _tuple=tuple, _len=len,
                _name=name_of, _globals=globals_of, _function=function_type,
                _getset=getset_type, _absent=absent, _flags=flags_of, _append=list.append):
        """``patch.object(cls, name, *rest, **named)`` of the test's (``_ClassGuard``),
        called here: when it made unittest.mock's own patcher of ``cls``'s attribute
        ``name`` holding what the test gave it (``new``, else a plain mock made on entry:
        no ``new_callable`` / ``autospec``), that attribute may change to what it puts
        in and back (``accepts``). Read through ``type``'s descriptors and the patcher's own
        ``__dict__`` slot (no method of anyone's runs here but ``make``)."""
        patcher = make(cls, name, *rest, **named)
        kind = _type(patcher)
        if (_type(kind) is not _type or not _flags(_type(cls)) & (1 << 31)
                or _type(rest) is not _tuple or _type(named) is not _dict_type):
            return patcher
        space = _dict(kind)
        module, enter, slot = (space.get("__module__"), space.get("__enter__"),
                               space.get("__dict__"))
        if (_type(module) is not _str or module != "unittest.mock"
                or _name(kind) != "_patch" or _type(enter) is not _function
                or _type(slot) is not _getset):
            return patcher
        state = slot.__get__(patcher, kind)
        mock = _globals(enter)
        if _type(state) is not _dict_type or _type(mock) is not _dict_type:
            return patcher
        default = mock.get("DEFAULT", _absent)
        given = rest[0] if _len(rest) else named.get("new", default)
        if (state.get("attribute") != name or state.get("new", _absent) is not given
                or (given is default and (state.get("new_callable") is not None
                                          or state.get("autospec") is not None))):
            return patcher
        made = (mock.get("MagicMock", _absent), mock.get("AsyncMock", _absent),
                mock.get("NonCallableMagicMock", _absent))
        # [.., what its exit puts back, what it puts in, whether a mock it makes, the mock
        # classes, its __dict__, DEFAULT, seen entered, (the entry's exit stack, its mock)]
        _append(_patches, [cls, name, _dict(cls).get(name, _absent), given,
                           given is default, made, state, default, False, (None, None)])
        return patcher

    def accepts(cls, then, now, names, _patches=patches, _lazy=lazy, _type=type,
                _set=set, _absent=absent, _mro=mro_of, _len=len, _mapped=mapped):
        """The first key (or "?") ``now`` binds otherwise than ``then`` that neither
        ``names`` nor a patcher of the test's (``patched``) accounts for, or None. While a
        patcher of ``cls``'s attribute is entered, that attribute must bind what it put
        in (so candidate code cannot put the original back unseen); once it has exited,
        what its exit put back."""
        both = _mapped(then, now)
        if both is None:
            return "?"
        old, new = both
        for key in _set(old) | _set(new):
            if key in _lazy:
                continue
            if names is None or key in names:  # the test's own write: taken in
                for entry in _patches:
                    if entry[0] is cls and entry[1] == key:
                        entry[8] = False
                continue
            value = new.get(key, _absent)
            entered = fits = False
            for entry in _patches:
                if entry[0] is cls and entry[1] == key:
                    state = entry[6]
                    if state.get("target", _absent) is cls:
                        entered = entry[8] = True
                        original = state.get("temp_original", _absent)
                        entry[2] = (original if state.get("is_local") is True
                                    and original is not entry[7] else _absent)
                        if not entry[4]:
                            fits = value is entry[3]
                        else:  # the mock it made on this entry: seen at the first check
                            # after it (the rewriter puts one where the body starts)
                            stack = state.get("_exit_stack", _absent)
                            if entry[9][0] is not stack:
                                bases = _mro(_type(value))
                                if (value is not _absent and _len(bases) >= 2 and (
                                        bases[1] is entry[5][0] or bases[1] is entry[5][1]
                                        or bases[1] is entry[5][2])):
                                    entry[9] = (stack, value)
                            fits = entry[9][0] is stack and value is entry[9][1]
                    elif entry[8]:  # exited since it was seen entered: what its exit
                        entered = True  # put back, even if the held value is that again
                        if value is entry[2]:
                            fits = True
                            entry[8] = False  # (the exit seen: held as before from now)
            if entered or value is not old.get(key, _absent):
                if not fits:
                    return key
        return None

    def note(cls, _held=held, _dict=type_dict, _items=items, _tuple=tuple, _type=type,
             _flags=flags_of, _append=list.append):
        if _flags(_type(cls)) & (1 << 31):  # a class (a decorator may return anything)
            _append(_held, [cls, _tuple(_items(_dict(cls)))])
        return cls

    def differs(then, now, names, _lazy=lazy, _len=len, _set=set, _zip=zip,
                _mapped=mapped):
        """The first key (a str, or "?") ``now`` binds otherwise than ``then`` among the
        keys that may not change (not ``names``, not lazily stored), or None."""
        if _len(then) == _len(now):
            for a, b in _zip(then, now):
                if a[0] is not b[0] or a[1] is not b[1]:
                    break
            else:
                return None
        both = _mapped(then, now)
        if both is None:
            return "?"
        old, new = both
        for key in _set(old) | _set(new):
            if key in _lazy or names is None or key in names:
                continue
            if key not in old or key not in new or old[key] is not new[key]:
                return key
        return None

    def refuse(cls, key, _audit=audit, _error=error, _name=name_of, _type=type, _str=str):
        name = _name(cls)
        text = ("the test's class " + (name if _type(name) is _str else "?") + " was "
                "changed by candidate code while the test ran (its attribute " + key
                + " rebound, added or deleted): a class the test defines keeps the "
                "attributes the test gives it")
        _audit("erxr.plain", text.encode())
        raise _error(text)

    def checked(value, _held=held, _dict=type_dict, _items=items, _tuple=tuple,
                _differs=differs, _refuse=refuse, _none=(), _patches=patches,
                _accepts=accepts):
        for entry in _held:
            now = _tuple(_items(_dict(entry[0])))
            # (with patchers of the test's: an entered one's attribute must still be what
            # it put in)
            key = (_accepts(entry[0], entry[1], now, _none) if _patches
                   else _differs(entry[1], now, _none))
            if key is not None:
                _refuse(entry[0], key)
            entry[1] = now
        return value

    def renote(names, targets, _held=held, _dict=type_dict, _items=items, _tuple=tuple,
               _differs=differs, _refuse=refuse, _type=type, _none=(), _patches=patches,
               _accepts=accepts):
        if _type(targets) is not _tuple:
            targets = None
        for entry in _held:
            now = _tuple(_items(_dict(entry[0])))
            written = names
            if targets is not None:  # (the objects the test's statement wrote)
                written = _none
                for target in targets:
                    if target is entry[0]:
                        written = names
                        break
            key = (_accepts(entry[0], entry[1], now, written) if _patches
                   else _differs(entry[1], now, written))
            if key is not None:
                _refuse(entry[0], key)
            entry[1] = now
    permit = []  # [the instance, its new class] while ``swap`` writes it

    def swap(cls, obj, _permit=permit, _set=setattr, _append=list.append,
             _clear=list.clear):
        """``obj.__class__ = cls`` written in the test's own code (``_ClassGuard``): the
        channel lets this one through (``permit``, read by ``make_channel``) while
        refusing a new class for an instance of a held class from anyone else. The write
        is Python's (``setattr``: a ``__setattr__`` of the instance's class runs, as it
        would); only this instance may be given this class while the permit is out."""
        _append(_permit, obj)
        _append(_permit, cls)
        try:
            _set(obj, "__class__", cls)
        finally:
            _clear(_permit)

    return ((start, note, renote, checked, patched, swap), (differs, refuse, accepts, mapped),
            (held, permit))
'''
