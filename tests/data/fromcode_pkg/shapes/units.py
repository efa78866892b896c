"""Length units, and one function for every way a function can resist slicing."""

import math
import os.path
from collections import OrderedDict, namedtuple

try:
    import zlib
except ImportError:
    zlib = None

CM = 100
MM = CM * 10
FACTORS = {"cm": CM, "mm": MM}
FACTORS["km"] = 0.001
Pair = namedtuple("Pair", "low high")
_SEEN = []
_calls = 0
DECORATORS = {"plain": staticmethod}


def to_metres(value, unit="cm"):
    """Convert a length in the given unit to metres.

    >>> to_metres(250)
    2.5
    >>> to_metres(-3, unit="mm")
    -0.003
    >>> to_metres(value=1, unit="km")
    1000.0
    >>> x = 3
    >>> to_metres(x)
    0.03
    >>> units.to_metres(7)
    0.07
    """
    return value / FACTORS[unit]


def circle_area(radius: float, *, exact: bool = False) -> float:
    """Area of a circle of the given radius.

    :param radius: the radius, in metres
    :returns: the area, in square metres
    """
    return math.pi * radius ** 2 if exact else 3.14 * radius ** 2


def span(low, high):
    """Return the ordered pair of two lengths, the smaller first.

    Args:
        low: one length
        high: the other
    """
    return Pair(min(low, high), max(low, high))


def packed(text: str) -> bytes:
    """Compress a text with zlib when this Python has it."""
    data = text.encode("utf-8")
    return zlib.compress(data) if zlib else data


def joined(*parts):
    """Join path parts with the platform's separator."""
    return os.path.join(*parts)


class Ruler:
    """A ruler of a fixed length, in centimetres."""

    FACTOR = CM

    def __init__(self, length):
        self.length = length

    def describe(self):
        """Say how long the ruler is, in metres."""
        return f"{to_metres(self.length)} m"

    @staticmethod
    def parse(text):
        """Read a length written like '12 cm' as a number of centimetres."""
        number, unit = text.split()
        return float(number) * CM / FACTORS[unit] * FACTORS["cm"] / CM

    @staticmethod
    def scale_all(values):
        """Scale every value by the ruler's factor, in order."""
        return [v * Ruler.FACTOR for v in values]


def _private_helper(x):
    """A private helper that the tests ask for by name."""
    return x * MM


def no_doc(x):
    return x


def short(x):
    """Helper."""
    return x


def count_up(n):
    """Count from zero up to n, one by one."""
    yield from range(n)


async def fetch(x):
    """Fetch the thing from somewhere far away."""
    return x


def outer(x):
    """Add one, with a nested helper doing the work."""

    def inner(y):
        """Add one to the given number."""
        return y + 1

    return inner(x)


def bump():
    """Count how many times this function was called."""
    global _calls
    _calls += 1
    return _calls


def _remember(x):
    _SEEN.append(x)
    return len(_SEEN)


def remember_twice(x):
    """Remember a value twice and say how many are remembered."""
    _remember(x)
    return _remember(x)


def where_am_i():
    """Say which file this module was loaded from."""
    return __file__


def lookup(name):
    """Find a module-level value by its name."""
    return globals()[name]


def undefined_user(x):
    """Use a name that this module never defines."""
    return x + NOT_DEFINED


@DECORATORS["plain"]
def decorated(x):
    """Decorated through a subscript, which does not slice."""
    return x


try:
    from json import loads as _loads
except ImportError:
    def parse_json(text):
        """Read a JSON text (only defined when json is missing)."""
        return text


if __name__ == "__main__":
    CM = 1  # only when run as a script: a slice never takes it
    print(to_metres(250))
