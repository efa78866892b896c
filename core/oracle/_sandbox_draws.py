"""Inside the sandbox: a test's own random stream (stdlib only).

Imported by the fork server through :mod:`_sandbox_runner`, never by the engine.
``random``'s module-level functions (``randint``, ``choice``, ``seed``...) are bound
methods of one hidden ``Random`` instance that the candidate's code shares: a candidate
that reseeds it, sets its state or draws from it (while it loads or inside the function
under test) would choose what a test that draws its inputs draws next. So a test's
``import random`` (and ``from random import choice``, and ``random.choice`` read straight
from the module) gets :func:`make_view`'s module instead: the same namespace, except that
those functions draw from a ``Random`` of the runner's that no candidate code can reach.
The judge reseeds it with the suite's seed when each test's code starts (``run`` of
``make_scope`` in ``_sandbox_channel.py``), as W seeds the shared one before the code
loads; a test whose candidate never draws draws what it drew from the shared stream.
The view's ``seed`` and ``setstate`` set the shared stream too, so a test that seeds
``random`` and then checks what a candidate's shuffle returns sees what it saw before.

The runner's ``Random`` is held only by the functions made here, as keyword defaults
(``__kwdefaults__``, whose reads are audited and refused by the guard, like ``__code__``),
and is only ever the receiver of a fixed method name: no argument a caller passes makes
a function hand it on. Their ``__globals__`` is a dict of their own holding builtins only.
"""

from __future__ import annotations

import builtins
import random
import types

__all__ = ["make_view"]

# seed and setstate set the shared stream as well; getstate reads the test's
_MIRRORED = frozenset({"seed", "setstate"})
_DRAW = "def {0}(*args, _r, **kwargs):\n    return _r.{0}(*args, **kwargs)\n"
_SET = ("def {0}(*args, _r, _also, **kwargs):\n    done = _r.{0}(*args, **kwargs)\n"
        "    _also(*args, **kwargs)\n    return done\n")


def make_view() -> tuple:
    """(the module a test's ``import random`` gets, the runner's ``Random`` it draws from,
    the functions made, which the guard must hide and protect). Once per server."""
    shared = random._inst  # type: ignore[attr-defined]
    rng = random.Random()
    space: dict = {"__builtins__": builtins}
    made = []
    view = types.ModuleType("random", random.__doc__)
    namespace = view.__dict__
    namespace.update(vars(random))
    for name, value in vars(random).items():
        if (type(value) is not types.MethodType or value.__self__ is not shared
                or name.startswith("_") or not name.isidentifier()):
            continue
        exec((_SET if name in _MIRRORED else _DRAW).format(name), space)
        function = space.pop(name)
        function.__kwdefaults__ = ({"_r": rng, "_also": value} if name in _MIRRORED
                                   else {"_r": rng})
        function.__module__, function.__doc__ = "random", value.__doc__
        function.__qualname__ = name
        namespace[name] = function
        made.append(function)
    return view, rng, tuple(made)
