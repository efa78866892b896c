"""Inside the sandbox: the verdict channel, the guard and the judge's helpers (stdlib only).

Imported by the fork server (:mod:`_sandbox_child`) through :mod:`_sandbox_runner`, never by
the engine. ``CHANNEL`` is source text executed in bare globals (as the comparison rules
of ``_sandbox_compare.py`` are), so nothing in it leads back to runner modules. The rule
it keeps:

* **No runner hook or judge calls a method of an object the candidate made.** Every value a
  hook takes from an audit event is checked with ``type(x) is <exact built-in>`` before it is
  compared, hashed, measured or formatted; anything else is treated as the candidate's own
  event (a taint, or a refusal) without being touched. The hooks never look anything up in
  a container the candidate can change: a class's namespace is copied in one C call and its
  keys checked for exact ``str`` before one is compared. The judge's helpers (describing an
  exception, flushing output, the fingerprint of what a test could patch) work the same way:
  an exception is described from its ``args`` and its built-in ancestor's own ``__str__``
  only when all of them are plain data, output is flushed through the runner's own
  ``sys.stdout`` / ``sys.stderr`` objects only while they are the exact built-in I/O types,
  and the fingerprint reads module namespaces the judge took before the candidate ran.
* **No frame that candidate code can reach holds the channel's secret.** The key that
  authenticates verdicts lives in the closure of ``channel`` (referenced by nothing but the
  interpreter's audit-hook list) as a keyed BLAKE2 object; the key itself went to the server
  once, in the ``HELLO`` line, before any candidate code ran. Every later message carries a
  MAC of its own content, never the key, so a candidate that redirects or reads the channel's
  fd learns nothing it can reuse (a swallowed verdict makes the test an ``error``). The
  channel never raises: refused or forged events are recorded and turn the current test
  into an ``error``; anything unexpected inside it (a closed fd, memory running out) ends
  W at once with ``TAMPERED_EXIT``, before any candidate code could run. Hooks that do
  refuse (the guard) raise from a frame holding only public things (event names,
  the runner's public functions), so a refusal's traceback leads nowhere.
* **No frame of a running test is in the candidate's reach** (issue 20). From ``erxr.run``
  (the judge, once the code has loaded) to the verdict, any frame taken — ``sys._getframe``,
  ``tb_frame``, ``gi_frame`` / ``cr_frame`` / ``ag_frame``, the audited ways to a frame in
  3.11 (``f_back`` is not) — makes the test an error; so does one taken while the code
  loads (from there the walk leads to the judge's frame and the tests' code objects, whose
  constants are the tests' inputs, expected values and random draw functions). The
  channel's own ``sys._getframe`` is told apart
  by ``asking`` (the thread that is asking), the standard library's readers of a caller's
  ``__name__`` (namedtuple...) by their code objects.
* **No candidate code runs inside runner code.** The channel disables the cyclic garbage
  collector for its whole run (so no gc callback or finaliser of a cycle can fire in it),
  never drops the last reference to a candidate object (so no ``__del__`` or weakref
  callback fires in it either), and Python-level signal handlers are the runner's own (the
  guarded loaders refuse a fresh ``_signal``; the CPU-limit handler disables gc before it
  allocates and never returns into candidate code). Candidate threads may run while the
  channel runs, but they cannot reach its frame (``sys._current_frames`` and tracing are
  refused) and what they can do to the fd only loses a verdict, never forges one. The judge
  keeps gc disabled from the end of a test to its verdict, and the runner's plain-data
  equality and explainer run with gc disabled (``nogc``).
"""

from __future__ import annotations

__all__ = ["CHANNEL", "TAMPERED_EXIT"]

# W's exit status when its channel could not deliver a verdict safely.
TAMPERED_EXIT = 75

CHANNEL = r'''
def make_channel(urandom, write, exit_, gc_disable, gc_enable, gc_isenabled, getframe,
                 getpid, getpgrp, getsignal, new_mac, magic, taint_events, candidate,
                 fatal_names, type_dict, items, tampered_exit, threads, frame_type,
                 stdlib, get_ident, name_readers, state_readers=(), test_classes=((), ())):
    """The verdict channel: an audit hook, referenced only by the interpreter's hook list."""
    tuple_, int_, bytes_, bool_, str_, type_, len_ = tuple, int, bytes, bool, str, type, len
    issubclass_, dict_ = issubclass, dict
    kills = frozenset({"os.kill", "os.killpg", "signal.pthread_kill", "erxr.raise", "os.abort"})
    handled = frozenset({"erxr.verdict", "erxr.setup", "erxr.test", "erxr.plain", "erxr.cpu",
                         "erxr.arm", "erxr.run", "object.__setattr__", "object.__delattr__",
                         "sys._getframe", "object.__getattr__", "exec", "function.__new__"}
                        | kills | taint_events)
    # the functions a comprehension or generator expression makes (called at once, or as
    # the test's own code makes them): not refused when the test evaluates code that has one
    inline = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
    statuses = (b"pass", b"fail", b"error")
    # the audited ways to a frame besides sys._getframe (f_back is read without an event)
    frame_attributes = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
    # after arming (in W: the server makes the channel, each W arms its own copy): [keyed
    # MAC, pipe fd, W's judge frame, W's pid, violation (b"" if none), tainted, test index,
    # whether a test's own code runs (from erxr.run to its verdict)]
    state = []

    asking = [0]  # the thread whose channel call takes its caller's frame (one event)
    readers = [name_readers]  # (and those W names when it arms the channel)
    # the standard library's walks over frames that only read them (logging's record of
    # its caller, traceback's formatting of a traceback), named by W when it arms the
    # channel: (the taker's code, the code of its caller, their module's namespace, a
    # local of that caller that must be False, (namespace, name, object, its code or None)
    # that must still be bound as they were)
    walkers = [()]
    code_type = type(make_channel.__code__)
    mro_of, base_exception = type.__dict__["__mro__"].__get__, BaseException
    function_type = type(make_channel)
    globals_of = function_type.__dict__["__globals__"].__get__
    function_state = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
    spaces = [()]  # (name, namespace) of every standard-library module, W's, once armed

    def caller():
        """The frame that raised the event (the channel's own sys._getframe, whose event
        comes back to the channel: ``asking`` tells it apart from the candidate's)."""
        asking[0] = get_ident()
        try:
            return getframe(2)
        finally:
            asking[0] = 0

    def walked(taker, code, _get=dict.get, _dict=dict,
               _code_of=function_type.__dict__["__code__"].__get__):
        """``taker`` (running ``code``) is one of the walkers' takers, with its module's own
        namespace, called by (or, a generator, resumed by) that walker's code with the same
        namespace; no other thread runs (none could rebind anything meanwhile); every
        function the frames (or their code, or globals) are handed to is still the
        module's own, with its own code; and the caller's flag for handing more on (a
        stack, locals) is False. The frames then only lead to file names, line numbers and
        function names. (Reading ``__code__`` here raises an event of its own, which the
        channel ignores.)"""
        for walker in walkers[0]:
            if code is walker[0] and taker.f_globals is walker[2]:
                outer = taker.f_back
                if (type_(outer) is not frame_type or outer.f_code is not walker[1]
                        or outer.f_globals is not walker[2] or threads() != 0):
                    return False
                for space, name, value, value_code in walker[4]:
                    if _get(space, name) is not value or (
                            value_code is not None and _code_of(value) is not value_code):
                        return False
                local = outer.f_locals
                return type_(local) is _dict and _get(local, walker[3], None) is False
        return False

    def frame_taken(frame, how):
        """Candidate code took ``frame`` (an exact frame, or None). While a test runs, every
        frame leads to the test's (f_back has no audit event); while the code loads, every
        frame leads to the judge's, which holds the tests' code objects (their constants:
        literal inputs, expected values, the functions a test draws its random inputs
        with), and a frame that is or was entered from a generator's or coroutine's would
        lead to the test's when resumed during it. Either way the test is an error."""
        if state[7]:
            violation(b"the test's frames are out of the candidate's reach: candidate code "
                      b"took a frame (" + how + b") while the test ran")
        else:
            violation(b"the test's frames are out of the candidate's reach: candidate code "
                      b"took a frame (" + how + b") while it loaded")

    def deliver(index, status, stop, body):
        """One message: a header, its MAC (never the key), the body. (Whatever fd 3 is now,
        a message sent elsewhere is only lost: the server makes its test an error.)"""
        head = b"%s %d %s %d %d" % (magic, index, status, stop, len_(body))
        mac = state[0].copy()
        mac.update(head + b"\n" + body)
        line = head + b" " + mac.hexdigest().encode() + b"\n" + body
        if write(state[1], line) != len_(line):
            exit_(tampered_exit)

    def violation(text):
        """The current test becomes an error with ``text`` (the first reason wins)."""
        if len_(state) == 8 and not state[4]:
            state[4] = text

    def channel(event, args):
        if event not in handled:  # (event is always an exact str, made by the interpreter)
            return
        was = gc_isenabled()
        gc_disable()  # no gc callback, no finaliser of a cycle can run in this frame
        try:
            armed = len_(state) == 8
            if type_(args) is not tuple_:
                # a C event whose one argument is a tuple subclass: never one of ours
                if armed:
                    state[5] = True
            elif event == "erxr.verdict":
                if (armed and getpid() == state[3] and caller() is state[2]
                        and len_(args) == 4 and type_(args[0]) is int_
                        and type_(args[1]) is bytes_ and type_(args[2]) is bytes_
                        and type_(args[3]) is bool_ and args[1] in statuses):
                    index, status, body, dirty = args
                    reason = state[4]
                    state[4] = b""
                    state[7] = False
                    if reason:
                        status, body = b"error", reason
                    # a thread of the candidate's still running (3.11 audits no thread
                    # start; _thread needs no first import): it would outlive the test
                    stop = 1 if dirty or state[5] or threads() else 0
                    deliver(index, status, stop, body)
                    if stop:
                        exit_(0)  # a fresh W runs the next test
                else:  # forks, other frames and forged arguments may not vote
                    violation(b"Tampered: only the test runner may deliver a verdict")
                    if armed:
                        state[5] = True
            elif event == "erxr.setup":  # the module is loaded, the test's own output begins
                if (armed and getpid() == state[3] and caller() is state[2]
                        and len_(args) == 1 and type_(args[0]) is int_):
                    deliver(args[0], b"setup", 0, b"")
            elif event == "erxr.test":
                if (armed and caller() is state[2] and len_(args) == 1
                        and type_(args[0]) is int_):
                    state[6] = args[0]
                    state[7] = False
            elif event == "erxr.run":  # the module is loaded: the test's own code runs now
                if armed and caller() is state[2]:
                    state[7] = True
            elif event == "sys._getframe":
                if (armed and len_(args) == 1 and type_(args[0]) is frame_type
                        and asking[0] != get_ident()):
                    # the standard library's own readers of a caller's __name__
                    # (namedtuple, enum's functional API): the frame never leaves them
                    taker = caller()
                    code = taker.f_code if type_(taker) is frame_type else None
                    for reader in readers[0]:
                        if code is reader:
                            break
                    else:
                        if not (walkers[0] and walked(taker, code)):
                            frame_taken(args[0], b"sys._getframe")
            elif event == "object.__getattr__":
                if (armed and len_(args) == 2 and type_(args[1]) is str_
                        and args[1] == "__kwdefaults__" and type_(args[0]) is function_type
                        and asking[0] != get_ident()):
                    # a standard-library function's keyword defaults: a dict that its
                    # reader could change in place (no event) and put back before the
                    # test's code ends. Only the runner's check of them may read them
                    space = globals_of(args[0])
                    for pair in spaces[0]:
                        if (type_(pair) is tuple_ and len_(pair) == 2
                                and type_(pair[0]) is str_ and pair[1] is space):
                            taker = caller()
                            code = taker.f_code if type_(taker) is frame_type else None
                            for reader in state_readers:
                                if code is reader:
                                    break
                            else:
                                violation(b"candidate code read the keyword defaults of a "
                                          b"standard-library function (" + pair[0].encode(
                                              "utf-8", "replace")[:100]
                                          + b"), a dict it could change in place")
                            break
                elif (armed and len_(args) == 2 and type_(args[1]) is str_
                        and args[1] in frame_attributes and asking[0] != get_ident()):
                    if args[1] != "tb_frame":  # a generator's or coroutine's own frame
                        violation(b"the test's frames are out of the candidate's reach: "
                                  b"candidate code read a generator's or coroutine's frame")
                    else:
                        taker = caller() if walkers[0] else None
                        if not (type_(taker) is frame_type
                                and walked(taker, taker.f_code)):
                            frame_taken(None, b"a traceback's tb_frame")
            elif event == "exec" or event == "function.__new__":
                # code the test's own frame evaluates or makes a function of, reached other
                # than by a call of eval / exec by name (which the rewriter checks): an
                # alias (e = eval), builtins.eval, getattr(builtins, "exec"),
                # types.FunctionType(code, globals()). A function it makes would carry the
                # test's globals, which a wrong function handed it could rebind
                if (armed and state[7] and len_(args) >= 1
                        and type_(args[0]) is code_type and asking[0] != get_ident()):
                    taker = caller()
                    code = taker.f_code if type_(taker) is frame_type else None
                    if code is not None and code.co_filename == "<test>":
                        made = args[0].co_name if event == "function.__new__" else None
                        stack = [args[0]] if made is None else []
                        while stack and made is None:
                            for const in stack.pop().co_consts:
                                if type_(const) is code_type:
                                    if const.co_name not in inline:
                                        made = const.co_name
                                        break
                                    stack.append(const)
                        if made is not None:
                            violation(b"the test makes a function at run time ("
                                      + (b"types.FunctionType of " if event[0] == "f"
                                         else b"eval / exec, not called by name, of code "
                                         b"that makes ")
                                      + made.encode("utf-8", "replace")[:100]
                                      + b"): it would carry the test's globals, which "
                                      b"candidate code handed it could rebind; define it "
                                      b"with def or lambda in the test")
            elif event == "erxr.plain":  # the plain-data rule refused a comparison
                text = args[0] if len_(args) == 1 else None
                if type_(text) is not bytes_ or len_(text) > 2000:
                    text = (b"plain-data comparison: the test compares plain data with an "
                            b"object that is not plain data")
                violation(text)
            elif event == "erxr.cpu":  # SIGXCPU (W's handler): this test used up its CPU time
                if armed and getpid() == state[3]:
                    deliver(state[6], b"timeout", 1,
                            b"the CPU time limit ran out during this test")
                    exit_(0)
            elif event in kills:
                target, sig = -1, -1
                if event == "os.abort":
                    target, sig = 0, 6
                elif len_(args) == 2 and type_(args[0]) is int_ and type_(args[1]) is int_:
                    target, sig = args
                elif armed:  # not the interpreter's event: the candidate's own
                    state[5] = True
                if (armed and getpid() == state[3] and 0 < sig < len_(fatal_names)
                        and fatal_names[sig]):
                    own = ((event == "os.kill" and (target == state[3] or target == 0))
                           or (event == "os.killpg" and (target == 0 or target == getpgrp()))
                           or event == "signal.pthread_kill" or event == "erxr.raise"
                           or event == "os.abort")
                    handler = getsignal(sig) if own and sig != 9 else 0
                    if own and type_(handler) is int_ and handler == 0:
                        # W is PID 1 of its namespace, where a signal it sends itself with
                        # the default action would be ignored: deliver what the kernel
                        # would have, a crash verdict
                        deliver(state[6], b"error", 1,
                                b"Crashed: the test process was killed by signal "
                                + fatal_names[sig])
                        exit_(0)
            elif event in taint_events:
                if armed and caller() is not state[2]:  # not the judge's own
                    state[5] = True
            elif event == "object.__setattr__" or event == "object.__delattr__":
                # a class attribute changed: harmless for the candidate's own classes, but a
                # patched standard-library class would outlive the test
                if armed and len_(args) >= 2:
                    target = args[0]
                    if issubclass_(type_(target), type_):
                        module = None
                        for pair in tuple_(items(type_dict(target))):  # one C call: a copy
                            if type_(pair[0]) is not str_:
                                module = None
                                break
                            if pair[0] == "__module__":
                                module = pair[1]
                        if type_(module) is not str_ or module != candidate:
                            state[5] = True
                        # a standard-library class changed (random.Random.randrange, ...):
                        # what the test computes with it would be the candidate's choice.
                        # (namedtuple sets the __module__ of the class it makes; a module
                        # imported while a test runs documents its namedtuples, as selectors
                        # does: a docstring steers no computation.)
                        if (type_(module) is str_ and module.partition(".")[0] in stdlib
                                and type_(args[1]) is str_
                                and args[1] != "__module__" and args[1] != "__doc__"):
                            violation(b"candidate code changed a standard-library class: "
                                      + (module + ", attribute " + args[1]).encode(
                                          "utf-8", "replace")[:200])
                        elif ((type_(module) is not str_ or module != candidate)
                              and type_(args[1]) is str_ and args[1] == "__module__"):
                            # an exception class of the standard library's (or the
                            # runner's) relabelled as the candidate's would pass for one
                            # its code made (``own``: what pytest.raises(X) may take
                            # from the candidate's namespace)
                            mro = mro_of(target)
                            for ancestor in mro if type_(mro) is tuple_ else ():
                                if ancestor is base_exception:
                                    violation(b"candidate code relabelled an exception "
                                              b"class it did not define (its __module__)")
                    elif (type_(target) is function_type and type_(args[1]) is str_
                          and args[1] in function_state):
                        # a standard-library function's code or defaults replaced (and
                        # perhaps put back before the test's code ends, where the importer
                        # looks: random.Random.shuffle.__code__ inside the function under
                        # test): what the test computes with it is the candidate's choice
                        space = globals_of(target)
                        for pair in spaces[0]:
                            if (type_(pair) is tuple_ and len_(pair) == 2
                                    and type_(pair[0]) is str_ and pair[1] is space):
                                violation(b"candidate code changed a standard-library "
                                          b"function: " + (pair[0] + ", " + args[1]).encode(
                                              "utf-8", "replace")[:200])
                                break
                    elif type_(args[1]) is str_ and args[1] == "__class__":
                        state[5] = True  # a module's class swapped outlives the test
                        # an instance of a class the test defines (held while the test
                        # runs: make_class_guard) given another class, whose methods and
                        # values the test would then read
                        kind = type_(target)
                        permit = test_classes[1]  # (the test's own obj.__class__ = B)
                        own = (len_(args) >= 3 and len_(permit) == 2
                               and permit[0] is target and permit[1] is args[2])
                        for entry in test_classes[0]:
                            if entry[0] is kind and not own:
                                violation(b"candidate code gave an instance of the test's "
                                          b"own class another class (its __class__)")
                                break
            elif event == "erxr.arm":  # W, before any candidate code runs
                if state:
                    violation(b"Tampered: the verdict channel was armed twice")
                    state[5] = True
                elif 1 <= len_(args) <= 4 and type_(args[0]) is int_:
                    # the name readers of modules W loaded after the server made the channel
                    # (typing, when the code or the tests import it): exact code objects
                    if len_(args) >= 2 and type_(args[1]) is tuple_:
                        extra = args[1]
                        for code in extra:
                            if type_(code) is not code_type:
                                extra = ()
                                break
                        readers[0] = readers[0] + extra
                    # the standard library's module namespaces as W has them now, (name,
                    # namespace) pairs (their types are checked when one is looked at:
                    # reading ~100 of them here would copy pages in every W)
                    if len_(args) >= 3 and type_(args[2]) is tuple_:
                        spaces[0] = args[2]
                    # the walkers (``walked``) of the modules W loaded: exact types
                    if len_(args) == 4 and type_(args[3]) is tuple_:
                        found = []
                        for walker in args[3]:
                            if (type_(walker) is tuple_ and len_(walker) == 5
                                    and type_(walker[0]) is code_type
                                    and type_(walker[1]) is code_type
                                    and type_(walker[2]) is dict_
                                    and type_(walker[3]) is str_
                                    and type_(walker[4]) is tuple_):
                                for pin in walker[4]:
                                    if (type_(pin) is not tuple_ or len_(pin) != 4
                                            or type_(pin[0]) is not dict_
                                            or type_(pin[1]) is not str_
                                            or (pin[3] is not None
                                                and (type_(pin[3]) is not code_type
                                                     or type_(pin[2]) is not function_type))):
                                        break
                                else:
                                    found.append(walker)
                        walkers[0] = tuple_(found)
                    key = urandom(32)
                    fd = args[0]
                    line = b"HELLO " + key.hex().encode() + b"\n"
                    if write(fd, line) != len_(line):
                        exit_(tampered_exit)
                    state.extend((new_mac(key=key, digest_size=16), fd, caller(), getpid(),
                                  b"", False, 0, False))
                    key = line = None
        except BaseException:
            exit_(tampered_exit)  # never raise from here: the traceback would lead here
        if was:
            gc_enable()
    return channel


def make_guard(blocked, blocked_imports, hidden, protected, error, import_error):
    """The guard: refuses what would reach the channel. It holds only public things (event
    and module names, the runner's public functions), so a refusal's traceback, whose last
    frame is this one, leads nowhere."""
    looked_at = frozenset({"import", "object.__getattr__", "object.__setattr__",
                           "object.__delattr__"})

    # by address: each of these is in ``protected`` too, which the guard holds, so it lives
    # as long as the guard and no other object has its id (a set lookup: the importer's
    # check of a module reads its functions' __code__, every read an event)
    hidden_ids = frozenset(map(id, hidden))

    def guard(event, args, _blocked=blocked, _imports=blocked_imports, _hidden=hidden_ids,
              _protected=protected, _error=error, _import_error=import_error,
              _looked_at=looked_at, _type=type, _tuple=tuple, _str=str, _len=len, _id=id):
        if event in _blocked or event[:7] == "ctypes.":
            raise _error(event + " is not allowed in the sandbox")
        if event not in _looked_at or _type(args) is not _tuple or not _len(args):
            return
        first = args[0]
        if event == "import":
            if _type(first) is not _str:
                raise _error("importing a module by a name that is not a str is not allowed "
                             "in the sandbox")
            if (first in _imports or first.partition(".")[0] in _imports
                    or first.rpartition(".")[2] in _imports):  # an ImportError: fallbacks work
                raise _import_error("importing " + first + " is not allowed in the sandbox",
                                    name=first)
        elif event == "object.__getattr__":
            if _id(first) in _hidden:
                raise _error("the sandbox's own functions cannot be inspected")
        else:
            for obj in _protected:
                if first is obj:
                    raise _error("the sandbox's own functions cannot be changed")
    # The guard refuses changes to itself and to every function of these bare globals
    # (the factories included) too: given a do-nothing __code__ it would refuse nothing
    # (then gc.unfreeze and gc.get_objects reach the channel's state). Set here, in the
    # server, before any hook is installed.
    own = tuple(v for v in globals().values() if type(v) is type(make_guard))
    names = guard.__code__.co_varnames[2:2 + len(guard.__defaults__)]
    guard.__defaults__ = tuple(protected + own + (guard,) if name == "_protected" else value
                               for name, value in zip(names, guard.__defaults__))
    return guard


def make_signal(original, audit):
    def signal(signalnum, handler, _original=original, _audit=audit, _callable=callable,
               _issubclass=issubclass, _int=int, _index=int.__index__, _type=type):
        """signal.signal restricted to SIG_DFL / SIG_IGN (handlers would receive frames).
        Arguments are read as ints with int's own __index__: nothing of the candidate's
        runs in this frame, which holds the real function."""
        if _callable(handler):
            raise PermissionError("Python-level signal handlers are disabled in the sandbox")
        if not _issubclass(_type(signalnum), _int) or not _issubclass(_type(handler), _int):
            raise TypeError("signal number and handler must be ints")
        signalnum, handler = _index(signalnum), _index(handler)
        _audit("erxr.taint", "signal")  # a changed disposition outlives the test
        return _original(signalnum, handler)
    return signal


def make_raise(original, audit):
    def raise_signal(signalnum, _original=original, _audit=audit, _issubclass=issubclass,
                     _int=int, _index=int.__index__, _type=type):
        """signal.raise_signal: as the kernel would treat it outside PID 1 (see channel)."""
        if not _issubclass(_type(signalnum), _int):
            raise TypeError("signal number must be an int")
        signalnum = _index(signalnum)
        _audit("erxr.raise", 0, signalnum)
        return _original(signalnum)
    return raise_signal


def make_cpu_handler(audit, gc_disable, exit_):
    def on_sigxcpu(signum, frame, _audit=audit, _disable=gc_disable, _exit=exit_):
        """W is PID 1, which the kernel's SIGXCPU would not stop: report and end. gc goes
        off before anything is allocated, since ``frame`` may be the channel's."""
        _disable()
        del frame
        _audit("erxr.cpu")
        _exit(1)  # a process the channel does not speak for: as the default action would
    return on_sigxcpu


def make_loader(original, blocked_imports, error, namespace):
    """``_imp.create_builtin`` / ``create_dynamic`` refusing the blocked modules, which could
    otherwise be loaded from a spec without an ``import`` event. Two frames: ``create``
    reads the spec (candidate code may run there: it holds nothing but ``load``), ``load``
    holds the original and takes exact strs only."""
    def load(name, origin, _original=original, _blocked=blocked_imports, _error=error,
             _namespace=namespace, _type=type, _str=str):
        if _type(name) is not _str or (origin is not None and _type(origin) is not _str):
            raise _error("a module spec's name and origin must be str in the sandbox")
        if (name in _blocked or name.partition(".")[0] in _blocked
                or name.rpartition(".")[2] in _blocked):
            raise _error("importing " + name + " is not allowed in the sandbox", name=name)
        return _original(_namespace(name=name, origin=origin))

    def create(spec, *unused, _load=load, _getattr=getattr):
        return _load(_getattr(spec, "name"), _getattr(spec, "origin", None))
    return create, load


def make_nogc(function, gc_disable, gc_enable, gc_isenabled):
    def nogc(*args, _function=function, _disable=gc_disable, _enable=gc_enable,
             _isenabled=gc_isenabled):
        """``function(*args)`` with the cyclic gc off: no finaliser or gc callback of the
        candidate's can run between the runner's check of a value and its use."""
        was = _isenabled()
        _disable()
        try:
            return _function(*args)
        finally:
            if was:
                _enable()
    return nogc


def make_wrap(opaque, info, set_dict, function_type, names):
    """``wrap(function)``: what a test's ``def`` or ``lambda`` binds instead of the function
    (``_sandbox_rewrite.py``). A function the test hands to the candidate (``apply(lambda x:
    x + 1, 3)``, a helper, a method of the test's class) would lead it to the test's own
    globals (``__globals__``: the expected values, the test's helpers and imports) and to
    its cells (``__closure__``), neither read with an audit event in 3.11, so a wrong
    ``apply`` could rebind ``want`` or clear the list it holds, or give the test's helper
    a new ``__code__``. ``opaque`` is ``functools._lru_cache_wrapper`` (C, an immutable
    type) with no cache: calling it calls the function, it binds as a method, and nothing
    of it (no member, no method, ``__reduce__`` its ``__qualname__``) leads to the function;
    its ``__dict__`` (set through the type's own descriptor, ``set_dict``) holds the
    function's name, qualified name, docstring, module and annotations (what
    ``functools.singledispatch``'s ``register`` reads), read through the function type's
    own descriptors (``names``)."""
    name_of, qualname_of, doc_of, module_of, annotations_of = names

    def wrap(function, _opaque=opaque, _info=info, _set=set_dict, _type=type,
             _function=function_type, _name=name_of, _qualname=qualname_of, _doc=doc_of,
             _module=module_of, _annotations=annotations_of):
        if _type(function) is not _function:  # (never: the rewrite wraps a fresh function)
            return function
        made = _opaque(function, 0, False, _info)
        _set(made, {"__name__": _name(function), "__qualname__": _qualname(function),
                    "__doc__": _doc(function), "__module__": _module(function),
                    "__annotations__": _annotations(function)})
        return made
    return wrap


def make_compiled(compile_, code_type, flags_of, str_, bytes_, audit, error):
    """``compiled(source, mode)``: what a test's ``eval(source, ...)`` / ``exec(source, ...)``
    evaluate instead of ``source`` (``_sandbox_rewrite.py``). A function the code makes
    (a ``lambda``, a ``def``, a class's methods) would carry the test's own globals, which
    the wrapper of the test's own functions (``make_wrap``) keeps out of the candidate's
    reach: a wrong function handed one could rebind the test's expected values through its
    ``__globals__`` or give it a new ``__code__``. So code that makes a function, other
    than a comprehension's (made and called at once) or a generator expression's (which
    the test's own code makes as well), is an error that says so; anything else is
    compiled here (``compile_``, the real one, held from before the candidate ran) and
    evaluated as before. A str or bytes subclass is read as the plain value it holds (by
    ``str.__str__`` / a slice, C code of the base type), never by a method of its own."""
    inline = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>")

    def compiled(source, mode, _compile=compile_, _code=code_type, _flags=flags_of,
                 _str=str_, _bytes=bytes_, _audit=audit, _error=error, _type=type,
                 _inline=inline, _pop=list.pop, _append=list.append, _to_str=str_.__str__,
                 _to_bytes=bytes_.__getitem__, _all=slice(None)):
        kind = _type(source)
        if kind is not _str and kind is not _bytes and kind is not _code:
            if _flags(kind) & (1 << 28):  # Py_TPFLAGS_UNICODE_SUBCLASS
                source = _to_str(source)
            elif _flags(kind) & (1 << 27):  # Py_TPFLAGS_BYTES_SUBCLASS
                source = _to_bytes(source, _all)
            else:
                return source  # (eval / exec raise their own TypeError)
            kind = _type(source)
        code = source if kind is _code else _compile(source, "<string>", mode, 0, True)
        stack = [code]
        while stack:
            for const in _pop(stack).co_consts:
                if _type(const) is _code:
                    if const.co_name not in _inline:
                        text = ("the test compiles a function at run time (" + mode
                                + " of code that makes " + const.co_name + "): it would "
                                "carry the test's globals, which candidate code handed it "
                                "could rebind; define it with def or lambda in the test")
                        _audit("erxr.plain", text.encode())
                        raise _error(text)
                    _append(stack, const)
        return code
    return compiled


def make_scope(exec_, builtins_module, modules, real_import, import_error, audit, is_, views,
               rng, reseed, tag, module_type, unwatched):
    """(run, import_module, import_from, intact, recheck, seed_tests, rebound, (mark,
    grew_by_submodules, others, same)): how a test's own code runs. ``run(test,
    namespace)`` executes the test in globals of its own, a copy of the candidate's module
    namespace taken now (after the code loaded) with the real builtins: what the test binds
    stays out of the candidate's namespace, and the globals are held only by this call's
    frame, which no candidate code can reach while the test runs (the channel makes any
    frame taken then an error). A test's ``import`` statements are rewritten into calls of
    the other two (``_sandbox_rewrite.py``), each given the module object the server loaded
    before any candidate code ran (None for a module it could not load): that module is
    what the test gets, and it must still be the one in ``sys.modules``, else the test is
    an error naming it (a candidate that put a fake ``random`` there, or handed the test a
    fake through ``__builtins__.__import__``, steers nothing). ``views``: (module name, what the
    test gets instead of the module) pairs (``random``: ``_sandbox_draws.py``, drawing from
    ``rng``); ``seed_tests(seed)``, called once per W before any candidate code, sets
    what ``run`` reseeds ``rng`` with (``reseed``: ``_random.Random.seed``) as each test's
    code starts, so nothing the candidate did to it before counts.

    While the test runs, the importer and ``recheck`` watch by version tag (``tag``:
    ``_sandbox_tags.py``) what a set-and-restore would hide from a comparison of contents:
    when the test imports a pinned module, the tags of builtins, of the module's namespace
    and of its dispatch tables are noted (``marks``); at the test's end a changed one is
    the candidate's write while the test ran, put back or not (an error). Not for the
    modules ``unwatched`` names (their own functions write their namespace), and a
    package's namespace that grew by submodules only (imported while the test ran) is
    compared by its contents."""
    seed = []  # the suite's seed, once set; reachable only through hidden functions
    # (what it is, the module's name, the dict, its tag when the test imported the module,
    # its length, the snapshot's keys, for a package its ``others`` count, else None):
    # this test's, emptied by ``run`` as each test's code starts
    marks = []
    # builtins as the server has them (names added later, a test's `_`, are not compared)
    bound = tuple(builtins_module.__dict__.items())

    def seed_tests(value, _seed=seed, _type=type, _int=int, _len=len):
        if _len(_seed) or _type(value) is not _int:
            return False
        _seed.append(value)
        return True

    def run(test, namespace, _exec=exec_, _copy=dict.copy, _put=dict.__setitem__,
            _builtins=builtins_module, _names=builtins_module.__dict__, _get=dict.get,
            _import=real_import, _build_class=builtins_module.__build_class__, _audit=audit,
            _seed=seed, _rng=rng, _reseed=reseed, _setattr=object.__setattr__,
            _marks=marks, _clear=list.clear):
        _clear(_marks)
        scope = _copy(namespace)
        _put(scope, "__builtins__", _builtins)
        # what a test's class statement, star or relative import takes from builtins
        if (_get(_names, "__import__") is not _import
                or _get(_names, "__build_class__") is not _build_class):
            _audit("erxr.plain", b"the candidate's code replaced builtins.__import__ or "
                                 b"builtins.__build_class__, which the test uses")
        for value in _seed:  # the test's stream starts where every test's does
            _reseed(_rng, value)  # (the C seed: no Python code that sees builtins)
            _setattr(_rng, "gauss_next", None)  # (as random.Random.seed does)
        _exec(test, scope)

    function_type = type(make_scope)
    code_of = function_type.__dict__["__code__"].__get__
    defaults_of = function_type.__dict__["__defaults__"].__get__
    kwdefaults_of = function_type.__dict__["__kwdefaults__"].__get__

    def rebound(_bound=bound, _names=builtins_module.__dict__, _get=dict.get):
        """The first builtin the candidate rebound or deleted (the standard library's code
        a test calls looks them up: ``random.choice`` calls ``len``), or None."""
        for name, value in _bound:
            if _get(_names, name) is not value:
                return name
        return None

    def same(now, then, _type=type, _str=str, _frozenset=frozenset, _all=all, _map=map,
             _is=is_, _repeat=__import__("itertools").repeat):
        """``now`` is ``then``, or both are exact strs, or frozensets of exact strs, that
        are equal: the code object that carries a snapshot (a constant of the test's code)
        interns the strs in it that look like names, so a module's own str that is not the
        interned one (``warnings.defaultaction``, made by C) is an equal copy there, and a
        frozenset of such strs (``ipaddress._HEX_DIGITS``) a rebuilt one. Nothing of the
        candidate's is compared: the types are checked first."""
        if now is then:
            return True
        kind = _type(now)
        if kind is not _type(then):
            return False
        if kind is _str:
            return now == then
        return (kind is _frozenset
                and _all(_map(_is, _map(_type, now), _repeat(_str)))
                and _all(_map(_is, _map(_type, then), _repeat(_str))) and now == then)

    def intact(snapshot, deep, _all=all, _map=map, _is=is_, _len=len, _zip=zip,
               _code=code_of, _defaults=defaults_of, _kwdefaults=kwdefaults_of,
               _dict_keys=dict.keys, _dict_values=dict.values, _same=same):
        """Every namespace of ``snapshot`` (``_sandbox_rewrite._snapshot``) binds its names
        to the same objects, and (``deep``) every function there has the same code and
        defaults (keyword defaults binding the same objects), by identity (nothing of the
        candidate's is compared; an exact str, or a frozenset of them, may be an equal copy:
        ``same``). The importer's check is not deep (each read of ``__code__`` is an audit
        event: ~0.1 ms for random's methods); ``recheck``'s, which a pass needs, is."""
        for space, size, keys, values in snapshot:
            if size == -2:  # (the server's functions: exact types, their getters audited)
                if not deep:
                    continue
                for function, (code, defaults, kwdefaults, names, bound) in _zip(keys,
                                                                                 values):
                    if (_code(function) is not code or _defaults(function) is not defaults
                            or _kwdefaults(function) is not kwdefaults):
                        return False
                    # keyword defaults are a dict: changed in place without an audit event
                    # (json.dumps.__kwdefaults__["sort_keys"] = True)
                    if names is not None and (
                            _len(kwdefaults) != _len(names)
                            or not _all(_map(_is, _dict_keys(kwdefaults), names))
                            or not (_all(_map(_is, _dict_values(kwdefaults), bound))
                                    or _all(_map(_same, _dict_values(kwdefaults), bound)))):
                        return False
                continue
            if size >= 0 and _len(space) != size:
                return False
            if not _all(_map(_is, _map(space.get, keys), values)) and not _all(
                    _map(_same, _map(space.get, keys), values)):
                return False
        return True

    def others(name, space, keys, _type=type, _str=str, _module=module_type,
               _get=dict.get, _keys=dict.keys, _tuple=tuple, _frozenset=frozenset):
        """How many names of a package's namespace are neither ones the server's snapshot
        names nor submodules of the package (its dunders, mostly); -1 for a key that is
        not an exact str."""
        known, count = _frozenset(keys), 0
        for key in _tuple(_keys(space)):
            if _type(key) is not _str:
                return -1
            if key in known:
                continue
            value = _get(space, key)
            if _type(value) is _module:
                label = _get(value.__dict__, "__name__")
                if _type(label) is _str and label == name + "." + key:
                    continue
            count += 1
        return count

    def mark(name, snapshot, _marks=marks, _tag=tag, _names=builtins_module.__dict__,
             _append=list.append, _len=len, _type=type, _dict=dict, _unwatched=unwatched,
             _get=dict.get, _others=others):
        """Note the tags of what ``recheck`` will hold the candidate to (see above); for a
        package, how many of its names are neither the snapshot's nor submodules."""
        _append(_marks, ("builtins", "", _names, _tag(_names), 0, None, None))
        if name in _unwatched:
            return
        first = True
        for space, size, keys, values in snapshot:
            if _type(space) is _dict and (first or (size >= 0 and _len(keys))):
                now = _tag(space)  # (None: no view; an instance's dict: not watched)
                if now is not None:
                    _append(_marks, (("the namespace of " if first else "a dispatch table "
                                      "of ") + name, name, space, now, _len(space), keys,
                                     _others(name, space, keys) if first and _get(
                                         space, "__path__") is not None else None))
            first = False

    def grew_by_submodules(name, space, length, keys, count, _len=len, _others=others):
        """A package's namespace holds more names than when the test imported it, and no
        more names that are not submodules of it than then: the import system's writes
        (a submodule imported while the test ran)."""
        if count is None or count < 0 or _len(space) <= length:
            return False
        return _others(name, space, keys) == count

    def import_module(name, top, module, top_module, snapshot, _modules=modules,
                      _import=real_import, _error=import_error, _audit=audit, _get=dict.get,
                      _intact=intact, _views=views, _rebound=rebound, _mark=mark):
        if module is None:  # not loaded before the candidate ran: the ordinary import
            found = _import(name, None, None, (), 0)
            return found if top else _modules[name]
        why = ""
        changed = _rebound()
        if _get(_modules, name) is not module or (
                top and _get(_modules, name.partition(".")[0]) is not top_module):
            why = "sys.modules no longer holds the module loaded before the candidate's code ran"
        elif snapshot is not None and not _intact(snapshot, False):
            why = ("the candidate's code changed the module or one of its classes (a name "
                   "rebound, a method replaced, a dispatch table changed)")
        elif changed is not None:
            why = "the candidate's code rebound builtins." + changed + ", which its code uses"
        if why:
            text = "the test imports " + name + ", but " + why
            _audit("erxr.plain", text.encode())
            raise _error(text, name=name)
        if snapshot is not None:
            _mark(name, snapshot)
        for key, view in _views:  # (a module with submodules has none: top is module)
            if key == name:
                return view
        return top_module if top else module

    def import_from(name, names, module, snapshot, _import=import_module, _getattr=getattr,
                    _tuple=tuple, _AttributeError=AttributeError):
        found = _import(name, False, module, None, snapshot)
        out = []
        for attr in names:
            try:
                out.append(_getattr(found, attr))
            except _AttributeError:  # a submodule not yet imported, as ``from`` finds it
                out.append(_import(name + "." + attr, False, None, None, None))
        return _tuple(out)
    def recheck(pinned, _intact=intact, _audit=audit, _error=import_error, _rebound=rebound,
                _marks=marks, _tag=tag, _grew=grew_by_submodules):
        """At the end of a test's code: the modules it imported, still as they were, and
        nothing of theirs written while the test ran (their tags, see above)."""
        for label, name, space, then, length, keys, count in _marks:
            if _tag(space) != then and not _grew(name, space, length, keys, count):
                text = ("the test imports modules of the standard library, and the "
                        "candidate's code wrote to " + label + " while the test ran (a "
                        "name rebound or deleted, put back or not: its dict's version tag "
                        "changed)")
                _audit("erxr.plain", text.encode())
                raise _error(text, name=name or "builtins")
        for name, snapshot in pinned:
            if not _intact(snapshot, True) or _rebound() is not None:
                text = ("the test imports " + name + ", and the candidate's code changed the "
                        "module, one of its classes, a function's code or defaults, or a "
                        "builtin")
                _audit("erxr.plain", text.encode())
                raise _error(text, name=name)
    return run, import_module, import_from, intact, recheck, seed_tests, rebound, (
        mark, grew_by_submodules, others, same)


def make_fingerprint(builtins_dict, modules, getcwd, getrecursionlimit, int_max_str_digits,
                     module_dict, table_sizes, repeat, tag):
    """(fingerprint, unchanged). ``table_sizes``: every ``dict.__sizeof__`` a dict whose keys
    are all exact strs can have (CPython's str-only table: any other key makes its table
    wider, and no str-only size is a wider table's size), measured by the server. ``tag``:
    a namespace's dict version tag, or None for a dict the server made no view of
    (``_sandbox_tags.py``)."""
    def entry(space, _tuple=tuple, _keys=dict.keys, _values=dict.values, _len=len,
              _sizeof=dict.__sizeof__, _type=type, _str=str, _sizes=table_sizes, _tag=tag):
        """What ``intact`` checks of one namespace, taken before any candidate code ran:
        (namespace, number of keys or -1, its size, its keys, its values, its version tag
        or None). A str-only table keeps copies of its keys, made together so that they
        sit on a few pages: reading the namespace's own keys would touch a page per few
        keys, and each page touched in a forked W is a copy."""
        now = _tag(space)  # (first: reading the keys and values changes no tag)
        keys, size = _tuple(_keys(space)), _sizeof(space)
        if size in _sizes:
            strs = [k for k in keys if _type(k) is _str]
            if _len(strs) == _len(keys):
                return (space, _len(keys), size, _tuple([(k + "\0")[:-1] for k in strs]),
                        _tuple(_values(space)), now)
        return (space, -1, size, keys, _tuple(_values(space)), now)

    def intact(item, _len=len, _sizeof=dict.__sizeof__, _all=all, _map=map,
               _is=__import__("operator").is_, _getitem=dict.__getitem__, _repeat=repeat,
               _keys=dict.keys, _values=dict.values, _KeyError=KeyError, _tuple=tuple,
               _type=type, _str=str, _tag=tag):
        """The namespace maps the same keys to the same objects as when ``item`` was taken.
        Its version tag as it was then means no write since, and nothing is read (each
        value touched would be a copied page in a forked W). Otherwise:
        A str-only table of the same size still holds exact strs only, so looking one up
        compares strs and calls nothing of the candidate's: same length and every key
        found with its own value means the same mapping. A str-only table whose size
        changed was rebuilt (inserts and deletes, the judge's own ``__candidate__`` among
        them, make it resize) or widened: its keys, once each is seen to be an exact str,
        are compared with the copies in order, and its values by identity. Any other table
        is compared key by key and value by value, by identity, in order."""
        space, n, size, keys, values, then = item
        if then is not None and _tag(space) == then:
            return True
        if _len(space) != _len(values):
            return False
        if n < 0:
            return _sizeof(space) == size and _all(_map(_is, _keys(space), keys)) and _all(
                _map(_is, _values(space), values))
        if _sizeof(space) != size:
            now = _tuple(_keys(space))
            return (_len([k for k in now if _type(k) is _str]) == n and now == keys
                    and _all(_map(_is, _values(space), values)))
        try:
            return _all(_map(_is, _map(_getitem, _repeat(space, n), keys), values))
        except _KeyError:
            return False

    def fingerprint(watched, lists, prior=None, _b=builtins_dict, _m=modules, _cwd=getcwd,
                    _rl=getrecursionlimit, _digits=int_max_str_digits, _dict=module_dict,
                    _tuple=tuple, _entry=entry, _intact=intact, _append=list.append):
        """Everything a test could patch for later tests (see the runner): the namespaces
        of builtins, ``sys.modules`` and the ``watched`` modules, the ``sys.path``-like
        ``lists`` (module objects and lists the judge took before any candidate code:
        nothing is looked up by name here) and three scalars. An entry of ``prior`` (taken
        by the server before it forked) for the same namespace is reused while intact."""
        spaces = [_b, _m]
        for module in watched:
            space = _dict(module)
            if space is not _b:
                _append(spaces, space)
        entries = []
        for space in spaces:
            reused = None
            if prior is not None:
                for old in prior[0]:
                    if old[0] is space:
                        reused = old if _intact(old) else None
                        break
            _append(entries, reused if reused is not None else _entry(space))
        return (_tuple(entries), _tuple([(items, _tuple(items)) for items in lists]),
                (_cwd(), _rl(), _digits()))

    def unchanged(taken, known=None, _all=all, _map=map, _is=__import__("operator").is_,
                  _len=len, _intact=intact, _cwd=getcwd, _rl=getrecursionlimit,
                  _digits=int_max_str_digits):
        """Nothing in ``taken`` (a fingerprint) was patched since it was taken. ``known``:
        a namespace the caller saw intact by its tags (the judge's ``sys.modules``, which
        its own ``__candidate__`` entry writes to in every test)."""
        for item in taken[0]:
            if item[0] is not known and not _intact(item):
                return False
        for items, then in taken[1]:
            if _len(items) != _len(then) or not _all(_map(_is, items, then)):
                return False
        return taken[2] == (_cwd(), _rl(), _digits())

    return fingerprint, unchanged, entry, intact


def make_describe(known, base_str, args_of, mro_of, name_of, qualname_of):
    """``known``: id of each built-in exception class -> (its ``__str__``, the getters of
    the attributes that ``__str__`` may read), made before any candidate code ran."""
    def plain(values, _type=type, _int=int, _float=float, _complex=complex, _bool=bool,
              _str=str, _bytes=bytes, _none=type(None), _tuple=tuple, _list=list,
              _dict=dict, _set=set, _frozenset=frozenset, _pop=list.pop, _extend=list.extend,
              _keys=dict.keys, _values=dict.values, _len=len):
        stack, nodes = _list(values), 0
        while stack:
            x = _pop(stack)
            t = _type(x)
            nodes += 1
            if nodes > 10000:
                return False
            if (t is _int or t is _str or t is _float or t is _bool or t is _none
                    or t is _bytes or t is _complex):
                continue
            if t is _tuple or t is _list or t is _set or t is _frozenset:
                _extend(stack, x)
            elif t is _dict:
                _extend(stack, _keys(x))
                _extend(stack, _values(x))
            else:
                return False
        return True

    def shown(x, _plain=plain, _type=type, _repr=repr, _str=str, _qualname=qualname_of):
        if _plain((x,)):
            return _repr(x)
        name = _qualname(_type(x))
        return "<a " + (name if _type(name) is _str else "?") + " object>"

    def describe(exc, _known=known, _base_str=base_str, _args=args_of, _mro=mro_of,
                 _name=name_of, _plain=plain, _shown=shown, _type=type, _str=str,
                 _tuple=tuple, _id=id, _len=len, _base=BaseException, _join=", ".join, _list=list):
        """"TypeName: message" of an exception, from runner-held code only: the message is
        the nearest built-in ancestor's own ``__str__`` when the exception's args and the
        attributes that ``__str__`` reads are plain data, else ``BaseException.__str__``
        when its args are, else its args shown as the explainer shows values (``<a T
        object>``). A class's own ``__str__`` is never called."""
        name = "Exception"
        text = ""
        try:
            t = _type(exc)
            found = _name(t)
            if _type(found) is _str:
                name = found
            args = _args(exc)
            if _type(args) is not _tuple:
                args = ()
            entry = None
            for k in _mro(t):
                entry = _known.get(_id(k))
                if entry is not None:
                    break
            values = _list(args)
            if entry is not None:
                for get in entry[1]:
                    try:
                        values.append(get(exc))
                    except _base:
                        pass
            if entry is not None and _plain(values):
                text = entry[0](exc)
            elif _plain(args):  # args alone are plain: as BaseException shows them
                text = _base_str(exc)
            elif _len(args) == 1:
                text = _shown(args[0])
            elif args:
                parts = []
                for x in args:
                    parts.append(_shown(x))
                text = "(" + _join(parts) + ")"
            if _type(text) is not _str:
                text = ""
        except _base:
            text = "<unprintable>"
        return (name + ": " + text if text else name)[:2000]
    return describe, (plain, shown)


def make_flush(streams, text_io, buffered, file_io, buffer_of, raw_of, flush_text):
    def flush(_streams=streams, _text=text_io, _buffered=buffered, _file=file_io,
              _buffer=buffer_of, _raw=raw_of, _flush=flush_text, _type=type,
              _base=BaseException):
        """Flush the runner's own sys.stdout and sys.stderr (os._exit will not) while they
        are the exact built-in I/O objects all the way down; whatever the candidate put in
        their place is its own business."""
        for stream in _streams:
            try:
                if (_type(stream) is _text and _type(_buffer(stream)) is _buffered
                        and _type(_raw(_buffer(stream))) is _file):
                    _flush(stream)
            except _base:
                pass
    return flush
'''
