"""What this installation of the distribution has: its version and which optional extras
(``dense``, ``humaneval``, ...) are installed, read from the installed metadata without
importing any of the extras' (heavy) packages."""

from __future__ import annotations

import re
from importlib import metadata

__all__ = ["DISTRIBUTION", "extra_install_hint", "extra_packages", "installed_extras"]

DISTRIBUTION = "execretrieval-inspector"
# the extras a user chooses; "test" and "dev" are for working on the project
_DEVELOPER_EXTRAS = ("test", "dev")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def extra_packages() -> dict[str, list[str]]:
    """Package names each declared extra requires (empty if the distribution's metadata
    cannot be found, as when running from a source tree that was never installed)."""
    try:
        meta = metadata.metadata(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return {}
    extras: dict[str, list[str]] = {e: [] for e in meta.get_all("Provides-Extra") or []}
    for requirement in meta.get_all("Requires-Dist") or []:
        extra, name = _EXTRA.search(requirement), _NAME.match(requirement)
        if extra and name:
            extras.setdefault(extra.group(1), []).append(name.group(1))
    return extras


def _installed(package: str) -> bool:
    try:
        metadata.distribution(package)
    except metadata.PackageNotFoundError:
        return False
    return True


def installed_extras(include_developer: bool = False) -> dict[str, bool]:
    """Each declared extra (user-facing ones unless ``include_developer``) and whether
    every package it requires is installed."""
    return {extra: all(_installed(p) for p in packages)
            for extra, packages in extra_packages().items()
            if include_developer or extra not in _DEVELOPER_EXTRAS}


def extra_install_hint(extra: str) -> str:
    """How to add ``extra`` to a pip or pipx installation, for error messages."""
    packages = " ".join(extra_packages().get(extra, [])) or extra
    return (f"install the '{extra}' extra: pip install '{DISTRIBUTION}[{extra}]' "
            f"(in a pipx installation: pipx inject {DISTRIBUTION} {packages})")
