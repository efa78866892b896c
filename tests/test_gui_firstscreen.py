"""The kept first screen: shown at the next start before the ranking is computed again, it
shows every cell the ranking then shows, and is never used for another benchmark, model
file, depth or version, nor when it does not read."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _gui_fixtures import make_window, no_leftover_work, settings_file  # noqa: F401
from PySide6.QtCore import Qt

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.ranking.embeddings import from_npz, to_npz
from execretrieval.ranking.registry import rank
from execretrieval_gui import engine, firstscreen
from execretrieval_gui.models import SORT_ROLE
from execretrieval_gui.state_types import ranked_rows

REPO = Path(__file__).resolve().parent.parent
ROLES = (Qt.ItemDataRole.DisplayRole, SORT_ROLE, Qt.ItemDataRole.ForegroundRole,
         Qt.ItemDataRole.ToolTipRole)


def _cells(model: Any) -> list[list[Any]]:
    """Every cell of a table model in the roles a user sees (colours by name)."""
    out = []
    for row in range(model.rowCount()):
        cells = []
        for col in range(model.columnCount()):
            index = model.index(row, col)
            for role in ROLES:
                value = model.data(index, role)
                cells.append(value.color().name() if hasattr(value, "color") else value)
        out.append(cells)
    return out


def _screen(window: Any) -> tuple[Any, ...]:
    return (_cells(window.browser.model), _cells(window.candidates.model),
            window.state.query_id, [r.snippet.corpus_id for r in window.state.rows])


def _open_until_ranked(qtbot: Any, window: Any, path: Path, model: str) -> list[bool]:
    """Open and wait for the ranking; for each query_ready, was the ranking there?"""
    ready: list[bool] = []
    window.state.query_ready.connect(lambda _q: ready.append(window.state.ranking_a is not None))
    with qtbot.waitSignal(window.state.ranking_ready, timeout=60000):
        window.open(path, model=model)
    qtbot.waitUntil(lambda: bool(ready) and ready[-1], timeout=60000)
    qtbot.waitUntil(lambda: not window.state.keep_slot.busy, timeout=60000)
    return ready


def _kept(cache: Path) -> list[Path]:
    return sorted((cache / "first-screen").glob("*.json"))


def test_the_next_start_shows_the_kept_screen_first_and_the_ranking_shows_the_same(
        qtbot, make_window, tiny_dir: Path, tmp_path: Path) -> None:
    cache = Path(os.environ["EXECRETRIEVAL_CACHE_DIR"])
    first = make_window()
    assert _open_until_ranked(qtbot, first, tiny_dir, "minilm") == [True]   # nothing kept yet
    assert len(_kept(cache)) == 1
    ranked = _screen(first)
    first.close()

    second = make_window()
    seen: list[Any] = []
    second.state.query_ready.connect(
        lambda _q: seen.append((second.state.ranking_a is None, _screen(second))))
    _open_until_ranked(qtbot, second, tiny_dir, "minilm")
    (preview, kept), *rest = seen
    assert preview, "the first usable screen came from the kept ranking"
    assert kept == ranked
    assert [p for p, _ in rest] == [False] and rest[0][1] == ranked
    assert len(_kept(cache)) == 1   # the same screen again: not written twice


@pytest.mark.parametrize("model", ["minilm", "bm25"])
def test_every_query_of_a_kept_screen_matches_the_engine(model: str) -> None:
    """builtin: rows, tie facts and status columns of every query, read back from the
    written document, equal what the state builds from the real ranking (bm25 ties)."""
    bench = load_benchmark(REPO / "data" / "builtin")
    ranking = rank(bench, model)
    status = engine.query_status(bench, ranking)
    key = firstscreen.key_for(bench, model, 10)
    assert key is not None
    doc = json.loads(json.dumps(firstscreen.snapshot(bench, ranking, status, 10, key)))
    preview = firstscreen._parse(doc, bench, key, 10)
    fields = ("rank", "corpus_index", "score", "delta", "role", "below_cut", "rank_best",
              "rank_worst")
    for query in bench.queries:
        real, _ = ranked_rows(bench, ranking, query.query_id, 10, lambda _s: None)
        kept = preview.candidate_rows(bench, query.query_id, lambda _s: None)
        assert [[getattr(r, f) for f in fields] for r in kept] == \
            [[getattr(r, f) for f in fields] for r in real], query.query_id
        assert preview.ties[query.query_id] == engine.canonical_tie(bench, ranking,
                                                                     query.query_id)
    for name in ("top1_correct", "canonical_rank", "deceived", "top1_mixed", "tied"):
        assert getattr(preview.status, name) == np.asarray(getattr(status, name)).tolist(), name
    assert any(preview.status.deceived) and any(preview.status.top1_correct)
    assert any(preview.status.tied) == (model == "bm25")   # lexical scores tie, dense do not


def _copy(tiny_dir: Path, tmp_path: Path) -> Path:
    target = tmp_path / "bench"
    shutil.copytree(tiny_dir, target)
    return target


def test_a_changed_model_file_or_benchmark_is_never_shown_from_the_old_screen(
        qtbot, make_window, tiny_dir: Path, tmp_path: Path) -> None:
    folder = _copy(tiny_dir, tmp_path)
    bench = load_benchmark(folder)
    first = make_window()
    _open_until_ranked(qtbot, first, folder, "minilm")
    first.close()
    key = firstscreen.key_for(bench, "minilm", 10)
    # the model file rewritten with one snippet's vector changed: another key
    npz = folder / "embeddings" / "minilm.npz"
    emb = from_npz(npz)
    emb.corpus[0] = -emb.corpus[0]
    to_npz(npz, emb)
    assert firstscreen.key_for(bench, "minilm", 10) not in (None, key)
    assert firstscreen.read(bench, "minilm", 10) is None
    second = make_window()
    assert _open_until_ranked(qtbot, second, folder, "minilm")[0], "shown from the old file"
    # another depth, or a model without a fixed set of files: never kept
    assert firstscreen.read(bench, "minilm", 20) is None
    assert firstscreen.key_for(bench, str(tmp_path / "no-such-folder"), 10) is None
    assert firstscreen.key_for(bench, "bm25+exec", 10) is None


def test_the_key_follows_the_benchmark_files_and_else_its_fingerprint(
        tiny_dir: Path, tmp_path: Path) -> None:
    """A benchmark read from its folder is keyed by its two files' digest, taken as they
    were read (no fingerprint before the first query is usable); one made otherwise by its
    fingerprint, which a changed record changes too."""
    from execretrieval.benchmark.dataset import Benchmark

    folder = _copy(tiny_dir, tmp_path)
    bench = load_benchmark(folder)
    key = firstscreen.key_for(bench, "minilm", 10)
    assert key is not None and bench.source_digest is not None
    assert bench._fingerprint is None   # keyed without it
    again = load_benchmark(folder)
    assert (again.source_digest, firstscreen.key_for(again, "minilm", 10)) == \
        (bench.source_digest, key)
    # one query's text changed on disk: another digest, another key
    queries = folder / "queries.jsonl"
    lines = queries.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["query"] += " (reworded)"
    queries.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n", encoding="utf-8")
    changed = load_benchmark(folder)
    assert changed.source_digest != bench.source_digest
    assert firstscreen.key_for(changed, "minilm", 10) not in (None, key)
    # the same content not read from files: the fingerprint decides
    made = Benchmark(bench.queries, bench.corpus, name=bench.name, path=folder)
    made_changed = Benchmark(changed.queries, changed.corpus, name=bench.name, path=folder)
    assert made.source_digest is None
    assert firstscreen.key_for(made, "minilm", 10) == firstscreen.key_for(
        Benchmark(bench.queries, bench.corpus, path=folder), "minilm", 10)
    assert firstscreen.key_for(made_changed, "minilm", 10) not in (
        None, key, firstscreen.key_for(made, "minilm", 10))


def test_a_kept_screen_that_does_not_read_is_ignored_and_written_again(
        qtbot, make_window, tiny_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = Path(os.environ["EXECRETRIEVAL_CACHE_DIR"])
    first = make_window()
    _open_until_ranked(qtbot, first, tiny_dir, "bm25")
    first.close()
    (path,) = _kept(cache)
    good = path.read_text()
    for broken in (good[: len(good) // 2], good.replace('"rows":[[[', '"rows":[[[999999,', 1),
                   json.dumps({**json.loads(good), "queries": ["q_x"]})):
        path.write_text(broken)
        window = make_window()
        with caplog.at_level(logging.WARNING, logger="execretrieval_gui.firstscreen"):
            ready = _open_until_ranked(qtbot, window, tiny_dir, "bm25")
        assert ready[0], "a broken kept screen was shown"
        assert "ignoring the kept first screen" in caplog.text
        assert path.read_text() == good   # the ranking wrote it again, whole
        window.close()
        caplog.clear()


WINDOW_SCRIPT = textwrap.dedent(
    """
    import os, sys, tempfile
    from PySide6.QtCore import QSettings, QTimer
    from execretrieval_gui.app import create_app
    from execretrieval_gui.mainwindow import MainWindow
    app = create_app()
    window = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"),
                                  QSettings.Format.IniFormat))
    window.show()
    seen = []
    def ready(query_id):
        rows = window.candidates.model.rows
        if rows and all(r.outcome is not None for r in rows) and not seen:
            seen.append((window.state.ranking_a is None, "numpy" in sys.modules,
                         window.candidates.model.rowCount()))
        if window.state.ranking_a is not None and not window.state.keep_slot.busy:
            QTimer.singleShot(0, app.quit)
    window.state.query_ready.connect(ready)
    window.state.keep_slot.busy_changed.connect(
        lambda busy: busy or window.state.ranking_a is None or app.quit())
    window.open(sys.argv[1], model="minilm", query="lowest_set_bit")
    app.exec()
    print("first", *seen[0])
    """
)


def test_a_second_start_is_usable_before_numpy_loads(tmp_path: Path) -> None:
    """Two fresh interpreters, as two launches: the second shows builtin's lowest_set_bit
    ranked by minilm, with its cached outcomes, before numpy (or any ranking) loads."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "EXECRETRIEVAL_DATA_DIR": str(tmp_path / "data")}
    runs = [subprocess.run([sys.executable, "-c", WINDOW_SCRIPT, str(REPO / "data" / "builtin")],
                           capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
            for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr[-3000:]
    assert runs[0].stdout.split()[:3] == ["first", "False", "True"]   # nothing kept yet
    kept, numpy_loaded, rows = runs[1].stdout.split()[1:]
    assert (kept, numpy_loaded) == ("True", "False")
    assert rows == runs[0].stdout.split()[3]


def test_a_model_chosen_while_the_kept_screen_shows_is_the_one_ranked(
        qtbot, make_window, tiny_dir: Path) -> None:
    """The ranking that follows a kept screen starts a moment later; a model chosen in
    between (here bm25, which has no kept screen) must not be replaced by it."""
    first = make_window()
    _open_until_ranked(qtbot, first, tiny_dir, "minilm")
    first.close()
    window = make_window()
    state = window.state
    switched: list[bool] = []

    def choose_bm25(_query_id: str) -> None:
        if not switched and state.ranking_a is None:   # the kept minilm screen
            switched.append(True)
            state.set_model("bm25")

    state.query_ready.connect(choose_bm25)
    with qtbot.waitSignal(state.ranking_ready, timeout=60000,
                          check_params_cb=lambda model: model == "bm25"):
        window.open(tiny_dir, model="minilm")
    assert switched == [True]
    qtbot.wait(300)   # the delayed minilm start, had it survived, would be ranking now
    qtbot.waitUntil(lambda: not state.rank_slot.busy, timeout=60000)
    assert state.ranking_a.model == "bm25" and state.model_a == "bm25"


def test_only_the_most_recent_screens_are_kept(tmp_path: Path, monkeypatch) -> None:
    """Every benchmark, model file and depth has its own screen, and an edited file leaves
    the old one behind: the folder keeps the KEEP most recently written or shown."""
    monkeypatch.setattr(firstscreen, "KEEP", 3)
    bench = load_benchmark(REPO / "data" / "tiny")
    ranking = rank(bench, "bm25")
    status = engine.query_status(bench, ranking)
    folder = Path(os.environ["EXECRETRIEVAL_CACHE_DIR"]) / "first-screen"
    written = []
    for depth in (5, 6, 7, 8, 9):
        assert firstscreen.write(bench, "bm25", ranking, status, depth)
        written.append(folder / f"{firstscreen.key_for(bench, 'bm25', depth)}.json")
        os.utime(written[-1], ns=(depth * 10**9, depth * 10**9))   # a clear order
    # depths 5 and 6 went when 8 and 9 came; showing 7 again makes it the newest
    assert sorted(folder.glob("*.json")) == sorted(written[2:])
    assert not firstscreen.write(bench, "bm25", ranking, status, 7)   # same screen
    assert firstscreen.write(bench, "bm25", ranking, status, 10)
    assert {p.name for p in folder.glob("*.json")} == {
        written[2].name, written[4].name, f"{firstscreen.key_for(bench, 'bm25', 10)}.json"}
    assert firstscreen.read(bench, "bm25", 7) is not None
    assert firstscreen.read(bench, "bm25", 8) is None
