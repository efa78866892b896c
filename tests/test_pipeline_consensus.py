"""The consensus stage: probes from the visible tests' calls, agreement without expected
outputs, with the real oracle on the bundled benchmark."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from conftest import DATA, LOOP_LIMIT, LOOP_LIMITS
from execretrieval.benchmark.dataset import Benchmark, load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import SplitRequiredError, make_split, rank_system
from execretrieval.pipeline.consensus import agreement, call_probes, defines, prior_weights


def test_probes_are_the_outermost_calls_of_the_target_function() -> None:
    tests = ("assert f(1) == 2", "assert f(f(3)) == [1, 2]",
             "with pytest.raises(ValueError):\n    f(-1)", "assert g(1) == f(2)",
             "assert f(1) == 2")
    assert call_probes(tests, "f") == ("assert False, repr(f(1))",
                                       "assert False, repr(f(f(3)))",
                                       "assert False, repr(f(-1))",
                                       "assert False, repr(f(2))")
    assert defines("def f(x):\n    return x\n", "f")
    assert not defines("def g(x):\n    return x\n", "f") and not defines("def f(:", "f")


def test_agreement_is_weighted_agreement_with_every_candidate_itself_included() -> None:
    a, b, c = ("fail", "1"), ("fail", "2"), ("error", "ValueError: x")
    behaviour = [(a, a), (a, b), None, (a, a), (c, b)]
    got = agreement(behaviour)
    expected = []
    for mine in behaviour:
        total = 0.0
        for j, theirs in enumerate(behaviour):
            if mine is None or theirs is None:
                continue
            total += np.mean([x == y for x, y in zip(mine, theirs, strict=True)]) / (j + 1)
        expected.append(total)
    np.testing.assert_allclose(got, expected)
    assert got[2] == 0.0
    # candidates that behave alike score alike, whatever their previous ranks
    same = agreement([(a, b), (a, a), (a, b), (c, c), (a, b)])
    assert same[0] == same[2] == same[4] and same[1] < same[0]


def test_prior_weights_give_a_tied_group_its_mean_rank() -> None:
    np.testing.assert_allclose(prior_weights(np.array([9.0, 7.0, 7.0, 7.0, 1.0])),
                               [1, 1 / 3, 1 / 3, 1 / 3, 1 / 5])
    np.testing.assert_allclose(agreement([(1,), (1,), (2,)], prior_weights(np.ones(3))),
                               [1.0, 1.0, 0.5])


@pytest.fixture(scope="module")
def small() -> Benchmark:
    full = load_benchmark(DATA / "builtin")
    return Benchmark(full.queries[:10], full.corpus, name="builtin-10", path=full.path)


def test_consensus_needs_a_split(small: Benchmark) -> None:
    with pytest.raises(SplitRequiredError, match="--visible"):
        rank_system(small, "minilm+consensus")


@pytest.mark.slow
def test_consensus_never_reads_expected_outputs(small: Benchmark) -> None:
    """Replacing every expected value in the tests changes nothing the stage does."""
    def blind(test: str) -> str:
        head, sep, _ = test.partition(" == ")
        return f"{head} == 'nonsense'" if sep else test

    garbled = Benchmark([dataclasses.replace(q, test_suite=tuple(blind(t) for t in q.test_suite))
                         for q in small.queries], small.corpus, path=small.path)
    # a 2 s limit: an input on which the donor loops (gray_code_sequence(2**31)) costs the
    # limit each time, and nothing this test compares depends on the limit
    with Oracle(workers=2, timeout=LOOP_LIMIT, limits=LOOP_LIMITS) as oracle:
        one = rank_system(small, "minilm+consensus", keep=800, oracle=oracle,
                          split=make_split(small, 0.5, seed=0))
        two = rank_system(garbled, "minilm+consensus", keep=800, oracle=oracle,
                          split=make_split(garbled, 0.5, seed=0))
        base = rank_system(small, "minilm", keep=800)
    assert one.order.tolist() == two.order.tolist()
    assert one.order[:, 10:].tolist() == base.order[:, 10:].tolist()   # rest in order
    for q in range(len(small.queries)):
        assert set(one.top(q, 10)) == set(base.top(q, 10))
    logs = one.logs[0].per_query
    # per candidate: the visible calls' suite, then the 50 generated inputs in chunks of 40
    assert all(entry["executions"] <= 10 * 3 for entry in logs.values())
    assert any(entry["generated_inputs"] > 0 for entry in logs.values())
