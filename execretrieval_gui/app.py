"""``execretrieval-gui [DIR] [--model NAME] [--query NAME_OR_ID] [--tab inspect|metrics|audit]
[--screenshot FILE.png]``."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["build_parser", "create_app", "main"]

SCREENSHOT_TIMEOUT_MS = 180_000
AUDIT_SCREENSHOT_TIMEOUT_MS = 1_800_000   # a cold audit of a whole benchmark takes long
TABS = ("inspect", "metrics", "audit")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="execretrieval-gui",
        description="Inspect how a code retriever ranks correct code against buggy mutants.")
    parser.add_argument("benchmark", nargs="?", metavar="DIR",
                        help="benchmark folder (default: the last one, else data/builtin)")
    parser.add_argument("--model", metavar="NAME",
                        help="bm25, tfidf, minilm, an embeddings .npz or a TREC run file")
    parser.add_argument("--query", metavar="FUNCTION_NAME_OR_ID", help="open this query")
    parser.add_argument("--tab", choices=TABS, default="inspect",
                        help="open on this tab; 'audit' also runs the suite audit (cached)")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="render the window once the query (with --tab audit: the "
                             "audit) has loaded, save it, exit")
    return parser


def _resources() -> Path:
    return Path(__file__).resolve().parent.parent / "resources"


def create_app(argv: Sequence[str] | None = None):  # type: ignore[no-untyped-def]
    """The QApplication with our names, font and style sheet (reused if one exists)."""
    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from . import qtcompat  # noqa: F401  (PySide6 6.12 on Python 3.11: see there)

    app = QApplication.instance() or QApplication(["execretrieval-gui", *(argv or [])])
    app.setOrganizationName("execretrieval")
    app.setApplicationName("inspector")
    app.setApplicationDisplayName("ExecRetrieval Inspector")
    font = QFont("DejaVu Sans", 9)
    app.setFont(font)
    qss = _resources() / "style.qss"
    if qss.is_file():
        app.setStyleSheet(qss.read_text(encoding="utf-8"))
    icon = _resources() / "icon.svg"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.benchmark is not None and not Path(args.benchmark).exists():
        # still open the window: it explains the problem in a dialog
        print(f"execretrieval-gui: warning: {args.benchmark}: no such folder", file=sys.stderr)
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
    window.show()
    if args.screenshot:
        _arrange_screenshot(window, Path(args.screenshot), args.query, args.tab)
    if args.tab != "inspect":
        window.show_tab(TABS.index(args.tab))
    if args.tab == "audit":
        window.state.query_ready.connect(_audit_once(window))
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
    if args.screenshot:
        return int(getattr(window, "screenshot_status", 1))
    return code


def _audit_once(window):  # type: ignore[no-untyped-def]
    """A slot that starts the audit once, when the first query is shown."""
    started = {"done": False}

    def start(_query_id: str) -> None:
        if not started["done"] and window.audit_state.result is None:
            started["done"] = True
            window.audit_state.run()

    return start


def _arrange_screenshot(window, target: Path, query: str | None,  # type: ignore[no-untyped-def]
                        tab: str = "inspect") -> None:
    """Save the window once ranking, diff and test outcomes of the query are shown (with
    ``tab`` "audit": once the audit is done)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    window.resize(1280, 800)
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

    def on_ready(query_id: str) -> None:
        bench = window.state.benchmark
        wanted = bench.find_query(query) if (bench is not None and query) else None
        if wanted is not None and wanted.query_id != query_id:
            return
        QTimer.singleShot(150, lambda: save(True))

    def on_failed(title: str, text: str) -> None:
        print(f"execretrieval-gui: {title}: {text}", file=sys.stderr)
        QTimer.singleShot(300, lambda: save(False))

    if tab == "audit":
        window.audit_state.result_changed.connect(
            lambda result: result is not None and QTimer.singleShot(300, lambda: save(True)))
        QTimer.singleShot(AUDIT_SCREENSHOT_TIMEOUT_MS, lambda: save(False))
    else:
        window.state.query_ready.connect(on_ready)
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, lambda: save(False))
    window.state.failed.connect(on_failed)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
