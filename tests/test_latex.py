"""LaTeX tables: bold best, superscripts from the corrected tests, escaping, and a real
pdflatex compile of `compare --out t.tex` where pdflatex and booktabs are installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from execretrieval.measure.multiple import leaderboard, pairwise
from execretrieval.report.latex import latex_escape, latex_table


def _data(names: list[str], correction: str = "holm") -> dict:
    rng = np.random.default_rng(0)
    n = 80
    order = rng.permutation(n)

    def hits(share: float) -> np.ndarray:
        out = np.zeros(n)
        out[order[: round(share * n)]] = 1.0
        return out

    shares = [0.8, 0.5, 0.48, 0.1]
    systems = {name: {"exec@1": hits(s), "exec@5": hits(min(1.0, s + 0.15))}
               for name, s in zip(names, shares, strict=True)}
    metrics = ["exec@1", "exec@5"]
    pairs = pairwise(systems, metrics, correction=correction, n_boot=300)
    board = leaderboard(systems, metrics, pairs, n_boot=300)
    return {"benchmark": {"name": "my_bench", "fingerprint": "ab" * 32, "queries": n,
                          "version": "2"},
            "settings": {"ties": "pessimistic", "correction": correction, "bootstrap": 300},
            "seed": 0, "pairs": [p.to_dict() for p in pairs],
            "leaderboard": [s.to_dict() for s in board]}


def _rows(tex: str) -> dict[str, list[str]]:
    body = tex.split(r"\midrule")[1].split(r"\bottomrule")[0]
    rows = {}
    for line in body.strip().splitlines():
        cells = [c.strip() for c in line.rstrip("\\ ").split("&")]
        rows[cells[1]] = cells
    return rows


def test_bold_best_and_superscripts_follow_the_corrected_tests() -> None:
    names = ["strong", "mid_a", "mid#b", "weak"]
    data = _data(names)
    tex = latex_table(data)
    rows = _rows(tex)
    assert set(rows) == {"strong", r"mid\_a", r"mid\#b", "weak"}
    letters = {name: rows[latex_escape(name)][0] for name in names}
    assert letters == {"strong": "a", "mid_a": "b", "mid#b": "c", "weak": "d"}
    for col, metric in ((2, "exec@1"), (3, "exec@5")):
        assert rows["strong"][col].startswith(r"\textbf{")
        assert not any(rows[latex_escape(n)][col].startswith(r"\textbf") for n in names[1:])
        for name in names:
            cell = rows[latex_escape(name)][col]
            found = re.search(r"\^\{\\mathrm\{([a-z]+)\}\}", cell)
            shown = set(found.group(1)) if found else set()
            expected = set()
            for p in data["pairs"]:
                if p["metric"] != metric or p["p_adjusted"] >= 0.05:
                    continue
                winner, loser = (p["a"], p["b"]) if p["diff"] > 0 else (p["b"], p["a"])
                if winner == name:
                    expected.add(letters[loser])
            assert shown == expected, (name, metric)
    # the two middle systems differ on two queries: neither beats the other
    assert "b" not in rows[r"mid\#b"][2] and "c" not in rows[r"mid\_a"][2].split("$")[-1]
    assert "d" in rows["strong"][2]
    caption = tex.split(r"\caption{")[1]
    for words in ("my\\_bench 2", "Holm-corrected", "exact McNemar", "pessimistic",
                  "abababababab"):
        assert words in caption


def test_no_correction_names_itself_and_intervals_are_optional() -> None:
    data = _data(["a", "b", "c", "d"], correction="none")
    plain, with_ci = latex_table(data), latex_table(data, ci=True)
    assert "not corrected for multiple comparisons" in plain
    assert r"\scriptsize[" not in plain and r"\scriptsize[" in with_ci
    assert "300 replicates" in with_ci


def test_unknown_metric_and_single_system_are_refused() -> None:
    with pytest.raises(ValueError, match="no leaderboard for ndcg@3"):
        latex_table(_data(["a", "b", "c", "d"]), ["ndcg@3"])
    with pytest.raises(ValueError, match="two or more systems"):
        latex_table({"leaderboard": [], "pairs": []})


def _compile(tex: Path) -> Path:
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                             tex.name], cwd=tex.parent, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout[-3000:]
    return tex.with_suffix(".pdf")


needs_latex = pytest.mark.skipif(
    shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None
    or not subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True,
                          text=True).stdout.strip(),
    reason="pdflatex with booktabs not installed (make system-deps installs it)")


@needs_latex
def test_latex_with_awkward_names_compiles(tmp_path: Path) -> None:
    data = _data(["50%_model", "a&b", "x^2~{y}", "back\\slash"])
    tex = tmp_path / "awkward.tex"
    tex.write_text(latex_table(data, ci=True))
    assert _compile(tex).stat().st_size > 1000


@needs_latex
def test_compare_out_tex_compiles_with_pdflatex(run_cli, tiny_dir: Path,
                                               tmp_path: Path) -> None:
    out = tmp_path / "t.tex"
    code, stdout, err = run_cli("compare", tiny_dir, "--model", "bm25", "--model", "tfidf",
                                "--model", "bm25", "--out", out, "--latex-ci",
                                "--bootstrap", "200")
    assert code == 0, err
    tex = out.read_text()
    assert r"\usepackage{booktabs}" in tex and r"\toprule" in tex
    assert set(_rows(tex)) == {"bm25", "tfidf", r"bm25\#2"}
    assert "exec@1 & exec@5 & exec@10" in tex
    pdf = _compile(out)
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True,
                          text=True).stdout if shutil.which("pdftotext") else ""
    if text:
        assert "tfidf" in text and "Tie policy" in text


def test_compare_many_models_json(run_cli, tiny_dir: Path) -> None:
    code, out, err = run_cli("compare", tiny_dir, "--model", "bm25", "--model", "tfidf",
                             "--model", "bm25", "--metric", "exec@1", "--metric", "ndcg@3",
                             "--correction", "bonferroni", "--json", "--bootstrap", "100")
    assert code == 0, err
    data = json.loads(out)
    assert data["correction"] == "bonferroni" and data["metrics"] == ["exec@1", "ndcg@3"]
    assert len(data["pairs"]) == 2 * 3
    for p in data["pairs"]:
        assert set(p) >= {"a", "b", "metric", "diff", "ci_low", "ci_high", "p_value",
                          "p_adjusted"}
        assert p["p_adjusted"] == pytest.approx(min(1.0, 3 * p["p_value"]))
    same = next(p for p in data["pairs"] if (p["a"], p["b"]) == ("bm25", "bm25#2"))
    assert same["diff"] == 0 and same["p_value"] == 1.0
    assert len(data["leaderboard"]) == 2 * 3
    assert set(data["leaderboard"][0]) == {"system", "metric", "mean", "ci_low", "ci_high",
                                           "rank", "rank_low", "rank_high", "tier"}


@pytest.mark.parametrize(("args", "message"), [
    (["--model", "bm25"], "two or more --model"),
    (["--model", "bm25", "--model", "tfidf", "--metric", "recall@3"], "unknown metric"),
    (["--model", "bm25", "--model", "tfidf", "--out", "x.pdf"], "unknown output format"),
    (["--model", "bm25", "--model", "tfidf", "--latex-ci"], "--latex-ci needs"),
])
def test_compare_bad_input_exits_2(run_cli, tiny_dir: Path, args, message) -> None:
    code, _, err = run_cli("compare", tiny_dir, *args)
    assert code == 2 and message in err
