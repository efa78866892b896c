"""Dict version tags in the judge (``_sandbox_tags.py``): a write the candidate puts back
before the test's code ends is still seen, and W's leak check reads no value of a namespace
nothing wrote to.

CPython 3.11 raises no audit event when a dict item changes: a *wrong* function that
rebinds ``builtins.len``, a pinned module's global (``random._floor``, which
``random.choices`` reads) or an item of a dispatch table (``copy._deepcopy_dispatch[list]``)
while the test runs, so that what the test computes with the standard library agrees with
its wrong answer, and puts it back in a second call before the test's code ends, left the
contents as they were where ``recheck`` compares them. Each case below passed so before
the tags (the branch point, bfe38cf); each must not pass now. Honest code that uses the
same modules (and the standard library's own writes: ``tempfile.gettempdir``,
``warnings.catch_warnings``, a submodule imported while the test runs) still passes.
"""

from __future__ import annotations

import builtins
import itertools
import os
import sys
import types
from pathlib import Path

import pytest

from execretrieval import Oracle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core" / "oracle"))
import _sandbox_tags  # noqa: E402  (the server imports them bare, as here)

from execretrieval.oracle import _sandbox_channel, _sandbox_runner  # noqa: E402

sys.path.pop(0)

# builtins.len -> 1 while the test's random.choice runs: it picks xs[0], the wrong answer
LEN = ("import builtins\n_real = builtins.len\n"
       "def pick(xs):\n    if not xs:\n        builtins.len = _real\n        return None\n"
       "    builtins.len = lambda s: 1\n    return xs[0]\n")
LEN_TESTS = ["import random\nxs = [5, 7, 9, 11]\nassert pick(xs) == random.choice(xs)\n"
             "assert pick([]) is None"]
# random._floor (what random.choices reads for each draw) -> 0: choices gives xs[0]
FLOOR = ("import random\n_real = random._floor\n"
         "def pick(xs):\n    if not xs:\n        random._floor = _real\n        return None\n"
         "    random._floor = lambda x: 0\n    return xs[0]\n")
FLOOR_TESTS = ["import random\nxs = [5, 7, 9, 11]\n"
               "assert [pick(xs)] * 3 == random.choices(xs, k=3)\nassert pick([]) is None"]
# copy._deepcopy_dispatch[list] -> a copier that answers what the wrong dup answers
DISPATCH = ("import copy\n_real = copy._deepcopy_dispatch[list]\n"
            "def dup(xs):\n    if xs is None:\n"
            "        copy._deepcopy_dispatch[list] = _real\n        return None\n"
            "    copy._deepcopy_dispatch[list] = lambda x, memo, *a: [0]\n    return [0]\n")
DISPATCH_TESTS = ["import copy\nxs = [1, 2, 3]\nassert dup(xs) == copy.deepcopy(xs)\n"
                  "assert dup(None) is None"]
# json._default_encoder (what json.dumps uses without options) -> a fake, in a package,
# with a name planted beside it so that its namespace grows as a submodule import's would
PACKAGE = ("import json\n_real = json._default_encoder\nclass _E:\n"
           "    def encode(self, o):\n        return '\"forged\"'\n"
           "def show(x):\n    if x is None:\n        json._default_encoder = _real\n"
           "        return None\n    json._default_encoder = _E()\n"
           "    json.__planted__ = 1\n    return '\"forged\"'\n")
PACKAGE_TESTS = ["import json\nassert show([1]) == json.dumps([1])\nassert show(None) is None"]
FORGED = [("builtins_len", LEN, LEN_TESTS), ("module_global", FLOOR, FLOOR_TESTS),
          ("dispatch_table", DISPATCH, DISPATCH_TESTS),
          ("package_global", PACKAGE, PACKAGE_TESTS)]

HONEST = [
    ("random_and_copy", "import copy, random\ndef pick(xs):\n    return random.choice(xs)\n"
     "def dup(xs):\n    return copy.deepcopy(xs)\n",
     ["import random\nxs = [5, 7, 9]\nassert pick(xs) in xs and random.choice(xs) in xs",
      "import copy\nxs = [[1], [2]]\nassert dup(xs) == copy.deepcopy(xs) and dup(xs) is not xs",
      "import random\nassert len(random.choices([1, 2], k=4)) == 4"]),
    # the standard library's own writes to its namespaces while the test runs
    ("stdlib_writes_its_globals", "import tempfile, warnings, os\n"
     "def where():\n    return tempfile.gettempdir()\n"
     "def quiet():\n    with warnings.catch_warnings():\n"
     "        warnings.simplefilter('ignore')\n        warnings.warn('x')\n    return 1\n",
     ["import copy, os\nassert os.path.isdir(where()) and copy.copy(quiet()) == 1",
      "import random\nassert quiet() == 1 and random.choice([where()]) == where()"]),
    # a submodule imported while the test runs writes its name into the package
    ("submodule_imported_during_the_test", "def parse(text):\n    import json.tool\n"
     "    import json\n    return json.loads(text)\n",
     ["import json\nassert parse('[1]') == json.loads('[1]')"]),
    # a builtin of the candidate's own, added while its code loads
    ("own_builtin", "import builtins, copy\nbuiltins.twice = lambda x: 2 * x\n"
     "def dup(xs):\n    return copy.deepcopy(xs) + [twice(1)]\n",
     ["import copy\nxs = [3]\nassert dup(xs) == copy.deepcopy(xs) + [2]"]),
]


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=3.0, cache=None, workers=2) as o:
        yield o


@pytest.mark.parametrize("name", [f[0] for f in FORGED])
def test_a_write_put_back_during_the_test_is_seen(oracle, name):
    _, code, tests = next(f for f in FORGED if f[0] == name)
    result = oracle.run(code, tests)
    assert result.statuses == ("error",), (name, result.outcomes)
    assert "while the test ran" in result.outcomes[0].detail, result.outcomes[0].detail


def test_a_write_left_in_place_is_still_named(oracle):
    """Not put back: the same error (the tags are checked first)."""
    result = oracle.run(LEN, [LEN_TESTS[0].rpartition("\n")[0]])
    assert result.statuses == ("error",), result.outcomes
    assert "builtins" in result.outcomes[0].detail


@pytest.mark.parametrize("name", [h[0] for h in HONEST])
def test_honest_code_using_the_same_modules_passes(oracle, name):
    _, code, tests = next(h for h in HONEST if h[0] == name)
    result = oracle.run(code, tests)
    assert result.passed, (name, result.outcomes)


def test_the_forged_cases_in_one_batch_between_honest_suites(oracle):
    jobs = []
    for _, code, tests in FORGED + HONEST:
        jobs += [(code, tests), ("def add(a, b):\n    return a + b\n",
                                 ["assert add(1, 2) == 3", "import copy\n"
                                  "assert copy.deepcopy([add(1, 1)]) == [2]"])]
    results = oracle.run_many(jobs)
    for k in range(len(FORGED)):
        assert "pass" not in results[2 * k].statuses, results[2 * k].outcomes
    for k in range(len(FORGED), len(FORGED) + len(HONEST)):
        assert results[2 * k].passed, results[2 * k].outcomes
    for k in range(1, len(jobs), 2):
        assert results[k].passed, results[k].outcomes


def test_tags_follow_every_real_write_and_no_identical_store():
    """The views of the real module, on this interpreter (the server's own self-test runs
    too: make_tags raises TagError when the layout is not as it needs)."""
    tag, add = _sandbox_tags.make_tags()
    space = type(os)("probe").__dict__
    table: dict = {"a": len}
    add([space, table, vars(builtins), [1]])
    assert tag({}) is None and tag([1]) is None  # no view: a dict made later
    seen = [tag(space), tag(table)]
    table["a"] = len  # the identical object: no write
    exec("x = 1", space)
    assert tag(table) == seen[1] and tag(space) != seen[0]
    for step in (lambda: table.__setitem__("a", max), lambda: table.__setitem__("a", len),
                 lambda: table.pop("a"), lambda: table.setdefault("b", 1), table.clear):
        before = tag(table)
        step()
        assert tag(table) != before
    before = tag(vars(builtins))
    builtins.len = builtins.len
    assert tag(vars(builtins)) == before


def test_w_leak_check_reads_no_value_of_an_untouched_namespace():
    """``unchanged`` (the real ``make_fingerprint``, given the real tags) trusts an entry
    whose namespace's tag is as it was: its values are not read (an entry whose stored
    values were swapped still counts as intact), while a namespace that was written to is
    compared by contents as before (written and put back: intact, W's rule)."""
    tag, add = _sandbox_tags.make_tags()
    bare: dict = {"__builtins__": builtins}
    exec(_sandbox_channel.CHANNEL, bare)
    fingerprint, unchanged, _, _ = bare["make_fingerprint"](
        vars(builtins), sys.modules, os.getcwd, sys.getrecursionlimit,
        sys.get_int_max_str_digits, vars(types.ModuleType)["__dict__"].__get__,
        _sandbox_runner._str_table_sizes(), itertools.repeat, tag)
    module = types.ModuleType("probe")
    exec("a = 1\nb = 2", module.__dict__)
    add([module.__dict__, vars(builtins), sys.modules])
    taken = fingerprint((module,), ())
    assert unchanged(taken)
    entries = taken[0]
    assert all(e[5] is not None for e in entries)  # each namespace has its tag
    doctored = (tuple(e[:4] + (tuple(None for _ in e[4]), e[5]) for e in entries),
                ) + taken[1:]
    assert unchanged(doctored)  # no value compared: the tags say nothing was written
    exec("a = 3", module.__dict__)
    assert not unchanged(taken) and not unchanged(doctored)
    exec("a = 1", module.__dict__)
    assert unchanged(taken) and not unchanged(doctored)


# candidate code that finds ctypes' c_uint64 (through __subclasses__: it cannot import
# ctypes) and tries to make a view of builtins' tag, to write it back after a rebinding
MAKE_VIEW = ("def _find(k, seen):\n    for s in type.__subclasses__(k):\n"
             "        if s.__name__ in ('c_uint64', 'c_ulong'):\n            return s\n"
             "        if id(s) not in seen:\n            seen.add(id(s))\n"
             "            found = _find(s, seen)\n            if found is not None:\n"
             "                return found\n    return None\n"
             "def view():\n    k = _find(object, set())\n    if k is None:\n"
             "        return 'no class'\n    try:\n"
             "        k.from_address(id(vars(__builtins__) if type(__builtins__) is dict "
             "else vars(type(view)))+24)\n"
             "    except PermissionError as e:\n        return 'refused: ' + str(e)\n"
             "    return 'made'\n")


def test_candidate_code_cannot_make_a_view_of_a_tag(oracle):
    result = oracle.run(MAKE_VIEW, ["print(view())\nassert view().startswith('refused')"])
    assert result.passed, result.outcomes
    assert "ctypes.cdata is not allowed" in result.outcomes[0].output, result.outcomes
