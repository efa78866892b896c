"""Per-candidate stage detail (base rank, each stage's rank and score) and the stages' CPU
cost, against brute-force re-readings with the real oracle on the bundled benchmark."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import DATA, LOOP_LIMIT, LOOP_LIMITS
from execretrieval.benchmark.dataset import Benchmark, load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import make_split, rank_system, system_cost
from execretrieval.pipeline.cpu import descendants_cpu
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.pipelines import cost_points


@pytest.fixture(scope="module")
def small() -> Benchmark:
    full = load_benchmark(DATA / "builtin")
    return Benchmark(full.queries[:12], full.corpus, name="builtin-12", path=full.path)


def _rank(row: np.ndarray, j: int) -> int:
    return 1 + int((row[np.isfinite(row)] > row[j]).sum())


def test_exec_detail_is_base_rank_final_rank_and_visible_passed(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    with Oracle(workers=2) as oracle:
        base = rank_system(small, "bm25", keep=800).known_scores()
        piped = rank_system(small, "bm25+exec", keep=800, oracle=oracle, split=split)
        final = piped.known_scores()
        detail = piped.stage_detail()
        index = {s.corpus_id: j for j, s in enumerate(small.corpus)}
        for q, query in enumerate(small.queries):
            rows = detail[query.query_id]
            assert len(rows) >= 10
            tests = split.visible_tests(query.query_id)
            for row in rows:
                j = index[row["corpus_id"]]
                assert row["base_rank"] == _rank(base[q], j)
                assert row["final_rank"] == _rank(final[q], j)
                (stage,) = row["stages"]
                assert stage["stage"] == "exec" and stage["rank"] == row["final_rank"]
                passed = sum(o.status == "pass"
                             for o in oracle.run(small.corpus[j].code, tests).outcomes)
                assert stage["shown"] == f"{passed}/{len(tests)}"
                assert stage["score"] == pytest.approx(passed / len(tests))
            assert [r["final_rank"] for r in rows] == sorted(r["final_rank"] for r in rows)


@pytest.mark.slow
def test_two_stages_each_report_their_rank_and_score(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    # a 2 s limit: an input on which the donor loops (gray_code_sequence(2**31)) costs the
    # limit each time, and the stages' ranks do not depend on it
    with Oracle(workers=2, timeout=LOOP_LIMIT, limits=LOOP_LIMITS) as oracle:
        after_exec = rank_system(small, "minilm+exec", keep=800, oracle=oracle,
                                 split=split).known_scores()
        piped = rank_system(small, "minilm+exec+consensus:depth=5", keep=800, oracle=oracle,
                            split=split)
        detail = piped.stage_detail()
    index = {s.corpus_id: j for j, s in enumerate(small.corpus)}
    for q, query in enumerate(small.queries):
        rows = detail[query.query_id]
        both = [r for r in rows if len(r["stages"]) == 2]
        assert len(both) >= 5   # consensus saw exec's first five (and ties at the cut)
        for row in rows:
            assert row["stages"][0]["stage"] == "exec"
            assert row["stages"][0]["rank"] == _rank(after_exec[q], index[row["corpus_id"]])
        for row in both:
            assert row["stages"][1]["stage"] == "consensus"
            assert row["final_rank"] == row["stages"][1]["rank"]
            # a candidate that does not define the function never ran: score 0
            if row["stages"][1]["shown"] == "did not run":
                assert row["stages"][1]["score"] == 0.0


def test_the_stages_cpu_is_counted_in_the_cost(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    part = Benchmark(small.queries[:6], small.corpus, name="builtin-6", path=small.path)
    with Oracle(workers=2, cache=None) as oracle:
        before = descendants_cpu()
        cold = rank_system(part, "bm25+exec", oracle=oracle, split=split)
        spent = descendants_cpu() - before
    cost = system_cost(cold)
    assert cost["executions"] >= 60 and cost["cache_hits"] == 0
    # the sandbox's CPU is real and is what the descendants spent meanwhile
    assert 0 < cost["sandbox_cpu_seconds"] <= spent + 0.05
    assert cost["cpu_seconds"] > 0 and cost["wall_seconds"] > 0
    assert cost["stages"][0]["sandbox_cpu_seconds"] == cost["sandbox_cpu_seconds"]


def test_cost_points_put_each_pipeline_beside_its_base(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    with Oracle(workers=2) as oracle:
        report = evaluate_models(small, ["bm25", "bm25+exec"], oracle, n_boot=100,
                                 split=split)
    data = report.to_dict()
    points = {p["name"]: p for p in cost_points(data)}
    assert points["bm25"]["base"] == "" and points["bm25"]["cost"] == 0
    assert points["bm25+exec"]["base"] == "bm25"
    assert points["bm25+exec"]["cost"] == data["cost"]["bm25+exec"]["executions_per_query"]
    assert points["bm25+exec"]["mean"] == data["models"]["bm25+exec"]["metrics"]["exec@1"][
        "mean"]
    assert data["models"]["bm25+exec"]["stage_scores"] == {
        "exec": "visible tests passed / visible tests"}
