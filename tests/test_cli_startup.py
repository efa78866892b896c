"""The command line imports what a command needs, after parsing: ``--version``, ``--help``
and ``run-tests`` answer without numpy, pandas or scipy (checked in real subprocesses of the
command, from the ``sys.modules`` they end with)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from execretrieval.cli import choices, entry

HEAVY = ("numpy", "pandas", "scipy")


# ``python -m execretrieval.cli ARGS`` with one addition: at exit (after the command's own
# SystemExit), the names in sys.modules go to stderr on a line of their own.
_WITH_MODULES = ("import atexit, json, runpy, sys\n"
                 "atexit.register(lambda: print('MODULES ' + json.dumps(sorted(sys.modules)),"
                 " file=sys.stderr))\n"
                 "sys.argv[0] = 'execretrieval'\n"
                 "runpy.run_module('execretrieval.cli', run_name='__main__', alter_sys=True)\n")


def _imported(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the ``execretrieval`` command with ARGS; (the process, every module it imported)."""
    done = subprocess.run([sys.executable, "-c", _WITH_MODULES, *args], capture_output=True,
                          text=True, check=False, timeout=120, env={**os.environ})
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")]
    assert len(lines) == 1, done.stderr[-2000:]
    return done, set(json.loads(lines[0][len("MODULES "):]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def test_version_imports_no_heavy_package() -> None:
    done, modules = _imported("--version")
    assert done.returncode == 0 and done.stdout.startswith("execretrieval ")
    assert "extras installed:" in done.stdout
    assert "execretrieval.cli.entry" in modules     # the list is real: it names our entry
    assert _heavy(modules) == []
    # no command module is needed to print the version
    assert not [m for m in modules if m.startswith("execretrieval.cli.") and m.endswith(
        ("_command", "_commands"))]


def test_help_lists_every_command_without_heavy_packages() -> None:
    done, modules = _imported("--help")
    assert done.returncode == 0
    for command in entry.COMMANDS:
        assert command in done.stdout
    assert set(entry.COMMAND_MODULES) <= modules   # all registered, none heavy
    assert _heavy(modules) == []


def test_run_tests_on_a_suite_imports_no_heavy_package(tmp_path: Path) -> None:
    code, tests = tmp_path / "code.py", tmp_path / "tests.json"
    code.write_text("def half(n):\n    return n // 2\n")
    tests.write_text(json.dumps(["assert half(4) == 2", "assert half(5) == 3"]))
    for cache in ((), ("--no-cache",)):
        done, modules = _imported("run-tests", "--code", str(code), "--tests", str(tests),
                                  "--json", *cache)
        assert done.returncode == 1, done.stderr[-2000:]   # the second test fails
        outcome = json.loads(done.stdout)
        assert [t["status"] for t in outcome["tests"]] == ["pass", "fail"]
        assert "execretrieval.oracle.execution" in modules
        assert _heavy(modules) == []
        # nor the thread pool of runners without batches, and the logging it pulls in
        assert not {"concurrent.futures", "logging"} & modules
        # only run-tests' own module was loaded to parse it
        assert [m for m in entry.COMMAND_MODULES if m in modules] == [
            "execretrieval.cli.oracle_commands"]


def test_run_tests_exits_at_once_with_all_its_output(tmp_path: Path) -> None:
    """run-tests skips the interpreter's teardown (entry._exit_at_once): the exit code, every
    byte of block-buffered output, the exit handlers and the result cache are as at any exit."""
    code, tests = tmp_path / "code.py", tmp_path / "tests.json"
    code.write_text("def half(n):\n    return n // 2\n")
    suite = [f"assert half({2 * n}) == {n}" for n in range(300)] + ["assert half(5) == 3"]
    tests.write_text(json.dumps(suite))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["EXECRETRIEVAL_CACHE_DIR"] = str(tmp_path / "cache")
    command = Path(sys.executable).with_name("execretrieval")
    for round_ in ("runs", "from the cache"):
        out = tmp_path / f"out-{len(round_)}.json"
        with open(out, "w") as handle:   # a file: stdout is block-buffered
            done = subprocess.run([str(command), "run-tests", "--code", str(code), "--tests",
                                   str(tests), "--json"], stdout=handle, stderr=subprocess.PIPE,
                                  text=True, env=env, timeout=120, check=False)
        assert done.returncode == 1, (round_, done.stderr[-2000:])
        text = out.read_text()
        statuses = [t["status"] for t in json.loads(text)["tests"]]
        assert statuses == ["pass"] * 300 + ["fail"] and text.endswith("}\n"), round_
    with open(tmp_path / "table.txt", "w") as handle:   # the table: one print per line
        done = subprocess.run([str(command), "run-tests", "--code", str(code), "--tests",
                               str(tests)], stdout=handle, env=env, timeout=120, check=False)
    lines = (tmp_path / "table.txt").read_text().splitlines()
    assert done.returncode == 1 and lines[-1] == "NOT PASSED: 300 pass, 1 fail (cached)"
    assert sum(" PASS " in line for line in lines) == 300
    # (the second round was answered by the cache the first one wrote and closed)
    from execretrieval.oracle.cache import ResultCache

    cache = ResultCache(tmp_path / "cache" / "results.sqlite")
    try:
        assert len(cache) == 1
    finally:
        cache.close()
    # an exit handler registered before the command still runs (as _imported relies on)
    done, modules = _imported("run-tests", "--code", str(code), "--tests", str(tests),
                              "--no-cache")
    assert done.returncode == 1 and "execretrieval.cli.oracle_commands" in modules
    assert "NOT PASSED: 300 pass, 1 fail" in done.stdout


def test_bad_command_still_lists_every_command() -> None:
    done, _ = _imported("no-such-command")
    assert done.returncode == 2
    assert "invalid choice: 'no-such-command'" in done.stderr
    for command in entry.COMMANDS:
        assert repr(command) in done.stderr


def _registered(module: str) -> list[str]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    importlib.import_module(module).register(sub)
    return list(sub.choices)


def test_commands_table_names_what_each_module_registers() -> None:
    table: dict[str, list[str]] = {}
    for command, module in entry.COMMANDS.items():
        table.setdefault(module, []).append(command)
    assert sorted(table) == sorted(entry.COMMAND_MODULES)
    for module in entry.COMMAND_MODULES:
        assert _registered(module) == table[module], module


@pytest.mark.parametrize(("argv", "expected"), [
    (["run-tests", "--code", "x"], ("execretrieval.cli.oracle_commands",)),
    (["evaluate", "--help"], ("execretrieval.cli.rank_commands",)),
    (["--version"], ()),
    (["--help"], entry.COMMAND_MODULES),
    ([], entry.COMMAND_MODULES),
    (["-h", "run-tests"], entry.COMMAND_MODULES),
    (["bogus"], entry.COMMAND_MODULES),
])
def test_modules_for_a_command_line(argv: list[str], expected: tuple[str, ...]) -> None:
    assert entry.modules_for(argv) == expected


def test_parser_choices_equal_the_engines() -> None:
    from execretrieval.audit.run import DEFAULT_INPUTS, DEFAULT_SEEDS
    from execretrieval.benchmark.flags import CATEGORIES
    from execretrieval.measure.ties import TIE_POLICIES
    from execretrieval.oracle.limits import MUTANT_TIMEOUT
    from execretrieval.ranking.api_embed import PRESETS

    assert choices.TIE_POLICIES == TIE_POLICIES
    assert choices.AUDIT_DEFAULT_SEEDS == DEFAULT_SEEDS
    assert choices.AUDIT_DEFAULT_INPUTS == DEFAULT_INPUTS
    assert choices.FLAG_CATEGORIES == tuple(CATEGORIES)
    assert choices.EMBED_PRESETS == tuple(PRESETS)
    assert choices.MUTANT_TIMEOUT == MUTANT_TIMEOUT


@pytest.mark.parametrize("command", sorted(entry.COMMANDS))
def test_every_command_prints_its_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """argparse formats each help text with %: a bare % in one ('45% more') made
    `execretrieval audit --help` end in a traceback."""
    with pytest.raises(SystemExit) as done:
        entry.main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: execretrieval " + command) and "Traceback" not in out
