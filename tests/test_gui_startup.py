"""Start-up and loading: bad arguments get one dialog and a usable window, failed model
files leave the lists, entries show their folder, sessions store absolute paths."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtCore import QSettings

from execretrieval_gui.picker import folder_label

REPO = Path(__file__).resolve().parent.parent


def _failures(window) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    seen: list[tuple[str, str]] = []
    window.state.failed.connect(lambda title, text: seen.append((title, text)))
    return seen


@pytest.mark.slow
def test_missing_folder_falls_back_to_the_bundled_benchmark(qtbot, make_window,
                                                            tmp_path: Path) -> None:
    window = make_window()
    seen = _failures(window)
    open_and_wait(qtbot, window, tmp_path / "nowhere", query="lowest_set_bit")
    assert len(seen) == 1 and "nowhere: not a benchmark folder (no such directory)" in seen[0][1]
    assert window.state.benchmark.name == "builtin"
    assert window.picker.benchmark_box.currentData() == str(REPO / "data" / "builtin")
    assert window.state.ranking_a is not None and window.state.query_id is not None


@pytest.mark.slow
def test_broken_folder_at_start_up_falls_back_too(qtbot, make_window, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "queries.jsonl").write_text("{not json\n")
    window = make_window()
    seen = _failures(window)
    open_and_wait(qtbot, window, broken)
    assert len(seen) == 1 and "broken/corpus.jsonl" in seen[0][1] and "builtin" in seen[0][1]
    assert window.state.benchmark.name == "builtin"


def test_unknown_model_shows_one_dialog_and_the_default(qtbot, make_window,
                                                        tiny_dir: Path) -> None:
    window = make_window()
    seen = _failures(window)
    open_and_wait(qtbot, window, tiny_dir, model="nosuch")
    assert len(seen) == 1 and "'nosuch'" in seen[0][1] and "bm25" in seen[0][1]
    assert window.state.ranking_a.model == "bm25"
    assert window.picker.model_box.findData("nosuch") < 0
    assert window.picker.model_box.currentData() == "bm25"


def test_unreadable_model_file_at_start_up_leaves_the_lists(qtbot, make_window, tiny_dir: Path,
                                                            tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    window = make_window()
    seen = _failures(window)
    open_and_wait(qtbot, window, tiny_dir, model=str(bad))
    assert len(seen) == 1 and "bad.npz" in seen[0][1]
    assert window.state.ranking_a.model == "bm25"                  # not an empty window
    for box in (window.picker.model_box, window.picker.model_b_box):
        assert box.findData(str(bad)) < 0


def test_entries_show_their_folder(qtbot, make_window, tiny_dir: Path, tmp_path: Path) -> None:
    window = open_and_wait(qtbot, make_window(), tiny_dir)
    box = window.picker.benchmark_box
    labels = [box.itemText(i) for i in range(box.count())]
    assert folder_label(REPO / "data" / "builtin") in labels
    assert box.currentText() == f"tiny  ({REPO / 'data'})"
    run = tmp_path / "mysystem.trec"
    run.write_text("q_0001 Q0 c_0003 1 9.0 mysystem\n")
    window.picker.show_model(str(run), window.picker.model_b_box)
    b_labels = [window.picker.model_b_box.itemText(i)
                for i in range(window.picker.model_b_box.count())]
    assert f"mysystem.trec  ({tmp_path})" in b_labels


def test_session_stores_absolute_paths(qtbot, make_window, tiny_dir: Path,
                                       settings_file: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(REPO)
    window = open_and_wait(qtbot, make_window(), Path("data/tiny"), query="is_leap_year")
    window.close()
    saved = QSettings(str(settings_file), QSettings.Format.IniFormat)
    assert saved.value("session/benchmark") == str(tiny_dir.resolve())
    # an old session's relative path is not trusted: another copy may sit there
    saved.setValue("session/benchmark", "data/tiny")
    saved.sync()
    again = make_window()
    seen = _failures(again)
    with qtbot.waitSignal(again.state.benchmark_loaded, timeout=60000) as loaded:
        again.open()
    assert loaded.args[0].name == "builtin" and not seen
    qtbot.waitUntil(lambda: not again.state.badge_slot.busy and not again.state.rank_slot.busy,
                    timeout=60000)


def _gui(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "execretrieval_gui.app", *args],
                          capture_output=True, text=True, env=env, timeout=180, check=False)


@pytest.mark.slow
def test_screenshot_with_bad_arguments_exits_2(tmp_path: Path, tiny_dir: Path) -> None:
    out = tmp_path / "shot.png"
    missing = _gui(str(tmp_path / "nowhere"), "--screenshot", str(out))
    assert missing.returncode == 2
    assert "nowhere: not a benchmark folder (no such directory)" in missing.stderr
    unknown = _gui(str(tiny_dir), "--model", "nosuch", "--screenshot", str(out))
    assert unknown.returncode == 2 and "Unknown model 'nosuch'" in unknown.stderr
    assert not out.exists()
