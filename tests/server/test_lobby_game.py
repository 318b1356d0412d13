"""The lobby and an invitation over real SSH: the real `tui-reversi serve` on
loopback, alice and bob each connected with a plain OpenSSH client in a
private tmux at 80x24, the real app at both ends. alice invites bob from the
lobby, bob declines, then accepts the next one; both play at the new table
and the result reaches both players' saved games and the archive."""

import re
import sqlite3
import sys

import pytest

from tui_reversi.core import Game, Move
from tui_reversi.storage import SavedGames

from ..app.test_tmux_keeping import board
from .test_table_game import people as people  # the fixture: the server and a tmux
from .test_table_game import rows, wait_screen


def at_home(people, name: str) -> None:
    people.ssh(name, name, "")
    wait_screen(people, name, lambda s: "Black to play" in s, f"{name}'s own game")


def invite_bob(people, keys: tuple[str, ...]) -> None:
    """alice opens the lobby, picks bob and sends an invitation on the terms `keys` choose."""
    people("send-keys", "-t", "alice", "L")
    free = re.compile(r"\bbob +1500\? +free,")  # each name with its rating beside it
    yourself = "alice (you)      1500?  free, playing on their own"
    wait_screen(people, "alice", lambda s: free.search(s) and yourself in s, "bob, free")
    people("send-keys", "-t", "alice", "j", "Enter")  # alice, bob: sorted by name
    wait_screen(people, "alice", lambda s: "Invite bob (1500?) to a game" in s, "the terms")
    people("send-keys", "-t", "alice", *keys, "Enter")
    wait_screen(people, "alice", lambda s: "Waiting for bob (1500?) to answer" in s, "the wait")


def test_alice_invites_bob_from_the_lobby_they_play_and_the_result_is_kept(people):
    at_home(people, "alice")
    at_home(people, "bob")
    invite_bob(people, ())  # a random colour, Othello, no clock
    asked = ("alice (1500?) invites you to a game: you play a colour drawn at", "no clock")
    wait_screen(people, "bob", lambda s: all(part in s for part in asked), "the invitation")
    people("send-keys", "-t", "bob", "n")
    wait_screen(people, "alice", lambda s: "bob declined your invitation." in s, "the answer")
    people("send-keys", "-t", "alice", "Escape")  # back to the board, then the lobby again
    wait_screen(people, "alice", lambda s: "Black to play" in s, "alice's board")
    # Black for alice (random -> white -> black), Othello, clock 5+3 (none, 1+0, 3+2, 5+3).
    invite_bob(people, ("Left", "Left", "Down", "Down", "Right", "Right", "Right"))
    asked = ("alice (1500?) invites you to a game: you play White,", "5+3.")
    wait_screen(people, "bob", lambda s: all(part in s for part in asked), "the second one")
    people("send-keys", "-t", "bob", "y")
    seated = {
        "alice": "you (1500?) play Black against bob (1500?).",
        "bob": "you (1500?) play White against alice (1500?).",
    }
    for name, told in seated.items():
        wait_screen(
            people,
            name,
            lambda s, told=told: (
                told in s
                and re.search(r"Black alice.*\b[45]:\d\d", s)  # the clocks are on
                and re.search(r"White bob.*\b5:00", s)
            ),
            f"{name} at the table, the clocks on",
        )
    titled = re.compile(r"Table ([A-Z0-9]{5}):")
    code = titled.search(wait_screen(people, "alice", titled.search, "the table's code")).group(1)
    game = Game()
    for mover, square in (("alice", "d3"), ("bob", "c5"), ("alice", "e6")):
        people("send-keys", "-t", mover, *square)
        game.play(Move.parse(square))
        expected = rows(game)
        for name in ("alice", "bob"):
            wait_screen(
                people,
                name,
                lambda s, expected=expected: board(s) == expected,
                f"the board after {square} on {name}'s screen",
            )
    people("send-keys", "-t", "bob", "R")
    wait_screen(people, "bob", lambda s: "Resign this game?" in s, "the question")
    people("send-keys", "-t", "bob", "y")
    told = "bob (White) resigned: alice (Black) wins."
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: told in s, f"the result on {name}'s screen")
    people.server.wait_for(f"table {code}: bob \\(White\\) resigned")
    with sqlite3.connect(people.data / "archive.sqlite3") as db:
        row = db.execute("SELECT code, black, white, moves, winner, ending FROM games").fetchone()
    assert row == (code, "alice", "bob", "d3c5e6", "black", "resigned")
    for name in ("alice", "bob"):
        directory = people.data / "players" / name / "data" / "tui-reversi" / "games"
        (entry,) = SavedGames(directory).list()
        assert entry.record.names == ("alice", "bob")
        assert entry.record.to_game().transcript() == "d3c5e6"
        assert entry.status == "Black wins: White resigned"  # the result, and how
    # Leaving the table, alice is back in her own game, the lobby a key away.
    people("send-keys", "-t", "alice", "q")
    wait_screen(people, "alice", lambda s: "Black to play" in s, "alice's own game again")
    people("send-keys", "-t", "alice", "L")
    wait_screen(
        people,
        "alice",
        lambda s: "Your record here: 1 won, 0 lost, 0 drawn; rating 1741?" in s,
        "alice's record in the lobby",
    )
    # and how the game moved her rating, as `ssh host lobby` says it (issue 39)
    moved = "Your last game, against bob (id 1), moved your rating +241."
    wait_screen(people, "alice", lambda s: moved in s, "the change in alice's lobby")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
