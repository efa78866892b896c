"""The metrics view: exec@k / execp@k / nDCG@k with CIs, analyses, charts, comparison."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .charts import BarChart
from .columns import ColumnFitter
from .metric_models import (
    CostModel,
    DiscordantModel,
    MetricsModel,
    SliceMetricsModel,
    discordant_rows,
)
from .models import OBJECT_ROLE

if TYPE_CHECKING:
    from .reporting import Reporter
    from .state import InspectorState

__all__ = ["MetricsView"]


_TESTS = {"mcnemar_exact": "McNemar exact", "sign_flip_exact": "exact sign-flip",
          "sign_flip_monte_carlo": "sign-flip (Monte Carlo)"}


DISCORDANT_ROWS = 12   # rows of the discordant list shown before it scrolls
COMPARE_IN_COLUMN = 640   # px: a left column this wide holds the comparison's six columns


def _fit_height(view: QTableView, rows: int) -> None:
    """``view`` exactly as tall as its header and ``rows`` rows (and its horizontal scroll
    bar, should its columns not fit)."""
    bar = view.horizontalScrollBar()
    extra = bar.sizeHint().height() if bar.isVisibleTo(view) else 0
    view.setFixedHeight(view.horizontalHeader().sizeHint().height() + 2 * view.frameWidth()
                        + view.verticalHeader().defaultSectionSize() * rows + extra)


def _pct(x: float) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _ties(ev: Any) -> str:
    """The tie policy, how many queries tie across the cuts, and the exec@1/@10 range."""
    report = getattr(ev, "tie_report", None) or {}
    if not report:
        return ""
    cuts = report.get("queries_tied_at_cut", {})
    ranges = report.get("range", {})
    tied = ", ".join(f"{n} at k={k}" for k, n in cuts.items() if k in ("1", "10"))
    spans = "; ".join(f"{m} {ranges[m]['pessimistic']:.3f}–{ranges[m]['optimistic']:.3f}"
                      for m in ("exec@1", "exec@10") if m in ranges)
    return (f"<br>&nbsp;&nbsp;ties counted as <b>{report.get('policy', 'expected')}</b>: "
            f"queries tied across the cut: {tied or 'none'}; range from ties broken "
            f"against / for correct code: {spans}; deceived strictly "
            f"<b>{_pct(getattr(ev, 'deception_strict', math.nan))}</b>, tied with the "
            f"canonical <b>{_pct(getattr(ev, 'deception_tied', math.nan))}</b>")


def _span(ev: Any) -> str:
    """Edit span against deception, when the engine measured it."""
    info = getattr(ev, "edit_span_vs_deception", None) or {}
    rho, mean = info.get("spearman_span_margin"), info.get("mean_span")
    if rho is None or (isinstance(rho, float) and math.isnan(rho)):
        return ""
    return (f"; edit span vs. score margin: Spearman ρ = <b>{rho:+.2f}</b>"
            + (f" (mean span {mean:.1f} characters)" if mean is not None else ""))


def _higher(model: str, rows: list[Any]) -> str:
    """"bm25 higher on 71 queries: 1 decided, 70 by a rank-1 tie (0.20–0.33 vs 0)"."""
    decided = sum(r.decided for r in rows)
    tied = [r for r in rows if not r.decided]
    text = (f"{model} higher on {len(rows)} quer{'y' if len(rows) == 1 else 'ies'}: "
            f"<b>{decided}</b> decided (1 vs 0)")
    if tied:
        own = [max(r.a_value, r.b_value) for r in tied]
        other = [min(r.a_value, r.b_value) for r in tied]
        span = f"{min(own):.2f}" if min(own) == max(own) else f"{min(own):.2f}–{max(own):.2f}"
        vs = f"{max(other):.2f}" if min(other) == max(other) else \
            f"{min(other):.2f}–{max(other):.2f}"
        text += f", <b>{len(tied)}</b> only by a rank-1 tie ({span} vs {vs})"
    return text


class MetricsView(QWidget):
    compute_requested = Signal(bool)        # exclude flagged queries?
    cancel_requested = Signal()
    query_clicked = Signal(str)
    discordant_requested = Signal(object)   # set of query ids to show in the browser

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = MetricsModel(self)
        self.discordant = DiscordantModel(self)
        self.slice_model = SliceMetricsModel(self)
        self.comparison: Any = None
        self.busy = False

        self.compute_button = QPushButton("Compute metrics")
        self.compute_button.setToolTip("Execute the top-10 of every query (cached) and "
                                       "bootstrap the intervals (Ctrl+Shift+M)")
        self.exclude_box = QCheckBox("Without flagged queries")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.models_label = QLabel()
        self.models_label.setObjectName("metricsModels")
        self.models_label.setWordWrap(True)   # a long model file name must not widen the window

        self.table = QTableView()
        self.table.setObjectName("metricsTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().resizeSection(0, 80)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setToolTip("mean over queries [95% percentile bootstrap interval]")
        self.analyses = QLabel("Compute to see the figures.")
        self.analyses.setObjectName("analysesLabel")
        self.analyses.setWordWrap(True)
        self.analyses.setTextFormat(Qt.TextFormat.RichText)

        self.compare_label = QLabel("Choose a second model under Compare.")
        self.compare_label.setWordWrap(True)
        self.compare_label.setTextFormat(Qt.TextFormat.RichText)
        self.discordant_table = QTableView()
        self.discordant_table.setObjectName("discordantTable")
        self.discordant_table.setModel(self.discordant)
        self.discordant_table.verticalHeader().hide()
        self.discordant_table.verticalHeader().setDefaultSectionSize(22)
        self.discordant_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        dh = self.discordant_table.horizontalHeader()
        dh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        dh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)   # the function name
        self.discordant_table.setToolTip("Hover a column's header for what it means")
        self.show_discordant = QPushButton("Show these in the browser")
        self.show_discordant.setEnabled(False)
        self.slice_table = QTableView()
        self.slice_table.setObjectName("sliceTable")
        self.slice_table.setModel(self.slice_model)
        self.slice_table.verticalHeader().hide()
        self.slice_table.verticalHeader().setDefaultSectionSize(22)
        # every column whole but the slice's name (elided, whole in the tooltip)
        self.slice_fitter = ColumnFitter(self.slice_table, shrink=((0, 70), (1, 60)))
        self.slice_table.viewport().installEventFilter(self)
        self.slice_table.setToolTip("Save a filter of the query list as a slice to see it here")
        slice_box = QGroupBox("Saved slices")
        slice_box.setToolTip("Save the query list's filter with “Save slice…” to measure it here")
        sl = QVBoxLayout(slice_box)
        sl.setContentsMargins(4, 4, 4, 4)
        sl.addWidget(self.slice_table)
        self.slice_group = slice_box
        self.cost_model = CostModel(self)
        self.cost_table = QTableView()
        self.cost_table.setObjectName("costTable")
        self.cost_table.setModel(self.cost_model)
        self.cost_table.verticalHeader().hide()
        self.cost_table.verticalHeader().setDefaultSectionSize(22)
        # a measure a row, a system a column (as in the metric table): whole at 1024 px
        self.cost_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.cost_table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cost_note = QLabel()
        self.cost_note.setWordWrap(True)
        cost_box = QGroupBox("Quality and cost (pipelines: exec@1 on held-out tests)")
        cost_box.setObjectName("costBox")
        cbl = QVBoxLayout(cost_box)
        cbl.setContentsMargins(4, 4, 4, 4)
        cbl.addWidget(self.cost_note)
        cbl.addWidget(self.cost_table, 1)
        cost_box.hide()   # until a report with a split or a pipeline is measured
        self.cost_group = cost_box
        compare_box = QGroupBox("Model comparison (exec@1, exact paired test)")
        cl = QVBoxLayout(compare_box)
        cl.addWidget(self.compare_label)
        cl.addWidget(self.discordant_table, 1)
        cl.addWidget(self.show_discordant)

        self.domain_chart = BarChart("exec@1 by domain")
        # a tie counts one half (its expectation), as in the report's table of this name
        self.bug_chart = BarChart("Deception by bug type (above canonical; a tie ½)")
        self.density_chart = BarChart("exec@1 with m paired distractors kept (density)")
        charts = QWidget()
        chl = QVBoxLayout(charts)
        chl.setContentsMargins(0, 0, 0, 0)
        for chart in (self.domain_chart, self.bug_chart, self.density_chart):
            chl.addWidget(chart)
        chl.addStretch(1)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        caption = QLabel("mean over queries  [95% bootstrap interval]")
        caption.setObjectName("metricsCaption")
        ll.addWidget(caption)
        ll.addWidget(self.table)
        ll.addWidget(self.analyses)
        ll.addStretch(1)
        split = QSplitter()
        split.setObjectName("metricsSplitter")
        split.setChildrenCollapsible(False)
        split.addWidget(left)
        split.addWidget(charts)
        split.setSizes([520, 400])
        self.splitter = split
        # One page that scrolls as a whole, each table as tall as its rows (the
        # discordant list up to a dozen): no table cut to two rows with a scroll bar of
        # its own while the window is short. The tables of many columns -- the model
        # comparison's discordant queries, the saved slices, the cost table and the N-way
        # leaderboard -- go across the page's whole width, under the two columns.
        page = QWidget()
        page.setObjectName("metricsPage")
        self._page = QVBoxLayout(page)
        self._page.setContentsMargins(0, 0, 0, 0)
        self._page.addWidget(split)
        self._page.addWidget(compare_box)
        # ... unless the left column is wide enough for it (1920 px): there, under the
        # analyses, beside the charts, instead of a blank column above it
        self.compare_box, self._left, self._left_layout = compare_box, left, ll
        self._place_timer = QTimer(self)
        self._place_timer.setSingleShot(True)
        self._place_timer.setInterval(0)
        self._place_timer.timeout.connect(self._place_comparison)
        left.installEventFilter(self)
        self._page.addWidget(slice_box)
        self._page.addWidget(cost_box)
        self._page.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setObjectName("metricsScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(page)

        bar = QHBoxLayout()
        bar.addWidget(self.compute_button)
        bar.addWidget(self.exclude_box)
        bar.addWidget(self.progress)
        bar.addWidget(self.models_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.scroll, 1)
        for view, rows in ((self.table, 0), (self.discordant_table, 3),
                           (self.slice_table, 1), (self.cost_table, 0)):
            _fit_height(view, rows)

        self.compute_button.clicked.connect(self._on_compute_clicked)
        self.discordant_table.clicked.connect(self._on_discordant_clicked)
        self.discordant_table.activated.connect(self._on_discordant_clicked)
        self.show_discordant.clicked.connect(self._on_show_discordant_clicked)

    def set_models(self, a: str, b: str) -> None:
        text = f"A: <b>{a or '–'}</b>" + (f" · B: <b>{b}</b>" if b else "")
        shown = [e.model for e in self.model.evaluations]
        if shown and shown != [m for m in (a, b) if m]:
            text += (f" <span style='color:#b45f06'>· the figures below are for "
                     f"{' vs '.join(shown)}: press Compute</span>")
        self.models_label.setText(text)

    def set_busy(self, busy: bool, done: int = 0, total: int = 0) -> None:
        self.busy = busy
        self.compute_button.setText("Cancel" if busy else "Compute metrics")
        self.progress.setVisible(busy)
        self.progress.setRange(0, total if total > 1 else 0)
        if total > 1:
            self.progress.setValue(done)

    def show_results(self, ev_a: Any, ev_b: Any, comparison: Any,
                     names: dict[str, str]) -> None:
        """Fill everything from the engine's ModelEvaluation(s) and Comparison."""
        evs = [e for e in (ev_a, ev_b) if e is not None]
        self.model.set_evaluations(evs)
        _fit_height(self.table, self.model.rowCount())
        self.set_models(ev_a.model if ev_a is not None else "",
                        ev_b.model if ev_b is not None else "")
        lines = []
        for ev in evs:
            excluded = f", {len(ev.excluded)} flagged left out" if ev.excluded else ""
            lines.append(
                f"<b>{ev.model}</b> ({len(ev.query_ids)} queries{excluded}): deceived in "
                f"<b>{_pct(ev.deception_rate)}</b> of queries (canonical below a paired "
                f"distractor); rank-1 misses that are the query's own distractor: "
                f"<b>{_pct(ev.rank1_paired_miss_share)}</b>{_span(ev)}{_ties(ev)}")
        self.analyses.setText("<br>".join(lines))
        domains = sorted(set().union(*(e.exec1_by_domain for e in evs))) if evs else []
        self.domain_chart.set_data(domains, [(e.model, [e.exec1_by_domain.get(d, math.nan)
                                                         for d in domains]) for e in evs])
        bugs = sorted(set().union(*(e.deception_by_bug_type for e in evs))) if evs else []
        self.bug_chart.set_data(bugs, [(e.model, [e.deception_by_bug_type.get(b, math.nan)
                                                  for b in bugs]) for e in evs])
        dens = sorted(set().union(*(e.density_ablation for e in evs)), key=int) if evs else []
        self.density_chart.set_data([f"m = {m}" for m in dens],
                                    [(e.model, [e.density_ablation.get(m, math.nan)
                                                for m in dens]) for e in evs])
        self.comparison = comparison
        if comparison is None:
            self.compare_label.setText("Choose a second model under Compare.")
            self.discordant.set_comparison([], "A", "B", "exec@1")
            self.show_discordant.setEnabled(False)
            return
        c = comparison
        rows = discordant_rows(c, ev_a, ev_b, names) if ev_a is not None and ev_b is not None \
            else []
        self.compare_label.setText(
            f"{c.a}: {c.a_mean:.3f} · {c.b}: {c.b_mean:.3f} · difference "
            f"<b>{c.diff:+.3f}</b> [{c.ci_low:+.3f}, {c.ci_high:+.3f}] · "
            f"{_TESTS.get(c.test, c.test)} p = <b>{c.p_value:.3g}</b><br>"
            + "<br>".join(_higher(model, [r for r in rows if r.higher == model])
                          for model in (c.a, c.b)))
        self.compare_label.setToolTip(
            f"Queries where one model's {c.metric} is higher than the other's. Decided: one "
            "model's rank 1 passes and the other's fails (1 vs 0). By a tie: a figure "
            "between 0 and 1 is the expectation over the orders of a tie at rank 1 that "
            "mixes right and wrong candidates (1 of 3 tied right: 0.33) — it counts towards "
            "the difference but no ordering of the file decides it.")
        self.discordant.set_comparison(rows, c.a, c.b, c.metric)
        _fit_height(self.discordant_table, min(max(3, len(rows)), DISCORDANT_ROWS))
        self.show_discordant.setEnabled(bool(rows))

    def bind(self, state: InspectorState, reporter: Reporter) -> None:
        """Show what ``reporter`` measured for ``state``'s models; ask it to measure."""
        state.rankings_changed.connect(self.set_models)
        reporter.metrics_busy.connect(self.set_busy)
        reporter.metrics_ready.connect(self.show_results)
        reporter.cost_ready.connect(self.show_cost)
        reporter.slices_measured.connect(self.show_slices)
        self.compute_requested.connect(reporter.compute)
        self.cancel_requested.connect(reporter.cancel_metrics)
        if state.ranking_a is not None:   # built after the first ranking (on first show)
            self.set_models(*state.model_labels())
        if reporter.metrics_slot.busy:
            self.set_busy(True)

    def show_cost(self, table: tuple[str, list[str], list[list[str]]] | None) -> None:
        """The quality-vs-cost table of the last measurement (hidden without one)."""
        self.cost_model.set_table(table)
        self.cost_note.setText(table[0] if table is not None else "")
        self.cost_group.setVisible(table is not None)
        # every row shown (the page scrolls, the table does not), but a measure no system
        # has (no base measured to compare with: "vs base", "p") is left out
        view, model = self.cost_table, self.cost_model
        shown = 0
        for r in range(model.rowCount()):
            empty = all(not model.index(r, c).data() for c in range(1, model.columnCount()))
            view.setRowHidden(r, empty)
            shown += not empty
        view.resizeColumnsToContents()
        _fit_height(view, shown)

    def show_slices(self, rows: list[Any]) -> None:
        self.slice_model.set_rows(rows)
        _fit_height(self.slice_table, max(1, len(rows)))
        # one model measured: its name is in the bar above, not on every row
        self.slice_table.setColumnHidden(1, len({r.model for r in rows}) < 2)
        self.slice_fitter.schedule()

    def _place_comparison(self) -> None:
        """The comparison in the left column when it is at least COMPARE_IN_COLUMN wide,
        else across the page under both columns."""
        box, column = self.compare_box, self._left_layout
        wide = self._left.width() >= COMPARE_IN_COLUMN
        if wide == (box.parentWidget() is self._left):
            return
        if wide:
            self._page.removeWidget(box)
            column.insertWidget(column.count() - 1, box)   # before the stretch
        else:
            column.removeWidget(box)
            self._page.insertWidget(1, box)   # under the two columns

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is getattr(self, "_left", None) and event.type() == QEvent.Type.Resize:
            self._place_timer.start()
        self.slice_fitter.viewport_event(watched, event)
        return super().eventFilter(watched, event)

    def _on_compute_clicked(self) -> None:
        if self.busy:
            self.cancel_requested.emit()
        else:
            self.compute_requested.emit(self.exclude_box.isChecked())

    def _on_discordant_clicked(self, index: QModelIndex) -> None:
        qid = index.data(OBJECT_ROLE)
        if qid:
            self.query_clicked.emit(str(qid))

    def _on_show_discordant_clicked(self) -> None:
        if self.comparison is not None:
            self.discordant_requested.emit(set(self.comparison.discordant_queries))

    def add_panel(self, panel: QWidget) -> None:
        """Put ``panel`` (the N-way leaderboard) under the metrics, across the whole tab."""
        self._page.insertWidget(self._page.count() - 1, panel)   # before the stretch
