"""A freedesktop menu entry for the installed inspector: ``execretrieval-gui
--install-desktop-entry`` / ``--uninstall-desktop-entry``.

The entry (``applications/execretrieval-inspector.desktop``) and its icon
(``icons/hicolor/scalable/apps/execretrieval-inspector.svg``) go under the user's XDG data
directory (``$XDG_DATA_HOME``, else ``~/.local/share``), where desktops look for a user's
own applications. ``Exec`` is the absolute path of this installation's
``execretrieval-gui`` script, so the menu starts the same installation (a pipx venv, a
``pip install --user``) whatever is on the desktop session's ``PATH``.

Plain Python, no Qt: it runs before any window is made and on machines without a display.
"""

from __future__ import annotations

import os
import shutil
import sys
from importlib import resources
from pathlib import Path

from execretrieval import atomic_write_bytes, atomic_write_text

__all__ = [
    "APP_ID",
    "desktop_entry_text",
    "entry_paths",
    "gui_script",
    "install_desktop_entry",
    "uninstall_desktop_entry",
    "xdg_data_home",
]

APP_ID = "execretrieval-inspector"
SCRIPT = "execretrieval-gui"
# characters that make a desktop-entry Exec argument need double quotes (spec, "The Exec key")
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def xdg_data_home() -> Path:
    """``$XDG_DATA_HOME`` if it is set to an absolute path (the spec ignores a relative
    one), else ``~/.local/share``."""
    value = os.environ.get("XDG_DATA_HOME", "")
    return Path(value) if value and os.path.isabs(value) else Path.home() / ".local" / "share"


def entry_paths(data_home: Path | None = None) -> tuple[Path, Path]:
    """Where the ``.desktop`` file and the icon go."""
    base = data_home or xdg_data_home()
    return (base / "applications" / f"{APP_ID}.desktop",
            base / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg")


def gui_script() -> Path:
    """The absolute path of this installation's ``execretrieval-gui`` script.

    The script pip wrote beside this interpreter (a venv's or pipx's ``bin``) first, then
    the one on ``PATH``. Raises FileNotFoundError if neither exists (running from a
    checkout that was never installed)."""
    beside = Path(sys.executable).parent / SCRIPT   # not resolved: a venv's python is a link
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside.absolute()
    found = shutil.which(SCRIPT)
    if found:
        return Path(found).absolute()
    raise FileNotFoundError(f"cannot find the installed {SCRIPT} script (looked beside "
                            f"{sys.executable} and on PATH); install the package first")


def _exec_argument(path: Path) -> str:
    """``path`` as one Exec argument: quoted when needed, then escaped as a string value."""
    text = str(path)
    if any(c in _RESERVED for c in text):
        text = '"' + "".join("\\" + c if c in '"`$\\' else c for c in text) + '"'
    return text.replace("\\", "\\\\")  # the string-value escape applies on top


def desktop_entry_text(script: Path) -> str:
    """The ``.desktop`` file that starts ``script`` (Desktop Entry Specification 1.4)."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=ExecRetrieval Inspector",
        "GenericName=Code Retrieval Inspector",
        "Comment=Inspect how code retrievers rank correct code against near-identical "
        "buggy mutants",
        f"Exec={_exec_argument(script)}",
        f"TryExec={_exec_argument(script)}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Development;Science;",
        "Keywords=embedding;retrieval;benchmark;mutation;code;",
        f"StartupWMClass={SCRIPT}",
        "",
    ])


def _icon_bytes() -> bytes:
    return resources.files("execretrieval_gui.resources").joinpath("icon.svg").read_bytes()


def install_desktop_entry(data_home: Path | None = None,
                          script: Path | None = None) -> list[Path]:
    """Write the icon and the ``.desktop`` file (atomically, replacing older ones);
    returns the two paths written."""
    desktop, icon = entry_paths(data_home)
    script = script or gui_script()
    atomic_write_bytes(icon, _icon_bytes())
    atomic_write_text(desktop, desktop_entry_text(script))
    return [desktop, icon]


def uninstall_desktop_entry(data_home: Path | None = None) -> list[Path]:
    """Remove the ``.desktop`` file and the icon; returns those that existed."""
    removed = []
    for path in entry_paths(data_home):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    return removed


def main(install: bool) -> int:
    """What ``--install-desktop-entry`` / ``--uninstall-desktop-entry`` print and return."""
    try:
        if install:
            script = gui_script()
            desktop, icon = install_desktop_entry(script=script)
            print(f"wrote {desktop} (Exec={script})\nwrote {icon}")
            print("ExecRetrieval Inspector is in the desktop's menu (Development); "
                  "remove it with execretrieval-gui --uninstall-desktop-entry")
            return 0
        removed = uninstall_desktop_entry()
    except OSError as exc:   # FileNotFoundError from gui_script() included
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"{SCRIPT}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    for path in removed:
        print(f"removed {path}")
    if not removed:
        desktop, icon = entry_paths()
        print(f"nothing to remove: neither {desktop} nor {icon} exists")
    return 0
