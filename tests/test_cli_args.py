"""Bad numeric options are bad input: exit 2 with argparse's message, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execretrieval.cli import main
from execretrieval.oracle.execution import Oracle


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, str]:
    code = tmp_path / "code.py"
    code.write_text("def one():\n    return 1\n")
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps(["assert one() == 1"]))
    seed = tmp_path / "seed.jsonl"
    seed.write_text(json.dumps({"query": "Return one.", "function_name": "one",
                                "domain": "math-numerical", "canonical": code.read_text(),
                                "test_suite": ["assert one() == 1"]}) + "\n")
    return {"code": str(code), "tests": str(tests), "seed": str(seed),
            "out": str(tmp_path / "out"), "report": str(tmp_path / "r.json")}


BAD = [
    ("run-tests --code {code} --tests {tests} --timeout {v}", "--timeout", ("0", "-1", "inf",
                                                                            "nan", "x")),
    ("validate {tiny} --timeout {v}", "--timeout", ("0", "-2", "inf")),
    ("evaluate {tiny} --model bm25 --out {report} --timeout {v}", "--timeout", ("0", "inf")),
    ("evaluate {tiny} --model bm25 --out {report} --seed {v}", "--seed", ("-3", "1.5")),
    ("compare {tiny} --model bm25 --model tfidf --seed {v}", "--seed", ("-1",)),
    ("compare {tiny} --model bm25 --model tfidf --timeout {v}", "--timeout", ("-1",)),
    ("build {seed} --out {out} --timeout {v}", "--timeout", ("0",)),
    ("build {seed} --out {out} --mutant-timeout {v}", "--mutant-timeout", ("0", "inf")),
    ("build {seed} --out {out} --candidate-limit {v}", "--candidate-limit", ("-3",)),
    ("build {seed} --out {out} --seed {v}", "--seed", ("-1",)),
    ("import-humaneval --out {out} --limit {v}", "--limit", ("0", "-2")),
]


@pytest.mark.parametrize("template, option, value",
                         [(t, o, v) for t, o, values in BAD for v in values])
def test_bad_numeric_option_exits_2_naming_it(template: str, option: str, value: str,
                                              inputs: dict[str, str], tiny_dir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    argv = template.format(v=value, tiny=tiny_dir, **inputs).split()
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and "Traceback" not in err
    assert not Path(inputs["out"]).exists() and not Path(inputs["report"]).exists()


def test_oracle_refuses_an_infinite_timeout() -> None:
    with pytest.raises(ValueError, match="finite"):
        Oracle(timeout=float("inf"), cache=None)
