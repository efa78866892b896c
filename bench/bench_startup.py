"""Start-up benchmark: whole commands as a user runs them, against the bare minimum.

Each pair runs as fresh processes (the parent's wall clock, interpreter start included),
alternating ours and the reference over several rounds after one untimed warm-up each (so
bytecode caches exist, as in any installation); every round, the median ratio and the load
average are printed, since other work on a shared machine moves wall times.

1. ``execretrieval --version`` against ``python -c pass`` (target <= 3x);
2. ``execretrieval run-tests`` on one 8-test suite (a new suite each round, so the result
   cache misses as for a file just written; the cache itself is on, as by default) against
   a naive ``python -I`` runner that execs code and tests in fresh namespaces (<= 4x);
3. ``execretrieval-gui`` launch to usable (the window shown with data/builtin ranked by
   minilm, ``lowest_set_bit``'s candidates, diff and cached outcomes) against a bare
   PySide6 window shown (<= 2.5x); both print a line when they get there, and the time is
   the parent's until it reads that line. The launch after the warm-up finds the first
   screen the warm-up kept (``first-screen/`` in the cache folder, as a user's second start
   does: see the README) beside the cached outcomes; the same launch without it (the
   ranking computed before the window is usable, as at the first start on a benchmark) is
   measured too, without a target.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_startup.py [--rounds R]``
(``make bench``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

NAIVE_RUNNER = r'''
import json, sys
job = json.loads(open(sys.argv[1]).read())
out = []
for test in job["tests"]:
    ns = {"__name__": "__candidate__"}
    try:
        exec(job["code"], ns)
        exec(test, ns)
        out.append("pass")
    except AssertionError:
        out.append("fail")
    except BaseException:
        out.append("error")
print(json.dumps(out))
'''

TESTS = ["assert clamp(5, 0, 10) == 5", "assert clamp(-1, 0, 10) == 0",
         "assert clamp(11, 0, 10) == 10", "assert clamp(0, 0, 10) == 0",
         "assert clamp(10, 0, 10) == 10", "assert clamp(3, 3, 3) == 3",
         "assert clamp(-5, -10, -1) == -5", "assert clamp(7, 8, 9) == 8"]

# The GUI as app.main opens it, printing one line once the first query is usable.
GUI_LAUNCH = r'''
import os, sys, tempfile
from PySide6.QtCore import QSettings, QTimer
from execretrieval_gui.app import create_app
from execretrieval_gui.mainwindow import MainWindow
app = create_app()
settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
window = MainWindow(settings)
window.show()
def ready(query_id):
    rows = window.candidates.model.rows
    if rows and all(r.outcome is not None for r in rows):
        print("usable", query_id, len(rows), flush=True)
        QTimer.singleShot(0, app.quit)
window.state.query_ready.connect(ready)
window.open(sys.argv[1], model=sys.argv[2], query=sys.argv[3])
app.exec()
window.close()
'''

BARE_WINDOW = r'''
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
app = QApplication(["bare"])
window = QMainWindow()
window.setCentralWidget(QLabel("hello"))
window.show()
app.processEvents()
print("usable", flush=True)
'''


def _env() -> dict[str, str]:
    """The environment a user's shell gives: bytecode caches written as usual."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def whole(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning ``argv`` to its exit; a failure stops the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:3])}...: exit {done.returncode}\n{done.stderr[-2000:]}")
    return elapsed


def until_line(argv: list[str], env: dict[str, str], marker: str = "usable") -> float:
    """Seconds from spawning ``argv`` to the line it prints starting with ``marker``."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(marker):
            elapsed = time.perf_counter() - started
            break
    else:
        proc.wait()
        raise SystemExit(f"{' '.join(argv[:3])}...: never printed {marker!r}\n"
                         f"{proc.stderr.read()[-3000:] if proc.stderr else ''}")
    proc.communicate(timeout=120)
    return elapsed


def compare(title: str, ours: Callable[[int], float], reference: Callable[[int], float],
            rounds: int, target: float | None, *, at_most: bool = True) -> float:
    ours(-1)
    reference(-1)   # warm-up: bytecode caches, the result cache's file, the page cache
    rows = []
    for r in range(rounds):
        a, b = ours(r), reference(r)
        rows.append((a, b, os.getloadavg()[0]))
    ratios = [a / b for a, b, _ in rows]
    median = statistics.median(ratios)
    print(f"{title}")
    for i, (a, b, load) in enumerate(rows, 1):
        print(f"  round {i}: ours {1000 * a:7.1f} ms, reference {1000 * b:7.1f} ms -> "
              f"{a / b:4.1f}x  (load average {load:.1f})")
    print(f"  median: ours {1000 * statistics.median(a for a, _, _ in rows):.1f} ms, reference "
          f"{1000 * statistics.median(b for _, b, _ in rows):.1f} ms, ratio {median:.2f}x "
          f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})" + (
              "" if target is None else f"; target {'<=' if at_most else '>='} {target:g}x: "
              f"{'met' if (median <= target if at_most else median >= target) else 'MISSED'}"))
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", choices=("version", "run-tests", "gui"), action="append",
                        help="measure only these commands (repeatable; default: all three)")
    args = parser.parse_args()
    only = set(args.only or ("version", "run-tests", "gui"))
    env = _env()
    python = sys.executable
    cli = str(BIN / "execretrieval")
    print(f"start-up benchmark: whole commands, {args.rounds} rounds each (after one warm-up), "
          f"{os.cpu_count()} cores; load average now {os.getloadavg()[0]:.1f} (the machine may "
          "be shared)")

    if "version" in only:
        compare("execretrieval --version  vs  python -c pass",
                lambda _r: whole([cli, "--version"], env),
                lambda _r: whole([python, "-c", "pass"], env), args.rounds, 3.0)

    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        base = Path(tmp)
        suite_env = {**env, "EXECRETRIEVAL_CACHE_DIR": str(base / "cache")}
        runner = base / "naive_runner.py"
        runner.write_text(NAIVE_RUNNER)
        tests = base / "tests.json"
        tests.write_text(json.dumps(TESTS))

        def code_file(r: int, kind: str) -> Path:
            # a new suite every round: the result cache has never seen it
            path = base / f"{kind}{r + 1}.py"
            path.write_text(f"# round {r} ({kind})\ndef clamp(x, lo, hi):\n"
                            "    return max(lo, min(x, hi))\n")
            return path

        def naive(r: int) -> float:
            job = base / f"job{r + 1}.json"
            job.write_text(json.dumps({"code": code_file(r, "naive").read_text(),
                                       "tests": TESTS}))
            return whole([python, "-I", str(runner), str(job)],
                         {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"})

        if "run-tests" in only:
            compare("execretrieval run-tests (one 8-test suite, cache on, new suite)  vs  "
                    "naive python -I runner",
                    lambda r: whole([cli, "run-tests", "--code", str(code_file(r, "ours")),
                                     "--tests", str(tests)], suite_env),
                    naive, args.rounds, 4.0)

        gui_env = {**env, "EXECRETRIEVAL_CACHE_DIR": str(base / "gui-cache"),
                   "EXECRETRIEVAL_DATA_DIR": str(base / "gui-data")}
        launch = [python, "-c", GUI_LAUNCH, str(ROOT / "data" / "builtin"), "minilm",
                  "lowest_set_bit"]
        if "gui" not in only:
            print(f"load average at the end: {os.getloadavg()[0]:.1f}")
            return 0
        until_line(launch, gui_env)   # first launch executes the top 10: cache them
        compare("execretrieval-gui launch -> usable (builtin, minilm, lowest_set_bit: ranked, "
                "diffed, cached outcomes shown)  vs  a bare PySide6 window shown",
                lambda _r: until_line(launch, gui_env),
                lambda _r: until_line([python, "-c", BARE_WINDOW], env), args.rounds, 2.5)
        kept = base / "gui-cache" / "first-screen"

        def ranked_afresh(_r: int) -> float:
            shutil.rmtree(kept, ignore_errors=True)   # as the first start on this benchmark
            return until_line(launch, gui_env)

        compare("the same, the first screen not kept from a last start (the ranking computed "
                "before the window is usable)  vs  a bare PySide6 window shown",
                ranked_afresh, lambda _r: until_line([python, "-c", BARE_WINDOW], env),
                args.rounds, None)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
