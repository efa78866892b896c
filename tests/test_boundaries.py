"""The engine never imports Qt: it must import and work with PySide6 unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import REPO


def test_engine_imports_without_qt() -> None:
    script = textwrap.dedent(
        """
        import importlib, pkgutil, sys
        class BlockQt:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "shiboken6"):
                    raise ImportError("Qt is blocked in the engine")
        sys.meta_path.insert(0, BlockQt())
        import execretrieval
        for info in pkgutil.iter_modules(execretrieval.__path__):
            importlib.import_module("execretrieval." + info.name)
        loaded = [m for m in sys.modules if m.startswith(("PySide6", "shiboken6"))]
        assert not loaded, loaded
        print("ok", len(list(pkgutil.iter_modules(execretrieval.__path__))))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
