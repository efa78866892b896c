"""The first screen starts without the heavy engine: numpy, pandas, scipy, the audit and input
engines load only when a ranking, the Metrics tab or an audit needs them; the Metrics and
Audit tabs build their views when first shown and then show what happened before."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import QSettings

REPO = Path(__file__).resolve().parent.parent

HEAVY = ("numpy", "pandas", "scipy", "execretrieval.audit", "execretrieval.inputs")

WINDOW_SCRIPT = textwrap.dedent(
    """
    import os, sys, tempfile
    from PySide6.QtCore import QSettings
    HEAVY = {heavy!r}

    def heavy():
        return sorted(m for m in sys.modules
                      if any(m == h or m.startswith(h + ".") for h in HEAVY))

    import execretrieval_gui.mainwindow
    from execretrieval_gui.app import create_app
    from execretrieval_gui.mainwindow import MainWindow
    assert not heavy(), ("imported", heavy())
    app = create_app()
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.show()
    app.processEvents()
    assert not heavy(), ("constructed", heavy())
    # the menus and their shortcuts are there from the start, the lazy tabs too
    action = type(window.unified_action)
    shortcuts = {{a.shortcut().toString() for a in window.findChildren(action)}}
    missing = {{"Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+N", "Ctrl+Shift+M"}} - shortcuts
    assert not missing, missing
    assert [window.tabs.tabText(i) for i in range(3)] == ["Inspect", "Metrics", "Audit"]
    assert not window.metrics_page.is_built and not window.audit_page.is_built
    # first shown, a tab builds its view
    window.show_tab(2)
    app.processEvents()
    assert window.audit_page.is_built and "execretrieval.audit" in sys.modules
    window.show_tab(1)
    app.processEvents()
    assert window.metrics_page.is_built
    assert window.metrics.compute_button.text() == "Compute metrics"
    print("ok")
    """
)


def test_first_screen_loads_no_numpy_nor_audit_engine(tmp_path: Path) -> None:
    """A subprocess (a fresh interpreter, as at start-up): importing the window and showing
    it loads none of the heavy modules; the Audit and Metrics tabs build when shown."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "EXECRETRIEVAL_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", WINDOW_SCRIPT.format(heavy=HEAVY)],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")


def test_metrics_tab_built_after_the_ranking_names_the_model(qtbot, make_window,
                                                           tiny_dir: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    assert not window.metrics_page.is_built   # nothing asked for it yet
    window.show_tab(1)
    assert window.metrics_page.is_built
    assert "bm25" in window.metrics.models_label.text()
    with qtbot.waitSignal(window.reporter.metrics_ready, timeout=120000):
        window.metrics.compute_button.click()
    assert window.metrics.model.evaluations[0].model == "bm25"


def test_audit_tab_built_without_an_audit_shows_its_hints(qtbot, make_window,
                                                          tiny_dir: Path) -> None:
    """Built after the benchmark loaded (no audit yet): the same hints as a view that heard
    the load — what to do, and why no suggested test is listed."""
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    window.show_tab(2)
    view = window.audit_view
    assert view.summary.text().startswith("Run the audit to rank this benchmark's suites")
    assert view.suggested_label.text().startswith("Suggested tests: none")
    assert view.queue.rowCount() == 0 and not view.next_button.isEnabled()


@pytest.mark.slow
def test_audit_run_before_the_tab_is_shown_appears_when_it_is(qtbot, make_window,
                                                             tiny_dir: Path) -> None:
    """An audit that ran with the tab never shown (``--tab audit`` starts it before the
    first paint; so can a script): the view built afterwards shows its queue, selection
    and summary as a view built at start-up would have."""
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    state = window.audit_state
    with qtbot.waitSignal(state.result_changed, timeout=240000):
        state.run(seeds=0)
    assert not window.audit_page.is_built
    result = state.result
    assert result is not None and state.selected is not None
    window.show_tab(2)
    view = window.audit_view
    assert [a.query_id for a in view.queue.rows] == [q.query_id for q in result.queries]
    assert view.queue_table.currentIndex().row() == view.queue.row_of(state.selected.query_id)
    assert f"{len(result.queries)} suites" in view.summary.text()
    assert view.next_button.isEnabled()
    # the run's last "busy" news may still be on its way: the view follows it once built
    qtbot.waitUntil(lambda: not state.busy and view.run_button.isEnabled(), timeout=10000)
    assert not view.progress.isVisibleTo(view)


def test_metrics_splitter_is_remembered_without_the_tab_being_built(
        qtbot, make_window, settings_file: Path, tiny_dir: Path) -> None:
    """A session that never showed the Metrics tab keeps the splitter state an earlier one
    saved, and a later window restores it when the tab is built."""
    first = make_window()
    first.show_tab(1)
    split = first.metrics.splitter
    split.setSizes([100, max(1, sum(split.sizes()) - 100)])
    saved = bytes(split.saveState())
    first.close()
    second = make_window()
    second.close()   # never showed Metrics: the saved state must survive
    stored = QSettings(str(settings_file), QSettings.Format.IniFormat).value(
        f"splitters/{split.objectName()}")
    assert bytes(stored) == saved
    third = make_window()
    assert bytes(third.metrics.splitter.saveState()) == saved
