"""What a test makes itself decides no verdict the candidate chose, and honest uses of
``typing``'s protocols and ``functools.singledispatch`` in a test are not errors (issue 20).

* A class the test defines and hands to the candidate (an instance of it) keeps the
  attributes the test gave it: a wrong function that rebinds a method or value of it
  through the instance (``type(obj).value = ...``, ``obj.__class__.want = ...``) before the
  test reads it must not pass; a test that changes its own classes itself still passes.
* A function the test compiles at run time (``eval("lambda: 0")``, ``exec("def f(): ...")``)
  would carry the test's globals (``__globals__``, read without an audit event in 3.11):
  a test that compiles one is an error saying so; ``eval`` / ``exec`` / ``compile`` of
  code that makes no function (``eval(repr(x))``, a comprehension) run as before. The
  same holds however the test reaches them (``e = eval``, ``builtins.eval``,
  ``getattr(builtins, "exec")``) and for ``types.FunctionType(code, globals())``.
* ``unittest.mock.patch.object`` on the test's own class and the test's own
  ``o.__class__ = B`` pass; the candidate's change of the same class or instance does not.
* ``isinstance(x, typing.SupportsInt)`` (or a ``runtime_checkable`` protocol of the
  test's) after ``import typing`` passes for honest objects: the protocol's check stores
  an empty ``__annotations__`` in each class of the protocol's ``__mro__``, which the
  importer's check of ``typing`` saw as the candidate's change.
* ``functools.singledispatch`` in a test: ``register`` reads the annotations of the
  test's function, which were the text of the runner's placeholders (the test was
  compiled under the rewrite module's own ``from __future__ import annotations``).

Each hostile case is a wrong function and must never be reported ``pass``; each honest case
must pass. All run through ``Oracle.run`` and once more in a ``run_many`` batch between
honest suites.
"""

from __future__ import annotations

import pytest

from execretrieval import Oracle

ADD = "def add(a, b):\n    return a + b\n"
HONEST = (ADD, ["assert add(1, 2) == 3", "assert add(2, 2) == 4"])
BOX = ("class Box:\n    want = 5\n    def __init__(self, v):\n        self.v = v\n"
       "    def value(self):\n        return self.v\n")

# (name, wrong code, tests): none may pass
ATTACKS = [
    # 1. a class the test defines, rebound through the instance the test hands over
    ("method_rebound_through_type_of_instance",
     "def double(b):\n    type(b).value = lambda self: 21\n    return 42\n",
     [BOX + "b = Box(3)\nassert double(b) == 2 * b.value()"]),
    ("value_rebound_through_dunder_class",
     "def guess(b):\n    b.__class__.want = 9\n    return 9\n",
     [BOX + "assert guess(Box(1)) == Box.want"]),
    ("value_rebound_and_put_back_next_call",
     "_saved = []\ndef guess(b):\n    if _saved:\n        type(b).want = _saved.pop()\n"
     "    else:\n        _saved.append(type(b).want)\n        type(b).want = 9\n    return 9\n",
     [BOX + "b = Box(1)\ngot = guess(b)\nwant = Box.want\nguess(b)\nassert got == want"]),
    ("attribute_added_through_instance",
     "def guess(b):\n    type(b).v = property(lambda self: 7)\n    return 7\n",
     [BOX + "b = Box(1)\nassert guess(b) == b.v"]),
    ("method_deleted_from_a_base",
     "def guess(b):\n    del type(b).__mro__[1].value\n    return 1\n",
     [BOX + "class Kid(Box):\n    def value(self):\n        return 'kid'\n"
      "k = Kid(1)\nassert guess(k) == 1\nassert k.value() == 'kid'\n"
      "assert Box(0).value() == 0"]),
    ("class_rebound_inside_the_test_function",
     "def double(b):\n    type(b).value = lambda self: 21\n    return 42\n",
     ["def check():\n" + "".join("    " + line + "\n" for line in BOX.splitlines())
      + "    b = Box(3)\n    assert double(b) == 2 * b.value()\ncheck()"]),
    # the class's own __init__ (its write to the instance) called by the candidate after
    # it put a property of that name on the class
    ("property_taken_in_by_the_tests_own_init",
     "def guess(b):\n    type(b).v = property(lambda s: 7, lambda s, x: None)\n"
     "    type(b)(0)\n    return 7\n",
     [BOX + "b = Box(1)\nassert guess(b) == b.v",
      "class E(Exception):\n    def __init__(self, v):\n        self.v = v\n"
      "e = E(1)\nassert guess(e) == e.v"]),
    # a classmethod of another class of the test's, called by the candidate, writes an
    # attribute of the same name: it takes in its own class's write only
    ("write_of_the_same_name_on_another_class",
     "def guess(b, reg):\n    type(b).want = 9\n    reg.put(9)\n    return 9\n",
     [BOX + "class Reg:\n    want = 0\n    @classmethod\n    def put(cls, v):\n"
      "        cls.want = v\nassert guess(Box(1), Reg) == Box.want"]),
    ("instance_given_another_class",
     "def double(b):\n    class Evil(type(b)):\n        def value(self):\n"
     "            return 21\n    b.__class__ = Evil\n    return 42\n",
     [BOX + "b = Box(3)\nassert double(b) == 2 * b.value()"]),
    ("class_changed_by_the_candidates_generator",
     "def items(b):\n    def gen():\n        type(b).want = 9\n        yield 9\n    return gen()\n",
     [BOX + "b = Box(1)\nfor x in items(b):\n    assert x == Box.want"]),
    ("class_changed_by_the_candidates_thread",
     "import threading, time\ndef double(b):\n    def later():\n        time.sleep(0.01)\n"
     "        type(b).value = lambda self: 21\n    threading.Thread(target=later).start()\n"
     "    return 42\n",
     [BOX + "import time\nb = Box(3)\ngot = double(b)\ntime.sleep(0.05)\n"
      "assert got == 2 * b.value()"]),
    # 2. a function the test compiles at run time, handed over: its __globals__ are the test's
    ("eval_lambda_rebinds_test_globals",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["want = 5\nf = eval('lambda: 0')\nassert apply(f) == want"]),
    ("exec_def_rebinds_test_globals",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["want = 5\nexec('def g():\\n    return 0')\nassert apply(g) == want"]),
    ("compiled_code_exec_rebinds_test_globals",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["want = 5\ncode = compile('h = lambda: 0', '<t>', 'exec')\nexec(code)\n"
      "assert apply(h) == want"]),
    ("eval_function_code_replaced",
     "def apply(f):\n    f.__code__ = (lambda: 42).__code__\n    return 42\n",
     ["f = eval('lambda: 5')\nassert apply(f) == f()"]),
    # ... eval / exec reached other than by a call by name (issue 20, forge13)
    ("eval_through_an_alias",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["want = 5\ne = eval\nf = e('lambda: 0')\nassert apply(f) == want",
      "want = 5\nrun = exec\nrun('def g():\\n    return 0')\nassert apply(g) == want"]),
    ("eval_through_builtins_module",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["import builtins\nwant = 5\nf = builtins.eval('lambda: 0')\nassert apply(f) == want",
      "import builtins as b\nwant = 5\nb.exec('h = lambda: 0')\nassert apply(h) == want"]),
    ("exec_through_getattr_of_builtins",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["import builtins\nwant = 5\ngetattr(builtins, 'exec')('def g():\\n    return 0')\n"
      "assert apply(g) == want",
      "want = 5\nf = next(map(eval, ['lambda: 0']))\nassert apply(f) == want"]),
    ("function_made_with_types_function_type",
     "def apply(f):\n    f.__globals__['want'] = 42\n    return 42\n",
     ["import types\nwant = 5\ncode = compile('lambda: 0', '<t>', 'eval').co_consts[0]\n"
      "f = types.FunctionType(code, globals())\nassert apply(f) == want",
      "from types import FunctionType as F\nwant = 5\n"
      "code = compile('def g(): return 0', '<t>', 'exec').co_consts[0]\n"
      "assert apply(F(code, globals())) == want"]),
    # ... a class the test patches with unittest.mock: the candidate's change of the same
    # class (another attribute, or the patched one to a value of its own) is still refused
    ("candidate_change_while_the_test_patches",
     "def double(b):\n    type(b).value = lambda self: 21\n    return 42\n"
     "def guess(b):\n    type(b).want = 9\n    return 9\n",
     [BOX + "from unittest import mock\nb = Box(3)\n"
      "with mock.patch.object(Box, 'want', 7):\n    assert double(b) == 2 * b.value()",
      BOX + "from unittest.mock import patch\nb = Box(3)\n"
      "with patch.object(Box, 'want', 7):\n    assert guess(b) == Box.want",
      BOX + "from unittest.mock import patch\nb = Box(3)\np = patch.object(Box, 'want', 7)\n"
      "p.start()\ng = guess(b)\np.stop()\nassert g == Box.want",
      BOX + "import unittest.mock\nb = Box(3)\n"
      "with unittest.mock.patch.object(Box, 'want'):\n    assert guess(b) == Box.want"]),
    # ... the patched attribute put back (by the candidate) while the patch is on, or the
    # patched value put in again after it is off
    # ... a mock of its own put in for the one the patcher made, or patch.object replaced
    # by the candidate so that the patcher puts in what the candidate chose
    ("candidate_replaces_the_patchers_mock",
     "from unittest import mock\ndef guess(b):\n    m = mock.MagicMock()\n"
     "    m.return_value = 9\n    type(b).value = m\n    return 9\n",
     [BOX + "from unittest.mock import patch\nb = Box(3)\n"
      "with patch.object(Box, 'value') as m:\n    m.return_value = 4\n"
      "    assert guess(b) == b.value()",
      BOX + "from unittest.mock import patch\nb = Box(3)\n"
      "@patch.object(Box, 'value')\ndef check(m):\n    assert guess(b) == b.value()\ncheck()"]),
    ("candidate_replaces_patch_object",
     "from unittest import mock\n_real = mock.patch.object\n"
     "def _fake(target, name, new=None, *a, **k):\n    return _real(target, name, 9)\n"
     "mock.patch.object = _fake\ndef guess(b):\n    return 9\n",
     [BOX + "from unittest.mock import patch\n"
      "with patch.object(Box, 'want', 7):\n    assert guess(Box(1)) == Box.want"]),
    ("candidate_undoes_the_tests_patch",
     "def guess(b):\n    type(b).want = 5\n    return 5\n"
     "def again(b):\n    type(b).want = 7\n    return 7\n",
     [BOX + "from unittest.mock import patch\nb = Box(3)\n"
      "with patch.object(Box, 'want', 7):\n    assert guess(b) == Box.want",
      BOX + "from unittest.mock import patch\nb = Box(3)\nwith patch.object(Box, 'want', 7):\n"
      "    pass\nassert again(b) == Box.want"]),
    # ... the test gives its instance another class itself: the candidate still may not
    ("candidate_swaps_after_the_tests_own_swap",
     "def double(b):\n    class Evil(type(b)):\n        def value(self):\n"
     "            return 21\n    b.__class__ = Evil\n    return 42\n",
     [BOX + "class Two(Box):\n    pass\nb = Box(3)\nb.__class__ = Two\n"
      "assert double(b) == 2 * b.value()"]),
    # 3. typing's protocol check: the candidate's change to typing still decides nothing
    ("protocol_check_patched",
     "import typing\ntyping._ProtocolMeta.__instancecheck__ = lambda cls, obj: True\n"
     "def add(a, b):\n    return str(a + b)\n",
     ["import typing\nassert isinstance(add(1, 2), typing.SupportsInt)"]),
    ("protocol_result_claims_int",
     "class _Liar:\n    @property\n    def __class__(self):\n        return int\n"
     "def add(a, b):\n    return _Liar()\n",
     ["import typing\nassert isinstance(add(1, 2), typing.SupportsInt)"]),
    # 4. singledispatch: a wrong function is still wrong, a patched module an error
    ("singledispatch_wrong_type",
     "def add(a, b):\n    return str(a + b)\n",
     ["import functools\n@functools.singledispatch\ndef kind(x):\n    return 'other'\n"
      "@kind.register\ndef _(x: int):\n    return 'int'\nassert kind(add(1, 2)) == 'int'"]),
    ("singledispatch_patched",
     "import functools\n_real = functools.singledispatch\n"
     "def _fake(f):\n    g = _real(f)\n    g.dispatch = lambda cls: (lambda x: 'int')\n"
     "    return g\nfunctools.singledispatch = _fake\n"
     "def add(a, b):\n    return str(a + b)\n",
     ["import functools\n@functools.singledispatch\ndef kind(x):\n    return 'other'\n"
      "@kind.register\ndef _(x: int):\n    return 'int'\nassert kind(add(1, 2)) == 'int'"]),
]

# (name, right code, tests): all must pass
HONEST_CASES = [
    # 1. the test changes its own classes itself; the candidate reads them
    ("test_changes_its_own_class", ADD,
     [BOX + "Box.want = 6\nassert add(Box.want, 1) == 7\nb = Box(2)\n"
      "Box.value = lambda self: 10 * self.v\nassert add(b.value(), 0) == 20",
      "class Counter:\n    n = 0\n    def bump(self):\n        type(self).n += 1\n"
      "        return self.n\nc = Counter()\nassert add(c.bump(), c.bump()) == 3\n"
      "setattr(Counter, 'n', 0)\nassert add(Counter.n, 0) == 0\ndel Counter.bump\n"
      "assert not hasattr(c, 'bump')"]),
    ("candidate_reads_the_tests_class",
     "def double(b):\n    return 2 * type(b).value(b) + type(b).want - b.__class__.want\n"
     "def name(b):\n    return type(b).__name__\n",
     [BOX + "b = Box(3)\nassert double(b) == 2 * b.value()\nassert name(b) == 'Box'",
      "from dataclasses import dataclass\nimport enum\n@dataclass\nclass P:\n    x: int\n"
      "    y: int = 0\nclass Color(enum.Enum):\n    RED = 1\n"
      "assert double.__name__ == 'double' and P(1) == P(1, 0) and Color(1) is Color.RED",
      "class Base:\n    kinds = []\n    def __init_subclass__(cls, **kw):\n"
      "        super().__init_subclass__(**kw)\n        Base.kinds.append(cls.__name__)\n"
      "class Kid(Base):\n    pass\nassert Base.kinds == ['Kid'] and name(Kid()) == 'Kid'",
      "for k in range(3):\n    class K:\n        want = k\n    assert name(K()) == 'K'\n"
      "    assert K.want == k"]),
    # ... and the standard library's machinery that stores into a class lazily or at
    # creation (copy's __slotnames__, dataclasses, total_ordering, ABCs, enums, slots,
    # metaclasses, NamedTuple), a classmethod writing its class
    ("classes_the_standard_library_handles", ADD,
     ["import copy\nclass Box:\n    def __init__(self, v):\n        self.v = v\n"
      "b = copy.deepcopy(Box(3))\nassert add(b.v, 0) == 3 and add(copy.copy(b).v, 1) == 4",
      "from dataclasses import dataclass, field\nimport functools\n"
      "@dataclass(order=True, frozen=True)\nclass P:\n    x: int\n"
      "    y: list = field(default_factory=list, compare=False)\n@functools.total_ordering\n"
      "class V:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n"
      "        return self.v == o.v\n    def __lt__(self, o):\n        return self.v < o.v\n"
      "assert sorted([P(add(2, 0)), P(1)])[0] == P(1) and V(1) <= V(add(1, 1))",
      "import abc, enum\nclass A(abc.ABC):\n    @abc.abstractmethod\n    def f(self): ...\n"
      "class B:\n    def f(self):\n        return 1\nA.register(B)\n"
      "assert isinstance(B(), A) and issubclass(B, A)\nclass C(enum.Enum):\n    R = 1\n"
      "    G = 2\nassert [c.name for c in C] == ['R', 'G'] and C(add(1, 1)) is C.G",
      "class S:\n    __slots__ = ('a',)\n    def __init__(self):\n        self.a = add(1, 1)\n"
      "class M(type):\n    pass\nclass K(metaclass=M):\n    z = 1\n"
      "assert S().a == 2 and K.z == 1\nclass L(list):\n    pass\nl = L([1])\n"
      "l.append(add(1, 1))\nassert l == [1, 2]",
      "import typing\nclass NT(typing.NamedTuple):\n    a: int\n    b: int = 0\n"
      "assert NT(add(1, 0)) == (1, 0) and NT._fields == ('a', 'b')",
      "class Reg:\n    items = {}\n    @classmethod\n    def put(cls, k, v):\n"
      "        cls.items[k] = v\n        cls.last = k\nReg.put('a', add(1, 1))\n"
      "assert Reg.items == {'a': 2} and Reg.last == 'a'",
      "class C:\n    pass\ndef fill(o, names):\n    for k in names:\n"
      "        setattr(o, k, add(len(k), 0))\nfill(C, ['a', 'bb'])\n"
      "assert (C.a, C.bb) == (1, 2)\nC.__class__.__name__\nclass D:\n    x = 1\n"
      "D.x, D.y = add(1, 1), 3\nassert (D.x, D.y) == (2, 3)"]),
    # 2. eval / exec / compile that make no function
    ("eval_of_plain_expressions", "def to_repr(x):\n    return repr(x)\n",
     ["assert eval(to_repr([1, 'a', (2.5, None)])) == [1, 'a', (2.5, None)]",
      "assert eval('2 + 3') == 5 and eval('x * 2', {'x': 4}) == 8",
      "exec('y = 7')\nassert y == 7",
      "code = compile('z = [i * i for i in range(4)]', '<t>', 'exec')\nexec(code)\n"
      "assert z == [0, 1, 4, 9] == eval('[i * i for i in range(4)]')",
      "ns = {}\nexec('w = {k: 1 for k in \"ab\"}', ns)\nassert ns['w'] == {'a': 1, 'b': 1}",
      "assert eval(compile('1 + 1', '<t>', 'eval')) == 2"]),
    # ... eval / exec through an alias or builtins, of code that makes no function, with
    # the globals given (without them, an alias cannot see the test's names: an error)
    ("eval_through_an_alias_of_plain_code", ADD,
     ["e = eval\nassert e('add(2, 3)') == 5 and e('x * 2', {'x': add(2, 2)}) == 8",
      "import builtins\nassert builtins.eval('1 + 1') == add(1, 1)\n"
      "builtins.exec('y = add(3, 4)')\nassert y == 7",
      "import builtins\nns = {}\ngetattr(builtins, 'exec')('w = [i for i in range(3)]', ns)\n"
      "assert ns['w'] == [0, 1, 2] and list(map(eval, ['1', '2'])) == [1, 2]",
      "import types\ndef f():\n    return add(1, 2)\nassert isinstance(f, types.FunctionType)"
      " or f() == 3"]),
    # ... unittest.mock.patch.object on the test's own class
    ("mock_patch_object_on_the_tests_class", ADD,
     [BOX + "from unittest import mock\nwith mock.patch.object(Box, 'want', 7):\n"
      "    assert add(Box.want, 1) == 8\nassert add(Box.want, 0) == 5",
      BOX + "from unittest.mock import patch\n@patch.object(Box, 'value', lambda self: 10)\n"
      "def check():\n    assert add(Box(1).value(), 1) == 11\ncheck()\n"
      "assert add(Box(2).value(), 0) == 2",
      BOX + "from unittest.mock import patch\np = patch.object(Box, 'want', 1)\np.start()\n"
      "assert add(Box.want, 1) == 2\np.stop()\nassert add(Box.want, 0) == 5",
      BOX + "import unittest.mock\nwith unittest.mock.patch.object(Box, 'value') as m:\n"
      "    m.return_value = 4\n    assert add(Box(1).value(), 1) == 5\n"
      "assert add(Box(2).value(), 1) == 3",
      BOX + "class Kid(Box):\n    pass\nfrom unittest import mock\n"
      "with mock.patch.object(Kid, 'want', 0, create=True):\n    assert add(Kid.want, 1) == 1\n"
      "assert add(Kid.want, 0) == 5 and 'want' not in Kid.__dict__",
      BOX + "from unittest import mock\np = mock.patch.object(Box, 'want', 1)\nBox.want = 6\n"
      "with p:\n    assert add(Box.want, 0) == 1\n    with mock.patch.object(Box, 'want', 2):\n"
      "        assert add(Box.want, 0) == 2\n    assert add(Box.want, 0) == 1\n"
      "assert add(Box.want, 0) == 6",
      BOX + "from unittest import mock\nwith mock.patch.object(Box, 'want', 1):\n"
      "    assert add(Box.want, 0) == 1\nBox.want = 8\nassert add(Box.want, 0) == 8"]),
    # ... a test giving an instance of its own class another class itself
    ("test_swaps_its_own_instances_class", ADD,
     [BOX + "class Two(Box):\n    def value(self):\n        return 2 * self.v\n"
      "b = Box(3)\nb.__class__ = Two\nassert add(b.value(), 0) == 6\n"
      "b.__class__ = Box\nassert add(b.value(), 1) == 4 and type(b) is Box",
      "class A:\n    pass\nclass B(A):\n    def f(self):\n        return add(1, 1)\n"
      "def make():\n    o = A()\n    o.__class__ = B\n    return o\nassert make().f() == 2"]),
    # 3. typing's protocols, imported by the test
    ("typing_protocols", ADD,
     ["import typing\nassert isinstance(add(1, 2), typing.SupportsInt)\n"
      "assert not isinstance(str(add(1, 2)), typing.SupportsInt)",
      "from typing import SupportsInt, SupportsFloat, Iterable\n"
      "assert isinstance(add(1, 2), SupportsInt) and isinstance(add(1.5, 2), SupportsFloat)\n"
      "assert isinstance([add(1, 1)], Iterable)",
      "import typing\n@typing.runtime_checkable\nclass Named(typing.Protocol):\n"
      "    name: str\n    def size(self) -> int: ...\nclass Thing:\n    name = 'x'\n"
      "    def size(self):\n        return add(1, 2)\n"
      "assert isinstance(Thing(), Named) and not isinstance(3, Named)\n"
      "assert Thing().size() == 3",
      "import typing\nassert isinstance(add(1, 2), typing.SupportsInt)\n"
      "assert isinstance(add(2, 2), typing.SupportsInt)"]),
    # 4. functools.singledispatch in a test
    ("singledispatch", ADD,
     ["import functools\n@functools.singledispatch\ndef kind(x):\n    return 'other'\n"
      "@kind.register\ndef _(x: int):\n    return 'int'\n@kind.register(str)\n"
      "def _(x):\n    return 'str'\nassert kind(add(1, 2)) == 'int'\n"
      "assert kind(add('a', 'b')) == 'str' and kind(add(1.0, 2)) == 'other'",
      "from functools import singledispatch\nclass Mine:\n    pass\n@singledispatch\n"
      "def kind(x):\n    return 'other'\n@kind.register\ndef _(x: Mine):\n    return 'mine'\n"
      "assert kind(Mine()) == 'mine' and kind(add(1, 2)) == 'other'",
      "def f(x: int, *, y: 'str' = '') -> list:\n    return [x, y]\n"
      "assert f.__annotations__ == {'x': int, 'y': 'str', 'return': list}\n"
      "assert f(add(1, 2)) == [3, '']",
      "from __future__ import annotations\ndef f(x: int) -> list:\n    return [x]\n"
      "assert f.__annotations__ == {'x': 'int', 'return': 'list'} and f(add(1, 1)) == [2]"]),
]
NAMES = [a[0] for a in ATTACKS]


@pytest.fixture(scope="module")
def oracle():
    with Oracle(timeout=5.0, cache=None, workers=2) as o:
        yield o


@pytest.mark.parametrize("name", NAMES)
def test_what_the_test_makes_decides_no_verdict_the_candidate_chose(oracle, name):
    _, code, tests = next(a for a in ATTACKS if a[0] == name)
    result = oracle.run(code, tests)
    assert "pass" not in result.statuses, (name, result.outcomes)


@pytest.mark.parametrize("name", [h[0] for h in HONEST_CASES])
def test_honest_tests_of_the_same_shapes_pass(oracle, name):
    _, code, tests = next(h for h in HONEST_CASES if h[0] == name)
    result = oracle.run(code, tests)
    assert result.passed, (name, result.outcomes)


def test_every_case_in_one_batch_between_honest_suites(oracle):
    jobs: list = [HONEST]
    for _, code, tests in ATTACKS + HONEST_CASES:
        jobs += [(code, tests), HONEST]
    results = oracle.run_many(jobs)
    for k, (name, _, _) in enumerate(ATTACKS):
        assert "pass" not in results[1 + 2 * k].statuses, (name, results[1 + 2 * k].outcomes)
    start = 1 + 2 * len(ATTACKS)
    for k, (name, _, _) in enumerate(HONEST_CASES):
        assert results[start + 2 * k].passed, (name, results[start + 2 * k].outcomes)
    for k in range(0, len(jobs), 2):
        assert results[k].passed, ("an honest suite was disturbed", k, results[k].outcomes)


def test_a_wrong_answer_in_a_test_with_classes_still_fails_with_its_explanation(oracle):
    result = oracle.run(ADD.replace("a + b", "a - b"), [BOX + "assert add(Box(2).v, 1) == 3"])
    assert result.statuses == ("fail",), result.outcomes
    assert result.outcomes[0].detail == "returned 1, expected 3", result.outcomes


def test_the_errors_say_why(oracle):
    """A compiled function and a class changed by the candidate are errors that say so."""
    for name in ("eval_lambda_rebinds_test_globals", "method_rebound_through_type_of_instance"):
        _, code, tests = next(a for a in ATTACKS if a[0] == name)
        result = oracle.run(code, tests)
        assert result.statuses == ("error",), (name, result.outcomes)
    detail = oracle.run(*next(a for a in ATTACKS if a[0] == "eval_lambda_rebinds_test_globals"
                              )[1:]).outcomes[0].detail
    assert "compiles a function at run time" in detail, detail
    detail = oracle.run(*next(a for a in ATTACKS if a[0] == "value_rebound_through_dunder_class"
                              )[1:]).outcomes[0].detail
    assert "Box" in detail and "want" in detail, detail
    for name in ("eval_through_an_alias", "function_made_with_types_function_type"):
        result = oracle.run(*next(a for a in ATTACKS if a[0] == name)[1:])
        assert all("makes a function at run time" in o.detail for o in result.outcomes), (
            name, result.outcomes)
