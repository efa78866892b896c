"""A seed task's test imports what it reads from its canonical's imports.

A test runs in globals copied from the candidate's namespace, so in the bundled builtin's
date-time suites ``date`` in ``assert add_months_clamped(date(2024, 1, 31), 1) ==
date(2024, 2, 29)`` would be whatever the candidate binds: a ``class date`` whose instances
equal everything, with an entry point that returns one, would pass. The builder gives each
such test the canonical's import (``from datetime import date``), so the name is the
runner's pinned module's. Every forging below runs through the real Oracle on the suites
``data/builtin`` ships and must be ``fail`` or ``error``, never ``pass``; the canonical
still passes. On main's suites (before the imports) the forgings passed 9/9 tests of
q_0051, 7/9 of q_0052, 7/8 of q_0054 and q_0062; those of q_0053, q_0058 and q_0061, whose
entry point returns a number, were already errors there (the Oracle's plain-data rule
refuses to compare a number with the candidate's object), and stay so. Then
:func:`with_imports` itself, case by case.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from execretrieval import Oracle
from execretrieval.build.testnames import with_imports

BUILTIN = Path(__file__).resolve().parent.parent / "data" / "builtin"
QUERIES = [json.loads(line) for line in (BUILTIN / "queries.jsonl").open(encoding="utf-8")]
CANONICALS = {s["query_id"]: s["code"] for s in map(json.loads, (BUILTIN / "corpus.jsonl")
                                                    .open(encoding="utf-8"))
              if s["role"] == "canonical"}


def _imported_names_read(query: dict) -> list[str]:
    """Names the canonical binds by a top-level import that some test of the query reads."""
    imported = {(a.asname or a.name).split(".")[0]
                for stmt in ast.parse(CANONICALS[query["query_id"]]).body
                if isinstance(stmt, (ast.Import, ast.ImportFrom)) for a in stmt.names}
    read = {n.id for test in query["test_suite"] for n in ast.walk(ast.parse(test))
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return sorted(imported & read)


AFFECTED = {q["query_id"]: (q, names) for q in QUERIES if (names := _imported_names_read(q))}


def _forged(function_name: str, names: list[str], subclass: bool) -> str:
    """The entry point returning an instance of the candidate's own ``names[0]``, each of
    ``names`` a class whose instances equal everything (a ``datetime`` subclass or not)."""
    parts = ["import datetime as _real\n"]
    for name in names:
        base = f"(_real.{name})" if subclass else ""
        parts.append(f"class {name}{base}:\n"
                     + ("" if subclass else "    def __init__(self, *a, **k):\n"
                                            "        pass\n")
                     + "    def __eq__(self, other):\n        return True\n"
                     "    def __ne__(self, other):\n        return False\n"
                     "    __hash__ = object.__hash__\n")
    args = "2000, 1, 1" if subclass else ""
    parts.append(f"def {function_name}(*args, **kwargs):\n    return {names[0]}({args})\n")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=10.0, cache=None, workers=2) as o:
        yield o


def test_the_forgings_cover_every_builtin_query_whose_tests_read_an_imported_name():
    """A seed task whose tests read another imported name needs a look here."""
    assert {qid: names for qid, (_, names) in AFFECTED.items()} == {
        "q_0051": ["date"], "q_0052": ["date"], "q_0053": ["date"], "q_0054": ["date"],
        "q_0058": ["date"], "q_0061": ["datetime"], "q_0062": ["date"]}
    assert all(name in {"date", "datetime"} for _, names in AFFECTED.values()
               for name in names)  # the forging below subclasses datetime.<name>


@pytest.mark.parametrize("subclass", [False, True], ids=["own_class", "subclass"])
@pytest.mark.parametrize("qid", sorted(AFFECTED))
def test_a_candidate_that_binds_the_imported_name_does_not_pass(oracle, qid, subclass):
    query, names = AFFECTED[qid]
    code = _forged(query["function_name"], names, subclass)
    result = oracle.run(code, query["test_suite"])
    assert result.statuses and set(result.statuses) <= {"fail", "error"}, (qid,
                                                                           result.outcomes)


@pytest.mark.parametrize("qid", sorted(AFFECTED))
def test_the_canonical_passes_the_suite_with_its_imports(oracle, qid):
    result = oracle.run(CANONICALS[qid], AFFECTED[qid][0]["test_suite"])
    assert result.passed, (qid, result.outcomes)


CANONICAL = """\
import math as m
import os.path, re
from datetime import date as D, timedelta, datetime
import json
json = 3

def f(x):
    return x

def _helper():
    return D
"""


@pytest.mark.parametrize(("test", "expected"), [
    # an alias, and only the names read from a statement that binds several
    ("assert f(D(2024, 1, 1)) == D(2024, 1, 1) + timedelta(0)",
     "from datetime import date as D, timedelta\n"
     "assert f(D(2024, 1, 1)) == D(2024, 1, 1) + timedelta(0)"),
    # import m used as m.x (and os.path's binding is os), one line per canonical statement
    ("assert f(m.pi) == m.pi and f(os.path.sep)",
     "import math as m\nimport os.path\nassert f(m.pi) == m.pi and f(os.path.sep)"),
    # a name the test binds itself before reading it stays the test's own
    ("from datetime import date as D\nassert f(D(1, 1, 1))",
     "from datetime import date as D\nassert f(D(1, 1, 1))"),
    ("D = int\nassert f(D('3')) == 3", "D = int\nassert f(D('3')) == 3"),
    # read only inside a lambda or a nested function of the test: still the module's
    ("g = lambda: timedelta(1)\nassert f(g())",
     "from datetime import timedelta\ng = lambda: timedelta(1)\nassert f(g())"),
    ("def g():\n    return datetime.now()\nassert f(g())",
     "from datetime import datetime\ndef g():\n    return datetime.now()\nassert f(g())"),
    # read before the test binds it: the read is the module's
    ("assert f(D(1, 1, 1))\nD = 1", "from datetime import date as D\n"
                                     "assert f(D(1, 1, 1))\nD = 1"),
    # a name rebound after its import, a helper the canonical defines, the entry point:
    # not imports, left alone
    ("assert f(json) == 3", "assert f(json) == 3"),
    ("assert f(_helper)", "assert f(_helper)"),
    ("assert f(1) == 1", "assert f(1) == 1"),
])
def test_each_test_gets_the_imports_of_the_names_it_reads(test, expected):
    assert with_imports([test], CANONICAL, "f") == (expected,)
    assert with_imports([expected], CANONICAL, "f") == (expected,)  # twice is once


def test_the_prepended_imports_run_and_bind_the_real_module(oracle):
    """The rewritten test runs in the sandbox and its ``D`` is datetime's, even though
    the candidate binds its own ``D``."""
    plain = ["assert f(D(2024, 1, 31)) == D(2024, 1, 31)",
             "assert type(D(2024, 1, 31)).__module__ == 'datetime'"]
    tests = with_imports(plain, CANONICAL, "f")
    forged = "class D:\n    def __init__(self, *a):\n        pass\n" \
             "    def __eq__(self, o):\n        return True\n\ndef f(x):\n    return D()\n"
    assert oracle.run(CANONICAL, tests).passed
    # the real date compared with the candidate's object: the Oracle's plain-data rule
    assert oracle.run(forged, tests).statuses == ("error", "pass")
    # without the import, the test's D is the candidate's and the forging passes
    assert oracle.run(forged, plain).statuses == ("pass", "fail")
