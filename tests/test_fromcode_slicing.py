"""Slices: every candidate's canonical compiles and runs on its own, and keeps only its needs.

Each canonical is exec'd in a fresh namespace in a separate ``python -I`` (no site, no
current folder, no PYTHON* variables), and the function must then exist and be callable.
Behaviour is checked against the real module: a slice called with a doctest's arguments
gives what the module's own function gives.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from execretrieval.build.fromcode import discover_functions

PACKAGE = Path(__file__).parent / "data" / "fromcode_pkg" / "shapes"
STDLIB_MODULES = ("textwrap", "colorsys", "statistics", "fractions", "bisect", "heapq",
                  "calendar", "string", "html", "urllib.parse", "posixpath", "fnmatch",
                  "difflib", "base64", "ipaddress", "shlex", "keyword", "json", "email.utils",
                  "datetime")

_RUNNER = r"""
import json, sys
result = []
for name, source, calls in json.load(sys.stdin):
    namespace = {}
    try:
        exec(compile(source, "<canonical " + name + ">", "exec"), namespace)
        ok = callable(namespace[name])
        values = [repr(eval(call, namespace)) for call in calls]
    except BaseException as exc:
        result.append([name, "error", repr(exc)])
        continue
    result.append([name, ok, values])
print(json.dumps(result))
"""


def run_alone(items):
    """[(name, canonical, calls)] -> [(name, callable?, reprs of the calls' values)]."""
    done = subprocess.run([sys.executable, "-I", "-c", _RUNNER], input=json.dumps(items),
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("include", [False, True], ids=["public", "private-and-methods"])
def test_every_stdlib_slice_runs_alone(include):
    discovery = discover_functions(list(STDLIB_MODULES), include_private=include,
                                   include_methods=include, tests=[])
    candidates = [f for f in discovery.functions if f.skip_reason is None]
    assert len(candidates) >= (140 if include else 80)
    assert not [f for f in discovery.functions if f.skip_reason == "slice does not compile"]
    results = run_alone([(f.name, f.canonical, []) for f in candidates])
    assert [r for r in results if r[1] is not True] == []
    assert len(results) == len(candidates)


def _outcome(call, namespace):
    try:
        return repr(eval(call, namespace))
    except Exception as exc:  # noqa: BLE001 - the slice must raise the same
        return f"raises {type(exc).__name__}"


_COMPARE = r"""
import json, sys
def outcome(call, namespace):
    try:
        return repr(eval(call, namespace))
    except Exception as exc:
        return f"raises {type(exc).__name__}"
result = []
for name, source, calls in json.load(sys.stdin):
    namespace = {}
    exec(compile(source, "<canonical " + name + ">", "exec"), namespace)
    result.append([outcome(call, namespace) for call in calls])
print(json.dumps(result))
"""


@pytest.mark.filterwarnings("ignore:Passing None:DeprecationWarning")  # shlex.split(None)
def test_slices_behave_like_the_module_on_every_known_call():
    """Every doctest and test call of every candidate (private ones too) gives the same
    value, or raises the same exception type, from the slice run alone as from the module.

    Calls whose value is not reproducible in-process (the clock), shows an address or
    comes from I/O (an OSError) are left out; the slice runs in the same folder, so
    abspath('a') agrees.
    """
    import importlib

    discovery = discover_functions(list(STDLIB_MODULES), include_private=True)
    items, expected = [], []
    for f in discovery.functions:
        if f.skip_reason is not None or not f.examples:
            continue
        own = {f.name: getattr(importlib.import_module(f.module), f.name)}
        calls, values = [], []
        for example in f.examples:
            first, second = _outcome(example.call, own), _outcome(example.call, own)
            # shlex.split(None) reads stdin: an OSError under pytest, not a slicing question
            if first == second and " at 0x" not in first and first != "raises OSError":
                calls.append(example.call)
                values.append(first)
        if calls:
            items.append((f.name, f.canonical, calls))
            expected.append(values)
    assert sum(map(len, expected)) >= 250
    done = subprocess.run([sys.executable, "-I", "-c", _COMPARE], input=json.dumps(items),
                          capture_output=True, text=True, timeout=300, check=True)
    got = json.loads(done.stdout.strip().splitlines()[-1])  # calendar.format prints
    differ = [(name, call, want, have) for (name, _, calls), wants, haves
              in zip(items, expected, got, strict=True)
              for call, want, have in zip(calls, wants, haves, strict=True) if want != have]
    assert differ == []


def test_package_slices_run_alone_and_agree_with_the_package():
    discovery = discover_functions([PACKAGE], include_methods=True, include_private=True)
    candidates = {f.name: f for f in discovery.functions if f.skip_reason is None}
    calls = {"to_metres": ["to_metres(250)", "to_metres(1, 'km')"],
             "box_volume": ["box_volume(1000, 500, 2000)"], "parse": ["parse('12 mm')"],
             "scale_all": ["scale_all([1, 2])"], "span": ["span(5, 2)"],
             "packed": ["packed('aaaa')"], "outer": ["outer(4)"],
             "rounded_down": ["rounded_down(2.7)"], "_private_helper": ["_private_helper(2)"]}
    results = run_alone([(n, f.canonical, calls.get(n, [])) for n, f in candidates.items()])
    sys.path.insert(0, str(PACKAGE.parent))
    try:  # geometry does not import (its `from ..outside import` is the point of it)
        from shapes import starry, units
        here = {"parse": units.Ruler.parse, "scale_all": units.Ruler.scale_all,
                "rounded_down": starry.rounded_down,
                "box_volume": lambda w, h, d: (w / 1000) * (h / 1000) * (d / 1000)}
        want = [[n, True, [repr(eval(c, {n: here.get(n) or getattr(units, n)}))
                           for c in calls.get(n, [])]] for n in candidates]
    finally:
        sys.path.remove(str(PACKAGE.parent))
        for name in [m for m in sys.modules if m == "shapes" or m.startswith("shapes.")]:
            del sys.modules[name]
    assert results == want


def canonical(name, **options):
    found = [f for f in discover_functions([PACKAGE], **options).functions if f.name == name]
    return found[0].canonical


def test_imports_are_cut_to_the_names_used():
    span = canonical("span")
    assert "from collections import namedtuple\n" in span
    assert "OrderedDict" not in span and "import math" not in span
    assert "import os.path\n" in canonical("joined")
    area = canonical("circle_area")
    assert area.startswith("import math\n\ndef circle_area(")
    assert "FACTORS" not in area and "zlib" not in area


def test_constant_chain_fills_and_source_order():
    text = canonical("to_metres")
    order = ["CM = 100", "MM = CM * 10", 'FACTORS = {"cm": CM, "mm": MM}',
             'FACTORS["km"] = 0.001', "def to_metres("]
    positions = [text.index(line) for line in order]
    assert positions == sorted(positions)
    assert "Pair" not in text and "_SEEN" not in text and "DECORATORS" not in text
    assert "__main__" not in text and "CM = 1\n" not in text


def test_try_import_fallback_is_kept_whole():
    text = canonical("packed")
    assert "try:\n    import zlib\nexcept ImportError:\n    zlib = None\n" in text


def test_relative_imports_are_inlined_with_their_aliases():
    text = canonical("box_volume")
    tree = ast.parse(text)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names = [n.name if hasattr(n, "name") else ast.unparse(n).split(" =")[0]
             for n in tree.body]
    assert names == ["CM", "MM", "FACTORS", "FACTORS['km']", "to_metres", "metres", "Box",
                     "box_volume"]


def test_static_methods_become_module_level_functions():
    parse = canonical("parse", include_methods=True)
    assert "class Ruler" not in parse and "@staticmethod" not in parse
    assert parse.rstrip().endswith("return float(number) * CM / FACTORS[unit] * "
                                   "FACTORS[\"cm\"] / CM")
    assert "\ndef parse(text):\n" in parse
    scale = canonical("scale_all", include_methods=True)
    assert "class Ruler:" in scale  # it names Ruler.FACTOR, so the class comes along
    assert scale.index("CM = 100") < scale.index("class Ruler:") < scale.index(
        "\ndef scale_all(values):")


def test_accelerator_star_import_does_not_hide_python_definitions():
    heapq = {f.name: f for f in discover_functions(["heapq"], tests=[]).functions}
    text = heapq["nsmallest"].canonical
    assert "from _heapq import *" not in text
    assert "def _heapify_max(x):" in text
    assert "try:\n    from _heapq import _heapify_max\nexcept ImportError:\n    pass\n" in text


def test_names_an_accelerator_block_deletes_are_not_taken_from_it():
    """datetime ends with ``try: from _datetime import * ... else: del _DAYNAMES, ...``:
    the Python definitions are sliced, not the block that deletes them."""
    found = {f.name: f for f in discover_functions(["datetime"], include_private=True,
                                                   tests=[]).functions}
    text = found["_ymd2ord"].canonical
    assert "from _datetime import *" not in text and "del (" not in text
    assert "_DAYS_BEFORE_MONTH = [-1]" in text
    assert run_alone([("_ymd2ord", text, ["_ymd2ord(2024, 2, 29)"])]) == [
        ["_ymd2ord", True, [repr(__import__("datetime").date(2024, 2, 29).toordinal())]]]


def test_a_module_this_python_lacks_is_a_skip():
    found = {f.name: f for f in discover_functions(["asyncio.windows_utils"],
                                                   tests=[]).functions}
    assert found["pipe"].skip_reason == "imports a module this python lacks"


_STATE = '''
_table = None
_cache = None
_counter = 0
_last = None


def lazy(x):
    """A table built once on first use."""
    global _table
    if _table is None:
        _table = [c * 2 for c in range(10)]
    return _table[x]


def counts(x):
    """A counter every call moves on."""
    global _counter
    _counter += 1
    return x + _counter


def remembers(x):
    """The first argument ever given, built lazily from it."""
    global _last
    if _last is None:
        _last = x
    return _last


def overwrites(x):
    """Bound outside its guard too."""
    global _cache
    if _cache is None:
        _cache = {}
    _cache = {x: x}
    return _cache[x]
'''


def test_a_lazily_built_constant_is_not_module_state(tmp_path):
    """A ``global`` only set under ``if NAME is None:`` from no argument is a lazy
    constant (base64's ``_a85chars``, posixpath's ``_varprog``); a counter, a value built
    from an argument or a name bound outside the guard is still module state."""
    source = tmp_path / "state.py"
    source.write_text(_STATE)
    found = {f.name: f for f in discover_functions([str(source)], tests=[]).functions}
    assert found["lazy"].skip_reason is None
    for name in ("counts", "remembers", "overwrites"):
        assert found[name].skip_reason == "uses module state written at run time", name
    stdlib = {(f.module, f.name): f for f in discover_functions(
        ["base64", "posixpath", "urllib.parse"], tests=[]).functions}
    calls = {("base64", "a85encode"): ["a85encode(b'hello world')",
                                      "a85encode(b'    ', foldspaces=True)"],
             ("base64", "b85encode"): ["b85encode(b'\\x00\\xffabc', pad=True)"],
             ("posixpath", "expandvars"): ["expandvars('$NOPE_NOT_SET/x')",
                                           "expandvars(b'${ALSO_NOT}y')"],
             ("urllib.parse", "unquote"): ["unquote('a%20b%C3%A9')"]}
    for (module, name), cs in calls.items():
        f = stdlib[(module, name)]
        assert f.skip_reason is None, (module, name, f.skip_reason)
        real = __import__(module, fromlist=["_"])
        expected = [repr(eval(c, {name: getattr(real, name)})) for c in cs]
        assert run_alone([(name, f.canonical, cs)]) == [[name, True, expected]]


def test_a_dotted_import_keeps_only_the_submodules_the_slice_reaches():
    """http.cookiejar's ``import urllib.parse, urllib.request`` binds ``urllib`` for both;
    escape_path reaches urllib.parse only, and importing urllib.request too cost its suite
    most of the builder's 1 s mutant limit under load (a rebuild dropped its distractor)."""
    found = {f.name: f for f in discover_functions(["http.cookiejar"]).functions}
    code = found["escape_path"].canonical
    assert "import urllib.parse\n" in code and "urllib.request" not in code
    namespace: dict = {}
    exec(compile(code, "<slice>", "exec"), namespace)
    import http.cookiejar
    for path in ("/a b/%7e", "/ü/%2f?x=1", ""):
        assert namespace["escape_path"](path) == http.cookiejar.escape_path(path)
    # a slice that reaches two submodules keeps both, and a bare use of the package keeps all
    from execretrieval.build.fromcode.slicing import _used_submodules
    aliases = ast.parse("import urllib.parse, urllib.request").body[0].names
    both = _used_submodules(aliases, ["", "x = urllib.parse.quote, urllib.request.urlopen\n"], 0)
    assert both == "import urllib.parse, urllib.request\n"
    bare = _used_submodules(aliases, ["", "x = urllib\ny = urllib.parse.quote\n"], 0)
    assert bare == "import urllib.parse, urllib.request\n"
    one = _used_submodules(aliases, ["", "y = urllib.parse.quote('a')\n"], 0)
    assert one == "import urllib.parse\n"
