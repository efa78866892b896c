"""No default figure depends on the order of lines in queries.jsonl or corpus.jsonl."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import DATA
from execretrieval.cli import entry as cli


def _shuffled_copy(source: Path, target: Path, seed: int) -> Path:
    target.mkdir()
    rng = random.Random(seed)
    for name in ("queries.jsonl", "corpus.jsonl"):
        lines = (source / name).read_text(encoding="utf-8").splitlines()
        rng.shuffle(lines)
        (target / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copy(source / "manifest.json", target / "manifest.json")
    return target


def _evaluate(directory: Path, out: Path, *extra: str) -> dict[str, Any]:
    code = cli.main(["evaluate", str(directory), "--model", "bm25", "--bootstrap", "50",
                     "--out", str(out), *extra])
    assert code == 0
    return json.loads(out.read_text())["models"]["bm25"]


def _figures(model: dict[str, Any]) -> dict[str, Any]:
    """Every figure of a model except the bootstrap intervals (they resample by position)."""
    out = {f"metric {k}": v["mean"] for k, v in model["metrics"].items()}
    for key in ("deception_rate", "deception_strict", "deception_tied",
                "rank1_paired_miss_share"):
        out[key] = model[key]
    for key in ("deception_by_bug_type", "deception_by_bug_type_strict",
                "deception_by_bug_type_tied", "exec1_by_domain", "density_ablation"):
        out.update({f"{key} {k}": v for k, v in model[key].items()})
    for k, v in model["tie_report"]["range"].items():
        out[f"range {k}"] = (v["pessimistic"], v["optimistic"])
    out["tied at cut"] = model["tie_report"]["queries_tied_at_cut"]
    out["span bins"] = [b["deception"] for b in model["edit_span_vs_deception"]["bins"]]
    return out


@pytest.mark.slow
def test_default_metrics_do_not_change_when_the_files_are_shuffled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("execretrieval.cli.rank_commands",))
    shuffled = _shuffled_copy(DATA / "builtin", tmp_path / "shuffled", seed=11)
    original = _figures(_evaluate(DATA / "builtin", tmp_path / "a.json"))
    again = _figures(_evaluate(shuffled, tmp_path / "b.json"))
    assert original.keys() == again.keys()
    for key, value in original.items():
        if isinstance(value, float):
            assert again[key] == pytest.approx(value, abs=1e-12, rel=0), key
        elif isinstance(value, tuple | list):
            assert again[key] == pytest.approx(value, abs=1e-12, rel=0), key
        else:
            assert again[key] == value, key
    # the test has teeth: breaking ties by line order does move the figures
    corpus_a = _evaluate(DATA / "builtin", tmp_path / "c.json", "--ties", "corpus")
    corpus_b = _evaluate(shuffled, tmp_path / "d.json", "--ties", "corpus")
    assert corpus_a["metrics"]["exec@1"]["mean"] != corpus_b["metrics"]["exec@1"]["mean"]
    assert corpus_a["metrics"]["exec@1"]["mean"] == pytest.approx(0.175)   # issue 11
