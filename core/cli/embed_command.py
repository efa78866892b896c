"""``embed``: encode a benchmark with a local model or a served one, write DIR/embeddings/*.npz.

With ``--api BASE_URL`` the texts go to an OpenAI-compatible ``/embeddings`` endpoint
(hosted APIs, vLLM, text-embeddings-inference, infinity, Ollama); no torch is needed. The
key is read from an environment variable and never printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .args import BENCHMARK_HELP, positive_int, seconds
from .choices import EMBED_PRESETS

__all__ = ["register"]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "embed", help="encode a benchmark and write DIR/embeddings/<model>.npz",
        description="Encode every query and snippet and write DIR/embeddings/<name>.npz, so "
                    "any install can rank with it (evaluate --model <name>). Without --api "
                    "the model is minilm or a local sentence-transformers folder (needs the "
                    "dense extra; nothing is downloaded). With --api the texts go to an "
                    "OpenAI-compatible POST BASE_URL/embeddings; no torch is needed. Vectors "
                    "are cached as they arrive: an interrupted run resumes, a repeat run "
                    "sends nothing.")
    p.add_argument("directory", metavar="DIR", help=BENCHMARK_HELP)
    p.add_argument("--model", default=None, metavar="NAME",
                   help="minilm (default) or a local sentence-transformers folder; with "
                        "--api the served model's name (required)")
    p.add_argument("--api", default=None, metavar="BASE_URL",
                   help="OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or "
                        "http://127.0.0.1:8080/v1")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY", metavar="VAR",
                   help="environment variable holding the key, sent as a bearer token "
                        "(default OPENAI_API_KEY; unset is fine for a local server)")
    p.add_argument("--preset", choices=list(EMBED_PRESETS), default=None,
                   help="a model family's query/passage prefixes (the README has the "
                        "table); explicit prefixes override")
    p.add_argument("--query-prefix", default=None, help="text put before every query")
    p.add_argument("--passage-prefix", default=None, help="text put before every snippet")
    p.add_argument("--dimensions", type=positive_int, default=None, metavar="N",
                   help="ask the service for N-dimensional vectors (models that support it)")
    p.add_argument("--batch", type=positive_int, default=64, metavar="N",
                   help="texts per request (default 64)")
    p.add_argument("--concurrency", type=positive_int, default=4, metavar="N",
                   help="requests in flight at once (default 4)")
    p.add_argument("--timeout", type=seconds, default=60.0, metavar="S",
                   help="seconds to wait for one answer before retrying (default 60)")
    p.add_argument("--max-attempts", type=positive_int, default=6, metavar="N",
                   help="tries per batch, the first included, on 429/5xx/timeouts (default 6)")
    p.add_argument("--no-normalize", action="store_true",
                   help="local models: keep raw vectors (score by dot product, not cosine)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="output file (default DIR/embeddings/<name>.npz)")
    p.set_defaults(handler=_embed)


def _status(message: str) -> None:
    """A line on stderr; on a terminal it first clears the progress bar's line."""
    clear = "\r\033[K" if getattr(sys.stderr, "isatty", lambda: False)() else ""
    print(clear + message, file=sys.stderr, flush=True)


def _embed(args: argparse.Namespace) -> int:
    from ..benchmark.bundled import resolve_benchmark
    from ..benchmark.dataset import load_benchmark
    from .progress import TerminalProgress

    if args.out is None and not Path(args.directory).is_dir():
        # a bundled benchmark lives inside the installed package: not a place to write
        folder = resolve_benchmark(args.directory)  # or the error naming what was tried
        print(f"execretrieval embed: error: {args.directory} is a bundled benchmark, inside "
              f"the installed package ({folder}): give --out FILE.npz", file=sys.stderr)
        return 2
    if args.api is None:
        api_only = [f"--{n.replace('_', '-')}" for n in ("dimensions",)
                    if getattr(args, n) is not None]
        if api_only:
            print(f"execretrieval embed: error: {', '.join(api_only)} needs --api",
                  file=sys.stderr)
            return 2
        return _embed_local(args, load_benchmark(args.directory))
    if not args.model:
        print("execretrieval embed: error: --api needs --model NAME (the served model)",
              file=sys.stderr)
        return 2
    from ..ranking.api_client import ApiSettings
    from ..ranking.api_embed import embed_benchmark_api

    settings = ApiSettings(args.api, args.model, api_key_env=args.api_key_env,
                           dimensions=args.dimensions, batch=args.batch,
                           concurrency=args.concurrency, timeout=args.timeout,
                           max_attempts=args.max_attempts)
    benchmark = load_benchmark(args.directory)
    with TerminalProgress(f"encoding with {args.model} at {settings.public_endpoint}") \
            as progress:
        result = embed_benchmark_api(benchmark, settings, out=args.out, preset=args.preset,
                                     query_prefix=args.query_prefix,
                                     passage_prefix=args.passage_prefix, progress=progress,
                                     status=_status)
    retries = f", {result.retries} retried" if result.retries else ""
    _status(f"{result.texts} texts: {result.from_cache} from the cache, {result.sent} sent in "
            f"{result.requests} requests{retries}")
    _status(f"wrote {result.path} (rank with --model {result.path.stem if result.path else ''})")
    return 0


def _embed_local(args: argparse.Namespace, benchmark: Any) -> int:
    from ..ranking.api_embed import preset_prefixes
    from ..ranking.embeddings import embed_benchmark
    from .progress import TerminalProgress

    model = args.model or "minilm"
    qp, pp = args.query_prefix, args.passage_prefix
    if args.preset is not None:
        qp, pp = preset_prefixes(args.preset, qp, pp)
    with TerminalProgress(f"encoding with {model}") as progress:
        out = embed_benchmark(benchmark, model, out=args.out, progress=progress,
                              query_prefix=qp, passage_prefix=pp,
                              normalize=not args.no_normalize)
    _status(f"wrote {out}")
    return 0
