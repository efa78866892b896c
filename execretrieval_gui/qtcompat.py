"""Work-around for PySide6 6.12 on Python 3.11, detected at import, applied only if needed.

PySide6 6.12 returns ``None`` from void methods (``setText``, ``processEvents``, ...) and
``True`` from ``SignalInstance.emit()`` without taking a reference, as if those singletons
were immortal. They are immortal from Python 3.12 on (PEP 683), but not on 3.11: there every
such call steals one reference, and after some thousands of calls the interpreter aborts
with "Fatal Python error: none_dealloc" (or bool_dealloc) in the middle of a session.

We probe once; if references leak, we do for ``None``, ``True`` and ``False`` what 3.12
does — make them effectively immortal by giving them a reference count no session can use
up (2**40). The proper fix is a PySide6 build without the bug (below 6.12 on Python 3.11).
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal

__all__ = ["BINDING_LEAKS_REFERENCES", "binding_leaks_references"]

_HEADROOM = 1 << 40


class _Probe(QObject):
    ping = Signal()


def binding_leaks_references(trials: int = 64) -> bool:
    """True if void calls or ``emit()`` lose references to None/True (PySide6 6.12 on 3.11)."""
    probe = _Probe()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(trials):
        probe.setObjectName("probe")
        probe.ping.emit()
    lost_none = none_before - sys.getrefcount(None)
    lost_true = true_before - sys.getrefcount(True)
    return lost_none >= trials // 2 or lost_true >= trials // 2


def _immortalize() -> bool:
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False   # singletons are immortal already (PEP 683), or not CPython
    if not binding_leaks_references():
        return False
    import ctypes  # only where the binding leaks (a few ms at every start otherwise)

    for obj in (None, True, False):
        # ob_refcnt is the first field of every CPython 3.11 object
        refcnt = ctypes.c_ssize_t.from_address(id(obj))
        if refcnt.value < _HEADROOM:
            refcnt.value += _HEADROOM
    return True


BINDING_LEAKS_REFERENCES = _immortalize()
