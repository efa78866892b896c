"""TREC runs and qrels: export then import gives the same ranking; bad files name the line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _rankdata import CanonicalOracle, small_benchmark

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.errors import InputFormatError, ModelNotFoundError
from execretrieval.measure.analysis import deception_per_query
from execretrieval.measure.metrics import evaluate, execution_matrix
from execretrieval.ranking.ranking import Ranking
from execretrieval.ranking.registry import rank
from execretrieval.ranking.trec import from_qrels, from_run, qrels_text, to_qrels, to_run


def test_export_then_import_gives_the_same_ranking(tiny_dir: Path, tmp_path: Path) -> None:
    bench = load_benchmark(tiny_dir)
    original = rank(bench, "bm25")
    to_run(tmp_path / "bm25.trec", bench, original)
    back = rank(bench, str(tmp_path / "bm25.trec"))
    assert back.model == "bm25"
    assert np.array_equal(back.order, original.order)
    assert np.array_equal(back.keys, original.keys)
    assert np.array_equal(back.known_scores(), original.known_scores())


def test_ties_survive_the_round_trip(tmp_path: Path) -> None:
    bench = small_benchmark()
    original = Ranking.from_scores("tied", np.zeros((3, 6)))
    to_run(tmp_path / "tied.run", bench, original, depth=4)
    back = rank(bench, str(tmp_path / "tied.run"))
    assert np.array_equal(back.order[:, :4], original.order[:, :4])


def test_run_lines_follow_the_trec_format(tmp_path: Path) -> None:
    bench = small_benchmark()
    ranking = Ranking.from_scores("my model", np.arange(18, dtype=float).reshape(3, 6))
    to_run(tmp_path / "r.trec", bench, ranking, depth=2)
    lines = (tmp_path / "r.trec").read_text().splitlines()
    assert lines[0] == "q1 Q0 c3 1 5.0 my_model"
    assert lines[1] == "q1 Q0 d2a 2 4.0 my_model"
    assert len(lines) == 6


def test_unlisted_snippets_rank_after_listed_ones_in_corpus_order(tmp_path: Path) -> None:
    run = tmp_path / "partial.trec"
    run.write_text("q1 Q0 d1b 1 3.5 sys\nq1 Q0 c2 2 -1 sys\n")
    scores = from_run(run, small_benchmark())
    ranking = Ranking.from_scores("partial", scores)
    assert ranking.top(0, 6).tolist() == [2, 3]   # only what was listed is stored
    assert [ranking.rank_of(0, j) for j in range(6)] == [3, 4, 1, 2, 5, 6]
    assert ranking.score_of(0, 0) == -np.inf
    assert np.isinf(scores[1]).all()


@pytest.mark.parametrize(("content", "message"), [
    ("q1 Q0 c1 1 0.5\n", r"bad\.trec:1: expected 6 columns"),
    ("q1 Q0 c1 1 0.5 t\nq9 Q0 c1 2 0.4 t\n", r"bad\.trec:2: field 'qid': unknown query id"),
    ("q1 Q0 zz 1 0.5 t\n", r"bad\.trec:1: field 'docid': unknown corpus id 'zz'"),
    ("q1 Q0 c1 1 high t\n", r"bad\.trec:1: field 'score': score 'high' is not a number"),
    ("q1 Q0 c1 x 0.5 t\n", r"bad\.trec:1: field 'rank'"),
    ("q1 Q0 c1 1 0.5 t\n\nq1 Q0 c1 2 0.4 t\n", r"bad\.trec:3: .*already listed on line 1"),
    ("", r"lists no results"),
    ("q1 Q0 c1 1 -inf t\n", r"bad\.trec:1: field 'score': score '-inf' is not a finite"),
])
def test_bad_run_files_name_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    run = tmp_path / "bad.trec"
    run.write_text(content)
    with pytest.raises(InputFormatError, match=message):
        from_run(run, small_benchmark())


def test_missing_run_file(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError):
        from_run(tmp_path / "none.trec", small_benchmark())


def test_qrels_list_every_correct_id(tmp_path: Path) -> None:
    bench = small_benchmark()
    assert qrels_text(bench) == "q1 0 c1 1\nq2 0 c2 1\nq3 0 c3 1\n"
    to_qrels(tmp_path / "qrels.txt", bench)
    assert from_qrels(tmp_path / "qrels.txt") == {"q1": {"c1"}, "q2": {"c2"}, "q3": {"c3"}}


def _run_evaluation(tmp_path: Path, content: str):
    bench = small_benchmark()
    run = tmp_path / "partial.trec"
    run.write_text(content)
    ranking = rank(bench, str(run))
    oracle = CanonicalOracle(bench)
    passes = execution_matrix(bench, ranking, oracle, depth=5)
    return bench, ranking, oracle, evaluate(bench, ranking, passes, ks=(1, 3, 5), n_boot=10)


def test_a_query_the_run_leaves_out_scores_zero(tmp_path: Path) -> None:
    # q1 is not in the run; its canonical c1 is first in corpus order, so the unlisted
    # filler once put it at rank 1 and gave q1 a hit the outside system never made
    bench, ranking, oracle, ev = _run_evaluation(
        tmp_path, "q2 Q0 c2 1 2.0 sys\nq3 Q0 c3 1 2.0 sys\n")
    for name in ("exec@1", "exec@5", "execp@5", "ndcg@5"):
        assert ev.per_query[name][0] == 0.0, name
    assert ev.metrics["exec@1"].mean == pytest.approx(2 / 3)
    assert ev.density_ablation["0"] == pytest.approx(2 / 3)
    assert ranking.lengths[0] == 0 and not ranking.listed[0].any()
    assert all(tests != bench.queries[0].test_suite for _, tests in oracle.jobs)


def test_a_shallow_run_gets_no_credit_past_its_end(tmp_path: Path) -> None:
    bench, ranking, oracle, ev = _run_evaluation(
        tmp_path, "q1 Q0 d1a 1 2.0 sys\nq2 Q0 c2 1 2.0 sys\nq3 Q0 c3 1 2.0 sys\n")
    assert ev.per_query["exec@5"][0] == 0.0  # c1 lies past the run's single line for q1
    assert ev.per_query["ndcg@5"][0] == 0.0
    assert len(oracle.jobs) == 3  # only listed snippets are executed
    to_run(tmp_path / "again.trec", bench, ranking, depth=6)
    assert len((tmp_path / "again.trec").read_text().splitlines()) == 3
    assert "inf" not in (tmp_path / "again.trec").read_text()


def test_deception_is_not_judged_on_pairs_the_run_never_ranked(tmp_path: Path) -> None:
    # q1: only its distractor d1a is listed, so the canonical is below it: deceived.
    # q2: left out of the run: neither c2 nor d2a is ranked, so deception is unknown
    # and q2 is left out of the rate rather than counted as 'not deceived'.
    bench, ranking, _, ev = _run_evaluation(
        tmp_path, "q1 Q0 d1a 1 2.0 sys\nq3 Q0 c3 1 2.0 sys\n")
    per_query = deception_per_query(bench, ranking)
    assert per_query[0] == 1.0 and np.isnan(per_query[1]) and np.isnan(per_query[2])
    assert ev.deception_rate == 1.0
    assert ev.deception_by_bug_type["off_by_one"] == 1.0
    assert np.isnan(ev.deception_by_bug_type["swap_arguments"])  # q2's pair, unranked
    assert np.isnan(ev.deception_by_bug_type["wrong_operator"])  # d1b unranked, c1 too
