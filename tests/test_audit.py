"""The suite audit: mutation score, survivors, tests killing nothing, crash-only kills,
ranking and the CLI, checked against a brute-force re-run of every mutant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _audit_cases import CLAMP, STRONG, WEAK

from execretrieval import Benchmark, MemoryCache, Oracle, Query, Snippet, generate_mutants
from execretrieval.audit import read_audit, run_audit
from execretrieval.cli import main as cli
from execretrieval.errors import CancelledError

DOUBLE = "def double(xs):\n    return [x * 2 for x in xs]\n"


def _bench(name: str = "audit-test") -> Benchmark:
    queries = [
        Query("q_weak", "Clamp x into [lo, hi].", "clamp", "math-numerical", WEAK, ("c_1",)),
        Query("q_strong", "Clamp x into [lo, hi].", "clamp", "math-numerical", STRONG,
              ("c_2",)),
        Query("q_double", "Double every item.", "double", "collections",
              ("assert double([1, 2]) == [2, 4]", "assert double([]) == []"), ("c_3",)),
    ]
    corpus = [Snippet("c_1", "q_weak", "canonical", None, "", CLAMP),
              Snippet("c_2", "q_strong", "canonical", None, "", CLAMP),
              Snippet("c_3", "q_double", "canonical", None, "", DOUBLE)]
    return Benchmark(queries, corpus, name=name)


@pytest.fixture(scope="module")
def oracle():
    with Oracle(cache=MemoryCache(), workers=2) as o:
        yield o


@pytest.fixture(scope="module")
def audit(oracle: Oracle):
    return run_audit(_bench(), oracle, seeds=0)


def test_counts_match_a_brute_force_rerun(audit, oracle: Oracle) -> None:
    bench = _bench()
    for q in bench.queries:
        code = bench.canonical_for(q.query_id).code
        mutants = generate_mutants(code, q.function_name).mutants
        canon = Oracle.run(oracle, code, q.test_suite).statuses
        killed = survivors = crash_only = 0
        killing = set()
        for m in mutants:
            st = oracle.run(m.code, q.test_suite).statuses
            killers = [i for i, s in enumerate(st) if s != "pass" and canon[i] == "pass"]
            killing.update(killers)
            if killers:
                killed += 1
                crash_only += all(st[i] != "fail" for i in killers)
            else:
                survivors += 1
        got = audit.query(q.query_id)
        assert (got.mutants, got.killed, len(got.survivors), got.crash_only_kills) == \
            (len(mutants), killed, survivors, crash_only)
        assert got.tests_killing_nothing == tuple(
            i + 1 for i in range(len(q.test_suite)) if i not in killing)
        equivalent = len(got.equivalent_survivors)
        assert got.mutation_score == pytest.approx(killed / (len(mutants) - equivalent))


def test_weak_suite_ranks_above_strong_with_reasons(audit) -> None:
    order = [q.query_id for q in audit.queries]
    assert order.index("q_weak") < order.index("q_strong")
    weak = audit.query("q_weak")
    assert weak.survivors and not weak.canonical_fails
    # the lower guard is never exercised: removing it survives, and it is a boundary mutant
    assert any(s.bug_type == "remove_edge_case_check" and "line 2" in s.description
               for s in weak.survivors)
    assert any("boundary/edge-case" in r for r in weak.reasons)
    assert any(r.startswith("mutation score") for r in weak.reasons)
    strong = audit.query("q_strong")
    assert len(strong.survivors) < len(weak.survivors)
    assert strong.suspicion < weak.suspicion


def test_json_has_the_issue_keys_and_reads_back(audit, tmp_path: Path) -> None:
    data = audit.to_dict()
    assert set(data) == {"queries", "settings"}
    keys = {"query_id", "function_name", "mutants", "killed", "mutation_score", "survivors",
            "crash_only_kills", "tests_killing_nothing", "flaky_tests", "canonical_fails",
            "suspicion", "reasons"}
    keys.add("suggested_tests")
    verdicts = set()
    for q in data["queries"]:
        assert set(q) == keys
        for s in q["survivors"]:
            verdicts.add(s["verdict"])
            common = {"bug_type", "description", "line", "code", "verdict", "inputs_tried"}
            if s["verdict"] == "weak":
                extra = {"outside_domain"} if not s["in_domain"] else set()
                assert set(s) == common | {"distinguishing_input", "canonical_output",
                                           "mutant_output", "in_domain"} | extra
            else:
                assert set(s) == common and s["verdict"] == "likely_equivalent"
                assert s["inputs_tried"] > 0
        for t in q["suggested_tests"]:
            assert set(t) - {"outside_domain"} == {"test", "kills", "in_domain"} and t["kills"]
            assert ("outside_domain" in t) == (not t["in_domain"])
            assert all(q["survivors"][k]["verdict"] == "weak" for k in t["kills"])
    assert verdicts == {"weak", "likely_equivalent"}
    suspicions = [q["suspicion"] for q in data["queries"]]
    assert suspicions == sorted(suspicions, reverse=True)
    path = tmp_path / "a.json"
    path.write_text(json.dumps(data))
    again = read_audit(path)
    assert again.to_dict() == data


def test_survivors_are_classified_and_suggestions_kill_the_weak_ones(audit,
                                                                    oracle: Oracle) -> None:
    weak = audit.query("q_weak")
    by_description = {s.description: s for s in weak.survivors}
    # `>` -> `>=` in `if x > hi: return hi` returns hi either way
    same = [s for d, s in by_description.items() if "`>` changed to `>=`" in d]
    assert same and same[0].verdict == "likely_equivalent" and same[0].inputs_tried > 10
    guard = [s for s in weak.survivors if s.bug_type == "remove_edge_case_check"][0]
    assert guard.verdict == "weak"
    space: dict = {}
    exec(CLAMP, space)  # noqa: S102 - the reference: CPython on the canonical
    assert repr(eval(guard.distinguishing_input, space)) == guard.canonical_output  # noqa: S307
    mutant: dict = {}
    exec(guard.code, mutant)  # noqa: S102
    assert repr(eval(guard.distinguishing_input, mutant)) == guard.mutant_output  # noqa: S307
    assert any("weak suite" in r for r in weak.reasons)
    assert any("likely equivalent" in r and "seed 0" in r for r in weak.reasons)
    # the suite plus the suggested tests: the canonical passes, every weak survivor dies
    assert weak.suggested_tests
    stronger = [*weak.tests, *(t.test for t in weak.suggested_tests)]
    assert oracle.run(CLAMP, stronger).passed
    for k, s in enumerate(weak.survivors):
        dies = not oracle.run(s.code, stronger).passed
        assert dies == (s.verdict == "weak")
        assert (k in {i for t in weak.suggested_tests for i in t.kills}) == dies
    # equivalent survivors do not count against the suite
    counted = weak.mutants - len(weak.equivalent_survivors)
    assert weak.mutation_score == pytest.approx(weak.killed / counted)


def test_failing_canonical_tops_the_queue(oracle: Oracle) -> None:
    bench = _bench()
    broken = Query("q_broken", "Double every item.", "double", "collections",
                   ("assert double([1]) == [2]", "assert double([3]) == [7]"), ("c_4",))
    bench = Benchmark([*bench.queries, broken],
                      [*bench.corpus, Snippet("c_4", "q_broken", "canonical", None, "", DOUBLE)])
    audit = run_audit(bench, oracle, seeds=0)
    top = audit.queries[0]
    assert top.query_id == "q_broken" and top.canonical_fails
    assert top.reasons[0] == "the canonical fails test 2"


def test_cancel_raises(oracle: Oracle) -> None:
    with Oracle(cache=None, workers=1) as fresh, pytest.raises(CancelledError):
        run_audit(_bench(), fresh, seeds=0, should_stop=lambda: True)


def test_cli_audit_writes_html_md_json(tmp_path: Path, tiny_dir: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "a.html"
    assert cli(["audit", str(tiny_dir), "--seeds", "0", "--limit", "1", "--timeout", "2",
                "--out", str(html)]) == 0
    text = html.read_text()
    assert "<script" not in text and "Suite audit" in text and "lowest_set_bit" in text
    capsys.readouterr()
    assert cli(["audit", str(tiny_dir), "--seeds", "0", "--limit", "1", "--timeout", "2",
                "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["settings"]["limit"] == 1 and len(data["queries"]) == 1
    md = tmp_path / "a.md"
    assert cli(["audit", str(tiny_dir), "--seeds", "0", "--limit", "1", "--timeout", "2",
                "--out", str(md)]) == 0
    assert md.read_text().startswith("# Suite audit")
    assert cli(["audit", str(tiny_dir), "--out", str(tmp_path / "a.pdf")]) == 2


def test_flaky_tests_match_cpython_under_each_hash_seed(oracle: Oracle) -> None:
    """A test whose outcome depends on set order is flaky exactly when CPython itself,
    run with PYTHONHASHSEED=0..5, gives it both outcomes."""
    import os
    import subprocess
    import sys

    firsts = []
    for seed in range(6):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        firsts.append(subprocess.run([sys.executable, "-c", "print(list({'a', 'b', 'c'})[0])"],
                                     env=env, capture_output=True, text=True,
                                     check=True).stdout.strip())
    code = "def uniq(xs):\n    return list(set(xs))\n"
    tests = ("assert uniq(['a', 'b', 'c'])[0] == 'a'", "assert len(uniq(['a', 'a'])) == 1")
    bench = Benchmark([Query("q1", "Unique items.", "uniq", "collections", tests, ("c1",))],
                      [Snippet("c1", "q1", "canonical", None, "", code)], name="flaky")
    [audit] = run_audit(bench, oracle, seeds=6).queries
    expect_flaky = len({f == "a" for f in firsts}) == 2
    assert audit.flaky_tests == ((1,) if expect_flaky else ())
    assert audit.canonical_fails == (not all(f == "a" for f in firsts))
    if expect_flaky:
        assert "flaky: test 1 changes outcome with the hash seed" in audit.reasons


def test_cli_suggest_and_apply_write_a_strengthened_copy(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    from execretrieval import load_benchmark, write_benchmark

    source = tmp_path / "bench"
    wrong = CLAMP.replace("return hi", "return lo")   # a distractor: fails test 2
    bench = Benchmark(
        [Query("q_weak", "Clamp x into [lo, hi].", "clamp", "math-numerical", WEAK, ("c_1",)),
         Query("q_double", "Double every item.", "double", "collections",
               ("assert double([1, 2]) == [2, 4]",), ("c_3",))],
        [Snippet("c_1", "q_weak", "canonical", None, "", CLAMP),
         Snippet("c_2", "q_weak", "distractor", "wrong_operator", "hi -> lo", wrong),
         Snippet("c_3", "q_double", "canonical", None, "", DOUBLE)], name="clamps")
    write_benchmark(bench, source, {"name": "clamps"})
    before = {p.name: p.read_bytes() for p in source.iterdir()}
    out = tmp_path / "strong"
    assert cli(["audit", str(source), "--seeds", "0", "--suggest",
                "--apply-suggestions", str(out)]) == 0
    text = capsys.readouterr().out
    assert "suggested tests:" in text and "q_weak clamp:" in text and "kills " in text
    assert "all gates passed" in text and "PASS    distractor_execution" in text
    assert {p.name: p.read_bytes() for p in source.iterdir()} == before  # untouched
    copy = load_benchmark(out)
    added = copy.manifest["strengthened"]["added"]
    assert set(added) >= {"q_weak"} and copy.manifest["strengthened"]["from"] == "clamps"
    # no seed file to rebuild from: the copy and the output say the choice was not redone
    choice = copy.manifest["strengthened"]["distractor_choice"]
    assert choice["recomputed"] is False and "not built from a seed file" in choice["reason"]
    assert "distractor choice not recomputed: clamps was not built from a seed file" in text
    weak = copy.query("q_weak")
    assert weak.test_suite[:len(WEAK)] == WEAK and list(weak.test_suite[len(WEAK):]) == \
        added["q_weak"]
    for test in added["q_weak"]:
        assert f"  {test}" in text  # what --suggest printed is what was added
    # a second audit of the copy: no survivor of q_weak that an input tells apart is left
    assert cli(["audit", str(out), "--seeds", "0", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    [q] = [q for q in again["queries"] if q["query_id"] == "q_weak"]
    assert all(s["verdict"] == "likely_equivalent" for s in q["survivors"])
    assert q["suggested_tests"] == []
    # the copy is never written over
    assert cli(["audit", str(source), "--seeds", "0", "--apply-suggestions", str(out)]) == 2
