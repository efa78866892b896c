"""The inputs of functions found in code, answered by their canonicals in the sandbox.

For every candidate function (one the static half did not skip), :func:`collect_cases`:

1. **seeds** the input engine with the calls the function is known to be made with: its
   doctest examples first, then calls from the package's tests. A function with none gets
   calls made up from its parameters (:func:`made_up_calls`): a value for each required
   parameter from its type hint (the engine's values for ``int``, ``str``, ``list[int]``
   ...), else from the literals of its body whose type the parameter's name suggests
   (``text``, ``s``, ``prefix`` -> strings; ``n``, ``width``, ``index`` -> ints;
   ``items``, ``seq`` -> lists), else one plain type per call shared by all such
   parameters (so ``add(a, b)`` gets two ints, two strings, ...), from the body's
   literals of that type and a few small values; calls are drawn with a seeded generator;
2. runs :func:`~execretrieval.inputs.build_input_sets` (collect, type-aware mutation,
   two runs under two hash seeds, verification), so every case is deterministic plain
   data or a stable exception type;
3. runs the purity probe (:mod:`.purity`) on the seed calls and the cases; a function
   that reads the clock, randomness, files, the network or the environment is skipped
   with that reason, as is one whose cases raise an ``OSError`` (the sandbox refusing
   its I/O);
4. keeps at most :data:`MAX_RAISES` ``pytest.raises`` cases, and explains a function
   left without enough cases (:func:`diagnose`: "not deterministic", "returns values
   that are not plain data", "raises on every input", ...).
"""

from __future__ import annotations

import ast
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...errors import CancelledError, InputFormatError
from ...hooks import Progress, ShouldStop
from ...inputs import Case, InputSet, InputTask, build_input_sets, call_source
from ...inputs.batches import derived_oracle, run_chunked
from ...inputs.mutate import pools_from_code, value_for_hint
from ...inputs.plain import from_source
from ...inputs.probes import MARK, evaluator, with_probes
from .purity import impurity, purity_code, purity_probe, read_uses

__all__ = ["MAX_RAISES", "CaseSet", "FunctionLike", "collect_cases", "diagnose",
           "made_up_calls", "normal_call"]

#: ``pytest.raises`` cases kept per function (the rest of its tests check values)
MAX_RAISES = 2
_MADE_UP = 12           # calls made up for a function without examples
_PROBED = 24            # calls the purity probe makes per function
_DIAGNOSED = 8          # calls run again to explain a function without enough cases
_APART = 1.05           # seconds between diagnose()'s two runs: a clock's second ticks
_IO_ERRORS = frozenset({"OSError", "FileNotFoundError", "PermissionError", "IsADirectoryError",
                        "NotADirectoryError", "FileExistsError", "BlockingIOError",
                        "ConnectionError", "ConnectionRefusedError", "BrokenPipeError",
                        "ChildProcessError", "ProcessLookupError", "InterruptedError",
                        "TimeoutError"})


class ExampleLike(Protocol):
    @property
    def call(self) -> str: ...
    @property
    def origin(self) -> str: ...


class FunctionLike(Protocol):
    """What this half reads of the static half's ``FunctionSource``."""

    @property
    def name(self) -> str: ...
    @property
    def canonical(self) -> str | None: ...
    @property
    def examples(self) -> Sequence[ExampleLike]: ...
    @property
    def hints(self) -> Mapping[str, str]: ...
    @property
    def literals(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class CaseSet:
    """A function's valid cases in the order tests are taken from (doctest calls, test
    calls, generated ones), which of them are doctest calls, or why it has to go."""

    function: Any
    cases: tuple[Case, ...]
    doctest: frozenset[str]
    reason: str | None = None


def normal_call(call: str) -> str:
    """``call`` as :func:`~execretrieval.inputs.call_source` writes it (quotes, spacing),
    so a doctest call can be matched with the case the engine collected from it; the text
    itself when its arguments are not literals."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            return call.strip()
        args = tuple(from_source(ast.unparse(a)) for a in node.args)
        kwargs = {k.arg: from_source(ast.unparse(k.value)) for k in node.keywords
                  if k.arg is not None}
        if len(kwargs) != len(node.keywords):
            return call.strip()
        return call_source(node.func.id, args, kwargs)
    except (SyntaxError, ValueError, InputFormatError, RecursionError):
        return call.strip()


_NAME_TYPES = (
    (("text", "string", "s", "name", "prefix", "suffix", "sep", "word", "line", "path", "url",
      "pattern", "pat", "chars", "char", "c", "fmt", "format", "template", "value_str",
      "source", "src", "filename", "qs", "query", "netloc", "scheme", "host", "key"), str),
    (("n", "i", "j", "k", "count", "width", "size", "index", "start", "stop", "end", "pos",
      "year", "month", "day", "number", "num", "length", "lo", "hi", "base", "level",
      "indent", "tabsize", "depth", "limit", "offset", "bits"), int),
    (("ratio", "alpha", "fraction", "weight"), float),
    (("items", "seq", "data", "lst", "values", "iterable", "xs", "elements",
      "sequence", "array", "arr", "nums", "list", "words", "lines", "parts"), list),
)
_FALLBACK: dict[type, tuple[Any, ...]] = {
    str: ("", "abc", "Hello, World!", "a b  c", "x=1&y=2", "  one\n    two\n  three\n",
          "a/b/../c.txt", "Tab\tand\nnewline"),
    int: (0, 1, 2, 7, -3, 100),
    float: (0.0, 0.5, 1.0, 2.5, -1.25),
    list: ([], [1, 2, 3], [3, 1, 2], ["b", "a"]),
    bytes: (b"", b"abc"),
}


def _name_type(param: str) -> type | None:
    low = param.lower().strip("_")
    for names, kind in _NAME_TYPES:
        if low in names or any(low.endswith("_" + n) for n in names if len(n) > 2):
            return kind
    return None


def _literal_values(literals: Sequence[str]) -> list[Any]:
    values = []
    for text in literals:
        try:
            values.append(from_source(text))
        except InputFormatError:
            continue
    return values


def made_up_calls(function: FunctionLike, seed: int, n: int = _MADE_UP) -> list[str]:
    """Calls of a function that has no examples (see the module docstring); [] when its
    code does not define it or it takes no required positional parameter it could fill."""
    code = function.canonical or ""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    defs = [d for d in tree.body if isinstance(d, ast.FunctionDef) and d.name == function.name]
    if not defs:
        return []
    args = defs[-1].args
    positional = [*args.posonlyargs, *args.args]
    required = positional[:len(positional) - len(args.defaults)]
    if not required:
        return [f"{function.name}()"]
    rng = random.Random(f"execretrieval-fromcode:{seed}:{function.name}")
    pools = pools_from_code(code, function.name)
    literals = _literal_values(function.literals)
    choices: list[list[Any] | None] = []   # None: a parameter of the call's shared type
    for param in required:
        hint = function.hints.get(param.arg)
        options: list[Any] = []
        if hint:
            options = [v for v in (value_for_hint(hint, rng, pools) for _ in range(8))
                       if v is not None]
        kind = _name_type(param.arg)
        if not options and kind is not None:
            options = [v for v in literals if type(v) is kind] + list(_FALLBACK[kind])
        choices.append(options or None)
    calls: list[str] = []
    made = 0
    seen: set[str] = set()
    seeding = random.Random(f"execretrieval-fromcode-contained:{seed}:{function.name}")
    shared = [int, str, float, list]
    untyped = all(options is None for options in choices)
    for _ in range(n * 8):
        kind = rng.choice(shared)   # untyped parameters of one call share a type: add(a, b)
        same = [v for v in literals if type(v) is kind] + list(_FALLBACK[kind])
        picked = tuple(rng.choice(options if options is not None else same)
                       for options in choices)
        for values in (picked, _contained(picked, seeding, untyped)):
            if values is None:
                continue
            try:
                call = call_source(function.name, values, {})
            except ValueError:
                continue
            if call not in seen:
                seen.add(call)
                calls.append(call)
                made += values is picked
        if made >= n:
            break
    return calls


def _contained(picked: tuple[Any, ...], rng: random.Random,
               untyped: bool) -> tuple[Any, ...] | None:
    """``picked`` with another argument's value put into its first list, so a made-up
    container holds what the call looks for (``countOf([1, 7, 2], 7)``, not only
    ``countOf([1, 2, 3], 7)``); a call without a list whose parameters are all
    untyped gets its first argument as one (``countOf(-3, 100)`` -> ``countOf([-3,
    100], 100)``); None for a one-argument call or nothing to put. These calls come on
    top of the ``n`` made up."""
    if len(picked) < 2:
        return None
    at = next((i for i, v in enumerate(picked) if type(v) is list), None)
    if at is None and not untyped:
        return None
    if at is None:  # the first argument becomes a list holding it and the others
        at, picked = 0, ([picked[0]], *picked[1:])
    others = [v for i, v in enumerate(picked) if i != at]
    values = list(picked[at])
    values.insert(rng.randrange(len(values) + 1), rng.choice(others))
    return (*picked[:at], values, *picked[at + 1:])


def _seed_calls(function: FunctionLike, seed: int) -> list[str]:
    calls = [e.call for e in function.examples]
    return calls or made_up_calls(function, seed)


def collect_cases(functions: Sequence[FunctionLike], oracle: Any, *, seed: int = 0,
                  n: int = 40, progress: Progress | None = None,
                  should_stop: ShouldStop | None = None) -> list[CaseSet]:
    """Each function's cases (see the module docstring), in order. Functions without a
    canonical must have been left out by the caller."""
    seeds = [_seed_calls(f, seed) for f in functions]
    tasks = [InputTask(f.canonical or "", f.name, tuple(calls))
             for f, calls in zip(functions, seeds, strict=True)]
    sets = build_input_sets(oracle, tasks, n=n, seed=seed, progress=progress,
                            should_stop=should_stop)
    if should_stop is not None and should_stop():
        raise CancelledError("build stopped")
    probed = [list(dict.fromkeys([*calls, *(c.call for c in s.cases)]))[:_PROBED]
              for calls, s in zip(seeds, sets, strict=True)]
    with derived_oracle(oracle) as runner:
        outcomes = run_chunked(runner, [(purity_code(f.canonical or ""),
                                         [purity_probe(c) for c in calls])
                                        for f, calls in zip(functions, probed, strict=True)],
                               should_stop=should_stop)
    out = []
    for function, calls, found, probes in zip(functions, seeds, sets, outcomes, strict=True):
        doctest = frozenset(normal_call(e.call) for e in function.examples
                            if e.origin == "doctest")
        reason = impurity([read_uses(o) for o in probes])
        refused = sorted({c.expected for c in found.cases
                          if c.kind == "raises" and c.expected in _IO_ERRORS})
        if reason is None and refused:
            reason = f"does I/O (the sandbox refused it: {refused[0]})"
        if reason is None and not calls:
            reason = "no inputs: no examples and no parameters to fill"
        out.append(CaseSet(function, _ordered(found, doctest), doctest, reason))
    return out


def _ordered(found: InputSet, doctest: frozenset[str]) -> tuple[Case, ...]:
    """Doctest cases, then the other suite cases, then generated ones; at most
    :data:`MAX_RAISES` raises cases (the earliest)."""
    rank = {c.call: (0 if c.call in doctest else 1 if c.origin == "suite" else 2, i)
            for i, c in enumerate(found.cases)}
    cases = sorted(found.cases, key=lambda c: rank[c.call])
    kept, raises = [], 0
    for case in cases:
        if case.kind == "raises":
            if raises >= MAX_RAISES:
                continue
            raises += 1
        kept.append(case)
    return tuple(kept)


def diagnose(sets: Sequence[CaseSet], oracle: Any, minimum: int, *,
             should_stop: ShouldStop | None = None) -> list[str]:
    """Why each function (all short of ``minimum`` cases) has so few: its first calls run
    again, evaluated twice under two hash seeds, and the commonest failure named. The
    second run starts :data:`_APART` seconds after the first ends, so a function that
    reads the clock where the purity probe cannot see it (``datetime.datetime.now()``:
    ``http.cookiejar.time2isoz()``) answers differently in the two runs whatever the
    machine's speed: both runs within one second made it "fewer than 7 distinct valid
    inputs" on a fast machine and "not deterministic" on a slow one."""
    calls = [[c.call for c in s.cases][:_DIAGNOSED] + _seed_calls(s.function, 0)[:_DIAGNOSED]
             for s in sets]
    calls = [list(dict.fromkeys(c))[:_DIAGNOSED] for c in calls]
    runs: list[Any] = []
    for hash_seed in (0, 1):
        if runs:
            time.sleep(_APART)
        with derived_oracle(oracle, hash_seed=hash_seed, output_chars=200_000) as probe:
            runs.append(run_chunked(probe, [(with_probes(s.function.canonical or ""),
                                             [evaluator(c, shared=True) for c in cs])
                                            for s, cs in zip(sets, calls, strict=True)],
                                    should_stop=should_stop))
    reasons = []
    for s, cs, first, second in zip(sets, calls, runs[0], runs[1], strict=True):
        reasons.append(_diagnosis(s, cs, first, second, minimum))
    return reasons


def _answers(outcome: Any) -> list[str] | None:
    if outcome is None:
        return None
    if outcome.status != "pass":
        return ["timeout"] if outcome.status == "timeout" else None
    text = outcome.output
    if MARK not in text:
        return None
    inner = text[text.rfind(MARK, 0, text.rfind(MARK)) + len(MARK):text.rfind(MARK)]
    try:
        pair = from_source(inner, where="evaluator output")
    except InputFormatError:
        return None
    return [p for p in pair if type(p) is str] if type(pair) is list else None


def _diagnosis(s: CaseSet, calls: Sequence[str], first: Sequence[Any],
               second: Sequence[Any], minimum: int) -> str:
    if not calls:
        return "no inputs: no examples and no parameters to fill"
    counts = {"not deterministic": 0, "returns values that are not plain data": 0,
              "raises on its inputs": 0, "times out": 0}
    for a, b in zip(first, second, strict=True):
        x, y = _answers(a), _answers(b)
        if x is None or y is None:
            continue
        both = x + y
        if "timeout" in both:
            counts["times out"] += 1
        elif len(set(both)) > 1:
            counts["not deterministic"] += 1
        elif both and both[0] == "?":
            counts["returns values that are not plain data"] += 1
        elif both and both[0][:1] in ("!", "E"):
            counts["raises on its inputs"] += 1
    worst = max(counts, key=lambda k: (counts[k], k == "not deterministic"))
    if counts["not deterministic"]:
        return "not deterministic"
    if counts[worst] and len(s.cases) == 0:
        return worst
    return f"fewer than {minimum} distinct valid inputs"

