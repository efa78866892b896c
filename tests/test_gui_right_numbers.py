"""Every per-model figure of the Metrics tab is that model's own, as the engine computes it.

The reference figures come from the engine's public API alone (``rank``,
``evaluate_models``, ``evaluate`` with ``exclude``, ``deception_rate``), with the slices'
queries chosen here from the benchmark's own fields — no GUI code computes them.
"""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from execretrieval import Oracle, evaluate, evaluate_models, load_benchmark, rank
from execretrieval.dirs import user_cache_dir
from execretrieval.measure import deception_rate
from execretrieval_gui.filters import QueryFilter
from execretrieval_gui.metric_models import fmt_ci

BUILTIN = Path(__file__).resolve().parent.parent / "data" / "builtin"
SLICES = {"bits": QueryFilter(domain="bit-manipulation"),
          "swaps": QueryFilter(bug_type="swap_arguments")}


def _members(bench, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The slice's queries, from the benchmark's fields (not the GUI's filter code)."""
    if name == "All queries":
        return [q.query_id for q in bench.queries]
    if name == "bits":
        return [q.query_id for q in bench.queries if q.domain == "bit-manipulation"]
    return [q.query_id for q in bench.queries
            if any(s.bug_type == "swap_arguments" for s in bench.distractors_for(q.query_id))]


def _idle(slot):  # type: ignore[no-untyped-def]
    return {"signal": slot.busy_changed, "timeout": 300000,
            "check_params_cb": lambda busy: not busy}


@pytest.fixture(scope="module")
def shared_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("results") / "results.sqlite"


@pytest.fixture(autouse=True)
def _one_result_cache(_private_dirs, shared_results: Path):  # type: ignore[no-untyped-def]
    """Every test here measures the same two models on the same benchmark: each starts
    with the suite results the tests before it ran (only the oracle's result file: the
    rest of the cache folder stays private, so each window starts as the first did), so
    the 1,600 suites run once, not once per test."""
    mine = user_cache_dir() / "results.sqlite"
    if shared_results.exists():
        mine.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared_results, mine)
    yield
    if mine.exists():
        shutil.copyfile(mine, shared_results)


@pytest.fixture
def measured(qtbot, make_window):  # type: ignore[no-untyped-def]
    """The demo's comparison: minilm as model A, bm25 under Compare, two saved slices,
    metrics computed; and the engine's own evaluation of the same two models."""
    window = open_and_wait(qtbot, make_window(), BUILTIN, model="minilm",
                           query="lowest_set_bit")
    with qtbot.waitSignal(**_idle(window.state.rank_b_slot)):
        window.state.set_model("bm25", "b")
    for name, criteria in SLICES.items():
        window.state.slices.save(name, criteria)
    with qtbot.waitSignal(window.reporter.slices_measured, timeout=300000):
        with qtbot.waitSignal(**_idle(window.reporter.metrics_slot)):
            window.metrics.compute_button.click()
    bench = load_benchmark(BUILTIN)
    rankings = {m: rank(bench, m) for m in ("minilm", "bm25")}
    with Oracle() as oracle:   # the GUI filled the (private) cache: nothing runs again
        report = evaluate_models(bench, list(rankings.values()), oracle)
    return window, bench, rankings, report


def test_every_slice_cell_is_its_own_models_figure(measured) -> None:  # type: ignore[no-untyped-def]
    window, bench, rankings, report = measured
    view = window.metrics
    model = view.slice_model
    assert not view.slice_table.isColumnHidden(1)        # two models: each row names its own
    cells = {}
    for r in range(model.rowCount()):
        row = [model.index(r, c).data() for c in range(model.columnCount())]
        cells[(row[0], row[1])] = row
    assert set(cells) == {(s, m) for s in ("All queries", *SLICES) for m in rankings}
    every_query = {q.query_id for q in bench.queries}
    for (name, label), row in cells.items():
        ranking, ev = rankings[label], report.models[label]
        ids = _members(bench, name)
        exclude = every_query - set(ids)
        engine = evaluate(bench, ranking, ev.passes, exclude=exclude, n_boot=10)
        deceived = deception_rate(bench, ranking, exclude=exclude)
        expected = [name, label, str(len(ids))] + [
            f"{engine.metrics[m].mean:.3f}" for m in ("exec@1", "exec@10", "ndcg@10")] + [
            f"{100 * deceived:.1f}%"]
        assert row == expected, (name, label)
    # the figures the issue saw: each model's own deception rate on its own row
    assert cells[("All queries", "minilm")][6] == "89.4%"
    assert cells[("All queries", "bm25")][6] == "79.6%"
    assert cells[("bits", "minilm")][6] != cells[("bits", "bm25")][6]
    assert all(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
               for c in range(model.columnCount()))


def test_every_metric_cell_is_its_own_models_figure(measured) -> None:  # type: ignore[no-untyped-def]
    window, _bench, rankings, report = measured
    table = window.metrics.model
    headers = [table.headerData(c, Qt.Orientation.Horizontal) for c in
               range(table.columnCount())]
    assert headers == ["Metric", "minilm", "bm25"]
    names = list(report.models["minilm"].metrics)
    assert [table.index(r, 0).data() for r in range(table.rowCount())] == \
        [n.replace("ndcg", "nDCG") for n in names]
    for c, label in enumerate(headers[1:], start=1):
        for r, name in enumerate(names):
            assert table.index(r, c).data() == fmt_ci(report.models[label].metrics[name])
    # the analyses line: each model's own deception rate after its name
    text = window.metrics.analyses.text()
    for label in rankings:
        ev = report.models[label]
        own = text[text.index(f"<b>{label}</b>"):]
        assert own.split("deceived in <b>")[1].startswith(f"{100 * ev.deception_rate:.1f}%")


def test_comparison_separates_decided_wins_from_ties(measured) -> None:  # type: ignore[no-untyped-def]
    window, _bench, _rankings, report = measured
    [comparison] = report.comparisons
    a = report.models["minilm"].per_query["exec@1"]
    b = report.models["bm25"].per_query["exec@1"]

    def whole(x: float) -> bool:
        return math.isclose(x, 0.0, abs_tol=1e-12) or math.isclose(x, 1.0, abs_tol=1e-12)

    b_higher = [(x, y) for x, y in zip(a, b, strict=True) if y > x + 1e-12]
    b_decided = sum(whole(x) and whole(y) for x, y in b_higher)
    a_higher = [(x, y) for x, y in zip(a, b, strict=True) if x > y + 1e-12]
    a_decided = sum(whole(x) and whole(y) for x, y in a_higher)
    assert (len(a_higher), len(b_higher)) == (comparison.a_only, comparison.b_only)
    # the demo's numbers: bm25 is higher on 71 queries, 70 of them only through rank-1 ties
    assert (len(b_higher), b_decided) == (71, 1)
    text = window.metrics.compare_label.text()
    assert (f"bm25 higher on {len(b_higher)} queries: <b>{b_decided}</b> decided (1 vs 0), "
            f"<b>{len(b_higher) - b_decided}</b> only by a rank-1 tie") in text
    assert f"minilm higher on {len(a_higher)} quer" in text
    assert f"<b>{a_decided}</b> decided" in text
    assert "a tie at rank 1" in window.metrics.compare_label.toolTip()
    # the list: one row per discordant query, decided ones first, each with both figures
    model = window.metrics.discordant
    rows = [[model.index(r, c).data() for c in range(model.columnCount())]
            for r in range(model.rowCount())]
    assert len(rows) == len(comparison.discordant_queries)
    assert [r[3] for r in rows] == ["decided"] * (a_decided + b_decided) + \
        ["tie"] * (len(rows) - a_decided - b_decided)
    index = {q: i for i, q in enumerate(report.models["minilm"].query_ids)}
    for qid, _name, higher, how, shown_a, shown_b in rows:
        x, y = float(a[index[qid]]), float(b[index[qid]])
        assert (shown_a, shown_b) == (f"{x:.2f}", f"{y:.2f}")
        assert higher == ("minilm" if x > y else "bm25")
        assert (how == "decided") == (whole(x) and whole(y))
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert headers == ["Query", "Function", "Higher", "How", "minilm", "bm25"]
    assert all(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
               for c in range(6))


@pytest.mark.slow
def test_every_chart_bar_is_its_own_models_figure(measured) -> None:  # type: ignore[no-untyped-def]
    """The three charts beside the tables: each bar of each model against a brute-force
    count from the model's own scores and per-query exec@1 (and against the engine)."""
    window, bench, rankings, report = measured
    view = window.metrics
    for chart in (view.domain_chart, view.bug_chart, view.density_chart):
        assert [name for name, _values in chart.series] == ["minilm", "bm25"]
    for label, ranking in rankings.items():
        ev = report.models[label]
        values = dict(view.domain_chart.series)[label]
        per_query = ev.per_query["exec@1"]
        for domain, shown in zip(view.domain_chart.labels, values, strict=True):
            picked = [float(per_query[i]) for i, q in enumerate(bench.queries)
                      if q.domain == domain]
            assert shown == pytest.approx(sum(picked) / len(picked), abs=1e-12), domain
            assert shown == ev.exec1_by_domain[domain]
        # deception by bug type: a paired distractor above its canonical counts 1, a tie 1/2
        # (as the chart's title says)
        assert "a tie ½" in view.bug_chart.title
        counts: dict[str, list[float]] = {}
        for qi, query in enumerate(bench.queries):
            canon = bench.canonical_for(query.query_id)
            c_score = ranking.score_of(qi, bench.corpus_index(canon.corpus_id))
            for snippet in bench.distractors_for(query.query_id):
                d_score = ranking.score_of(qi, bench.corpus_index(snippet.corpus_id))
                if c_score is None and d_score is None:
                    continue   # retrieved neither: left out
                if d_score is None or (c_score is not None and c_score > d_score):
                    above = 0.0
                elif c_score is None or d_score > c_score:
                    above = 1.0
                else:
                    above = 0.5
                counts.setdefault(snippet.bug_type, []).append(above)
        bars = dict(zip(view.bug_chart.labels, dict(view.bug_chart.series)[label], strict=True))
        assert set(bars) == set(counts)
        for bug, seen in counts.items():
            assert bars[bug] == pytest.approx(sum(seen) / len(seen), abs=1e-12), (label, bug)
        # density: m = 0..4 distractors kept; all kept is the model's exec@1 on this pool
        density = dict(zip(view.density_chart.labels, dict(view.density_chart.series)[label],
                           strict=True))
        assert density == {f"m = {m}": v for m, v in ev.density_ablation.items()}
        assert density["m = 4"] == pytest.approx(ev.metrics["exec@1"].mean, abs=1e-9)
    # the analyses line: each model's rank-1 miss share after its own name
    text = view.analyses.text()
    for label in rankings:
        own = text[text.index(f"<b>{label}</b>"):]
        share = report.models[label].rank1_paired_miss_share
        assert own.split("own distractor: <b>")[1].startswith(f"{100 * share:.1f}%")
