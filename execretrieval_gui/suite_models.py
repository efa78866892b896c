"""Qt item models for the tests panel (per-test outcomes, candidates x tests) and flags."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from execretrieval.benchmark.annotations import Flag

from .models import (
    ALIGN_CENTER,
    FAIL_BG,
    OBJECT_ROLE,
    PASS_BG,
    PENDING_BRUSH,
    R_ALIGN,
    R_BACKGROUND,
    R_DISPLAY,
    R_FONT,
    R_FOREGROUND,
    R_TOOLTIP,
    ListTableModel,
)

__all__ = ["STATUS_BG", "FlagsModel", "MatrixModel", "OutcomeModel", "breakable",
           "status_symbol"]

_Index = QModelIndex | QPersistentModelIndex
STATUS_BG = {"pass": PASS_BG, "fail": FAIL_BG, "error": QColor("#f9dcb4"),
             "timeout": QColor("#e2d4f0")}
_STATUS_BRUSH = {status: QBrush(color) for status, color in STATUS_BG.items()}
_SPLIT_BRUSH = {"V": QBrush(QColor("#fff4d6")), "H": QBrush(QColor("#e8eefc"))}
_SYMBOL = {"pass": "✓", "fail": "✗", "error": "!", "timeout": "⏱"}


def status_symbol(status: str | None) -> str:
    return _SYMBOL.get(status or "", "·")


def _outcome_list(result: Any) -> list[Any]:
    return list(getattr(result, "outcomes", ()) or ())


_BREAKS = str.maketrans({c: c + "\u200b" for c in "([{,"})


def breakable(text: str) -> str:
    """``text`` with a zero-width space after each opening bracket and comma: a wrapped cell
    may break a long call there instead of eliding it (display only; copies use the test)."""
    return text.translate(_BREAKS)


_MONO: list[Any] = []


def _mono_font() -> Any:
    """The tests' monospace font, made once: every paint and size hint of a Test cell asks
    for it (a new QFont per call, several per outcome row on each query switch)."""
    if not _MONO:
        from PySide6.QtGui import QFont

        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        _MONO.append(font)
    return _MONO[0]


# the roles OutcomeModel.data serves: a delegate asks seven of each cell it paints or
# measures, and the others are answered before any outcome is looked up
_OUTCOME_ROLES = frozenset((int(OBJECT_ROLE), R_DISPLAY, R_BACKGROUND, R_TOOLTIP, R_FONT))


def _message(out: Any) -> str:
    """The line of a failure's detail that says what went wrong (its last non-empty one)."""
    lines = [ln.strip() for ln in (getattr(out, "detail", "") or "").splitlines() if ln.strip()]
    return lines[-1] if lines else ""


class OutcomeModel(QAbstractTableModel):
    """The query's tests with their outcome for one candidate, and optionally a second run
    (a scratch edit) to compare against.

    The Test cell reads as a whole: the test, and under it what went wrong when it did not
    pass (of the scratch run while one is compared), so a narrow panel wraps it instead of
    hiding it in a column off to the right. The Detail column keeps the first line alone.
    """

    COLUMNS = ("#", "Test", "Outcome", "Detail")
    NUMBER, TEST, OUTCOME, DETAIL, SCRATCH = range(5)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.tests: tuple[str, ...] = ()
        self.result: Any = None
        self.compare: Any = None   # SuiteResult of a scratch run, shown as extra column
        self.visible: frozenset[int] | None = None   # under a split: the visible tests
        # the outcomes of ``result`` and ``compare`` as lists, made once per set_tests():
        # data() looks one up for every role of every cell
        self._lists: tuple[list[Any], list[Any]] = ([], [])

    def set_visible(self, visible: tuple[int, ...] | None) -> bool:
        """Mark each test visible (V: a pipeline's stages may run it) or held out (H: what
        correctness is judged on); None: no split, no marks. True if the marks changed."""
        new = None if visible is None else frozenset(visible)
        changed = new != self.visible
        self.visible = new
        if self.tests and changed:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.tests) - 1, 0))
        return changed

    def split_mark(self, row: int) -> str:
        """"V" (visible), "H" (held out) or "" without a split."""
        if self.visible is None:
            return ""
        return "V" if row in self.visible else "H"

    def set_tests(self, tests: tuple[str, ...], result: Any = None, compare: Any = None) -> None:
        self.beginResetModel()
        self.tests, self.result, self.compare = tuple(tests), result, compare
        self._lists = (_outcome_list(result), _outcome_list(compare))
        self.endResetModel()

    def outcome(self, row: int, result: Any = None) -> Any:
        if result is None or result is self.result:
            outcomes = self._lists[0]
        elif result is self.compare:
            outcomes = self._lists[1]
        else:
            outcomes = _outcome_list(result)
        return outcomes[row] if 0 <= row < len(outcomes) else None

    def printed(self, row: int) -> tuple[str, str] | None:
        """(what the row's test printed, what loading the code printed) in the run shown
        (the scratch run while one is compared); None while there is no outcome yet."""
        result = self.compare if self.compare is not None else self.result
        out = self.outcome(row, result)
        if out is None:
            return None
        return getattr(out, "output", "") or "", getattr(result, "setup_output", "") or ""

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.tests)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return len(self.COLUMNS) + (1 if self.compare is not None else 0)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == R_DISPLAY and orientation == Qt.Orientation.Horizontal:
            if section < len(self.COLUMNS):
                return self.COLUMNS[section]
            if section == len(self.COLUMNS) and self.compare is not None:
                return "Scratch run"
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _OUTCOME_ROLES or not index.isValid() \
                or not (0 <= index.row() < len(self.tests)):
            return None
        row, col = index.row(), index.column()
        if col >= len(self.COLUMNS) + (self.compare is not None):
            return None
        out = self.outcome(row)
        if col == 4:
            out = self.outcome(row, self.compare)
        status = getattr(out, "status", None)
        if role == OBJECT_ROLE:
            return out
        if role == R_DISPLAY:
            if col == 0:
                mark = self.split_mark(row)
                return f"{mark} {row + 1}" if mark else str(row + 1)
            if col == 1:
                shown = self.outcome(row, self.compare) if self.compare is not None else out
                message = _message(shown) if getattr(shown, "status", "pass") != "pass" \
                    else ""
                test = breakable(self.tests[row])
                return f"{test}\n→ {breakable(message)}" if message else test
            if col in (2, 4):
                return f"{status_symbol(status)} {status}" if status else "…"
            if col == 3:
                lines = (getattr(out, "detail", "") or "").splitlines()
                return lines[0] if lines else ""
        if role == R_BACKGROUND and col in (2, 4):
            return _STATUS_BRUSH.get(status or "", PENDING_BRUSH)
        if role == R_BACKGROUND and col == 0 and self.split_mark(row):
            return _SPLIT_BRUSH["V" if self.split_mark(row) == "V" else "H"]
        if role == R_TOOLTIP and col == 0 and self.split_mark(row):
            return ("visible test: a pipeline's stages may run it (not judged on it)"
                    if self.split_mark(row) == "V" else
                    "held-out test: correctness is judged on it (no stage runs it)")
        if role == R_TOOLTIP:
            detail = getattr(out, "detail", "") or ""
            lines = len((getattr(out, "output", "") or "").splitlines())
            printed = f"\nprinted {lines} line{'s' * (lines != 1)} (Ctrl+Shift+O shows it)" \
                if lines else ""
            return f"{self.tests[row]}\n{detail}".strip() + printed
        if role == R_FONT and col == 1:
            return _mono_font()
        return None


class MatrixModel(QAbstractTableModel):
    """Rows = the top-k candidates, columns = the tests; a cell is that test's outcome."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.labels: list[str] = []       # row headers ("1 c_0004")
        self.results: list[Any] = []      # SuiteResult | None per row
        self.n_tests = 0

    def set_rows(self, labels: list[str], results: list[Any], n_tests: int) -> None:
        self.beginResetModel()
        self.labels, self.results, self.n_tests = list(labels), list(results), n_tests
        self.endResetModel()

    def set_result(self, row: int, result: Any) -> None:
        if 0 <= row < len(self.results):
            self.results[row] = result
            self.dataChanged.emit(self.index(row, 0), self.index(row, max(0, self.n_tests - 1)))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.labels)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.n_tests

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return f"t{section + 1}" if 0 <= section < self.n_tests else None
        return self.labels[section] if 0 <= section < len(self.labels) else None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self.labels)):
            return None
        if not (0 <= index.column() < self.n_tests):
            return None
        outcomes = _outcome_list(self.results[index.row()])
        out = outcomes[index.column()] if index.column() < len(outcomes) else None
        status = getattr(out, "status", None)
        if role == OBJECT_ROLE:
            return out
        if role == R_DISPLAY:
            return status_symbol(status)
        if role == R_BACKGROUND:
            return _STATUS_BRUSH.get(status or "", PENDING_BRUSH)
        if role == R_ALIGN:
            return ALIGN_CENTER
        if role == R_TOOLTIP and out is not None:
            return f"{out.test}\n{status}: {out.detail or ''}".strip()
        return None


class FlagsModel(ListTableModel):
    """The flags of the selected query: a stale one (its query changed since) is marked."""

    COLUMNS = ("On", "Category", "Note", "Who", "Status", "When")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Flag] = []

    @property
    def items(self) -> list[Flag]:
        """The flags shown, in row order."""
        return self.rows

    def set_flags(self, flags: list[Flag]) -> None:
        self.set_rows(flags)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        flag, col = self.row_at(index), index.column()
        if flag is None:
            return None
        if role == OBJECT_ROLE:
            return flag
        if role == R_TOOLTIP:   # the whole flag, whichever column is hidden
            when = flag.created[:16].replace("T", " ")
            stale = " · changed since flagged" if flag.stale else ""
            return (f"{flag.describe_target()} · {flag.category_label} · {flag.annotator or '?'}"
                    f" · {flag.status}{stale} · {when}\n{flag.note}")
        if role == R_FOREGROUND and flag.status == "resolved":
            return QColor("#888888")
        if role == R_DISPLAY:
            if col == 0:
                return flag.describe_target()
            if col == 1:
                return flag.category_label
            if col == 2:
                return flag.note
            if col == 3:
                return flag.annotator
            if col == 4:
                return flag.status + (" · stale" if flag.stale else "")
            if col == 5:
                return flag.created[:16].replace("T", " ")
        return None
