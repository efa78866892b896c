"""Benchmarks from code in the GUI: a query's source in the header, the bundled benchmarks in
the picker, and File ▸ Build from code… running the real command with progress and cancel."""

# ruff: noqa: F811  (pytest fixtures imported from _gui_fixtures, then used as arguments)

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from _gui_fixtures import make_window, no_leftover_work, open_and_wait, settings_file  # noqa: F401

from conftest import copy_tiny
from execretrieval import load_benchmark
from execretrieval_gui.candidates import source_text
from execretrieval_gui.fromcode_run import parse_progress, run_command

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:shiboken6.*")

PACKAGE = Path(__file__).parent / "data" / "fromcode_pkg" / "shapes"


def _cli_has_build_from_code() -> bool:
    done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "build-from-code",
                           "--help"], capture_output=True, text=True, timeout=120)
    return done.returncode == 0


HAS_COMMAND = _cli_has_build_from_code()
needs_command = pytest.mark.skipif(
    not HAS_COMMAND, reason="`execretrieval build-from-code` is not in this checkout's CLI yet "
                            "(python -m execretrieval.cli build-from-code --help: invalid "
                            "choice); it runs once the fromcode branch is merged")


def with_sources(tmp_path: Path, tiny_dir: Path) -> Path:
    """A copy of data/tiny whose first query carries a build-from-code ``source``."""
    folder = copy_tiny(tiny_dir, tmp_path)
    lines = (folder / "queries.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["source"] = {"module": "textwrap", "file": "textwrap.py", "line": 414}
    lines[0] = json.dumps(first)
    (folder / "queries.jsonl").write_text("\n".join(lines) + "\n")
    return folder


# --- the query header -------------------------------------------------------------------

def test_source_text_of_queries(tmp_path, tiny_dir):
    bench = load_benchmark(with_sources(tmp_path, tiny_dir))
    first, second = bench.queries[0], bench.queries[1]
    assert source_text(first) == "textwrap (textwrap.py:414)"
    assert source_text(second) == ""
    import dataclasses
    for bad, shown in [({"module": "m"}, "m"), ({"file": "a.py"}, "a.py"),
                       ({"module": "m", "file": "a.py", "line": "x"}, "m (a.py)"),
                       ("textwrap.py:1", ""), ({"module": 3, "file": "", "line": 1}, "")]:
        assert source_text(dataclasses.replace(first, extra={"source": bad})) == shown


def test_query_header_shows_the_source(qtbot, make_window, tmp_path, tiny_dir):
    folder = with_sources(tmp_path, tiny_dir)
    window = open_and_wait(qtbot, make_window(), folder, query="q_0001")
    title = window.candidates.title.text()
    assert "from textwrap (textwrap.py:414)" in title
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.browser.select_query("q_0002")
    assert "from " not in window.candidates.title.text().split("<br>")[0]


# --- the benchmark picker -------------------------------------------------------------------

def test_picker_lists_every_bundled_benchmark(qtbot, make_window, tmp_path, tiny_dir,
                                              monkeypatch):
    import execretrieval.benchmark.bundled as bundled

    data = tmp_path / "data"
    for name in ("builtin", "stdlib", "humaneval"):
        shutil.copytree(tiny_dir, data / name)
    (data / "not_a_benchmark").mkdir()
    monkeypatch.setattr(bundled, "bundled_root", lambda: data)
    window = make_window()
    with qtbot.waitSignal(window.state.query_ready, timeout=60000):
        window.open(None, model="bm25")
    box = window.picker.benchmark_box
    listed = [Path(box.itemData(i)).name for i in range(box.count())]
    assert listed[:3] == ["builtin", "humaneval", "stdlib"]
    assert "not_a_benchmark" not in listed


# --- running the command ------------------------------------------------------------------

FAKE = textwrap.dedent("""
    import sys, time
    from execretrieval.cli.progress import TerminalProgress
    out = sys.argv[1]
    print("resolving sources")
    try:
        with TerminalProgress("building") as progress:
            for i in range(int(sys.argv[2]) + 1):
                progress(i, int(sys.argv[2]))
                time.sleep(0.02)
    except KeyboardInterrupt:
        print("interrupted; left unchanged", file=sys.stderr)
        sys.exit(130)
    open(out, "w").write("done")
    print("3 tasks")
""")


def test_run_command_reads_the_progress_bar_and_cancels(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    seen: list[tuple[str, int, int]] = []
    lines: list[str] = []
    result = run_command([sys.executable, str(script), str(tmp_path / "o"), "30"],
                         progress=lambda *p: seen.append(p), line=lines.append,
                         should_stop=lambda: False)
    assert result.code == 0 and not result.cancelled
    assert (tmp_path / "o").read_text() == "done"
    # the bar is drawn on the pseudo-terminal and read as it is redrawn
    assert seen[0] == ("building", 0, 30) and seen[-1] == ("building", 30, 30)
    assert len(seen) > 3
    assert lines[0] == "resolving sources" and lines[-1] == "3 tasks"
    assert "building: 30/30 in" in lines[-2]
    start = time.monotonic()
    result = run_command([sys.executable, str(script), str(tmp_path / "p"), "100000"],
                         progress=lambda *p: None, line=lambda _: None,
                         should_stop=lambda: time.monotonic() - start > 1.5)
    assert result.cancelled and result.code == 130
    assert result.lines[-1] == "interrupted; left unchanged"
    assert not (tmp_path / "p").exists()


def test_parse_progress():
    assert parse_progress("building [####------] 4/10") == ("building", 4, 10)
    assert parse_progress("executing: 12/12 in 3.4s") == ("executing", 12, 12)
    assert parse_progress("wrote /tmp/x: 3 tasks") is None


def test_dialog_form_checks(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = window.build_from_code()
    qtbot.addWidget(dialog)
    assert dialog.isVisible()
    assert dialog.command() is None and "source" in dialog.status.text()
    dialog.source.setText("textwrap")
    assert dialog.command() is None and "output folder" in dialog.status.text()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine")
    dialog.out.setText(str(tmp_path / "notes"))
    assert dialog.command() is None and "not a benchmark folder" in dialog.status.text()
    dialog.out.setText(str(tmp_path / "new"))
    dialog.seed.setValue(3)
    dialog.limit.setValue(5)
    dialog.private.setChecked(True)
    argv = dialog.command()
    assert argv[1:] == ["-m", "execretrieval.cli", "build-from-code", "textwrap", "--out",
                        str(tmp_path / "new"), "--seed", "3", "--limit", "5",
                        "--include-private"]
    dialog.source.setText(f"'{PACKAGE}' html")
    assert dialog.command()[4:6] == [str(PACKAGE), "html"]
    assert dialog.build_button.isEnabled() == HAS_COMMAND
    dialog.reject()


@needs_command
def test_dialog_builds_and_opens_the_benchmark(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = window.build_from_code()
    dialog.source.setText("textwrap")
    dialog.out.setText(str(tmp_path / "tw"))
    dialog.limit.setValue(3)
    progress: list[tuple[str, int, int]] = []
    dialog.run.progress.connect(lambda *p: progress.append(p))
    with qtbot.waitSignal(dialog.built, timeout=600000) as built, \
            qtbot.waitSignal(window.state.query_ready, timeout=600000):
        dialog.build_button.click()
    assert built.args[0] == tmp_path / "tw"
    assert progress and progress[-1][1] == progress[-1][2]
    assert Path(window.state.benchmark.path) == tmp_path / "tw"
    assert "from textwrap (textwrap.py:" in window.candidates.title.text()
    assert not dialog.isVisible()


@needs_command
def test_dialog_cancel_leaves_nothing(qtbot, make_window, tmp_path):
    window = make_window()
    dialog = window.build_from_code()
    dialog.source.setText("textwrap html")
    dialog.out.setText(str(tmp_path / "stopped"))
    with qtbot.waitSignal(dialog.run.progress, timeout=300000):
        dialog.build_button.click()
    assert dialog.cancel_button.text() == "Cancel"
    with qtbot.waitSignal(dialog.run.finished, timeout=120000) as finished:
        dialog.cancel_button.click()
    assert finished.args[0].cancelled
    assert "left as it was" in dialog.status.text()
    assert "interrupted" in dialog.log.toPlainText()  # the command's own last word
    assert not (tmp_path / "stopped").exists()
    assert dialog.isVisible() and dialog.build_button.isEnabled()
    dialog.reject()
