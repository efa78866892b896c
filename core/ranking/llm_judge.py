"""A pointwise LLM judge behind an OpenAI-compatible ``POST URL/v1/chat/completions``.

Each (query, code) pair is one request at temperature 0 asking whether the code does what
the query asks. The score is the answer's probability of "yes" (the first token's
``top_logprobs``, asked for with ``logprobs: true, top_logprobs: 5``) when the service
returns log-probabilities; a service that answers without them is asked, from then on, for a
0-10 rating instead, parsed from the answer. An answer with neither is a recorded failure
(score :data:`FAILED`, below every real score). Answers are cached like the reranker's
scores; tokens are counted from ``usage``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ServiceError
from .api_rerank import RerankSettings, ScoreCache
from .http_service import ServiceClient, Status, run_bounded

__all__ = ["FAILED", "PROMPTS", "SYSTEM_PROMPT", "ChatJudge", "JudgeCounts", "Verdict",
           "judge_identity", "judge_pairs"]

FAILED = -1.0
SYSTEM_PROMPT = ("You review Python code. You are given a request in natural language and a "
                 "function. Judge only whether the function does exactly what the request "
                 "asks, on every input the request allows.")
PROMPTS = {
    "logprobs": ("Request:\n{query}\n\nCode:\n```python\n{code}\n```\n\nDoes this code do "
                 "what the request asks? Answer with one word: yes or no."),
    "rating": ("Request:\n{query}\n\nCode:\n```python\n{code}\n```\n\nHow sure are you that "
               "this code does what the request asks? Answer with one whole number from 0 "
               "(surely not) to 10 (surely yes) and nothing else."),
}
_RATING = re.compile(r"(?<![\d.])(10|[0-9])(?![\d.])")
_YES = {"yes"}


@dataclass(frozen=True)
class Verdict:
    """One answer: its score, the text, whether it failed to parse, and its tokens."""

    score: float
    answer: str
    mode: str
    failed: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "answer": self.answer, "mode": self.mode,
                "failed": self.failed, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens}


class _NoLogprobs(Exception):
    """The service answered without log-probabilities."""


class ChatJudge(ServiceClient):
    """Asks the chat endpoint about one (query, code) pair."""

    settings: RerankSettings
    activity = "judging"
    not_found_hint = " — check the URL (the judge posts to URL/v1/chat/completions) and model"

    def __init__(self, settings: RerankSettings, **options: Any) -> None:
        super().__init__(settings, **options)
        self.mode = "logprobs"     # becomes "rating" once the service shows no logprobs
        self.probed = False        # True once an answer has shown which mode applies

    def judge(self, query: str, code: str) -> Verdict:
        mode = self.mode
        if mode == "logprobs":
            try:
                return self._ask(query, code, "logprobs")
            except _NoLogprobs:
                with self._lock:
                    if self.mode == "logprobs":
                        self.mode = "rating"
                        self._say(f"{self.settings.public_endpoint}: no logprobs in the "
                                  "answer; asking for 0-10 ratings from now on")
        return self._ask(query, code, "rating")

    def _ask(self, query: str, code: str, mode: str) -> Verdict:
        s = self.settings
        body: dict[str, Any] = {
            "model": s.model, "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                         {"role": "user", "content": PROMPTS[mode].format(query=query,
                                                                          code=code)}],
            "max_tokens": 1 if mode == "logprobs" else 8}
        if mode == "logprobs":
            body.update(logprobs=True, top_logprobs=5)
        return self.call(json.dumps(body).encode("utf-8"), lambda raw: self._parse(raw, mode))

    def _parse(self, raw: bytes, mode: str) -> Verdict:
        s = self.settings
        where = f"{s.public_endpoint}: model {s.model!r}"
        try:
            data = json.loads(raw.decode("utf-8"))
            choice = data["choices"][0]
            answer = choice["message"]["content"] or ""
            if not isinstance(answer, str):
                raise TypeError("content is not text")
        except (UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as exc:
            raise ServiceError(f"{where}: not a chat completion ({type(exc).__name__}: "
                               f"{exc}); it begins {self._sample(raw)!r}") from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        try:
            prompt = int(usage.get("prompt_tokens") or 0)
            completion = int(usage.get("completion_tokens") or 0)
        except (TypeError, ValueError):
            raise ServiceError(f"{where}: malformed 'usage' {usage!r}") from None
        if mode == "logprobs":
            content = (choice.get("logprobs") or {}).get("content") \
                if isinstance(choice.get("logprobs"), dict) else None
            if not content:
                raise _NoLogprobs
            top = content[0].get("top_logprobs") or [content[0]]
            try:
                p_yes = sum(math.exp(float(t["logprob"])) for t in top
                            if str(t["token"]).strip().lower() in _YES)
            except (KeyError, TypeError, ValueError, OverflowError) as exc:
                raise ServiceError(f"{where}: malformed logprobs ({exc})") from None
            if not math.isfinite(p_yes):
                raise ServiceError(f"{where}: logprobs give a non-finite probability")
            return Verdict(min(p_yes, 1.0), answer, mode, False, prompt, completion)
        match = _RATING.search(answer)
        if match is None:
            return Verdict(FAILED, answer, mode, True, prompt, completion)
        return Verdict(float(match.group(1)), answer, mode, False, prompt, completion)


def judge_identity(settings: RerankSettings) -> str:
    """What a cached answer depends on: endpoint, model and the prompts' text."""
    prompts = hashlib.sha256(json.dumps([SYSTEM_PROMPT, PROMPTS]).encode()).hexdigest()[:16]
    return f"{settings.identity}|prompts={prompts}"


@dataclass
class JudgeCounts:
    """What judging cost: requests, cache hits, tokens, failures, per query."""

    requests: int = 0
    retries: int = 0
    cache_hits: int = 0
    texts_sent: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0
    wall_seconds: float = 0.0
    modes: set[str] = field(default_factory=set)
    per_query: dict[int, dict[str, int]] = field(default_factory=dict)


def judge_pairs(groups: Sequence[tuple[str, Sequence[str]]], judge: ChatJudge,
                cache: ScoreCache, *, should_stop: Any = None,
                status: Status | None = None) -> tuple[list[list[float]], JudgeCounts]:
    """The judge's score for every (query, code) of every group (cached answers read, the
    rest asked ``concurrency`` at a time and cached as they arrive), and the cost."""
    s = judge.settings
    began = time.perf_counter()
    identity = judge_identity(s)
    keys = [[ScoreCache.key(identity, q, t) for t in texts] for q, texts in groups]
    found = cache.get([k for row in keys for k in row])
    counts = JudgeCounts()
    lock = threading.Lock()
    tasks: list[tuple[int, int]] = []
    for g, row in enumerate(keys):
        hits = sum(k in found for k in row)
        counts.per_query[g] = {"requests": 0, "cache_hits": hits, "texts_sent": 0,
                               "failures": 0, "tokens": 0}
        counts.cache_hits += hits
        seen: set[str] = set()
        for i, k in enumerate(row):
            if k not in found and k not in seen:
                seen.add(k)
                tasks.append((g, i))

    def work(task: tuple[int, int]) -> Verdict:
        g, i = task
        query, texts = groups[g]
        verdict = judge.judge(query, texts[i])
        cache.put({keys[g][i]: verdict.to_json()})
        return verdict

    def done(task: tuple[int, int], verdict: Verdict) -> None:
        g, i = task
        found[keys[g][i]] = verdict.to_json()
        mine = counts.per_query[g]
        used = verdict.prompt_tokens + verdict.completion_tokens
        with lock:
            mine["texts_sent"] += 1
            mine["tokens"] += used
            counts.texts_sent += 1
            counts.prompt_tokens += verdict.prompt_tokens
            counts.completion_tokens += verdict.completion_tokens

    before, retries = judge.requests, judge.retries
    try:
        if tasks and not judge.probed:
            # one pair alone first: it tells whether the service gives logprobs, so no
            # parallel request asks the wrong way
            done(tasks[0], work(tasks[0]))
            tasks = tasks[1:]
            judge.probed = True
        run_bounded(tasks, work, concurrency=s.concurrency, stop=judge.stop,
                    should_stop=should_stop, done=done, name="judge")
    finally:
        counts.requests = judge.requests - before
        counts.retries = judge.retries - retries
        counts.wall_seconds = time.perf_counter() - began
    out: list[list[float]] = []
    for g, row in enumerate(keys):
        scores = []
        for k in row:
            answer = found[k]
            counts.modes.add(str(answer.get("mode")))
            if answer.get("failed"):
                counts.failures += 1
                counts.per_query[g]["failures"] += 1
            scores.append(float(answer["score"]))
        out.append(scores)
    for entry in counts.per_query.values():   # one request per pair sent (retries: total)
        entry["requests"] = entry["texts_sent"]
    return out, counts
