"""Pipelines in the inspector: the Pipeline… dialog (names checked by the engine), ranking
in the worker with progress and cancel, the A|B view of a base and its pipeline, the
Stage column, the tests panel's visible / held-out marks and the Metrics tab's
quality-vs-cost table -- every figure shown compared with the engine's own."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from conftest import DATA
from execretrieval import load_benchmark
from execretrieval.oracle.execution import Oracle
from execretrieval.pipeline import PipelineNameError, make_split, parse_pipeline, rank_system
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.pipelines import cost_table
from execretrieval_gui.models import CandidatesModel
from execretrieval_gui.picker import PIPELINE
from execretrieval_gui.pipeline_dialog import PipelineDialog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:shiboken6.*")

TINY = DATA / "tiny"


def _wait_rank(qtbot, window, which, choose, timeout=120000):  # type: ignore[no-untyped-def]
    slot = window.state.rank_slot if which == "a" else window.state.rank_b_slot
    with qtbot.waitSignal(slot.busy_changed, timeout=timeout,
                          check_params_cb=lambda busy: not busy):
        choose()


def _column(model: CandidatesModel, col: int) -> list[str]:
    return [model.index(r, col).data() for r in range(model.rowCount())]


def _engine_error(name: str) -> str:
    try:
        parse_pipeline(name)
    except PipelineNameError as exc:
        return str(exc)
    raise AssertionError(f"{name!r} parses")


def test_both_pickers_offer_pipeline_and_the_dialog_composes_and_checks(
        qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), TINY, model="bm25", query="lowest_set_bit")
    picker = window.picker
    for box in (picker.model_box, picker.model_b_box):
        assert box.findData(PIPELINE) >= 0 and box.itemText(box.findData(PIPELINE)) == \
            "Pipeline…"
    opened: list[str] = []
    picker.pipeline_requested.connect(opened.append)
    picker.model_box.activated.emit(picker.model_box.findData(PIPELINE))
    picker.model_b_box.activated.emit(picker.model_b_box.findData(PIPELINE))
    assert opened == ["a", "b"]
    assert picker.model_box.currentData() == "bm25"   # the choice stays until OK
    dialog = PipelineDialog(window.state, "b", window)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.base.setCurrentText("minilm")
    dialog.stage.setCurrentText("exec")
    dialog.add_button.click()
    assert dialog.name.text() == "minilm+exec" and ok.isEnabled()
    dialog.fusion.setCurrentIndex(dialog.fusion.findData("rrf"))
    dialog.partner.setCurrentText("bm25")
    dialog.stage.setCurrentText("consensus")
    dialog.stage_opts.setText("depth=5")
    dialog.add_button.click()
    assert dialog.name.text() == "rrf:minilm,bm25+exec+consensus:depth=5"
    assert ok.isEnabled()
    parse_pipeline(dialog.name.text())   # what the dialog built, the engine reads
    for typed in ("minilm+nope", "minilm+exec:depth", "rrf:minilm+exec", "minilm+exec>x"):
        dialog.name.setText(typed)      # a typed name, checked on every edit
        assert not ok.isEnabled()
        assert _engine_error(typed) in dialog.verdict.text().replace("&#x27;", "'")
    dialog.name.setText("minilm+exec")
    dialog.visible.setText("1.5")
    assert not ok.isEnabled() and "whole number" in dialog.verdict.text()
    dialog.visible.setText("0.5")
    assert ok.isEnabled()
    dialog.remove_button.click()   # the last stage goes, the name is composed again
    assert dialog.name.text() == "rrf:minilm,bm25+exec"


def test_base_as_a_and_pipeline_as_b_shows_what_the_stage_moved(qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), DATA / "builtin", model="minilm",
                           query="lowest_set_bit")
    dialog = PipelineDialog(window.state, "b", window)
    qtbot.addWidget(dialog)
    dialog.base.setCurrentText("minilm")
    dialog.stage.setCurrentText("exec")
    dialog.add_button.click()
    dialog.visible.setText("0.5")
    dialog.seed.setValue(0)
    _wait_rank(qtbot, window, "b", dialog.accept)
    state = window.state
    assert state.split_spec == (0.5, 0)
    assert state.ranking_b.model == "minilm+exec"
    assert window.picker.model_b_box.currentData() == "minilm+exec"
    bench = load_benchmark(DATA / "builtin")
    split = make_split(bench, 0.5, seed=0)
    with Oracle(workers=2) as oracle:
        engine_b = rank_system(bench, "minilm+exec", oracle=oracle, split=split)
    engine_a = rank_system(bench, "minilm")
    qid = state.query_id
    qi = bench.query_index(qid)
    detail = {row["corpus_id"]: row for row in engine_b.stage_detail()[qid]}
    b = window.candidates.model_b
    table_b = window.candidates.table_b
    assert not table_b.isColumnHidden(CandidatesModel.STAGE)
    assert window.candidates.table.isColumnHidden(CandidatesModel.STAGE)   # A is no pipeline
    assert [r.snippet.corpus_id for r in b.rows][:10] == \
        [bench.corpus[int(j)].corpus_id for j in engine_b.top(qi, 10)]
    moved = 0
    for r, row in enumerate(b.rows[:10]):
        want = detail[row.snippet.corpus_id]
        shown = b.index(r, CandidatesModel.STAGE).data()
        assert shown == (f"{want['base_rank']}→{want['final_rank']} · "
                         f"{want['stages'][0]['shown']}")
        # the A rank beside each B row is minilm's own: base rank -> final rank
        assert b.index(r, CandidatesModel.B_RANK).data() == \
            str(engine_a.rank_of(qi, row.corpus_index))
        assert int(b.index(r, CandidatesModel.B_RANK).data()) == want["base_rank"]
        moved += want["base_rank"] != want["final_rank"]
    assert moved > 0
    # lowest_set_bit: minilm puts a mutant first, exec lifts the canonical to rank 1
    canon = bench.canonical_for(qid)
    assert detail[canon.corpus_id]["base_rank"] == \
        engine_a.rank_of(qi, bench.corpus_index(canon.corpus_id)) > 1
    assert detail[canon.corpus_id]["final_rank"] == 1
    # the tests panel marks the split's visible and held-out tests
    outcomes = window.tests.outcomes
    query = bench.query(qid)
    marks = [outcomes.index(i, 0).data() for i in range(len(query.test_suite))]
    visible = set(split.visible[qid])
    assert marks == [f"{'V' if i in visible else 'H'} {i + 1}"
                     for i in range(len(query.test_suite))]
    # both lists' Tests column counts the held-out tests, what the pipeline is judged on:
    # each cell against the candidate's suite run afresh, held-out outcomes only
    held = [i for i in range(len(query.test_suite)) if i not in visible]
    qtbot.waitUntil(lambda: all(r.outcome is not None for r in b.rows[:10]), timeout=60000)
    with Oracle(workers=2) as oracle:
        for model in (window.candidates.model, b):   # both half-width (compact) lists
            assert model.headerData(CandidatesModel.BADGE, Qt.Orientation.Horizontal) == \
                "Held"
            for r, row in enumerate(model.rows[:10]):
                result = oracle.run(row.snippet.code, list(query.test_suite))
                passed = sum(result.outcomes[i].status == "pass" for i in held)
                assert model.index(r, CandidatesModel.BADGE).data() == \
                    f"{passed}/{len(held)}", row.snippet.corpus_id
    # lowest_set_bit's off_by_one fails only a visible test (f(0) == 0): held out, it passes
    assert any(not row.outcome.passed and
               b.index(r, CandidatesModel.BADGE).data() == f"{len(held)}/{len(held)}"
               for r, row in enumerate(b.rows[:10])), \
        "some candidate fails a visible test only: the column must not count it"
    window.state.set_model("", "b")     # one list, full width: "PASS 4/4" under "Held out"
    model = window.candidates.model
    assert model.headerData(CandidatesModel.BADGE, Qt.Orientation.Horizontal) == "Held out"
    assert model.index(0, CandidatesModel.BADGE).data() in (
        f"PASS {len(held)}/{len(held)}", *(f"FAIL {k}/{len(held)}" for k in range(len(held))))


@pytest.mark.slow
def test_ranking_a_pipeline_reports_progress_and_cancels(qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), DATA / "builtin", model="bm25",
                           query="lowest_set_bit")
    state = window.state
    state.set_split(0.5, 0)
    seen: list[tuple[bool, int, int]] = []
    state.busy_changed.connect(lambda busy, done, total: seen.append((busy, done, total)))

    def cancel_on_progress(busy: bool, done: int, total: int) -> None:
        if busy and total > 1 and state.rank_slot.busy:
            state.rank_slot.cancel()

    state.busy_changed.connect(cancel_on_progress)
    # a private cache (conftest): the 1,600+ suites really run, so there is time to cancel
    _wait_rank(qtbot, window, "a", lambda: state.set_model("bm25+exec:depth=40", "a"))
    assert any(busy and total == 160 for busy, _done, total in seen)
    # the bar moved while the one batch of 1,600 suites ran, and the cancel came then
    assert any(busy and 0 < done < 160 for busy, done, _total in seen)
    assert not any(busy and done == 160 for busy, done, _total in seen)
    assert state.model_a == "bm25" and state.ranking_a.model == "bm25"   # nothing replaced
    assert window.picker.model_box.currentData() == "bm25"
    assert not state.rank_slot.busy


def test_a_pipeline_without_a_split_says_what_is_missing(qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), TINY, model="bm25", query="lowest_set_bit")
    errors: list[tuple[str, str]] = []
    window.state.failed.connect(lambda title, text: errors.append((title, text)))
    _wait_rank(qtbot, window, "b", lambda: window.state.set_model("bm25+exec", "b"))
    assert errors and "--visible" in errors[-1][1] and "stage 'exec'" in errors[-1][1]
    assert window.state.ranking_b is None


def test_metrics_tab_shows_the_engines_quality_and_cost_table(qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), TINY, model="bm25", query="lowest_set_bit")
    state = window.state
    state.set_split(0.5, 0)
    _wait_rank(qtbot, window, "b", lambda: state.set_model("bm25+exec", "b"))
    view = window.metrics
    assert not view.cost_group.isVisibleTo(view)
    with qtbot.waitSignal(window.reporter.cost_ready, timeout=120000):
        window.reporter.compute(False)
    assert view.cost_group.isVisibleTo(view)
    bench = load_benchmark(TINY)
    split = make_split(bench, 0.5, seed=0)
    with Oracle(workers=2) as oracle:
        report = evaluate_models(bench, ["bm25", "bm25+exec"], oracle, split=split)
    note, header, rows = cost_table(report.to_dict())
    model = view.cost_model   # turned a quarter: a measure a row, a system a column
    assert [model.headerData(c, Qt.Orientation.Horizontal)
            for c in range(model.columnCount())] == ["", *(row[0] for row in rows)]
    assert [model.index(r, 0).data() for r in range(model.rowCount())] == header[1:]
    assert view.cost_note.text() == note
    assert model.columnCount() - 1 == len(rows) == 2
    deterministic = [header.index(h) for h in header[1:]
                     if not h.endswith(" s") and h != "cache hits"]
    for c, row in enumerate(rows, start=1):
        for m in deterministic:
            assert model.index(m - 1, c).data() == row[m], header[m]
    # and exec@1 in the metric table is judged on the same held-out tests
    ev = report.models["bm25+exec"]
    assert view.model.evaluations[1].metrics["exec@1"].mean == ev.metrics["exec@1"].mean


def test_the_command_line_takes_the_split(tmp_path: Path) -> None:
    from execretrieval_gui.app import build_parser

    args = build_parser().parse_args(["data/builtin", "--model", "minilm+exec",
                                      "--visible", "0.5", "--split-seed", "3"])
    assert (args.visible, args.split_seed, args.model) == (0.5, 3, "minilm+exec")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--visible", "0"])


@pytest.mark.parametrize("name", ["minilm", "bm25", "minilm+exec", "rrf:bm25,minilm",
                                  "rrf:bm25", "minilm+nope", "combsum:bm25,minilm+exec:x=1"])
def test_the_dialogs_check_says_what_the_engine_says(name: str) -> None:
    """engine.check_pipeline is "" exactly where parse_pipeline accepts the name, else its
    error text — a fusion without a "+" included."""
    from execretrieval_gui import engine

    try:
        parse_pipeline(name)
        expected = ""
    except PipelineNameError as exc:
        expected = str(exc)
    assert engine.check_pipeline(name) == expected
    assert engine.needs_split(name) == (expected == "" and bool(parse_pipeline(name).stages))
