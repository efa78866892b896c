"""``execretrieval doctor``: which sandbox measures are active here, and why any is not."""

from __future__ import annotations

import json
import subprocess
import sys

from execretrieval.cli.doctor_command import MEANING


def _doctor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "execretrieval.cli", "doctor", *args],
                          capture_output=True, text=True, timeout=120)


def test_doctor_json_lists_every_measure_with_a_state_and_a_reason():
    run = _doctor("--json")
    report = json.loads(run.stdout)
    assert set(report["measures"]) == set(MEANING)
    for name, measure in report["measures"].items():
        assert measure["state"] in ("active", "not needed", "missing"), name
        if measure["state"] != "active":
            assert measure["why"], f"{name} is {measure['state']} without a reason"
    missing = [n for n, m in report["measures"].items() if m["state"] == "missing"]
    assert report["all_active"] == (not missing)
    assert run.returncode == (0 if report["all_active"] else 1)
    # on this project's machines (Linux with user namespaces) everything applies and holds
    assert report["all_active"], {n: report["measures"][n]["why"] for n in missing}


def test_doctor_text_names_each_measure():
    run = _doctor()
    for name in MEANING:
        assert name in run.stdout
    assert "every measure is active" in run.stdout or "missing" in run.stdout
