"""The fork server's ctypes seal (``core/oracle/_sandbox_seal.py``), run in a fresh
interpreter as the server runs it: after it no ctypes type makes an instance or a class,
what was made before still works, and a ctypes object the caller does not keep makes the
seal refuse (the server then refuses to start) rather than leave it in reach. The attacks
through a real worker are in ``test_sandbox_channel.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ORACLE = Path(__file__).resolve().parent.parent / "core" / "oracle"

PRELUDE = f"""
import sys
sys.path.insert(0, {str(ORACLE)!r})
import ctypes, _sandbox_seal
libc = ctypes.CDLL(None)
libc.getpid  # looked up (and cached by the library) before the seal
kept = ((ctypes.c_uint32 * 2)(7, 8),)  # as the server keeps its capset arrays
"""


def _run(body: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-s", "-S", "-c", PRELUDE + body],
                          capture_output=True, text=True, timeout=60)


def test_after_the_seal_nothing_new_but_what_was_made_still_works():
    done = _run("""
import os
n = _sandbox_seal.seal((libc, kept))
refused = []
for label, attempt in [
        ("c_char_p", lambda: ctypes.c_char_p(b"x")),
        ("c_void_p", lambda: ctypes.c_void_p(1)),
        ("union", lambda: type(ctypes.Union)("U", (ctypes.Union,), {"_fields_": []})),
        ("type()", lambda: type("U", (ctypes.Union,), {})),
        ("structure", lambda: type("S", (ctypes.Structure,), {})),
        ("array type", lambda: ctypes.c_int * 3),
        ("existing array type", lambda: (ctypes.c_uint32 * 2)()),
        ("pointer", lambda: ctypes.POINTER(ctypes.c_double)),
        ("metatype", lambda: type(ctypes.c_int)("X", (), {"_type_": "i"})),
        ("metatype subclass", lambda: type("M", (type(ctypes.c_int),), {})),
        ("_SimpleCData.__new__", lambda: ctypes._SimpleCData.__new__(ctypes.c_char_p)),
        ("object.__new__", lambda: object.__new__(ctypes.c_int)),
        ("new function pointer", lambda: libc.getppid),
        ("new library", lambda: ctypes.CDLL(None))]:
    try:
        attempt()
    except TypeError:
        refused.append(label)
import _ctypes
print(n, len(refused), libc.getpid() == os.getpid(), list(kept[0]), hasattr(_ctypes, "Py_DECREF"),
      hasattr(ctypes, "memmove"), hasattr(ctypes, "pythonapi"))
""")
    assert done.returncode == 0, done.stderr
    count, refused, *rest = done.stdout.split()
    assert int(count) > 40  # the _ctypes types, the metatypes and ctypes' own classes
    assert refused == "14"
    assert rest == ["True", "[7,", "8]", "False", "False", "False"]


@pytest.mark.parametrize("stray, where", [
    ("stray = ctypes.c_int(5)", "dict"),
    ("stray = [libc.getppid]", "list"),
])
def test_a_ctypes_object_left_in_reach_stops_the_seal(stray, where):
    done = _run(stray + """
try:
    _sandbox_seal.seal((libc, kept))
except _sandbox_seal.SealError as exc:
    print("refused:", exc)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: a ctypes object is held by a " + where), done.stdout
