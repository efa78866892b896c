"""Classes a test takes from the candidate's namespace decide no verdict the candidate chose
(issue 20, ``_sandbox_classes.py``).

A test that reads a class from the candidate (``StatisticsError``) and lets it decide the
verdict gets it through the runner's check: the expected exception of ``pytest.raises`` and
``except``, through any alias of the test's own (``E = StatisticsError``, a tuple, ``for E
in (...)``), and the class of ``isinstance`` / ``issubclass``. Each hostile case is a wrong
``mean`` (stdlib's, q_0003, without its check for no data: ``mean([])`` divides by zero)
whose namespace binds the name to something broader; it must never be reported ``pass``.
Each honest case is right code using the same idiom (its own exception class, a dataclass,
an enum, an ABC, the standard library's own class imported by name) and must pass. All run
through ``Oracle.run`` and once more in a ``run_many`` batch between honest suites.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from execretrieval import Oracle

DATA = Path(__file__).resolve().parent.parent / "data"
ADD = ("def add(a, b):\n    return a + b\n", ["assert add(1, 2) == 3", "assert add(2, 2) == 4"])
NO_CHECK = "def mean(xs):\n    return sum(xs) / len(xs)\n"
YES = ("class _Yes(type):\n    def __subclasscheck__(cls, sub):\n        return True\n"
       "    def __instancecheck__(cls, obj):\n        return True\n")
CAUGHT = "try:\n    mean([])\nexcept Exception as e:\n    assert {}\nelse:\n    assert False"
OWN_ERROR = ("class StatisticsError(ValueError):\n    pass\ndef mean(xs):\n    if not xs:\n"
             "        raise StatisticsError('mean requires at least one data point')\n"
             "    return sum(xs) / len(xs)\n")
STDLIB_ERROR = OWN_ERROR.replace("class StatisticsError(ValueError):\n    pass\n",
                                 "from statistics import StatisticsError\n")


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    tests: list[str]
    says: str = "from the candidate's code"  # (hostile: what the error names)


HOSTILE = [
    # 1. an alias of the test's own, then pytest.raises / except
    Case("alias_then_raises", "StatisticsError = Exception\n" + NO_CHECK,
         ["import pytest\nE = StatisticsError\nwith pytest.raises(E):\n    mean([])"]),
    Case("alias_of_an_alias", "StatisticsError = Exception\n" + NO_CHECK,
         ["import pytest\nE = StatisticsError\nF = E\nwith pytest.raises(F):\n    mean([])"]),
    Case("alias_as_a_keyword", "StatisticsError = ArithmeticError\n" + NO_CHECK,
         ["import pytest\nE: type = StatisticsError\n"
          "with pytest.raises(expected_exception=E):\n    mean([])"]),
    Case("alias_in_a_tuple_then_except", "StatisticsError = ZeroDivisionError\n" + NO_CHECK,
         ["E = (KeyError, StatisticsError)\ntry:\n    mean([])\nexcept E:\n    pass\n"
          "else:\n    assert False"]),
    Case("alias_as_a_loop_variable", "StatisticsError = Exception\n" + NO_CHECK,
         ["for E in (StatisticsError,):\n    try:\n        mean([])\n    except E:\n"
          "        pass\n    else:\n        assert False"]),
    Case("alias_with_a_yes_saying_metaclass",
         YES + "class StatisticsError(ValueError, metaclass=_Yes):\n    pass\n" + NO_CHECK,
         ["import pytest\nE = StatisticsError\nwith pytest.raises(E):\n    mean([])"]),
    # 2. isinstance / issubclass against the candidate's class
    Case("isinstance_of_object", "StatisticsError = object\n" + NO_CHECK,
         [CAUGHT.format("isinstance(e, StatisticsError)")]),
    Case("isinstance_with_a_yes_saying_metaclass",
         YES + "class StatisticsError(ValueError, metaclass=_Yes):\n    pass\n" + NO_CHECK,
         [CAUGHT.format("isinstance(e, StatisticsError)")]),
    Case("isinstance_of_a_tuple", "StatisticsError = ZeroDivisionError\n" + NO_CHECK,
         [CAUGHT.format("isinstance(e, (KeyError, StatisticsError))")]),
    Case("issubclass_of_object", "StatisticsError = object\n" + NO_CHECK,
         [CAUGHT.format("issubclass(type(e), StatisticsError)")]),
    Case("isinstance_of_what_a_call_returns", "def make():\n    return object\n" + NO_CHECK,
         [CAUGHT.format("isinstance(e, make())")]),
    Case("isinstance_through_an_alias", "StatisticsError = ArithmeticError\n" + NO_CHECK,
         ["K = StatisticsError\n" + CAUGHT.format("isinstance(e, K)")]),
    Case("isinstance_of_an_abc_whose_hook_says_yes",
         "from abc import ABC\nclass StatisticsError(ValueError, ABC):\n"
         "    @classmethod\n    def __subclasshook__(cls, C):\n        return True\n" + NO_CHECK,
         [CAUGHT.format("isinstance(e, StatisticsError)")]),
    # 3. a standard-library exception class, under the name of another
    Case("stdlib_class_under_another_name", "import json\n"
         "StatisticsError = json.JSONDecodeError\n"
         "def mean(xs):\n    return sum(xs) / len(xs) if xs else json.loads('')\n",
         ["import pytest\nwith pytest.raises(StatisticsError):\n    mean([])",
          "import json\ntry:\n    mean([])\nexcept Exception as e:\n"
          "    assert isinstance(e, StatisticsError)"]),
    Case("stdlib_class_renamed", "import json\n"
         "json.JSONDecodeError.__name__ = 'StatisticsError'\n"
         "StatisticsError = json.JSONDecodeError\n"
         "def mean(xs):\n    return sum(xs) / len(xs) if xs else json.loads('')\n",
         ["import pytest\nwith pytest.raises(StatisticsError):\n    mean([])"],
         says="changed a standard-library class"),
]

HONEST = [
    Case("own_class_through_aliases", OWN_ERROR,
         ["import pytest\nE = StatisticsError\nwith pytest.raises(E):\n    mean([])",
          "E = (TypeError, StatisticsError)\ntry:\n    mean([])\nexcept E:\n    pass\n"
          "else:\n    assert False",
          "for E in (ValueError, StatisticsError):\n    try:\n        mean([])\n"
          "    except E:\n        pass",
          CAUGHT.format("isinstance(e, StatisticsError) and issubclass(type(e), "
                        "(KeyError, StatisticsError))")]),
    Case("stdlib_class_imported_by_the_candidate", STDLIB_ERROR,
         ["import pytest\nwith pytest.raises(StatisticsError):\n    mean([])",
          "import pytest\nE = StatisticsError\nwith pytest.raises(E):\n    mean([])",
          "try:\n    mean([])\nexcept StatisticsError as e:\n"
          "    assert isinstance(e, StatisticsError)\nelse:\n    assert False",
          "assert mean([1, 2, 3]) == 2"]),
    Case("stdlib_class_the_test_imports_itself", STDLIB_ERROR,
         ["import pytest\nimport statistics\nE = statistics.StatisticsError\n"
          "with pytest.raises(E):\n    mean([])"]),
    Case("calendar_error_imported_by_the_candidate",
         "from calendar import IllegalMonthError\ndef check(m):\n"
         "    if not 1 <= m <= 12:\n        raise IllegalMonthError(m)\n    return m\n",
         ["import pytest\nwith pytest.raises(IllegalMonthError):\n    check(13)",
          "E = (ValueError, IllegalMonthError)\ntry:\n    check(0)\nexcept E as e:\n"
          "    assert isinstance(e, IllegalMonthError)"]),
    Case("dataclass", "from dataclasses import dataclass\n@dataclass\nclass Point:\n"
         "    x: int\n    y: int\ndef make(x, y):\n    return Point(x, y)\n",
         ["assert isinstance(make(1, 2), Point)",
          "P = Point\nassert isinstance(make(1, 2), P) and issubclass(P, object)"]),
    Case("enum", "from enum import Enum\nclass Color(Enum):\n    RED = 1\n"
         "def pick():\n    return Color.RED\n", ["assert isinstance(pick(), Color)"]),
    Case("abc_of_its_own", "from abc import ABC, abstractmethod\nclass Shape(ABC):\n"
         "    @abstractmethod\n    def area(self): ...\nclass Square(Shape):\n"
         "    def area(self):\n        return 4\ndef make():\n    return Square()\n",
         ["assert isinstance(make(), Shape)", "assert issubclass(Square, Shape)"]),
    Case("stdlib_classes_imported_by_the_candidate",
         "from collections import OrderedDict\nfrom collections.abc import Iterable\n"
         "from fractions import Fraction\ndef make():\n    return OrderedDict(a=Fraction(1, 2))\n",
         ["assert isinstance(make(), OrderedDict) and isinstance(make(), Iterable)",
          "assert isinstance(make()['a'], Fraction)"]),
    Case("stdlib_class_of_a_module_only_the_candidate_imports",  # (held by W itself)
         "from getopt import GetoptError\ndef parse(arg):\n    if arg.startswith('-x'):\n"
         "        raise GetoptError('option -x not recognized', arg)\n    return arg\n",
         ["import pytest\nwith pytest.raises(GetoptError):\n    parse('-x')",
          "try:\n    parse('-x')\nexcept Exception as e:\n    assert isinstance(e, GetoptError)"]),
    Case("builtin_classes_the_test_computes", ADD[0],
         ["assert isinstance(add(1, 2), int | float)",
          "assert isinstance(add(1, 2), type(add(0, 0)))"]),
    Case("class_the_test_defines", "def same(x):\n    return x\n",
         ["class T:\n    pass\nassert isinstance(same(T()), T)"]),
]
CASES = {c.name: c for c in HOSTILE + HONEST}


@pytest.fixture(scope="module")
def oracle():
    with Oracle(cache=None, workers=2) as o:
        yield o


def _hostile_verdict(result, says: str) -> None:  # type: ignore[no-untyped-def]
    assert not result.passed
    # the check refuses the class (not a crash of the wrong mean's division)
    assert any(o.status == "error" and says in o.detail for o in result.outcomes), \
        result.outcomes
    assert all(o.status != "pass" for o in result.outcomes), result.outcomes


@pytest.mark.parametrize("name", [c.name for c in HOSTILE])
def test_a_class_from_the_candidate_decides_no_verdict(oracle, name):
    case = CASES[name]
    _hostile_verdict(oracle.run(case.code, case.tests), case.says)


@pytest.mark.parametrize("name", [c.name for c in HONEST])
def test_right_code_using_the_same_idioms_passes(oracle, name):
    case = CASES[name]
    result = oracle.run(case.code, case.tests)
    assert result.passed, result.outcomes


def test_every_route_in_one_batch_between_honest_suites(oracle):
    jobs = []
    for case in HOSTILE + HONEST:
        jobs += [ADD, (case.code, case.tests)]
    results = oracle.run_many(jobs + [ADD])
    for n, case in enumerate(HOSTILE + HONEST):
        assert results[2 * n].passed
        if case in HOSTILE:
            _hostile_verdict(results[2 * n + 1], case.says)
        else:
            assert results[2 * n + 1].passed, (case.name, results[2 * n + 1].outcomes)
    assert results[-1].passed


def test_the_bundled_mean_passes_with_the_standard_librarys_own_error(oracle):
    """q_0003's canonical with its own StatisticsError replaced by statistics' (so the
    candidate imports the class its tests read): every bundled test still passes."""
    query = next(q for q in map(json.loads, (DATA / "stdlib" / "queries.jsonl").open())
                 if q["query_id"] == "q_0003")
    code = next(c["code"] for c in map(json.loads, (DATA / "stdlib" / "corpus.jsonl").open())
                if c["query_id"] == "q_0003" and c["role"] == "canonical")
    own = "class StatisticsError(ValueError):\n    pass\n"
    assert own in code
    result = oracle.run(code.replace(own, "from statistics import StatisticsError\n"),
                        query["test_suite"])
    assert result.passed, result.outcomes
