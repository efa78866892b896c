"""The exec stage and held-out judgement, with the real sandboxed oracle on the bundled
benchmark, checked against a brute-force re-reading of the rule."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import DATA
from execretrieval.benchmark.dataset import Benchmark, load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import (
    SplitRequiredError,
    held_out_benchmark,
    make_split,
    rank_system,
    system_cost,
)
from execretrieval.report.evaluation import evaluate_models

BUILTIN = DATA / "builtin"


@pytest.fixture(scope="module")
def small() -> Benchmark:
    """Twelve queries of the bundled benchmark against its whole 800-snippet corpus."""
    full = load_benchmark(BUILTIN)
    return Benchmark(full.queries[:12], full.corpus, name="builtin-12", path=full.path)


def test_an_executing_stage_refuses_to_run_without_a_split(small: Benchmark) -> None:
    with pytest.raises(SplitRequiredError, match="--visible"):
        rank_system(small, "bm25+exec")


def test_exec_reorders_the_first_depth_candidates_by_the_visible_tests(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    with Oracle(workers=2) as oracle:
        base = rank_system(small, "bm25", keep=800)
        piped = rank_system(small, "bm25+exec:depth=6", keep=800, oracle=oracle, split=split)
        executions = 0
        for q, query in enumerate(small.queries):
            before = base.top(q, 800)
            tests = split.visible_tests(query.query_id)
            # the first 6, and every candidate tied with the 6th (the tie group whole)
            sixth = base.keys[q, 5]
            first = before[:6 + int((base.keys[q, 6:len(before)] == sixth).sum())]
            d = len(first)
            executions += d
            keys = []
            for pos, j in enumerate(first):
                result = oracle.run(small.corpus[int(j)].code, tests)
                passed = sum(o.status == "pass" for o in result.outcomes)
                prev = len({float(base.keys[q, p]) for p in range(pos + 1)}) - 1
                keys.append((passed == len(tests), passed, -prev))
            expected = [int(first[i]) for i in sorted(range(len(first)),
                                                      key=lambda i: tuple(-np.array(keys[i])))]
            after = piped.top(q, 800)
            assert list(after[:d]) == expected
            assert list(after[d:]) == list(before[d:])   # the rest below, in their order
            # candidates equal on all three keys stay tied, others do not
            for a in range(d):
                for b in range(d):
                    same = keys[first.tolist().index(after[a])] == \
                        keys[first.tolist().index(after[b])]
                    assert (piped.keys[q, a] == piped.keys[q, b]) == same
        cost = system_cost(piped)
        assert cost["executions"] == executions >= 6 * len(small.queries)
        # a second run answers from the cache
        again = rank_system(small, "bm25+exec:depth=6", keep=800, oracle=oracle, split=split)
        assert system_cost(again)["cache_hits"] == executions
        assert again.order.tolist() == piped.order.tolist()


def test_with_a_split_every_system_is_judged_on_held_out_tests(small: Benchmark) -> None:
    split = make_split(small, 0.5, seed=0)
    judged = held_out_benchmark(small, split)
    with Oracle(workers=2) as oracle:
        report = evaluate_models(small, ["bm25", "bm25+exec"], oracle, n_boot=200,
                                 ties="corpus", split=split)
        for name in ("bm25", "bm25+exec"):
            ev = report.models[name]
            ranking = ev.ranking
            assert ranking is not None
            brute = [float(oracle.run(small.corpus[int(ranking.top(q, 1)[0])].code,
                                      judged.queries[q].test_suite).passed)
                     for q in range(len(small.queries))]
            assert list(ev.per_query["exec@1"]) == brute
        data = report.to_dict()
    assert data["split"]["seed"] == 0
    assert data["split"]["visible"][small.queries[0].query_id] == \
        [i + 1 for i in split.visible[small.queries[0].query_id]]
    assert data["cost"]["bm25"]["executions"] == 0
    ranking = report.models["bm25"].ranking
    assert ranking is not None
    tenth = [(ranking.keys[q] >= ranking.keys[q, 9]).sum() for q in range(len(small.queries))]
    assert data["cost"]["bm25+exec"]["executions"] == sum(tenth)
    slip = data["cost"]["bm25+exec"]["slip_through"]
    assert slip["candidates"] == sum(len(v) for v in slip["per_query"].values())
    for qid, top in data["models"]["bm25+exec"]["top"].items():
        scores = data["models"]["bm25+exec"]["top_scores"][qid]
        assert len(top) == len(scores) >= 10
        # past 10 only the tie group at the cut; tied ids in id order
        assert all(s == scores[9] for s in scores[10:])
        assert all((-a, x) <= (-b, y) for a, b, x, y in
                   zip(scores, scores[1:], top, top[1:], strict=False))
    assert data["against_base"]["bm25+exec"]["base"] == "bm25"
    assert data["manifest"]["systems"]["bm25+exec"]["kind"] == "pipeline"


@pytest.mark.slow
def test_cli_evaluate_reports_pipelines_and_refuses_exec_without_split(tmp_path) -> None:
    out = tmp_path / "r.json"
    cmd = [sys.executable, "-m", "execretrieval.cli", "evaluate", str(BUILTIN),
           "--model", "bm25", "--model", "bm25+exec", "--bootstrap", "100"]
    refused = subprocess.run([*cmd, "--out", str(out)], capture_output=True, text=True)
    assert refused.returncode == 2
    assert "stage 'exec' executes tests" in refused.stderr and "--visible" in refused.stderr
    assert not out.exists()
    bad = subprocess.run([*cmd[:-4], "--model", "bm25+nope", "--out", str(out)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and \
        "unknown stage 'nope'; stages: api, consensus, cross-encoder, exec, llm" in bad.stderr
    done = subprocess.run([*cmd, "--visible", "0.5", "--split-seed", "0", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["models"]) == {"bm25", "bm25+exec"}
    assert data["settings"]["split"]["visible"] == 0.5
    assert len(data["split"]["visible"]) == 160
    assert data["cost"]["bm25+exec"]["executions_per_query"] >= 10
    assert "bm25+exec: exec@1 = " in done.stdout


def test_queries_left_without_held_out_tests_are_excluded_and_counted(small: Benchmark) -> None:
    split = make_split(small, 8, seed=0)
    empty = {q.query_id for q in small.queries if len(q.test_suite) <= 8}
    assert empty and empty != {q.query_id for q in small.queries}
    with Oracle(workers=2) as oracle:
        report = evaluate_models(small, ["bm25"], oracle, n_boot=100, split=split)
    ev = report.models["bm25"]
    assert set(ev.query_ids) == {q.query_id for q in small.queries} - empty
    assert report.settings["split"]["excluded_no_held_out"] == len(empty)
    assert set(report.to_dict()["split"]["excluded_no_held_out"]) == empty


@pytest.mark.parametrize("system", ["bm25+exec:depth=5", "bm25+consensus:depth=3,inputs=5"])
def test_a_stage_reports_progress_while_its_one_batch_runs(small: Benchmark, system) -> None:
    """Every query sits in one block (one oracle batch), so the count must move while the
    batch's suites finish, not jump from 0 to 12 at its end; and it only moves forward."""
    split = make_split(small, 0.5, seed=0)
    seen: list[tuple[int, int]] = []
    with Oracle(workers=2) as oracle:
        rank_system(small, system, oracle=oracle, split=split,
                    progress=lambda done, total: seen.append((done, total)))
    assert {total for _done, total in seen} == {12}
    counts = [done for done, _total in seen]
    assert counts == sorted(counts) and counts[-1] == 12
    assert len({c for c in counts if 0 < c < 12}) >= 3, seen


def test_a_pipeline_moves_while_its_inner_stage_runs(small: Benchmark) -> None:
    """In ``bm25+exec+exec`` the inner exec's batch runs before the outer one starts: the
    count moves during it (the first half of the bar), then during the outer's."""
    split = make_split(small, 0.5, seed=0)
    events: list[tuple[str, int]] = []

    class Recording(Oracle):
        def run_many(self, jobs, **kwargs):  # type: ignore[no-untyped-def]
            events.append(("batch", len(jobs)))
            return super().run_many(jobs, **kwargs)

    with Recording(workers=2) as oracle:
        rank_system(small, "bm25+exec:depth=5+exec:depth=3", oracle=oracle, split=split,
                    progress=lambda done, total: events.append(("done", done)))
    batches = [i for i, (kind, _) in enumerate(events) if kind == "batch"]
    assert len(batches) == 2, events
    during_inner = [n for kind, n in events[batches[0]:batches[1]] if kind == "done"]
    during_outer = [n for kind, n in events[batches[1]:] if kind == "done"]
    assert len(set(during_inner)) >= 2 and max(during_inner) <= 6, events
    assert min(during_outer) >= 6 and during_outer[-1] == 12, events
    counts = during_inner + during_outer
    assert counts == sorted(counts)
