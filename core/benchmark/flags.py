"""A flag: an annotator's verdict on one query, one of its tests or one candidate.

A flag belongs to a query of a named benchmark and remembers a hash of that query's own
content (:func:`query_content_hash`: its text, function name, tests and canonical code) at
the time it was made. Editing another query changes nothing for it; editing its own query
makes it ``stale`` ("changed since flagged") without losing it.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..errors import AnnotationError

__all__ = ["CATEGORIES", "CATEGORY_TARGETS", "STATUSES", "TARGETS", "Flag", "categories_for",
           "check_target", "default_annotator", "query_content_hash"]

#: category key -> label shown to the user
CATEGORIES: dict[str, str] = {
    "test_stricter": "Test stricter than the query",
    "test_too_weak": "Test too weak (a mutant passes)",
    "ambiguous_query": "Ambiguous query",
    "not_single_edit": "Distractor not a single edit",
    "distractor_correct": "Distractor actually correct",
    "other": "Other",
}
TARGETS = ("query", "test", "candidate")
#: category -> what it can be said of: a distractor's edit or correctness is about a
#: candidate, never about the suite; a test can be too strict or too weak, and so can the suite
CATEGORY_TARGETS: dict[str, tuple[str, ...]] = {
    "test_stricter": ("query", "test"),
    "test_too_weak": ("query", "test", "candidate"),
    "ambiguous_query": ("query", "test"),
    "not_single_edit": ("candidate",),
    "distractor_correct": ("candidate",),
    "other": TARGETS,
}
_TARGET_NAMES = {"query": "the query's suite", "test": "a test", "candidate": "a candidate"}
STATUSES = ("open", "resolved")


def query_content_hash(query_text: str, function_name: str, tests: Any,
                       canonical_code: str) -> str:
    """16 hex digits over what a flag on this query is about (not its id or domain)."""
    payload = json.dumps({"query": query_text, "function_name": function_name,
                          "tests": list(tests), "canonical": canonical_code},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def categories_for(target: str) -> list[str]:
    """The categories a flag on ``target`` ("query", "test", "candidate") can have."""
    return [c for c in CATEGORIES if target in CATEGORY_TARGETS.get(c, TARGETS)]


def check_target(category: str, target: str) -> None:
    """Refuse a new flag whose category cannot be said of its target (a suite flagged
    "Distractor not a single edit"). Flags already stored are read back as they are."""
    if category in CATEGORIES and target in TARGETS and category not in categories_for(target):
        allowed = " or ".join(_TARGET_NAMES[t] for t in CATEGORY_TARGETS[category])
        raise AnnotationError(f"“{CATEGORIES[category]}” is said of {allowed}, not of "
                              f"{_TARGET_NAMES[target]}: choose another target or category")


def default_annotator() -> str:
    """The OS user name, or "unknown" where the OS has none to give."""
    try:
        return getpass.getuser() or "unknown"
    except (KeyError, OSError):
        return "unknown"


@dataclass(frozen=True)
class Flag:
    """One verdict. ``target`` is 'query', 'test' (``test_index``, 0-based, set) or
    'candidate' (``corpus_id`` set). ``flag_id`` is None until the store has saved it;
    ``stale`` is computed by the store when it reads the flag back."""

    query_id: str
    category: str
    target: str = "query"
    test_index: int | None = None
    corpus_id: str | None = None
    note: str = ""
    annotator: str = ""
    status: str = "open"
    created: str = ""
    content_hash: str = ""
    benchmark: str = ""
    flag_id: int | None = None
    stale: bool = False

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise AnnotationError(f"unknown flag category {self.category!r}; expected one of "
                                  f"{', '.join(CATEGORIES)}")
        if self.target not in TARGETS:
            raise AnnotationError(f"unknown flag target {self.target!r}; expected one of "
                                  f"{', '.join(TARGETS)}")
        if self.status not in STATUSES:
            raise AnnotationError(f"unknown flag status {self.status!r}; expected open or "
                                  "resolved")
        if self.target == "test" and (self.test_index is None or self.test_index < 0):
            raise AnnotationError("a flag on a test needs its test number")
        if self.target == "candidate" and not self.corpus_id:
            raise AnnotationError("a flag on a candidate needs corpus_id")

    @property
    def category_label(self) -> str:
        return CATEGORIES[self.category]

    @property
    def test(self) -> int | None:
        """The flagged test's 1-based number, as the GUI and the CLI show it."""
        return None if self.test_index is None else self.test_index + 1

    def describe_target(self) -> str:
        """'query', 'test 3' (1-based) or 'candidate c_0004'."""
        if self.target == "test":
            return f"test {self.test}"
        if self.target == "candidate":
            return f"candidate {self.corpus_id}"
        return "query"

    def to_dict(self) -> dict[str, Any]:
        """The listing form (``execretrieval flags --json``): 1-based ``test``."""
        return {"query_id": self.query_id, "category": self.category, "note": self.note,
                "test": self.test, "annotator": self.annotator, "status": self.status,
                "stale": self.stale, "created": self.created, "flag_id": self.flag_id,
                "target": self.target, "corpus_id": self.corpus_id}
