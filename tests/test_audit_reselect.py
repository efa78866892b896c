"""Whether rebuilding a benchmark's distractors with strengthened suites would change them:
the builder's own selection on the real bundled builtin seed, in the real sandbox; the
shipped benchmark is never written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import DATA
from execretrieval import MemoryCache, Oracle, generate_mutants, load_benchmark
from execretrieval.build.reselect import distractor_changes
from execretrieval.mutation.select import keep_reason

GUARD_KILLER = "assert is_hex_color_code('/1a2B2c') == False"


@pytest.fixture(scope="module")
def oracles():
    cache = MemoryCache()
    with Oracle(cache=cache, timeout=5) as canonical, \
            Oracle(cache=cache, timeout=1.0) as mutants:
        yield canonical, mutants


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_test_that_makes_a_survivor_a_distractor_changes_the_choice(oracles) -> None:
    """The suggested test that kills is_hex_color_code's survivor (its '#' guard removed)
    makes that mutant fail by assertion, so the builder may now pick it: the query is
    reported as changed, the shipped folder stays byte for byte as it was."""
    canonical_oracle, mutant_oracle = oracles
    before = _files(DATA / "builtin")
    bench = load_benchmark(DATA / "builtin")
    query = bench.find_query("is_hex_color_code")
    assert query is not None
    check = distractor_changes(bench, {query.query_id: (*query.test_suite, GUARD_KILLER)},
                               canonical_oracle, mutant_oracle=mutant_oracle)
    assert check.recomputed and check.queries == 160 and check.checked == 1
    assert check.unreproduced == () and check.changed == ("is_hex_color_code",)
    assert check.to_dict()["applied"] is False and "1 of 160" in check.summary("builtin")
    assert _files(DATA / "builtin") == before
    # why, by hand: the guard-less mutant was no distractor (it passes the shipped suite),
    # the new test fails it by assertion, so it becomes eligible
    [canonical] = [s.code for s in bench.corpus if s.query_id == query.query_id
                   and s.is_canonical]
    [guardless] = [m for m in generate_mutants(canonical, "is_hex_color_code").mutants
                   if 'startswith("#")' in m.bug_description]
    shipped = {s.code for s in bench.distractors_for(query.query_id)}
    assert guardless.code not in shipped
    assert keep_reason(mutant_oracle.run(guardless.code, query.test_suite)) is not None
    assert keep_reason(mutant_oracle.run(guardless.code,
                                         (*query.test_suite, GUARD_KILLER))) is None


def test_a_test_that_kills_nothing_new_changes_nothing(oracles) -> None:
    """A new test with exactly the kills of one already there (the same assert, spelled
    with other spacing) leaves every mutant's fate, hence the choice, as shipped."""
    canonical_oracle, mutant_oracle = oracles
    bench = load_benchmark(DATA / "builtin")
    query = bench.find_query("is_hex_color_code")
    assert query is not None
    same = query.test_suite[0].replace("==", " == ", 1)
    assert same != query.test_suite[0]
    check = distractor_changes(bench, {query.query_id: (*query.test_suite, same)},
                               canonical_oracle, mutant_oracle=mutant_oracle)
    assert check.recomputed and check.checked == 1
    assert check.changed == () and check.unreproduced == ()
    assert "would change 0 of 160" in check.summary("builtin")


def test_without_its_seed_file_it_says_why_not(tmp_path: Path, oracles) -> None:
    canonical_oracle, mutant_oracle = oracles
    copy = tmp_path / "builtin"
    shutil.copytree(DATA / "builtin", copy, ignore=shutil.ignore_patterns("embeddings"))
    (copy / "seed.jsonl").unlink()
    bench = load_benchmark(copy)
    check = distractor_changes(bench, {}, canonical_oracle, mutant_oracle=mutant_oracle)
    assert not check.recomputed and "seed.jsonl is missing" in check.reason
    assert check.to_dict() == {"recomputed": False, "reason": check.reason}
    (copy / "seed.jsonl").write_text((DATA / "builtin" / "seed.jsonl").read_text()
                                     .replace("is_hex_color_code", "is_hex_colour_code"))
    check = distractor_changes(load_benchmark(copy), {}, canonical_oracle)
    assert not check.recomputed and "is not the seed file" in check.reason
