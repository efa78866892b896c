"""The HTML report's per-query drill-down: one <details> per measured query, still one
self-contained file without scripts."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from _rankdata import CanonicalOracle, small_benchmark

from execretrieval.ranking.registry import rank
from execretrieval.report.evaluation import evaluate_models
from execretrieval.report.writers import write_report


class _Sections(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.details: list[str] = []
        self.scripts = 0
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        a = dict(attrs)
        if tag == "details":
            self.details.append(a.get("id", ""))
        if tag == "script" or any(k.startswith("on") for k in a):
            self.scripts += 1
        for key in ("src", "href"):
            if (a.get(key) or "").startswith(("http:", "https:", "//")):
                self.external.append(a[key])


def test_drilldown_sections(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "small")
    report = evaluate_models(bench, ["bm25", "tfidf"], CanonicalOracle(bench), n_boot=50,
                             seed=1, command="x", exclude={"q3"})
    asked: list[tuple[str, tuple[str, ...]]] = []

    def outcomes(code, tests):  # type: ignore[no-untyped-def]
        asked.append((code, tuple(tests)))
        return ["pass"] * (len(tests) - 1) + ["fail"]

    flags = {"q1": ["Test stricter than the query: t2 wants 4"]}
    text = write_report(report, tmp_path / "r.html", bench, outcomes=outcomes,
                        flags=flags).read_text()
    parser = _Sections()
    parser.feed(text)
    measured = [q.query_id for q in bench.queries if q.query_id != "q3"]
    assert parser.details == measured                        # one section each, q3 left out
    assert parser.scripts == 0 and parser.external == []
    section = text[text.index('<details class="q" id="q1"'):]
    section = section[:section.index("</details>")]
    # bm25's candidates in its ranking's order, found by the engine independently
    bm25 = rank(bench, "bm25")
    depth = min(10, len(bench.corpus))
    expected = [bench.corpus[int(j)].corpus_id for j in bm25.top(0, depth)]
    bm25_table = section[section.index("<h4>bm25</h4>"):section.index("<h4>tfidf</h4>")]
    assert re.findall(r"<td><code>([^<]+)</code></td>", bm25_table) == expected
    assert "t2 wants 4" in section and "⚑ 1" in section
    canon = bench.canonical_for("q1")
    assert f"canonical <code>{canon.corpus_id}</code> against" in section
    assert section.count("✗") >= depth                     # one failing test per row
    assert len(asked) >= depth and all(tests == tuple(bench.query(
        "q1").test_suite) for _c, tests in asked[:depth])
    assert "class=\"del\"" in section or "class=\"ins\"" in section
    assert "&lt;details" not in text and "&lt;td" not in text   # no markup escaped by mistake
    # without the benchmark: the summary report as before
    plain = write_report(report, tmp_path / "p.html").read_text()
    assert "<details" not in plain


def test_saved_slices_table(tmp_path: Path) -> None:
    bench = small_benchmark(tmp_path / "small")
    report = evaluate_models(bench, ["bm25"], CanonicalOracle(bench), n_boot=50, seed=1,
                             command="x")
    ids = [q.query_id for q in bench.queries][:2]
    text = write_report(report, tmp_path / "r.html",
                        slices={"first two": ("by hand", ids)}).read_text()
    ev = report.models["bm25"]
    by_hand = sum(float(ev.per_query["exec@1"][ev.query_ids.index(q)]) for q in ids) / 2
    row = text[text.index("<td>first two</td>"):]
    row = row[:row.index("</tr>")]
    cells = re.findall(r"<td>([^<]*)</td>", row)
    assert cells[:4] == ["first two", "by hand", "bm25", "2"]
    assert cells[4] == f"{by_hand:.3f}"
    assert "Saved slices" not in write_report(report, tmp_path / "p.html").read_text()
