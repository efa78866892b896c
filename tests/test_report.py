"""Reports in every format, written and parsed back; the evaluate/compare commands."""

from __future__ import annotations

import csv
import dataclasses
import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from _rankdata import CanonicalOracle, small_benchmark

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.cli import entry as cli
from execretrieval.report.evaluation import EvaluationReport, evaluate_models
from execretrieval.report.writers import write_report

CHARTS = {"exec-at-k", "exec1-by-domain", "deception-by-bug-type", "density-ablation",
          "deception-by-bug-type-strict", "deception-by-bug-type-tied"}


@pytest.fixture
def report_and_bench(tmp_path: Path):
    bench = small_benchmark(tmp_path / "small")
    oracle = CanonicalOracle(bench)
    report = evaluate_models(bench, ["bm25", "tfidf"], oracle, n_boot=200, seed=5,
                             command="execretrieval evaluate small", exclude={"q3"})
    return report, bench


def test_evaluate_models_batches_execution_and_records_provenance(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "small")
    oracle = CanonicalOracle(bench)
    phases: list[str] = []
    report = evaluate_models(bench, ["bm25", "bm25"], oracle, n_boot=50, status=phases.append)
    assert list(report.models) == ["bm25", "bm25#2"]
    assert len(oracle.jobs) == len(set(oracle.jobs))  # shared pairs executed once
    assert report.environment["oracle"] == {"fake": True}
    assert report.benchmark["fingerprint"] == bench.fingerprint
    assert phases[0] == "ranking with bm25" and phases[-1] == "measuring"
    assert report.comparisons[0].a == "bm25" and report.comparisons[0].p_value == 1.0


def test_json_report_has_the_documented_shape(report_and_bench, tmp_path: Path) -> None:
    report, bench = report_and_bench
    data = json.loads(write_report(report, tmp_path / "r.json").read_text())
    assert set(data) >= {"benchmark", "environment", "seed", "command", "models"}
    assert data["benchmark"] == {"name": "small", "fingerprint": bench.fingerprint,
                                 "version": None, "queries": 3, "snippets": 6}
    assert data["seed"] == 5 and data["command"] == "execretrieval evaluate small"
    model = data["models"]["bm25"]
    for key in ("exec", "execp", "ndcg"):
        for k in (1, 3, 5, 10):
            assert set(model["metrics"][f"{key}@{k}"]) == {"mean", "ci_low", "ci_high"}
    for key in ("deception_rate", "rank1_paired_miss_share", "deception_by_bug_type",
                "exec1_by_domain", "density_ablation"):
        assert key in model
    assert set(model["density_ablation"]) == {"0", "1", "2", "3", "4"}
    assert model["queries"] == 2 and model["excluded_queries"] == ["q3"]
    assert "packages" in data["environment"] and "python" in data["environment"]


def test_nan_is_written_as_null(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "small")
    report = evaluate_models(bench, ["bm25"], CanonicalOracle(bench), n_boot=20,
                             exclude={"q1", "q2"})  # only q3 left: it has no distractors
    text = write_report(report, tmp_path / "r.json").read_text()
    assert "NaN" not in text
    assert json.loads(text)["models"]["bm25"]["deception_rate"] is None


def test_csv_has_one_row_per_query_and_model(report_and_bench, tmp_path: Path) -> None:
    report, bench = report_and_bench
    path = write_report(report, tmp_path / "r.csv", bench)
    rows = list(csv.DictReader(path.open()))
    assert [(r["model"], r["query_id"]) for r in rows] == [
        ("bm25", "q1"), ("bm25", "q2"), ("tfidf", "q1"), ("tfidf", "q2")]
    first = rows[0]
    assert first["function_name"] == "low_bit" and first["domain"] == "bit-manipulation"
    assert first["rank1_corpus_id"] in {"c1", "d1a", "d1b"}
    assert int(first["canonical_rank"]) >= 1
    assert 0.0 <= float(first["exec@1"]) <= 1.0   # an expectation over tie orders
    evaluation = report.models["bm25"]
    assert [float(r["exec@10"]) for r in rows[:2]] == evaluation.per_query["exec@10"].tolist()


def test_readable_reports_say_which_queries_were_excluded(report_and_bench,
                                                          tmp_path: Path) -> None:
    report, _ = report_and_bench
    note = "2 of 3 queries measured: 1 excluded from every figure (--exclude-queries): q3."
    assert report.exclusion_note() == note
    assert f"- {note}" in write_report(report, tmp_path / "r.md").read_text()
    assert note in write_report(report, tmp_path / "r.html").read_text()
    plain = dataclasses.replace(report, settings={**report.settings, "excluded_queries": []})
    assert plain.exclusion_note() == ""
    assert "excluded" not in write_report(plain, tmp_path / "p.md").read_text()


def test_markdown_report_tables(report_and_bench, tmp_path: Path) -> None:
    report, _ = report_and_bench
    text = write_report(report, tmp_path / "r.md").read_text()
    assert text.startswith("# ExecRetrieval report: small")
    assert "| model | exec@1 | exec@3 |" in text
    assert "## Density ablation" in text and "## Paired comparisons" in text


class _Charts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.charts: dict[str, int] = {}
        self.current: str | None = None
        self.external: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "data-chart" in a:
            self.current = a["data-chart"]
            self.charts[self.current] = 0
        elif self.current and tag in ("rect", "circle"):
            self.charts[self.current] += 1
        if tag == "script":
            self.scripts += 1
        for key in ("src", "href"):
            if a.get(key, "").startswith(("http:", "https:", "//")):
                self.external.append(a[key])

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None


def test_html_report_is_self_contained_with_its_charts(report_and_bench,
                                                            tmp_path: Path) -> None:
    report, _ = report_and_bench
    parser = _Charts()
    parser.feed(write_report(report, tmp_path / "r.html").read_text())
    assert set(parser.charts) == CHARTS
    assert all(count > 0 for count in parser.charts.values()), parser.charts
    assert parser.scripts == 0 and parser.external == []


def test_unknown_format_is_refused(report_and_bench, tmp_path: Path) -> None:
    report, _ = report_and_bench
    with pytest.raises(ValueError, match="unknown report format .xlsx"):
        write_report(report, tmp_path / "r.xlsx")
    assert not (tmp_path / "r.xlsx").exists()


def test_report_dataclass_is_serialisable(report_and_bench) -> None:
    report, _ = report_and_bench
    assert isinstance(report, EvaluationReport)
    json.dumps(report.to_dict(), allow_nan=False)


# command line ---------------------------------------------------------------------------

@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("execretrieval.cli.rank_commands",
                                                 "execretrieval.cli.compare_command"))

    def run(*argv: str) -> tuple[int, str, str]:
        code = cli.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_evaluate_command_writes_the_report(run_cli, tiny_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    code, stdout, stderr = run_cli("evaluate", tiny_dir, "--model", "bm25", "--bootstrap",
                                   "100", "--seed", "3", "--out", out)
    assert code == 0, stderr
    data = json.loads(out.read_text())
    assert data["seed"] == 3 and list(data["models"]) == ["bm25"]
    assert data["benchmark"]["queries"] == 4
    assert "oracle" in data["environment"]
    assert "bm25: exec@1 = " in stdout and "wrote" in stderr


def test_evaluate_with_exclusions_and_a_run_file(run_cli, tiny_dir: Path,
                                                 tmp_path: Path) -> None:
    run = tmp_path / "mine.trec"
    assert run_cli("export-run", tiny_dir, "--model", "bm25", "--out", run)[0] == 0
    excluded = tmp_path / "flagged.txt"
    excluded.write_text("# flagged by annotators\nq_0001\n\n")
    out = tmp_path / "r.json"
    code, _, err = run_cli("evaluate", tiny_dir, "--model", "bm25", "--run", run,
                           "--exclude-queries", excluded, "--k", "1,5", "--bootstrap", "50",
                           "--out", out)
    assert code == 0, err
    models = json.loads(out.read_text())["models"]
    assert models["mine"]["metrics"] == models["bm25"]["metrics"]
    assert set(models["bm25"]["metrics"]) == {"exec@1", "exec@5", "execp@1", "execp@5",
                                              "ndcg@1", "ndcg@5"}
    assert models["bm25"]["queries"] == 3


@pytest.mark.parametrize(("args", "message"), [
    (["--model", "nope"], "unknown model 'nope'"),
    (["--model", "bm25", "--exclude-queries", "EXCL"], "EXCL:1: unknown query id 'zz'"),
    (["--run", "RUN"], "RUN:2: field 'docid': unknown corpus id"),
    ([], "at least one --model"),
])
def test_evaluate_bad_input_exits_2(run_cli, tiny_dir: Path, tmp_path: Path, args, message):
    (tmp_path / "excl.txt").write_text("zz\n")
    (tmp_path / "bad.trec").write_text("q_0001 Q0 c_0001 1 2.0 t\nq_0001 Q0 nope 2 1.0 t\n")
    args = [a.replace("EXCL", str(tmp_path / "excl.txt")).replace("RUN",
            str(tmp_path / "bad.trec")) for a in args]
    code, _, err = run_cli("evaluate", tiny_dir, *args, "--out", tmp_path / "r.json")
    assert code == 2
    assert message.replace("EXCL", str(tmp_path / "excl.txt")).replace(
        "RUN", str(tmp_path / "bad.trec")) in err
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("command", [["evaluate", "--model", "bm25"],
                                     ["compare", "--model", "bm25", "--model", "tfidf"]])
def test_excluding_every_query_exits_2(run_cli, tiny_dir: Path, tmp_path: Path,
                                       command: list[str]) -> None:
    excluded = tmp_path / "all.txt"
    excluded.write_text("q_0001\nq_0002\nq_0003\nq_0004\n")
    out = tmp_path / "r.json"
    extra = ["--out", out] if command[0] == "evaluate" else ["--json"]
    code, stdout, err = run_cli(command[0], tiny_dir, *command[1:], "--exclude-queries",
                                excluded, *extra)
    assert code == 2 and "Traceback" not in err
    assert f"{excluded}: excludes all 4 queries" in err
    assert not out.exists() and stdout == ""


def test_an_empty_exclusion_list_excludes_nothing(run_cli, tiny_dir: Path,
                                                  tmp_path: Path) -> None:
    excluded = tmp_path / "none.txt"
    excluded.write_text("")
    out = tmp_path / "r.json"
    code, _, err = run_cli("evaluate", tiny_dir, "--model", "bm25", "--exclude-queries",
                           excluded, "--bootstrap", "20", "--out", out)
    assert code == 0, err
    assert json.loads(out.read_text())["models"]["bm25"]["queries"] == 4


def test_evaluate_missing_folder_exits_2(run_cli, tmp_path: Path) -> None:
    code, _, err = run_cli("evaluate", tmp_path / "nowhere", "--model", "bm25", "--out",
                           tmp_path / "r.json")
    assert code == 2 and "nowhere" in err


def test_compare_command_json(run_cli, tiny_dir: Path) -> None:
    code, out, err = run_cli("compare", tiny_dir, "--model", "bm25", "--model", "tfidf",
                             "--json", "--bootstrap", "100")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {"metric", "a", "b", "a_mean", "b_mean", "a_only", "b_only",
                         "p_value", "diff", "ci_low", "ci_high", "discordant_queries"}
    assert (data["metric"], data["a"], data["b"]) == ("exec@1", "bm25", "tfidf")
    assert data["a_only"] + data["b_only"] == len(data["discordant_queries"])


def test_compare_needs_two_models(run_cli, tiny_dir: Path) -> None:
    assert run_cli("compare", tiny_dir, "--model", "bm25")[0] == 2


def test_export_qrels_command(run_cli, tiny_dir: Path, tmp_path: Path) -> None:
    code, _, _ = run_cli("export-qrels", tiny_dir, "--out", tmp_path / "q.txt")
    bench = load_benchmark(tiny_dir)
    lines = (tmp_path / "q.txt").read_text().splitlines()
    assert code == 0 and len(lines) == sum(len(q.correct_corpus_ids) for q in bench.queries)
    assert lines[0] == f"{bench.queries[0].query_id} 0 {bench.queries[0].correct_corpus_ids[0]} 1"


def test_export_run_depth(run_cli, tiny_dir: Path, tmp_path: Path) -> None:
    code, _, _ = run_cli("export-run", tiny_dir, "--model", "tfidf", "--depth", "3", "--out",
                         tmp_path / "r.trec")
    lines = (tmp_path / "r.trec").read_text().splitlines()
    assert code == 0 and len(lines) == 3 * len(load_benchmark(tiny_dir).queries)
    assert np.all([line.split()[5] == "tfidf" for line in lines])


def test_export_run_reports_the_lines_it_wrote(run_cli, tiny_dir: Path, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow.trec"
    assert run_cli("export-run", tiny_dir, "--model", "bm25", "--out", shallow,
                   "--depth", "2")[0] == 0
    again = tmp_path / "again.trec"
    code, _, err = run_cli("export-run", tiny_dir, "--model", shallow, "--out", again)
    assert code == 0
    assert f"wrote {again}: 8 lines for 4 queries, at most 14 each" in err
    assert len(again.read_text().splitlines()) == 8


@pytest.mark.parametrize("name", ["mine.tsv", "mine"])
def test_evaluate_run_accepts_any_file_name(run_cli, tiny_dir: Path, tmp_path: Path,
                                            name: str) -> None:
    run = tmp_path / "exported.trec"
    assert run_cli("export-run", tiny_dir, "--model", "bm25", "--out", run)[0] == 0
    renamed = tmp_path / name
    run.rename(renamed)
    out = tmp_path / "r.json"
    code, _, err = run_cli("evaluate", tiny_dir, "--model", "bm25", "--run", renamed,
                           "--bootstrap", "20", "--out", out)
    assert code == 0, err
    models = json.loads(out.read_text())["models"]
    assert models["mine"]["metrics"] == models["bm25"]["metrics"]
