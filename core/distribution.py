"""What this installation of the distribution has: its version and which optional extras
(``dense``, ``humaneval``, ...) are installed, read from the installed metadata without
importing any of the extras' (heavy) packages.

``--version`` prints this, so it is read the way ``importlib.metadata`` finds
distributions (a ``NAME-VERSION.dist-info`` or ``.egg-info`` entry on ``sys.path``, names
compared normalised) but without importing it: that module alone (email, zipfile, csv)
costs more than the rest of ``--version``. Where the fast scan cannot find this
distribution (a zipped path entry, an unusual installer), :mod:`importlib.metadata` answers.
"""

from __future__ import annotations

import os
import re
import sys

__all__ = ["DISTRIBUTION", "extra_install_hint", "extra_packages", "installed_extras"]

DISTRIBUTION = "execretrieval-inspector"
# the extras a user chooses; "test" and "dev" are for working on the project
_DEVELOPER_EXTRAS = ("test", "dev")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _normalise(name: str) -> str:
    """A distribution name as ``importlib.metadata`` compares it (PEP 503, ``_`` joined)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed_entries() -> dict[str, str]:
    """Normalised name -> path of its first ``.dist-info`` / ``.egg-info`` on ``sys.path``."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if dot and suffix in ("dist-info", "egg-info"):
                found.setdefault(_normalise(stem.split("-", 1)[0]),
                                 os.path.join(entry or ".", name))
    return found


def _headers(path: str) -> list[tuple[str, str]] | None:
    """The header fields of a ``.dist-info``'s METADATA (an ``.egg-info``'s PKG-INFO)."""
    for candidate in (os.path.join(path, "METADATA"), os.path.join(path, "PKG-INFO"), path):
        if os.path.isfile(candidate):
            break
    else:
        return None
    fields: list[tuple[str, str]] = []
    with open(candidate, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            line = line.rstrip("\r\n")
            if not line:
                break   # the body (the long description) starts here
            if line[0] in " \t" and fields:
                fields[-1] = (fields[-1][0], f"{fields[-1][1]} {line.strip()}")
            elif ":" in line:
                key, _, value = line.partition(":")
                fields.append((key.strip(), value.strip()))
    return fields


def _requirements(entries: dict[str, str] | None = None
                  ) -> tuple[list[str], list[str]] | None:
    """(Provides-Extra, Requires-Dist) of this distribution, or None if not installed."""
    path = (_installed_entries() if entries is None else entries).get(_normalise(DISTRIBUTION))
    fields = _headers(path) if path is not None else None
    if fields is None:
        from importlib import metadata

        try:
            meta = metadata.metadata(DISTRIBUTION)
        except metadata.PackageNotFoundError:
            return None
        return list(meta.get_all("Provides-Extra") or []), list(meta.get_all("Requires-Dist")
                                                                or [])
    return ([v for k, v in fields if k.lower() == "provides-extra"],
            [v for k, v in fields if k.lower() == "requires-dist"])


def extra_packages(entries: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Package names each declared extra requires (empty if the distribution's metadata
    cannot be found, as when running from a source tree that was never installed)."""
    declared = _requirements(entries)
    if declared is None:
        return {}
    provided, required = declared
    extras: dict[str, list[str]] = {e: [] for e in provided}
    for requirement in required:
        extra, name = _EXTRA.search(requirement), _NAME.match(requirement)
        if extra and name:
            extras.setdefault(extra.group(1), []).append(name.group(1))
    return extras




def installed_extras(include_developer: bool = False) -> dict[str, bool]:
    """Each declared extra (user-facing ones unless ``include_developer``) and whether
    every package it requires is installed."""
    entries = _installed_entries()
    return {extra: all(_normalise(p) in entries for p in packages)
            for extra, packages in extra_packages(entries).items()
            if include_developer or extra not in _DEVELOPER_EXTRAS}


def extra_install_hint(extra: str) -> str:
    """How to add ``extra`` to a pip or pipx installation, for error messages."""
    packages = " ".join(extra_packages().get(extra, [])) or extra
    return (f"install the '{extra}' extra: pip install '{DISTRIBUTION}[{extra}]' "
            f"(in a pipx installation: pipx inject {DISTRIBUTION} {packages})")
