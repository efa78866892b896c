"""The sandbox's own code sources, compiled once per installation (stdlib only).

The fork server executes two large sources in bare globals (the channel and guard hooks of
``_sandbox_channel.py``; the comparison rules of ``_sandbox_compare.py``). Compiling them
cost ~11 ms of every server's start-up (about a third of it), and a module's ``.pyc`` does
not hold code made by ``compile()`` at run time. So the host writes each one's code object
next to the server modules' bytecode caches (:func:`write`, as it writes those), and the
server reads it back (:func:`load`) only when the file's header carries the digest of the
very source the server holds in memory and this interpreter's bytecode magic; anything else
(a missing, stale, truncated or foreign file) is compiled afresh, as before. The file is
as trusted as the ``.pyc`` files beside it: both sit in the installation, written by the
host before any server starts, and read by the server before any candidate code runs.
"""

from __future__ import annotations

import marshal
import os
import sys
from _blake2 import blake2b

_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")


def _magic() -> bytes:
    external = sys.modules.get("_frozen_importlib_external")
    return getattr(external, "MAGIC_NUMBER", b"") or sys.version.encode()


def _header(source: str, filename: str) -> bytes:
    digest = blake2b(source.encode("utf-8", "surrogatepass"), digest_size=32,
                     person=b"erxr-code")
    digest.update(filename.encode())
    return b"ERXC" + _magic()[:4] + digest.digest()


def path(name: str) -> str:
    """Where the code of ``name`` (``hooks`` or ``compare``) is cached."""
    tag = sys.implementation.cache_tag or "python"
    return os.path.join(_FOLDER, f"_sandbox_{name}.{tag}.code")


def load(name: str, source: str, filename: str):  # type: ignore[no-untyped-def]
    """``compile(source, filename, "exec")``, read from the cache when it holds that code."""
    header = _header(source, filename)
    try:
        with open(path(name), "rb") as handle:
            data = handle.read()
        if data[:len(header)] == header:
            code = marshal.loads(data[len(header):])
            if type(code).__name__ == "code":
                return code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return compile(source, filename, "exec")


def write(name: str, source: str, filename: str) -> bool:
    """Write the cache of ``name`` unless it already holds this source's code; atomically
    (a reader sees the old file or the new one). False if the folder is not writable."""
    header = _header(source, filename)
    target = path(name)
    try:
        with open(target, "rb") as handle:
            if handle.read(len(header)) == header:
                return True
    except OSError:
        pass
    data = header + marshal.dumps(compile(source, filename, "exec"))
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        os.makedirs(_FOLDER, exist_ok=True)
        with open(temporary, "wb") as handle:
            handle.write(data)
        os.replace(temporary, target)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False
    return True
