"""Pairwise boundary inputs come on top of the random share, never in its place: every
verdict the seeded type-aware mutation finds is still found with the pairs. Real bundled
data, real sandbox; the verdicts checked against the canonical and the mutant run by
CPython in this process."""

from __future__ import annotations

import pytest

from conftest import DATA
from execretrieval import MemoryCache, Oracle, load_benchmark
from execretrieval.audit import run_audit
from execretrieval.inputs import InputTask, build_input_sets
from execretrieval.inputs import cases as cases_module


@pytest.fixture(scope="module")
def oracle():
    with Oracle(cache=MemoryCache(), workers=2) as o:
        yield o


@pytest.fixture(scope="module")
def builtin():
    return load_benchmark(DATA / "builtin")


def _query(bench, name: str):
    [query] = [q for q in bench.queries if q.function_name == name]
    [code] = [s.code for s in bench.corpus if s.query_id == query.query_id and s.is_canonical]
    return query, code


def _in_process(code: str, call: str):
    """What CPython gives for ``call`` on ``code``: ("return", value) or ("raises", type)."""
    namespace: dict = {}
    exec(code, namespace)   # the bundled canonical or one of its mutants
    try:
        return "return", eval(call, namespace)
    except Exception as exc:  # noqa: BLE001 - the exception type is the answer
        return "raises", type(exc).__name__


def test_pairs_never_displace_a_randomly_mutated_input(oracle: Oracle, builtin,
                                                       monkeypatch) -> None:
    """The same task with and without the pairwise stage: every case found without the
    pairs is among those found with them, and the pairs add at most 45% of n."""
    query, code = _query(builtin, "is_valid_isbn10")
    task = InputTask(code, query.function_name, tuple(query.test_suite))
    [with_pairs] = build_input_sets(oracle, [task], n=100, seed=0)
    monkeypatch.setattr(cases_module, "pairwise", lambda *a, **k: [])
    [without] = build_input_sets(oracle, [task], n=100, seed=0)
    monkeypatch.undo()
    calls_with = {c.call for c in with_pairs.cases}
    calls_without = {c.call for c in without.cases}
    assert calls_without <= calls_with, sorted(calls_without - calls_with)[:5]
    assert len(without.cases) >= 90   # nearly all of the 100 answered by the canonical
    assert len(with_pairs.cases) <= len(without.cases) + 45


def test_random_mutation_verdicts_survive_the_pairs(oracle: Oracle, builtin) -> None:
    """Two builtin survivors only random mutation tells apart at seed 0: is_valid_isbn10's
    `and` -> `or` (an 'X' first character is accepted) and is_hex_color_code without its
    '#' guard. Both are weak, with the canonical's and the mutant's outputs as CPython
    gives them."""
    wanted = {"is_valid_isbn10": "`and` changed to `or`",
              "is_hex_color_code": "startswith(\"#\")"}
    ids = [q.query_id for q in builtin.queries if q.function_name in wanted]
    audit = run_audit(builtin, oracle, seeds=0, query_ids=ids, inputs=100, input_seed=0)
    by_name = {q.function_name: q for q in audit.queries}
    for name, marker in wanted.items():
        _, canonical = _query(builtin, name)
        [survivor] = [s for s in by_name[name].survivors if marker in s.description]
        assert survivor.verdict == "weak", (name, survivor.verdict, survivor.inputs_tried)
        call = survivor.distinguishing_input
        expected, got = _in_process(canonical, call), _in_process(survivor.code, call)
        assert expected != got, call
        assert expected == ("return", False) and got == ("return", True), (call, expected, got)
        assert survivor.canonical_output == "False" and survivor.mutant_output == "True"
        assert any(by_name[name].survivors.index(survivor) in t.kills
                   for t in by_name[name].suggested_tests)
