"""``execretrieval benchmarks [--json]``: the bundled and the recently opened benchmarks."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "benchmarks", help="list the bundled and the recently opened benchmarks",
        description="List the benchmarks that come with the program (open them by name: "
                    "`execretrieval validate builtin`) and the folders recently opened in "
                    "the inspector, with their paths and counts.")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..benchmark.catalog import catalog, recent_file

    entries, warning = catalog()
    if warning:
        print(f"execretrieval benchmarks: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps({"benchmarks": [e.to_dict() for e in entries],
                          "recent_file": str(recent_file())}, indent=2))
        return 0
    if not entries:
        print("no benchmarks: none are bundled with this installation and none were opened")
        return 0
    width = max(len(e.name) for e in entries)
    for kind, title in (("bundled", "bundled (open by name)"), ("recent", "recently opened")):
        rows = [e for e in entries if e.kind == kind]
        if not rows:
            continue
        print(f"{title}:")
        for e in rows:
            if e.problem:
                counts = f"({e.problem})"
            else:
                counts = f"{e.queries} queries, {e.snippets} snippets"
                if e.embeddings:
                    counts += f", embeddings: {', '.join(e.embeddings)}"
            print(f"  {e.name:<{width}}  {counts}\n  {'':<{width}}  {e.path}")
    return 0
