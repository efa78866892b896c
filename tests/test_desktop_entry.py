"""`execretrieval-gui --install-desktop-entry` / `--uninstall-desktop-entry`: a valid
freedesktop entry (checked by desktop-file-validate) and its icon under $XDG_DATA_HOME."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from execretrieval_gui.desktop import desktop_entry_text

VALIDATE = shutil.which("desktop-file-validate")  # Debian's desktop-file-utils (make install)
needs_validator = pytest.mark.skipif(VALIDATE is None,
                                     reason="desktop-file-validate not installed "
                                            "(make system-deps installs desktop-file-utils)")


def _gui(*args: str, data_home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return subprocess.run([sys.executable, "-m", "execretrieval_gui.app", *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _validate(path: Path) -> None:
    """No error and no warning; the one hint allowed is that Development and Science are
    both main categories (wanted: the inspector belongs in both menus)."""
    assert VALIDATE is not None
    done = subprocess.run([VALIDATE, str(path)], capture_output=True, text=True, check=False)
    output = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 0, output
    assert all(": hint: " in line and "more than one main category" in line
               for line in output), output


@needs_validator
def test_install_then_uninstall(tmp_path: Path) -> None:
    home = tmp_path / "share"
    done = _gui("--install-desktop-entry", data_home=home)
    assert done.returncode == 0, done.stderr
    desktop = home / "applications" / "execretrieval-inspector.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / "execretrieval-inspector.svg"
    assert f"wrote {desktop}" in done.stdout and f"wrote {icon}" in done.stdout
    _validate(desktop)
    entry = configparser.ConfigParser(interpolation=None, strict=True)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  (keys are case-sensitive)
    entry.read(desktop, encoding="utf-8")
    section = entry["Desktop Entry"]
    script = Path(section["Exec"])
    # the script pip installed beside this interpreter, by absolute path
    assert script.is_absolute() and script == Path(sys.executable).parent / "execretrieval-gui"
    assert os.access(script, os.X_OK)
    assert section["Icon"] == "execretrieval-inspector" and section["Type"] == "Application"
    assert section["Categories"] == "Development;Science;"
    assert icon.read_bytes() == (REPO / "resources" / "icon.svg").read_bytes()

    again = _gui("--install-desktop-entry", data_home=home)     # idempotent
    assert again.returncode == 0 and desktop.is_file()

    done = _gui("--uninstall-desktop-entry", data_home=home)
    assert done.returncode == 0, done.stderr
    assert f"removed {desktop}" in done.stdout and f"removed {icon}" in done.stdout
    assert not desktop.exists() and not icon.exists()
    done = _gui("--uninstall-desktop-entry", data_home=home)
    assert done.returncode == 0 and "nothing to remove" in done.stdout


@needs_validator
def test_exec_paths_with_spaces_and_specials_are_quoted(tmp_path: Path) -> None:
    odd = Path('/opt/my apps/$x "q"/back\\slash/execretrieval-gui')
    file = tmp_path / "odd.desktop"
    file.write_text(desktop_entry_text(odd), encoding="utf-8")
    _validate(file)
    line = next(x for x in file.read_text().splitlines() if x.startswith("Exec="))
    # undo the string escape, then the Exec quoting (spec: "The Exec key")
    value = line[len("Exec="):].replace("\\\\", "\\")
    assert value.startswith('"') and value.endswith('"')
    unquoted, i, inner = [], 0, value[1:-1]
    while i < len(inner):
        if inner[i] == "\\":
            i += 1
        unquoted.append(inner[i])
        i += 1
    assert "".join(unquoted) == str(odd)


def test_both_flags_at_once_is_a_usage_error(tmp_path: Path) -> None:
    done = _gui("--install-desktop-entry", "--uninstall-desktop-entry", data_home=tmp_path)
    assert done.returncode == 2 and "not allowed with" in done.stderr
    assert not (tmp_path / "applications").exists()
