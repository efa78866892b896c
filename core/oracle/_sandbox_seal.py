"""Inside the sandbox: make every ctypes type unusable in the fork server (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. The server needs
ctypes for its set-up and for a few libc calls (prctl, capset/capget, unshare, setns); a
worker forked from it inherits the ``_ctypes`` extension's types, which candidate code finds
through ``type.__subclasses__`` even though it cannot import ctypes. Creating a ctypes
instance or class raises no audit event, and a Union of ``c_void_p`` and ``c_char_p`` reads
(an array at an address writes) any memory, the channel's key included.

:func:`seal` runs once per server, after its last new ctypes object and before it forks a
worker. For every type of the family (the subclasses of ``_ctypes._CData``, the six
metatypes and their subclasses, ``StgDict`` and the other ``_ctypes`` types) it clears
``Py_TPFLAGS_BASETYPE`` (no subclass: "not an acceptable base type") and removes
``__new__`` from the type's dict; a data type's ``tp_new`` becomes NULL (``T()`` is "cannot
create 'T' instances", ``X.__new__(T)`` is "not safe"), a metatype's becomes ``NoneType``'s
(``type("U", (Union,), {})`` hands the call to the metatype's ``tp_new`` unchecked, so NULL
would crash there; ``none_new`` refuses any argument and allocates nothing). Then
``PyType_Modified`` drops the lookups cached for them. Objects made before the seal keep
working: the libc function pointers and the capset arrays the worker fills. Calling a
function pointer raises no audit event, so ctypes' own (``memmove``, ``memset``,
``pythonapi``, ...) leave its namespace, and every one left must be held by a library the
caller keeps (the server's libc, which a worker drops before candidate code runs);
``Py_INCREF``, ``Py_DECREF`` and ``dlclose``, which the ``_ctypes`` module offers without
an audit event, leave its namespace too.

The slots are written through ctypes at offsets of ``PyTypeObject`` that are checked first
against what Python itself reports (``__flags__``, ``__basicsize__``, ``__base__``, the type's
dict, ...); where any check fails, or a type still makes an instance afterwards, the server
refuses to start (:class:`SealError`) rather than run candidates with ctypes usable.
"""

from __future__ import annotations

import gc
import sys

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)
if TYPE_CHECKING:
    from typing import Any

_BASETYPE = 1 << 10  # Py_TPFLAGS_BASETYPE
# PyTypeObject, in machine words (CPython 3.11/3.12 on Linux, 64- or 32-bit: every field
# up to tp_new is a pointer, a Py_ssize_t or an unsigned long): each one is checked at
# run time before anything is written.
_BASICSIZE, _ITEMSIZE, _WEAKLIST, _FLAGS, _BASE, _DICT, _DICTOFFSET, _NEW = \
    4, 5, 26, 21, 32, 33, 36, 39
_SCRUBBED = ("Py_INCREF", "Py_DECREF", "dlclose")  # _ctypes functions with no audit event


class SealError(RuntimeError):
    """ctypes could not be made unusable here: the server must not run candidates."""


def _walk(root: type) -> list[type]:
    seen: dict[int, type] = {id(root): root}
    stack = [root]
    while stack:
        subs: list[type] = type.__subclasses__(stack.pop())
        for sub in subs:
            if id(sub) not in seen:
                seen[id(sub)] = sub
                stack.append(sub)
    return list(seen.values())


def family() -> tuple[list[type], list[type]]:
    """(data types, metatypes): every type the ``_ctypes`` extension made or that derives
    from one, as reachable from ``object`` now."""
    import _ctypes

    data = _walk(_ctypes._SimpleCData.__mro__[1])  # _CData
    metas: list[type] = []
    for base in (_ctypes.Structure, _ctypes.Union, _ctypes._Pointer, _ctypes.Array,
                 _ctypes._SimpleCData, _ctypes.CFuncPtr):
        metas += [m for m in _walk(type(base)) if m not in metas]
    stgdict = type(gc.get_referents(vars(_ctypes._SimpleCData))[0])
    others = _walk(stgdict) if stgdict is not dict else []
    module_of = type.__dict__["__module__"].__get__
    known = {id(t) for t in data + metas + others}
    data_ids, meta_ids = {id(t) for t in data}, {id(m) for m in metas}
    for t in _walk(object):
        if id(t) not in known and module_of(t) == "_ctypes":
            others.append(t)
        elif id(t) not in data_ids and (id(type(t)) in meta_ids
                                        or any(id(b) in data_ids for b in t.__mro__)):
            raise SealError(f"a ctypes type outside the family: {t!r}")
    return data + others, metas


def _check_layout(view, word_bits: int, types_: list[type]) -> int:  # type: ignore[no-untyped-def]
    """Verify the offsets on every type to be written and on reference types; return
    ``NoneType``'s tp_new."""
    class Plain:
        pass

    class New1:
        def __new__(cls):  # type: ignore[no-untyped-def]
            return None

    class New2:
        def __new__(cls):  # type: ignore[no-untyped-def]
            return None

    refs = [object, type, type(None), type(iter([])), Plain, New1, New2]
    words = [view.from_address(id(t)) for t in refs + types_]
    for t, w in zip(refs + types_, words, strict=True):
        base = t.__base__
        expected = [(_FLAGS, t.__flags__), (_BASICSIZE, t.__basicsize__),
                    (_ITEMSIZE, t.__itemsize__), (_WEAKLIST, t.__weakrefoffset__),
                    (_DICTOFFSET, t.__dictoffset__ % (1 << word_bits)),
                    (_BASE, 0 if base is None else id(base)),
                    (_DICT, id(gc.get_referents(vars(t))[0]))]
        for offset, value in expected:
            if w[offset] != value:
                raise SealError(f"PyTypeObject word {offset} of {t.__qualname__} is "
                                f"{w[offset]:#x}, expected {value:#x}: unknown layout "
                                f"(Python {sys.version.split()[0]})")
    new = {t: w[_NEW] for t, w in zip(refs, words, strict=False)}
    if not (new[object] and new[object] == new[Plain] and new[New1] == new[New2]
            and new[New1] not in (0, new[object]) and new[type(iter([]))] == 0
            and new[type(None)] not in (0, new[object], new[New1], new[type])):
        raise SealError(f"tp_new is not at word {_NEW} of PyTypeObject "
                        f"(Python {sys.version.split()[0]})")
    return new[type(None)]


def seal(keep: tuple = ()) -> int:
    """Make every ctypes type unusable in this process and its forks; the number sealed.
    ``keep``: what may hold a ctypes object from now on (the libraries, ``CDLL`` objects,
    whose looked-up functions the server goes on calling, and the capset arrays); a worker
    drops them before candidate code runs. Raises :class:`SealError`
    (nothing half-done is then used: the server stops)."""
    import ctypes

    if sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info[:2] <= (3, 12):
        raise SealError(f"cannot seal ctypes on {sys.implementation.name} "
                        f"{sys.version.split()[0]} (CPython 3.11 or 3.12 only)")
    # What is needed to write and check, made before the family is listed (a new array
    # type is a new member of it)
    view = ctypes.c_size_t * (_NEW + 2)
    python = ctypes.pythonapi
    modified = python.PyType_Modified
    modified.restype = None
    data, metas = family()
    none_new = _check_layout(view, 8 * ctypes.sizeof(ctypes.c_size_t), data + metas)
    words = [view.from_address(id(t)) for t in data + metas]
    arguments = [ctypes.py_object(t) for t in data + metas]
    dicts = [gc.get_referents(vars(t))[0] for t in data + metas]
    for t, space in zip(data + metas, dicts, strict=True):
        if "__new__" in space and sys.getrefcount(space["__new__"]) != 2:
            raise SealError(f"something besides {t.__qualname__}'s dict holds its __new__")
    for n, (w, space) in enumerate(zip(words, dicts, strict=True)):
        w[_FLAGS] &= ~_BASETYPE
        w[_NEW] = 0 if n < len(data) else none_new
        space.pop("__new__", None)
    for argument in arguments:
        modified(argument)
    del python.PyType_Modified  # (the library's cache held it)
    del arguments, modified, words, python
    import _ctypes

    for name in _SCRUBBED:
        vars(_ctypes).pop(name, None)
    _self_test(data, metas)
    _drop_function_pointers(ctypes, keep)
    return len(data) + len(metas)


def _drop_function_pointers(ctypes, keep: tuple) -> None:  # type: ignore[no-untyped-def]
    """Calling a function pointer made before raises no audit event (``ctypes.memmove``
    with two addresses writes anywhere): take ctypes' own out of its namespace, then check
    that every one left lives in a kept library's cache only."""
    import _ctypes

    held = (ctypes.CDLL, ctypes.LibraryLoader, _ctypes.CFuncPtr)
    for module in [m for n, m in sys.modules.items() if n.partition(".")[0] == "ctypes"]:
        space = vars(module)  # ctypes and what star-imported it (ctypes._endian)
        for name in [n for n, v in space.items() if isinstance(v, held)]:
            del space[name]
    # (3.11 keeps an instance's attributes inline: the library itself refers to them)
    allowed = [*keep, *[vars(k) for k in keep if hasattr(k, "__dict__")]]
    cdata = _ctypes._SimpleCData.__mro__[1]
    made = [o for o in gc.get_objects() if isinstance(o, cdata)]
    for referrer in gc.get_referrers(*made):  # (one walk of the heap for all)
        if referrer is made or referrer is allowed or referrer is keep or isinstance(
                referrer, cdata):
            continue  # (a function pointer's own objects)
        if not any(referrer is k for k in allowed):
            del made
            raise SealError(f"a ctypes object is held by a {type(referrer).__name__} the "
                            "server does not keep")
    del made


def _self_test(data: list[type], metas: list[type]) -> None:
    """Each way to a new ctypes object must now be a TypeError."""
    import _ctypes

    attempts: list[tuple[str, Any, tuple]] = [(t.__qualname__ + "()", t, ()) for t in data]
    attempts += [(m.__qualname__ + "(...)", m, ("X", (), {"_type_": "P", "_fields_": []}))
                 for m in metas]
    attempts += [(f"type(X, ({t.__qualname__},), {{}})", type, ("X", (t,), {}))
                 for t in data + metas]
    simple = [t for t in data if t.__name__ == "c_char_p"] + [_ctypes._SimpleCData]
    attempts += [("_SimpleCData.__new__(c_char_p)", _ctypes._SimpleCData.__new__,
                  tuple(simple[:1]))]
    for label, call, args in attempts:
        try:
            made = call(*args)
        except TypeError:
            continue
        raise SealError(f"ctypes still usable after sealing: {label} gave {type(made)!r}")
    now = family()
    if set(map(id, now[0] + now[1])) != set(map(id, data + metas)):
        raise SealError("a ctypes type appeared while sealing")
