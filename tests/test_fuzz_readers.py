"""Property-based fuzzing of the TREC run reader and the embeddings (.npz) reader.

Every input either loads or raises the project's error naming the file (and, for a run
file's line errors, the line); no other exception escapes.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA
from execretrieval import InputFormatError, load_benchmark
from execretrieval.errors import ExecRetrievalError
from execretrieval.ranking.embeddings import from_npz
from execretrieval.ranking.trec import from_run

BENCH = load_benchmark(DATA / "tiny")
QIDS = [q.query_id for q in BENCH.queries]
CIDS = [s.corpus_id for s in BENCH.corpus]

tokens = st.one_of(
    st.sampled_from(QIDS + CIDS + ["Q0", "0", "1", "-1", "nan", "inf", "1e400", "x", ""]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6),
    st.floats(allow_nan=True).map(repr),
    st.integers().map(str),
)


@st.composite
def run_lines(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            rank = draw(st.integers(1, 20))
            lines.append(f"{draw(st.sampled_from(QIDS))} Q0 {draw(st.sampled_from(CIDS))} "
                         f"{rank} {draw(st.floats(allow_nan=True))} tag")
        else:
            lines.append(" ".join(draw(st.lists(tokens, max_size=8))))
    return "\n".join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=run_lines())
def test_fuzzed_run_files_load_or_fail_naming_file_and_line(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "system.trec"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            scores = from_run(path, BENCH)
        except InputFormatError as exc:
            assert exc.file == str(path)
            assert str(exc).startswith(str(path))
        else:
            assert scores.shape == (len(QIDS), len(CIDS))
            assert not np.isnan(scores).any()


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=300))
def test_arbitrary_bytes_as_run_file(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "system.trec"
        path.write_bytes(raw)
        try:
            from_run(path, BENCH)
        except InputFormatError as exc:
            assert exc.file == str(path)


arrays = st.one_of(
    st.builds(lambda r, c: np.zeros((r, c), dtype=np.float32), st.integers(0, 4),
              st.integers(0, 4)),
    st.builds(lambda r: np.arange(r, dtype=np.int64), st.integers(0, 4)),
    st.builds(lambda xs: np.array(xs, dtype=np.float64),
              st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=4)),
    st.builds(lambda xs: np.array(xs), st.lists(st.sampled_from(QIDS + CIDS), max_size=5)),
    st.builds(lambda s: np.array(s), st.text(max_size=20)),
)
KEYS = ("query_ids", "corpus_ids", "queries", "corpus", "metadata", "query_sha", "corpus_sha")


def _valid_arrays() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"query_ids": np.array(QIDS), "corpus_ids": np.array(CIDS),
            "queries": rng.normal(size=(len(QIDS), 3)).astype(np.float32),
            "corpus": rng.normal(size=(len(CIDS), 3)).astype(np.float32),
            "metadata": np.array('{"model": "fuzz"}')}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.dictionaries(st.sampled_from(KEYS), st.none() | arrays, max_size=3),
       truncate=st.none() | st.integers(0, 2000))
def test_fuzzed_npz_files_load_or_fail_naming_file(changes, truncate) -> None:
    data = _valid_arrays()
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    buffer = io.BytesIO()
    np.savez(buffer, **data)
    raw = buffer.getvalue()
    if truncate is not None:
        raw = raw[:truncate]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.npz"
        path.write_bytes(raw)
        try:
            loaded = from_npz(path)
        except ExecRetrievalError as exc:
            assert str(path) in str(exc)
        else:
            assert loaded.queries.shape[0] == len(loaded.query_ids)
            assert loaded.corpus.shape[0] == len(loaded.corpus_ids)
            assert loaded.queries.shape[1] == loaded.corpus.shape[1]


def test_npz_with_pickled_object_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "evil.npz"
    data = _valid_arrays()
    data["queries"] = np.array([{"x": 1}], dtype=object)
    np.savez(path, **data)
    try:
        from_npz(path)
    except InputFormatError as exc:
        assert str(path) in str(exc)
    else:  # pragma: no cover - would mean pickles are loaded
        raise AssertionError("an object array (pickle) was loaded")


def test_zip_that_is_not_npz(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    try:
        from_npz(path)
    except InputFormatError as exc:
        assert exc.field == "query_ids"
