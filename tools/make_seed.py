#!/usr/bin/env python3
"""Write data/builtin/seed.jsonl from the hand-written tasks in tools/seed_src/*.py.

Order is stable: modules sorted by their DOMAIN, tasks in file order. Each line is one JSON
object with the keys query, function_name, domain, canonical, test_suite (and distractors
when a task has hand-written ones). The output is written atomically and is byte-identical
for identical sources. Then build the bundled benchmark into the same folder; the builder
keeps the seed file it read (see execretrieval.build.builder)::

    python tools/check_seed_src.py
    python tools/make_seed.py
    execretrieval build data/builtin/seed.jsonl --out data/builtin --name builtin --license MIT

Exit status: 0 written, 1 a module is unusable (nothing is written).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SEED_DIR = REPO / "tools" / "seed_src"
DEFAULT_OUT = REPO / "data" / "builtin" / "seed.jsonl"
KEYS = ("query", "function_name", "domain", "canonical", "test_suite")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"seed_src_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seed_lines(seed_dir: Path = SEED_DIR) -> list[str]:
    """The seed file's lines, domains sorted, tasks in file order."""
    modules = []
    for path in sorted(seed_dir.glob("*.py")):
        if path.name.startswith("_"):
            continue
        module = _load(path)
        domain, tasks = getattr(module, "DOMAIN", None), getattr(module, "TASKS", None)
        if not isinstance(domain, str) or not isinstance(tasks, list):
            raise ValueError(f"{path.name}: needs DOMAIN (str) and TASKS (list)")
        modules.append((domain, path.name, tasks))
    lines = []
    for domain, name, tasks in sorted(modules):
        for i, task in enumerate(tasks):
            record: dict[str, Any] = {}
            for key in KEYS:
                value = domain if key == "domain" else task.get(key)
                if value is None:
                    raise ValueError(f"{name}: task {i}: missing {key!r}")
                record[key] = list(value) if key == "test_suite" else value
            if task.get("domain", domain) != domain:
                raise ValueError(f"{name}: task {i}: domain {task['domain']!r} differs from "
                                 f"the module's {domain!r}")
            if task.get("distractors"):
                record["distractors"] = task["distractors"]
            lines.append(json.dumps(record, ensure_ascii=False))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="seed file to write")
    parser.add_argument("--src", type=Path, default=SEED_DIR, help="folder of task modules")
    args = parser.parse_args(argv)
    try:
        lines = seed_lines(args.src)
    except Exception as exc:  # any import or shape problem: report, write nothing
        print(f"make_seed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    sys.path.insert(0, str(REPO))
    from execretrieval.fileio import atomic_write_text

    atomic_write_text(args.out, "".join(line + "\n" for line in lines))
    counts: dict[str, int] = {}
    for line in lines:
        domain = json.loads(line)["domain"]
        counts[domain] = counts.get(domain, 0) + 1
    print(f"wrote {args.out}: {len(lines)} tasks; "
          + ", ".join(f"{d} {n}" for d, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
