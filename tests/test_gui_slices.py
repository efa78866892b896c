"""Saved slices: named filters measured per slice (checked against the per-query columns by
hand), kept across sessions, and the filtered query list exported as CSV."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401

from execretrieval import load_benchmark
from execretrieval_gui import dialogs
from execretrieval_gui.filters import QueryFilter, matching
from execretrieval_gui.slices import query_list_csv


def _idle(slot):  # type: ignore[no-untyped-def]
    return {"signal": slot.busy_changed, "timeout": 120000,
            "check_params_cb": lambda busy: not busy}


def test_filter_round_trips_and_ignores_junk() -> None:
    f = QueryFilter(text="bit", domain="geometry", bug_type="off_by_one", outcome="deceived",
                    flagged_only=True, discordant="a_only", only_ids=frozenset({"q"}))
    back = QueryFilter.from_dict(f.to_dict())
    assert back == QueryFilter(**{**f.to_dict()})               # only_ids is not kept
    assert QueryFilter.from_dict({"outcome": "nonsense", "domain": 3, "flagged_only": "yes"}) \
        == QueryFilter()
    assert "geometry" in f.describe() and "deceived" in f.describe()


def test_query_list_csv_has_every_listed_query(tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    text = query_list_csv(bench, ["q_0003", "q_0001"], None, {"q_0001"})
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["query_id"] for r in rows] == ["q_0003", "q_0001"]
    assert rows[1]["function_name"] == "lowest_set_bit" and rows[1]["flagged"] == "1"
    assert rows[0]["rank1_correct"] == ""                       # no model: left empty


def test_slices_measured_saved_and_exported(qtbot, make_window, tmp_path: Path,  # type: ignore[no-untyped-def]
                                            monkeypatch, tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir, model="bm25")
    browser = window.browser
    browser.search.setText("in")          # insertion_index, count_vowels, … by name or text
    criteria = browser.current_filter()
    n = browser.proxy.rowCount()
    assert criteria.text == "in" and 1 < n < 4
    monkeypatch.setattr("execretrieval_gui.browser.QInputDialog.getText",
                        lambda *a, **k: ("  with   in ", True))
    browser.save_slice_button.click()
    assert list(window.state.slices.named) == ["with in"]
    with qtbot.waitSignal(window.reporter.slices_measured, timeout=300000) as measured:
        with qtbot.waitSignal(**_idle(window.reporter.metrics_slot)):
            window.metrics.compute_button.click()
    rows = {r.name: r for r in measured.args[0]}
    ev = window.reporter.last[1]
    ids = matching(criteria, window.state.benchmark, window.state.status_a, None, set())
    index = [ev.query_ids.index(q) for q in ids]
    by_hand = sum(float(ev.per_query["exec@1"][i]) for i in index) / len(index)
    assert rows["with in"].n_queries == n
    assert math.isclose(rows["with in"].means["exec@1"], by_hand)
    assert math.isclose(rows["All queries"].means["exec@10"], ev.metrics["exec@10"].mean)
    shown = window.metrics.slice_model
    assert [shown.index(r, 0).data() for r in range(shown.rowCount())] == \
        ["All queries", "with in"]
    # the export writes what the list shows
    out = tmp_path / "list.csv"
    monkeypatch.setattr(dialogs, "ask_csv_path", lambda *a: str(out))
    browser.export_button.click()
    exported = [r["query_id"] for r in csv.DictReader(io.StringIO(out.read_text()))]
    assert exported == browser.visible_query_ids() and len(exported) == n
    # the HTML report measures the slice too
    report = tmp_path / "r.html"
    with qtbot.waitSignal(window.reporter.exported, timeout=120000):
        window.reporter.export(report, exclude_flagged=False)
    html = report.read_text(encoding="utf-8")
    assert "<h2>Saved slices</h2>" in html and "<td>with in</td>" in html
    # slices outlive the session; choosing one filters the list by it
    browser.search.clear()
    assert browser.proxy.rowCount() == 4
    window.close()
    again = make_window()
    assert list(again.state.slices.named) == ["with in"]
    open_and_wait(qtbot, again, tiny_dir, model="bm25")
    box = again.browser.slice_box
    box.setCurrentIndex(box.findData("with in"))
    box.activated.emit(box.currentIndex())
    assert again.browser.proxy.rowCount() == n
    assert again.browser.search.text() == "in"
