"""What the oracle reports: per-test outcomes and per-suite results (plain, picklable data).

Kept apart from :mod:`.execution` so the result cache and every layer above the oracle can
use the result types without importing the machinery that produces them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["STATUSES", "SuiteResult", "TestOutcome"]

STATUSES = ("pass", "fail", "timeout", "error")


@dataclass(frozen=True)
class TestOutcome:
    """The outcome of one test: ``status`` is one of :data:`STATUSES`; ``output`` is what the
    test printed (stdout and stderr, in the order written; truncated), told apart by the
    runner at the test's boundaries, never by parsing what was printed. What loading the
    candidate's module printed is the suite's ``setup_output`` instead, unless this test's
    load printed something else."""

    __test__ = False  # not a pytest test class

    test: str
    status: str
    detail: str = ""
    output: str = ""


@dataclass(frozen=True)
class SuiteResult:
    """The outcomes of one suite, what loading the candidate printed (``setup_output``),
    and whether it was cached. Each test's own output is on its outcome; :attr:`output`
    joins them all."""

    outcomes: tuple[TestOutcome, ...]
    setup_output: str = ""
    cached: bool = False
    duration: float = 0.0

    @property
    def output(self) -> str:
        """All captured output: the setup part, then each test's, in test order."""
        return self.setup_output + "".join(o.output for o in self.outcomes)

    @property
    def passed(self) -> bool:
        """True when there is at least one test and every test passed."""
        return bool(self.outcomes) and all(o.status == "pass" for o in self.outcomes)

    @property
    def has_assertion_failure(self) -> bool:
        """True when at least one test failed an assertion (a wrong output, not a crash)."""
        return any(o.status == "fail" for o in self.outcomes)

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(o.status for o in self.outcomes)

    def first_problem(self) -> str:
        """The first test that did not pass, for messages: ``"test 3 fail: <detail>"``."""
        for i, outcome in enumerate(self.outcomes, start=1):
            if outcome.status != "pass":
                detail = f": {outcome.detail}" if outcome.detail else ""
                return f"test {i} {outcome.status}{detail}"
        return "no tests ran"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reverses it."""
        return {"outcomes": [asdict(o) for o in self.outcomes],
                "setup_output": self.setup_output, "cached": self.cached,
                "duration": self.duration}

    @classmethod
    def from_dict(cls, d: dict[str, Any], *, cached: bool | None = None) -> SuiteResult:
        """Rebuild a result from :meth:`to_dict` output; ``cached`` overrides the stored flag."""
        outcomes = tuple(TestOutcome(str(o["test"]), str(o["status"]), str(o.get("detail", "")),
                                     str(o.get("output", "")))
                         for o in d["outcomes"])
        if any(o.status not in STATUSES for o in outcomes):
            raise ValueError("unknown status in a stored suite result")
        # "output" is the whole-suite text of results stored before per-test output
        setup = d.get("setup_output", d.get("output", ""))
        return cls(outcomes=outcomes, setup_output=str(setup),
                   cached=bool(d.get("cached", False)) if cached is None else cached,
                   duration=float(d.get("duration", 0.0)))
