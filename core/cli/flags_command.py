"""``execretrieval flags DIR``: list, add, import and export the annotators' flags.

Flags live in the annotation store (``--store FILE``, default the user's store, the same
one the GUI uses). Test numbers are 1-based everywhere. Exit 0 on success, 2 on bad input
(unknown query, test out of range, a malformed import file: nothing is imported then).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputFormatError
from .args import positive_int
from .choices import FLAG_CATEGORIES

if TYPE_CHECKING:
    from ..benchmark.dataset import Benchmark
    from ..benchmark.flags import Flag

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "flags", help="list, add, import or export flags on a benchmark's queries",
        description="List the flags on DIR's queries (who, what, open or resolved, stale when "
                    "the query changed since it was flagged); add one; import or export "
                    "CSV / JSON Lines (by extension) with 1-based test numbers, the function "
                    "name and the test text. Import skips duplicates and flags about queries, "
                    "tests or candidates DIR does not have, and says so.")
    parser.add_argument("directory", metavar="DIR", type=Path, help="benchmark folder")
    parser.add_argument("--json", action="store_true", help="print the flags as JSON")
    parser.add_argument("--add", metavar="QUERY_ID", help="flag this query (id or function "
                                                          "name); needs --category")
    parser.add_argument("--category", choices=FLAG_CATEGORIES, help="category of --add")
    parser.add_argument("--note", default="", metavar="T", help="note of --add")
    parser.add_argument("--test", type=positive_int, metavar="N",
                        help="flag test N (1-based) of the query instead of its whole suite")
    parser.add_argument("--candidate", metavar="CORPUS_ID",
                        help="flag this candidate of the query instead of its suite")
    parser.add_argument("--import", dest="import_file", type=Path, metavar="FILE",
                        help="add the flags of a CSV or JSONL file")
    parser.add_argument("--export", type=Path, metavar="FILE",
                        help="write every flag to FILE (.csv or .jsonl)")
    parser.add_argument("--claim-legacy", action="store_true",
                        help="attach flags migrated from an older store whose benchmark version "
                             "is gone to DIR's queries of the same id (they show as stale)")
    parser.add_argument("--store", type=Path, metavar="FILE",
                        help="annotation store (default: the user's, as the GUI uses)")
    parser.add_argument("--annotator", metavar="NAME",
                        help="who --add and --import flags are from (default: the OS user)")
    parser.set_defaults(handler=_run)


def _flag_to_add(args: argparse.Namespace, bench: Benchmark) -> Flag:
    from ..benchmark.flags import Flag, check_target
    from ..errors import AnnotationError

    if args.category is None:
        raise InputFormatError("--add needs --category", field="--category")
    target = "test" if args.test is not None else (
        "candidate" if args.candidate is not None else "query")
    try:
        check_target(args.category, target)
    except AnnotationError as exc:
        raise InputFormatError(str(exc), field="--category") from exc
    query = bench.find_query(args.add)
    if query is None:
        raise InputFormatError(f"no query {args.add!r} in {bench.name}", field="--add")
    if args.test is not None and args.candidate is not None:
        raise InputFormatError("give --test or --candidate, not both", field="--test")
    if args.test is not None:
        if args.test > len(query.test_suite):
            raise InputFormatError(f"{query.query_id} has {len(query.test_suite)} tests",
                                   field="--test")
        return Flag(query.query_id, args.category, target="test", test_index=args.test - 1,
                    note=args.note)
    if args.candidate is not None:
        ids = {s.corpus_id for s in bench.snippets_for(query.query_id)}
        if args.candidate not in ids:
            raise InputFormatError(f"{args.candidate!r} is not a candidate of "
                                   f"{query.query_id} ({', '.join(sorted(ids))})",
                                   field="--candidate")
        return Flag(query.query_id, args.category, target="candidate",
                    corpus_id=args.candidate, note=args.note)
    return Flag(query.query_id, args.category, note=args.note)


def _run(args: argparse.Namespace) -> int:
    from ..benchmark.annotations import AnnotationStore
    from ..benchmark.dataset import load_benchmark

    if args.add is None and (args.category or args.note or args.test or args.candidate):
        raise InputFormatError("--category, --note, --test and --candidate go with --add",
                               field="--add")
    if args.export is not None and args.export.suffix.lower() not in (".csv", ".jsonl"):
        raise InputFormatError("export to a .csv or .jsonl file", file=args.export)
    bench = load_benchmark(args.directory)
    with AnnotationStore(bench, args.store, annotator=args.annotator) as store:
        to_add = _flag_to_add(args, bench) if args.add is not None else None
        if args.import_file is not None:
            report = store.import_file(args.import_file)
            print(f"{report.summary()} from {args.import_file}", file=sys.stderr)
            for line, why in report.skipped:
                print(f"  skipped line {line}: {why}", file=sys.stderr)
        if to_add is not None:
            saved = store.add(to_add)
            print(f"added flag {saved.flag_id}: {saved.category} on {saved.query_id} "
                  f"{saved.describe_target()}", file=sys.stderr)
        if args.claim_legacy:
            print(f"attached {store.claim_legacy()} older flags (stale)", file=sys.stderr)
        if args.export is not None:
            writer = store.export_jsonl if args.export.suffix.lower() == ".jsonl" \
                else store.export_csv
            n = writer(args.export)
            print(f"wrote {n} flag{'s' if n != 1 else ''} to {args.export}", file=sys.stderr)
        flags = store.flags()
        unclaimed = store.unclaimed()
    if args.json:
        print(json.dumps({"flags": [f.to_dict() for f in flags]}, indent=2,
                         ensure_ascii=False))
        return 0
    for f in flags:
        query = bench.query(f.query_id) if bench.has_query(f.query_id) else None
        name = query.function_name if query else "(query gone)"
        state = f.status + (", changed since flagged" if f.stale else "")
        print(f"{f.flag_id:>4}  {f.query_id} {name}  {f.describe_target()}  {f.category}  "
              f"[{state}]  {f.annotator or '?'}  {f.created[:16].replace('T', ' ')}")
        if f.note:
            print(f"        {f.note}")
    stale = sum(f.stale for f in flags)
    print(f"{len(flags)} flag{'s' if len(flags) != 1 else ''} on {bench.name}"
          + (f", {stale} stale" if stale else "")
          + (f"; {unclaimed} more from older benchmark versions are kept but not attached "
             "(--claim-legacy)" if unclaimed else ""))
    return 0
