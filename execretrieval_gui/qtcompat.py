"""Work-arounds for PySide6, applied at import, before anything else touches Qt.

**Feature scans.** PySide6's ``__feature__`` import hook reads the source of every module
an ``import`` statement names after PySide6 is loaded — ``typing``, ``inspect``, ``os`` and
each of ours, at every start — to see whether it says "PySide6" (a module may opt into the
``snake_case`` / ``true_property`` features; we use none). The hook skips a module whose
name its table already holds, so we fill the table with the answer its scan would give:
``-1`` ("ignore this module") for the standard library, the modules loaded so far and the
engine, ``0`` (the default features) for this package's modules. ~10-20 ms of a start.

**References.** PySide6 6.12 on Python 3.11, detected at import, applied only if needed.

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

import os
import sys
from importlib.util import find_spec

from PySide6.QtCore import QObject, Signal

__all__ = ["BINDING_LEAKS_REFERENCES", "binding_leaks_references", "module_names"]

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


def module_names(package: str) -> set[str]:
    """Every module and package name under ``package``, from its folders (nothing imported
    but the package's spec)."""
    spec = find_spec(package)
    names = {package}
    for root in (spec.submodule_search_locations or []) if spec else []:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d.isidentifier() and d != "__pycache__"]
            rel = os.path.relpath(folder, root)
            prefix = package if rel == "." else f"{package}.{rel.replace(os.sep, '.')}"
            names.add(prefix)
            names.update(f"{prefix}.{f[:-3]}" for f in files
                         if f.endswith(".py") and f != "__init__.py")
    return names


def _skip_feature_scans() -> int:
    """Mark modules for PySide6's feature hook so it reads no source (see above); returns
    how many names were added (0 if this PySide6 has no such table)."""
    try:
        from PySide6.support import feature
        marks = feature.pyside_feature_dict
    except (ImportError, AttributeError):
        return 0
    if not isinstance(marks, dict):
        return 0
    before = len(marks)
    for name in module_names(__package__ or "execretrieval_gui"):
        marks.setdefault(name, 0)
    for name in (*sys.modules, *sys.stdlib_module_names, *module_names("execretrieval")):
        marks.setdefault(name, -1)
    return len(marks) - before


FEATURE_SCANS_SKIPPED = _skip_feature_scans()
BINDING_LEAKS_REFERENCES = _immortalize()
