"""Inside the sandbox: the audit hooks that keep verdicts honest (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`), never by the engine. ``HOOKS`` is the
source of the audit hooks, the fingerprint and the helpers of the judge, executed in bare
globals so that nothing in them leads back to runner modules. Every name they use is a
default argument (a tuple, immutable; assigning ``__defaults__`` or ``__code__`` of a
protected function is refused by the guard), never a global or a closure cell, because
candidates can reach these functions (frames, the tests' code constants) and could
otherwise rebind what they call. What a test's comparisons mean (the plain-data rule, the
comparisons and the explanations of failing asserts) lives in ``_sandbox_compare.py``; how a
test is compiled to use them, in ``_sandbox_rewrite.py``.
"""

from __future__ import annotations

__all__ = ["HOOKS"]


HOOKS = r'''
def make_signal(original, audit, callable_, int_):
    def signal(signalnum, handler, _original=original, _audit=audit, _callable=callable_,
               _int=int_):
        """signal.signal restricted to SIG_DFL / SIG_IGN (handlers would receive frames)."""
        if _callable(handler):
            raise PermissionError("Python-level signal handlers are disabled in the sandbox")
        _audit("erxr.taint", "signal")  # a changed disposition outlives the test
        return _original(_int(signalnum), _int(handler))
    return signal


def make_raise(original, audit, int_):
    def raise_signal(signalnum, _original=original, _audit=audit, _int=int_):
        """signal.raise_signal: as the kernel would treat it outside PID 1 (see channel)."""
        _audit("erxr.raise", 0, _int(signalnum))
        return _original(signalnum)
    return raise_signal


def make_cpu_handler(audit):
    def on_sigxcpu(signum, frame, _audit=audit):
        """W is PID 1, which the kernel's SIGXCPU would not stop: report and end."""
        _audit("erxr.cpu", signum)
    return on_sigxcpu


def make_guard(blocked, blocked_imports, hidden, protected, error, import_error):
    def guard(event, args):
        if event in blocked or event.startswith("ctypes."):
            raise error(event + " is not allowed in the sandbox")
        if event == "import" and args[0] in blocked_imports:  # ImportError: fallbacks work
            raise import_error("importing " + str(args[0]) + " is not allowed in the sandbox",
                               name=args[0])
        if event == "object.__getattr__" and args[0] is hidden:
            raise error("the sandbox's signal function cannot be inspected")
        if event == "object.__setattr__" or event == "object.__delattr__":
            for obj in protected:
                if args[0] is obj:
                    raise error("the sandbox's own functions cannot be changed")
    return guard


def make_channel(urandom, write, exit_, gc_disable, gc_enable, getframe, getpid, len_, error,
                 magic, taint_events, candidate, type_dict, type_, issubclass_, getsignal,
                 fatal, getpgrp):
    # after arming in W: [token, pipe, W's judge frame, W's pid, violation or None, tainted,
    # index of the test running]
    state = []

    def die_by(sig):
        """W is PID 1 of its namespace, where a signal it sends itself with the default
        action would be ignored: deliver what the kernel would have, a crash verdict."""
        body = b"Crashed: the test process was killed by signal " + fatal[sig]
        write(state[1], b"%s %s %d error 1 %d\n%s" % (magic, state[0], state[6], len_(body), body))
        exit_(0)

    def channel(event, args):
        if event == "erxr.verdict":
            gc_disable()  # no finalizer may run inside this frame from here on
            if len_(state) != 7 or getpid() != state[3] or getframe(1) is not state[2]:
                gc_enable()
                raise error("only the test runner may deliver a verdict")  # forks may not vote
            index, status, body, dirty = args
            if state[4] is not None:
                status, body = b"error", state[4]
            stop = 1 if dirty or state[5] else 0
            write(state[1], b"%s %s %d %s %d %d\n%s" % (
                magic, state[0], index, status, stop, len_(body), body))
            if stop:
                exit_(0)  # a fresh W runs the next test
            state[4] = None
            gc_enable()
            return
        if event == "erxr.plain":
            if len_(state) == 7 and state[4] is None:
                state[4] = args[0]
            return
        if event == "erxr.cpu":  # SIGXCPU (W's handler): this test used up its CPU time
            if len_(state) == 7 and getpid() == state[3]:
                body = b"the CPU time limit ran out during this test"
                write(state[1], b"%s %s %d timeout 1 %d\n%s" % (
                    magic, state[0], state[6], len_(body), body))
                exit_(0)
            return
        if event == "erxr.test":
            if len_(state) == 7 and getframe(1) is state[2]:
                state[6] = args[0]
            return
        if event == "erxr.setup":  # the module is loaded, the test's own output begins
            if len_(state) == 7 and getpid() == state[3] and getframe(1) is state[2]:
                write(state[1], b"%s %s %d setup 0 0\n" % (magic, state[0], args[0]))
            return
        if event == "os.kill" or event == "os.killpg" or event == "signal.pthread_kill" \
                or event == "erxr.raise" or event == "os.abort":
            if len_(state) == 7 and getpid() == state[3]:
                target, sig = args if event != "os.abort" else (0, 6)
                own = ((event == "os.kill" and (target == state[3] or target == 0))
                       or (event == "os.killpg" and (target == 0 or target == getpgrp()))
                       or event == "signal.pthread_kill" or event == "erxr.raise"
                       or event == "os.abort")
                if own and sig in fatal and (sig == 9 or getsignal(sig) == 0):
                    die_by(sig)
            if event in taint_events and len_(state) == 7:
                state[5] = True
            return
        if event in taint_events:
            if len_(state) == 7 and getframe(1) is not state[2]:  # not the judge's own
                state[5] = True
            return
        if event == "object.__setattr__" or event == "object.__delattr__":
            # a class attribute changed: harmless for the candidate's own classes, but a
            # patched standard-library class would outlive the test
            if len_(state) == 7 and not state[5]:
                obj = args[0]
                if issubclass_(type_(obj), type_) and \
                        type_dict(obj).get("__module__") != candidate:
                    state[5] = True
            return
        if event == "erxr.arm":  # W, before any candidate code runs
            if state:
                raise error("the verdict channel is armed already")
            token = urandom(16).hex().encode()
            write(args[0], b"HELLO %s\n" % token)
            state.extend((token, args[0], getframe(1), getpid(), None, False, 0))
    return channel


def make_fingerprint(builtins_dict, modules, getcwd, getrecursionlimit, sys_module,
                     tuple_, list_, extend, values, keys, getattr_):
    def fingerprint(_watched, _b=builtins_dict, _m=modules, _cwd=getcwd,
                    _rl=getrecursionlimit, _sys=sys_module, _tuple=tuple_, _list=list_,
                    _extend=extend, _values=values, _keys=keys, _getattr=getattr_):
        """Identities of everything a test could patch for later tests (see the runner)."""
        objects = _list(_values(_b))
        _extend(objects, _keys(_b))
        _extend(objects, _values(_m))
        _extend(objects, _keys(_m))
        for name in _watched:
            module = _m.get(name)
            if module is not None:
                space = _getattr(module, "__dict__")
                _extend(objects, _values(space))
                _extend(objects, _keys(space))
        for name in ("path", "meta_path", "path_hooks"):
            _extend(objects, _getattr(_sys, name))
        return _tuple(objects), (_cwd(), _rl(), _sys.get_int_max_str_digits())
    return fingerprint


def same(a, b, _len=len, _all=all, _map=map, _is=__import__("operator").is_):
    """Two fingerprints agree: the same objects, in order, and the same scalars."""
    return _len(a[0]) == _len(b[0]) and _all(_map(_is, a[0], b[0])) and a[1] == b[1]


def describe(exc, _type=type, _str=str, _name=type.__dict__["__name__"].__get__,
             _base=BaseException):
    """"TypeName: message" of an exception; a hostile __str__ cannot break the runner."""
    try:
        name = _name(_type(exc))
    except _base:
        name = "Exception"
    try:
        text = _str(exc)
        if _type(text) is not _str:
            text = "<unprintable>"
    except _base:
        text = "<unprintable>"
    return (name + ": " + text if text else name)[:2000]


def flush(sys_module, _getattr=getattr):
    """Flush whatever the candidate left as sys.stdout / sys.stderr (os._exit will not)."""
    for name in ("stdout", "stderr"):
        stream = _getattr(sys_module, name, None)
        if stream is not None:
            stream.flush()
'''
