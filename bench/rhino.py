"""GRhino, an outside Othello engine, as an arena opponent.

Debian's `grhino` package (with `grhino-data` for its patterns and book) has
a GTP front end, `gtp-rhino`, with five levels and depths that can be set
apart: `--mid N` plies in the midgame, `--win N` and `--end N` empties for
the win/loss and exact endgame solves. This script speaks the arena's line
protocol (docs/engine.md, "Outside engines") and asks a `gtp-rhino` it
keeps running for each move: the whole position by `grhino-setup_board`,
then `genmove`. Every argument is passed on to gtp-rhino.

    apt-get install grhino grhino-data
    tui-reversi arena hard "cmd:python bench/rhino.py --level 5 --mid 8" -n 40 -j 2 --seed 3

GRhino plays to its fixed depths and does not read the arena's clock. It
keeps a lock file in its home directory, so each bridge gives it a home of
its own (a temporary directory), and two can play at once.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Color, Variant
from tui_reversi.players.external import serve

GTP_RHINO = "/usr/games/gtp-rhino"


class Rhino:
    """One gtp-rhino process and its requests."""

    def __init__(self, arguments: list[str]) -> None:
        self.home = tempfile.TemporaryDirectory(prefix="rhino-")
        self.process = subprocess.Popen(
            [GTP_RHINO, *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={"HOME": self.home.name, "PATH": "/usr/bin:/bin"},
        )
        self.name = "grhino " + " ".join(arguments)

    def ask(self, command: str) -> str:
        """The answer to one GTP command (GTP answers end with a blank line)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"gtp-rhino stopped while answering {command!r}")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise SystemExit(f"gtp-rhino refused {command!r}: {answer}")
        return answer[1:].strip()


class RhinoPlayer:
    """The player `serve` asks for each move; the arena judges the moves."""

    rhino: Rhino  # set once, in main()

    def __init__(self, variant: Variant) -> None:
        if variant is not Variant.OTHELLO:
            raise SystemExit("GRhino plays only Othello")
        self.level = self.rhino.name

    def choose_move(self, position, limit=None):
        if not position.legal_moves():
            return "pass"
        board = str(position).split()[0]  # the 64 squares, X black, O white, - empty
        colour = "black" if position.to_move is Color.BLACK else "white"
        self.rhino.ask(f"grhino-setup_board {board} {colour}")
        return self.rhino.ask(f"genmove {colour}").lower()


def main() -> None:
    RhinoPlayer.rhino = Rhino(sys.argv[1:])

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(RhinoPlayer, sys.stdin, write)


if __name__ == "__main__":
    main()
