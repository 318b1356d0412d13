"""`ssh host help`, `top`, `player NAME` and `replay ID` over real SSH: the
commands that print lines, read from one table (hall/commands.py) and the
store's standings."""

from __future__ import annotations

from datetime import UTC, datetime

from tui_reversi.core import Color, Ending, Game
from tui_reversi.net.lobby_link import LOBBY_SOCKET_VARIABLE, REPLAY_VARIABLE
from tui_reversi.server.hall.commands import COMMANDS
from tui_reversi.server.hall.table_store import rating_changes
from tui_reversi.server.ledger.ratings import Rating
from tui_reversi.server.ledger.store import PlayedGame
from tui_reversi.storage.ggf import parse_ggf

from .conftest import Player, wait_until
from .test_accounts import run
from .test_fleet import two_nodes
from .test_invitations import Guest, next_game
from .test_store import settle
from .test_tables import sit_down

STARTED = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def played(code: str, names: tuple[str, str], winner: Color) -> PlayedGame:
    game = Game.from_transcript("f5d6c3")
    return PlayedGame(code, game, names, STARTED, Ending("resigned", winner, "It ended."))


# Games alice won against bob, both settled players.
WINS = 3


async def archive_games(arcade) -> None:
    """alice and bob settled, alice ahead, alice beats bob WINS times; carol, new, beats
    alice once; dave and erin have one game each (provisional, all three)."""
    await settle(arcade.store, "alice", 1700.0)
    await settle(arcade.store, "bob", 1600.0)
    for number in range(WINS):
        await arcade.store.keep(played(f"AB{number:03}", ("alice", "bob"), Color.BLACK))
    await arcade.store.keep(played("CA000", ("carol", "alice"), Color.BLACK))
    await arcade.store.keep(played("DE000", ("dave", "erin"), Color.WHITE))


async def test_help_lists_every_command_with_its_terms_and_the_look_options(serve):
    arcade = await serve()
    status, shown = await run(arcade, "alice", "help")
    assert status == 0
    lines = shown.splitlines()
    for command in COMMANDS:
        (at,) = [n for n, line in enumerate(lines) if line.startswith(f"  {command.name} ")]
        assert command.terms in lines[at]
        assert command.says in lines[at] or lines[at + 1].strip() == command.says  # (long terms)
    assert "Look options (after any game's command): ascii, no-mouse, no-animation, theme NAME" in (
        shown
    )
    assert "black LEVEL" in shown  # the options of the player's own game
    # `keys web` is one of keys' terms, and said what it does.
    (keys,) = [n for n, line in enumerate(lines) if line.startswith("  keys ")]
    assert "| web [list | remove ID]" in lines[keys] and "bind a browser" in lines[keys + 1]
    assert "  table [black|white|random] [5+3] [variant othello|reversi|anti]" in shown
    assert "Clocks: minutes each + seconds a move: 1+0 3+2 5+3 10+5 15+10 30+20, or none" in (lines)


async def test_a_mistyped_command_is_named_and_the_list_follows(serve):
    arcade = await serve()
    status, shown = await run(arcade, "alice", "tabel clock 5+3")
    assert status == 2
    first, *rest = shown.splitlines()
    assert first == (
        "tui-reversi: 'tabel' is neither a command nor a game option here; did you mean table?"
    )
    assert any(line.startswith("  top [N]") for line in rest)
    # With a terminal too (a game would have started for a right command).
    player = await Player.connect(arcade, "alice", command="xyzzy")
    done = await player.finished()
    assert done.exit_status == 2
    assert "'xyzzy' is neither a command nor a game option here." in player.output.decode()


async def test_top_ranks_the_settled_players_only(serve):
    arcade = await serve()
    status, shown = await run(arcade, "zed", "top")
    assert shown.startswith("tui-reversi: nobody has a settled rating here yet (a rating")
    await archive_games(arcade)
    status, shown = await run(arcade, "zed", "top")
    assert status == 0
    lines = shown.splitlines()
    assert lines[0] == "tui-reversi: the leaderboard"
    assert [line.split()[:2] for line in lines[2:]] == [["1", "alice"], ["2", "bob"]]
    alice = lines[2].split()
    assert not alice[2].endswith("?") and alice[3:5] == ["44", f"{WINS}-0-1"]
    status, shown = await run(arcade, "zed", "top 1")
    assert [line.split()[1] for line in shown.splitlines()[2:3]] == ["alice"]
    status, shown = await run(arcade, "zed", "top lots")
    assert status == 2
    ssh = f"ssh -p {arcade.port} zed@127.0.0.1"  # (ready to paste)
    assert shown == f"tui-reversi: top takes a number of players (1-200): {ssh} top 50\n"


async def test_player_shows_the_rating_history_record_opponents_and_latest_games(serve):
    arcade = await serve()
    await archive_games(arcade)
    status, shown = await run(arcade, "zed", "player alice")
    assert status == 0
    lines = shown.splitlines()
    rating = await arcade.store.rating("alice")
    assert lines[:2] == [
        "tui-reversi: alice",
        f"Rating {rating.shown}, rank 1 after 44 rated games",
    ]
    deviation = f"Deviation {rating.deviation:.0f} (provisional over 110), volatility 0.060"
    assert lines[2] == deviation  # `player NAME` says how sure the rating is
    assert lines[3] == f"Record: {WINS} won, 1 lost, 0 drawn"
    assert lines[4].startswith("Last game: ") and lines[4].endswith(" UTC")
    assert lines[5].startswith("Rating over the last 4 rated games: from 1700 to ")
    assert "█" in lines[6] and len(lines[6]) == 2 + 5  # the start and 4 games
    assert f"  bob                  {WINS} won, 0 lost, 0 drawn" in lines
    assert "  carol                0 won, 1 lost, 0 drawn" in lines
    latest = lines[lines.index(next(line for line in lines if line.startswith("Latest"))) + 1]
    # (a settled rating moves little against a new name's: Glicko's g, ratings.py)
    assert " carol " in latest and "White" in latest and "lost (-" in latest
    assert latest.split()[0].isdigit()  # the game's id, first: what replay takes
    status, shown = await run(arcade, "zed", "player nobody")
    assert (status, shown) == (1, "tui-reversi: nobody called 'nobody' has finished a game here.\n")


async def test_replay_without_a_terminal_prints_the_archived_game_as_ggf(serve):
    arcade = await serve()
    await archive_games(arcade)
    (game,) = (await arcade.store.profile("dave", 1)).games
    status, shown = await run(arcade, "zed", f"replay {game.id}")
    assert status == 0
    record = parse_ggf(shown)
    assert record.names == ("dave", "erin")
    assert record.to_game().transcript() == "f5d6c3"
    assert "RE[-64.00:r]" in shown  # black resigned
    status, shown = await run(arcade, "zed", "replay 99999")
    assert (status, shown) == (1, "tui-reversi: there is no game 99999 in this server's archive.\n")
    status, shown = await run(arcade, "zed", "replay first")
    assert status == 2 and "replay takes a game's number" in shown


async def test_the_in_app_lobby_is_sent_the_same_leaderboard_and_profiles_with_own_hints(serve):
    arcade = await serve()
    await archive_games(arcade)
    guest = await Guest.arrive(arcade, "zed")
    guest.say("top")
    assert await guest.hear_starting("page ") == "page Leaderboard"
    assert await guest.hear() == "row - the leaderboard"
    await guest.hear()  # (the heading)
    assert (await guest.hear()).split()[:4] == ["row", "player:alice", "1", "alice"]
    guest.say("player alice")
    assert await guest.hear_starting("page ") == "page alice"
    rows = []
    while (text := await guest.hear()) != "paged":
        rows.append(text)
    # The first row is alice herself, keyed as a player: the app's b and r reach her.
    assert rows[0] == "row player:alice alice" and rows[1].startswith("row - Rating ")
    assert ["row", "player:carol", "carol", "0", "won,", "1", "lost,", "0", "drawn"] in [
        row.split() for row in rows
    ]
    # Its hint is zed's own command, ready to paste, as every hint is.
    ssh = f"ssh -t -p {arcade.port} zed@127.0.0.1"
    assert f"row - Latest games (replay one: {ssh} replay ID):" in rows
    guest.say("player nobody")
    said = await guest.hear_starting("refused ")
    assert said == "refused Nobody called nobody has finished a game here."


async def test_replay_with_a_terminal_gives_the_game_the_archived_game_to_open(serve):
    arcade = await serve()
    await archive_games(arcade)
    (game,) = (await arcade.store.profile("dave", 1)).games
    player = await Player.connect(arcade, "zed", command=f"replay {game.id} ascii")
    facts = await player.facts()
    record = parse_ggf(facts["env"][REPLAY_VARIABLE])
    assert record.names == ("dave", "erin") and record.to_game().transcript() == "f5d6c3"
    assert facts["args"][-1:] == ["--ascii"]
    assert LOBBY_SOCKET_VARIABLE not in facts["env"]  # a replay, not zed's own game
    refused = await Player.connect(arcade, "zed", command=f"replay {game.id} black hard")
    done = await refused.finished()
    assert done.exit_status == 2
    assert "in a replay only ascii, no-mouse, no-animation, theme may be chosen, not black" in (
        refused.output.decode()
    )
    missing = await Player.connect(arcade, "zed", command="replay 99999")
    done = await missing.finished()
    assert done.exit_status == 1
    assert "there is no game 99999 in this server's archive." in missing.output.decode()


async def test_a_fleets_nodes_show_one_leaderboard_and_replay_each_others_games(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    await archive_games(a)  # every game ended on node A
    _, on_a = await run(a, "zed", "top")
    _, on_b = await run(b, "zed", "top")
    assert on_a == on_b and "alice" in on_b
    (game,) = (await b.store.profile("dave", 1)).games
    status, shown = await run(b, "zed", f"replay {game.id}")
    assert status == 0 and parse_ggf(shown).names == ("dave", "erin")


async def test_a_game_chosen_in_the_in_app_lobby_opens_for_review_then_home_again(serve):
    arcade = await serve()
    await archive_games(arcade)
    (game,) = (await arcade.store.profile("dave", 1)).games
    guest = await Guest.arrive(arcade, "zed")
    guest.say("replay 99999")
    said = await guest.hear_starting("refused ")
    assert said == "refused There is no game 99999 in this server's archive."
    guest.say(f"replay {game.id}")
    assert await guest.hear_starting("go ") == f"go game-{game.id}"
    replay = await next_game(guest.player)  # the stand-in quits, as the app does on `go`
    assert parse_ggf(replay[REPLAY_VARIABLE]).names == ("dave", "erin")
    assert LOBBY_SOCKET_VARIABLE not in replay
    home = await next_game(guest.player)  # the review over: zed's own game, the lobby near
    assert REPLAY_VARIABLE not in home and LOBBY_SOCKET_VARIABLE in home


async def test_after_a_rated_game_both_players_hear_how_it_moved_their_ratings(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, _ = await sit_down(arcade)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    alice.say("resign")
    for game in (alice, bob):
        heard = await game.hear_until("rerated alice 1259? (-241), bob 1741? (+241)")
        assert any(text.startswith("over resigned") for text in heard)


async def test_an_unrated_game_moves_no_rating_and_says_nothing():
    before = {"alice": Rating(1500.0, 80.0, 0.06, 3), "guest-ab12": Rating()}
    assert rating_changes(before, dict(before)) == ""
    after = {"alice": Rating(1516.0, 79.0, 0.06, 4), "bob": Rating(1484.4, 450.0, 0.09, 1)}
    moved = rating_changes({"alice": before["alice"], "bob": Rating()}, after)
    assert moved == "alice 1516 (+16), bob 1484? (-16)"  # (alice settled, bob provisional)


async def test_a_number_too_long_for_int_or_not_ascii_is_one_sentence_and_the_session_ends(serve):
    arcade = await serve()
    ssh = f"ssh -p {arcade.port} zed@127.0.0.1"
    # 5,000 digits: past Python's int() limit (4,300), which once left the session hanging.
    for words in ("9" * 5000, "²"):  # ('²' is a digit to str.isdigit(), not to int())
        status, shown = await run(arcade, "zed", f"top {words}")
        assert (status, shown) == (
            2,
            f"tui-reversi: top takes a number of players (1-200): {ssh} top 50\n",
        )
    status, shown = await run(arcade, "zed", "replay ²")
    assert status == 2 and shown.startswith("tui-reversi: replay takes a game's number")
    await wait_until(lambda: not arcade.connections, "every connection to close")


async def test_a_command_that_fails_on_a_bug_ends_in_one_sentence_and_a_bug_in_the_log(
    serve, monkeypatch
):
    arcade = await serve()

    async def broken(count: int) -> list:
        raise RuntimeError("the leaderboard's query went wrong")

    monkeypatch.setattr(arcade.store, "leaderboard", broken)
    player = await Player.connect(arcade, "zed", term=None, command="top")
    done = await player.finished()
    said = (await player.process.stderr.read()).decode()
    assert done.exit_status == 1 and player.output == b""
    assert said == (
        "tui-reversi: the server could not answer that; please tell the server's operator.\n"
    )
    await wait_until(lambda: not arcade.connections, "the connection to close")
    bugs = [line for line in arcade.log_lines if " bug " in line]
    assert any("RuntimeError: the leaderboard's query went wrong" in line for line in bugs)
    assert any("could not answer its command" in line for line in arcade.log_lines)
