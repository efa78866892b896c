"""``execretrieval run-tests``: exit codes, JSON shape, messages naming the bad file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from execretrieval.cli import main

CODE = "def double(x):\n    return 2 * x\n"


def write(tmp_path, code=CODE, tests=("assert double(2) == 4",)):
    code_file, tests_file = tmp_path / "code.py", tmp_path / "tests.json"
    code_file.write_text(code)
    tests_file.write_text(tests if isinstance(tests, str) else json.dumps(list(tests)))
    return str(code_file), str(tests_file)


def test_all_pass_exits_0_with_json(tmp_path, capsys):
    code, tests = write(tmp_path, tests=["assert double(2) == 4", "assert double(0) == 0"])
    assert main(["run-tests", "--code", code, "--tests", tests, "--json", "--no-cache"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"passed": True, "tests": [
        {"test": "assert double(2) == 4", "status": "pass", "detail": ""},
        {"test": "assert double(0) == 0", "status": "pass", "detail": ""}]}


def test_any_failure_exits_1_and_shows_each_status(tmp_path, capsys):
    code, tests = write(tmp_path, tests=["assert double(2) == 4", "assert double(2) == 5",
                                         "double(None) + 1", "while True: pass"])
    assert main(["run-tests", "--code", code, "--tests", tests, "--timeout", "1"]) == 1
    out = capsys.readouterr().out
    for word in ("PASS", "FAIL", "ERROR", "TIMEOUT", "NOT PASSED"):
        assert word in out


def test_json_statuses_on_failure(tmp_path, capsys):
    code, tests = write(tmp_path, tests=["assert double(2) == 5", "double(None) + 1"])
    assert main(["run-tests", "--code", code, "--tests", tests, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is False
    assert [t["status"] for t in out["tests"]] == ["fail", "error"]
    assert out["tests"][1]["detail"].startswith("TypeError")


@pytest.mark.parametrize("tests_text, needle", [
    ("[1, 2", "not valid JSON"),
    ('{"a": 1}', "JSON array"),
    ('["ok", 3]', "not a string"),
])
def test_bad_tests_file_exits_2_naming_it(tmp_path, capsys, tests_text, needle):
    code, tests = write(tmp_path, tests=tests_text)
    assert main(["run-tests", "--code", code, "--tests", tests]) == 2
    err = capsys.readouterr().err
    assert needle in err and "tests.json" in err


def test_missing_code_file_exits_2(tmp_path, capsys):
    _, tests = write(tmp_path)
    assert main(["run-tests", "--code", str(tmp_path / "nope.py"), "--tests", tests]) == 2
    assert "nope.py" in capsys.readouterr().err


def test_console_script_end_to_end(tmp_path):
    code, tests = write(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "execretrieval.cli", "run-tests", "--code",
                           code, "--tests", tests, "--json"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["passed"] is True


@pytest.mark.parametrize("tests_text, message", [
    ('{"a": 1}', "expected a JSON array of test strings, found an object"),
    ('"assert True"', "expected a JSON array of test strings, found a string"),
    ("null", "expected a JSON array of test strings, found null"),
    ('["assert True", 3]', "field '[1]': test 1 is not a string (found a number)"),
    ('[["assert True"]]', "field '[0]': test 0 is not a string (found an array)"),
])
def test_non_array_tests_file_is_named_in_json_terms(tmp_path, capsys, tests_text, message):
    code, tests = write(tmp_path, tests=tests_text)
    assert main(["run-tests", "--code", code, "--tests", tests]) == 2
    err = capsys.readouterr().err
    assert f"{tests}: {message}" in err and "Traceback" not in err
