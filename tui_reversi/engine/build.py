"""Which engine runs: the engine's hot modules compiled by mypyc, or the same
modules as plain Python.

setup.py compiles COMPILED_MODULES into C extensions beside their .py files
when a C compiler works, and records each source's hash in
compiled-sources.json. Python would load an extension before its .py, so
when the interpreted engine is wanted, `choose()` puts a finder first on
sys.meta_path that loads those modules from their .py files. It is wanted
when TUI_REVERSI_PURE=1 is set, when nothing was compiled, and when a source
no longer matches what was compiled (an edited file in an editable install
must not run as stale C). The choice is all or none: compiled modules call
each other directly, not through the import system.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

# A module is compiled when its first line is this mark; setup.py asks
# compiled_sources() too, so the build and this loader cannot disagree.
MARK = "# mypyc: compiled"
_ROOT = Path(__file__).resolve().parent.parent.parent  # the directory holding tui_reversi/
_HOT_FOLDERS = ("tui_reversi/core", "tui_reversi/engine")


def compiled_sources(root: Path = _ROOT) -> list[str]:
    """The sources mypyc compiles, relative to `root`: every module in core/
    and engine/ whose first line is MARK, sorted."""
    found = []
    for folder in _HOT_FOLDERS:
        for source in sorted((root / folder).glob("*.py")):
            with source.open(encoding="utf-8") as lines:
                if lines.readline().strip() == MARK:
                    found.append(source.relative_to(root).as_posix())
    return found


COMPILED_MODULES = tuple(path[: -len(".py")].replace("/", ".") for path in compiled_sources())
PURE_VARIABLE = "TUI_REVERSI_PURE"
_RECORD = _ROOT / "tui_reversi" / "compiled-sources.json"


@dataclass(frozen=True)
class EngineBuild:
    """The engine this process runs, and why it is not compiled when not."""

    compiled: bool
    reason: str = ""

    def __str__(self) -> str:
        """'compiled (mypyc)' or 'interpreted (why)'."""
        return "compiled (mypyc)" if self.compiled else f"interpreted ({self.reason})"


def _source(module: str) -> Path:
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _why_interpreted() -> str | None:
    if os.environ.get(PURE_VARIABLE) == "1":
        return f"{PURE_VARIABLE}=1"
    try:
        recorded = json.loads(_RECORD.read_text())
    except (OSError, ValueError):
        return "not compiled at install"
    for module in COMPILED_MODULES:
        source = _source(module)
        key = source.relative_to(_ROOT).as_posix()
        try:
            digest = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            return f"{key} is missing"
        if recorded.get(key) != digest:
            return f"{key} changed since it was compiled: reinstall to compile it"
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        if not any(source.with_suffix(suffix).exists() for suffix in suffixes):
            return f"{key} has no compiled extension"
    return None


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their .py files."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname))


_chosen: EngineBuild | None = None


def choose() -> EngineBuild:
    """Decide once per process, before any compiled module is imported."""
    global _chosen
    if _chosen is None:
        reason = _why_interpreted()
        _chosen = EngineBuild(reason is None, reason or "")
        if not _chosen.compiled:
            sys.meta_path.insert(0, _SourceFinder())
    return _chosen


def engine_build() -> EngineBuild:
    """The engine this process runs: compiled or interpreted, and why."""
    return choose()
