"""Attacks on the judge's channel (issue 20 item 1): candidates that try to reach the secret
that authenticates W's verdicts, or to run their own code inside the runner's hooks and
judges, and use what they find to report ``pass`` for a test that fails.

Every candidate carries the same thief (``THIEF``): wherever its code gets to run it walks
every frame it can reach (callers, tracebacks, a signal handler's frame), reports ``LEAKED``
in its output if one of them is a frame of the channel's own functions or holds something
shaped like the channel's secret, and forges: the old wire format with any 32-hex token it
found, and the current one (a MAC of the header) with any keyed hash object it found next to
an fd, then ends the process so that the forged line is the last word. On main 6c51b20, 22 of the
28 cases end with a forged ``pass`` for a failing test, a leak or a runner call into the
candidate's object; the other six (a finaliser or ``weakref.finalize`` of an object the
channel dropped, the traceback of a guard's refusal, every frame and closure reachable from
a test, a thread redirecting the channel during the send) are variants that held there
too and guard the new structure. Each must now give
the failing test's real outcome, print no ``LEAKED`` and no ``RUNNER-CALLED`` (the marker a
candidate's method prints when a runner hook or judge called it), and disturb nothing.

Part of the hostile battery: ``test_sandbox_as_user.py`` runs this file as an ordinary user.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import pytest

from execretrieval import Oracle

ADD = "def add(a, b):\n    return a + b\n"
OK = ["assert add(1, 2) == 3", "assert add(2, 2) == 4"]

THIEF = r'''
import os as _os, sys as _sys
_TARGET = 1
_SEALED = {"channel", "deliver", "violation", "die_by", "load", "signal", "raise_signal"}
def _scan(frames):
    tokens, keyed, seen = [], [], set()
    def scan(v, depth):
        if depth > 4 or id(v) in seen:
            return
        seen.add(id(v))
        t = type(v)
        if t is bytes and len(v) == 32 and all(c in b"0123456789abcdef" for c in v):
            tokens.append(v)
        elif t is list or t is tuple:
            if len(v) >= 2 and hasattr(v[0], "hexdigest") and type(v[1]) is int:
                keyed.append((v[0], v[1]))
            for x in list(v):
                scan(x, depth + 1)
        elif t is dict:
            for x in list(v.values()):
                scan(x, depth + 1)
        elif t is type(_scan):  # a function: what its closure holds
            for cell in v.__closure__ or ():
                try:
                    scan(cell.cell_contents, depth + 1)
                except ValueError:
                    pass
    sealed = False
    for f in frames:
        code = f.f_code
        if code.co_filename == "<sandbox-hooks>" and code.co_name in _SEALED:
            sealed = True
        for v in list(f.f_locals.values()):
            scan(v, 0)
    return tokens, keyed, sealed
def _forge(frames):
    tokens, keyed, sealed = _scan(frames)
    if sealed or tokens or keyed:
        _os.write(1, b"LEAKED %d %d %d\n" % (sealed, len(tokens), len(keyed)))
    for token in tokens:
        for fd in range(3, 24):
            try:
                _os.write(fd, b"ERXR1 %s %d pass 1 0\n" % (token, _TARGET))
            except OSError:
                pass
    for mac, fd in keyed:
        head = b"ERXR1 %d pass 1 0" % _TARGET
        m = mac.copy()
        m.update(head + b"\n")
        _os.write(fd, head + b" " + m.hexdigest().encode() + b"\n")
    if tokens or keyed:
        _os._exit(0)
def _stack(f):
    frames = []
    while f is not None:
        frames.append(f)
        f = f.f_back
    return frames
def _steal():
    _forge(_stack(_sys._getframe(1)))
def _steal_tb(tb):
    frames = []
    while tb is not None:
        frames += [f for f in _stack(tb.tb_frame) if f not in frames]
        tb = tb.tb_next
    _forge(frames)
def _runner_called():
    """Print the marker if the caller of the caller is one of the runner's own frames."""
    code = _sys._getframe(2).f_code
    if code.co_filename == "<sandbox-hooks>" or code.co_name == "_judge":
        _os.write(1, b"RUNNER-CALLED " + code.co_name.encode() + b"\n")
'''
BASE = ADD + THIEF


@dataclass(frozen=True)
class Attack:
    name: str
    code: str
    tests: list[str]
    expected: tuple[tuple[str, ...], ...]  # allowed statuses, test by test


FAIL = ("fail", "error")  # a failing test may be an error (tampering seen), never a pass


def _between(test: str, allowed: tuple[str, ...] = FAIL,
             around: tuple[str, ...] = ("pass",)) -> tuple[list[str], tuple]:
    return [OK[0], test, OK[1]], (around, allowed, around)


# the honest tests around an attack whose code takes a frame while it loads (which it does
# for every test): errors of their own ("... took a frame while it loaded")
LOAD_TAKES_FRAMES = ("error",)


def _attack(name: str, code: str, test: str, allowed: tuple[str, ...] = FAIL,
            around: tuple[str, ...] = ("pass",)) -> Attack:
    tests, expected = _between(test, allowed, around)
    return Attack(name, BASE + code, tests, expected)


SNEAKY = "class Sneaky:\n    def {method}(self, *args):\n        _steal()\n        return {value}\n"
# an object that hands the runner an object that hands it an object ... that steals
LADDER = ("class Z:\n    def __len__(self):\n        _steal()\n        return 0\n"
          "class Y:\n    def __add__(self, other):\n        return self\n"
          "    __radd__ = __add__\n    def __getitem__(self, key):\n        return self\n"
          "    def startswith(self, *args):\n        return False\n"
          "    def encode(self, *args):\n        return Z()\n"
          "class Q(str):\n    def __add__(self, other):\n        return Y()\n"
          "    __radd__ = __add__\n    __hash__ = str.__hash__\n")
GC_TRIGGER = ("import gc\ndef _poke():\n    _sys.audit('erxr.taint')\n")

ATTACKS = [
    # --- the routes in the issue: hooks calling into the candidate's objects ---
    _attack("len_of_an_object_given_to_the_channel",
            SNEAKY.format(method="__len__", value=0),
            "import sys\nsys.audit('erxr.plain', Sneaky())\nassert False"),
    _attack("comparison_of_a_kill_target",
            SNEAKY.format(method="__eq__", value=False) + "    __hash__ = object.__hash__\n",
            "import sys\nsys.audit('os.kill', Sneaky(), 9)\nassert False"),
    _attack("hash_of_a_raised_signal_number",
            SNEAKY.format(method="__hash__", value=1),
            "import sys\nsys.audit('erxr.raise', 0, Sneaky())\nassert False"),
    _attack("index_of_a_signal_number_in_the_signal_wrapper",
            "class Num:\n    def __index__(self):\n        _steal()\n        return 14\n"
            "    __int__ = __index__\n",
            "import signal\ntry:\n    signal._signal.signal(Num(), 1)\nexcept Exception:\n"
            "    pass\nassert False"),
    _attack("module_of_a_class_compared",
            "class M(str):\n    def __ne__(self, other):\n        _steal()\n        return True\n"
            "    __hash__ = str.__hash__\nclass K:\n    pass\n",
            "K.__module__ = M('m')\nK.__module__ = 'n'\nassert False"),
    _attack("key_of_a_class_namespace_compared",
            "class M(str):\n    def __eq__(self, other):\n        _steal()\n"
            "        return str.__eq__(self, other)\n    __hash__ = str.__hash__\n"
            "K = type('K', (), {M('__module__'): '__candidate__'})\n",
            "K.__qualname__ = 'Q'\nassert False", around=LOAD_TAKES_FRAMES),
    _attack("qualname_in_the_plain_data_message",
            LADDER + "class Odd:\n    pass\nOdd.__qualname__ = Q('Odd')\n",
            "try:\n    assert Odd() == 5\nexcept TypeError:\n    pass\nassert False"),
    _attack("name_of_an_exception_being_described",
            LADDER + "class Fake(AssertionError):\n    pass\nFake.__name__ = Q('Fake')\n",
            "raise Fake('boom')"),
    _attack("str_of_an_assertion_message",
            "class Msg:\n    def __str__(self):\n        _runner_called()\n        _steal()\n"
            "        return 'message'\n    __repr__ = __str__\n",
            "assert False, Msg()", ("fail",)),
    _attack("args_of_an_exception_being_described",
            "class Msg:\n    def __repr__(self):\n        _runner_called()\n        _steal()\n"
            "        return 'm'\n    __str__ = __repr__\n",
            "raise ValueError(Msg(), Msg())", ("error",)),
    _attack("flush_of_the_candidates_stdout",
            "import sys\nclass Out:\n    def write(self, text):\n        return len(text)\n"
            "    def flush(self):\n        _runner_called()\n        _steal()\n",
            "sys.stdout = Out()\nassert False", ("fail",)),
    _attack("key_of_sys_modules_compared_by_the_judge",
            "import sys\nclass M(str):\n    def __eq__(self, other):\n        _runner_called()\n"
            "        _steal()\n        return str.__eq__(self, other)\n"
            "    __hash__ = str.__hash__\n",
            "sys.modules.pop('__candidate__')\nsys.modules[M('__candidate__')] = sys\n"
            "assert False", ("fail",)),
    # a class whose namespace has a str-subclass key: looking a name up there (is
    # __eq__ its own?) ran the key's __eq__ inside the plain-data check, which said no
    # while the interpreter found the always-true __eq__: f() == [5] passed (also
    # [5] == f() and f() in [[5]]); a namedtuple's _fields likewise in the explainer
    _attack("key_of_a_list_subclass_namespace_compared_by_the_plain_data_check",
            "class M(str):\n    def __eq__(self, other):\n"
            "        if _sys._getframe(1).f_code.co_name in ('base_of', 'render'):\n"
            "            _os.write(1, b'RUNNER-CALLED\\n')\n            return False\n"
            "        return str.__eq__(self, other)\n    __hash__ = str.__hash__\n"
            "def _yes(self, other):\n    return True\n"
            "K = type('K', (list,), {M('__eq__'): _yes, M('__hash__'): None})\n",
            "assert K([1]) == [5]\nassert [5] == K([1])\nassert K([1]) in [[5]]\nassert False",
            ("error",), around=LOAD_TAKES_FRAMES),
    _attack("key_of_a_tuple_subclass_namespace_read_by_the_explainer",
            "class M(str):\n    def __eq__(self, other):\n"
            "        if _sys._getframe(1).f_code.co_name in ('base_of', 'render'):\n"
            "            _os.write(1, b'RUNNER-CALLED\\n')\n"
            "        return str.__eq__(self, other)\n"
            "    __hash__ = str.__hash__\n"
            "T = type('T', (tuple,), {M('_fields'): ('a',)})\n",
            "assert T((1,)) == (2,)", FAIL),
    # the guard itself (reachable in the worker's frame, hooks["guard"]) was not among the
    # functions it protects: given a do-nothing __code__, it refused nothing, and
    # gc.get_objects (after gc.unfreeze) found the channel's state, its keyed MAC and fd,
    # for a forged pass
    _attack("rewrite_the_guard_then_walk_the_heap",
            "def _noop(event, args, *defaults, **more):\n    return None\n"
            "def _disarm():\n    f = _sys._getframe()\n    while f is not None:\n"
            "        hooks = f.f_locals.get('hooks')\n"
            "        if type(hooks) is dict and 'guard' in hooks:\n"
            "            g = hooks['guard']\n"
            "            g.__code__ = _noop.__code__\n"
            "            return\n        f = f.f_back\n"
            "def _heap():\n    import gc\n    gc.unfreeze()\n    for o in gc.get_objects():\n"
            "        if type(o) is list and len(o) == 7 and type(o[0]).__name__ == 'blake2b':\n"
            "            _forge([_sys._getframe()] + [type('F', (), {'f_locals': {'s': o},"
            " 'f_code': _sys._getframe().f_code})()])\n",
            "try:\n    _disarm()\nexcept PermissionError:\n    pass\n_heap()\nassert False",
            ("error",)),
    # --- gc callbacks and finalisers firing while a hook is on the stack ---
    _attack("gc_callback_inside_the_channel",
            GC_TRIGGER + "def _cb(phase, info):\n    _steal()\n",
            "gc.callbacks.append(_cb)\ngc.set_threshold(1)\nfor _ in range(20):\n    _poke()\n"
            "assert False"),
    _attack("finaliser_of_a_cycle_inside_the_channel",
            GC_TRIGGER + "class Bomb:\n    def __del__(self):\n        _steal()\n"
            "def _arm():\n    b = Bomb()\n    b.me = b\n",
            "gc.set_threshold(1)\nfor _ in range(50):\n    _arm()\n    _poke()\nassert False"),
    Attack("finaliser_of_an_object_the_channel_dropped",
           BASE.replace("_TARGET = 1", "_TARGET = 2")
           + "class B(bytes):\n    def __del__(self):\n        _steal()\n",
           [OK[0], "import sys\nsys.audit('erxr.plain', B(b'refused'))", "assert False"],
           (("pass",), ("error",), FAIL)),
    Attack("weakref_finalize_of_an_object_the_channel_dropped",
           BASE.replace("_TARGET = 1", "_TARGET = 2")
           + "import weakref\nclass B(bytes):\n    pass\n",
           [OK[0], "import sys\nb = B(b'refused')\nweakref.finalize(b, _steal)\n"
                   "sys.audit('erxr.plain', b)\ndel b", "assert False"],
           (("pass",), ("error",), FAIL)),
    _attack("gc_callback_inside_the_plain_data_equality",
            "import gc, sys\nclass Yes:\n    def __eq__(self, other):\n        return True\n"
            "    __hash__ = object.__hash__\nL = [1, 2, 3]\n"
            "def _cb(phase, info):\n    f = sys._getframe(1)\n"
            "    if f.f_code.co_name == 'eq' and f.f_locals.get('plain') == [0]:\n"
            "        L[2] = Yes()\n"
            "def f():\n    gc.callbacks.append(_cb)\n    gc.set_threshold(1)\n    return L\n",
            "assert f() == [1, 2, 4]"),
    # --- the traceback of a hook's own refusal, and sys.exc_info() after it ---
    _attack("traceback_of_a_refused_verdict", "",
            "import sys\ntry:\n    sys.audit('erxr.verdict', 1, b'pass', b'', False)\n"
            "except BaseException as e:\n    _steal_tb(e.__traceback__)\nassert False"),
    _attack("exc_info_after_rearming_the_channel", "",
            "import sys\ntry:\n    sys.audit('erxr.arm', 3)\nexcept BaseException:\n"
            "    _steal_tb(sys.exc_info()[2])\nassert False"),
    _attack("traceback_of_a_kill_on_a_closed_channel", "",
            "import os\nreal = os.dup(3)\nos.close(3)\ntry:\n    os.kill(os.getpid(), 9)\n"
            "except BaseException as e:\n    _steal_tb(e.__traceback__)\nassert False",
            ("error",)),
    # (walking a traceback's frames while a test runs makes the test an error of its own
    # now, issue 20: the walk still runs, and still finds nothing)
    _attack("traceback_of_a_refused_import", "",
            "try:\n    import _ctypes\nexcept BaseException as e:\n    _steal_tb(e.__traceback__)\n"
            "assert False", ("error",)),
    _attack("frames_of_a_refused_guard_check", "",
            "import signal\ntry:\n    signal._signal.signal.__defaults__\n"
            "except BaseException as e:\n    _steal_tb(e.__traceback__)\nassert False",
            ("error",)),
    _attack("every_frame_and_closure_from_the_test", "",
            "_steal()\nassert False"),
    # --- reading or redirecting the channel itself ---
    Attack("redirect_the_channel_and_read_a_verdict",
           BASE + "import os\n",
           ["real = os.dup(3)\nr, w = os.pipe()\nos.dup2(w, 3)",
            "import re\nfor fd in range(5, 12):\n    try:\n        os.set_blocking(fd, False)\n"
            "        data = os.read(fd, 65536)\n    except OSError:\n        continue\n"
            "    for token in re.findall(rb'ERXR1 ([0-9a-f]{32}) ', data):\n"
            "        for out in range(3, 12):\n            try:\n"
            "                os.write(out, b'ERXR1 ' + token + b' 0 pass 0 0\\nERXR1 ' + token\n"
            "                         + b' 1 pass 1 0\\n')\n"
            "            except OSError:\n                pass\n        os._exit(0)\n"
            "assert False", OK[1]],
           (("pass", "error"), FAIL, ("pass",))),
    Attack("thread_redirects_the_channel_during_the_send",
           BASE + "import os, re, threading\n"
           "def _spy(real, r, w):\n    while True:\n        os.dup2(w, 3)\n        try:\n"
           "            data = os.read(r, 65536)\n        except BlockingIOError:\n"
           "            continue\n"
           "        for token in re.findall(rb'ERXR1 ([0-9a-f]{32}) ', data):\n"
           "            os.write(real, b'ERXR1 ' + token + b' 0 pass 1 0\\n')\n"
           "            os._exit(0)\n"
           "        if data.startswith(b'ERXR1 0 fail'):\n"
           "            os.write(1, b'captured a verdict\\n')\n"
           "            os.write(real, data.replace(b' fail ', b' pass ', 1))\n"
           "            os._exit(0)\n",
           ["real = os.dup(3)\nr, w = os.pipe()\nos.set_blocking(r, False)\n"
            "threading.Thread(target=_spy, args=(real, r, w), daemon=True).start()\n"
            "assert False", OK[1]],
           (FAIL, ("pass",))),
    # --- the guard's own inputs ---
    _attack("import_by_a_str_subclass_name",
            "class S(str):\n    def __hash__(self):\n        return 7\n"
            "    def __eq__(self, other):\n        return str.__eq__(self, other)\n",
            "m = __import__(S('_testcapi'))\nprint('LEAKED', m)\nassert False", ("error",)),
    _attack("load_ctypes_from_its_spec", "",
            "import importlib.util\nspec = importlib.util.find_spec('_ctypes')\n"
            "m = importlib.util.module_from_spec(spec)\nprint('LEAKED', m)\nassert False",
            ("error",)),
    _attack("fresh_signal_module_and_a_handler_seeing_the_channel",
            "import signal\n"
            "def _handler(signum, frame):\n    try:\n        _forge(_stack(frame))\n"
            "    except Exception:\n        pass\n",
            "import _imp, importlib.util\n"
            "fresh = _imp.create_builtin(importlib.util.find_spec('_signal'))\n"
            "fresh.signal(signal.SIGALRM, _handler)\n"
            "signal.setitimer(signal.ITIMER_REAL, 0.00005, 0.00005)\nimport sys\n"
            "for _ in range(20000):\n    sys.audit('erxr.taint')\n"
            "signal.setitimer(signal.ITIMER_REAL, 0)\nassert False", ("error",)),
]
# --- ctypes types the worker inherits from the server, found through __subclasses__ (the
# import is refused): creating an instance or a class raises no audit event, and a Union of
# c_void_p and c_char_p reads any memory (the channel's key with it). Each attempt must be a
# TypeError. On main 309a946 all but three print LEAKED: a call of an existing function
# pointer too (it raises no audit event); object.__new__(c_char_p) was refused there already,
# and no array type existed before a W made its own.
CTYPES = r'''
def _classes():
    seen, stack = {}, [object]
    while stack:
        try:
            subs = type.__subclasses__(stack.pop())
        except TypeError:
            continue
        for s in subs:
            if id(s) not in seen:
                seen[id(s)] = s
                stack.append(s)
    return {c.__module__ + "." + c.__qualname__: c for c in seen.values()}
_C = _classes()
VP, CP = _C["ctypes.c_void_p"], _C["ctypes.c_char_p"]
SECRET = b"marker-" + b"xyz" * 3
'''
CTYPES_ATTACKS = [
    ("union_reads_memory",
     "U = type(_C['_ctypes.Union'])('U', (_C['_ctypes.Union'],), "
     "{'_fields_': [('a', VP), ('b', CP)]})\nu = U()\nu.a = id(SECRET) + 32\n"
     "print('LEAKED', u.b)\nassert False"),
    ("c_char_p_instance", "p = CP(b'abc')\nprint('LEAKED', p)\nassert False"),
    ("c_void_p_instance", "p = VP(id(SECRET))\nprint('LEAKED', p)\nassert False"),
    ("array_type_and_instance",
     "A = VP * 4\nprint('LEAKED', A)\nprint('LEAKED', A())\nassert False"),
    ("array_of_an_existing_array_type",
     "A = next(c for k, c in _C.items() if 'Array_' in k)\nprint('LEAKED', A())\n"
     "assert False"),
    ("structure_subclass",
     "class S(_C['_ctypes.Structure']):\n    _fields_ = [('a', VP), ('b', CP)]\n"
     "print('LEAKED', S)\nassert False"),
    ("subclass_of_a_python_ctypes_class",
     "S = type('S', (CP,), {})\nprint('LEAKED', S)\nassert False"),
    ("big_endian_structure_given_fields",
     "S = _C['ctypes._endian.BigEndianStructure']\nS._fields_ = [('a', _C['ctypes.c_int'])]\n"
     "print('LEAKED', S())\nassert False"),
    ("metatype_call",
     "T = type(CP)('T', (), {'_type_': 'z'})\nprint('LEAKED', T)\nassert False"),
    ("metatype_subclass", "M = type('M', (type(CP),), {})\nprint('LEAKED', M)\nassert False"),
    ("simplecdata_new_of_c_char_p",
     "p = _C['_ctypes._SimpleCData'].__new__(CP)\nprint('LEAKED', p)\nassert False"),
    ("object_new_of_c_char_p", "p = object.__new__(CP)\nprint('LEAKED', p)\nassert False"),
    ("unpickle_a_c_void_p",
     "m = _C['ctypes.CDLL'].__init__.__globals__['sizeof'].__self__\n"
     "p = m._unpickle(VP, ({}, (id(SECRET)).to_bytes(8, 'little')))\n"
     "print('LEAKED', p)\nassert False"),
    ("refcounts_of_the_ctypes_module",
     "m = _C['ctypes.CDLL'].__init__.__globals__['sizeof'].__self__\n"
     "print('LEAKED' if hasattr(m, 'Py_DECREF') or hasattr(m, 'Py_INCREF') else 'none')\n"
     "raise TypeError('no unaudited refcount functions')"),
    ("call_an_existing_function_pointer",
     "g = _C['ctypes.CDLL'].__init__.__globals__\n"
     "g['memmove'](id(SECRET) + 32, id(SECRET) + 32, 1)\nprint('LEAKED call')\nassert False"),
]
ATTACKS += [_attack("ctypes_" + name, CTYPES, test, ("error",))
            for name, test in CTYPES_ATTACKS]
# --- memory through crafted bytecode: a code object whose LOAD_CONST reads past its
# constants makes any address an object (a bytearray over all memory), and with it the
# judge's own constant b"fail" is rewritten to b"pass", so ``assert False`` passes. The
# code object comes from code.replace, types.CodeType, or marshal (loads and load), run
# through a function's __code__, types.FunctionType or exec. On main d4a4f2c each one
# printed LEAKED and reported ``pass`` for ``assert False``.
BYTECODE = r"""
import marshal as _marshal, opcode as _opcode, struct as _struct, io as _io, types as _types
SECRET = b"marker-" + b"xyz" * 3
_KEEP = []
def _ops(k):
    ops = [_opcode.opmap["RESUME"], 0]
    for s in (24, 16, 8):
        ops += [_opcode.opmap["EXTENDED_ARG"], (k >> s) & 0xff]
    return bytes(ops + [_opcode.opmap["LOAD_CONST"], k & 0xff, _opcode.opmap["RETURN_VALUE"], 0])
def _plain():
    return None
def _memory(route):
    fake = _struct.pack("<QQqqQQQ", 1 << 40, id(bytearray), 1 << 62, 1 << 62, 0, 0, 0)
    holder = _struct.pack("<Q", id(fake) + 32)
    consts = () if route.startswith("marshal") else (None,)
    k = ((id(holder) + 32 - id(consts) - 24) // 8) & 0xffffffff
    code = _plain.__code__
    if route == "replace":
        code = code.replace(co_code=_ops(k), co_consts=consts, co_stacksize=2)
    elif route == "codetype":
        code = _types.CodeType(0, 0, 0, 0, 2, code.co_flags, _ops(k), consts, (), (),
                               "<x>", "x", "x", 1, b"", b"")
    else:
        data, old = _marshal.dumps(code), code.co_code
        i = data.index(old)
        new = _ops(k)
        data = data[:i - 4] + _struct.pack("<I", len(new)) + new + data[i + len(old):]
        j = i + len(new)
        data = data[:j + 1] + b"\x00" + data[j + 3:]  # the constants: ()
        code = _marshal.loads(data) if route == "marshal_loads" else \
            _marshal.load(_io.BytesIO(data))
    if route == "marshal_loads":
        mem = _types.FunctionType(code, {})()
    else:
        def g():
            return None
        g.__code__ = code
        mem = g()
    _KEEP.append((fake, holder, consts, mem))
    if bytes(mem[id(SECRET) + 32:id(SECRET) + 48]) == SECRET[:16]:
        _os.write(1, b"LEAKED memory\n")
    return mem
def _judge_says_pass(route):
    mem = _memory(route)
    f = _sys._getframe()
    while f.f_code.co_name != "_judge":
        f = f.f_back
    for c in f.f_code.co_consts:
        if type(c) is bytes and c == b"fail":
            mem[id(c) + 32:id(c) + 36] = b"pass"
"""
ATTACKS += [_attack("bytecode_" + route, BYTECODE, f"_judge_says_pass({route!r})\nassert False",
                    ("error",))
            for route in ("replace", "codetype", "marshal_loads", "marshal_load")]
NAMES = [a.name for a in ATTACKS]


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=5.0, cache=None, workers=2) as o:
        yield o


def _check(result, attack: Attack) -> None:
    outputs = [o.output for o in result.outcomes] + [result.setup_output]
    for status, allowed, outcome in zip(result.statuses, attack.expected, result.outcomes,
                                        strict=True):
        assert status in allowed, (attack.name, result.outcomes)
        assert "Tampered" not in outcome.detail or status == "error"
    assert not any("LEAKED" in text for text in outputs), (attack.name, outputs)
    assert not any("RUNNER-CALLED" in text for text in outputs), (attack.name, outputs)


@pytest.mark.parametrize("name", NAMES)
def test_channel_attack_via_run(oracle, name):
    attack = next(a for a in ATTACKS if a.name == name)
    started = time.monotonic()
    result = oracle.run(attack.code, attack.tests)
    assert time.monotonic() - started < 15
    _check(result, attack)


@pytest.mark.parametrize("name", NAMES)
def test_channel_attack_in_batch(oracle, name):
    attack = next(a for a in ATTACKS if a.name == name)
    honest = (ADD, OK)
    results = oracle.run_many([honest, (attack.code, attack.tests), honest])
    _check(results[1], attack)
    assert results[0].passed and results[2].passed, "an honest suite was disturbed"


def test_what_the_runner_says_of_exceptions_is_still_cpythons():
    """Exceptions are described from runner-held code only, yet read as CPython prints them
    whenever their content is plain data (a class's own __str__ is not called)."""
    code = ("class Custom(ValueError):\n    def __str__(self):\n        return 'custom text'\n"
            "class Thing:\n    pass\n")
    tests = ["open('/nonexistent/file')", "{}[(1, 'a')]", "raise ValueError('bad value', 3)",
             "raise Custom('its args')", "raise KeyError(Thing())",
             "assert False, 'the message'", "int('1' * 5000)", "import numpy_not_there",
             "undefined_name"]
    with Oracle(timeout=5.0, cache=None, workers=1) as o:
        result = o.run(code, tests)
    details = [outcome.detail for outcome in result.outcomes]
    expected = []
    for test in tests:
        namespace: dict = {}
        exec(compile(code, "<candidate>", "exec"), namespace)
        try:
            exec(compile(test, "<test>", "exec"), namespace)
        except BaseException as exc:
            name = type(exc).__name__
            if isinstance(exc, Exception) and type(exc).__name__ == "Custom":
                text = BaseException.__str__(exc)  # not its own __str__
            elif isinstance(exc, KeyError) and type(exc.args[0]).__name__ == "Thing":
                text = "<a Thing object>"
            else:
                text = str(exc)
            expected.append(text if name == "AssertionError" else f"{name}: {text}")
    assert details == expected
    assert result.statuses == ("error",) * 5 + ("fail",) + ("error",) * 3


def test_no_frame_a_candidate_can_reach_holds_a_ctypes_object(oracle):
    """Walking up from a test (sys._getframe().f_back ...) passes the judge, the worker and
    the server's own frames: none of their locals or globals may be a ctypes object (the
    server's loop once kept its prctl function in a local)."""
    probe = ("import sys\nfound, f = [], sys._getframe()\nwhile f is not None:\n"
             "    for where in (f.f_locals, f.f_globals):\n"
             "        for k, v in list(where.items()):\n"
             "            m = type(v).__module__\n"
             "            if type(m) is str and m.lstrip('_').startswith('ctypes'):\n"
             "                found.append(f.f_code.co_name + ':' + k)\n"
             "    f = f.f_back\n")
    result = oracle.run(ADD, [probe + "print(len(found))\nassert found == []",
                              "assert add(1, 2) == 3"])
    # taking a frame while a test runs is an error of its own (issue 20); the walk ran
    assert result.statuses == ("error", "pass"), result.outcomes
    assert "out of the candidate's reach" in result.outcomes[0].detail
    assert result.outcomes[0].output.strip() == "0"


def test_code_made_by_compile_still_runs(oracle):
    """With code.__new__ and marshal refused, what honest code does still works: modules
    first imported after arming (compiled from source, not read from a .pyc), dataclasses,
    namedtuples, enums, exec/eval of source, functions copied and pickled by reference."""
    code = ("import glob, tomllib, dataclasses, enum, collections, typing\n"
            "@dataclasses.dataclass(frozen=True)\nclass P:\n    x: int\n    y: int = 0\n"
            "Pair = collections.namedtuple('Pair', 'a b')\nclass Color(enum.Enum):\n"
            "    RED = 1\nclass TD(typing.NamedTuple):\n    n: int\n"
            "def area(p):\n    return p.x * p.y\n")
    tests = ["assert area(P(2, 3)) == 6 and P(1) == P(1, 0)",
             "assert Pair(1, 2)._asdict() == {'a': 1, 'b': 2} and TD(3).n == 3",
             "assert Color(1) is Color.RED and tomllib.loads('a = 1') == {'a': 1}",
             "import importlib\nm = importlib.import_module('shlex')\n"
             "assert m.split('a b') == ['a', 'b']",
             "assert eval(compile('1 + 2', 's', 'eval')) == 3\nexec('x = 4')\nassert x == 4",
             "import pickle, copy\nassert pickle.loads(pickle.dumps(area)) is area\n"
             "assert copy.deepcopy(area) is area",
             "import marshal\nmarshal.loads(marshal.dumps(1))"]
    result = oracle.run(code, tests)
    assert result.statuses == ("pass",) * 6 + ("error",), result.outcomes
    assert "marshal.loads is not allowed" in result.outcomes[6].detail


# Everything a candidate reaches from its test's frame (the known-open __globals__ read
# included): callers' frames and their globals and locals, every function's __globals__,
# closure cells, defaults and code constants, methods' and builtins' __self__, modules,
# classes (with their __subclasses__), containers, exceptions' tracebacks. The walk must
# see the runner (the judge's frame, its module's globals, the comparison rules, the
# guard) and the candidate's own planted key, yet nothing that leads to the channel: no
# keyed BLAKE2 object but the planted one, no channel function, no runner function with
# a closure cell (cells are rewritten without an audit event), no mutable default but the
# fingerprint's own views of builtins and sys.modules; and every runner function reached
# refuses a new __code__, __defaults__ or __kwdefaults__.
REACH = r'''
import collections as _collections, json as _json, sys as _sys, types as _types
from _blake2 import blake2b as _b2
_PLANTED = _b2(key=b"planted", digest_size=16)
_STATE = [_PLANTED, 3, None, 0, b"", False, 0]
_RUNNER = ("<sandbox-hooks>", "<sandbox-compare>", "<pytest-shim>", "<sandbox-tags>")
def _reach(limit=500000):
    seen, queue, n = {}, _collections.deque([(_sys._getframe(), "frame")]), 0
    found = _collections.Counter()
    def push(x, path):
        if id(x) not in seen:
            seen[id(x)] = x
            queue.append((x, path))
    while queue and n < limit:
        x, path = queue.popleft()
        n += 1
        t = type(x)
        if t.__name__ == "blake2b":
            found["blake2b"] += 1
        if t.__name__ in ("c_uint64", "c_ulong"):  # a version-tag view (_sandbox_tags.py)
            found["tag_view " + path[-60:]] += 1
        try:
            if t is _types.FrameType:
                if x.f_code.co_name == "_judge":
                    found["judge_frame"] += 1
                if x.f_back is not None:
                    push(x.f_back, path + ".f_back")
                push(x.f_globals, path + ".f_globals")
                push(x.f_locals, path + ".f_locals")
                push(x.f_code, path + ".f_code")
            elif t is _types.FunctionType:
                code = x.__code__
                if code.co_filename in _RUNNER:
                    found["runner_function"] += 1
                    if code.co_name in ("compare", "guard"):
                        found["runner_" + code.co_name] += 1
                    if code.co_name in ("channel", "deliver", "violation") and \
                            code.co_filename == "<sandbox-hooks>":
                        found["channel_function " + path[-60:]] += 1
                    if x.__closure__:
                        found["runner_closure " + code.co_name] += 1
                    for attr in ("__code__", "__defaults__", "__kwdefaults__"):
                        try:
                            setattr(x, attr, getattr(x, attr))
                            found["rewritable " + code.co_name + "." + attr] += 1
                        except PermissionError:
                            found["refused"] += 1
                    try:
                        for d in (x.__defaults__ or ()):
                            if type(d) in (list, dict, set, bytearray) and not (
                                    d is vars(__builtins__ if type(__builtins__) is
                                              _types.ModuleType else _sys.modules["builtins"])
                                    or d is _sys.modules):
                                found["mutable default " + code.co_name] += 1
                    except PermissionError:
                        pass
                push(x.__globals__, path + ".__globals__")
                for i, cell in enumerate(x.__closure__ or ()):
                    try:
                        push(cell.cell_contents, path + ".cell")
                    except ValueError:
                        pass
                try:
                    push(x.__defaults__, path + ".__defaults__")
                    push(x.__kwdefaults__, path + ".__kwdefaults__")
                except PermissionError:
                    found["hidden"] += 1
                push(x.__dict__, path + ".__dict__")
                push(code, path + ".__code__")
            elif t is _types.MethodType:
                push(x.__self__, path + ".__self__")
                push(x.__func__, path + ".__func__")
            elif t is _types.BuiltinFunctionType:
                push(x.__self__, path + ".__self__")
            elif t is _types.CodeType:
                for c in x.co_consts:
                    push(c, path + ".const")
            elif t is _types.ModuleType:
                push(vars(x), path + ".__dict__")
            elif t is dict:
                if "_judge" in x and "make_hooks" in x:
                    found["runner_globals"] += 1
                for k, v in list(x.items()):
                    push(k, path + "[k]")
                    push(v, path + "[v]")
            elif t in (list, tuple, set, frozenset, _collections.deque):
                if t is list and len(x) == 7 and type(x[0]).__name__ == "blake2b":
                    found["state"] += 1
                for v in list(x):
                    push(v, path + "[i]")
            elif t is _types.MappingProxyType:
                for v in list(x.values()):
                    push(v, path + "{v}")
            elif isinstance(x, type):
                push(vars(x), path + ".vars")
                try:
                    for sub in type.__subclasses__(x):
                        push(sub, path + ".sub")
                except TypeError:
                    pass
            elif isinstance(x, BaseException):
                push(x.__traceback__, path + ".tb")
            elif t is _types.TracebackType:
                push(x.tb_frame, path + ".tb_frame")
                push(x.tb_next, path + ".tb_next")
            elif t is _types.CellType:
                push(x.cell_contents, path + ".contents")
            elif type(getattr(x, "__dict__", None)) is dict:
                push(x.__dict__, path + ".__dict__")
        except PermissionError:
            found["refused read"] += 1
    found["visited"] = n
    return found
'''


def test_nothing_reachable_leads_to_the_channel(oracle):
    result = oracle.run(ADD + REACH, [
        "try:\n    raise ValueError('a traceback to walk too')\nexcept ValueError as e:\n"
        "    _E = e\nprint(_json.dumps(_reach()))", "assert add(1, 2) == 3"])
    # taking a frame while a test runs is an error of its own (issue 20); the walk ran
    assert result.statuses == ("error", "pass"), result.outcomes
    assert "out of the candidate's reach" in result.outcomes[0].detail
    found = json.loads(result.outcomes[0].output)
    assert found["visited"] > 10_000, found
    for reached in ("judge_frame", "runner_globals", "runner_compare", "runner_guard"):
        assert found.get(reached, 0) >= 1, (reached, found)
    assert found["runner_function"] > 50 and found["refused"] == 3 * found["runner_function"]
    assert found["blake2b"] == 1 and found.get("state") == 1, found  # the planted ones only
    opened = sorted(k for k in found if k.split(" ")[0] in (
        "channel_function", "runner_closure", "rewritable", "mutable", "tag_view"))
    assert opened == [], found
