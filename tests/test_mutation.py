"""The six mutation operators, the keep rule and seeded selection (no execution needed)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import pytest

from execretrieval import BuildError
from execretrieval.mutation.generate import Mutant, generate_mutants
from execretrieval.mutation.select import keep_reason, sample_candidates, select_distractors
from execretrieval.mutation.source import Edit

SOURCE = '''\
import math


def helper(x):
    return x + 1


def window_sum(xs, k, label="é"):
    """Sum of the first k items; 3 < 4 in the docstring is never touched."""
    if k == 0:
        return 0
    if not xs:
        raise ValueError("empty")  # comment stays
    total = 0
    for i in range(k - 1):
        total += xs[i] * 2
    while total > 100 and k >= 2:
        total //= 2
    name = "ü" + label[1:k]
    return max(total, len(xs)) - helper(k)
'''


def _by_type(bug_type: str) -> list[Mutant]:
    return [m for m in generate_mutants(SOURCE, "window_sum").mutants
            if m.bug_type == bug_type]


def _changed(m: Mutant) -> tuple[str, str]:
    return SOURCE[m.start:m.end], m.replacement


@pytest.mark.parametrize("bug_type", ["off_by_one", "off_by_one_boundary", "wrong_operator",
                                      "wrong_comparison", "swap_arguments",
                                      "remove_edge_case_check"])
def test_every_operator_yields_parsing_single_edit_mutants(bug_type: str) -> None:
    mutants = _by_type(bug_type)
    assert mutants, f"no {bug_type} mutant"
    for m in mutants:
        assert m.bug_type == bug_type
        ast.parse(m.code)
        assert m.code == SOURCE[:m.start] + m.replacement + SOURCE[m.end:]
        assert m.code != SOURCE
        # everything outside the edit is the canonical, byte for byte
        assert m.code.startswith(SOURCE[:m.start]) and m.code.endswith(SOURCE[m.end:])
        assert m.bug_description.endswith(f"line {m.line}")
        # the helper, the import and the docstring are never mutated
        assert m.start > SOURCE.index('"""Sum')


def test_mutants_never_touch_helpers_or_the_docstring() -> None:
    lines = SOURCE.splitlines()
    for m in generate_mutants(SOURCE, "window_sum").mutants:
        assert lines[m.line - 1].startswith("    ") and m.line >= 10


def test_off_by_one_changes_int_literals_both_ways() -> None:
    changes = {(_changed(m), m.line) for m in _by_type("off_by_one")}
    assert (("0", "1"), 10) in changes and (("0", "-1"), 10) in changes
    assert (("100", "101"), 17) in changes
    # the 1 of ``k - 1`` belongs to the range bound, not to off_by_one
    assert not any(line == 15 for _, line in changes)


def test_off_by_one_boundary_shifts_range_slice_and_len() -> None:
    changes = {_changed(m) for m in _by_type("off_by_one_boundary")}
    assert ("k - 1", "k") in changes and ("k - 1", "k - 2") in changes
    assert ("1", "2") in changes and ("k", "k + 1") in changes   # label[1:k]
    assert ("len(xs)", "len(xs) + 1") in changes
    m = next(m for m in _by_type("off_by_one_boundary") if _changed(m) == ("k - 1", "k"))
    assert m.bug_description == "range stop `k - 1` changed to `k` in the for loop header, line 15"


def test_wrong_operator_covers_arithmetic_augmented_and_boolean() -> None:
    changes = {_changed(m) for m in _by_type("wrong_operator")}
    assert {("*", "+"), ("+=", "-="), ("//=", "/="), ("and", "or"), ("-", "+")} <= changes


def test_wrong_comparison_names_the_loop_condition() -> None:
    descriptions = {m.bug_description for m in _by_type("wrong_comparison")}
    assert "`>` changed to `>=` in the loop condition, line 17" in descriptions
    assert "`==` changed to `!=` in the if condition, line 10" in descriptions


def test_swap_arguments_swaps_call_arguments_and_non_commutative_operands() -> None:
    mutants = _by_type("swap_arguments")
    descriptions = {m.bug_description for m in mutants}
    assert "arguments `total` and `len(xs)` swapped in call to `max`, line 20" in descriptions
    swapped = [m for m in mutants if m.bug_description.startswith("operands of `-`")]
    assert any(m.replacement == "helper(k) - max(total, len(xs))" for m in swapped)


def test_remove_edge_case_check_deletes_whole_guard_lines() -> None:
    mutants = _by_type("remove_edge_case_check")
    assert [m.bug_description for m in mutants] == [
        "guard `if k == 0: return 0` removed, line 10",
        'guard `if not xs: raise ValueError("empty")` removed, line 12',
    ]
    assert "if not xs" not in mutants[1].code
    assert "        return 0\n    total = 0\n" in mutants[1].code


def test_elif_and_sole_statements_are_not_guards() -> None:
    source = ("def f(x):\n    if x > 1:\n        return 1\n    elif x < 0:\n        return 2\n"
              "    for i in range(x):\n        if i == 3:\n            return i\n    return 0\n")
    guards = [m for m in generate_mutants(source, "f").mutants
              if m.bug_type == "remove_edge_case_check"]
    assert guards == []


def test_swapped_operands_keep_their_grouping() -> None:
    source = "def f(a, b, c):\n    return (a - b) - c * 2 ** -1\n"
    expected = {
        "c * 2 ** -1 - (a - b)": 2 * 2 ** -1 - (7 - 3),
        "b - a": (3 - 7) - 2 * 2 ** -1,
        "(-1) ** 2": (7 - 3) - 2 * (-1) ** 2,
    }
    mutants = generate_mutants(source, "f", ["swap_arguments"]).mutants
    assert sorted(m.replacement for m in mutants) == sorted(expected)
    for m in mutants:
        namespace: dict = {}
        exec(m.code, namespace)  # noqa: S102  (our own test function)
        assert namespace["f"](7, 3, 2) == expected[m.replacement], m.code


def test_inserted_shift_binds_to_the_bound_only() -> None:
    source = "def f(s, x):\n    return x * len(s)\n"
    codes = {m.replacement for m in generate_mutants(source, "f", ["off_by_one_boundary"]).mutants}
    assert codes == {"(len(s) + 1)", "(len(s) - 1)"}


def test_utf8_before_the_edit_keeps_offsets_right() -> None:
    source = 'def f(s):\n    t = "ééé" + s; return len(t) < 3\n'
    m = next(m for m in generate_mutants(source, "f").mutants if m.bug_type == "wrong_comparison")
    assert m.code == 'def f(s):\n    t = "ééé" + s; return len(t) <= 3\n'


def test_syntactic_no_ops_are_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    from execretrieval.mutation import operators as mutation_ops

    def parenthesize(src, func):
        start = src.source.index("1")
        yield Edit("off_by_one", start, start + 1, "(1)", 2, "no-op")
        yield Edit("off_by_one", start, start + 1, "1 +", 2, "broken")
        yield Edit("off_by_one", start, start + 1, "2", 2, "real")
        yield Edit("off_by_one", start, start + 1, "(2)", 2, "same as real")

    monkeypatch.setitem(mutation_ops.OPERATORS, "off_by_one", parenthesize)
    result = generate_mutants("def f(x):\n    return x + 1\n", "f", ["off_by_one"])
    assert [m.replacement for m in result.mutants] == ["2"]
    assert dict(result.rejected) == {"does not parse": 1, "same AST as the canonical": 1,
                                     "duplicate of another mutant": 1}
    assert result.candidates == 4


def test_missing_function_or_bad_code_is_a_build_error() -> None:
    with pytest.raises(BuildError, match="does not define g"):
        generate_mutants("def f():\n    return 1\n", "g")
    with pytest.raises(BuildError, match="does not parse"):
        generate_mutants("def f(:\n", "f")


@dataclass
class _Outcome:
    status: str


@dataclass
class _Result:
    outcomes: list[_Outcome]


@pytest.mark.parametrize(("statuses", "reason"), [
    (["pass", "fail", "error"], None),
    (["pass", "pass"], "passes all tests"),
    (["error", "error", "pass"], "only crashes (no assertion failure)"),
    (["fail", "timeout"], "times out"),
])
def test_keep_rule_needs_an_assertion_failure(statuses: list[str], reason: str | None) -> None:
    assert keep_reason(_Result([_Outcome(s) for s in statuses])) == reason


def test_selection_is_seeded_diverse_and_per_task() -> None:
    mutants = generate_mutants(SOURCE, "window_sum").mutants
    first = select_distractors(mutants, "window_sum", seed=0)
    assert first == select_distractors(list(mutants), "window_sum", seed=0)
    assert len(first) == 4 and len({m.bug_type for m in first}) == 4
    picks = {tuple(m.code for m in select_distractors(mutants, "window_sum", seed=s))
             for s in range(8)}
    assert len(picks) > 1, "the seed has no effect"
    assert select_distractors(mutants[:2], "window_sum", seed=0) == list(mutants[:2])
    assert select_distractors(mutants, "window_sum", seed=0, k=0) == []


def test_candidate_sampling_spreads_over_types() -> None:
    mutants = generate_mutants(SOURCE, "window_sum").mutants
    sample = sample_candidates(mutants, "window_sum", 0, 12)
    assert len(sample) == 12 and len({m.bug_type for m in sample}) == 6
    assert sample == sample_candidates(mutants, "window_sum", 0, 12)
    assert sample_candidates(mutants, "window_sum", 0, None) == list(mutants)


def test_membership_and_identity_tests_are_negated() -> None:
    source = "def f(xs, s, y):\n    return [x for x in xs if s not in x and y is not None]\n"
    mutants = generate_mutants(source, "f", ["wrong_comparison"]).mutants
    assert [m.code.splitlines()[1] for m in mutants] == [
        "    return [x for x in xs if s in x and y is not None]",
        "    return [x for x in xs if s not in x and y is None]",
    ]
    assert mutants[0].bug_description == \
        "`not in` changed to `in` in the comprehension filter, line 2"
