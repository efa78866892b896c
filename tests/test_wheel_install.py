"""The built wheel installs into a fresh virtual environment and works there as a user
would use it: from a folder outside the checkout, bundled benchmarks by name, the GUI
rendering a real window.

The venv is made without pip (fast) and filled by this interpreter's pip
(``pip --python``, without byte-compiling), which resolves numpy, scipy, pandas,
platformdirs and PySide6 from the configured index as any user's install would; nothing
of the checkout is on its path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.slow


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the wheel, the sdist) that ``python -m build`` makes; the wheel is built from the
    sdist, so a file the sdist forgets is missing from the wheel too."""
    out = tmp_path_factory.mktemp("dist")
    done = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, REPO],
                cwd=out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels, sdists = list(out.glob("*.whl")), list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(out.iterdir())
    yield wheels[0], sdists[0]


@pytest.fixture(scope="module")
def venv(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (no system site-packages) with the wheel and its dependencies."""
    root = tmp_path_factory.mktemp("venv") / "env"
    done = _run([sys.executable, "-m", "venv", "--without-pip", root], cwd=root.parent)
    assert done.returncode == 0, done.stderr
    python = root / "bin" / "python"
    # --no-compile: byte-compiling numpy's and scipy's sources would triple the time; the
    # modules compile as they are first imported instead
    done = _run([sys.executable, "-m", "pip", "--python", python, "install", "-q",
                 "--no-compile", "--disable-pip-version-check", built[0]], cwd=root.parent)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return root


@pytest.fixture
def user_env(tmp_path: Path) -> dict[str, str]:
    """An environment with nothing of the checkout in it (no PYTHONPATH, no venv)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(EXECRETRIEVAL_DATA_DIR=str(tmp_path / "data"),
               EXECRETRIEVAL_CACHE_DIR=str(tmp_path / "cache"),
               XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "share"),
               QT_QPA_PLATFORM="offscreen")
    return env


def test_the_wheel_carries_every_bundled_file(built: tuple[Path, Path]) -> None:
    wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"execretrieval/bundled/{p.relative_to(REPO / 'data').as_posix()}"
                for p in (REPO / "data").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    expected |= {f"execretrieval_gui/resources/{p.name}" for p in (REPO / "resources").iterdir()
                 if p.is_file()}
    assert expected - names == set()
    assert "execretrieval/bundled/humaneval/LICENSE" in names
    assert "execretrieval/bundled/stdlib/build_report.json" in names
    assert not [n for n in names if n.startswith(("tests/", "data/", "resources/", "tools/"))]


def test_installed_wheel_works_outside_the_checkout(venv: Path, tmp_path: Path,
                                                   user_env: dict[str, str]) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    bin_ = venv / "bin"
    done = _run([bin_ / "python", "-c", "import execretrieval, execretrieval_gui; "
                 "print(execretrieval.__file__); print(execretrieval_gui.__file__)"],
                cwd=work, env=user_env)
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        assert Path(line).is_relative_to(venv), line   # the installed copy, not the checkout

    done = _run([bin_ / "execretrieval", "validate", "tiny"], cwd=work, env=user_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all gates passed" in done.stdout

    done = _run([bin_ / "execretrieval", "benchmarks", "--json"], cwd=work, env=user_env)
    assert done.returncode == 0, done.stderr
    listed = {e["name"]: e for e in json.loads(done.stdout)["benchmarks"]}
    assert set(listed) == {"builtin", "humaneval", "stdlib", "tiny"}
    assert all(Path(e["path"]).is_relative_to(venv) for e in listed.values())
    assert (listed["builtin"]["queries"], listed["builtin"]["snippets"]) == (160, 800)

    done = _run([bin_ / "execretrieval", "--version"], cwd=work, env=user_env)
    assert done.returncode == 0
    assert f"at {bin_ / 'python'})" in done.stdout
    assert "extras installed: none; not installed: dense, distributed, humaneval" in done.stdout

    shot = work / "out.png"
    done = _run([bin_ / "execretrieval-gui", "tiny", "--model", "bm25", "--query",
                 "lowest_set_bit", "--screenshot", shot], cwd=work, env=user_env)
    assert done.returncode == 0, done.stderr
    from PySide6.QtGui import QColor, QImage

    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 7) for y in range(0, 800, 7)}
    assert len(colours) > 50, "not a blank picture"
    # the style sheet came from the installed package data: the dock titles wear its colour
    dock_title = QColor("#e6e9ee").rgb()
    assert sum(image.pixel(x, y) == dock_title
               for x in range(0, 1280, 4) for y in range(0, 800, 4)) > 200

    done = _run([bin_ / "execretrieval-gui", "--install-desktop-entry"], cwd=work,
                env=user_env)
    assert done.returncode == 0, done.stderr
    entry = Path(user_env["XDG_DATA_HOME"]) / "applications" / "execretrieval-inspector.desktop"
    assert f"Exec={bin_ / 'execretrieval-gui'}\n" in entry.read_text()
