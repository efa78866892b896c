"""``execretrieval pool``: extract a background pool of real functions (issue 14).

``execretrieval pool [SOURCE ...] --out POOL.jsonl [--limit N] [--exclude-benchmark DIR]``
exits 0 when the pool was written, 2 on bad input, 130 when interrupted (nothing written).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .args import positive_int

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``pool`` to the ``execretrieval`` parser."""
    p = subparsers.add_parser(
        "pool", help="extract a background pool of real functions from Python sources",
        description="Extract every function (module-level, methods, nested) of Python source "
                    "trees into a background pool file, one JSON object a line: corpus_id, "
                    "code, source (module path:line), function_name. Duplicates (same "
                    "ast.dump) are dropped; the same sources give the same file byte for "
                    "byte. Use it with evaluate/compare/export-run --pool.")
    p.add_argument("sources", nargs="*", metavar="SOURCE",
                   help="a folder, a .py file, 'stdlib' or an installed package name "
                        "(default: the running interpreter's standard library)")
    p.add_argument("--out", required=True, metavar="POOL.jsonl", help="pool file to write")
    p.add_argument("--limit", type=positive_int, metavar="N",
                   help="stop after N functions")
    p.add_argument("--exclude-benchmark", action="append", default=[], metavar="DIR",
                   help="leave out functions named like one of this benchmark's target "
                        "functions (repeatable; evaluate --pool leaves them out anyway)")
    p.add_argument("--include-tests", action="store_true",
                   help="also read test folders (test, tests, idle_test) and test_*.py")
    p.set_defaults(handler=_pool)


def _pool(args: argparse.Namespace) -> int:
    from ..benchmark.dataset import load_benchmark
    from ..benchmark.pool import write_pool
    from ..build.background import extract_pool, resolve_source
    from .progress import TerminalProgress

    trees = [resolve_source(s) for s in args.sources]
    names: set[str] = set()
    for folder in args.exclude_benchmark:
        names |= {q.function_name for q in load_benchmark(folder).queries}
    label = ", ".join(t.label for t in trees) or "stdlib"
    with TerminalProgress(f"reading {label}") as progress:
        snippets, stats = extract_pool(trees or None, limit=args.limit, exclude_names=names,
                                       include_tests=args.include_tests, progress=progress)
    if not snippets:
        print(f"execretrieval pool: error: no functions found in {label}", file=sys.stderr)
        return 2
    write_pool(args.out, snippets)
    print(f"wrote {args.out}: {stats.kept} functions from {stats.files} files "
          f"({stats.functions} definitions read; left out {stats.duplicates} duplicates, "
          f"{stats.unparseable} that do not parse alone, {stats.excluded_by_name} named "
          f"like a query; {stats.unreadable_files} files unreadable)")
    return 0
