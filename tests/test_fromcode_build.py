"""build-from-code, the dynamic half: purity, inputs, test choice, the built folder.

Everything runs in the real sandbox; expected values are checked against CPython itself
(the real function imported in this process).
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path

import pytest

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.benchmark.gates import validate
from execretrieval.build.fromcode import FunctionSource, build_from_code
from execretrieval.build.fromcode.discover import Example
from execretrieval.build.fromcode.purity import impurity, purity_code, purity_probe, read_uses
from execretrieval.build.fromcode.tasks import collect_cases, made_up_calls, normal_call
from execretrieval.build.fromcode.tests_choice import choose
from execretrieval.errors import CancelledError
from execretrieval.inputs import Case
from execretrieval.oracle.cache import ResultCache
from execretrieval.oracle.execution import Oracle

DEDENT = '''import re

_whitespace_only_re = re.compile('^[ \\t]+$', re.MULTILINE)
_leading_whitespace_re = re.compile('(^[ \\t]*)(?:[^ \\t\\n])', re.MULTILINE)


def dedent(text):
    """Remove any common leading whitespace from every line in `text`."""
    margin = None
    text = _whitespace_only_re.sub('', text)
    indents = _leading_whitespace_re.findall(text)
    for indent in indents:
        if margin is None:
            margin = indent
        elif indent.startswith(margin):
            pass
        elif margin.startswith(indent):
            margin = indent
        else:
            for i, (x, y) in enumerate(zip(margin, indent)):
                if x != y:
                    margin = margin[:i]
                    break
    if margin:
        text = re.sub(r'(?m)^' + margin, '', text)
    return text
'''

PACKAGE = '''"""A small package for build-from-code tests."""
import time


def clamp(value, low, high):
    """Clamp a number into the closed range from low to high.

    >>> clamp(5, 0, 10)
    5
    >>> clamp(-3, 0, 10)
    0
    >>> clamp(42, 0, 10)
    10
    """
    if value < low:
        return low
    if value > high:
        return high
    return value


def count_vowels(text):
    """Count the vowels in a string.

    >>> count_vowels("banana")
    3
    >>> count_vowels("Sky")
    0
    """
    return sum(1 for ch in text.lower() if ch in "aeiou")


def stamp(label):
    """Prefix a label with the current time in seconds.

    >>> stamp("x")
    '0x'
    """
    return f"{int(time.time()) * 0}{label}"


class Box:
    pass


def make_box(n):
    """Make a box holding a number.

    >>> make_box(1)
    """
    box = Box()
    box.n = n
    return box


def undocumented(x):
    return x
'''


@pytest.fixture
def oracle(tmp_path: Path):
    with Oracle(cache=ResultCache(tmp_path / "cache.sqlite")) as o:
        yield o


def _function(name: str, canonical: str, calls: list[str] = (), **kw) -> FunctionSource:
    examples = tuple(Example(c, "doctest", f"m.py:{i}") for i, c in enumerate(calls))
    return FunctionSource(name=name, module="m", file="m.py", line=1, query="q",
                          canonical=canonical, examples=examples,
                          hints=kw.get("hints", {}), literals=kw.get("literals", ()),
                          skip_reason=None)


def _probe(oracle: Oracle, code: str, call: str = "f('abc')") -> str | None:
    result = oracle.run(purity_code(code), [purity_probe(call)])
    return impurity([read_uses(result.outcomes[0])])


def test_purity_probe_names_the_impure_use_and_passes_pure_code(oracle: Oracle) -> None:
    assert _probe(oracle, "import time\ndef f(x):\n    return x + str(int(time.time()) * 0)\n") \
        == "reads the clock (time.time)"
    assert _probe(oracle, "from time import time as now\ndef f(x):\n"
                          "    return x * int(now() * 0)\n") == "reads the clock (time.time)"
    assert _probe(oracle, "import random\ndef f(x):\n    return random.choice([x])\n") \
        == "uses randomness (random.choice)"
    assert _probe(oracle, "import os\ndef f(x):\n    return os.path.exists(x)\n") \
        == "does file I/O (os.path.exists)"
    assert _probe(oracle, "def f(x):\n    with open(x) as h:\n        return h.read()\n") \
        == "does file I/O (open)"
    assert _probe(oracle, "import os\ndef f(x):\n    return os.environ.get('HOME', x)\n") \
        == "reads the environment (os.environ)"
    assert _probe(oracle, "import os, time, random\ndef f(x):\n"
                          "    r = random.Random(3).random()\n"
                          "    return os.path.join(x, 'a') + os.sep + "
                          "time.strftime('%Y', time.gmtime(0)) + str(r)\n") is None
    # the cut runs after the canonical: module-level names shadowing builtins it uses
    assert _probe(oracle, "import time\ncallable = len = getattr = isinstance = None\n"
                          "def f(x):\n    return x + str(int(time.time()) * 0)\n") \
        == "reads the clock (time.time)"


def test_dedent_cases_start_with_doctest_calls_and_match_cpython(oracle: Oracle) -> None:
    calls = ["dedent('  a\\n    b\\n  c')", 'dedent("\\tx\\n\\ty")']
    [found] = collect_cases([_function("dedent", DEDENT, calls)], oracle, seed=0, n=30)
    assert found.reason is None
    assert len(found.cases) >= 10
    assert [c.call for c in found.cases[:2]] == [normal_call(c) for c in calls]
    assert found.doctest == frozenset(normal_call(c) for c in calls)
    assert len({c.call for c in found.cases}) == len(found.cases)
    for case in found.cases:  # CPython's own textwrap.dedent is the reference
        args = [ast.literal_eval(a) for a in ast.parse(case.call, mode="eval").body.args]
        assert case.kind == "return"
        assert ast.literal_eval(case.expected) == textwrap.dedent(*args), case.call


def test_impure_and_non_plain_functions_get_their_reason(oracle: Oracle) -> None:
    clock = _function("f", "import time\ndef f(x):\n    return x + int(time.time()) * 0\n",
                      ["f(1)", "f(2)"])
    reader = _function("g", "def g(path):\n    with open(path) as h:\n        return h.read()\n",
                       ["g('a.txt')"])
    pure = _function("h", "def h(n):\n    return n * 2\n", ["h(3)"])
    sets = collect_cases([clock, reader, pure], oracle, seed=0, n=20)
    assert sets[0].reason == "reads the clock (time.time)"
    assert sets[1].reason == "does file I/O (open)"
    assert sets[2].reason is None and sets[2].cases[0].test == "assert h(3) == 6"


def test_made_up_calls_follow_hints_then_parameter_names() -> None:
    code = "def pad(text, width: int, fill=' '):\n    return text.ljust(width, fill)[:80]\n"
    f = _function("pad", code, hints={"width": "int"}, literals=("80",))
    calls = made_up_calls(f, seed=0)
    assert calls == made_up_calls(f, seed=0)  # seeded
    assert len(calls) >= 6
    for call in calls:
        args = ast.parse(call, mode="eval").body.args
        assert len(args) == 2   # the defaulted parameter is left to its default
        assert isinstance(ast.literal_eval(args[0]), str)
        assert isinstance(ast.literal_eval(args[1]), int)


def test_choose_doctests_first_then_greedy_cover_then_fill() -> None:
    cases = [Case(f"f({i})", "return", str(i)) for i in range(8)]
    doctest = frozenset({"f(5)"})
    kills = [frozenset({1, 2}), frozenset({2}), frozenset({3}), frozenset({5}),
             frozenset({2, 3}), frozenset()]
    chosen = choose(cases, doctest, kills, min_tests=5, max_tests=6)
    # f(5) (doctest), then 2 kills three mutants, then 3 the last coverable one, then fill
    assert chosen[:3] == [5, 2, 3]
    assert chosen == [5, 2, 3, 0, 1]
    covered = {m for m, by in enumerate(kills) if by & set(chosen)}
    assert covered == {m for m, by in enumerate(kills) if by}
    assert choose(cases, doctest, kills, min_tests=2, max_tests=2) == [5, 2]


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "src" / "tinypkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    return pkg


def test_build_from_a_folder_package(tmp_path: Path, oracle: Oracle) -> None:
    pkg = _package(tmp_path)
    result = build_from_code([pkg], tmp_path / "out", oracle=oracle, seed=0, name="tiny")
    out = tmp_path / "out"
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    fates = {f["name"]: f for f in report["functions"]}
    assert fates["clamp"]["status"] == "task" and fates["count_vowels"]["status"] == "task"
    assert fates["stamp"]["reason"] == "reads the clock (time.time)"
    assert fates["make_box"]["reason"] == "returns values that are not plain data"
    assert fates["undocumented"]["reason"] == "no docstring"
    assert fates["clamp"]["source"] == "tinypkg:tinypkg/__init__.py:5" or \
        fates["clamp"]["source"].endswith(":5")
    bench = load_benchmark(out)
    assert validate(bench, oracle).passed
    query = next(q for q in bench.queries if q.function_name == "clamp")
    assert query.query == "Clamp a number into the closed range from low to high."
    assert query.extra["source"]["line"] == 5
    assert query.test_suite[:3] == ("assert clamp(5, 0, 10) == 5",
                                    "assert clamp(-3, 0, 10) == 0",
                                    "assert clamp(42, 0, 10) == 10")
    assert 7 <= len(query.test_suite) <= 10
    # every expected value is what the real function answers
    namespace: dict = {}
    exec(compile(PACKAGE, "tinypkg", "exec"), namespace)
    for q in bench.queries:
        for test in q.test_suite:
            if test.startswith("assert "):
                exec(compile(test, "test", "exec"), dict(namespace))
    distractors = bench.distractors_for(query.query_id)
    assert 1 <= len(distractors) <= 4
    assert all(s.bug_description for s in distractors)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert str(tmp_path) not in (out / "manifest.json").read_text(encoding="utf-8")
    assert {t["function_name"] for t in manifest["tasks"]} == {"clamp", "count_vowels"}
    assert manifest["source"][0]["kind"] in ("folder", "package")
    assert result.tasks == 2
    assert re.search(r"tinypkg\s+5\s+2\s", result.summary())
    # same sources and seed: the same bytes
    build_from_code([pkg], tmp_path / "again", oracle=oracle, seed=0, name="tiny")
    for name in ("queries.jsonl", "corpus.jsonl", "manifest.json", "build_report.json"):
        assert (out / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name


def test_a_stopped_build_writes_nothing(tmp_path: Path, oracle: Oracle) -> None:
    pkg = _package(tmp_path)
    out = tmp_path / "out"
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)

    with pytest.raises(CancelledError):
        build_from_code([pkg], out, oracle=oracle, progress=progress,
                        should_stop=lambda: len(calls) > 1)
    assert not out.exists()
    assert not list(tmp_path.glob(".out.*"))


DATA = Path(__file__).resolve().parent.parent / "data"


def test_the_bundled_stdlib_pool_join_leaves_its_task_functions_out() -> None:
    from execretrieval.benchmark.pool import Pool, with_pool
    from execretrieval.build.background import extract_pool, resolve_source

    bench = load_benchmark(DATA / "stdlib")
    modules = sorted({q.extra["source"]["module"] for q in bench.queries})[:6]
    snippets, _ = extract_pool([resolve_source(m) for m in modules])
    tasks = {q.function_name for q in bench.queries}
    assert tasks & {s.function_name for s in snippets}   # the pool holds them ...
    joined = with_pool(bench, Pool(tuple(snippets), name="stdlib-pool"))
    background = [s for s in joined.corpus if s.role == "background"]
    names = {n.name for s in background for n in ast.parse(s.code).body
             if isinstance(n, ast.FunctionDef)}
    assert background and not names & tasks                # ... the joined corpus does not
    assert joined.manifest["pool"]["dropped_same_name"] >= len(tasks & {
        s.function_name for s in snippets})


def test_the_bundled_stdlib_report_covers_every_task() -> None:
    bench = load_benchmark(DATA / "stdlib")
    report = json.loads((DATA / "stdlib" / "build_report.json").read_text(encoding="utf-8"))
    tasks = [f for f in report["functions"] if f["status"] == "task"]
    assert [f["query_id"] for f in tasks] == [q.query_id for q in bench.queries]
    assert all(f["reason"] for f in report["functions"] if f["status"] == "skipped")
    manifest = json.loads((DATA / "stdlib" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["license"] == "PSF-2.0" and manifest["python"]
    assert all(q.extra["source"]["file"].endswith(".py") for q in bench.queries)


def test_made_up_containers_also_hold_the_other_arguments(oracle: Oracle) -> None:
    """``countOf(a, b)`` made up from untyped parameters: some calls' container holds
    ``b``, so the canonical answers more than 0 (it answered 0 on every made-up call
    before); typed parameters keep their types."""
    code = ("def countOf(a, b):\n    \"Return the number of items in a which are, or which "
            "equal, b.\"\n    count = 0\n    for i in a:\n        if i is b or i == b:\n"
            "            count += 1\n    return count\n")
    f = _function("countOf", code)
    calls = made_up_calls(f, seed=0)
    assert calls == made_up_calls(f, seed=0)
    found = [eval(c, {"countOf": __import__("operator").countOf})  # noqa: S307
             for c in calls if c.startswith("countOf([")]
    assert any(n >= 1 for n in found), calls
    sets = collect_cases([f], oracle, seed=0, n=40)
    answers = {c.expected for c in sets[0].cases if c.kind != "raises"}
    assert len(answers - {"0"}) >= 1, sets[0].cases


CLOCK = '''

def clock_text(utc: bool = True):
    """The current time as hours, minutes and seconds, in UTC or local time."""
    import datetime
    now = datetime.datetime.now(tz=datetime.timezone.utc if utc else None)
    return now.strftime("%H:%M:%S")
'''


def test_a_clock_the_probe_cannot_see_is_not_deterministic_on_any_machine(
        tmp_path: Path, oracle: Oracle) -> None:
    """datetime.now() is not rebound by the purity probe: the diagnosis's two runs, a
    second apart, tell it (they ran within one second on a fast machine, and the same
    build then said "fewer than 7 distinct valid inputs": http.cookiejar.time2isoz)."""
    pkg = _package(tmp_path)
    with (pkg / "__init__.py").open("a", encoding="utf-8") as out:
        out.write(CLOCK)
    build_from_code([pkg], tmp_path / "out", oracle=oracle, seed=0, name="tiny")
    report = json.loads((tmp_path / "out" / "build_report.json").read_text(encoding="utf-8"))
    fates = {f["name"]: f for f in report["functions"]}
    assert fates["clock_text"]["reason"] == "not deterministic"
