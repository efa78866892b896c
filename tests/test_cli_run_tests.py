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
    assert out == {"passed": True, "setup_output": "", "tests": [
        {"test": "assert double(2) == 4", "status": "pass", "detail": "", "output": ""},
        {"test": "assert double(0) == 0", "status": "pass", "detail": "", "output": ""}]}


def test_output_option_shows_what_each_test_printed(tmp_path, capsys):
    code, tests = write(tmp_path, code="print('loading')\n" + CODE,
                        tests=["print('two is', double(2))\nassert double(2) == 4",
                               "assert double(0) == 0",
                               "import sys\nprint('bad', file=sys.stderr)\nassert double(1) == 3"])
    assert main(["run-tests", "--code", code, "--tests", tests, "--output", "--no-cache"]) == 1
    lines = capsys.readouterr().out.splitlines()
    text = "\n".join(lines)
    assert "--- loading the code printed ---" in text and "| loading" in text
    first = lines.index(next(ln for ln in lines if ln.lstrip().startswith("1  PASS")))
    assert lines[first + 1].strip() == "--- test 1 printed ---"
    assert lines[first + 2].strip() == "| two is 4"
    assert "(test 2 printed nothing)" in text
    third = text.index("3  FAIL")
    assert text.index("returned 2, expected 3") > third and text.index("| bad") > third
    assert main(["run-tests", "--code", code, "--tests", tests, "--no-cache"]) == 1
    assert "| two is" not in capsys.readouterr().out  # only on demand
    assert main(["run-tests", "--code", code, "--tests", tests, "--json", "--no-cache"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["setup_output"] == "loading\n"
    assert [t["output"] for t in out["tests"]] == ["two is 4\n", "", "bad\n"]


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
