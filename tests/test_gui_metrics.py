"""Metrics view, comparison with clickable discordant queries, and report export."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401

from execretrieval.benchmark.annotations import Flag


def _idle(slot):  # type: ignore[no-untyped-def]
    return {"signal": slot.busy_changed, "timeout": 120000,
            "check_params_cb": lambda busy: not busy}


@pytest.fixture
def compared(qtbot, make_window, tiny_dir: Path):  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    with qtbot.waitSignal(**_idle(window.state.rank_b_slot)):
        window.state.set_model("minilm", "b")
    return window


def test_metrics_with_comparison_and_clickable_discordant(qtbot, compared) -> None:  # type: ignore[no-untyped-def]
    window = compared
    with qtbot.waitSignal(**_idle(window.reporter.metrics_slot)):
        window.metrics.compute_button.click()
    table = window.metrics.model
    names = [table.index(r, 0).data() for r in range(table.rowCount())]
    assert {"exec@1", "execp@10", "nDCG@10"} <= set(names)
    assert table.columnCount() == 3      # metric, bm25, minilm
    assert "[" in table.index(0, 1).data()
    # q_0004's rank 1 is a bm25 tie: its exec@1 is an expectation, so the paired test is
    # the sign-flip test (it is McNemar on 0/1 figures)
    assert "sign-flip p =" in window.metrics.compare_label.text()
    comparison = window.metrics.comparison
    assert set(comparison.discordant_queries) == {"q_0001", "q_0002", "q_0004"}
    assert window.metrics.discordant.rowCount() == 3
    assert "ties counted as <b>expected</b>" in window.metrics.analyses.text()
    # the charts got the same figures the report draws
    assert window.metrics.domain_chart.labels and window.metrics.density_chart.labels
    # clicking a discordant query opens it in the browser
    index = window.metrics.discordant.index(1, 0)
    qid = window.metrics.discordant.rows[1].query_id
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.metrics.discordant_table.clicked.emit(index)
    assert window.state.query_id == qid and window.tabs.currentIndex() == 0
    window.metrics.show_discordant.click()
    assert window.browser.proxy.rowCount() == 3


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md", ".html"])
def test_export_writes_a_parseable_report(qtbot, compared, tmp_path: Path, suffix: str) -> None:  # type: ignore[no-untyped-def]
    window = compared
    out = tmp_path / f"report{suffix}"
    with qtbot.waitSignal(window.reporter.exported, timeout=120000) as blocker:
        window.reporter.export(out, exclude_flagged=False)
    assert blocker.args == [str(out)]
    text = out.read_text(encoding="utf-8")
    if suffix == ".json":
        data = json.loads(text)
        assert set(data["models"]) == {"bm25", "minilm"}
        assert data["comparisons"][0]["metric"] == "exec@1"
    elif suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows
    elif suffix == ".md":
        assert text.startswith("#") and "exec@1" in text
    else:
        assert "<svg" in text and "</html>" in text.lower()


def test_export_without_flagged_queries(qtbot, compared, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = compared
    window.state.add_flag(Flag("q_0003", "ambiguous_query", note="which end?"))
    out = tmp_path / "report.json"
    with qtbot.waitSignal(window.reporter.exported, timeout=120000):
        window.reporter.export(out, exclude_flagged=True)
    data = json.loads(out.read_text())
    for model in data["models"].values():
        assert model["queries"] == 3
        assert model["excluded_queries"] == ["q_0003"]
    # the report's flags section says who flagged what (no audit run: no audit section)
    [flag] = data["annotations"]["flags"]
    assert (flag["query_id"], flag["note"], flag["stale"]) == ("q_0003", "which end?", False)
    assert flag["annotator"] == window.state.annotator
    assert "audit" not in data["annotations"]


def test_metrics_and_export_can_be_cancelled(qtbot, compared, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = compared
    window.state.oracle.cache = None            # make every suite really execute
    window.metrics.compute_button.click()
    assert window.reporter.metrics_slot.busy and window.metrics.compute_button.text() == "Cancel"
    task = window.reporter.metrics_slot.current
    window.metrics.compute_button.click()     # Cancel
    assert not window.reporter.metrics_slot.busy
    qtbot.waitUntil(task.done.is_set, timeout=10000)
    assert window.metrics.compute_button.text() == "Compute metrics"
    out = tmp_path / "r.json"
    window.reporter.export(out, exclude_flagged=False)
    task = window.reporter.export_slot.current
    assert window.export_cancel.isVisible()
    window.export_cancel.click()
    qtbot.waitUntil(task.done.is_set, timeout=10000)
    assert not out.exists()


def test_metrics_say_when_they_are_stale(qtbot, compared) -> None:  # type: ignore[no-untyped-def]
    window = compared
    with qtbot.waitSignal(**_idle(window.reporter.metrics_slot)):
        window.metrics.compute_button.click()
    assert "press Compute" not in window.metrics.models_label.text()
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.state.set_model("tfidf")
    assert "press Compute" in window.metrics.models_label.text()


def test_report_names_the_equivalent_cli_command(qtbot, make_window, tiny_dir: Path,
                                                 tmp_path: Path) -> None:
    """A GUI export says which `execretrieval evaluate` call measures the same (there is
    no `execretrieval-gui export`), with a run file as --run and a model as --model."""
    import shlex
    import subprocess
    import sys

    run = tmp_path / "outside.trec"
    run.write_text("q_0001 Q0 c_0003 1 9.0 outside\nq_0001 Q0 c_0001 2 8.0 outside\n")
    window = open_and_wait(qtbot, make_window(), tiny_dir, model=str(run))
    with qtbot.waitSignal(**_idle(window.state.rank_b_slot)):
        window.state.set_model("minilm", "b")
    out = tmp_path / "report.json"
    with qtbot.waitSignal(window.reporter.exported, timeout=120000):
        window.reporter.export(out, exclude_flagged=False)
    data = json.loads(out.read_text())
    command = data["command"]
    assert shlex.split(command) == ["execretrieval", "evaluate", str(tiny_dir), "--run",
                                    str(run), "--model", "minilm", "--out", "report.json"]
    # and it does measure the same
    again = tmp_path / "cli" / "report.json"
    again.parent.mkdir()
    argv = shlex.split(command)[1:-1] + [str(again)]
    subprocess.run([sys.executable, "-c", "import sys; from execretrieval.cli import main; "
                    "sys.exit(main())", *argv], check=True, capture_output=True)
    cli = json.loads(again.read_text())
    for name in ("outside", "minilm"):
        assert cli["models"][name]["metrics"]["exec@1"] == \
            data["models"][name]["metrics"]["exec@1"]
    window.state.add_flag(Flag("q_0003", "ambiguous_query", note="which end?"))
    with qtbot.waitSignal(window.reporter.exported, timeout=120000):
        window.reporter.export(out, exclude_flagged=True)
    assert "--exclude-queries <file of the 1 flagged query ids>" in \
        json.loads(out.read_text())["command"]


def test_html_export_drills_down_per_query_with_flags(qtbot, compared, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = compared
    window.state.add_flag(Flag("q_0001", "ambiguous_query", note="which end counts?"))
    out = tmp_path / "report.html"
    with qtbot.waitSignal(window.reporter.exported, timeout=120000):
        window.reporter.export(out, exclude_flagged=False)
    text = out.read_text(encoding="utf-8")
    assert text.count('<details class="q"') == 4 and "<script" not in text
    q1 = text[text.index('id="q_0001"'):]
    q1 = q1[:q1.index("</details>")]
    assert "which end counts?" in q1 and "<h4>bm25</h4>" in q1 and "<h4>minilm</h4>" in q1
    assert 'class="m pass"' in q1 and 'class="m fail"' in q1   # per-test outcomes, cached
