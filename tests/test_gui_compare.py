"""Comparing with a second model B: loaded from disk, kept out of A's way, ranked per row."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from execretrieval import load_benchmark
from execretrieval.ranking.registry import rank
from execretrieval.ranking.trec import to_run
from execretrieval_gui.models import SHORT_BUG, CandidatesModel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:shiboken6.*")


def _wait_for_b(qtbot, window, choose):  # type: ignore[no-untyped-def]
    """Call ``choose()`` and wait until model B's ranking task has finished."""
    with qtbot.waitSignal(window.state.rank_b_slot.busy_changed, timeout=60000,
                          check_params_cb=lambda busy: not busy):
        choose()


def _b_column(window) -> list[str]:  # type: ignore[no-untyped-def]
    model = window.candidates.model
    return [model.index(r, CandidatesModel.B_RANK).data() for r in range(model.rowCount())]


def _tie_label(ranking, qi: int, j: int, compact: bool) -> str:  # type: ignore[no-untyped-def]
    """The rank as the other model's own list shows it: "≡11-14" for a tie."""
    found = ranking.lookup([qi], [j])
    best, worst = int(found.best[0]), int(found.worst[0])
    assert best <= ranking.rank_of(qi, j) <= worst
    if worst == best:
        return str(best)
    return f"≡{best}-{worst}" if compact else f"≡ {best}-{worst}"


def _expected_b_ranks(window, ranking) -> list[str]:  # type: ignore[no-untyped-def]
    qi = window.state.benchmark.query_index(window.state.query_id)
    model = window.candidates.model
    return [_tie_label(ranking, qi, r.corpus_index, model.compact) for r in model.rows]


def _compare_names(window) -> list[str]:  # type: ignore[no-untyped-def]
    box = window.picker.model_b_box
    return [box.itemData(i) for i in range(box.count())]


def _shown(browser) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(browser.proxy.index(r, 0).data(Qt.ItemDataRole.UserRole + 1).query_id
                  for r in range(browser.proxy.rowCount()))


def test_embeddings_file_as_model_b(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25",
                           query="lowest_set_bit")
    npz = tiny_dir / "embeddings" / "minilm.npz"
    _wait_for_b(qtbot, window, lambda: window.picker.load_model_b_file(str(npz)))
    assert window.state.ranking_b.model == "minilm"
    assert window.picker.model_b_box.currentText() == f"minilm.npz  ({npz.parent})"   # and folder
    assert window.picker.model_b_box.currentData() == str(npz)
    assert "bm25 vs minilm" in window.model_label.text()
    browser = window.browser
    assert browser.discordant_box.isEnabled()
    browser.discordant_box.setCurrentIndex(browser.discordant_box.findData("a_only"))
    assert _shown(browser) == ["q_0001", "q_0002"]
    # the B rank column: where minilm put each of bm25's candidates
    assert not window.candidates.table.isColumnHidden(CandidatesModel.B_RANK)
    expected = _expected_b_ranks(window, rank(load_benchmark(tiny_dir), "minilm"))
    assert _b_column(window) == expected
    assert expected != [str(r.rank) for r in window.candidates.model.rows]   # B disagrees
    # ... and it follows the selected query
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.browser.select_query("q_0003")
    assert _b_column(window) == _expected_b_ranks(window, window.state.ranking_b)


def test_trec_run_as_model_b(qtbot, make_window, tiny_dir: Path, tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="minilm",
                           query="lowest_set_bit")
    bench = load_benchmark(tiny_dir)
    bm25 = rank(bench, "bm25")
    run = tmp_path / "bm25.trec"
    to_run(run, bench, bm25, depth=len(bench.corpus))
    _wait_for_b(qtbot, window, lambda: window.picker.load_model_b_file(str(run)))
    assert window.state.ranking_b.model == "bm25"         # a run is named by its file
    assert window.picker.model_b_box.currentText() == f"bm25.trec  ({tmp_path})"
    browser = window.browser
    browser.discordant_box.setCurrentIndex(browser.discordant_box.findData("b_only"))
    assert _shown(browser) == ["q_0001", "q_0002"]     # bm25 right where minilm is wrong
    assert _b_column(window) == _expected_b_ranks(window, bm25)


def test_a_short_run_leaves_unlisted_snippets_unranked(qtbot, make_window, tiny_dir: Path,
                                                       tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    run = tmp_path / "short.trec"
    run.write_text("q_0001 Q0 c_0003 1 9.0 short\nq_0001 Q0 c_0001 2 8.0 short\n")
    _wait_for_b(qtbot, window, lambda: window.picker.load_model_b_file(str(run)))
    column = dict(zip((r.snippet.corpus_id for r in window.candidates.model.rows),
                      _b_column(window), strict=True))
    assert column["c_0003"] == "1" and column["c_0001"] == "2"
    assert {v for k, v in column.items() if k not in ("c_0001", "c_0003")} == {"—"}


def test_garbage_run_as_model_b_keeps_the_old_b(qtbot, make_window, tiny_dir: Path,
                                                tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25",
                           query="lowest_set_bit")
    _wait_for_b(qtbot, window, lambda: window.state.set_model("minilm", "b"))
    before = _b_column(window)
    bad = tmp_path / "garbage.trec"
    bad.write_text("this is not\na TREC run at all\n")
    with qtbot.waitSignal(window.state.failed, timeout=60000) as blocker:
        window.picker.load_model_b_file(str(bad))
    qtbot.waitUntil(lambda: not window.state.rank_b_slot.busy)
    assert "garbage.trec" in blocker.args[1]
    assert window.state.ranking_b.model == "minilm"
    assert window.picker.model_b_box.currentData() == "minilm"   # the picker tells the truth
    assert _b_column(window) == before
    assert window.browser.discordant_box.isEnabled()
    assert window.isVisible()


def test_b_rank_is_empty_without_a_model_b(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, query="lowest_set_bit")
    assert set(_b_column(window)) == {""}
    assert window.candidates.table.isColumnHidden(CandidatesModel.B_RANK)
    _wait_for_b(qtbot, window, lambda: window.state.set_model("minilm", "b"))
    assert "" not in _b_column(window)
    window.picker.model_b_box.setCurrentIndex(0)                    # (none)
    window.picker.model_b_box.activated.emit(0)
    assert window.state.ranking_b is None
    assert set(_b_column(window)) == {""}
    assert window.candidates.table.isColumnHidden(CandidatesModel.B_RANK)


def test_model_a_is_not_offered_as_model_b(qtbot, make_window, tiny_dir: Path,
                                           tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    names = _compare_names(window)
    assert names[0] == "" and "bm25" not in names and "minilm" in names
    _wait_for_b(qtbot, window, lambda: window.state.set_model("minilm", "b"))
    # A becomes minilm, however chosen: the Compare list swaps, and B=A is no comparison
    # (wait for A's ranking itself: a query_ready from B's outcomes may come first)
    with qtbot.waitSignal(window.state.ranking_ready, timeout=60000,
                          check_params_cb=lambda model: model == "minilm"):
        window.state.set_model("minilm")
    names = _compare_names(window)
    assert "minilm" not in names and "bm25" in names
    assert window.state.ranking_b is None and window.picker.model_b_box.currentData() == ""
    assert window.picker.model_box.currentData() == "minilm"
    # a run file loaded as A is offered as B once A is something else
    run = tmp_path / "mysystem.trec"
    run.write_text("q_0001 Q0 c_0003 1 9.0 mysystem\n")
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.picker.show_model(str(run))
        window.picker.model_chosen.emit(str(run))
    assert str(run) not in _compare_names(window)
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.state.set_model("bm25")
    assert str(run) in _compare_names(window) and "bm25" not in _compare_names(window)


def test_a_b_lists_side_by_side_select_together(qtbot, make_window, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25",
                           query="lowest_set_bit")
    panel = window.candidates
    assert not panel.table_b.isVisibleTo(window)                 # one list without B
    _wait_for_b(qtbot, window, lambda: window.state.set_model("minilm", "b"))
    assert panel.table_b.isVisibleTo(window)
    bench = load_benchmark(tiny_dir)
    qi = bench.query_index(window.state.query_id)
    minilm, bm25 = rank(bench, "minilm"), rank(bench, "bm25")
    depth = window.state.depth
    top_b = [bench.corpus[int(j)].corpus_id for j in minilm.top(qi, depth)]
    shown_b = [r.snippet.corpus_id for r in panel.model_b.rows]
    assert shown_b[:len(top_b)] == top_b                          # B's own ranking
    a_col = [panel.model_b.index(r, CandidatesModel.B_RANK).data()
             for r in range(panel.model_b.rowCount())]
    assert a_col == [_tie_label(bm25, qi, r.corpus_index, True) for r in panel.model_b.rows]
    assert any(label.startswith("≡") for label in a_col)         # bm25 ties the mutants
    # a tie group that A's list shows as "≡1-5" reads the same in B's A# column
    a_labels = {r.snippet.corpus_id: panel.model.index(i, CandidatesModel.RANK).data()
                for i, r in enumerate(panel.model.rows)}
    for i, r in enumerate(panel.model_b.rows):
        if r.snippet.corpus_id in a_labels:
            assert a_col[i] == a_labels[r.snippet.corpus_id]
    assert panel.model_b.headerData(CandidatesModel.B_RANK, Qt.Orientation.Horizontal) == "A#"
    for table in (panel.table, panel.table_b):                    # both halves fit
        qtbot.waitUntil(lambda t=table: t.horizontalScrollBar().maximum() == 0, timeout=2000)
    # a snippet chosen in B's list is the candidate, and is selected in A's list too
    target = next(r for r in panel.model_b.rows
                  if r.snippet.corpus_id != window.state.corpus_id
                  and panel.model.row_of(r.snippet.corpus_id) >= 0)
    panel.table_b.setCurrentIndex(panel.model_b.index(panel.model_b.row_of(
        target.snippet.corpus_id), 0))
    assert window.state.corpus_id == target.snippet.corpus_id
    assert panel.table.currentIndex().row() == panel.model.row_of(target.snippet.corpus_id)
    assert window.diff.candidate.corpus_id == target.snippet.corpus_id
    # and the other way round
    first_a = panel.model.rows[0].snippet.corpus_id
    panel.table.setCurrentIndex(panel.model.index(0, 0))
    assert panel.table_b.currentIndex().row() == panel.model_b.row_of(first_a)
    # outcomes fill in for B's rows too
    qtbot.waitUntil(lambda: all(r.outcome is not None for r in panel.model_b.rows),
                    timeout=60000)
    window.state.set_model("", "b")                               # no B: one list again
    assert not panel.table_b.isVisibleTo(window)


def test_the_half_width_lists_fold_role_and_bug_type(qtbot, make_window,
                                                      tiny_dir: Path) -> None:
    """Side by side each list has half the width: one short "What" column (canonical, a
    short bug type, another query's id), the bare test count, and the full list back
    when model B goes."""
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25",
                           query="lowest_set_bit")
    _wait_for_b(qtbot, window, lambda: window.state.set_model("minilm", "b"))
    panel = window.candidates
    for table, model in ((panel.table, panel.model), (panel.table_b, panel.model_b)):
        assert table.isColumnHidden(CandidatesModel.BUG)
        assert model.headerData(CandidatesModel.ROLE, Qt.Orientation.Horizontal) == "What"
        for r, row in enumerate(model.rows):
            what = model.index(r, CandidatesModel.ROLE).data()
            if row.role == "own distractor":
                assert what.removesuffix(" ⊘") == SHORT_BUG[row.snippet.bug_type]
            elif row.role == "canonical":
                assert what == "canonical"
            else:
                assert what == row.snippet.query_id
            badge = model.index(r, CandidatesModel.BADGE).data()
            if row.outcome is not None:
                passed = sum(o.status == "pass" for o in row.outcome.outcomes)
                assert badge == f"{passed}/{len(row.outcome.outcomes)}"
    window.picker.model_b_box.setCurrentIndex(0)                    # (none)
    window.picker.model_b_box.activated.emit(0)
    assert not panel.table.isColumnHidden(CandidatesModel.BUG)
    assert panel.model.index(0, CandidatesModel.BADGE).data().split(" ")[0] in ("PASS", "FAIL")
