"""Reports as pandas DataFrames, and the CSV report written through them."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _rankdata import CanonicalOracle, small_benchmark

from execretrieval.measure.analysis import pairs
from execretrieval.measure.ties import rank_range, ties_across_cut
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.frames import evaluation_frame, per_query_frame
from execretrieval.report.writers import report_csv


@pytest.fixture
def report_and_bench(tmp_path: Path):
    bench = small_benchmark(tmp_path / "small")
    report = evaluate_models(bench, ["bm25", "tfidf"], CanonicalOracle(bench), n_boot=200,
                             seed=5, exclude={"q3"})
    return report, bench


# The csv-module writer of the tie-aware report (main's report_csv before the CSV went
# through pandas), kept verbatim as the reference the frame must reproduce byte for byte.
def _cell(value: Any) -> Any:
    if isinstance(value, float | np.floating):
        return "" if not math.isfinite(float(value)) else repr(float(value))
    return value


def _reference_csv(report, benchmark=None) -> str:
    """One row per (model, query): rank-1 candidate, canonical rank, deception, metrics.

    With tied scores the rank-1 candidate is the one the corpus order puts first and
    ``rank1_tied`` says how many share its score; ``canonical_rank`` / ``canonical_rank_worst``
    are the best and worst rank the canonical takes over the orders of its ties;
    ``deceived`` is the figure under the report's tie policy, ``deceived_strict`` /
    ``deceived_tied`` the two classes; ``tied_at_k`` marks a tie across the top-k cut;
    ``exec@k:pessimistic`` / ``:optimistic`` are the query's figures with ties broken
    against / for correct code."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    evaluations = list(report.models.items())
    metric_keys = list(evaluations[0][1].per_query) if evaluations else []
    ks = list(evaluations[0][1].ks) if evaluations else []
    bound_keys = [f"exec@{k}:{p}" for k in ks for p in ("pessimistic", "optimistic")]
    writer.writerow(["model", "query_id", "function_name", "domain", "rank1_corpus_id",
                     "rank1_role", "rank1_bug_type", "rank1_tied", "canonical_rank",
                     "canonical_rank_worst", "canonical_tied_with", "deceived",
                     "deceived_strict", "deceived_tied", *(f"tied_at_{k}" for k in ks),
                     *metric_keys, *bound_keys])
    for name, ev in evaluations:
        ranking = ev.ranking
        bench = benchmark
        extra = ev.per_query_extra
        tied_at = {k: ties_across_cut(ranking, k) for k in ks} if ranking is not None else {}
        canon = pairs(bench).canonical if bench is not None else None
        for i, qid in enumerate(ev.query_ids):
            row: list[Any] = [name, qid]
            if ranking is not None and bench is not None and canon is not None:
                qi = bench.query_index(qid)
                query = bench.queries[qi]
                top_j = int(ranking.order[qi, 0])
                top = bench.corpus[top_j]
                listed = top_j >= 0
                rank1 = [top.corpus_id, top.role, top.bug_type or "",
                         int(rank_range(ranking, qi, [top_j])[1][0])] if listed \
                    else ["", "", "", ""]
                c = int(canon[qi])
                score = ranking.score_of(qi, c) if c >= 0 else None
                if score is not None and score > -math.inf:
                    best, worst = rank_range(ranking, qi, [c])
                    own = [bench.corpus_index(s.corpus_id)
                           for s in bench.distractors_for(qid)]
                    tied_with = int(sum(ranking.score_of(qi, d) == ranking.score_of(qi, c)
                                        for d in own))
                    canon_cells: list[Any] = [int(best[0]), int(worst[0]), tied_with]
                else:
                    canon_cells = ["", "", ""]
                row += [query.function_name, query.domain, *rank1, *canon_cells]
                row += [_cell(extra[key][i]) if key in extra else ""
                        for key in ("deceived", "deceived_strict", "deceived_tied")]
                row += [int(tied_at[k][qi]) for k in ks]
            else:
                row += [""] * (12 + len(ks))
            row += [_cell(ev.per_query[m][i]) for m in metric_keys]
            row += [_cell(extra[key][i]) if key in extra else "" for key in bound_keys]
            writer.writerow(row)
    return out.getvalue()



def test_csv_is_written_through_the_frame_byte_for_byte(report_and_bench) -> None:
    report, bench = report_and_bench
    assert report_csv(report, bench) == _reference_csv(report, bench)
    assert report_csv(report) == _reference_csv(report)


def test_frames_hold_the_report_figures(report_and_bench) -> None:
    report, bench = report_and_bench
    frames = report.to_frames(bench)
    assert set(frames) == {"per_query", "metrics", "models", "exec1_by_domain",
                           "deception_by_bug_type", "density_ablation", "comparisons"}
    per_query = frames["per_query"]
    assert list(per_query[["model", "query_id"]].itertuples(index=False, name=None)) == [
        ("bm25", "q1"), ("bm25", "q2"), ("tfidf", "q1"), ("tfidf", "q2")]
    assert per_query["canonical_rank"].dtype == "Int64"
    for name, ev in report.models.items():
        rows = per_query[per_query["model"] == name]
        for metric, values in ev.per_query.items():
            np.testing.assert_array_equal(rows[metric].to_numpy(), values)
        # the mean of the per-query column is the headline figure
        table = frames["metrics"].set_index(["model", "metric"])
        for metric, ci in ev.metrics.items():
            assert table.loc[(name, metric), "mean"] == pytest.approx(ci.mean)
            assert rows[metric].mean() == pytest.approx(ci.mean)
    models = frames["models"]
    assert models.loc["bm25", "queries"] == 2
    assert frames["density_ablation"].columns.tolist() == ["0", "1", "2", "3", "4"]
    assert frames["comparisons"].loc[0, "a"] == "bm25"


def test_evaluation_frame_without_the_benchmark_has_na_details(report_and_bench) -> None:
    report, _ = report_and_bench
    frame = evaluation_frame(report.models["bm25"])
    assert frame.index.name == "query_id" and frame.index.tolist() == ["q1", "q2"]
    assert frame["function_name"].isna().all() and frame["canonical_rank"].isna().all()
    text = report_csv(report)
    assert text.splitlines()[1].startswith("bm25,q1,,,,,,,,,,,,")
    assert isinstance(per_query_frame(report), pd.DataFrame)
