"""Inside the sandbox: dict version tags, read through views the server made (stdlib only).

Imported by the fork server through :mod:`_sandbox_runner`, never by the engine. CPython
3.11 raises no audit event when a dict item changes, but every dict carries a version tag
(``PyDictObject.ma_version_tag``, a ``uint64_t`` right after ``PyObject_HEAD`` and
``ma_used``) that the interpreter sets from a global counter on every real mutation
(insert, replacing a value by another object, delete, clear, ``update``, ``STORE_GLOBAL``,
a module's ``setattr``); storing the very object a key already holds leaves it. So a tag
that reads the same as before means the dict was not changed in between, soundly, at the
cost of reading one word; a changed tag says only that something was written (3.12 keeps
watcher bits in the tag's low 8 bits: whole tags are compared, any change is a change).

A view is a ``ctypes.c_uint64`` at the dict's address plus 24, made by the server before
any hook is installed (``from_address`` raises ``ctypes.cdata``, which W's guard refuses,
so no dict made in W has one). Whoever holds a view can also *write* the tag and blind the
watch, so views live only in the keyword defaults of the functions made here (``tag``
reads one, ``add`` makes them, server-side), functions the guard hides like the other
holders of the runner's secrets. Their ``__globals__`` holds builtins only.

:func:`make_tags` checks the layout first (a tag changes on a set, a delete, a clear, not
on an identical store; ``ma_used`` at offset 16 is ``len(d)``) and raises
:class:`TagError` when it does not hold: the server then refuses to start, as for
``SealError``.
"""

from __future__ import annotations

import builtins

__all__ = ["TagError", "make_tags", "OFFSET"]

# bytes from a dict's address to its ma_version_tag (ob_refcnt, ob_type, ma_used)
OFFSET = 24

_TAGS = r'''
def make(from_address, offset, value_of, _dict=dict):
    table = {}  # id(dict) -> (the dict, its view): the dict kept alive, so no id reused

    def tag(space, _table=table, _get=_dict.get, _id=id, _value=value_of):
        """The version tag of ``space``, or None when it has no view (made after the server
        made its views: a W's own dicts)."""
        found = _get(_table, _id(space))
        if found is None or found[0] is not space:
            return None
        return _value(found[1])

    def add(spaces, _table=table, _new=from_address, _offset=offset, _id=id,
            _type=type, _dict=_dict):
        """Views of the exact dicts among ``spaces`` that have none yet (the server's only:
        in W, ``from_address`` is refused)."""
        for space in spaces:
            if _type(space) is _dict and _id(space) not in _table:
                _table[_id(space)] = (space, _new(_id(space) + _offset))
    return tag, add
'''


class TagError(RuntimeError):
    """Dict version tags do not behave as this module needs: the server must not start."""


def _check_layout(from_address, value_of) -> None:  # type: ignore[no-untyped-def]
    """What the watch relies on, on this interpreter: raise TagError if any of it fails."""
    import ctypes

    def used(d: dict) -> int:
        return int(ctypes.c_ssize_t.from_address(id(d) + OFFSET - 8).value)

    d: dict = {}
    view = from_address(id(d) + OFFSET)
    marker = object()
    steps = [("a set", lambda: d.__setitem__("k", marker), True),
             ("an identical store", lambda: d.__setitem__("k", marker), False),
             ("a replace", lambda: d.__setitem__("k", object()), True),
             ("a second key", lambda: d.__setitem__("j", 1), True),
             ("a delete", lambda: d.__delitem__("j"), True),
             ("a clear", d.clear, True)]
    for what, step, changes in steps:
        before = value_of(view)
        step()
        if (value_of(view) != before) is not changes:
            raise TagError(f"a dict's version tag {'did not change' if changes else 'changed'}"
                           f" on {what}")
        if used(d) != len(d):
            raise TagError("a dict's ma_used is not where its version tag's layout needs it")
    if used(vars(builtins)) != len(vars(builtins)):
        raise TagError("builtins' ma_used is not where the version tag's layout needs it")
    space = type(builtins)("probe").__dict__
    view = from_address(id(space) + OFFSET)
    before = value_of(view)
    exec("x = 1", space)  # STORE_NAME in a module
    if value_of(view) == before:
        raise TagError("a module namespace's version tag did not change on a store")


def make_tags() -> tuple:
    """(tag, add): see the module docstring. Once per server, before any hook or fork."""
    import ctypes

    value_of = ctypes._SimpleCData.__dict__["value"].__get__
    _check_layout(ctypes.c_uint64.from_address, value_of)
    space: dict = {"__builtins__": builtins}
    exec(compile(_TAGS, "<sandbox-tags>", "exec"), space)
    return space["make"](ctypes.c_uint64.from_address, OFFSET, value_of)
