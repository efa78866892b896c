"""The engine never imports Qt: it must import and work with PySide6 unimportable."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

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
        names = [info.name for info in pkgutil.walk_packages(execretrieval.__path__,
                                                            "execretrieval.")
                 if not info.name.endswith("__main__")
                 # run inside the sandbox with their folder on sys.path, never imported here
                 and "._sandbox_" not in info.name]
        for name in names:
            importlib.import_module(name)
        loaded = [m for m in sys.modules if m.startswith(("PySide6", "shiboken6"))]
        assert not loaded, loaded
        print("ok", len(names))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok")
    assert int(done.stdout.split()[1]) > 30  # every module of every subpackage was imported


# Everything the first release exported from ``execretrieval``: the layout may move modules,
# never these names.
RELEASE_0_1_NAMES = (
    "AnnotationError",
    "BUG_TYPES",
    "Benchmark",
    "BenchmarkError",
    "BenchmarkFormatError",
    "BenchmarkNotFoundError",
    "BuildError",
    "BuildResult",
    "BuildValidationError",
    "CancelledError",
    "Comparison",
    "DOMAINS",
    "EvaluationReport",
    "ExecRetrievalError",
    "InputFormatError",
    "Limits",
    "MemoryCache",
    "MetricCI",
    "ModelEvaluation",
    "ModelNotFoundError",
    "Mutant",
    "MutantSet",
    "Oracle",
    "OracleError",
    "Query",
    "ROLES",
    "Ranking",
    "ResultCache",
    "RetrieverError",
    "STATUSES",
    "SeedTask",
    "Snippet",
    "SuiteResult",
    "TestOutcome",
    "__version__",
    "atomic_directory",
    "atomic_write_bytes",
    "atomic_write_text",
    "available_models",
    "bootstrap_ci",
    "build",
    "compare",
    "evaluate",
    "evaluate_models",
    "execution_matrix",
    "generate_mutants",
    "import_humaneval",
    "load_benchmark",
    "mcnemar_exact",
    "paired_bootstrap_diff",
    "rank",
    "read_seed",
    "select_distractors",
    "write_benchmark",
    "write_report",
)


def test_every_public_name_imports() -> None:
    import execretrieval

    assert set(RELEASE_0_1_NAMES) <= set(execretrieval.__all__)
    missing = [name for name in execretrieval.__all__ if not hasattr(execretrieval, name)]
    assert not missing


def test_engine_layers_run_one_way() -> None:
    """No engine module imports a part above its own (tools/check_layers.py, make lint)."""
    done = subprocess.run([sys.executable, str(REPO / "tools" / "check_layers.py")],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "layers respected" in done.stdout


def test_an_upward_import_is_reported(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import check_layers
    finally:
        sys.path.pop(0)
    pkg = tmp_path / "core"
    for name, text in {
        "__init__.py": "", "errors.py": "",
        "oracle/__init__.py": "", "ranking/__init__.py": "",
        "oracle/execution.py": "def f():\n    from ..ranking import registry\n",
        "ranking/registry.py": "from ..errors import x\n",
    }.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    problems = check_layers.check(pkg, "execretrieval")
    assert problems == ["execretrieval.oracle.execution (oracle) imports "
                        "execretrieval.ranking.registry (ranking)"]


def test_importing_the_engine_is_cheap_until_a_name_is_used() -> None:
    """``from execretrieval import Oracle`` (every command's first line) loads no numpy."""
    script = textwrap.dedent(
        """
        import sys
        import execretrieval
        assert "numpy" not in sys.modules
        from execretrieval import Oracle, SuiteResult
        assert "numpy" not in sys.modules and "scipy" not in sys.modules
        from execretrieval import evaluate
        assert "numpy" in sys.modules and evaluate.__module__.endswith("measure.metrics")
        try:
            execretrieval.no_such_name
        except AttributeError as exc:
            assert "no_such_name" in str(exc)
        else:
            raise SystemExit("an unknown name must raise AttributeError")
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
