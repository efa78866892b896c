"""``execretrieval import-humaneval``: HumanEval problems as a validated benchmark."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from execretrieval import load_benchmark
from execretrieval.build.humaneval import (
    guess_domain,
    humaneval_tasks,
    load_problems,
    problem_task,
    query_from_docstring,
    split_check,
    with_helpers,
)
from execretrieval.cli import main


def test_query_is_the_docstring_prose_without_examples() -> None:
    doc = ("Change numerical base of input number x to base.\n"
           "return string representation after the conversion.\n"
           "For example:\n>>> change_base(8, 3)\n'22'\n>>> change_base(7, 2)\n'111'\n")
    assert query_from_docstring(doc, "change_base") == (
        "Change numerical base of input number x to base. "
        "return string representation after the conversion.")
    doc = "Sum the list.\nExamples:\n    total([1, 2]) == 3\nIgnore None.\n"
    assert query_from_docstring(doc, "total") == "Sum the list. Ignore None."


def test_query_drops_every_example_notation_and_keeps_definitions() -> None:
    doc = ("The Fib4 sequence is defined as follows:\nfib4(0) -> 0\n"
           "fib4(n) -> fib4(n-1) + fib4(n-2).\nPlease compute fib4(n).\n"
           "For example:\nfib4(2) -> 0\nfib4(3) = fib4(2) + fib4(1)\n       = 0 + 0 = 0\n"
           "Return the list of the first n + 1 numbers.\n"
           "Example 1:\n    Input: arr = [1, 2], k = 1\n    Output: [2]\n"
           "    Explanation: 2 is the largest\n                 of them.\n\n"
           "Note:\n    1. 1 <= k <= len(arr)\n\n"
           "Examples:\nFor lst = [1,2] the output should be 3\n"
           "f([1, 2], 5) \u279e False\n# 1+2 is fine, but unbalanced.\n"
           "* eat(5, 6) -> [11, 4]\n  arr = [2, 1]\n        -> sort arr -> [1, 2]\n"
           "  return [\"One\", \"Two\"]\n\nIf the array is empty, return []:\n  arr = []\n")
    assert query_from_docstring(doc, "fib4") == (
        "The Fib4 sequence is defined as follows: fib4(0) -> 0 "
        "fib4(n) -> fib4(n-1) + fib4(n-2). Please compute fib4(n). "
        "Return the list of the first n + 1 numbers. Note: 1. 1 <= k <= len(arr) "
        "If the array is empty, return [].")


def test_query_drops_a_trailing_introduction_of_removed_examples() -> None:
    doc = ("Sort by the number of ones.\n\nIt must be implemented like this:\n"
           ">>> sort_array([1, 5]) == [1, 5]\n")
    assert query_from_docstring(doc, "sort_array") == "Sort by the number of ones."
    doc = ("Return YES or NO.\n\n[input/output] samples:\nintersection((1, 2), (2, 3)) "
           "==> \"NO\"\n")
    assert query_from_docstring(doc, "intersection") == "Return YES or NO."
    doc = "Words with prime lengths. Note: keep (order) of words.\nB (=decimal 11) counts.\n"
    assert query_from_docstring(doc, "f") == doc.replace("\n", " ").strip()


def test_packaged_queries_hold_no_example_leftovers() -> None:
    tasks, _ = humaneval_tasks(load_problems())
    for task in tasks:
        for junk in (">>>", "==>", "=>", "\u279e", "Input:", "Output:", "For lst =",
                     "For num ="):
            assert junk not in task.query, (task.origin, junk, task.query)
        assert not task.query.endswith(":"), task.origin
    queries = {t.function_name: t.query for t in tasks}
    assert "fib4(n) -> fib4(n-1) + fib4(n-2) + fib4(n-3) + fib4(n-4)." in queries["fib4"]
    assert "tri(1) = 3" in queries["tri"] and "= 2 + 3 + 3 = 8" not in queries["tri"]


def test_check_body_becomes_one_test_per_assert_loops_whole() -> None:
    check = ("METADATA = {}\n\n\ndef check(candidate):\n    import math\n"
             "    assert candidate(1) == 2\n    assert True\n"
             "    assert candidate(\n        3) == 4, 'msg'\n"
             "    for x in range(3):\n        assert candidate(x) == x + 1\n")
    assert split_check(check, "inc") == (
        "import math\nassert inc(1) == 2",
        "import math\nassert inc(\n    3) == 4, 'msg'",
        "import math\nfor x in range(3):\n    assert inc(x) == x + 1",
    )


def test_a_test_defines_the_prompt_helpers_it_calls_transitively() -> None:
    prompt = ("import math\nfrom functools import cache\nimport os\n\nSCALE = 2\n\n\n"
              "@cache\ndef norm(x):\n    # a comment stays\n    return math.fabs(x) * SCALE\n\n\n"
              "def enc(s):\n    return [norm(c) for c in s] + [dec(s)]\n\n\n"
              "def unused():\n    return os.sep\n\n\n"
              "def dec(s):\n    \"\"\"Undo enc.\"\"\"\n")
    tests = ("assert dec(enc([1])) == [2.0]", "x = [1]\nassert dec(x) == x")
    helped = with_helpers(tests, prompt, "dec")
    # enc needs norm (which needs math, cache and SCALE); the entry point dec is the
    # candidate's, never redefined; unused and os are left out
    assert helped[0] == (
        "import math\n\nfrom functools import cache\n\nSCALE = 2\n\n"
        "@cache\ndef norm(x):\n    # a comment stays\n    return math.fabs(x) * SCALE\n\n"
        "def enc(s):\n    return [norm(c) for c in s] + [dec(s)]\n\n"
        "assert dec(enc([1])) == [2.0]")
    assert helped[1] == tests[1]  # calls no helper: unchanged
    namespace: dict = {"dec": lambda s: s[:1]}
    exec(helped[0], namespace)  # standalone: it runs on the entry point alone


def test_the_bundled_problems_with_helpers_carry_them_renamed_entry_points_too() -> None:
    problems = {p["task_id"]: p for p in load_problems()}
    shift = problem_task(problems["HumanEval/50"])
    assert shift.test_suite[0].startswith("def encode_shift(s: str):\n")
    assert shift.test_suite[0].count("def ") == 1  # decode_shift stays the candidate's
    zero = problem_task(problems["HumanEval/32"], "find_zero_9")
    assert zero.test_suite[0].startswith("import math\n\ndef poly(xs: list, x: float):")
    assert "solution = find_zero_9(copy.deepcopy(coeffs))" in zero.test_suite[0]
    assert "find_zero(" not in zero.test_suite[0]
    # a prompt helper the check never calls stays out (make_palindrome's is_palindrome)
    palindrome = problem_task(problems["HumanEval/10"])
    assert not any("def is_palindrome" in t for t in palindrome.test_suite)


def test_domain_guess_uses_keywords_with_a_default() -> None:
    assert guess_domain("is_palindrome", "Check the string reads the same") == \
        "string-processing"
    assert guess_domain("triangle_area", "Area of a triangle") == "geometry"
    assert guess_domain("frobnicate", "Do the thing") == "math-numerical"


def test_all_packaged_problems_become_tasks_with_unique_names() -> None:
    tasks, dropped = humaneval_tasks(load_problems())
    assert len(tasks) + len(dropped) == 164 and len(tasks) >= 160
    names = [t.function_name for t in tasks]
    assert len(set(names)) == len(names)
    assert "triangle_area_71" in names
    for task in tasks:
        assert ">>>" not in task.query
        assert all(task.function_name in test for test in task.test_suite)
        assert all("candidate" not in test for test in task.test_suite)


def test_import_writes_a_valid_folder_with_licence(tmp_path: Path, capsys) -> None:
    problems = {p["task_id"]: p for p in load_problems()}
    chosen = [problems[f"HumanEval/{i}"] for i in (2, 13, 45, 71)]
    broken = dict(problems["HumanEval/13"], task_id="HumanEval/999",
                  entry_point="greatest_common_divisor", canonical_solution="    return 1\n")
    source = tmp_path / "few.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        for problem in [*chosen, broken]:
            handle.write(json.dumps(problem) + "\n")
    out = tmp_path / "humaneval"
    argv = ["import-humaneval", "--out", str(out), "--problems", str(source),
            "--candidate-limit", "8", "--mutant-timeout", "1"]
    assert main(argv) == 0
    assert "HumanEval/999" in capsys.readouterr().err  # the broken canonical is reported

    bench = load_benchmark(out)
    assert [q.function_name for q in bench.queries] == [
        "truncate_number", "greatest_common_divisor", "triangle_area", "triangle_area_71"]
    assert all(bench.distractors_for(q.query_id) for q in bench.queries)
    assert bench.queries[0].extra["task_id"] == "HumanEval/2"
    licence = (out / "LICENSE").read_text()
    assert "MIT" in licence or "Permission is hereby granted" in licence
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["license"].startswith("MIT")
    assert [d["origin"] for d in manifest["dropped"]] == ["HumanEval/999"]
    assert main(["validate", str(out)]) == 0


def test_a_problems_file_with_a_bad_line_is_bad_input_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = {"list.jsonl": (b'{"task_id": "X/0"}\n[1, 2]\n',
                            "list.jsonl:2: expected a JSON object"),
             "bytes.jsonl": (b'{"task_id": "X/0"}\n\xff\n', "bytes.jsonl:2: not valid UTF-8"),
             "fake.jsonl.gz": (b"not gzip", "fake.jsonl.gz: cannot read"),
             "unusable.jsonl": (b'{"task_id": "X/0"}\n',
                                "no HumanEval problem could be used (X/0: missing field")}
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        out = tmp_path / "out"
        assert main(["import-humaneval", "--out", str(out), "--problems",
                     str(tmp_path / name)]) == 2, name
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, err
        assert not out.exists()
