"""discover_functions: which functions a source holds, their queries, examples and skips.

Real standard-library modules and a small real package (tests/data/fromcode_pkg/shapes, with
its own tests/ folder beside it) are the inputs; summaries are checked against the stdlib's
own docstrings, doctest examples against the docstrings' text.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from execretrieval.build.fromcode import discover_functions
from execretrieval.build.fromcode.discover import SKIP_REASONS
from execretrieval.build.fromcode.docstrings import summary
from execretrieval.errors import CancelledError, InputFormatError

PACKAGE = Path(__file__).parent / "data" / "fromcode_pkg" / "shapes"
STDLIB_MODULES = ("textwrap", "colorsys", "statistics", "fractions", "bisect", "heapq",
                  "calendar", "string", "html", "urllib.parse", "posixpath", "fnmatch",
                  "difflib", "base64", "ipaddress", "shlex", "keyword")


def by_name(discovery, module=None):
    return {f.name: f for f in discovery.functions if module is None or f.module == module}


@pytest.fixture(scope="module")
def shapes():
    return by_name(discover_functions([PACKAGE], include_methods=True))


# --- summaries -----------------------------------------------------------------------------

def test_summaries_of_real_stdlib_docstrings():
    import statistics
    import string
    import urllib.parse

    assert summary(textwrap.dedent.__doc__) == (
        "Remove any common leading whitespace from every line in `text`.")
    assert summary(statistics.median.__doc__) == "Return the median (middle value) of numeric data."
    # a signature line first: the prose paragraph after it is the summary
    assert summary(string.capwords.__doc__).startswith("Split the argument into words using split,")
    assert summary(urllib.parse.quote.__doc__).startswith("Each part of a URL, e.g. the path info,")
    # only a signature and an example: nothing a query could say
    assert summary(urllib.parse.unquote_to_bytes.__doc__) is None
    # one-word title paragraph ("Covariance"): not a usable query
    assert summary(statistics.covariance.__doc__) is None
    assert summary(None) is None and summary("   ") is None


def test_summary_drops_doctests_fields_and_sections():
    doc = """
        Return the sum of two numbers,
           ignoring overflow.
        >>> add(1, 2)
        3
        :param a: the first
            and more about it
        :returns: the sum
        """
    assert summary(doc) == "Return the sum of two numbers, ignoring overflow."
    google = "Join the parts together.\n\nArgs:\n    parts: the parts\n"
    assert summary("Args:\n    x: y\n") is None
    assert summary(google) == "Join the parts together."
    numpy = "Compute the mean value\nof an array.\n\nParameters\n----------\nx : array\n"
    assert summary(numpy) == "Compute the mean value of an array."
    assert summary("Parameters\n----------\nx : array\n") is None
    assert summary(">>> f(1)\n1\n\nSecond paragraph says what f does.") == (
        "Second paragraph says what f does.")
    assert summary("Helper.") is None


def test_package_summaries(shapes):
    assert shapes["to_metres"].query == "Convert a length in the given unit to metres."
    assert shapes["circle_area"].query == "Area of a circle of the given radius."
    assert shapes["span"].query == "Return the ordered pair of two lengths, the smaller first."
    assert shapes["no_doc"].query is None and shapes["no_doc"].skip_reason == "no docstring"
    assert shapes["short"].query is None and shapes["short"].skip_reason == "no usable docstring"


# --- discovery -------------------------------------------------------------------------------

def test_package_discovery_order_and_fields(shapes):
    discovery = discover_functions([PACKAGE], include_methods=True)
    keys = [(f.file, f.line) for f in discovery.functions]
    assert keys == sorted(keys)
    assert {f.file for f in discovery.functions} == {
        "shapes/broken.py", "shapes/geometry.py", "shapes/native.py", "shapes/starry.py",
        "shapes/units.py"}
    to_metres = shapes["to_metres"]
    assert (to_metres.module, to_metres.file, to_metres.line) == ("shapes.units",
                                                                  "shapes/units.py", 22)
    assert shapes["circle_area"].hints == {"radius": "float", "exact": "bool",
                                           "return": "float"}
    assert shapes["circle_area"].literals == ("2", "3.14")
    assert shapes["to_metres"].literals == ()
    (source,) = discovery.sources
    assert (source.kind, source.root) == ("folder", str(PACKAGE.parent))
    assert (source.distribution, source.version, source.license) == (None, None, None)


def test_every_skip_reason_but_one_is_reached_by_the_package():
    reasons = {f.skip_reason for f in discover_functions([PACKAGE]).functions}
    # "slice does not compile" is the bug detector: never reached, here or in the stdlib
    assert reasons - {None} == set(SKIP_REASONS) - {"slice does not compile"}


def test_package_skip_reasons(shapes):
    expected = {
        "fine_before": "syntax error in module", "oops": "syntax error in module",
        "describe": "method", "volume": "method", "__init__": "method",
        "_private_helper": "private name", "_remember": "private name",
        "count_up": "generator", "fetch": "async function", "inner": "nested function",
        "parse_json": "conditional definition", "bump": "uses module state written at run time",
        "remember_twice": "uses module state written at run time",
        "where_am_i": "uses module attributes", "lookup": "dynamic name lookup",
        "undefined_user": "reads a name defined nowhere", "decorated": "complex decorator",
        "hypotenuse": "star import", "far": "relative import outside the package",
        "via_module": "relative import of a module", "clashing": "name clash across modules",
        "native_area": "imports a module this python lacks",
    }
    assert {name: shapes[name].skip_reason for name in expected} == expected
    candidates = {n for n, f in shapes.items() if f.skip_reason is None}
    assert candidates == {"to_metres", "circle_area", "span", "packed", "joined", "parse",
                          "scale_all", "outer", "box_volume", "rounded_down"}
    assert all(shapes[n].canonical for n in candidates)
    assert all(f.canonical is None for f in shapes.values() if f.skip_reason)


def test_private_and_methods_only_when_asked():
    plain = by_name(discover_functions([PACKAGE]))
    assert plain["parse"].skip_reason == "method"
    assert plain["_private_helper"].skip_reason == "private name"
    private = by_name(discover_functions([PACKAGE], include_private=True))
    assert private["_private_helper"].skip_reason is None
    assert "MM = CM * 10" in private["_private_helper"].canonical
    assert private["__init__"].skip_reason == "method"  # an instance method never slices


def test_examples_from_doctests_then_tests(shapes):
    examples = shapes["to_metres"].examples
    assert [(e.call, e.origin, e.where, e.expected) for e in examples] == [
        ("to_metres(250)", "doctest", "shapes/units.py:25", "2.5"),
        ("to_metres(-3, unit='mm')", "doctest", "shapes/units.py:27", "-0.003"),
        ("to_metres(value=1, unit='km')", "doctest", "shapes/units.py:29", "1000.0"),
        # `to_metres(x)` reads a variable: not an example; `units.to_metres(7)` is rewritten
        ("to_metres(7)", "doctest", "shapes/units.py:34", "0.07"),
        # the tests' to_metres(250) is a duplicate of the doctest's and is dropped
        ("to_metres(5, 'mm')", "tests", "tests/check_shapes.py:13", None),
        ("to_metres(-2.5, unit='km')", "tests", "tests/check_shapes.py:14", None),
    ]
    lines = (PACKAGE / "units.py").read_text().splitlines()
    assert lines[24].strip() == ">>> to_metres(250)"
    assert [e.call for e in shapes["circle_area"].examples] == [
        "circle_area(-1.5)", "circle_area(2, exact=True)"]
    # a call through a module object of the package, args unpacked from a list is not literal
    assert [e.call for e in shapes["box_volume"].examples] == ["box_volume(1000, 1000, 1000)"]


def test_examples_from_the_stdlib_tests_and_without_them():
    shorten = by_name(discover_functions(["textwrap"]))["shorten"].examples
    assert [(e.call, e.origin, e.where, e.expected) for e in shorten] == [
        ("shorten('Hello  world!', width=12)", "doctest", "textwrap.py:405", "'Hello world!'"),
        ("shorten('Hello  world!', width=11)", "doctest", "textwrap.py:407", "'Hello [...]'")]
    calendar = by_name(discover_functions(["calendar"]))
    isleap = calendar["isleap"].examples
    assert isleap and all(e.origin == "tests" and e.expected is None for e in isleap)
    assert isleap[0].call == "isleap(2000)"
    where = [(e.where.split(":")[0], int(e.where.split(":")[1])) for e in isleap]
    assert where == sorted(where) and where[0][0] == "test/test_calendar.py"
    import calendar as reference
    source = Path(reference.__file__).parent / where[0][0]
    assert "isleap(2000)" in source.read_text().splitlines()[where[0][1] - 1]
    without = by_name(discover_functions(["calendar"], tests=[]))
    assert without["isleap"].examples == ()
    assert all(e.origin == "doctest" for f in without.values() for e in f.examples)


def test_stdlib_source_info_and_file_paths():
    discovery = discover_functions(["urllib.parse", "posixpath"], tests=[])
    assert [(s.label, s.kind, s.license) for s in discovery.sources] == [
        ("urllib.parse", "stdlib", "PSF-2.0"), ("posixpath", "stdlib", "PSF-2.0")]
    import platform
    assert discovery.sources[0].version == platform.python_version()
    funcs = by_name(discovery)
    assert (funcs["urlsplit"].module, funcs["urlsplit"].file) == ("urllib.parse",
                                                                  "urllib/parse.py")
    # posixpath is frozen in 3.11 (no origin file): found in the stdlib folder all the same
    assert funcs["normcase"].file == "posixpath.py"
    modules = [f.module for f in discovery.functions]
    assert modules == sorted(modules, key=["urllib.parse", "posixpath"].index)


def test_same_sources_same_discovery():
    first = discover_functions(["textwrap", PACKAGE, "html"])
    second = discover_functions(["textwrap", PACKAGE, "html"])
    assert first == second
    assert repr(first).encode() == repr(second).encode()


def test_progress_and_cancel():
    seen = []
    discover_functions([PACKAGE], progress=lambda done, total: seen.append((done, total)))
    # six files: __init__, broken, geometry, native, starry, units (tests/ is not a source)
    assert seen[0] == (0, 6) and seen[-1] == (6, 6)
    assert [d for d, _ in seen] == list(range(7))
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(CancelledError):
        discover_functions([PACKAGE], should_stop=stop)


def test_missing_sources_are_clear_errors(tmp_path):
    with pytest.raises(InputFormatError, match="no_such_module_xyz"):
        discover_functions(["no_such_module_xyz"])
    with pytest.raises(InputFormatError, match="not a Python source"):
        (tmp_path / "notes.txt").write_text("hello")
        discover_functions([tmp_path / "notes.txt"])
    with pytest.raises(InputFormatError, match="no source"):
        discover_functions([])
    with pytest.raises(InputFormatError, match="no Python source"):
        discover_functions(["math"])  # a C module


def test_stdlib_figure_counts_are_consistent():
    discovery = discover_functions(list(STDLIB_MODULES))
    assert all(f.skip_reason in SKIP_REASONS or f.skip_reason is None
               for f in discovery.functions)
    candidates = [f for f in discovery.functions if f.skip_reason is None]
    assert len(candidates) >= 80
    assert all(f.query and f.canonical and not f.name.startswith("_") for f in candidates)
    # base64's lazy tables are set through `global` statements, only under `if NAME is
    # None:` and from no argument: a lazily built constant; b85decode then also fills its
    # table by item (`_b85dec[c] = i`), which still counts as module state
    funcs = by_name(discovery, "base64")
    assert funcs["a85encode"].skip_reason is None
    assert funcs["b85decode"].skip_reason == "uses module state written at run time"
    # its docstring is assigned at run time (b32encode.__doc__ = ...): none in the source
    assert funcs["b32encode"].skip_reason == "no docstring"
    assert funcs["b64encode"].skip_reason is None
