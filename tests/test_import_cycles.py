"""tools/check_imports.py finds import cycles, function-level ones included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "check_imports.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, check=False)


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_function_level_cycle_is_found(tmp_path: Path) -> None:
    pkg = _package(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from .b import g\n",
        "b.py": "def g():\n    from . import a\n    return a\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import x\n",
        "d.py": "from pkg.c import y\n",
        "sub/__init__.py": "",
        "sub/e.py": "from ..a import z\nimport pkg.sub.f\n",
        "sub/f.py": "def h():\n    from .e import z\n",
    })
    done = _run(str(pkg))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pkg.a -> pkg.b -> pkg.a" in done.stdout
    assert "pkg.sub.e -> pkg.sub.f -> pkg.sub.e" in done.stdout
    assert "pkg.c" not in done.stdout          # TYPE_CHECKING imports never run
    assert "2 import cycle(s)" in done.stdout


def test_name_from_an_ancestor_init_counts(tmp_path: Path) -> None:
    pkg = _package(tmp_path / "lib", {
        "__init__.py": "from .core import Thing\n",
        "core.py": "class Thing: ...\n",
        "helper.py": "def f():\n    from lib import Thing\n",   # the __init__ does not import it
    })
    assert _run(f"{pkg}=lib").returncode == 0
    (pkg / "core.py").write_text("def f():\n    from lib import helper\n    from . import Thing\n")
    done = _run(f"{pkg}=lib")
    assert done.returncode == 1 and "lib -> lib.core -> lib" in done.stdout


def test_gui_has_no_import_cycles() -> None:
    done = _run("execretrieval_gui")
    assert done.returncode == 0, done.stdout
    assert "no import cycles" in done.stdout
