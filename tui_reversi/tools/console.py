"""The rich Console the tools print with."""

from __future__ import annotations

from rich.console import Console


class ToolConsole(Console):
    """A Console whose reader going away (`tui-reversi games list | head`)
    is a BrokenPipeError, which the command line ends quietly with every
    other command's (`__main__.main`); rich's own answer is exit status 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError
