"""Every Qt item model passes pytest-qt's model tester, empty and filled; the workers behave."""



from __future__ import annotations

import threading
from pathlib import Path

import pytest
from _gui_fixtures import no_leftover_work  # noqa: F401
from PySide6.QtCore import QModelIndex, Qt

from execretrieval import load_benchmark
from execretrieval.benchmark.annotations import Flag
from execretrieval.measure.statistics import MetricCI
from execretrieval.oracle.results import SuiteResult, TestOutcome
from execretrieval.ranking.registry import rank
from execretrieval_gui.engine import query_status
from execretrieval_gui.filters import QueryFilter, QueryFilterProxy
from execretrieval_gui.metric_models import Discordant, DiscordantModel, MetricsModel
from execretrieval_gui.models import CandidateRow, CandidatesModel, QueryTableModel, role_of
from execretrieval_gui.suite_models import FlagsModel, MatrixModel, OutcomeModel
from execretrieval_gui.workers import Task, TaskSlot, emit_partial


@pytest.fixture
def tiny(tiny_dir: Path):  # type: ignore[no-untyped-def]
    bench = load_benchmark(tiny_dir)
    return bench, rank(bench, "bm25")


def _result(tests: tuple[str, ...], passing: int) -> SuiteResult:
    return SuiteResult(tuple(TestOutcome(t, "pass" if i < passing else "fail", "boom")
                             for i, t in enumerate(tests)))


def test_query_model_and_filter_proxy(qtmodeltester, tiny) -> None:  # type: ignore[no-untyped-def]
    bench, ranking = tiny
    model = QueryTableModel()
    qtmodeltester.check(model)
    model.set_benchmark(bench)
    model.set_status(query_status(bench, ranking), query_status(bench, rank(bench, "minilm")))
    model.set_flagged({"q_0002"})
    qtmodeltester.check(model)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filter(QueryFilter(flagged_only=True))
    qtmodeltester.check(proxy)
    assert proxy.rowCount() == 1
    proxy.set_filter(QueryFilter(discordant="a_only"))
    assert proxy.rowCount() == 2


def test_painting_the_query_list_does_not_map_every_role(qtbot, tiny) -> None:  # type: ignore[no-untyped-def]
    """The filter proxy maps every data() call it forwards through the source's index();
    QAbstractTableModel's asks rowCount() and columnCount() each time, two calls into
    Python per role of every painted cell (a repaint after a query switch asked ~1,000)."""
    from PySide6.QtWidgets import QTableView

    class Counting(QueryTableModel):
        counted = asked = mapped = 0

        def rowCount(self, parent=QModelIndex()):  # type: ignore[no-untyped-def]  # noqa: B008
            Counting.counted += 1
            return super().rowCount(parent)

        def index(self, row, column, parent=QModelIndex()):  # type: ignore[no-untyped-def]  # noqa: B008
            Counting.mapped += 1
            return super().index(row, column, parent)

        def data(self, index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
            Counting.asked += 1
            return super().data(index, role)

    bench, ranking = tiny
    model = Counting()
    model.set_benchmark(bench)
    model.set_status(query_status(bench, ranking), None)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(proxy)
    view.resize(400, 300)
    view.show()
    view.viewport().grab()   # paints every cell, as a scroll does
    Counting.counted = Counting.asked = Counting.mapped = 0
    view.viewport().grab()
    cells = len(bench.queries) * model.columnCount()
    assert Counting.asked >= cells   # it painted
    assert Counting.counted < cells, (Counting.counted, cells)
    # and each cell is mapped to the source for its flags and once for all its roles (a
    # delegate asks seven in one multiData), not once for every role
    assert Counting.mapped <= 2 * cells, (Counting.mapped, cells)


def test_candidates_model(qtmodeltester, tiny) -> None:  # type: ignore[no-untyped-def]
    bench, ranking = tiny
    model = CandidatesModel()
    qtmodeltester.check(model)
    query = bench.queries[0]
    rows = []
    for r, j in enumerate(ranking.top(0, 10)):
        snippet = bench.corpus[int(j)]
        rows.append(CandidateRow(r + 1, int(j), snippet, 1.0 - r / 10, -r / 10,
                                 role_of(query, snippet)))
    model.set_rows(rows, len(query.test_suite))
    model.set_pending({rows[0].snippet.corpus_id})
    model.set_outcome(rows[1].snippet.corpus_id, _result(query.test_suite, 3))
    qtmodeltester.check(model)
    assert model.index(1, CandidatesModel.BADGE).data() == "FAIL 3/8"
    assert model.index(0, CandidatesModel.BADGE).data() == "running…"
    assert model.index(0, CandidatesModel.B_RANK).data() == ""      # no model B
    model.set_b_ranks([r + 1 for r in range(len(rows) - 1)] + [None], "minilm")
    qtmodeltester.check(model)
    assert model.index(2, CandidatesModel.B_RANK).data() == "3"
    assert model.index(len(rows) - 1, CandidatesModel.B_RANK).data() == "—"   # not in B's run
    model.set_rows(rows, len(query.test_suite))                     # a new query: no stale ranks
    assert model.index(2, CandidatesModel.B_RANK).data() == ""
    with pytest.raises(ValueError, match="B ranks"):
        model.set_b_ranks([1], "minilm")


def _painted_as(model, index):  # type: ignore[no-untyped-def]
    """What a delegate paints of the cell (Qt 6 asks its roles in one multiData())."""
    from PySide6.QtGui import QBrush, QPalette
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

    option = QStyleOptionViewItem()
    QStyledItemDelegate().initStyleOption(option, index)
    # the delegate shows a line break as U+2028, whoever answered the roles
    return (option.text.replace("\u2028", "\n"), int(option.displayAlignment),
            QBrush(option.backgroundBrush),
            QBrush(option.palette.brush(QPalette.ColorRole.Text)))


def _asked_as(model, index):  # type: ignore[no-untyped-def]
    """The same from data(), one role at a time (what a test, a tooltip or a sort asks)."""
    from PySide6.QtGui import QBrush, QPalette
    from PySide6.QtWidgets import QStyleOptionViewItem

    default = QStyleOptionViewItem()
    text = index.data(Qt.ItemDataRole.DisplayRole)
    align = index.data(Qt.ItemDataRole.TextAlignmentRole)
    background = index.data(Qt.ItemDataRole.BackgroundRole)
    foreground = index.data(Qt.ItemDataRole.ForegroundRole)
    return ("" if text is None else text,
            int(default.displayAlignment) if align is None else int(align),
            QBrush() if background is None else background,
            QBrush(default.palette.brush(QPalette.ColorRole.Text)) if foreground is None
            else foreground)


def test_painted_cells_say_what_data_says(qtbot, tiny) -> None:  # type: ignore[no-untyped-def]
    """The query list's proxy answers a delegate's roles in a multiData() of its own (the
    candidates and outcomes models in Qt's): every cell is painted as data() gives it, role
    by role."""
    bench, ranking = tiny
    model = QueryTableModel()
    model.set_benchmark(bench)
    model.set_status(query_status(bench, ranking), None)
    model.set_flagged({bench.queries[1].query_id})
    proxy = QueryFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(QueryTableModel.CANON, Qt.SortOrder.DescendingOrder)   # rows mapped apart
    query = bench.queries[0]
    rows = []
    for r, j in enumerate(ranking.top(0, 10)):
        snippet = bench.corpus[int(j)]
        tie = (4, 5) if r in (3, 4) else (0, 0)   # ranks 4-5 share a score
        rows.append(CandidateRow(r + 1, int(j), snippet, 1.0 - r / 10, -r / 10,
                                 role_of(query, snippet), rank_best=tie[0], rank_worst=tie[1]))
    candidates = CandidatesModel()
    candidates.set_rows(rows, len(query.test_suite))
    candidates.set_outcome(rows[1].snippet.corpus_id, _result(query.test_suite, 3))
    candidates.set_outcome(rows[2].snippet.corpus_id, _result(query.test_suite, 8))
    candidates.set_pending({rows[0].snippet.corpus_id})
    outcomes = OutcomeModel()
    outcomes.set_tests(query.test_suite, _result(query.test_suite, 5),
                       _result(query.test_suite, 7))
    seen = set()
    for m in (proxy, candidates, outcomes):
        for r in range(m.rowCount()):
            for c in range(m.columnCount()):
                painted = _painted_as(m, m.index(r, c))
                assert painted == _asked_as(m, m.index(r, c)), (type(m).__name__, r, c)
                seen.add(painted[0])
    assert {"⚑", "FAIL 3/8", "PASS 8/8", "running…", "≡ 4-5", "✓ pass", "✗ fail"} <= seen
    # the test column in the fixed-width font data() gives it
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem
    option = QStyleOptionViewItem()
    QStyledItemDelegate().initStyleOption(option, outcomes.index(0, OutcomeModel.TEST))
    mono = outcomes.index(0, OutcomeModel.TEST).data(Qt.ItemDataRole.FontRole)
    assert option.font.family() == mono.family() != QStyleOptionViewItem().font.family()
    # a cell that is no longer there paints nothing (an index kept across a reset)
    stale = candidates.index(len(rows) - 1, 0)
    candidates.set_rows(rows[:2], len(query.test_suite))
    assert _painted_as(candidates, stale)[0] == ""
    stale = outcomes.index(len(query.test_suite) - 1, OutcomeModel.TEST)
    outcomes.set_tests(query.test_suite[:2], None, None)
    assert _painted_as(outcomes, stale)[0] == ""


def test_outcome_matrix_and_flag_models(qtmodeltester, tiny) -> None:  # type: ignore[no-untyped-def]
    bench, _ = tiny
    tests = bench.queries[0].test_suite
    outcomes = OutcomeModel()
    qtmodeltester.check(outcomes)
    outcomes.set_tests(tests, _result(tests, 8), _result(tests, 2))
    qtmodeltester.check(outcomes)
    assert outcomes.columnCount() == 5
    matrix = MatrixModel()
    matrix.set_rows(["1 c_0001", "2 c_0002"], [_result(tests, 8), None], len(tests))
    qtmodeltester.check(matrix)
    matrix.set_result(1, _result(tests, 1))
    assert matrix.index(1, 1).data() == "✗"
    flags = FlagsModel()
    flags.set_flags([Flag("q_0001", "other", note="x", created="2026-01-01T00:00:00")])
    qtmodeltester.check(flags)
    # the panel hides the time column: every cell's tooltip carries the whole flag
    tip = flags.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "2026-01-01 00:00" in tip and tip.endswith("\nx")


def test_metrics_models(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    from types import SimpleNamespace

    ev = SimpleNamespace(model="bm25", metrics={"exec@1": MetricCI(0.25, 0.1, 0.4),
                                                "ndcg@1": MetricCI(0.5, 0.3, 0.7)})

    metrics = MetricsModel()
    qtmodeltester.check(metrics)
    metrics.set_evaluations([ev, ev])
    qtmodeltester.check(metrics)
    assert metrics.index(0, 1).data() == "0.250  [0.100, 0.400]"
    discordant = DiscordantModel()
    discordant.set_comparison([Discordant("q_0001", "lowest_set_bit", "bm25", 0.0, 1.0),
                               Discordant("q_0002", "clamp", "bm25", 0.0, 0.25)],
                              "minilm", "bm25", "exec@1")
    qtmodeltester.check(discordant)
    assert [discordant.index(r, 3).data() for r in range(2)] == ["decided", "tie"]
    assert discordant.headerData(4, Qt.Orientation.Horizontal) == "minilm"


def test_many_emits_do_not_crash(qtbot) -> None:  # type: ignore[no-untyped-def]
    """PySide6 6.12 on Python 3.11 steals references to None/True on every void call and
    emit (see execretrieval_gui.qtcompat); thousands of them must not abort the app."""
    slot = TaskSlot("none")
    seen: list[object] = []
    for _ in range(30):
        with qtbot.waitSignal(slot.busy_changed, timeout=5000, check_params_cb=lambda b: not b):
            slot.start(lambda p, s: [emit_partial(None) for _ in range(300)] and None,
                       on_result=seen.append, on_partial=lambda v: None)
    assert seen == [None] * 30


def test_task_slot_drops_stale_results(qtbot) -> None:  # type: ignore[no-untyped-def]
    slot = TaskSlot("t")
    seen: list[str] = []
    gate = threading.Event()

    def slow(progress, should_stop):  # type: ignore[no-untyped-def]
        gate.wait(5)
        return "stale"

    first = slot.start(slow, on_result=seen.append)
    with qtbot.waitSignal(slot.busy_changed, timeout=5000, check_params_cb=lambda b: not b):
        slot.start(lambda p, s: "fresh", on_result=seen.append)
    gate.set()
    qtbot.waitUntil(first.done.is_set, timeout=5000)
    qtbot.wait(50)
    assert seen == ["fresh"]
    assert first.cancelled


def test_task_reports_errors_partials_and_throttled_progress(qtbot) -> None:  # type: ignore[no-untyped-def]
    def work(progress, should_stop):  # type: ignore[no-untyped-def]
        for i in range(1000):
            progress(i + 1, 1000)
        emit_partial("half")
        raise ValueError("no good")

    task = Task(work)
    progress: list[tuple[int, int]] = []
    partials: list[str] = []
    task.signals.progress.connect(lambda d, t: progress.append((d, t)))
    task.signals.partial.connect(partials.append)
    with qtbot.waitSignal(task.signals.error, timeout=5000) as blocker:
        task.start()
    qtbot.waitUntil(task.done.is_set, timeout=5000)
    qtbot.wait(20)
    assert isinstance(blocker.args[0], ValueError)
    assert partials == ["half"]
    assert progress[-1] == (1000, 1000) and len(progress) < 50   # throttled


def test_leftover_work_fixture_fails_such_a_test(tmp_path: Path) -> None:
    """The autouse fixture of _gui_fixtures fails a test that leaves pool work running."""
    import os
    import subprocess
    import sys
    import textwrap

    tests_dir = Path(__file__).resolve().parent
    (tmp_path / "test_leaky.py").write_text(textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(tests_dir)!r})
        from _gui_fixtures import no_leftover_work  # noqa: F401
        from execretrieval_gui.workers import Task

        def test_leaks(qtbot):
            Task(lambda p, s: time.sleep(3)).start()
    """))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_leaky.py")], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120, check=False)
    assert proc.returncode == 1, proc.stdout
    assert "left work running on the QThreadPool" in proc.stdout
