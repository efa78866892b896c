"""Qt item models of the Audit view: the queue of suites by suspicion, one suite's
surviving mutants (with the input engine's verdicts), its suggested tests, and its test x
mutant kill matrix. Thin adapters over the engine's
:class:`~execretrieval.audit.AuditResult`; formatting happens in ``data()``."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from execretrieval.audit import MutantRun, QueryAudit, SuggestedTest, Survivor

from .models import FAIL_BG, OBJECT_ROLE, PASS_BG, ListTableModel

__all__ = ["AuditQueueModel", "KillMatrixModel", "SuggestedTestsModel", "SurvivorsModel"]

_Index = QModelIndex | QPersistentModelIndex
SURVIVOR_BG = QColor("#fff1c2")
CRASH_BG = QColor("#f3dcc0")
REVIEWED_FG = QColor("#777777")
EQUIVALENT_FG = QColor("#8a8a8a")


class AuditQueueModel(ListTableModel):
    """Audited queries, most suspect first; reviewed ones are greyed and ticked."""

    COLUMNS = ("#", "Query", "Suspicion", "Score", "Survivors", "Reasons")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[QueryAudit] = []
        self.reviewed: frozenset[str] = frozenset()

    def set_audits(self, audits: Any) -> None:
        self.set_rows(audits)

    def set_reviewed(self, reviewed: frozenset[str]) -> None:
        self.reviewed = frozenset(reviewed)
        if self.rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self.rows) - 1, len(self.COLUMNS) - 1))

    def row_of(self, query_id: str) -> int:
        for i, audit in enumerate(self.rows):
            if audit.query_id == query_id:
                return i
        return -1

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        audit, col = self.row_at(index), index.column()
        if audit is None:
            return None
        if role == OBJECT_ROLE:
            return audit
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(audit.reasons) or "nothing suspect"
        if role == Qt.ItemDataRole.ForegroundRole and audit.query_id in self.reviewed:
            return REVIEWED_FG
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if col == 0:
            tick = "✓ " if audit.query_id in self.reviewed else ""
            return f"{tick}{index.row() + 1}"
        if col == 1:
            return f"{audit.function_name}  ({audit.query_id})"
        if col == 2:
            return f"{audit.suspicion:.3f}"
        if col == 3:
            return f"{audit.mutation_score:.2f} ({audit.killed}/{audit.mutants})"
        if col == 4:
            return str(len(audit.survivors))
        if col == 5:
            return "; ".join(audit.reasons)
        return None


class SurvivorsModel(ListTableModel):
    """The surviving mutants of one suite: the evidence that it is too weak. A likely
    equivalent one (no generated input tells it apart) is greyed, its verdict the reason."""

    COLUMNS = ("Bug type", "Verdict", "Line", "Edit")
    SHORT = {"weak": "weak suite", "likely_equivalent": "likely equivalent",
             "unclassified": "unclassified"}

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Survivor] = []
        self.seed: int | None = None   # the input seed the verdicts were found with

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        survivor, col = self.row_at(index), index.column()
        if survivor is None:
            return None
        if role == OBJECT_ROLE:
            return survivor
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{survivor.description}\n{survivor.verdict_text(self.seed)}"
        if role == Qt.ItemDataRole.ForegroundRole and survivor.equivalent:
            return EQUIVALENT_FG
        if role == Qt.ItemDataRole.DisplayRole:
            return (survivor.bug_type + (" (boundary)" if survivor.boundary else ""),
                    self.SHORT.get(survivor.verdict, "survives") + (
                        " (out of domain)" if survivor.outside_domain else ""),
                    str(survivor.line),
                    survivor.description)[col]
        return None


class SuggestedTestsModel(ListTableModel):
    """The suggested tests of one suite and the survivors each kills."""

    COLUMNS = ("Suggested test", "Kills")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[SuggestedTest] = []
        self.audit: QueryAudit | None = None

    def set_audit(self, audit: QueryAudit | None) -> None:
        self.audit = audit
        self.set_rows(audit.suggested_tests if audit is not None else [])

    def killed(self, test: SuggestedTest) -> list[Survivor]:
        survivors = self.audit.survivors if self.audit is not None else ()
        return [survivors[k] for k in test.kills if 0 <= k < len(survivors)]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        test, col = self.row_at(index), index.column()
        if test is None:
            return None
        if role == OBJECT_ROLE:
            return test
        killed = self.killed(test)
        if role == Qt.ItemDataRole.ToolTipRole:
            domain = (f"\n\noutside the suite's domain: {test.outside_domain}"
                      if test.outside_domain else "")
            return test.test + domain + "\n\nkills:\n" + "\n".join(
                f"{s.bug_type}: {s.description} (canonical {s.canonical_output}, "
                f"mutant {s.mutant_output} on {s.distinguishing_input})" for s in killed)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return ("⚠ out of domain: " if test.outside_domain else "") + \
                    test.test.replace("\n", " ⏎ ")
            return "; ".join(f"{s.bug_type} (line {s.line})" for s in killed)
        return None


class KillMatrixModel(QAbstractTableModel):
    """Tests (rows) x mutants (columns): which test kills which mutant.

    A cell reads ✗ when the test fails the mutant by assertion, ! when it only crashes or
    times out on it; survivors come first, their whole column shaded.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.audit: QueryAudit | None = None
        self.runs: list[MutantRun] = []
        self.survived: list[bool] = []

    def set_audit(self, audit: QueryAudit | None) -> None:
        self.beginResetModel()
        self.audit = audit
        runs = list(audit.runs) if audit is not None else []
        alive = [audit is not None and not any(audit.kills(r, t)
                                                for t in range(len(audit.tests)))
                 for r in runs]
        order = sorted(range(len(runs)), key=lambda j: (not alive[j], j))
        self.runs = [runs[j] for j in order]
        self.survived = [alive[j] for j in order]
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.audit is None else len(self.audit.tests)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.runs)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if self.audit is None:
            return None
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self.runs):
                return None
            run = self.runs[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{'★' if self.survived[section] else ''}{section + 1}"
            if role == Qt.ItemDataRole.ToolTipRole:
                state = "survives" if self.survived[section] else "killed"
                return f"{run.mutant.bug_type}: {run.mutant.description} ({state})"
            return None
        if not 0 <= section < len(self.audit.tests):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return f"test {section + 1}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.audit.tests[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        audit = self.audit
        if audit is None or not index.isValid():
            return None
        test, col = index.row(), index.column()
        if not (0 <= test < len(audit.tests) and 0 <= col < len(self.runs)):
            return None
        run = self.runs[col]
        status = run.statuses[test]
        killed = audit.kills(run, test)
        if role == OBJECT_ROLE:
            return run
        if role == Qt.ItemDataRole.DisplayRole:
            return ("✗" if status == "fail" else "!") if killed else ""
        if role == Qt.ItemDataRole.BackgroundRole:
            if self.survived[col]:
                return SURVIVOR_BG
            if killed:
                return FAIL_BG if status == "fail" else CRASH_BG
            return PASS_BG
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"test {test + 1} on mutant {col + 1}: {status}\n"
                    f"{run.mutant.bug_type}: {run.mutant.description}")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None
