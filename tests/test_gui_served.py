""""Served model…" in the GUI: the dialog encodes through a real local server, then ranks.

The server is the one the engine tests use (tests/_embed_server.py); nothing needs torch.
"""
# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import shutil
from pathlib import Path

from _embed_server import EmbeddingServer
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401
from PySide6.QtWidgets import QApplication

from execretrieval_gui import workers
from execretrieval_gui.picker import SERVED
from execretrieval_gui.served import ServedModelDialog
from execretrieval_gui.state import InspectorState

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-gui-7d1e5a3c9b2f4e6a8c0d"


def _tiny(tmp_path: Path) -> Path:
    target = tmp_path / "tiny"
    shutil.copytree(ROOT / "data" / "tiny", target)
    return target


def _open_dialogs() -> list[ServedModelDialog]:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, ServedModelDialog) and w.isVisible()]


def test_state_encodes_with_a_served_model_then_ranks_with_it(qtbot, tmp_path: Path,
                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SERVED_KEY", KEY)
    state = InspectorState()
    progress: list[tuple[int, int]] = []
    state.embed_progress.connect(lambda d, t: progress.append((d, t)))
    try:
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.open_benchmark(_tiny(tmp_path), model="bm25")
        with EmbeddingServer(key=KEY, models=("acme/embed",)) as server:
            server.faults.append(("status", 503, {"Retry-After": "0"}, "warming up"))
            with qtbot.waitSignal(state.ranking_ready, timeout=60000) as ranked, \
                    qtbot.waitSignal(state.embed_finished, timeout=60000) as finished:
                state.embed_served({"base_url": server.base_url, "model": "acme/embed",
                                    "api_key_env": "SERVED_KEY", "preset": "bge",
                                    "dimensions": None})
            assert finished.args == [True, "acme_embed"]
            assert ranked.args == ["acme_embed"] and state.model_a == "acme_embed"
            assert len(server.texts) == 18 and server.requests == 2   # one retry of the 503
            assert progress[-1] == (18, 18)
            assert (tmp_path / "tiny" / "embeddings" / "acme_embed.npz").is_file()
    finally:
        state.shutdown()
        workers.wait_for_all(20000)
        state.close_oracles()


def test_a_benchmark_inside_an_installed_package_gets_its_vectors_in_the_data_dir(
        qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Encoding a bundled benchmark of an installed wheel never writes into site-packages."""
    installed = tmp_path / "venv" / "lib" / "site-packages" / "execretrieval" / "bundled"
    installed.mkdir(parents=True)
    shutil.copytree(ROOT / "data" / "tiny", installed / "tiny")
    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(tmp_path / "user-data"))
    state = InspectorState()
    try:
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.open_benchmark(installed / "tiny", model="bm25")
        with EmbeddingServer(models=("acme/embed",)) as server:
            with qtbot.waitSignal(state.ranking_ready, timeout=60000), \
                    qtbot.waitSignal(state.embed_finished, timeout=60000) as finished:
                state.embed_served({"base_url": server.base_url, "model": "acme/embed",
                                    "api_key_env": "", "preset": None, "dimensions": None})
        written = tmp_path / "user-data" / "embeddings" / "tiny" / "acme_embed.npz"
        assert finished.args == [True, "acme_embed"] and written.is_file()
        assert not (installed / "tiny" / "embeddings" / "acme_embed.npz").exists()
        assert state.model_a == str(written)
    finally:
        state.shutdown()
        workers.wait_for_all(20000)
        state.close_oracles()


def test_cancel_stops_encoding_and_keeps_the_paid_answer(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    state = InspectorState()
    try:
        with qtbot.waitSignal(state.query_ready, timeout=60000):
            state.open_benchmark(_tiny(tmp_path), model="bm25")
        with EmbeddingServer(delay=0.5) as server:
            with qtbot.waitSignal(state.embed_finished, timeout=30000) as finished:
                state.embed_served({"base_url": server.base_url, "model": "test-embed",
                                    "api_key_env": "", "preset": None, "dimensions": None})
                qtbot.waitUntil(lambda: server.requests > 0, timeout=30000)
                state.cancel_embed()
            assert finished.args == [False, "cancelled"]
            workers.wait_for_all(20000)
            assert state.model_a == "bm25"       # nothing ranked
            # the request in flight at cancel was paid for: it was cached, not dropped
            sent = server.requests
            with qtbot.waitSignal(state.embed_finished, timeout=30000) as finished:
                state.embed_served({"base_url": server.base_url, "model": "test-embed",
                                    "api_key_env": "", "preset": None, "dimensions": None})
            assert finished.args == [True, "test-embed"] and server.requests == sent
    finally:
        state.shutdown()
        workers.wait_for_all(20000)
        state.close_oracles()


def test_picker_entry_opens_the_dialog_which_loads_the_model(
        qtbot, make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_and_wait(qtbot, make_window(), _tiny(tmp_path))
    box = window.picker.model_box
    served = box.findData(SERVED)
    assert served == box.count() - 1 and box.itemText(served) == "Served model…"
    box.setCurrentIndex(served)
    box.activated.emit(served)
    dialogs = _open_dialogs()
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert box.currentData() == "bm25"          # the picker still shows model A
    with EmbeddingServer() as server:
        dialog.base_url.setText(server.base_url)
        dialog.model.setText("test-embed")
        dialog.key_env.setText("")
        dialog.preset.setCurrentIndex(dialog.preset.findData("e5"))
        assert dialog.request()["preset"] == "e5"
        with qtbot.waitSignal(window.state.ranking_ready, timeout=60000):
            dialog.encode_button.click()
        assert server.bodies[0]["input"][0].startswith("query: ")
    qtbot.waitUntil(lambda: not _open_dialogs(), timeout=10000)   # closed once loaded
    assert box.currentData() == "test-embed" and box.findData(SERVED) == box.count() - 1
    window.grab().save(str(tmp_path / "served.png"))


def test_the_dialog_names_the_error_and_never_shows_the_key(
        qtbot, make_window, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("WRONG_KEY", KEY)
    window = open_and_wait(qtbot, make_window(), _tiny(tmp_path))
    dialog = ServedModelDialog(window.state, window)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.key_state.text().startswith("$OPENAI_API_KEY is")
    with EmbeddingServer(key="sk-other") as server:
        dialog.base_url.setText(server.base_url)
        dialog.model.setText("test-embed")
        dialog.key_env.setText("WRONG_KEY")
        assert "$WRONG_KEY is set" in dialog.key_state.text()
        with qtbot.waitSignal(window.state.embed_finished, timeout=30000) as finished:
            dialog.encode_button.click()
    assert finished.args[0] is False
    assert "HTTP 401: Incorrect API key provided: ***" in dialog.note.text()
    assert KEY not in dialog.note.text() and dialog.isVisible()
    assert dialog.encode_button.isEnabled()
