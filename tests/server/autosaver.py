"""A stand-in that keeps its game the way the app does, through the real storage layer.

At start it prints `RESUME <transcript>` if its autosave holds an unfinished
game (and it was not started with --new), else `NEW`, then `READY`. Every two
characters typed are a square to play; after each move the game is autosaved
and `SAVED <transcript>` printed, after `ASIDE <sentence>` if the autosave
kept it aside as an earlier autosave.
A hang-up kills it (default SIGHUP): what was saved is all there is.
"""

import os
import sys
import tty

from tui_reversi.core import Game
from tui_reversi.storage import Autosave, SavedGame


def say(line):
    os.write(1, (line + "\r\n").encode())


def main():
    autosave = Autosave()
    found = autosave.load()
    if found.resumable and "--new" not in sys.argv:
        game, record = found.game, found.record
        say(f"RESUME {game.transcript()}")
    else:
        game, record = Game(), None
        say("NEW")
    say(f"DATA {autosave.path}")
    tty.setraw(0)
    say("READY")
    typed = b""
    while data := os.read(0, 1024):
        typed += data
        while len(typed) >= 2:
            square, typed = typed[:2].decode(), typed[2:]
            game.play(square)
            record = SavedGame.from_game(game) if record is None else record.with_game(game)
            note = autosave.save(record)
            if note:
                say(f"ASIDE {note}")
            say(f"SAVED {game.transcript()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
