"""Reports as pandas DataFrames, and the CSV report written through them."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _rankdata import CanonicalOracle, small_benchmark

from execretrieval.measure.analysis import deception_per_query, pairs
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.frames import evaluation_frame, per_query_frame
from execretrieval.report.writers import report_csv


@pytest.fixture
def report_and_bench(tmp_path: Path):
    bench = small_benchmark(tmp_path / "small")
    report = evaluate_models(bench, ["bm25", "tfidf"], CanonicalOracle(bench), n_boot=200,
                             seed=5, exclude={"q3"})
    return report, bench


def _reference_csv(report, bench) -> str:
    """The CSV as the csv module writes it, cell by cell (the pre-pandas writer)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    metric_keys = list(next(iter(report.models.values())).per_query)
    writer.writerow(["model", "query_id", "function_name", "domain", "rank1_corpus_id",
                     "rank1_role", "rank1_bug_type", "canonical_rank", "deceived",
                     *metric_keys])
    canon = pairs(bench).canonical
    for name, ev in report.models.items():
        deceived = deception_per_query(bench, ev.ranking)
        for i, qid in enumerate(ev.query_ids):
            qi = bench.query_index(qid)
            top = bench.corpus[int(ev.ranking.order[qi, 0])]
            flag = deceived[qi]
            writer.writerow([name, qid, bench.queries[qi].function_name,
                             bench.queries[qi].domain, top.corpus_id, top.role,
                             top.bug_type or "", ev.ranking.rank_of(qi, int(canon[qi])),
                             "" if math.isnan(flag) else int(flag),
                             *(repr(float(ev.per_query[m][i])) for m in metric_keys)])
    return out.getvalue()


def test_csv_is_written_through_the_frame_byte_for_byte(report_and_bench) -> None:
    report, bench = report_and_bench
    assert report_csv(report, bench) == _reference_csv(report, bench)


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
    assert text.splitlines()[1].startswith("bm25,q1,,,,,,,,")
    assert isinstance(per_query_frame(report), pd.DataFrame)
