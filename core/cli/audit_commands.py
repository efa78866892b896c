"""``execretrieval audit DIR``: rank the queries' test suites by how suspect they are.

``--json`` prints the audit (stable keys, see README "Suite audit"); ``--out FILE`` writes
it as HTML, Markdown or JSON by extension; ``--suggest`` prints the tests that would kill
every distinguishable survivor; ``--apply-suggestions OUT_DIR`` writes a copy of the
benchmark with them appended and runs the five gates on it. Exit 0 when the audit ran
(whatever it found; with ``--apply-suggestions``, when the copy passes every gate), 1 when
the copy fails a gate, 2 on bad input, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputFormatError
from .args import add_oracle_options, make_oracle, non_negative_int, positive_int, seconds
from .choices import AUDIT_DEFAULT_INPUTS as DEFAULT_INPUTS
from .choices import AUDIT_DEFAULT_SEEDS as DEFAULT_SEEDS
from .choices import MUTANT_TIMEOUT

if TYPE_CHECKING:
    from ..audit.results import AuditResult

__all__ = ["register"]

_FORMATS = {".html": "audit_html", ".htm": "audit_html", ".md": "audit_markdown",
            ".json": "audit_json"}   # output suffix -> writer in report.audit_pages


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit", help="rank test suites by how suspect they are (mutation analysis)",
        description="For each query run every single-edit mutant of its canonical (all six "
                    "operators) against its tests, plus the canonical under N hash seeds; "
                    "rank the suites most suspect first, with reasons (surviving mutants, "
                    "flaky tests, tests that kill nothing, crash-only kills, a failing "
                    "canonical). Results are cached; Ctrl+C cancels.")
    parser.add_argument("directory", metavar="DIR", type=Path, help="benchmark folder")
    parser.add_argument("--json", action="store_true", help="print the audit as JSON")
    parser.add_argument("--out", metavar="FILE", type=Path,
                        help="write the audit to FILE (.html, .md or .json)")
    parser.add_argument("--seeds", type=non_negative_int, default=DEFAULT_SEEDS, metavar="N",
                        help=f"hash seeds to run each canonical under, to find flaky tests "
                             f"(default {DEFAULT_SEEDS}; 0 skips this)")
    parser.add_argument("--limit", type=positive_int, metavar="N",
                        help="audit only the first N queries")
    parser.add_argument("--query", action="append", metavar="ID", dest="queries",
                        help="audit only this query, by id or function name (repeatable)")
    parser.add_argument("--top", type=positive_int, default=10, metavar="N",
                        help="queries listed in the text summary (default 10)")
    parser.add_argument("--inputs", type=non_negative_int, default=DEFAULT_INPUTS,
                        metavar="N",
                        help=f"inputs per query to classify survivors on: the suite's own "
                             f"calls, then type-aware mutations of them, answered by the "
                             f"canonical, plus up to 45%% more that pairs of numbers at "
                             f"a boundary add (default {DEFAULT_INPUTS}; 0 leaves "
                             f"survivors unclassified)")
    parser.add_argument("--mutant-timeout", type=seconds, default=MUTANT_TIMEOUT, metavar="S",
                        help="per-suite timeout for the mutants, in CPU seconds (a mutant "
                             "that times out is killed; default "
                             f"{MUTANT_TIMEOUT:g}, or --timeout if shorter)")
    parser.add_argument("--input-seed", type=non_negative_int, default=0, metavar="S",
                        help="seed of the generated inputs (default 0)")
    parser.add_argument("--suggest", action="store_true",
                        help="print the suggested tests: per weak suite, the fewest new "
                             "asserts that kill every survivor some input tells apart")
    parser.add_argument("--apply-suggestions", metavar="OUT_DIR", type=Path,
                        help="write a copy of the benchmark with the suggested tests "
                             "appended (the original is untouched; the manifest records "
                             "what was added) and run the five gates on it")
    add_oracle_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..audit.run import run_audit
    from ..benchmark.dataset import load_benchmark
    from ..fileio import atomic_write_text
    from ..report import audit_pages
    from .progress import TerminalProgress

    writer = None
    if args.out is not None:
        name = _FORMATS.get(args.out.suffix.lower())
        if name is None:
            raise InputFormatError("unknown output format; use .html, .md or .json",
                                   file=args.out)
        writer = getattr(audit_pages, name)
    bench = load_benchmark(args.directory)
    out_dir = args.apply_suggestions
    if out_dir is not None and out_dir.exists() and (not out_dir.is_dir()
                                                     or any(out_dir.iterdir())):
        raise InputFormatError("exists and is not an empty folder", file=out_dir)
    started = time.monotonic()
    with make_oracle(args) as oracle, TerminalProgress("auditing") as progress:
        audit = run_audit(bench, oracle, seeds=args.seeds, limit=args.limit,
                          query_ids=_query_ids(bench, args.queries), inputs=args.inputs,
                          input_seed=args.input_seed, mutant_timeout=args.mutant_timeout,
                          progress=progress)
    executed = audit.executed
    elapsed = time.monotonic() - started
    if writer is not None:
        atomic_write_text(args.out, writer(audit))
    if args.json:
        print(audit_pages.audit_json(audit), end="")
    else:
        _print_summary(audit, args.top)
        if args.suggest:
            _print_suggestions(audit)
    print(f"audit: {len(audit.queries)} queries in {elapsed:.1f}s, {executed} suites executed"
          f" (the rest from the cache)" + (f"; wrote {args.out}" if writer else ""),
          file=sys.stderr)
    if out_dir is None:
        return 0
    return _apply(args, bench, audit, out_dir)


def _query_ids(bench: Any, names: list[str] | None) -> list[str] | None:
    """``--query`` values as query ids: an id or a function name, as the GUI takes them."""
    if names is None:
        return None
    ids = []
    for name in names:
        query = bench.find_query(name)
        if query is None:
            raise InputFormatError(f"no query {name!r} in {bench.name}: give a query id or "
                                   "a function name", field="--query")
        ids.append(query.query_id)
    return ids


def _apply(args: argparse.Namespace, bench: Any, audit: AuditResult, out_dir: Path) -> int:
    from ..audit.strengthen import strengthened, write_strengthened
    from ..benchmark.gates import validate
    from ..build.reselect import distractor_changes
    from .progress import TerminalProgress

    # the shipped corpus is kept; whether a rebuild would pick other distractors is only said
    suites = {q.query_id: q.test_suite for q in strengthened(bench, audit)[0].queries}
    from ..oracle.limits import MUTANT_WALL_BACKSTOP, Limits

    with make_oracle(args) as oracle, \
            make_oracle(args, timeout=args.mutant_timeout,
                        limits=Limits(wall_backstop=MUTANT_WALL_BACKSTOP)) as mutants, \
            TerminalProgress("rebuilding the distractor choice") as progress:
        check = distractor_changes(bench, suites, oracle, mutant_oracle=mutants,
                                   progress=progress)
    copy = write_strengthened(bench, audit, out_dir,
                              {"distractor_choice": check.to_dict()})
    added = copy.manifest["strengthened"]["tests_added"]
    print(f"wrote {out_dir}: {added} suggested tests added to "
          f"{len(copy.manifest['strengthened']['added'])} suites; {bench.name} is unchanged")
    print(check.summary(bench.name))
    with make_oracle(args) as oracle, TerminalProgress("validating") as progress:
        report = validate(copy, oracle, progress=progress)
    for gate in report.gates:
        verdict = "PASS" if gate.passed else ("FAIL" if gate.ran else "NOT RUN")
        print(f"{verdict:7} {gate.name} ({len(gate.failures)} failures)")
        for failure in gate.failures[:10]:
            where = " ".join(x for x in (failure.query_id, failure.corpus_id) if x)
            print(f"        {where + ': ' if where else ''}{failure.reason}")
    print("all gates passed" if report.passed else "validation FAILED")
    return 0 if report.passed else 1


def _print_suggestions(audit: AuditResult) -> None:
    weak = [q for q in audit.queries if q.suggested_tests]
    tests = sum(len(q.suggested_tests) for q in weak)
    print(f"\nsuggested tests: {tests} for {len(weak)} weak suites "
          f"(each kills the survivors listed under it)")
    for q in weak:
        print(f"\n{q.query_id} {q.function_name}:")
        for t in q.suggested_tests:
            print("    " + t.test.replace("\n", "\n    "))
            if t.outside_domain:
                print(f"        (outside the suite's domain: {t.outside_domain})")
            for k in t.kills:
                s = q.survivors[k]
                print(f"        kills {s.bug_type}: {s.description} "
                      f"(canonical {s.canonical_output}, mutant {s.mutant_output})"
                      if s.distinguishing_input == _call_of(t.test) else
                      f"        kills {s.bug_type}: {s.description}")


def _call_of(test: str) -> str:
    """The call a suggested test makes (``assert CALL == X`` or a ``pytest.raises`` block,
    after any import lines)."""
    lines = [line for line in test.splitlines()
             if not line.startswith(("import ", "from "))]
    test = "\n".join(lines)
    if test.startswith("assert "):
        return test[len("assert "):].rsplit(" == ", 1)[0]
    return test.split("\n", 1)[-1].strip()


def _print_summary(audit: AuditResult, top: int) -> None:
    qs = audit.queries
    survivors = [s for q in qs for s in q.survivors]
    by_verdict = {v: sum(1 for s in survivors if s.verdict == v)
                  for v in ("weak", "likely_equivalent", "unclassified")}
    print(f"{len(qs)} queries, {sum(q.mutants for q in qs)} mutants: "
          f"{audit.suites_with_survivors} suites let a mutant pass "
          f"({audit.weak_suites} weak: a generated input tells a survivor apart), "
          f"{sum(1 for q in qs if q.flaky_tests)} have flaky tests, "
          f"{sum(1 for q in qs if q.canonical_fails)} canonicals fail")
    if survivors:
        print(f"{len(survivors)} survivors: {by_verdict['weak']} weak, "
              f"{by_verdict['likely_equivalent']} likely equivalent, "
              f"{by_verdict['unclassified']} unclassified")
    shown = audit.top(top)
    if not shown:
        print("no suspect suite")
        return
    print(f"most suspect {len(shown)}:")
    for rank, q in enumerate(shown, 1):
        print(f"{rank:>3}. {q.query_id} {q.function_name}  suspicion {q.suspicion:.3f}  "
              f"score {q.mutation_score:.2f} ({q.killed}/{q.mutants})")
        for reason in q.reasons:
            print(f"       - {reason}")
