"""``execretrieval build-from-code`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_fromcode_build import PACKAGE


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "tinypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    return pkg


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    return {**os.environ, "EXECRETRIEVAL_CACHE_DIR": str(tmp_path / "cache")}


def test_bad_source_exits_2_and_writes_nothing(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "out"
    code, _, err = run_cli("build-from-code", "no_such_module_xyz", "--out", out)
    assert code == 2
    assert "no_such_module_xyz" in err
    assert not out.exists()
    code, _, err = run_cli("build-from-code", tmp_path / "missing.py", "--out", out)
    assert code == 2 and "missing.py" in err and not out.exists()


def test_min_tests_above_max_tests_is_bad_usage(tmp_path: Path, run_cli) -> None:
    code, _, err = run_cli("build-from-code", "textwrap", "--out", tmp_path / "o",
                           "--min-tests", "9", "--max-tests", "8")
    assert code == 2 and "--min-tests" in err


def test_folder_package_build_prints_the_summary(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    out = tmp_path / "bench"
    done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "build-from-code",
                           str(pkg), "--out", str(out), "--name", "tiny"],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=600)
    assert done.returncode == 0, done.stderr
    assert "tinypkg" in done.stdout and "reads the clock 1" in done.stdout
    assert "wrote" in done.stdout and "2 tasks" in done.stdout
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    assert report["counts"]["tasks"] == 2
    valid = subprocess.run([sys.executable, "-m", "execretrieval.cli", "validate", str(out)],
                           capture_output=True, text=True, env=_env(tmp_path), timeout=600)
    assert valid.returncode == 0, valid.stdout + valid.stderr


def test_include_methods_makes_static_methods_candidates(tmp_path: Path) -> None:
    """Without --include-methods ``Ruler.parse`` (a @staticmethod) is skipped as a method;
    with it, it is considered like a module-level function (sliced, run, judged)."""
    shapes = Path(__file__).parent / "data" / "fromcode_pkg" / "shapes"
    reasons = []
    for flags in ((), ("--include-methods",)):
        out = tmp_path / f"bench{len(flags)}"
        done = subprocess.run([sys.executable, "-m", "execretrieval.cli", "build-from-code",
                               str(shapes / "units.py"), "--out", str(out), *flags],
                              capture_output=True, text=True, env=_env(tmp_path), timeout=600)
        assert done.returncode == 0, done.stderr
        report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
        found = {f["name"]: f for f in report["functions"]}
        reasons.append((found["parse"]["status"], found["parse"]["reason"]))
    assert reasons[0] == ("skipped", "method")
    assert reasons[1][1] != "method"
