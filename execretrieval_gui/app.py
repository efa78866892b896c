"""``execretrieval-gui [DIR] [--model NAME] [--query NAME_OR_ID] [--size WxH]
[--tab inspect|metrics|audit]
[--screenshot FILE.png]``."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["build_parser", "create_app", "main", "parse_size"]

SCREENSHOT_TIMEOUT_MS = 180_000
AUDIT_SCREENSHOT_TIMEOUT_MS = 1_800_000   # a cold audit of a whole benchmark takes long
TABS = ("inspect", "metrics", "audit")
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (640, 480)


def parse_size(text: str) -> tuple[int, int]:
    """``"1024x700"`` -> ``(1024, 700)``; anything else is an argparse error naming it."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT, e.g. 1280x800")
    size = int(w), int(h)
    if size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1] or max(size) > 16384:
        raise argparse.ArgumentTypeError(
            f"{text!r}: the window must be at least {MIN_SIZE[0]}x{MIN_SIZE[1]} "
            "(and at most 16384 on a side)")
    return size


def _visible(text: str) -> float | int:
    from execretrieval.pipeline.split import parse_visible

    try:
        return parse_visible(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="execretrieval-gui",
        description="Inspect how a code retriever ranks correct code against buggy mutants.")
    parser.add_argument("benchmark", nargs="?", metavar="DIR",
                        help="benchmark folder or bundled benchmark name (builtin, tiny, "
                             "humaneval, stdlib); default: the last one opened, else builtin")
    parser.add_argument("--model", metavar="NAME",
                        help="bm25, tfidf, minilm, an embeddings .npz, a TREC run file or a "
                             "pipeline such as minilm+exec (needs --visible)")
    parser.add_argument("--compare", metavar="NAME",
                        help="model B beside the model, in the A|B view (any name --model "
                             "takes; a pipeline needs --visible)")
    parser.add_argument("--visible", metavar="N|FRACTION", type=_visible,
                        help="held-out split for pipelines: tests per query a stage may run "
                             "(3) or a fraction of each suite (0.5); the rest are judged on")
    parser.add_argument("--split-seed", metavar="S", type=int, default=0,
                        help="seed of the held-out split (default 0)")
    parser.add_argument("--query", metavar="FUNCTION_NAME_OR_ID", help="open this query")
    parser.add_argument("--size", metavar="WxH", type=parse_size,
                        help="window size in pixels, e.g. 1024x700 (default: the last one, "
                             "else 1280x800; with --screenshot always 1280x800 unless given)")
    parser.add_argument("--tab", choices=TABS, default="inspect",
                        help="open on this tab; 'audit' also runs the suite audit (cached)")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="render the window once the query (with --tab audit: the "
                             "audit) has loaded, save it, exit")
    entry = parser.add_mutually_exclusive_group()
    entry.add_argument("--install-desktop-entry", action="store_true",
                       help="add the inspector to the desktop's menu (a .desktop file and "
                            "its icon under $XDG_DATA_HOME), then exit")
    entry.add_argument("--uninstall-desktop-entry", action="store_true",
                       help="remove what --install-desktop-entry wrote, then exit")
    return parser


def _resources() -> Path:
    """The installed ``resources/`` (icon, style sheet): package data of the GUI."""
    from importlib import resources

    return Path(str(resources.files("execretrieval_gui.resources")))


def create_app(argv: Sequence[str] | None = None):  # type: ignore[no-untyped-def]
    """The QApplication with our names, font and style sheet (reused if one exists)."""
    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from . import qtcompat  # noqa: F401  (PySide6 6.12 on Python 3.11: see there)
    from .styling import set_style_sheet

    app = QApplication.instance() or QApplication(["execretrieval-gui", *(argv or [])])
    app.setOrganizationName("execretrieval")
    app.setApplicationName("inspector")
    app.setApplicationDisplayName("ExecRetrieval Inspector")
    app.setDesktopFileName("execretrieval-inspector")  # what --install-desktop-entry writes
    font = QFont("DejaVu Sans", 9)
    app.setFont(font)
    qss = _resources() / "style.qss"
    if qss.is_file():   # set once the main window is built (see styling): faster, the same
        set_style_sheet(app, qss.read_text(encoding="utf-8"))
    icon = _resources() / "icon.svg"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        from . import desktop

        return desktop.main(install=args.install_desktop_entry)
    if args.benchmark is not None:
        from execretrieval import BenchmarkError

        from . import engine

        try:
            engine.resolve(args.benchmark)  # a folder, or a bundled name (window.open)
        except BenchmarkError as exc:
            if args.screenshot:   # a picture of something else would only mislead
                print(f"execretrieval-gui: error: {exc}", file=sys.stderr)
                return 2
            # the window says so in a dialog and opens the bundled benchmark instead
            print(f"execretrieval-gui: warning: {exc}", file=sys.stderr)
    from PySide6.QtCore import QSettings, QTimer

    from .mainwindow import MainWindow

    app = create_app()
    settings_dir = None
    if args.screenshot:
        # a fixed, fresh layout: the picture must not depend on the user's last session
        settings_dir = tempfile.TemporaryDirectory(prefix="execretrieval-gui-")
        settings = QSettings(os.path.join(settings_dir.name, "s.ini"), QSettings.Format.IniFormat)
    else:
        settings = QSettings()
    window = MainWindow(settings)
    if args.size or args.screenshot:
        window.resize(*(args.size or DEFAULT_SIZE))
    window.show()
    if args.screenshot:
        _arrange_screenshot(window, Path(args.screenshot), args.query, args.tab,
                            bool(args.compare))
    if args.compare:
        _compare_once(window, args.compare)
    if args.tab != "inspect":
        window.show_tab(TABS.index(args.tab))
    if args.tab == "audit":
        window.state.query_ready.connect(_audit_once(window))
    if args.query and not args.screenshot:
        # a --query that is not there: say so and exit 2, as a picture of another would
        window.state.strict_query = True
        window.state.query_not_found.connect(lambda text: _exit_rejected(window, text))
    if args.visible is not None:
        window.state.set_split(args.visible, args.split_seed)
    window.open(args.benchmark, model=args.model, query=args.query)
    # Ctrl+C / SIGTERM close the window properly (settings saved, work cancelled, sandbox
    # servers stopped); the timer lets Python run its signal handlers inside Qt's loop
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: window.close())
    ticker = QTimer()
    ticker.timeout.connect(lambda: None)
    ticker.start(250)
    code = app.exec()
    if settings_dir is not None:
        settings_dir.cleanup()
    if args.screenshot or getattr(window, "screenshot_status", None) == 2:
        return int(getattr(window, "screenshot_status", 1))
    return code


def _exit_rejected(window, text: str) -> None:  # type: ignore[no-untyped-def]
    """A start-up argument that names nothing: the message on stderr, exit status 2."""
    from PySide6.QtWidgets import QApplication

    if getattr(window, "screenshot_status", None) == 2:
        return
    print(f"execretrieval-gui: error: {text}", file=sys.stderr)
    window.screenshot_status = 2
    window.close()
    QApplication.exit(2)


def _audit_once(window):  # type: ignore[no-untyped-def]
    """A slot that starts the audit once, when the first query is shown."""
    started = {"done": False}

    def start(_query_id: str) -> None:
        if not started["done"] and window.audit_state.result is None:
            started["done"] = True
            window.audit_state.run()

    return start


def _compare_once(window, model: str) -> None:  # type: ignore[no-untyped-def]
    """Rank ``model`` as model B once model A is first shown."""
    started = {"done": False}

    def start(which: str, name: str) -> None:
        if which == "a" and name and not started["done"]:
            started["done"] = True
            window.state.set_model(model, "b")

    window.state.model_shown.connect(start)


def _arrange_screenshot(window, target: Path, query: str | None,  # type: ignore[no-untyped-def]
                        tab: str = "inspect", compare: bool = False) -> None:
    """Save the window once ranking, diff and test outcomes of the query are shown (with
    ``tab`` "audit": once the audit is done; with ``compare``: model B's list and its
    outcomes too)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    window.screenshot_status = 1
    state = {"done": False, "errors": []}

    def save(ok: bool) -> None:
        if state["done"]:
            return
        state["done"] = True
        QApplication.processEvents()
        pixmap = window.grab()
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp.png")
        if not pixmap.save(str(tmp), "PNG"):
            print(f"execretrieval-gui: cannot write {target}", file=sys.stderr)
            window.screenshot_status = 1
        else:
            os.replace(tmp, target)
            window.screenshot_status = 0 if ok else 1
            print(f"execretrieval-gui: wrote {target} ({pixmap.width()}x{pixmap.height()})",
                  file=sys.stderr)
        window.close()
        QApplication.quit()

    def b_shown() -> bool:
        rows = window.candidates.model_b.rows
        return not compare or (window.state.ranking_b is not None and bool(rows)
                               and all(r.outcome is not None for r in rows))

    def maybe_save() -> None:
        # the picture shows the blind-spot badges too, found after the ranking is shown
        if state.get("ready") and not window.state.blind_slot.busy and b_shown():
            QTimer.singleShot(150, lambda: save(True))

    def on_ready(query_id: str) -> None:
        if window.state.ranking_a is None:
            return   # a kept first screen: the picture waits for the ranking replacing it
        bench = window.state.benchmark
        wanted = bench.find_query(query) if (bench is not None and query) else None
        if wanted is not None and wanted.query_id != query_id:
            return
        state["ready"] = True
        maybe_save()

    def on_failed(title: str, text: str) -> None:
        if state["done"]:
            return
        print(f"execretrieval-gui: {title}: {text}", file=sys.stderr)
        QTimer.singleShot(300, lambda: save(False))

    def on_argument_rejected(text: str) -> None:
        """A bad --model: no picture of the fallback, exit 2 with the message."""
        if state["done"]:
            return
        state["done"] = True
        print(f"execretrieval-gui: error: {text}", file=sys.stderr)
        window.screenshot_status = 2
        window.close()
        QApplication.quit()

    window.state.argument_rejected.connect(on_argument_rejected)   # before failed: it wins
    if query:
        window.state.strict_query = True   # no picture of another query
        window.state.query_not_found.connect(on_argument_rejected)

    def on_audit(result) -> None:  # type: ignore[no-untyped-def]
        if result is None:
            return
        bench = window.state.benchmark
        wanted = bench.find_query(query) if (bench is not None and query) else None

        def show() -> None:
            if wanted is not None:   # --query: that suite's evidence, once the audit's own
                window.audit_state.select(wanted.query_id)   # first selection is done
            QTimer.singleShot(300, lambda: save(True))

        QTimer.singleShot(0, show)

    if tab == "audit":
        window.audit_state.result_changed.connect(on_audit)
    else:
        window.state.query_ready.connect(on_ready)
        window.state.blind_slot.busy_changed.connect(lambda busy: busy or maybe_save())
        if compare:
            window.state.b_rows_changed.connect(lambda *_: maybe_save())
            window.state.result_changed.connect(lambda *_: maybe_save())
    window.state.failed.connect(on_failed)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
