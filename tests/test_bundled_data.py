"""The bundled benchmarks are what their sources say they are."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter

from conftest import DATA, REPO
from execretrieval import DOMAINS, load_benchmark


def _make_seed():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_seed", REPO / "tools" / "make_seed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_builtin_seed_is_regenerated_exactly_from_the_task_sources() -> None:
    expected = "".join(line + "\n" for line in _make_seed().seed_lines())
    assert (DATA / "builtin" / "seed.jsonl").read_text(encoding="utf-8") == expected


def test_builtin_counts_hold() -> None:
    bench = load_benchmark(DATA / "builtin")
    per_domain = Counter(q.domain for q in bench.queries)
    assert len(bench.queries) >= 150
    assert set(per_domain) == set(DOMAINS) and min(per_domain.values()) >= 15
    assert all(len(bench.distractors_for(q.query_id)) == 4 for q in bench.queries)
    assert all(7 <= len(q.test_suite) <= 10 for q in bench.queries)
    assert bench.find_query("lowest_set_bit") is not None
    seeds = [json.loads(line) for line in
             (DATA / "builtin" / "seed.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [s["function_name"] for s in seeds] == [q.function_name for q in bench.queries]


def test_humaneval_ships_its_licence_and_every_problem() -> None:
    bench = load_benchmark(DATA / "humaneval")
    assert len(bench.queries) == 164
    assert "MIT" in (DATA / "humaneval" / "LICENSE").read_text(encoding="utf-8")
    for query in bench.queries:
        assert ">>>" not in query.query
