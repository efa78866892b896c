"""Inside the sandbox: the worker W that runs candidate code (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine; the server's
side of a suite is ``_sandbox_suite.py``. W is forked by the server as PID 1 of the
suite's own PID namespace. Before any candidate code runs it drops what it must not hold
(root's uid, or every capability inside the user namespace), sets its limits, imports the
standard-library modules the code and tests name, and installs the audit hooks. It then
runs the tests from a given one on, each in a fresh module namespace registered in
``sys.modules`` as ``__candidate__``; the test's own code then runs in globals of its own
(a copy of that namespace, made by ``run`` of ``make_scope`` in ``_sandbox_channel.py``),
and any frame candidate code takes, while the code loads or the test runs, is an
error (the channel). After each test it compares a fingerprint of what a test could patch for later
tests (builtins, ``sys``, the pytest shim and the modules the code and tests import by
name, ``sys.path`` and friends, cwd, recursion limit) and the channel notes audit events
that change the process beyond that (new imports, processes, threads, rlimits,
environment, signal dispositions, attributes of classes from other modules). If anything
changed, W reports the test and exits, and the server forks a fresh W for the next test,
so no test sees another test's patches while honest suites cost one fork.

How output is told apart per test: fds 1 and 2 (and a spare, fd 4) are the write end of a
pipe only the server reads. At each boundary (the module loaded, the test done) the judge
flushes, waits until the server has read everything in that pipe, and only then sends the
boundary over the channel; a module whose top level cannot print (the server checks its
bytecode: ``quiet`` in ``_sandbox_suite.py``) needs no boundary after loading. The server
reads the channel before it reads output, so bytes it reads belong to the part after the
last boundary it has seen: which part printed what is the runner's account, never
something parsed out of the printed text. fds 1 and 2 are
restored from fd 4 after every test; if fd 4 itself is no longer the pipe, W counts as
dirty and a fresh W (with a fresh pipe) runs the next test.

How a verdict is made unforgeable: the audit hook "channel" (``_sandbox_channel.py``) is
defined in bare globals and referenced by nothing but the interpreter's hook list. Before
any candidate code runs the judge frame raises ``erxr.arm``: the hook makes a random key,
writes ``HELLO <key>`` to W's pipe and keeps a keyed BLAKE2b, the pipe (fd and inode),
frame and pid in its closure. After each test that same frame raises ``erxr.verdict``; the
hook checks frame, pid and the exact types of what it is given, and writes ``ERXR1 <index>
<status> <stop> <len> <mac>`` plus the detail, the MAC covering header and detail: the key
never crosses the pipe again, so reading or redirecting fd 3 forges nothing. No frame that
candidate code can reach holds the key, while a hook runs or after it refuses: hooks never
call, compare, hash or measure an object the candidate made (exact built-in types are
checked first; anything else counts as the candidate's own event), never raise (the
channel records a forged or refused event as this test's error and ends W with
``TAMPERED_EXIT`` on anything unexpected), run with the cyclic gc off and never drop the
last reference to a candidate's object, so no gc callback or finaliser runs inside them.
Everything the judge calls after candidate code ran was bound before it (exec, the
exception types, the hooks' functions, which take all they use as default arguments and
cannot be rebound: the guard refuses assignments to them, and reading the defaults of the
wrappers that hold an original), and none of it calls the candidate's objects either
(describe, flush and the fingerprint read runner-held objects only); the judge keeps gc
off from the end of a test to its verdict. The other ways to the hook's closure are
refused by the guard: gc object walks, ``sys._current_frames``, tracing and profiling,
Python-level signal handlers (also a fresh ``_signal`` from ``_imp``), ``ctypes``,
``_testcapi`` and sub-interpreters (by import name, exact ``str`` only, and by spec);
``/proc`` is hidden by the server. The ctypes types W inherits (found through
``__subclasses__``) make no instance and no class, and no function pointer is in reach: the
server sealed them before its first fork (``_sandbox_seal.py``). The server rejects
anything else in the pipe as tampering.
"""

from __future__ import annotations

import _abc
import _signal
import abc
import builtins
import ctypes
import fcntl
import functools
import os
import resource
import signal
import sys
import time
import types
from itertools import islice

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)

if TYPE_CHECKING or __package__:  # in the engine (tools, tests); the server: bare
    from ._sandbox_channel import CHANNEL, TAMPERED_EXIT
    from ._sandbox_classes import CLASSES
    from ._sandbox_code import load as load_code
    from ._sandbox_compare import build as build_rules
    from ._sandbox_draws import make_view
    from ._sandbox_tags import make_tags
else:
    from _sandbox_channel import CHANNEL, TAMPERED_EXIT
    from _sandbox_classes import CLASSES
    from _sandbox_code import load as load_code
    from _sandbox_compare import build as build_rules
    from _sandbox_draws import make_view
    from _sandbox_tags import make_tags

_LIBC = ctypes.CDLL(None, use_errno=True)
# Looked up here, once per server: CDLL caches each function it finds, so a W (which calls
# prctl first thing) does not run dlsym and build a function pointer in every fork (~60 of
# its page faults). One harmless call (PR_GET_DUMPABLE) sets up the rest of the call path.
for _name in ("prctl", "capset", "capget"):
    getattr(_LIBC, _name, None)
if getattr(_LIBC, "prctl", None) is not None:
    _LIBC.prctl(3, 0, 0, 0, 0)
del _name
# capset's header (_LINUX_CAPABILITY_VERSION_3, this pid) and data (two {effective,
# permitted, inheritable} of zeros), and capget's answer: made here, since the server makes
# ctypes unusable before it forks a W (_sandbox_seal.py); a W only passes and reads them.
_CAPS = ((ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)(),
         (ctypes.c_uint32 * 6)())
_MAGIC = b"ERXR1"
_MAX_MESSAGE = 8192
_BLOCKED_EVENTS = frozenset({
    "sys._current_frames", "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.addaudithook", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    # a code object not made by compile() can index past its constants or locals: any
    # address becomes an object, and all of W's memory (the judge's constants, the
    # channel's key) is the candidate's. Made by code.__new__ (types.CodeType, replace)
    # or read back by marshal; imports after arming compile from source (_install_hooks)
    "code.__new__", "marshal.loads", "marshal.load",
})
_BLOCKED_IMPORTS = frozenset({"ctypes", "_ctypes", "_signal", "_testcapi",
                              "_testinternalcapi", "_xxsubinterpreters", "_xxinterpchannels"})
# After any of these a W process is no longer what a fresh one would be: stop after the test.
_TAINT_EVENTS = frozenset({
    "import", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "os.exec",
    "subprocess.Popen", "_thread.start_new_thread", "resource.setrlimit", "resource.prlimit",
    "os.putenv", "os.unsetenv", "erxr.taint", "sys.set_asyncgen_hooks", "os.setuid",
})
# Watched by the fingerprint besides the modules the code and tests import by name.
# (Every module W can reach would be too dear: reading a value touches its page, and each
# page touched in a forked process is a copy.)
_WATCHED = ("builtins", "sys", "pytest")
# Standard-library modules S imports before forking W when the code or tests import them
# by name: W then finds them loaded (a first import in W would make W stop after that
# test). Pure, well-known modules only; nothing that reaches ctypes.
PRELOADABLE = frozenset({
    "abc", "array", "base64", "binascii", "bisect", "calendar", "cmath", "collections",
    "collections.abc", "contextlib", "copy", "copyreg", "csv", "dataclasses", "datetime",
    "decimal", "difflib", "enum", "fractions", "functools", "hashlib", "heapq", "inspect",
    "io", "itertools", "json", "keyword", "math", "numbers", "operator", "pickle",
    "pprint", "queue", "random", "re", "statistics", "string", "struct", "textwrap",
    "time", "typing", "unicodedata", "weakref", "zlib"})
# Standard-library modules whose own functions write their namespace (a cache, a state
# kept in a global) or a dict the importer watches by its version tag: a changed tag of
# theirs during a test says nothing about the candidate, so only their contents are
# compared at the test's end (a rebinding the candidate put back before then is not seen).
# tempfile.gettempdir() sets tempfile.tempdir; warnings.catch_warnings() sets
# warnings.filters and showwarning and puts the originals back.
UNWATCHED = frozenset({"tempfile", "warnings"})
_RUNNER_MODULES = ("__main__", "_sandbox_child", "_sandbox_runner", "_sandbox_channel",
                   "_sandbox_setup", "_sandbox_suite", "_sandbox_compare", "_sandbox_plain",
                   "_sandbox_rich", "_sandbox_explain", "_sandbox_rewrite", "_sandbox_code",
                   "_sandbox_seal", "_sandbox_draws", "_sandbox_tags", "_sandbox_classes")
_CANDIDATE = "__candidate__"
# W's bytecode cache prefix once armed (no .pyc is read: marshal is refused). The server
# sets it too, before its first fork (imports of its own go through ``preload``): then W
# leaves ``sys``'s namespace as the server's fingerprint of it (``prior``) holds it, and
# reuses that entry instead of copying ~90 keys and values, ~40 page copies in every W.
NO_BYTECODE = "/nonexistent/erxr-no-bytecode"
_GETSIGNAL = _signal.getsignal  # C: returns the handler, 0 for SIG_DFL
# Signals whose default action ends the process (number -> name for the crash message).
_FATAL = {int(s): s.name.encode() for s in signal.Signals if s.name in (
    "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
    "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGALRM", "SIGTERM", "SIGSTKFLT",
    "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR", "SIGSYS")}


def _prctl(option: int, arg: int) -> int:
    prctl = getattr(_LIBC, "prctl", None) if "_LIBC" in globals() else None
    if prctl is None:  # Linux only; elsewhere these measures are simply absent
        return -1
    return int(prctl(option, arg, 0, 0, 0))


def drop_capabilities() -> bool:
    """Leave this process (and its children) no capability at all: bounding and ambient
    sets cleared, then effective/permitted/inheritable set to empty. True if it held."""
    for cap in range(64):
        _prctl(24, cap)  # PR_CAPBSET_DROP (needs CAP_SETPCAP, so before capset)
    _prctl(47, 4)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    capset = getattr(_LIBC, "capset", None)
    if capset is None:
        return False
    header, data, got = _CAPS
    if capset(header, data) != 0:
        return False
    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS
    # nothing effective or permitted, and CAP_SYS_ADMIN (21) out of the bounding set
    return _LIBC.capget(header, got) == 0 and not any(got) and _prctl(23, 21) == 0


def static_imports(trees: list) -> list[str]:
    """Module names the code and tests import by name (and their parent packages)."""
    import ast

    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            found = []
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in found:
                parts = name.split(".")
                names.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return sorted(names)


def kill_descendants() -> None:
    """The server is a subreaper (or PID 1): orphans of W become its children; kill them
    until none is left (listed in /proc/self/task/*/children, if /proc is there) and reap."""
    for _ in range(1000):
        children: set[int] = set()
        try:
            for task in os.listdir("/proc/self/task"):
                with open(f"/proc/self/task/{task}/children") as handle:
                    children.update(int(p) for p in handle.read().split())
        except OSError:  # no /proc: reap what died and accept the documented limit
            children = set()
        for child in children:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if not children:
            return


def kill_uid(uid: int) -> None:
    """Without PID namespaces: kill(-1) as the sandbox uid kills all of that uid's processes."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _set_limits(limits: dict, cpu_seconds: int, uid: int | None, tests: int) -> None:
    mb = 1024 * 1024
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    # RLIMIT_CPU: a hard cap for all tests W may run; the soft limit moves per test.
    wanted = [(resource.RLIMIT_CORE, 0, 0),
              (resource.RLIMIT_CPU, spent + cpu_seconds, spent + cpu_seconds * tests + 1),
              (resource.RLIMIT_FSIZE, int(limits["file_size_mb"] * mb), None),
              (resource.RLIMIT_AS, int(limits["memory_mb"] * mb), None)]
    if uid is not None or os.geteuid() != 0:  # root ignores RLIMIT_NPROC
        wanted.append((resource.RLIMIT_NPROC, int(limits["max_processes"]), None))
    for which, soft, hard in wanted:
        if not soft and which != resource.RLIMIT_CORE:
            continue  # 0 = no limit
        try:
            resource.setrlimit(which, (soft, soft if hard is None else hard))
        except (ValueError, OSError):
            pass


# Standard-library packages a W never imports before arming (ctypes, or what reaches it,
# processes and event loops, modules that print or open things when imported).
_NOT_PRELOADED = frozenset({
    "ctypes", "multiprocessing", "concurrent", "uuid", "tkinter", "turtle",
    "turtledemo", "idlelib", "this", "antigravity", "webbrowser", "pydoc", "test", "venv",
    "ensurepip", "lib2to3", "curses"}) | _BLOCKED_IMPORTS


def preload(names: list[str]) -> None:
    """Import (in W, before any candidate code) the preloadable modules named, and the
    other standard-library modules named (not ``_NOT_PRELOADED``): once armed, W reads no
    bytecode (marshal is refused), so a first import there compiles from source, several
    milliseconds for a package such as ``http.cookiejar``, in every W of the suite. Also
    the server's own way to import a module after start-up (see ``NO_BYTECODE``)."""
    import importlib

    stdlib = sys.stdlib_module_names
    # the server (and so W, until armed) runs with NO_BYTECODE as its cache prefix; these
    # imports, before any candidate code, read the installation's .pyc files as usual
    prefix, sys.pycache_prefix = sys.pycache_prefix, None
    try:
        for name in names:
            if name in sys.modules:
                continue
            if name in PRELOADABLE:
                try:
                    importlib.import_module(name)
                except ImportError:
                    pass
            elif (name.partition(".")[0] in stdlib
                  and _NOT_PRELOADED.isdisjoint(name.split("."))):
                try:
                    importlib.import_module(name)
                except BaseException:  # (it fails again as the candidate's own import)
                    pass
    finally:
        sys.pycache_prefix = prefix


def stdlib_spaces(entries=None) -> tuple:  # type: ignore[no-untyped-def]
    """(name, namespace) of every standard-library module among ``entries`` (default: all
    of ``sys.modules``), for the channel: a change of the code or defaults of a function
    whose globals are one of these is the candidate changing the standard library
    (``make_channel``). Taken before any candidate code runs, by the server (once per
    state of ``sys.modules``: reading every module in each forked W would copy the pages
    their reference counts sit on), and by a W that imported more, for the modules it
    added (``_judge``)."""
    stdlib, module_type = sys.stdlib_module_names, types.ModuleType
    return tuple([(name, vars(module)) for name, module in (
        sys.modules.items() if entries is None else entries)
        if type(module) is module_type and type(name) is str
        and name.partition(".")[0] in stdlib])


def stdlib_classes(spaces) -> tuple:  # type: ignore[no-untyped-def]
    """(classes, (metaclass, whether it is plain) pairs) bound at the top level of the
    standard-library namespaces ``spaces`` (``stdlib_spaces``), for the runner to hold (``hold`` of
    ``_sandbox_classes.py``): what a test may take from the candidate's namespace as the
    standard library's own (``from statistics import StatisticsError`` in the candidate).
    Built-in classes are left out (``StatisticsError = Exception`` stays the candidate's
    choice); a metaclass is plain when its instance and subclass checks are ``type``'s.
    Called before any candidate code runs."""
    found: dict[int, type] = {}
    metas: dict[int, tuple] = {}
    check_instance = type.__dict__["__instancecheck__"]
    check_subclass = type.__dict__["__subclasscheck__"]
    for _name, space in spaces:
        for value in list(space.values()):
            if isinstance(value, type) and type.__dict__["__module__"].__get__(
                    value) != "builtins":
                found[id(value)] = value
                if issubclass(value, type):
                    metas[id(value)] = (value, _looked_up(value, "__instancecheck__")
                                        is check_instance and _looked_up(
                                            value, "__subclasscheck__") is check_subclass)
    return tuple(found.values()), tuple(metas.values())


def _looked_up(klass: type, name: str):  # type: ignore[no-untyped-def]
    for ancestor in klass.__mro__:
        if name in vars(ancestor):
            return vars(ancestor)[name]
    return None


def watchable() -> list:
    """The dicts the server makes version-tag views of (``_sandbox_tags.py``): builtins,
    ``sys.modules``, every module's namespace and the dicts a module binds at its top level
    (dispatch tables such as ``copy._deepcopy_dispatch``). Called again by the server when
    it has loaded more modules; views already made are kept."""
    found: list = [builtins.__dict__, sys.modules]
    for module in list(sys.modules.values()):
        if type(module) is types.ModuleType:
            space = module.__dict__
            found.append(space)
            found += [v for v in list(space.values()) if type(v) is dict]
    return found


def _str_table_sizes() -> frozenset:
    """Every ``dict.__sizeof__`` of a dict whose keys are all exact strs, up to 2**10 keys
    (a dict grows through every table size; see ``make_fingerprint``; a larger namespace
    is compared key by key). Not more: what the server allocates stays in its memory, and
    every fork pays for that (builtins has ~160 names, ``sys.modules`` ~90)."""
    sizes: set[int] = set()
    grown: dict[str, int] = {}
    for n in range(1 << 10):
        sizes.add(grown.__sizeof__())
        grown[f"k{n}"] = n
    return frozenset(sizes)


def _exception_table() -> dict:
    """id of each built-in exception class -> (its ``__str__``, the getters of the C-level
    attributes that ``__str__`` may read), for describing exceptions without candidate code."""
    skip = {"args", "__traceback__", "__context__", "__cause__", "__suppress_context__",
            "__dict__", "__notes__"}
    table: dict[int, tuple] = {}
    for value in vars(builtins).values():
        if isinstance(value, type) and issubclass(value, BaseException):
            definer = next(k for k in value.__mro__ if "__str__" in vars(k))
            getters = [d.__get__ for k in definer.__mro__ if k is not object
                       for attr, d in vars(k).items()
                       if attr not in skip and type(d).__name__ in ("member_descriptor",
                                                                     "getset_descriptor")]
            table[id(value)] = (definer.__dict__["__str__"], tuple(getters))
    return table


def _name_readers() -> tuple:
    """The code of the standard-library functions that take a caller's frame only to read
    its module's ``__name__`` and let the frame go (so a candidate calling them while a
    test runs takes no frame itself): namedtuple, enum's functional API, typing's
    ``_caller`` (when the server has typing loaded). By identity; the server's own."""
    found = []
    for module, path in (("collections", "namedtuple"), ("enum", "EnumType._create_"),
                         ("typing", "_caller"), ("typing", "_allow_reckless_class_checks")):
        value = sys.modules.get(module)
        for attr in path.split("."):
            value = getattr(value, attr, None)
        code = getattr(value, "__code__", None)
        if type(code) is types.CodeType:
            found.append(code)
    return tuple(found)


def _frame_walkers() -> tuple:
    """The standard library's walks over frames that the channel lets through (see
    ``walked`` in ``_sandbox_channel.py``), for the modules loaded now, before any candidate
    code: ``logging``'s ``Logger.findCaller`` (a log record's caller: any call that logs,
    the candidate's or the test's, takes one) and ``traceback``'s formatting of a
    traceback (``traceback.format_exc()``, ``logger.exception(...)``)."""
    def space_of(name):  # type: ignore[no-untyped-def]
        module = sys.modules.get(name)
        space = getattr(module, "__dict__", None) if type(module) is types.ModuleType else None
        return space if type(space) is dict else None

    def pinned(space, name):  # type: ignore[no-untyped-def]
        value = space.get(name)
        if type(value) is types.FunctionType:
            return (space, name, value, value.__code__)
        return (space, name, value, None) if type(value) is types.ModuleType else None

    def code_of(value):  # type: ignore[no-untyped-def]
        value = getattr(value, "__func__", value)  # (a classmethod)
        return value.__code__ if type(value) is types.FunctionType else None

    found = []
    logging = space_of("logging")
    if logging is not None and type(logging.get("Logger")) is type:
        codes = (code_of(logging.get("currentframe")),
                 code_of(vars(logging["Logger"]).get("findCaller")))
        logged: tuple = (pinned(logging, "_is_internal_frame"),)
        if None not in codes and None not in logged:
            found.append((*codes, logging, "stack_info", logged))
    traceback, linecache = space_of("traceback"), space_of("linecache")
    if (traceback is not None and linecache is not None
            and type(traceback.get("StackSummary")) is type):
        codes = (code_of(traceback.get("_walk_tb_with_full_positions")),
                 code_of(vars(traceback["StackSummary"]).get(
                     "_extract_from_extended_frame_gen")))
        # what the frames, their code and their globals go to
        formatted: tuple = (pinned(traceback, "_get_code_position"),
                            pinned(traceback, "linecache"), pinned(linecache, "lazycache"))
        if (None not in codes and None not in formatted
                and formatted[1][2].__dict__ is linecache):
            found.append((*codes, traceback, "capture_locals", formatted))
    return tuple(found)


def _abc_subclasscheck() -> types.FunctionType:
    """``abc.ABCMeta.__subclasscheck__`` as abc.py has it, ``_abc_subclasscheck(cls,
    subclass)`` called from a module named ``abc``, holding only that C function. typing's
    hook of a protocol that is not runtime-checkable raises unless the frame two above it
    is the ABC machinery's own (``abc`` or ``functools``): called from the runner's frame,
    the check of an ABC with such a protocol among its subclasses (narwhals, which pandas
    brings, has some under ``Iterable``) was a TypeError where Python says no."""
    space: dict = {"__name__": "abc", "__builtins__": {},
                   "_abc_subclasscheck": _abc._abc_subclasscheck}
    exec("def __subclasscheck__(cls, subclass):\n"
         "    return _abc_subclasscheck(cls, subclass)\n", space)
    return space["__subclasscheck__"]


def make_class_checks(namespace: dict) -> tuple:
    """(own, classes, hold, isinstance, issubclass, catch, the functions those hold) made by
    ``make_classes`` (``_sandbox_classes.py``) in the bare ``namespace`` it was executed in:
    what ``pytest.raises(X)`` / ``except X`` / ``isinstance(x, X)`` take when the test
    reads X from the candidate, and the test's own ``isinstance`` / ``issubclass``, which
    decide by the object's real type. Given only ``type``'s own descriptors and checks,
    ``abc.ABCMeta``'s check and the real builtins."""
    return namespace["make_classes"](
        sys.audit, TypeError, type.__dict__["__dict__"].__get__,
        type.__dict__["__mro__"].__get__, type.__dict__["__flags__"].__get__,
        type.__dict__["__qualname__"].__get__, type.__dict__["__name__"].__get__,
        types.MappingProxyType.items, _CANDIDATE, BaseException,
        type.__dict__["__bases__"].__get__, type.__dict__["__subclasscheck__"],
        types.UnionType, types.UnionType.__dict__["__args__"].__get__, abc.ABCMeta,
        _abc_subclasscheck(), builtins.isinstance, builtins.issubclass, sys.exception,
        _abc._get_dump, type.__dict__["__subclasses__"])


def make_hooks() -> dict:
    """Once per server, before any suite: the functions made in bare globals that every W
    shares (equality, fingerprint, describe, flush, the restricted ``signal.signal`` and
    module loaders), the namespace holding the hook factories, and the runner modules taken
    out of ``sys.modules`` (the server keeps its own references)."""
    import _imp
    import _io
    import _signal
    import gc
    from _blake2 import blake2b

    namespace: dict = {"__builtins__": builtins}
    exec(_CHANNEL_CODE, namespace)  # bare globals: nothing there leads back to this module
    pytest_shim = sys.modules["pytest"]
    approx = pytest_shim.approx_type
    rules = build_rules(sys.audit, approx)  # what a test's comparisons mean
    # what tests call directly runs with the cyclic gc off (see _sandbox_channel.py)
    nogc = namespace["make_nogc"]
    guarded = {name: nogc(rules[name], gc.disable, gc.enable, gc.isenabled)
               for name in ("compare", "chain", "explain", "arith", "approx_eq", "approx_ne")}
    approx.__eq__, approx.__ne__ = guarded["approx_eq"], guarded["approx_ne"]
    approx.__repr__ = rules["show"]
    shim = [approx, pytest_shim.raises.__func__] + [
        v for v in vars(pytest_shim).values() if isinstance(v, types.FunctionType)]
    # a refused import is an ImportError, so ``try: import x / except ImportError`` works
    import_error = type("SandboxImportError", (ImportError,), {
        "__module__": "builtins", "__doc__": "An import the sandbox refuses."})
    # the test's random (_sandbox_draws.py): its functions and the runner's Random they
    # hold, hidden like the wrappers that hold an original
    random_view, test_random, draws = make_view()
    # dict version tags (_sandbox_tags.py): raises TagError when their layout is not 3.11's
    tag, tag_add = make_tags()
    tag_add(watchable())
    run_test, import_module, import_from, intact, recheck, seed_tests, rebound, marking = \
        namespace[
        "make_scope"](exec, builtins, sys.modules, builtins.__import__, import_error,
                      sys.audit, __import__("operator").is_, (("random", random_view),),
                      test_random, __import__("_random").Random.seed, tag, types.ModuleType,
                      UNWATCHED)
    del test_random
    # what pytest.raises(X) / except X / isinstance(x, X) take when the test reads X from
    # the candidate (_sandbox_classes.py)
    # and what a test's isinstance / issubclass mean: decided by the real type
    own, classes, hold, is_instance, is_subclass, catch, class_parts = \
        make_class_checks(namespace)
    # pytest.raises decides by the real type too: a metaclass's own mro() could list the
    # expected class for an exception class that does not derive from it
    shim_exit = vars(pytest_shim)["_exit"]
    names = shim_exit.__code__.co_varnames[4:4 + len(shim_exit.__defaults__)]
    shim_exit.__defaults__ = tuple(
        is_subclass if name == "_issubclass" else value
        for name, value in zip(names, shim_exit.__defaults__, strict=True))
    del names
    # what a test's def / lambda bind: the function behind an opaque C wrapper, so what
    # the test hands to the candidate leads nowhere (its globals, cells, code)
    opaque = functools._lru_cache_wrapper
    function_getters = tuple(vars(types.FunctionType)[name].__get__ for name in (
        "__name__", "__qualname__", "__doc__", "__module__", "__annotations__"))
    wrap = namespace["make_wrap"](opaque, functools._CacheInfo,
                                  opaque.__dict__["__dict__"].__set__, types.FunctionType,
                                  function_getters)
    # what a test's eval / exec evaluate: code that makes no function, or an error
    compiled = namespace["make_compiled"](compile, types.CodeType,
                                          type.__dict__["__flags__"].__get__, str, bytes,
                                          sys.audit, TypeError)
    # what keeps the classes a test defines as it made them (_sandbox_classes.py)
    guard_parts, guard_helpers, test_classes = namespace["make_class_guard"](
        sys.audit, TypeError, type.__dict__["__dict__"].__get__, types.MappingProxyType.items,
        type.__dict__["__name__"].__get__, type.__dict__["__flags__"].__get__,
        types.FunctionType.__dict__["__globals__"].__get__, type.__dict__["__mro__"].__get__,
        types.FunctionType, type(type.__dict__["__dict__"]))
    judge = {"compare": guarded["compare"], "chain": guarded["chain"], "own": own,
             "compiled": compiled, "guard": guard_parts,
             "classes": classes, "catch": catch,
             "import": import_module, "import_from": import_from, "run": run_test,
             "recheck": recheck, "views": {"random": random_view},
             "explain": guarded["explain"], "arith": guarded["arith"], "wrap": wrap,
             "names": {n: v for n, v in vars(builtins).items()
                       if not n.startswith("_") and n not in ("True", "False", "None")}
             | {"isinstance": is_instance, "issubclass": is_subclass},
             "pytest": pytest_shim, "pytest_names": {n: getattr(pytest_shim, n) for n in (
                 "raises", "approx", "fail")}}
    fingerprint, unchanged, *fingerprint_parts = namespace["make_fingerprint"](
        builtins.__dict__, sys.modules, os.getcwd, sys.getrecursionlimit,
        sys.get_int_max_str_digits, vars(types.ModuleType)["__dict__"].__get__,
        _str_table_sizes(), __import__("itertools").repeat, tag)
    describe, describe_parts = namespace["make_describe"](
        types.MappingProxyType(_exception_table()), BaseException.__str__,
        BaseException.__dict__["args"].__get__,
        type.__dict__["__mro__"].__get__, type.__dict__["__name__"].__get__,
        type.__dict__["__qualname__"].__get__)
    flush = namespace["make_flush"](
        (sys.stdout, sys.stderr), _io.TextIOWrapper, _io.BufferedWriter, _io.FileIO,
        _io.TextIOWrapper.__dict__["buffer"].__get__, _io.BufferedWriter.__dict__["raw"].__get__,
        _io.TextIOWrapper.flush)
    original_signal = _signal.signal
    hidden = namespace["make_signal"](original_signal, sys.audit)
    _signal.signal = hidden  # signal.signal (the enum wrapper) calls through it
    on_sigxcpu = namespace["make_cpu_handler"](sys.audit, gc.disable, os._exit)
    original_signal(signal.SIGXCPU, on_sigxcpu)  # W inherits the handler
    del original_signal
    raiser = namespace["make_raise"](_signal.raise_signal, sys.audit)
    _signal.raise_signal = signal.raise_signal = raiser
    loaders = []
    for name in ("create_builtin", "create_dynamic"):  # a spec loads without an import event
        create, load = namespace["make_loader"](getattr(_imp, name), _BLOCKED_IMPORTS,
                                                import_error, types.SimpleNamespace)
        setattr(_imp, name, create)
        loaders += [create, load]
    import faulthandler  # its test helpers raise() a signal: as the kernel would for PID 1

    for name, sig in (("_sigsegv", signal.SIGSEGV), ("_sigabrt", signal.SIGABRT),
                      ("_sigfpe", signal.SIGFPE)):
        if hasattr(faulthandler, name):
            setattr(faulthandler, name, functools.partial(raiser, int(sig)))
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    runner_globals = []
    for name in list(sys.modules):
        if name in _RUNNER_MODULES or name.split(".")[0] in ("ctypes", "_ctypes"):
            module = sys.modules.pop(name)
            if name in _RUNNER_MODULES:
                runner_globals.append(module.__dict__)
    # their defaults hold originals, or the tests' random
    hidden_all = (hidden, raiser, on_sigxcpu, *loaders, run_test, seed_tests, *draws, tag,
                  tag_add, *marking, import_module, recheck, hold, own, classes,
                  is_instance, is_subclass, catch, *class_parts, compiled,
                  *guard_parts, *guard_helpers)  # (tag views, writable;
    # the tags a test's end needs, a list the importer and recheck hold)
    protected = (fingerprint, unchanged, *fingerprint_parts, describe, *describe_parts, flush,
                 import_error, *rules["functions"], *guarded.values(), *shim, *hidden_all,
                 run_test, import_module, import_from, intact, recheck, seed_tests, rebound,
                 *draws, own, classes, hold, is_instance, is_subclass, *class_parts, wrap, catch,
                 compiled, *guard_parts, *guard_helpers)
    # Made here, once; each W arms its own copy (see _install_hooks)
    fatal_names = tuple(_FATAL.get(n, b"") for n in range(65))  # private, immutable
    channel = namespace["make_channel"](
        os.urandom, os.write, os._exit, gc.disable, gc.enable, gc.isenabled,
        sys._getframe, os.getpid, os.getpgrp, _GETSIGNAL, blake2b, _MAGIC, _TAINT_EVENTS,
        _CANDIDATE, fatal_names, type.__dict__["__dict__"].__get__,
        types.MappingProxyType.items, TAMPERED_EXIT, __import__("_thread")._count,
        types.FrameType, frozenset(sys.stdlib_module_names),
        __import__("_thread").get_ident, _name_readers(), (intact.__code__,), test_classes)
    guard = namespace["make_guard"](_BLOCKED_EVENTS, _BLOCKED_IMPORTS, hidden_all,
                                    protected + rules["factories"], PermissionError,
                                    import_error)
    return {"namespace": namespace, "channel": channel, "guard": guard, "judge": judge,
            "tag_add": tag_add,  # (the server's: W drops it, see _install_hooks)
            "import_error": import_error,
            "values_equal": rules["values_equal"],  # two plain values, as a test's == judges
            "unchanged": unchanged, "tag": tag,
            "describe": describe, "flush": flush, "fingerprint": fingerprint,
            "seed_tests": seed_tests, "hold": hold,
            "hidden": hidden_all, "protected": protected,
            "runner_globals": runner_globals, "pytest": pytest_shim,
            "salt": os.urandom(8).hex()}


def _install_hooks(hooks: dict) -> None:
    """In W, before any candidate code: no ctypes handle left in reach, the audit hooks."""
    hooks.pop("tag_add", None)  # (in W it could make no view anyway: ctypes.cdata)
    for module_globals in hooks["runner_globals"]:  # candidates can walk frames to these
        for name in ("ctypes", "_LIBC", "_CAPS", "_setup_module"):
            module_globals.pop(name, None)
    # marshal is refused from here on (crafted code objects): a module first imported
    # now is compiled from its source, never read from a .pyc (nor written to one). (The
    # server set this very object before forking: sys's namespace stays as it was.)
    sys.pycache_prefix, sys.dont_write_bytecode = NO_BYTECODE, True
    # The guard last, since it then refuses further hooks. The judge's own few audited
    # calls (setrlimit) pass both. The channel leaves the dict W inherited: from here on
    # only the interpreter's hook list holds it.
    sys.addaudithook(hooks.pop("channel"))
    sys.addaudithook(hooks["guard"])


def worker(spec: dict, hooks: dict, wfd: int, in_pidns: bool) -> None:
    """W: set up, then run the tests from ``spec["start"]`` on (see the module docstring).
    The server has set the environment (HOME, TMPDIR: the suite folder) and SIGINT."""
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the server
    _prctl(4, 0)               # PR_SET_DUMPABLE 0: no ptrace by what W starts
    os.dup2(spec["devnull"], 0)
    os.dup2(spec["out_w"], 1)  # fd 1 was the server's protocol pipe: never let W near it
    os.dup2(spec["out_w"], 2)
    os.dup2(wfd, 3)
    os.dup2(1, 4)  # the output pipe, kept to restore fds 1 and 2 and to see it drained
    os.closerange(5, 1 << 16)
    os.chdir(spec["workdir"])
    uid = spec["uid"]
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    elif spec["active"].get("user_namespace"):
        drop_capabilities()
    if not in_pidns:
        os.setpgid(0, 0)  # without a PID namespace, cleanup goes by process group
    _prctl(38, 1)  # PR_SET_NO_NEW_PRIVS
    if spec["imported"]:
        preload(spec["imported"])
    # random reseeds itself from os.urandom in every forked child; a test that draws its
    # inputs from it (HumanEval's decode_shift, find_zero, ...) would draw new ones each
    # run, and a mutant that crashes on some draws would pass or fail by chance. Seeded
    # here, before any candidate code, from the suite's hash seed: outcomes reproduce.
    # A test's own random (_sandbox_draws.py) restarts from the same seed as each test's
    # code starts.
    seed = int(spec["limits"].get("hash_seed") or 0)
    if "random" in sys.modules:
        sys.modules["random"].seed(seed)
    hooks["seed_tests"](seed)
    work, start = spec["work"], spec["start"]
    _set_limits(spec["limits"], spec["cpu_seconds"], uid, len(work) - start)
    _install_hooks(hooks)
    _judge(spec["code"], work, start, hooks, _WATCHED + tuple(spec["imported"]),
           spec["cpu_seconds"], spec["quiet"])


def _judge(code, work: tuple, start: int, hooks: dict, watched: tuple,  # type: ignore[no-untyped-def]
           cpu_seconds: int, quiet: bool) -> None:
    """The judge frame. Every name used after candidate code runs is bound locally first;
    the frame holds nothing that leads to the channel's key, and the cyclic gc is off from
    the end of each test to its verdict (see _sandbox_channel.py)."""
    import gc

    exit_, audit, exec_, AssertionError_ = os._exit, sys.audit, exec, AssertionError
    BaseException_, ModuleType, builtins_ = BaseException, types.ModuleType, builtins
    gc_enable, gc_disable = gc.enable, gc.disable
    # the interpreter's own list (``gc.callbacks`` rebound changes nothing it calls) and the
    # thresholds: a callback or threshold of the candidate's would run its code during a
    # later test's runner code, taking frames (an error); no later test of this W sees it
    callbacks, get_threshold, len_ = gc.callbacks, gc.get_threshold, len
    threshold = get_threshold()
    sizeof = dict.__sizeof__
    describe, flush, unchanged = hooks["describe"], hooks["flush"], hooks["unchanged"]
    tag = hooks["tag"]  # (reads a dict's version tag through a view it hides)
    fingerprint, prior = hooks["fingerprint"], hooks.get("prior")
    # the server's, and those of the modules W imported since (W removes none: what it
    # imported are the last entries of sys.modules, read from the end)
    known = hooks.get("stdlib") or (len(sys.modules) + 1, ())
    added = len(sys.modules) - known[0]
    spaces = stdlib_spaces() if added < 0 else known[1] if not added else \
        known[1] + stdlib_spaces(islice(reversed(sys.modules.items()), added))
    if added:  # the classes of the modules preloaded here, held before any candidate code
        hooks["hold"](*stdlib_classes(spaces[len(known[1]):] if added > 0 else spaces),
                      added < 0)
    del known
    modules, put, pop, pytest_shim = sys.modules, dict.__setitem__, dict.pop, hooks["pytest"]
    run_test = hooks["judge"]["run"]  # the test's own globals live in its frame only
    getrusage, setrlimit, getrlimit = resource.getrusage, resource.setrlimit, resource.getrlimit
    RUSAGE_SELF, RLIMIT_CPU, range_, int_ = resource.RUSAGE_SELF, resource.RLIMIT_CPU, range, int
    cpu_hard = resource.getrlimit(RLIMIT_CPU)[1]
    fstat, dup2, ioctl, sleep, from_bytes = os.fstat, os.dup2, fcntl.ioctl, time.sleep, \
        int.from_bytes
    pipe = fstat(4)
    pipe_id, FIONREAD, zero4 = (pipe.st_dev, pipe.st_ino), 0x541B, b"\0\0\0\0"
    # what the fingerprint reads, taken now: later nothing is looked up by name
    watched_modules = tuple([modules[name] for name in watched if name in modules])
    lists = (sys.path, sys.meta_path, sys.path_hooks)
    del hooks, pipe  # a dict: nothing mutable stays in this frame for candidates to find
    last = len(work) - 1
    # W is compared with its baseline only after a test that another test follows; a W
    # with one test left (a one-test suite, the last test after a dirty one) needs none
    checked = any([work[j] is not None for j in range_(start, last)])
    # from this very frame: the only one that may vote later; with the name readers of
    # modules preloaded here (typing's, when the code or tests import typing)
    audit("erxr.arm", 3, _name_readers(), spaces, _frame_walkers())
    del spaces
    baseline = fingerprint(watched_modules, lists, prior) if checked else None
    del prior
    for i in range_(start, len(work)):
        test = work[i]
        if test is None:
            continue
        audit("erxr.test", i)
        used = getrusage(RUSAGE_SELF)
        soft = int_(used.ru_utime + used.ru_stime) + 1 + cpu_seconds
        limit = (soft if soft < cpu_hard else cpu_hard, cpu_hard)
        try:
            # the limit as it is, read (no audit event): when it already is the one this
            # test gets, as it is for most tests, setrlimit (an audit event through both
            # hooks, ~20 us) would change nothing
            if getrlimit(RLIMIT_CPU) != limit:
                setrlimit(RLIMIT_CPU, limit)
        except BaseException_:
            pass
        module = ModuleType("__candidate__")
        namespace = module.__dict__
        put(namespace, "__builtins__", builtins_)
        put(namespace, "pytest", pytest_shim)
        put(modules, "__candidate__", module)
        # sys.modules's tag now: the same after the test means nothing but this entry was
        # added since the last check (it found sys.modules as the baseline has it)
        added_tag = tag(modules)
        # A dict whose keys are all exact strs (CPython's "unicode" kind) never calls a
        # key's __eq__; a key of any other type turns it into the general kind, whose
        # table has wider entries, so its size tells: the pop below is then skipped (W is
        # dirty anyway, since sys.modules changed).
        size = sizeof(modules)
        status, detail, piped = b"pass", "", True
        gc_enable()  # candidate code runs with the gc as Python has it
        try:
            exec_(code, namespace)
            if not quiet:  # (a quiet load prints nothing: all the test prints is its own)
                gc_disable()
                flush()
                try:  # what loading printed is read before the test's part begins
                    spins = 0
                    while piped and from_bytes(ioctl(4, FIONREAD, zero4), "little"):
                        spins += 1
                        piped = spins < 10000  # ~2 s: something keeps writing; stop after
                        sleep(0.0002)
                except BaseException_:
                    piped = False
                audit("erxr.setup", i)
                gc_enable()
            audit("erxr.run", i)  # from here on, a frame candidate code takes is an error
            run_test(test, namespace)
            gc_disable()
            flush()
        except AssertionError_ as exc:
            gc_disable()
            status, detail = b"fail", describe(exc)
            if detail.startswith("AssertionError: "):
                detail = detail[16:]
        except BaseException_ as exc:
            gc_disable()
            status, detail = b"error", describe(exc)
        gc_disable()  # (an exception the handlers themselves raised ends W: no verdict)
        if status != b"pass":
            flush()
        kept = added_tag is not None and tag(modules) == added_tag
        if sizeof(modules) == size:  # no key of the candidate's: nothing of it is called
            pop(modules, "__candidate__", None)
        else:
            kept = False
        popped_tag = tag(modules)
        del module, namespace  # the candidate's objects go now, before the check
        dirty = False
        if i < last:  # after the last test W exits anyway
            try:
                # sys.modules as the baseline has it, by its tags: no value read (a
                # finaliser that ran just now would have changed its tag again)
                dirty = (not unchanged(baseline, modules if kept and tag(modules) ==
                                       popped_tag else None)
                         or len_(callbacks) != 0 or get_threshold() != threshold)
            except BaseException_:
                dirty = True
            try:  # the test's output is read before its verdict; fds 1, 2 as they were
                st = fstat(4)
                piped, spins = piped and (st.st_dev, st.st_ino) == pipe_id, 0
                while piped and from_bytes(ioctl(4, FIONREAD, zero4), "little"):
                    spins += 1
                    piped = spins < 10000
                    sleep(0.0002)
                if piped:
                    dup2(4, 1)
                    dup2(4, 2)
            except BaseException_:
                piped = False
            dirty = dirty or not piped
        # exits when W is no longer clean (dirty, or an audit event said so)
        audit("erxr.verdict", i, status, detail.encode("utf-8", "replace"), dirty)
    exit_(0)


# compiled once per installation
_CHANNEL_CODE = load_code("hooks", CHANNEL + CLASSES, "<sandbox-hooks>")
