"""Shared fixtures: every test gets private cache, data and settings folders."""

from __future__ import annotations

import json
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from execretrieval import cli
from execretrieval.oracle.limits import Limits

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"
#: an oracle limit for tests whose generated inputs include some on which code loops
#: (the input engine keeps the limit for the canonical's chunks: each such input costs it),
#: in CPU seconds as a build counts them (``LOOP_LIMITS``: ten times as much wall time stops
#: a sleeper), so the verdicts near it do not depend on what else the machine runs
LOOP_LIMIT = 0.5
LOOP_LIMITS = Limits(wall_backstop=10)


@pytest.fixture(autouse=True)
def _children_answer_sigint() -> None:
    # A shell that runs a command in the background without job control (`make test &` in
    # a script, `nohup ... &`) starts it with SIGINT ignored, and an ignored signal stays
    # ignored across exec: every command a test interrupts (Ctrl+C in the CLI, the GUI's
    # Cancel) would run on to its end, as in a CI run started that way. A handler of
    # Python's own is reset to the default on exec, so each test's children answer SIGINT
    # as a terminal user's would.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files that hold a ``slow`` test run first, each file's tests kept together and in
    order: ``make test`` hands whole files to the xdist workers in this order
    (``--dist loadfile --no-loadscope-reorder``), so a file of one or two minute-long
    tests starts early instead of running alone at the end while the other worker idles
    (xdist's default order, most tests first, put exactly those files last)."""
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    first = {path: n for n, path in enumerate(dict.fromkeys(item.path for item in items))}
    items.sort(key=lambda item: (item.path not in slow, first[item.path]))


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep tests away from the user's real cache, annotations and settings."""
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("EXECRETRIEVAL_CACHE_DIR", str(base / "cache"))
    monkeypatch.setenv("EXECRETRIEVAL_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    yield


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]):
    """``run_cli(*argv)`` -> (exit code, stdout, stderr) of the CLI run in this process."""
    def run(*argv: object) -> tuple[int, str, str]:
        code = cli.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def tiny_dir() -> Path:
    """The tiny benchmark shipped in data/tiny."""
    return DATA / "tiny"


def copy_tiny(tiny_dir: Path, tmp_path: Path) -> Path:
    """A private, editable copy of data/tiny."""
    target = tmp_path / "bench"
    shutil.copytree(tiny_dir, target)
    return target


def edit_jsonl_line(path: Path, line_no: int, change: Callable[[dict[str, Any]], Any]) -> None:
    """Apply ``change`` to the JSON object on line ``line_no`` (1-based) of a JSONL file."""
    lines = path.read_text().splitlines()
    obj = json.loads(lines[line_no - 1])
    change(obj)
    lines[line_no - 1] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n")
