"""Probes whose helper sits once in the suite's code (``with_probes``, ``shared=True``)
answer exactly as self-contained probes do, in the real sandbox.

The helper used to be part of every test, and each test is compiled on its own, so an
input set of 80 evaluations compiled the 4 kB helper 80 times (most of the input
engine's time in ``build-from-code``'s stdlib build). Moving it must change no answer:
the same code, values and calls give the same printed payload, including when the code
binds names the helper uses (``repr``, ``type``, ``len``...) at module level.
"""

from __future__ import annotations

import random

import pytest
from test_inputs import _random_plain

from execretrieval import MemoryCache, Oracle
from execretrieval.inputs.probes import collector, evaluator, with_probes

# module level names the helper also uses; the function returns the value it was given
CODE = '''
import collections, datetime, decimal, fractions
repr = lambda value: "shadowed"
def type(value):
    return "shadowed"
len = 3
str = bytes
class Odd:
    def __eq__(self, other):
        return True
def echo(value, *rest):
    if rest:
        raise rest[0]
    return value
'''

CALLS = ["echo(1)", "echo(-0.0)", "echo(float('inf'))", "echo(float('nan'))",
         "echo([1, (2, 'a'), {3: b'x'}])", "echo({frozenset({1, 2}), 'z'})",
         "echo(datetime.date(2024, 2, 29))", "echo(fractions.Fraction(-1, 3))",
         "echo(decimal.Decimal('1.50'))", "echo(collections.deque([1], maxlen=2))",
         "echo(collections.Counter('aab'))", "echo('x' * 3000)", "echo([[[[[[[[[[[[[[[[[["
         "[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])", "echo(Odd())",
         "echo(1, ValueError('no'))", "echo(1, KeyError)", "echo(len)", "echo(repr)",
         "undefined_name(1)", "echo(list(range(500)))"]


@pytest.fixture(scope="module")
def oracle():
    # 80 self-contained evaluators compile the 4 kB helper 80 times: 5 s timed that suite
    # out on a loaded machine (load 8-11), and the comparison is of answers, not of speed
    with Oracle(cache=MemoryCache(), workers=2, timeout=60) as o:
        yield o


def test_shared_evaluators_answer_as_self_contained_ones(oracle: Oracle) -> None:
    rng = random.Random(7)
    calls = CALLS + [f"echo({_random_plain(rng)!r})" for _ in range(60)]
    alone, shared = oracle.run_many([
        (CODE, [evaluator(c, "import math") for c in calls]),
        (with_probes(CODE), [evaluator(c, "import math", shared=True) for c in calls])])
    assert [o.status for o in alone.outcomes] == [o.status for o in shared.outcomes]
    assert [o.output for o in alone.outcomes] == [o.output for o in shared.outcomes]
    outputs = [o.output for o in shared.outcomes]
    assert "R1" in outputs[0] and "?" in outputs[3]        # NaN is not plain data
    assert "EValueError" in outputs[CALLS.index("echo(1, ValueError('no'))")]
    assert "R[1, (2, 'a'), {3: b'x'}]" in outputs[4]      # not the module's own repr


def test_shared_collectors_see_the_same_calls(oracle: Oracle) -> None:
    tests = ["assert echo(3) == 3", "for i in range(3):\n    echo([i, 'a'])",
             "echo(datetime.date(2024, 1, 1)); echo(echo)", "assert echo(Odd()) == 1"]
    alone, shared = oracle.run_many([
        (CODE, [collector(t, "echo") for t in tests]),
        (with_probes(CODE), [collector(t, "echo", shared=True) for t in tests])])
    assert [o.output for o in alone.outcomes] == [o.output for o in shared.outcomes]
    assert "[1, 'a']" in shared.outcomes[1].output


def test_bytes_with_letters_that_swap_case_beyond_a_byte_still_mutate() -> None:
    """``b'\\xff'`` read as latin-1 is 'ÿ', whose upper case 'Ÿ' is no byte: mutating it
    raised UnicodeEncodeError and ended a whole build-from-code run (tarfile's inputs)."""
    from execretrieval.inputs.mutate import Pools, mutate_value

    for value in (b"\xff", b"a\xb5\xff", b"\xffz"):
        for seed in range(300):
            out = mutate_value(value, random.Random(seed), Pools())
            assert type(out) is bytes
