"""The command line: --screenshot renders a real, readable window and exits 0."""



from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _gui_fixtures import no_leftover_work  # noqa: F401
from PySide6.QtGui import QImage

from execretrieval_gui.app import build_parser


def _run_gui(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "execretrieval_gui.app", *args],
                          capture_output=True, text=True, env=env, timeout=timeout,
                          check=False)


def _dark_share(image: QImage, x0: int, y0: int, x1: int, y1: int) -> float:
    dark = total = 0
    for y in range(y0, y1, 2):
        for x in range(x0, x1, 2):
            c = image.pixelColor(x, y)
            total += 1
            dark += (c.red() + c.green() + c.blue()) < 200
    return dark / max(1, total)


@pytest.mark.slow
def test_screenshot_writes_a_readable_png(tmp_path: Path, tiny_dir: Path) -> None:
    out = tmp_path / "shot.png"
    proc = _run_gui(str(tiny_dir), "--model", "bm25", "--query", "lowest_set_bit",
                    "--screenshot", str(out))
    assert proc.returncode == 0, proc.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 7) for y in range(0, 800, 7)}
    assert len(colours) > 50, "not a blank picture"
    # text is dark on light: the candidates table, the diff and the tests panel all show
    # some dark (glyph) pixels but are mostly light
    for region in ((350, 100, 860, 330), (350, 380, 860, 560), (880, 130, 1270, 330)):
        share = _dark_share(image, *region)
        assert 0.01 < share < 0.4, (region, share)


@pytest.mark.slow
def test_screenshot_of_a_broken_folder_still_exits(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    out = tmp_path / "shot.png"
    proc = _run_gui(str(broken), "--screenshot", str(out))
    assert proc.returncode == 1
    assert "queries.jsonl" in proc.stderr
    assert out.exists()   # the window (with its error) was still drawn


def test_cli_arguments() -> None:
    args = build_parser().parse_args(["data/builtin", "--model", "runs/x.trec", "--query",
                                      "lowest_set_bit", "--screenshot", "a.png"])
    assert (args.benchmark, args.model, args.query, args.screenshot) == (
        "data/builtin", "runs/x.trec", "lowest_set_bit", "a.png")
