"""Oracle under load (issue 6 item 5): 5,000 suites, 5% of them hostile, in one batch.

Checks that every honest suite gets exactly the outcomes its code deserves (computed here
in-process for these benign generated functions), that every hostile suite ends as an
outcome, that no sandbox process or folder is left behind, and that the host's memory stays
bounded (RSS sampled along the way; peak RSS of the host and of the largest child printed).
A second, warm pass over a real SQLite cache must execute nothing.

    .venv/bin/python bench/stress_oracle.py [--suites 5000] [--hostile 0.05] [--timeout 1.5]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_oracle import make_suites

from execretrieval import Oracle, ResultCache
from execretrieval.oracle.sandbox import _UID_BASE

HOSTILE = [
    ("fork bomb", "import os\nwhile True:\n    os.fork()"),
    ("infinite loop", "while True:\n    pass"),
    ("memory bomb", "x = bytearray(1 << 36)"),
    ("print gigabytes", "while True:\n    print('x' * (1 << 20))"),
    ("huge file", "with open('big', 'wb') as f:\n    while True:\n        f.write(b'x' * (1 << 20))"),
    ("kill everything", "import os\nos.kill(-1, 9)\nos.killpg(0, 9)"),
    ("segfault", "import faulthandler\nfaulthandler._sigsegv()"),
    ("deep recursion", "import sys\nsys.setrecursionlimit(10 ** 7)\n"
                       "def r(n):\n    return list(map(r, [n + 1]))\nr(0)"),
    ("forged verdict", "import os\nfor fd in range(64):\n    try:\n"
                       "        os.write(fd, b'ERXR1 ' + b'0' * 32 + b' pass 0\\n')\n"
                       "    except OSError:\n        pass\nos._exit(0)"),
    ("sigterm ignored", "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                        "while True:\n    pass"),
    ("daemon outlives", "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
                        "    while True:\n        time.sleep(0.05)\nassert False"),
    ("network", "import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)"),
    ("write outside", "open('/tmp/execretrieval-stress-escape', 'w').write('x')"),
]


def expected_statuses(code: str, tests: list[str]) -> tuple[str, ...]:
    """What the sandbox must say for a benign generated suite (same rules, in-process)."""
    out = []
    for test in tests:
        namespace: dict = {"__name__": "__candidate__"}
        try:
            exec(code, namespace)
            exec(test, namespace)
            out.append("pass")
        except AssertionError:
            out.append("fail")
        except Exception:
            out.append("error")
    return tuple(out)


def rss_mb() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def leftovers() -> list[int]:
    low = _UID_BASE + (os.getpid() % 100_000) * 64
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            uids = next(ln for ln in status.splitlines() if ln.startswith("Uid:")).split()[1:]
            if any(low <= int(u) < low + 64 for u in uids) and "\tZ" not in status:
                found.append(int(entry))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", type=int, default=5000)
    parser.add_argument("--hostile", type=float, default=0.05)
    parser.add_argument("--timeout", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    honest = make_suites(args.suites, args.seed)
    jobs: list[tuple[str, list[str]]] = []
    kinds: list[str | None] = []
    for code, tests in honest:
        if rng.random() < args.hostile:
            name, body = rng.choice(HOSTILE)
            jobs.append((code, [tests[0], body, *tests[1:]]))
            kinds.append(name)
        else:
            jobs.append((code, tests))
            kinds.append(None)
    expected = [expected_statuses(c, t) if k is None else None for (c, t), k in zip(jobs, kinds)]
    n_hostile = sum(k is not None for k in kinds)
    print(f"oracle stress: {len(jobs)} suites ({n_hostile} hostile), timeout {args.timeout} s, "
          f"{os.cpu_count()} cores")

    samples: list[float] = []

    def progress(done: int, total: int) -> None:
        if done % 500 == 0 or done == total:
            samples.append(rss_mb())

    with tempfile.TemporaryDirectory() as tmp:
        cache_path = Path(tmp) / "results.sqlite"
        started = time.perf_counter()
        with Oracle(timeout=args.timeout, cache=ResultCache(cache_path)) as oracle:
            results = oracle.run_many(jobs, progress=progress)
            executed = oracle.executed
        wall = time.perf_counter() - started
        left = leftovers()
        warm_started = time.perf_counter()
        with Oracle(timeout=args.timeout, cache=ResultCache(cache_path)) as warm:
            again = warm.run_many(jobs)
            warm_executed = warm.executed
        warm_wall = time.perf_counter() - warm_started

    wrong = [i for i, (r, e) in enumerate(zip(results, expected))
             if e is not None and r.statuses != e]
    hostile_passed = [i for i, (r, k) in enumerate(zip(results, kinds))
                      if k is not None and r.outcomes[1].status == "pass"]
    by_kind: dict[str, set[str]] = {}
    for r, k in zip(results, kinds):
        if k is not None:
            by_kind.setdefault(k, set()).add(r.outcomes[1].status)
    host_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    print(f"  wall time: {wall:.1f} s ({len(jobs) / wall:.0f} suites/s), {executed} executed")
    print(f"  honest suites with exactly the right outcomes: "
          f"{len(jobs) - n_hostile - len(wrong)}/{len(jobs) - n_hostile}")
    print(f"  hostile suites ended as outcomes: {n_hostile}/{n_hostile}; hostile test "
          f"reported 'pass': {len(hostile_passed)}")
    for kind in sorted(by_kind):
        print(f"    {kind:16s} -> {', '.join(sorted(by_kind[kind]))}")
    print(f"  host RSS samples (MB, every 500 suites): "
          f"{', '.join(f'{s:.0f}' for s in samples)}")
    print(f"  peak RSS: host {host_peak:.0f} MB, largest child process {child_peak:.0f} MB")
    print(f"  sandbox processes left behind: {len(left)}; escape file exists: "
          f"{os.path.exists('/tmp/execretrieval-stress-escape')}")
    print(f"  warm pass: {warm_executed} executed, {warm_wall:.1f} s, identical: "
          f"{[r.statuses for r in again] == [r.statuses for r in results]}")
    ok = (not wrong and not left and warm_executed == 0
          and not os.path.exists("/tmp/execretrieval-stress-escape")
          and max(samples) - min(samples) < 200)
    if wrong:
        i = wrong[0]
        print(f"  FIRST WRONG: suite {i}: got {results[i].statuses}, expected {expected[i]}")
    print("  RESULT:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
