"""Failures explained: a failing bare ``assert A op B`` says what came back and what was
expected, with plain data shown by the built-in repr only (no candidate code runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execretrieval import Oracle
from execretrieval.cli import main as cli

LSB = "def lowest_set_bit(n):\n    if n == 0:\n        return -1\n    return n & -n\n"


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=5.0, cache=None, workers=2) as o:
        yield o


@pytest.mark.parametrize(("test", "detail"), [
    ("assert lowest_set_bit(0) == 0", "returned -1, expected 0"),
    ("assert 0 == lowest_set_bit(0)", "returned -1, expected 0"),
    ("assert lowest_set_bit(12) != 4", "returned 4, expected anything but 4"),
    ("assert lowest_set_bit(12) < 3", "returned 4, expected < 3"),
    ("assert 3 < lowest_set_bit(1)", "returned 1, expected > 3"),
    ("assert lowest_set_bit(12) >= 8", "returned 4, expected >= 8"),
    ("assert lowest_set_bit(5) in (2, 3)", "returned 1, expected one of (2, 3)"),
    ("assert lowest_set_bit(4) not in [4]", "returned 4, expected none of [4]"),
    ("assert sorted([lowest_set_bit(6)]) == list(range(3))",
     "returned [2], expected [0, 1, 2]"),
    ("x = lowest_set_bit(8)\nassert x == 9", "8 == 9 is false"),
    ("assert lowest_set_bit(0) == 0, 'own message'", "own message"),
    ("assert lowest_set_bit(2) == 'x' * 200",
     "returned 2, expected '" + "x" * 116 + "..."),   # repr truncated to 120
])
def test_failing_comparison_names_both_sides(oracle: Oracle, test: str, detail: str) -> None:
    [outcome] = oracle.run(LSB, [test]).outcomes
    assert (outcome.status, outcome.detail) == ("fail", detail)


def test_each_side_is_evaluated_once_and_passing_asserts_pass(oracle: Oracle) -> None:
    code = LSB + "calls = []\ndef counted(v):\n    calls.append(v)\n    return v\n"
    result = oracle.run(code, ["assert counted(lowest_set_bit(8)) == 8\nassert calls == [8]",
                               "assert lowest_set_bit(6) in (2, 4)",
                               "assert [lowest_set_bit(i) for i in (1, 2)] == [1, 2]"])
    assert result.statuses == ("pass", "pass", "pass")


def test_objects_are_never_asked_to_describe_themselves(oracle: Oracle) -> None:
    code = ("class Sneaky:\n"
            "    def __repr__(self):\n        print('REPR RAN')\n        return 'forged'\n"
            "    __str__ = __repr__\n"
            "    def __lt__(self, other):\n        return False\n"
            "def make():\n    return Sneaky()\n")
    result = oracle.run(code, ["assert make() < make()", "assert make() == 3",
                               "assert make() < 3"])
    first, second, third = result.outcomes
    assert (first.status, first.detail) == (
        "fail", "<a Sneaky object> < <a Sneaky object> is false")
    assert "REPR RAN" not in result.output and "forged" not in first.detail
    for rule in (second, third):  # plain data on one side: the other must be plain too
        assert rule.status == "error" and "plain-data comparison" in rule.detail


def test_run_tests_prints_the_explanation(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, tests = tmp_path / "f.py", tmp_path / "t.json"
    code.write_text(LSB)
    tests.write_text(json.dumps(["assert lowest_set_bit(0) == 0", "assert lowest_set_bit(8) == 8"]))
    assert cli(["run-tests", "--code", str(code), "--tests", str(tests), "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "returned -1, expected 0" in out
    assert cli(["run-tests", "--code", str(code), "--tests", str(tests), "--no-cache",
                "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["tests"][0]["detail"] == "returned -1, expected 0"
