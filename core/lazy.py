"""Lazy package exports (PEP 562): a package's public names are imported from their
modules on first use, so importing the package costs nothing until a name is read.

``__getattr__, __dir__ = lazy_exports(__name__, EXPORTS, globals())`` in a package's
``__init__``, with ``EXPORTS`` mapping each module (relative to the package) to the names it
gives; a name read once becomes an ordinary attribute. With ``submodules=True`` any other
public attribute is tried as a submodule (``package.registry``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, tuple[str, ...]],
                 namespace: dict[str, Any], *, submodules: bool = False
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's ``__getattr__`` and ``__dir__``."""
    home = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            if submodules and not name.startswith("_"):
                try:
                    return importlib.import_module(f".{name}", package)
                except ModuleNotFoundError as exc:
                    if exc.name != f"{package}.{name}":
                        raise
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value   # the next lookup is an ordinary attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *namespace.get("__all__", ())})

    return __getattr__, __dir__
