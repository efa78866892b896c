"""The consensus stage on generated inputs: seeded, from the visible tests only, blind to
which candidate is the canonical, and able to tell apart mutants the visible calls cannot;
with the real sandboxed oracle on a small benchmark written to disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import PipelineNameError, Split, rank_system, system_cost

CLAMP = "def clamp(x):\n    return max(0, min(x, {hi}))\n"
# the canonical and three mutants that pass both visible tests and fail a held-out one
SNIPPETS = [
    ("c_0001", "canonical", CLAMP.format(hi=10)),
    ("c_0002", "distractor", CLAMP.format(hi=11)),
    ("c_0003", "distractor", CLAMP.format(hi=9)),
    ("c_0004", "distractor", "def clamp(x):\n    return max(1, min(x, 10))\n"),
    ("c_0005", "canonical", "def triple(x):\n    return 3 * x\n"),
    ("c_0006", "distractor", "def triple(x):\n    return 3 * x + (x > 7)\n"),
]
# held-out tests carry values found nowhere else: none may reach the stage
SENTINELS = ("424242", "777777", "31337", "94011")
SUITES = {
    "q_0001": ["assert clamp(5) == 5", "assert clamp(3) == 3",
               "assert clamp(424242) == 10", "assert clamp(-777777) == 0"],
    "q_0002": ["assert triple(2) == 6", "assert triple(31337) == 94011"],
}


def _write(folder: Path, canonical: dict[str, str], tied: bool = False) -> Path:
    folder.mkdir()
    with open(folder / "queries.jsonl", "w") as out:
        for qid, name in (("q_0001", "clamp"), ("q_0002", "triple")):
            out.write(json.dumps({"query_id": qid, "query": f"{name} a number",
                                  "function_name": name, "domain": "math-numerical",
                                  "test_suite": SUITES[qid],
                                  "correct_corpus_ids": [canonical[qid]]}) + "\n")
    with open(folder / "corpus.jsonl", "w") as out:
        for cid, _, code in SNIPPETS:
            qid = "q_0001" if "clamp" in code else "q_0002"
            role = "canonical" if canonical[qid] == cid else "distractor"
            out.write(json.dumps({"corpus_id": cid, "query_id": qid, "role": role,
                                  "bug_type": None if role == "canonical" else "off_by_one",
                                  "bug_description": "" if role == "canonical" else "edit",
                                  "code": code}) + "\n")
    # the first stage ranks every mutant above its canonical
    (folder / "base.trec").write_text("".join(
        f"{qid} Q0 {cid} {r} {1 if tied else 10 - r} base\n" for qid, ids in
        (("q_0001", ["c_0002", "c_0003", "c_0004", "c_0001"]), ("q_0002", ["c_0006", "c_0005"]))
        for r, cid in enumerate(ids, start=1)))
    return folder


def _split(benchmark) -> Split:
    visible = {"q_0001": (0, 1), "q_0002": (0,)}
    return Split(0, 0.5, visible, {q.query_id: q.test_suite for q in benchmark.queries})


@pytest.fixture(scope="module")
def oracle():
    with Oracle(workers=2, cache=None) as made:
        yield made


def _first(ranking, benchmark, q: int) -> list[str]:
    return [benchmark.corpus[j].corpus_id for j in ranking.top(q, 4)]


def test_generated_inputs_find_the_centre_the_visible_calls_cannot(tmp_path, oracle) -> None:
    tied = load_benchmark(_write(tmp_path / "t", {"q_0001": "c_0001", "q_0002": "c_0005"},
                                 tied=True))
    ranked = load_benchmark(_write(tmp_path / "r", {"q_0001": "c_0001", "q_0002": "c_0005"}))
    split = _split(tied)
    got = {}
    for name, benchmark in (("t", tied), ("r", ranked)):
        for inputs in (0, 50):
            got[name, inputs] = rank_system(
                benchmark, f"{tmp_path / name}/base.trec+consensus:inputs={inputs}",
                oracle=oracle, split=split)
    # on 5 and 3 the four clamps answer alike: one group, the base's order kept
    for name in ("t", "r"):
        assert got[name, 0].logs[0].per_query["q_0001"]["groups"] == 1
    assert len(set(got["t", 0].keys[0, :4].tolist())) == 1                  # still tied
    assert _first(got["r", 0], ranked, 0) == ["c_0002", "c_0003", "c_0004", "c_0001"]
    # around them (0, 9, 10, 11, big and negative numbers) the canonical agrees with each
    # mutant more often than the mutants agree with each other: with no prior it is first
    # alone, and under a base that ranks it last it rises
    assert got["t", 50].logs[0].per_query["q_0001"]["groups"] == 4
    top = got["t", 50].keys[0]
    assert _first(got["t", 50], tied, 0)[0] == "c_0001" and top[0] > max(top[1:4])
    assert _first(got["r", 50], ranked, 0).index("c_0001") < 3
    # two candidates that differ are symmetric: agreement cannot choose between them
    assert got["t", 50].logs[0].per_query["q_0002"]["groups"] == 2
    assert got["t", 50].keys[1, 0] == got["t", 50].keys[1, 1]
    log = got["t", 50].logs[0]
    assert log.per_query["q_0001"]["generated_inputs"] > 10
    cost = system_cost(got["t", 50])["stages"][0]
    assert cost["notes"]["inputs"] == 50   # cache=None: every generated suite really ran
    assert cost["counts"]["input_executions"] > 0
    assert cost["executions"] > system_cost(got["t", 0])["stages"][0]["executions"]


def test_inputs_are_seeded_and_the_canonical_label_changes_nothing(tmp_path, oracle) -> None:
    one = load_benchmark(_write(tmp_path / "one", {"q_0001": "c_0001", "q_0002": "c_0005"}))
    # the same snippets with a mutant labelled canonical and the canonical a distractor
    two = load_benchmark(_write(tmp_path / "two", {"q_0001": "c_0003", "q_0002": "c_0006"}))
    got = []
    for benchmark, folder, seed in ((one, tmp_path / "one", 0), (two, tmp_path / "two", 0),
                                    (one, tmp_path / "one", 7)):
        ranking = rank_system(benchmark, f"{folder}/base.trec+consensus:inputs=30,seed={seed}",
                              oracle=oracle, split=_split(benchmark))
        got.append((ranking.order.tolist(), ranking.keys.tolist(),
                    ranking.logs[0].per_query["q_0001"]["generated_inputs"]))
    assert got[0] == got[1]
    assert got[0][2] == 30 and got[2][2] == 30


def test_no_held_out_argument_or_expected_value_reaches_the_stage(tmp_path, oracle,
                                                                   monkeypatch) -> None:
    folder = _write(tmp_path / "b", {"q_0001": "c_0001", "q_0002": "c_0005"})
    benchmark = load_benchmark(folder)
    sent: list[tuple[str, list[str]]] = []
    real = Oracle.run_many

    def recording(self, jobs, **kwargs):  # noqa: ANN001, ANN202 - a test double's spy
        jobs = [(code, list(tests)) for code, tests in jobs]
        sent.extend(jobs)
        return real(self, jobs, **kwargs)

    monkeypatch.setattr(Oracle, "run_many", recording)   # the derived oracles too
    rank_system(benchmark, f"{folder}/base.trec+consensus:inputs=100", oracle=oracle,
                split=_split(benchmark))
    texts = [t for code, tests in sent for t in (code, *tests)]
    assert len(sent) > 10 and sum("clamp(" in t for t in texts) > 50   # it did run
    held_out = {t for suite in SUITES.values() for t in suite[2 if "clamp" in suite[0] else 1:]}
    for text in texts:
        assert text not in held_out
        assert not any(s in text for s in SENTINELS), text


@pytest.mark.parametrize("option, says", [("inputs=-1", "0 or more"), ("inputs=x", "whole"),
                                          ("seed=1.5", "whole"), ("samples=3", "inputs")])
def test_bad_input_options_name_the_option(tmp_path, option: str, says: str) -> None:
    folder = _write(tmp_path / "b", {"q_0001": "c_0001", "q_0002": "c_0005"})
    benchmark = load_benchmark(folder)
    with pytest.raises(PipelineNameError, match=says):
        rank_system(benchmark, f"{folder}/base.trec+consensus:{option}", oracle=object(),
                    split=_split(benchmark))
