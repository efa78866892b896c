"""The input engine: plain-data source both ways, inputs collected in the sandbox, generated
deterministically, filtered by the canonical, and differential runs checked against a
brute-force in-process comparison of canonical and mutant."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from _audit_cases import CLAMP, WEAK

from execretrieval import MemoryCache, Oracle, generate_mutants
from execretrieval.errors import InputFormatError
from execretrieval.inputs import (
    InputTask,
    build_input_sets,
    canonical_answer,
    from_source,
    run_differential,
    suggest_tests,
    to_source,
)
from execretrieval.inputs.mutate import Pools, boundary_variants, mutate_value


@pytest.fixture(scope="module")
def oracle():
    with Oracle(cache=MemoryCache(), workers=2) as o:
        yield o


def _random_plain(rng: random.Random, depth: int = 0):
    kinds = ["int", "float", "str", "bool", "none", "bytes"]
    if depth < 3:
        kinds += ["list", "tuple", "dict", "set", "frozenset"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-10 ** 12, 10 ** 12)
    if kind == "float":
        return rng.choice([rng.uniform(-1e6, 1e6), float("inf"), -float("inf"), -0.0, 1e-300])
    if kind == "str":
        return "".join(rng.choice("ab'\"\\\n\té日😀\x00") for _ in range(rng.randrange(6)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "none":
        return None
    if kind == "bytes":
        return bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
    items = [_random_plain(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == "list":
        return items
    if kind == "tuple":
        return tuple(items)
    hashable = [x for x in items if _hashable(x)]
    if kind == "dict":
        return {x: i for i, x in enumerate(hashable)}
    return set(hashable) if kind == "set" else frozenset(hashable)


def _hashable(x) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def test_plain_source_round_trips_like_cpython_eval() -> None:
    rng = random.Random(7)
    for _ in range(500):
        value = _random_plain(rng)
        source = to_source(value)
        assert eval(source) == value  # noqa: S307 - the reference: CPython itself
        back = from_source(source)
        assert back == value and type(back) is type(value)


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "open('x')",
                                  "[x for x in ()]", "{**{}}", "a", "1 +", "(lambda: 1)()"])
def test_from_source_evaluates_nothing(text: str) -> None:
    with pytest.raises(InputFormatError):
        from_source(text)


def test_to_source_refuses_what_is_not_plain() -> None:
    for value in (float("nan"), object(), [1, object()], 10 ** 40):
        with pytest.raises(ValueError):
            to_source(value)


def test_mutation_keeps_each_type_and_is_seeded() -> None:
    values = [0, -3, 2.5, True, "abc", "", b"xy", [1, 2, 3], (1, "a"), {"k": 1}, {1, 2},
              frozenset({"a"}), [[1], [2, 3]], None]
    for value in values:
        rng = random.Random(1)
        out = [mutate_value(value, rng, Pools()) for _ in range(50)]
        assert all(type(o) is type(value) for o in out)
        again = random.Random(1)
        assert out == [mutate_value(value, again, Pools()) for _ in range(50)]
    ints = {mutate_value(5, random.Random(s), Pools()) for s in range(200)}
    assert {0, -1, 1, 4, 6} <= ints and max(ints) > 10 ** 8


CALLS = "def head(xs, n=1):\n    return xs[:n]\n"


def test_collects_every_call_however_the_test_builds_it(oracle: Oracle) -> None:
    tests = ("xs = [3, 1, 2]\nassert head(xs) == [3]",
             "for k in range(2):\n    assert len(head([9, 8, 7], n=k)) == k",
             "with pytest.raises(TypeError):\n    head(None)",
             "assert head([object()]) != []",            # not plain: left out
             "assert 1 == 1")                           # does not call head
    [inputs] = build_input_sets(oracle, [InputTask(CALLS, "head", tests)], n=40, seed=3)
    suite = [c.call for c in inputs.cases if c.origin == "suite"]
    assert suite == ["head([3, 1, 2])", "head([9, 8, 7], n=0)", "head([9, 8, 7], n=1)",
                     "head(None)"]
    assert inputs.collected == 4
    raising = [c for c in inputs.cases if c.call == "head(None)"]
    assert raising[0].kind == "raises" and raising[0].expected == "TypeError"
    # every kept case is what CPython itself answers for that call
    namespace: dict = {}
    exec(CALLS, namespace)  # noqa: S102 - the reference, in the test process
    for case in inputs.cases:
        try:
            expected = ("return", eval(case.call, namespace))  # noqa: S307
        except Exception as exc:  # noqa: BLE001
            expected = ("raises", type(exc).__name__)
        got = (case.kind, from_source(case.expected) if case.kind == "return"
               else case.expected)
        assert got == expected, case.call


def test_same_seed_same_inputs_other_seed_other(oracle: Oracle) -> None:
    task = InputTask(CLAMP, "clamp", WEAK)
    a, b, c = (build_input_sets(oracle, [task], n=50, seed=s)[0] for s in (0, 0, 1))
    assert a.cases == b.cases and 50 <= len(a.cases) <= 50 + 22   # pairs: up to 45% more
    assert a.cases[:3] == c.cases[:3]  # the suite's own calls lead
    assert a.cases != c.cases


@pytest.mark.slow
def test_nondeterministic_and_failing_inputs_are_dropped() -> None:
    code = ("import random\n"
            "def pick(xs):\n"
            "    if not xs:\n"
            "        raise ValueError('empty')\n"
            "    if len(xs) > 3:\n"
            "        return [random.random(), *xs]\n"
            "    if len(xs) == 3:\n"
            "        while True:\n"
            "            pass\n"
            "    return list({str(x) for x in xs})\n")
    tests = ("assert pick([1]) == ['1']",)
    # each 3-element input loops until the suite timeout: 1 s, not the default 5, per loop
    with Oracle(cache=MemoryCache(), workers=2, timeout=1.0) as quick:
        [inputs] = build_input_sets(quick, [InputTask(code, "pick", tests)], n=60, seed=0)
    for case in inputs.cases:
        xs = from_source(case.call[len("pick("):-1])
        if not xs:
            assert (case.kind, case.expected) == ("raises", "ValueError")
        else:  # >3: random; 3: loops
            assert len(xs) < 3
            if len({str(x) for x in xs}) > 1:  # kept only if both hash seeds agree
                orders = {subprocess.run(
                    [sys.executable, "-c", f"print(list({{str(x) for x in {xs!r}}}))"],
                    env={**os.environ, "PYTHONHASHSEED": str(seed)}, capture_output=True,
                    text=True, check=True).stdout for seed in (0, 1)}
                assert len(orders) == 1, xs
    assert any(c.kind == "raises" for c in inputs.cases)


def test_differential_matches_brute_force_in_process(oracle: Oracle) -> None:
    [inputs] = build_input_sets(oracle, [InputTask(CLAMP, "clamp", WEAK)], n=80, seed=0)
    mutants = generate_mutants(CLAMP, "clamp").mutants
    runs = run_differential(oracle, [(m.code, inputs) for m in mutants])
    canon: dict = {}
    exec(CLAMP, canon)  # noqa: S102
    for mutant, run in zip(mutants, runs, strict=True):
        space: dict = {}
        exec(mutant.code, space)  # noqa: S102
        differ = {i for i, c in enumerate(inputs.cases)
                  if eval(c.call, canon) != eval(c.call, space)}  # noqa: S307
        assert {d.case for d in run.differences} == differ, mutant.bug_description
        assert run.tried == len(inputs.cases)
        for d in run.differences:
            case = inputs.cases[d.case]
            assert canonical_answer(case) == repr(eval(case.call, canon))  # noqa: S307
            assert d.output == repr(eval(case.call, space))  # noqa: S307
    # `>` -> `>=` in `if x > hi: return hi` returns hi either way: no input tells it apart
    equivalent = [r for m, r in zip(mutants, runs, strict=True)
                  if "`>` changed to `>=`" in m.bug_description]
    assert equivalent and not equivalent[0].distinguished
    picks = suggest_tests(inputs, runs)
    killed = {k for s in picks for k in s.kills}
    assert killed == {k for k, r in enumerate(runs) if r.distinguished}
    # greedy is minimal here: no single pick kills every distinguishable run
    assert len(picks) >= 1 and all(s.test.startswith("assert clamp(") for s in picks)


@pytest.mark.slow
def test_mutant_that_loops_is_told_apart_by_timeout(oracle: Oracle) -> None:
    code = "def countdown(n):\n    out = []\n    while n > 0:\n        out.append(n)\n" \
           "        n -= 1\n    return out\n"
    looping = code.replace("n -= 1", "n -= 0 if n == 1 else 1")
    with Oracle(cache=MemoryCache(), workers=2, timeout=1.0) as quick:
        [inputs] = build_input_sets(quick, [InputTask(code, "countdown",
                                                      ("assert countdown(0) == []",))],
                                    n=20, seed=0)
        [run] = run_differential(quick, [(looping, inputs)])
    outputs = {inputs.cases[d.case].call: d.output for d in run.differences}
    assert outputs and all(v == "timeout" for v in outputs.values())
    assert all(from_source(call[len("countdown("):-1]) >= 1 for call in outputs)


def test_boundary_variants_move_one_number_and_keep_the_shape() -> None:
    pools = Pools(ints=[11, 12, 13])
    steps, zeros, literals = boundary_variants("2024-03-31", pools)
    assert steps == ["2023-03-31", "2025-03-31", "2024-02-31", "2024-04-31",
                     "2024-03-30", "2024-03-32"]
    assert zeros == ["0000-03-31", "2024-00-31", "2024-03-00"]   # unsigned, as wide
    assert "2024-13-31" in literals and "2024-03-13" in literals
    steps, zeros, _ = boundary_variants((3, [0, -2]), Pools())
    assert steps == [(2, [0, -2]), (4, [0, -2]), (3, [-1, -2]), (3, [1, -2]),
                     (3, [0, -3]), (3, [0, -1])]
    assert (0, [0, -2]) in zeros and all(type(v) is tuple for v in zeros)
    assert boundary_variants(True, Pools()) == [[], [], []]   # a bool is not a number


def test_a_day_past_the_month_tells_a_boundary_mutant_apart(oracle: Oracle) -> None:
    """The one input a month-length mutant gets wrong (day 32 of a month in the suite)
    comes from moving one number of the suite's own input, not from random edits."""
    code = ("def valid_day(text):\n"
            "    year, month, day = (int(p) for p in text.split('-'))\n"
            "    days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]\n"
            "    return 1 <= month <= 12 and 1 <= day <= days[month - 1]\n")
    tests = ("assert valid_day('2023-03-31') == True", "assert valid_day('2023-04-31') == False")
    mutant = code.replace("[31, 28, 31,", "[31, 28, 32,")
    [inputs] = build_input_sets(oracle, [InputTask(code, "valid_day", tests)], n=20, seed=0)
    [run] = run_differential(oracle, [(mutant, inputs)])
    assert run.distinguished
    assert any(inputs.cases[d.case].call == "valid_day('2023-03-32')" for d in run.differences)


def test_stdlib_values_round_trip_and_are_written_as_the_code_names_them() -> None:
    import collections
    import datetime
    import decimal
    import fractions

    from execretrieval.inputs.plain import SANDBOX_SOURCE
    from execretrieval.inputs.spelling import Spelling

    values = [datetime.date(2024, 11, 17), datetime.datetime(2024, 1, 1, 9, 30),
              datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC),
              datetime.time(23, 59, 59), datetime.timedelta(days=-1, seconds=5),
              fractions.Fraction(-1, 3), decimal.Decimal("1.50"), bytearray(b"a\x00"),
              collections.Counter("aab"), collections.OrderedDict(b=1, a=2),
              collections.defaultdict(list, {1: [2]}), collections.deque([1], maxlen=2),
              [datetime.date(2024, 2, 29), {datetime.timedelta(0)}]]
    sandbox: dict = {}
    exec(SANDBOX_SOURCE, sandbox)  # noqa: S102 - the sandbox side writes them the same way
    namespace = {"datetime": datetime, "fractions": fractions, "decimal": decimal,
                 "collections": collections}
    for value in values:
        source = to_source(value)
        assert sandbox["_erx_src"](value) == source
        assert eval(source, namespace) == value  # noqa: S307 - the reference: CPython
        back = from_source(source)
        assert back == value and type(back) is type(value)
    for bad in (decimal.Decimal("NaN"), collections.defaultdict(lambda: 0)):
        with pytest.raises(ValueError):
            to_source(bad)
    call = "f(datetime.date(2024, 1, 1), datetime.timedelta(days=1))"
    assert Spelling.of("from datetime import date, timedelta\n").spell(call) == (
        "f(date(2024, 1, 1), timedelta(days=1))", ())
    assert Spelling.of("import datetime\n").spell(call) == (call, ())
    # ``datetime`` is the class here: importing the module would rebind it
    assert Spelling.of("from datetime import datetime\n").spell(call) == (
        "f(date(2024, 1, 1), timedelta(days=1))",
        ("from datetime import date", "from datetime import timedelta"))
    assert Spelling.of("").spell(call) == (call, ("import datetime",))


def test_dates_move_to_their_boundaries() -> None:
    import datetime

    steps, edges, leap = boundary_variants(datetime.date(2023, 1, 31), Pools())
    assert steps == [datetime.date(2023, 1, 30), datetime.date(2023, 2, 1)]
    assert datetime.date(2023, 1, 1) in edges and datetime.date(2023, 12, 31) in edges
    assert datetime.date(2024, 2, 29) in leap and datetime.date(2024, 3, 1) in leap
    assert datetime.date(2023, 2, 28) in leap          # a month on, the day clamped
    rng = random.Random(3)
    moved = [mutate_value(datetime.datetime(2024, 1, 1, 9), rng, Pools()) for _ in range(40)]
    assert all(type(m) is datetime.datetime for m in moved) and len(set(moved)) > 10


def test_datetime_arguments_are_collected_and_tell_a_mutant_apart(oracle: Oracle) -> None:
    code = ("from datetime import date, timedelta\n\n\n"
            "def days_left(day):\n"
            "    if day.month == 12:\n"
            "        return 31 - day.day\n"
            "    first = date(day.year, day.month + 1, 1)\n"
            "    return (first - timedelta(days=1)).day - day.day\n")
    tests = ("assert days_left(date(2024, 1, 10)) == 21",
             "assert days_left(date(2024, 12, 1)) == 30")
    mutant = code.replace("31 - day.day", "30 - day.day")  # wrong only in December
    [inputs] = build_input_sets(oracle, [InputTask(code, "days_left", tests)], n=30, seed=0)
    assert inputs.collected == 2
    assert any(c.call == "days_left(date(2024, 12, 31))" and c.expected == "0"
               for c in inputs.cases)   # written as the suite writes dates
    [run] = run_differential(oracle, [(mutant, inputs)])
    assert run.distinguished


def test_pairwise_boundaries_tell_apart_every_month_length_mutant(oracle: Oracle) -> None:
    """Each month's length mutant needs the month and the day at a boundary at once,
    for months the suite never ends on: the pairs that straddle a boundary find them."""
    code = ("def valid_day(text):\n"
            "    year, month, day = (int(p) for p in text.split('-'))\n"
            "    days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]\n"
            "    return 1 <= month <= 12 and 1 <= day <= days[month - 1]\n")
    tests = ("assert valid_day('2023-12-31') == True", "assert valid_day('2023-04-31') == False",
             "assert valid_day('2023-01-00') == False", "assert valid_day('2023-13-01') == False")
    mutants = [m.code for m in generate_mutants(code, "valid_day").mutants
               if "days = [" in m.code and m.code.split("days = ")[1].split("\n")[0] !=
               code.split("days = ")[1].split("\n")[0]]
    assert len(mutants) >= 20
    [inputs] = build_input_sets(oracle, [InputTask(code, "valid_day", tests)], n=100, seed=0)
    runs = run_differential(oracle, [(m, inputs) for m in mutants])
    told = sum(r.distinguished for r in runs)
    assert told == len(mutants), f"{told} of {len(mutants)}"
    assert len(inputs.cases) <= 100 + 45   # the pairs come on top of the n = 100


def test_domain_is_what_every_suite_call_keeps() -> None:
    from execretrieval.inputs import infer_domain
    from execretrieval.inputs.domain import call_arguments

    calls = [((3, [1, 2, 5], "2024-01-31", (1, 2)), {}), ((0, [4, 9], "1999-12-01", (5, 6)), {})]
    domain = infer_domain(calls)
    texts = {p.text for p in domain.preconditions}
    assert {"argument 1 is non-negative", "argument 2 is sorted", "argument 2 is not empty",
            "argument 3 reads '9999-99-99'", "argument 4 has length 2",
            "each item of argument 2 is positive"} <= texts
    assert "argument 1 is positive" not in texts          # 0 is passed
    assert domain.outside((1, [1, 2], "2000-01-01", (1, 1)), {}) == ""
    assert domain.outside((-1, [1, 2], "2000-01-01", (1, 1)), {}).startswith(
        "argument 1 is non-negative")
    assert "sorted" in domain.outside((1, [2, 1], "2000-01-01", (1, 1)), {})
    assert "reads" in domain.outside((1, [1], "2000-1-01", (1, 1)), {})
    assert "length 2" in domain.outside((1, [1], "2000-01-01", (1, 1, 1)), {})
    assert "item 1 of argument 4 is positive" in domain.outside(
        (1, [1], "2000-01-01", (0, 1)), {})
    assert domain.outside_call("f(-5, [1], '2000-01-01', (1, 1))").startswith("argument 1")
    assert call_arguments("f(open('x'))") is None              # nothing evaluated
    assert infer_domain(calls[:1]).preconditions == ()         # one call implies nothing


def test_suggested_tests_prefer_inputs_inside_the_domain() -> None:
    from execretrieval.inputs import Case, DifferentialResult, InputSet
    from execretrieval.inputs.differential import Difference

    cases = (Case("f(-1)", "return", "0", outside="argument 1 is non-negative ..."),
             Case("f(2)", "return", "4"), Case("f(-2)", "return", "0", outside="x"))
    runs = [DifferentialResult(3, (Difference(0, "1"), Difference(1, "5"))),
            DifferentialResult(3, (Difference(0, "1"),)),
            DifferentialResult(3, (Difference(2, "9"),))]
    picks = suggest_tests(InputSet("f", cases, 0), runs)
    # f(-1) kills two at once, but f(2) is inside the domain: it goes first; f(-1) is
    # still needed for the second run, f(-2) for the third
    assert [p.case.call for p in picks] == ["f(2)", "f(-1)", "f(-2)"]
