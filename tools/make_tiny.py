"""Write data/tiny: four hand-made tasks with hand-written single-edit distractors.

The tiny benchmark exercises loading, the oracle and the gates end to end in seconds.
Run: python tools/make_tiny.py [--out DIR] (default data/tiny; tools/check_data.py writes
it elsewhere and compares). Same source, same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "data" / "tiny"

LOWEST = '''def lowest_set_bit(n):
    if n == 0:
        return 0
    position = 0
    while (n >> position) & 1 == 0:
        position += 1
    return 1 << position
'''

LEAP = '''def is_leap_year(year):
    if year % 400 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0
'''

INSERT = '''def insertion_index(items, target):
    low, high = 0, len(items)
    while low < high:
        middle = (low + high) // 2
        if items[middle] < target:
            low = middle + 1
        else:
            high = middle
    return low
'''

VOWELS = '''def count_vowels(text):
    count = 0
    for char in text.lower():
        if char in "aeiou":
            count += 1
    return count
'''

TASKS = [
    {
        "function_name": "lowest_set_bit",
        "domain": "bit-manipulation",
        "query": "Return the value of the lowest set bit of a non-negative integer, "
                 "or 0 when the integer is 0.",
        "code": LOWEST,
        "tests": [
            "assert lowest_set_bit(0) == 0",
            "assert lowest_set_bit(1) == 1",
            "assert lowest_set_bit(2) == 2",
            "assert lowest_set_bit(12) == 4",
            "assert lowest_set_bit(7) == 1",
            "assert lowest_set_bit(40) == 8",
            "assert lowest_set_bit(1024) == 1024",
            "assert lowest_set_bit(6) == 2",
        ],
        "distractors": [
            ("off_by_one", "constant `1` changed to `2` in the return value, line 7",
             ("return 1 << position", "return 2 << position")),
            ("wrong_operator", "`<<` changed to `>>` in the return value, line 7",
             ("return 1 << position", "return 1 >> position")),
            ("wrong_comparison", "`==` changed to `!=` in the loop condition, line 5",
             ("& 1 == 0:", "& 1 != 0:")),
            ("swap_arguments", "operands `1` and `position` of `<<` swapped, line 7",
             ("return 1 << position", "return position << 1")),
        ],
    },
    {
        "function_name": "is_leap_year",
        "domain": "date-time",
        "query": "Tell whether a year of the Gregorian calendar is a leap year: divisible "
                 "by 4, except centuries, which must be divisible by 400.",
        "code": LEAP,
        "tests": [
            "assert is_leap_year(2024) is True",
            "assert is_leap_year(2023) is False",
            "assert is_leap_year(1900) is False",
            "assert is_leap_year(2000) is True",
            "assert is_leap_year(2100) is False",
            "assert is_leap_year(1996) is True",
            "assert is_leap_year(1) is False",
        ],
        "distractors": [
            ("remove_edge_case_check", "guard `if year % 400 == 0: return True` removed, line 2",
             ("    if year % 400 == 0:\n        return True\n", "")),
            ("off_by_one", "constant `4` changed to `5` in the return value, line 6",
             ("return year % 4 == 0", "return year % 5 == 0")),
            ("wrong_comparison", "`==` changed to `!=` in the century check, line 4",
             ("if year % 100 == 0:", "if year % 100 != 0:")),
        ],
    },
    {
        "function_name": "insertion_index",
        "domain": "sorting-searching",
        "query": "Find the position at which a value should be inserted into an ascending "
                 "list to keep it sorted, before any equal elements.",
        "code": INSERT,
        "tests": [
            "assert insertion_index([], 5) == 0",
            "assert insertion_index([1, 3, 5], 4) == 2",
            "assert insertion_index([1, 3, 5], 0) == 0",
            "assert insertion_index([1, 3, 5], 9) == 3",
            "assert insertion_index([1, 2, 2, 2, 3], 2) == 1",
            "assert insertion_index([1, 3, 5], 3) == 1",
            "assert insertion_index([7], 7) == 0",
        ],
        "distractors": [
            ("wrong_comparison", "`<` changed to `<=` in the midpoint comparison, line 5",
             ("if items[middle] < target:", "if items[middle] <= target:")),
            ("off_by_one_boundary", "upper bound `len(items)` changed to `len(items) - 1`, line 2",
             ("low, high = 0, len(items)", "low, high = 0, len(items) - 1")),
        ],
    },
    {
        "function_name": "count_vowels",
        "domain": "string-processing",
        "query": "Count the vowels (a, e, i, o, u) in a string, ignoring case.",
        "code": VOWELS,
        "tests": [
            "assert count_vowels('') == 0",
            "assert count_vowels('hello') == 2",
            "assert count_vowels('HELLO') == 2",
            "assert count_vowels('rhythm') == 0",
            "assert count_vowels('aeiou') == 5",
            "assert count_vowels('Programming in Python') == 5",
            "assert count_vowels('xyz AEIOU') == 5",
        ],
        "distractors": [
            ("off_by_one", "increment `1` changed to `2`, line 5",
             ("count += 1", "count += 2")),
        ],
    },
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write")
    out = parser.parse_args(argv).out
    queries, corpus = [], []
    next_cid = 1
    for qi, task in enumerate(TASKS, start=1):
        qid = f"q_{qi:04d}"
        canonical_id = f"c_{next_cid:04d}"
        snippets = [{
            "corpus_id": canonical_id, "query_id": qid, "role": "canonical", "bug_type": None,
            "bug_description": "", "code": task["code"],
        }]
        next_cid += 1
        for bug_type, description, (old, new) in task["distractors"]:
            if task["code"].count(old) != 1:
                print(f"make_tiny: {task['function_name']}: {old!r} occurs "
                      f"{task['code'].count(old)} times in the code, not once", file=sys.stderr)
                return 1
            snippets.append({
                "corpus_id": f"c_{next_cid:04d}", "query_id": qid, "role": "distractor",
                "bug_type": bug_type, "bug_description": description,
                "code": task["code"].replace(old, new),
            })
            next_cid += 1
        queries.append({
            "query_id": qid, "query": task["query"], "function_name": task["function_name"],
            "domain": task["domain"], "test_suite": task["tests"],
            "correct_corpus_ids": [canonical_id],
        })
        corpus.extend(snippets)
    out.mkdir(parents=True, exist_ok=True)
    (out / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    (out / "corpus.jsonl").write_text("".join(json.dumps(s) + "\n" for s in corpus))
    manifest = {
        "name": "tiny", "version": "1", "source": "hand-written (tools/make_tiny.py)",
        "license": "MIT", "created": "2026-11-29",
        "counts": {"queries": len(queries), "snippets": len(corpus)},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
