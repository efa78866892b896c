"""The Metrics tab's N-way panel: every model of the benchmark in one leaderboard with
tiers and rank intervals, the same figures as the engine, and "Export LaTeX…"."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.report.evaluation import evaluate_models
from execretrieval_gui.nway_models import LeaderboardModel


def _idle(slot):  # type: ignore[no-untyped-def]
    return {"signal": slot.busy_changed, "timeout": 120000,
            "check_params_cb": lambda busy: not busy}


def test_every_model_in_one_leaderboard_with_latex_export(
        qtbot, qtmodeltester, make_window, tiny_dir: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    panel = window.nway_panel
    assert not panel.latex_button.isEnabled()
    with qtbot.waitSignal(window.nway.ready, timeout=120000):
        panel.compute_button.click()
    report = panel.report
    assert list(report.models) == ["bm25", "tfidf", "minilm"]   # every offered model
    assert panel.metric_box.currentText() == "exec@1"
    model = panel.model
    qtmodeltester.check(model)
    assert model.rowCount() == 3
    # the same standings the engine computes on its own
    with Oracle() as oracle:
        direct = evaluate_models(load_benchmark(tiny_dir), ["bm25", "tfidf", "minilm"],
                                 oracle, environment={})
    want = [(s.system, s.tier, s.rank_low, s.rank_high) for s in direct.standings
            if s.metric == "exec@1"]
    shown = [(model.index(r, 1).data(), int(model.index(r, 0).data()),
              *map(int, (model.index(r, 4).data().split("–") * 2)[:2]))
             for r in range(model.rowCount())]
    assert shown == want
    panel.metric_box.setCurrentText("exec@10")
    assert model.index(0, 2).data() == (
        f"{report.standings[-3].mean:.3f}  [{report.standings[-3].ci_low:.3f}, "
        f"{report.standings[-3].ci_high:.3f}]")
    assert "Holm-corrected" in panel.note.text()
    out = tmp_path / "board.tex"
    monkeypatch.setattr("execretrieval_gui.nwayview.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(out), "LaTeX (*.tex)"))
    with qtbot.waitSignal(window.nway.latex_written, timeout=60000):
        panel.latex_button.click()
    tex = out.read_text()
    assert r"\toprule" in tex and "minilm" in tex and "exec@1 & exec@5 & exec@10" in tex


def test_leaderboard_model_names_significant_wins() -> None:
    from execretrieval.measure.multiple import Pair, Standing

    class Report:
        standings = [Standing("a", "exec@1", 0.9, 0.8, 1.0, 1, 1, 1, 1),
                     Standing("b", "exec@1", 0.2, 0.1, 0.3, 2, 2, 2, 2)]
        pairs = [Pair("a", "b", "exec@1", 0.7, 0.6, 0.8, 0.001, 0.002, "mcnemar_exact", 9, 0)]

    model = LeaderboardModel()
    model.set_report(Report(), "exec@1")
    assert model.index(0, 5).data() == "b" and model.index(1, 5).data() == "–"
    model.set_report(None, "exec@1")
    assert model.rowCount() == 0
