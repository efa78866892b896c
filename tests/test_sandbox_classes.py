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

The test's own ``isinstance`` / ``issubclass`` decide by the object's real type: a wrong
function whose result's ``__class__`` says ``int`` (or ``ValueError``, ``list`` for
``Iterable``...), or whose ``__bases__`` say ``int``, must not pass a test that checks the
type only; Python's answer for every honest object is kept (checked against the builtins on
a grid of objects and classes, in process).
"""

from __future__ import annotations

import builtins
import collections
import collections.abc
import datetime
import decimal
import enum
import fractions
import itertools
import json
import numbers
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from execretrieval import Oracle
from execretrieval.oracle import _sandbox_runner
from execretrieval.oracle._sandbox_classes import CLASSES

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


# an exception class whose metaclass's own mro() lists ValueError, which it does not
# derive from
LISTED = ("class _Lister(type):\n    def mro(cls):\n"
          "        return [cls, ValueError, Exception, BaseException, object]\n"
          "class _Listed(Exception, metaclass=_Lister):\n    pass\n")


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    tests: list[str]
    # (hostile: what the error names; None: any verdict but pass, a fail included)
    says: str | None = "from the candidate's code"


# a wrong answer whose class says it is another: ``__class__`` is what Python's isinstance
# falls back to when the real type does not match
LIAR = ("class _Liar:\n    __class__ = property(lambda self: {cls})\n"
        "def f(x):\n    return _Liar()\n")


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
    # 4. isinstance / issubclass against built-in classes and ABCs: the real type decides
    Case("a_result_whose_class_says_int", LIAR.format(cls="int"),
         ["assert isinstance(f(3), int)"], says=None),
    Case("a_result_whose_class_says_str_as_a_class_attribute",
         "class _Liar:\n    __class__ = str\ndef f(x):\n    return _Liar()\n",
         ["assert isinstance(f('a'), str)"], says=None),
    Case("a_result_whose_class_says_one_of_a_tuple", LIAR.format(cls="float"),
         ["assert isinstance(f(3), (int, float))",
          "assert isinstance(f(3), (str, (bytes, float)))"], says=None),
    Case("a_result_whose_class_says_one_of_a_union", LIAR.format(cls="int"),
         ["assert isinstance(f(3), int | None)", "assert isinstance(f(3), (str, int | None))"],
         says=None),
    Case("an_exception_whose_class_says_valueerror",
         "class _Error(Exception):\n    __class__ = ValueError\n"
         "def parse(s):\n    raise _Error(s)\n",
         ["try:\n    parse('x')\nexcept Exception as e:\n    assert isinstance(e, ValueError)"],
         says=None),
    Case("an_exception_whose_class_says_the_candidates_own_class",
         "class StatisticsError(ValueError):\n    pass\n"
         "class _Error(ZeroDivisionError):\n    __class__ = StatisticsError\n"
         "def mean(xs):\n    if not xs:\n        raise _Error()\n    return sum(xs) / len(xs)\n",
         [CAUGHT.format("isinstance(e, StatisticsError)")], says=None),
    Case("an_object_whose_bases_say_int",
         "class _Kind:\n    __bases__ = (int,)\ndef kind(x):\n    return _Kind()\n",
         ["assert issubclass(kind(3), int)", "assert issubclass(kind(3), (str, int))"],
         says="issubclass() arg 1 must be a class"),
    Case("a_class_whose_metaclass_lists_valueerror",
         "class _Meta(type):\n    def mro(cls):\n"
         "        return [cls, ValueError, Exception, BaseException, object]\n"
         "class _Error(Exception, metaclass=_Meta):\n    pass\n"
         "def error_class(s):\n    return _Error\n",
         ["assert issubclass(error_class('x'), ValueError)",
          "assert isinstance(error_class('x')(), (KeyError, ValueError))"], says=None),
    # ... and an exception of such a class, caught by the test's except or pytest.raises
    # (Python matches by the __mro__ the metaclass made): the wrong parse raises it
    # where it should raise ValueError
    Case("an_exception_whose_metaclass_lists_valueerror", LISTED + "def parse(s):\n"
         "    raise _Listed('no')\n",
         ["import pytest\nwith pytest.raises(ValueError):\n    parse('x')",
          "import pytest\npytest.raises((KeyError, ValueError), parse, 'x')",
          "try:\n    parse('x')\nexcept ValueError:\n    pass\nelse:\n    assert False",
          "try:\n    parse('x')\nexcept (KeyError, ValueError) as e:\n    pass\n"
          "else:\n    assert False"], says=None),
    Case("an_exception_whose_metaclass_lists_the_candidates_own_class",
         OWN_ERROR.replace("raise StatisticsError(", "raise _Listed(") + LISTED.replace(
             "ValueError, Exception", "StatisticsError, ValueError, Exception"),
         ["import pytest\nwith pytest.raises(StatisticsError):\n    mean([])",
          "try:\n    mean([])\nexcept StatisticsError:\n    pass\nelse:\n    assert False"],
         says=None),
    # a subclass of a standard-library ABC whose own metaclass says every class is one
    # of its subclasses: the ABC's check (asking each subclass) said yes for an int
    Case("an_abc_subclass_whose_metaclass_says_yes",
         "import abc, collections.abc, numbers\nclass _Yes(abc.ABCMeta):\n"
         "    def __subclasscheck__(cls, sub):\n        return True\n"
         "class _Seq(collections.abc.Sequence, metaclass=_Yes):\n    pass\n"
         "class _Num(numbers.Integral, metaclass=_Yes):\n    pass\n"
         "def split(x):\n    return x\n",
         ["from collections.abc import Sequence\nassert isinstance(split(3), Sequence)",
          "import collections.abc\nassert isinstance(split(3), (dict, collections.abc.Sequence))",
          "import numbers\nassert isinstance(split('3'), numbers.Number)",
          "from collections.abc import Sequence\nassert issubclass(type(split(3)), Sequence)"],
         says=None),
    # typing's protocols (read from the candidate's namespace) asked x.__class__ and x's
    # attributes: a result whose class says int, or whose __getattr__ has every method
    Case("a_result_whose_class_says_int_to_a_protocol",
         "from typing import SupportsInt, SupportsIndex\n" + LIAR.format(cls="int"),
         ["assert isinstance(f(3), SupportsInt)",
          "assert isinstance(f(3), (str, SupportsIndex))"], says=None),
    Case("a_result_whose_getattr_answers_a_protocol",
         "from typing import SupportsInt\nclass _Any:\n    def __getattr__(self, name):\n"
         "        return lambda *a: 1\ndef f(x):\n    return _Any()\n",
         ["assert isinstance(f(3), SupportsInt)"], says=None),
    Case("a_result_whose_class_says_list_to_an_abc", LIAR.format(cls="list"),
         ["from collections.abc import Iterable, Sequence\nassert isinstance(f(3), Iterable)",
          "import collections.abc\nassert isinstance(f(3), collections.abc.Sequence)"],
         says=None),
    Case("a_result_whose_class_says_int_to_numbers", LIAR.format(cls="int"),
         ["import numbers\nassert isinstance(f(3), numbers.Number)",
          "from numbers import Integral\nassert isinstance(f(3), (str, Integral))"],
         says=None),
]

HONEST = [
    # typing's runtime protocols, read from the candidate's namespace, answer as Python
    # does for real objects, a class of the candidate's own and a data protocol
    Case("protocols_answer_as_python_does",
         "from typing import Protocol, SupportsInt, SupportsIndex, runtime_checkable\n"
         "@runtime_checkable\nclass Named(Protocol):\n    name: str\n"
         "class Money:\n    def __init__(self, v):\n        self.v = v\n"
         "    def __int__(self):\n        return self.v\n"
         "class Tag:\n    def __init__(self, name):\n        self.name = name\n"
         "def f(x):\n    return x\ndef money(v):\n    return Money(v)\n"
         "def tag(n):\n    return Tag(n)\n",
         ["assert isinstance(f(3), SupportsInt) and isinstance(f(3), SupportsIndex)",
          "assert isinstance(money(2), SupportsInt) and not isinstance(money(2), SupportsIndex)",
          "assert not isinstance(f('3'), SupportsInt) and isinstance(f(2.5), (str, SupportsInt))",
          "assert isinstance(tag('a'), Named) and not isinstance(money(1), Named)"]),
    # the standard library's ABCs answer as Python does for real and registered classes,
    # and for a subclass of the candidate's with a metaclass of its own that derives
    Case("abcs_answer_as_python_does",
         "import abc, collections.abc, numbers\nclass _Meta(abc.ABCMeta):\n    pass\n"
         "class Row(collections.abc.Sequence, metaclass=_Meta):\n"
         "    def __init__(self, *v):\n        self.v = v\n"
         "    def __getitem__(self, i):\n        return self.v[i]\n"
         "    def __len__(self):\n        return len(self.v)\n"
         "class Pair:\n    def __init__(self, a, b):\n        self.v = (a, b)\n"
         "    def __getitem__(self, i):\n        return self.v[i]\n"
         "    def __len__(self):\n        return 2\n"
         "collections.abc.Sequence.register(Pair)\n"
         "def row(*v):\n    return Row(*v)\ndef pair(a, b):\n    return Pair(a, b)\n",
         ["from collections.abc import Sequence, Mapping, Iterable, Hashable\n"
          "assert isinstance(row(1, 2), Sequence) and isinstance(pair(1, 2), Sequence)\n"
          "assert all(isinstance(x, Sequence) for x in ([], (), 'a', b'', range(2)))\n"
          "assert not isinstance({}, Sequence) and isinstance({}, Mapping)\n"
          "assert isinstance(row(), Iterable) and not isinstance(row(), Hashable) is False",
          "import numbers\nfrom fractions import Fraction\n"
          "assert all(isinstance(x, numbers.Number) for x in (1, 1.5, 2j, True, Fraction(1)))\n"
          "assert isinstance(3, numbers.Integral) and not isinstance(1.5, numbers.Integral)\n"
          "assert not isinstance(row(), numbers.Number) and not isinstance('3', numbers.Number)"]),
    # exceptions of a class with a metaclass of the candidate's own (a registry) that
    # really derives from the expected class: caught as before (the test names builtins:
    # an expected class it read from the candidate would have to be of metaclass type)
    Case("an_exception_of_a_registered_class",
         "class _Registry(type):\n    seen = []\n    def __init__(cls, *a):\n"
         "        super().__init__(*a)\n        _Registry.seen.append(cls)\n"
         "class ParseError(ValueError, metaclass=_Registry):\n    pass\n"
         "class _Deeper(ParseError):\n    pass\n"
         "def parse(s):\n    if not s.isdigit():\n        raise _Deeper('not a number: ' + s)\n"
         "    return int(s)\n",
         ["import pytest\nwith pytest.raises(ValueError, match='number'):\n    parse('x')",
          "import pytest\npytest.raises((KeyError, ValueError), parse, 'x')",
          "try:\n    parse('x')\nexcept KeyError:\n    assert False\nexcept (TypeError, "
          "ValueError) as e:\n    assert 'x' in str(e)\nelse:\n    assert False",
          "try:\n    parse('x')\nexcept ValueError:\n    pass\nassert parse('12') == 12",
          "try:\n    try:\n        parse('x')\n    except KeyError:\n        pass\n"
          "except Exception as e:\n    assert type(e).__name__ == '_Deeper'"]),
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
    Case("builtin_classes_as_python_has_them", "def same(x):\n    return x\n",
         ["assert isinstance(same(True), int) and not isinstance(same(1), bool)",
          "assert issubclass(bool, int) and not issubclass(int, bool)",
          "assert isinstance(same([1]), (list, tuple)) and isinstance(same(()), (list, tuple))",
          "assert isinstance(same(None), int | None) and not isinstance(same('a'), int | None)",
          "assert isinstance(same(3), (str, (bytes, int))) and isinstance(int, type)",
          "assert issubclass(type(same(KeyError())), (TypeError, LookupError))",
          "assert not isinstance(same(1.5), int) and isinstance(same(1.5), float | int)",
          "x = same(2)\nassert isinstance(x, type(3)) and not isinstance(x, type('a'))",
          "check = isinstance\nassert all(check(v, int) for v in same([1, 2, True]))"]),
    Case("exceptions_as_python_has_them",
         "def parse(s):\n    if not s.isdigit():\n        raise ValueError(s)\n"
         "    return int(s)\n",
         ["import pytest\nwith pytest.raises(ValueError):\n    parse('x')",
          "try:\n    parse('x')\nexcept Exception as e:\n"
          "    assert isinstance(e, ValueError) and not isinstance(e, KeyError)",
          "try:\n    parse('x')\nexcept (TypeError, ValueError) as e:\n"
          "    assert issubclass(type(e), Exception)"]),
    Case("a_test_that_binds_isinstance_itself", "def same(x):\n    return x\n",
         ["def isinstance(obj, cls):\n    return type(obj) is cls\n"
          "assert isinstance(same(1), int) and not isinstance(same(True), int)"]),
    Case("standard_library_abcs_and_numbers",
         "from fractions import Fraction\nclass Bag:\n    def __init__(self, items):\n"
         "        self.items = list(items)\n    def __iter__(self):\n"
         "        return iter(self.items)\n    def __len__(self):\n"
         "        return len(self.items)\n"
         "def make(xs):\n    return Bag(xs)\ndef half(n):\n    return Fraction(n, 2)\n",
         ["from collections.abc import Iterable, Sized, Sequence\n"
          "assert isinstance(make([1]), Iterable) and isinstance(make([1]), Sized)\n"
          "assert not isinstance(make([1]), Sequence) and isinstance([1], Sequence)",
          "import numbers\nassert isinstance(half(1), numbers.Rational)\n"
          "assert isinstance(3, numbers.Integral) and not isinstance(half(1), numbers.Integral)",
          "from collections.abc import Iterable\nassert issubclass(Bag, Iterable)"]),
    Case("an_abc_of_its_own_with_a_registered_class",
         "from abc import ABC\nclass Shape(ABC):\n    pass\nclass Circle:\n    pass\n"
         "Shape.register(Circle)\ndef make():\n    return Circle()\n",
         ["assert isinstance(make(), Shape) and issubclass(Circle, Shape)"]),
    Case("enums_and_a_class_changed_for_real",
         "from enum import Enum, IntEnum\nclass Color(Enum):\n    RED = 1\n"
         "class Level(IntEnum):\n    LOW = 1\nclass A:\n    pass\nclass B:\n    pass\n"
         "def pick():\n    return Color.RED, Level.LOW\n"
         "def made_b():\n    a = A()\n    a.__class__ = B\n    return a\n",
         ["red, low = pick()\nassert isinstance(red, Color) and isinstance(low, int)\n"
          "assert isinstance(low, (str, Level)) and not isinstance(red, int)",
          "assert isinstance(made_b(), B) and not isinstance(made_b(), A)"]),
]
CASES = {c.name: c for c in HOSTILE + HONEST}


@pytest.fixture(scope="module")
def oracle():
    with Oracle(cache=None, workers=2) as o:
        yield o


def _hostile_verdict(result, says: str | None) -> None:  # type: ignore[no-untyped-def]
    assert not result.passed
    assert all(o.status != "pass" for o in result.outcomes), result.outcomes
    if says is None:  # (the real type said no: a fail)
        return
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


class _Color(enum.Enum):
    RED = 1


class _Level(enum.IntEnum):
    LOW = 1


class _Error(ValueError):
    pass


class _Point(typing.NamedTuple):
    x: int


@typing.runtime_checkable
class _Sized(typing.Protocol):
    def __len__(self) -> int: ...


class _Bag:
    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(())


class _Liar:
    """An object whose ``__class__`` says ``int``, and whose ``__bases__`` say ``int``."""
    __class__ = property(lambda self: int)  # type: ignore[assignment]
    __bases__ = (int,)


class _ListLiar:
    __class__ = property(lambda self: list)  # type: ignore[assignment]


class _ListingMeta(type):
    def mro(cls):  # type: ignore[no-untyped-def]
        return [cls, ValueError, Exception, BaseException, object]


class _Listed(Exception, metaclass=_ListingMeta):
    pass


OBJECTS = [0, 1, True, None, 1.5, 1j, "s", b"b", bytearray(), [], (), {}, set(), frozenset(),
           range(3), _Color.RED, _Level.LOW, _Error("x"), KeyError(), _Point(1),
           fractions.Fraction(1, 2), decimal.Decimal(1), collections.OrderedDict(),
           collections.deque(), datetime.date(2020, 1, 1), datetime.datetime(2020, 1, 1), int,
           type, _Color, iter([]), (x for x in ()), len, _Bag(), object(), ...]
INFOS = [int, bool, float, str, object, type, list, tuple, dict, BaseException, ValueError,
         LookupError, _Error, _Color, _Level, enum.Enum, _Point, numbers.Number,
         numbers.Integral, fractions.Fraction, collections.abc.Iterable,
         collections.abc.Sequence, collections.abc.Mapping, collections.abc.Hashable,
         collections.abc.Callable, typing.Iterable, _Sized, _Bag, (int, float),
         (list, tuple), (int, (str, (float,))), int | None, str | list | None,
         (int | None, str), (), 5, (int, 5), (5, int), "int", list[int], int | list[int],
         typing.Any, datetime.date,
         # (typing's own objects, not annotations)
         typing.List, typing.Union[int, str], typing.Optional[int]]  # noqa: UP006, UP007, UP045


@pytest.fixture(scope="module")
def checks():
    """The test's isinstance and issubclass, made as the fork server makes them (in bare
    globals, holding the standard library's classes)."""
    bare: dict = {"__builtins__": builtins}
    exec(CLASSES, bare)
    _own, _classes, hold, isinstance_, issubclass_, _catch, _parts = \
        _sandbox_runner.make_class_checks(bare)
    hold(*_sandbox_runner.stdlib_classes(_sandbox_runner.stdlib_spaces()), True)
    return isinstance_, issubclass_


def _answer(function, *args):  # type: ignore[no-untyped-def]
    try:
        return function(*args)
    except TypeError as exc:
        return ("TypeError", str(exc))


class _Series(collections.abc.Iterable, typing.Protocol):
    """A protocol that is not runtime-checkable under an ABC (narwhals has such)."""

    def head(self) -> object: ...


def test_an_abc_with_a_static_protocol_below_it_answers_as_python_does(checks):
    """typing lets the ABC machinery pass over such a protocol and refuses anyone else:
    the runner's check of ``Iterable`` is the machinery's, not a TypeError."""
    isinstance_, issubclass_ = checks
    for obj in (0, [], "ab", _Bag(), None):
        assert _answer(isinstance_, obj, collections.abc.Iterable) == isinstance(
            obj, collections.abc.Iterable), obj
    assert _answer(issubclass_, int, collections.abc.Iterable) is False
    assert _answer(isinstance_, [], _Series)[0] == "TypeError"   # asked directly: as Python


def test_isinstance_gives_pythons_answer_for_every_honest_object(checks):
    isinstance_ = checks[0]
    for obj, info in itertools.product(OBJECTS, INFOS):
        assert _answer(isinstance_, obj, info) == _answer(isinstance, obj, info), (obj, info)


def test_issubclass_gives_pythons_answer_for_every_honest_class(checks):
    """(An object that is not a class is refused at the first class to check against,
    before Python would say what else is wrong with the second argument: a TypeError too.)"""
    issubclass_ = checks[1]
    for cls, info in itertools.product([o for o in OBJECTS if isinstance(o, type)] + [
            bool, _Error, _Point, _Level, fractions.Fraction, _Bag, enum.EnumMeta, _Sized,
            1, "s", None], INFOS):
        ours, pythons = _answer(issubclass_, cls, info), _answer(issubclass, cls, info)
        if not isinstance(cls, type) and type(pythons) is tuple:
            ours, pythons = ours[0], pythons[0]
        assert ours == pythons, (cls, info)


def test_a_liars_class_and_bases_decide_nothing(checks):
    """What Python's builtins decide by ``__class__`` / ``__bases__`` / a metaclass's own
    ``mro()``, these decide by the real type (or refuse an object that is not a class)."""
    isinstance_, issubclass_ = checks
    assert isinstance(_Liar(), int) and issubclass(_Liar(), int)  # (Python's builtins)
    for info in (int, (str, int), (str, (int,)), int | None, numbers.Number, numbers.Integral):
        assert not isinstance_(_Liar(), info), info
        with pytest.raises(TypeError, match="arg 1 must be a class"):
            issubclass_(_Liar(), info)
    assert isinstance(_ListLiar(), collections.abc.Iterable)
    assert not isinstance_(_ListLiar(), collections.abc.Iterable)
    assert not isinstance_(_ListLiar(), (collections.abc.Sequence, list))
    assert issubclass(_Listed, ValueError) and isinstance(_Listed(), ValueError)
    assert not issubclass_(_Listed, ValueError) and not isinstance_(_Listed(), ValueError)
    assert issubclass_(_Listed, Exception) and isinstance_(_Listed(), (KeyError, Exception))
