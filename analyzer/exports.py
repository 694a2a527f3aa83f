"""A package's exports, imported on first use (PEP 562): ``from analyzer.questions.odds import
odds`` loads the module that defines ``odds`` then, and importing the package alone loads
nothing (``euchre --help`` stays quick, and a room's modules load only what they use)."""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` of package ``package`` that exports ``exports`` (a module of
    the package, relative to it -> the names it exports): a name is read from its module,
    imported on first use; any other name is an AttributeError."""
    home = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str):
        if name in home:
            return getattr(importlib.import_module(f"{package}.{home[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(home)

    return __getattr__, __dir__
