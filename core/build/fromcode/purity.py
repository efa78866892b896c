"""Is a canonical pure? A probe that runs its calls with the impure world cut off.

The sandbox already refuses files, sockets and processes (a refusal is an exception the
function raises there), and :func:`~execretrieval.inputs.build_input_sets` already drops
answers that differ between two runs or two hash seeds. What neither sees is a function
that *succeeds* through the impure world: it reads the clock and rounds it away, asks
``os.path.exists`` of a path that is simply absent in the sandbox, draws a random number
that happens to be the same under one seed. So the probe, an ordinary test run by the
oracle, rebinds the impure names in the canonical's own namespace (never a module, never
``builtins``: the runner's fingerprint of those stays intact) before each call:

* ``open`` and ``input``;
* the modules ``time``, ``random``, ``secrets``, ``uuid``, ``socket``, ``subprocess``,
  ``shutil``, ``tempfile``, ``glob``, ``select``, ``signal``, ``threading``,
  ``multiprocessing``, ``urllib.request``, ``http.client``: every call through them is
  recorded (``time.gmtime(0)`` and ``random.Random(3)`` are pure and pass);
* ``os``: everything but the pure names (``os.sep``, ``os.fspath``, ...), and
  ``os.path``'s functions that ask the file system (``exists``, ``abspath``,
  ``expanduser``...); ``os.environ`` reads are recorded too;
* functions bound directly (``from time import time``, ``from os import getcwd``,
  ``from random import choice``) by where they come from.

A recorded use is printed, framed by :data:`~execretrieval.inputs.probes.MARK`, and
:func:`impurity` turns the first one into the skip reason. ``datetime.date.today()`` is
not seen (its class cannot be rebound without changing what it returns); a function
that uses it and returns a date returns no plain data and is skipped for that anyway.
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from collections.abc import Sequence

from ...errors import InputFormatError
from ...inputs.plain import from_source
from ...inputs.probes import MARK
from ...oracle.results import TestOutcome

__all__ = ["IMPURE_REASONS", "impurity", "purity_code", "purity_probe", "read_uses"]

#: what a recorded use says about the function, by the kind the probe records
IMPURE_REASONS = {
    "clock": "reads the clock",
    "random": "uses randomness",
    "file": "does file I/O",
    "network": "does network I/O",
    "process": "starts processes or threads",
    "environment": "reads the environment",
    "input": "reads standard input",
}

_SETUP = r'''
import sys as _erx_sys
_erx_uses = []
_ERX_KIND = {"time": "clock", "random": "random", "_random": "random", "secrets": "random",
             "uuid": "random", "socket": "network", "_socket": "network",
             "subprocess": "process", "_posixsubprocess": "process", "shutil": "file",
             "tempfile": "file", "glob": "file", "select": "network", "signal": "process",
             "threading": "process", "_thread": "process", "multiprocessing": "process",
             "urllib.request": "network", "http.client": "network", "os": "file",
             "posix": "file", "posixpath": "file", "genericpath": "file"}
_ERX_OS_PURE = frozenset({"path", "sep", "altsep", "extsep", "pathsep", "linesep", "curdir",
                          "pardir", "defpath", "devnull", "name", "fspath", "fsencode",
                          "fsdecode", "PathLike", "error", "strerror", "SEEK_SET", "SEEK_CUR",
                          "SEEK_END", "supports_bytes_environ", "sys", "abc", "st"})
_ERX_PATH_ASKS = frozenset({"exists", "lexists", "isfile", "isdir", "islink", "ismount",
                            "isjunction", "isdevdrive", "getsize", "getmtime", "getatime",
                            "getctime", "samefile", "sameopenfile", "samestat", "realpath",
                            "abspath", "expanduser", "expandvars"})
_ERX_PURE_CALLS = {("time", "gmtime"): 1, ("time", "asctime"): 1, ("time", "strftime"): 2,
                   ("random", "Random"): 1}

def _erx_pure_call(module, name, args):
    need = _ERX_PURE_CALLS.get((module, name))
    return need is not None and len(args) >= need

def _erx_recorded(function, module, name):
    kind = _ERX_KIND.get(module, "file")
    def _erx_call(*args, **kwargs):
        if not _erx_pure_call(module, name, args):
            _erx_uses.append(kind + ":" + module + "." + name)
        return function(*args, **kwargs)
    return _erx_call

class _erx_Environ:
    def __getattr__(self, name):
        _erx_uses.append("environment:os.environ")
        return getattr(_erx_sys.modules["os"].environ, name)
    def __getitem__(self, key):
        _erx_uses.append("environment:os.environ")
        return _erx_sys.modules["os"].environ[key]
    def __contains__(self, key):
        _erx_uses.append("environment:os.environ")
        return key in _erx_sys.modules["os"].environ

class _erx_Module:
    def __init__(self, module, label):
        object.__setattr__(self, "_erx_m", (module, label))
    def __getattr__(self, name):
        module, label = object.__getattribute__(self, "_erx_m")
        value = getattr(module, name)
        if label == "os":
            if name == "path":
                return _erx_Module(value, "os.path")
            if name == "environ":
                return _erx_Environ()
            if name in _ERX_OS_PURE or not callable(value):
                return value
        elif label == "os.path":
            if name not in _ERX_PATH_ASKS:
                return value
        elif not callable(value) or isinstance(value, type) and label != "random":
            return value
        return _erx_recorded(value, label, name)
    def __setattr__(self, name, value):
        module, _ = object.__getattribute__(self, "_erx_m")
        setattr(module, name, value)

def _erx_refuse(what, kind):
    def _erx_call(*args, **kwargs):
        _erx_uses.append(kind + ":" + what)
        raise PermissionError(what + " is not allowed in a pure function")
    return _erx_call

def _erx_cut(namespace):
    import types as _erx_types
    import random as _erx_random
    for _erx_name, _erx_value in list(namespace.items()):
        if _erx_name.startswith("_erx") or _erx_name.startswith("__"):
            continue
        if isinstance(_erx_value, _erx_types.ModuleType):
            label = _erx_value.__name__
            if label in _ERX_KIND and label not in ("posixpath", "genericpath"):
                namespace[_erx_name] = _erx_Module(_erx_value, label)
            elif label == "posixpath":
                namespace[_erx_name] = _erx_Module(_erx_value, "os.path")
            continue
        owner = getattr(_erx_value, "__self__", None)
        if isinstance(owner, _erx_random.Random):
            namespace[_erx_name] = _erx_recorded(_erx_value, "random", _erx_name)
            continue
        if not callable(_erx_value) or isinstance(_erx_value, type):
            continue
        module = getattr(_erx_value, "__module__", None) or ""
        if module in ("posixpath", "genericpath"):
            if getattr(_erx_value, "__name__", "") in _ERX_PATH_ASKS:
                namespace[_erx_name] = _erx_recorded(_erx_value, "os.path",
                                                     _erx_value.__name__)
        elif module in _ERX_KIND and module not in ("shutil", "glob"):
            if getattr(_erx_value, "__name__", "") not in _ERX_OS_PURE:
                namespace[_erx_name] = _erx_recorded(_erx_value, module,
                                                     getattr(_erx_value, "__name__", "?"))
    namespace["open"] = _erx_refuse("open", "file")
    namespace["input"] = _erx_refuse("input", "input")

_erx_cut(globals())
'''


class _RealBuiltins(ast.NodeTransformer):
    """``len`` -> ``_erx_bi.len``: the setup runs after the canonical in its namespace,
    and must not pick up a module-level name of the canonical's that shadows a builtin."""

    def __init__(self) -> None:
        self.stored: set[str] = set()

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if (isinstance(node.ctx, ast.Load) and node.id in vars(builtins)
                and node.id not in self.stored):
            return ast.copy_location(ast.Attribute(ast.Name("_erx_bi", ast.Load()), node.id,
                                                   ast.Load()), node)
        return node


def _setup_code() -> str:
    tree = ast.parse(_SETUP)
    fixer = _RealBuiltins()
    fixer.stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                    and not isinstance(n.ctx, ast.Load)}
    fixed = ast.fix_missing_locations(fixer.visit(tree))
    return "import builtins as _erx_bi\n" + ast.unparse(fixed) + "\n"


_SETUP_CODE = _setup_code()


def purity_code(canonical: str) -> str:
    """The code of a suite of :func:`purity_probe` tests: the canonical, then the cut
    (once per suite: in every test it was compiled again for each call probed)."""
    return f"{canonical}\n\n{_SETUP_CODE}"


def purity_probe(call: str) -> str:
    """A test that makes ``call`` in a namespace whose impure names :func:`purity_code`
    cut off (see the module docstring) and prints the uses it recorded; the call's own
    outcome is ignored."""
    body = textwrap.indent(call, "    ")
    return (f"try:\n{body}\nexcept BaseException:\n    pass\n"
            f"print({MARK!r} + repr(_erx_uses) + {MARK!r})\n")


def read_uses(outcome: TestOutcome | None) -> list[str] | None:
    """The ``kind:module.name`` uses a probe recorded, or None when it printed no
    readable answer (it timed out, or the call ended the process)."""
    if outcome is None or outcome.status != "pass":
        return None
    text = outcome.output
    start = text.rfind(MARK, 0, text.rfind(MARK)) if MARK in text else -1
    if start < 0:
        return None
    inner = text[start + len(MARK):text.rfind(MARK)]
    try:
        value = from_source(inner, where="purity probe output")
    except InputFormatError:
        return None
    if type(value) is not list or not all(type(v) is str for v in value):
        return None
    return list(value)


def impurity(uses_per_call: Sequence[list[str] | None]) -> str | None:
    """The skip reason for the first impure use over all calls, e.g. ``"reads the clock
    (time.time)"``; None when every probe ran and recorded nothing."""
    for uses in uses_per_call:
        for use in uses or ():
            kind, _, what = use.partition(":")
            return f"{IMPURE_REASONS.get(kind, 'does I/O')} ({what})"
    return None
