"""The test source the input engine sends to the sandbox, and reading what comes back.

Two kinds of probe, both ordinary tests run by the oracle (so its containment applies):

* a *collector* re-runs one of the suite's own tests with the target function wrapped, and
  prints the arguments of every outermost call as plain-data source (recursive calls pass
  through the wrapper unrecorded);
* an *evaluator* calls the canonical twice on one input (fresh argument objects each
  time) and prints both results as plain-data source, or the exception type raised.

What a probe prints is framed by :data:`MARK`; what the candidate itself prints around it
is ignored. Only the canonical's probes are read this way: a candidate's verdicts always
come from the runner (see :mod:`execretrieval.inputs.differential`).
"""

from __future__ import annotations

import ast
import builtins
import re
import textwrap
from collections.abc import Sequence
from typing import Any

from ..errors import InputFormatError
from ..oracle.results import TestOutcome
from .plain import SANDBOX_SOURCE, from_source

__all__ = ["MARK", "collector", "evaluator", "read_calls", "read_evaluation", "with_probes"]

MARK = "\x1eERX\x1e"
_FRAMED = re.compile(re.escape(MARK) + r"(.*?)" + re.escape(MARK), re.S)

_WRAP = '''
def _erx_wrap(_erx_f, _erx_seen):
    _erx_depth = [0]
    def _erx_called(*args, **kwargs):
        if not _erx_depth[0]:
            try:
                _erx_seen.append(_erx_src((args, kwargs)))
            except (ValueError, RecursionError, TypeError):
                _erx_seen.append(None)
        _erx_depth[0] += 1
        try:
            return _erx_f(*args, **kwargs)
        finally:
            _erx_depth[0] -= 1
    return _erx_called
'''

# An evaluator's runner: the test hands it the call as a lambda and its own globals (where
# an exception's name is looked up). With ``shared=True`` it sits once in the suite's code,
# its builtins bound as locals (:func:`_probe_setup`), and each input's test is one line:
# 600 characters of it in every test were compiled (and rewritten by the runner) anew
_REPORT = f'''
def _erx_run(_erx_call, _erx_globals):
    try:
        _erx_r = _erx_call()
    except (AssertionError, RecursionError, MemoryError):
        return "!"
    except Exception as _erx_e:
        _erx_t = type(_erx_e)
        _erx_n = _erx_t.__name__
        if _erx_globals.get(_erx_n) is _erx_t or getattr(_erx_b, _erx_n, None) is _erx_t:
            return "E" + _erx_n
        return "!"
    try:
        return "R" + _erx_src(_erx_r)
    except (ValueError, RecursionError, TypeError):
        return "?"
def _erx_report(_erx_call, _erx_globals):
    _erx_first = _erx_run(_erx_call, _erx_globals)
    _erx_second = _erx_run(_erx_call, _erx_globals)
    print({MARK!r} + repr([_erx_first, _erx_second]) + {MARK!r})
'''


def _probe_setup() -> str:
    """:data:`SANDBOX_SOURCE`, :data:`_WRAP` and :data:`_REPORT` built inside a function
    whose locals are the real builtins they use, so the ``_erx_src``, ``_erx_wrap`` and
    ``_erx_report`` it returns answer the same whatever the suite's code binds at module
    level (a canonical's own ``repr``, ``type`` or ``print``)."""
    source = SANDBOX_SOURCE + _WRAP + _REPORT
    tree = ast.parse(source)
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
              and not isinstance(n.ctx, ast.Load)}
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.id in vars(builtins)} - stored)
    bind = "".join(f"    {name} = _erx_b.{name}\n" for name in used)
    return (f"import builtins as _erx_builtins\n\n\ndef _erx_probes(_erx_b):\n{bind}"
            f"{textwrap.indent(source, '    ')}    return _erx_src, _erx_wrap, _erx_report\n\n\n"
            f"_erx_src, _erx_wrap, _erx_report = _erx_probes(_erx_builtins)\n")


_SETUP = _probe_setup()


def with_probes(code: str) -> str:
    """``code`` followed by the helpers every probe uses, for a suite of probes made with
    ``shared=True``: the suite's code is compiled once, while each test is compiled on its
    own, so a helper in every test cost a compile of it per input (most of an input
    set's time)."""
    return f"{code}\n\n{_SETUP}"


def collector(test: str, function: str, *, shared: bool = False) -> str:
    """A test that runs ``test`` with ``function`` wrapped and prints the argument tuples
    of its outermost calls (``None`` for a call whose arguments are not plain data).
    ``shared``: the suite's code is :func:`with_probes`'s, so the helpers are left out."""
    body = textwrap.indent(test, "    ")
    return (f"{'' if shared else SANDBOX_SOURCE + _WRAP}\n_erx_seen = []\n"
            f"{function} = _erx_wrap({function}, _erx_seen)\n"
            f"try:\n{body}\nexcept BaseException:\n    pass\n"
            f"print({MARK!r} + repr(_erx_seen) + {MARK!r})\n")


def evaluator(call: str, imports: str = "", *, shared: bool = False) -> str:
    """A test that evaluates ``call`` (a call of the canonical, as source, after the
    ``imports`` lines it needs) twice and prints both outcomes: ``R<source of the
    result>``, ``E<exception type>``, ``?`` (not plain data) or ``!`` (an exception a test
    should not expect). ``shared``: as for :func:`collector`."""
    head = imports.strip() + "\n" if imports.strip() else ""
    run = f"_erx_report(lambda: {call}, globals())\n"
    if shared:
        return head + run
    # self-contained: the same runner in the test, where the names it uses are the real
    # builtins by the runner's rule, not by being bound as locals
    return f"{head}import builtins as _erx_b\n{SANDBOX_SOURCE}{_REPORT}{run}"


def _payload(outcome: TestOutcome) -> str | None:
    found = _FRAMED.findall(outcome.output)
    return found[-1] if outcome.status == "pass" and found else None


def read_calls(outcome: TestOutcome) -> list[tuple[tuple, dict]]:
    """The ``(args, kwargs)`` a collector saw, in call order; calls with arguments that are
    not plain data are left out."""
    text = _payload(outcome)
    if text is None:
        return []
    try:
        seen = from_source(text, where="collector output")
    except InputFormatError:
        return []
    calls = []
    for item in seen if type(seen) is list else []:
        if type(item) is not str:
            continue
        try:
            value = from_source(item, where="collected call")
        except InputFormatError:
            continue
        if (type(value) is tuple and len(value) == 2 and type(value[0]) is tuple
                and type(value[1]) is dict and all(type(k) is str for k in value[1])):
            calls.append((value[0], value[1]))
    return calls


def read_evaluation(outcomes: Sequence[TestOutcome]) -> tuple[str, str] | None:
    """``("return", source)`` or ``("raises", type name)`` when every run of an evaluator
    (one outcome per hash seed) agrees with itself and with the others; None when the
    canonical errs, times out, returns something that is not plain data, or is not
    deterministic."""
    seen: list[tuple[str, Any]] = []
    for outcome in outcomes:
        text = _payload(outcome)
        if text is None:
            return None
        try:
            pair = from_source(text, where="evaluator output")
        except InputFormatError:
            return None
        if type(pair) is not list or len(pair) != 2 or not all(type(p) is str for p in pair):
            return None
        for item in pair:
            if not item or item[0] not in "RE":
                return None
            if item[0] == "E":
                seen.append(("raises", item[1:]))
                continue
            try:
                seen.append(("return", (from_source(item[1:], where="result"), item[1:])))
            except InputFormatError:
                return None
    if not seen:
        return None
    kind, first = seen[0]
    for other_kind, other in seen[1:]:
        if other_kind != kind:
            return None
        if kind == "raises" and other != first:
            return None
        if kind == "return" and not _same(other[0], first[0]):
            return None
    if kind == "raises":
        return "raises", str(first)
    return "return", first[1]


def _same(a: Any, b: Any) -> bool:
    """Plain values equal and of the same types all the way down (``1 == 1.0 == True``
    would let a nondeterministic type slip through)."""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)
