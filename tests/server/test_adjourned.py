"""A game that crashes adjourns its table at once; adjourned games (and games in
progress) are kept in the archive and come back after a server restart, for
`ssh host resume`. Real SSH on loopback; the test speaks the games' protocol."""

import sqlite3
from datetime import UTC, datetime

from tui_reversi.core import Game as CoreGame
from tui_reversi.net.terms import TimeControl
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.store import UnfinishedGame

from .conftest import Player, wait_until
from .test_tables import Game, clocked_table, seat, sit_down

STOPPED = "adjourned bob's game stopped unexpectedly: the game is adjourned until bob is back."


def kept_rows(tmp_path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "server" / "archive.sqlite3") as db:
        return db.execute(
            "SELECT code, black, white, moves, clock, black_left, white_left, adjourned "
            "FROM unfinished"
        ).fetchall()


async def test_a_game_that_goes_without_a_word_adjourns_the_table_at_once(serve, tmp_path):
    arcade = await serve(hold_seat=30.0, max_per_address=10)
    now = [100.0]
    alice, bob, code = await clocked_table(arcade, now, "5+3")
    carol = await Game.connect(await seat(arcade, "carol", f"watch {code}"))
    await carol.hear_until("ready")
    now[0] += 4
    alice.say("move 0 d3")
    for game in (alice, bob, carol):
        await game.hear_until("moved 0 d3")
    now[0] += 7
    bob.writer.close()  # bob's game is killed: its line ends, his SSH session is still there
    # No seat held, no countdown: alice and carol are told at once, the clocks stop.
    for game in (alice, carol):
        heard = await game.hear_until(STOPPED)
        assert "clock 299.0 293.0 -" in heard
        assert not any("held" in line for line in heard)
    assert kept_rows(tmp_path) == [(code, "alice", "bob", "d3", "5+3", 299.0, 293.0, 1)]
    alice.say("move 1 c5")
    assert (
        await alice.hear() == "refused The game is adjourned until you are both back at the table."
    )
    now[0] += 600  # however long it takes, nobody's clock runs and nobody forfeits
    assert (await arcade.store.results("alice")).wins == 0
    # bob connects again as plainly as can be: his seat, and the game goes on.
    again = await Game.connect(await seat(arcade, "bob", None))
    assert "moved 0 d3" in await again.hear_until("ready")
    for game in (alice, again):
        await game.hear_until("resumed You are both back: the game goes on.")
    again.say("begun")  # his board is up again: his clock runs from here
    for game in (alice, again):
        assert await game.hear() == "clock 299.0 293.0 white"
    again.say("move 1 c5")
    assert await alice.hear_until("moved 1 c5")
    await wait_until(lambda: kept_rows(tmp_path)[0][3] == "d3c5", "the move to be kept")


async def test_a_server_restart_keeps_adjourned_games_and_resume_takes_both_back(serve, tmp_path):
    first = await serve(max_per_address=10)
    now = [0.0]
    alice, bob, code = await clocked_table(first, now, "2+1")
    for ply, (game, square, think) in enumerate(((alice, "d3", 10), (bob, "c5", 25))):
        now[0] += think
        game.say(f"move {ply} {square}")
        for player in (alice, bob):
            await player.hear_until(f"moved {ply} {square}")
    now[0] += 5  # alice thinks a while, then the operator stops the server
    await first.close()
    stopping = "adjourned The server is stopping: the game is adjourned, clocks stopped."
    for game in (alice, bob):
        heard = await game.hear_until(stopping)
        assert "clock 106.0 96.0 -" in heard

    second = await serve(max_per_address=10)
    assert f"table {code}: alice against bob kept adjourned, move 3" in "\n".join(second.log_lines)
    # Without a terminal, `resume` lists what there is to resume.
    asker = await Player.connect(second, "bob", term=None, command="resume")
    done = await asker.finished()
    assert done.exit_status == 0
    listed = asker.output.decode()
    assert "bob's adjourned games (resume one with ssh -t -p" in listed
    assert f"  {code}  you (White) against alice, othello, clock 2+1, move 3" in listed
    # With one, `resume` sits down at it; `resume CODE` names it.
    bob = await Game.connect(await seat(second, "bob", "resume"))
    heard = await bob.hear_until("ready")
    assert heard[:2] == [f"seated {code} white othello", "players alice bob"]
    assert heard[-4:] == ["clock 106.0 96.0 -", "moved 0 d3", "moved 1 c5", "ready"]
    assert await bob.hear() == "adjourned Adjourned: the game goes on when alice is back too."
    carol = await Game.connect(await seat(second, "carol", f"watch {code}"))
    await carol.hear_until("ready")
    assert await carol.hear() == "adjourned Adjourned: the game goes on when both players are back."
    alice = await Game.connect(await seat(second, "alice", f"resume {code.lower()}"))
    await alice.hear_until("ready")
    for game in (alice, bob):
        await game.hear_until("resumed You are both back: the game goes on.")
        game.say("begun")
    for game in (alice, bob):
        assert await game.hear() == "clock 106.0 96.0 black"
    alice.say("move 2 c6")
    assert await bob.hear() == "moved 2 c6"


async def test_a_game_in_progress_outlives_a_server_that_was_killed(serve, tmp_path):
    first = await serve(max_per_address=10)
    alice, bob, code = await sit_down(first)
    alice.say("move 0 d3")
    await bob.hear_until("moved 0 d3")
    # A second server on the same data directory reads what the first had kept, as a
    # server started after the first was killed (no goodbye, nothing adjourned) would.
    second = await serve(max_per_address=10)
    table = second.tables.tables[code]
    assert table.adjourned and table.game.transcript() == "d3"
    assert [t.code for t in second.tables.adjourned_for("bob")] == [code]


async def test_resume_with_nothing_to_resume_is_one_sentence(serve):
    arcade = await serve()
    for command, sentence in (
        ("resume", "alice has no adjourned games on this server."),
        ("resume NOPE9", "you have no adjourned game 'NOPE9'."),
    ):
        player = await Player.connect(arcade, "alice", command=command)
        done = await player.finished()
        assert done.exit_status == 1
        assert sentence in player.output.decode()


async def test_a_finished_game_is_no_longer_kept_unfinished(serve, tmp_path):
    arcade = await serve()
    alice, bob, code = await sit_down(arcade)
    assert [row[0] for row in kept_rows(tmp_path)] == [code]
    bob.say("resign")
    await alice.hear_until("over resigned black bob (White) resigned: alice (Black) wins.")
    assert kept_rows(tmp_path) == []


async def test_an_unfinished_game_that_cannot_be_read_back_is_one_sentence_and_the_rest_load(
    tmp_path,
):
    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    started = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    kept = UnfinishedGame(
        "ABCDE",
        CoreGame.from_transcript("f5d6"),
        ("alice", "bob"),
        TimeControl(300.0, 3.0),
        (250.5, 280.25),
        started,
        adjourned=True,
    )
    await archive.save_table(kept)
    await archive.save_table(
        UnfinishedGame("FGHJK", CoreGame(), ("carol", "dave"), None, (0, 0), started, False)
    )
    archive._db.execute("UPDATE unfinished SET moves = 'a1' WHERE code = 'FGHJK'")
    games, problems = await archive.unfinished_tables()
    assert [(g.code, g.game.transcript(), g.names, g.time_control, g.left) for g in games] == [
        ("ABCDE", "f5d6", ("alice", "bob"), TimeControl(300.0, 3.0), (250.5, 280.25))
    ]
    assert games[0].started == started
    (problem,) = problems
    assert problem.startswith("table 'FGHJK''s unfinished game cannot be read back: move 1 (a1)")
    await archive.close()


async def test_stopping_the_server_with_games_at_tables_logs_no_error(serve, caplog):
    arcade = await serve(max_per_address=10)
    await sit_down(arcade)
    waiting = await Game.connect(await seat(arcade, "carol", "table"))
    await waiting.hear_until("ready")
    await arcade.close()
    problems = [record for record in caplog.records if record.levelname in ("ERROR", "CRITICAL")]
    assert problems == []
    # (asyncio's and the other libraries' errors are the server's `library` events)
    logged = [line for line in arcade.log_lines if " library " in line]
    assert not [line for line in logged if "level=error" in line or "level=critical" in line]


async def test_resume_with_several_adjourned_games_lists_them_to_choose_from(serve):
    arcade = await serve(max_per_address=10)
    codes = []
    for opponent in ("bob", "carol"):
        host = await Game.connect(await seat(arcade, "alice", "table"))
        await host.hear_until("ready")
        (code,) = set(arcade.tables.tables) - set(codes)
        codes.append(code)
        guest = await Game.connect(await seat(arcade, opponent, f"join {code}"))
        await guest.hear_until("ready")
        guest.writer.close()  # the guest's game goes without a word: adjourned
        await host.hear_until(
            f"adjourned {opponent}'s game stopped unexpectedly: "
            f"the game is adjourned until {opponent} is back."
        )
        host.say("leave")  # alice goes home too; the game stays adjourned
        table = arcade.tables.tables[code]
        await wait_until(lambda table=table: not table.links, "alice to leave")
    # With a terminal (and a look option): several to choose from, so they are listed.
    asker = await Player.connect(arcade, "alice", command="resume ascii")
    done = await asker.finished()
    assert done.exit_status == 0
    listed = asker.output.decode()
    assert f"  {codes[0]}  you (Black) against bob, othello, move 1" in listed
    assert f"  {codes[1]}  you (Black) against carol, othello, move 1" in listed
    chosen = await Game.connect(await seat(arcade, "alice", f"resume {codes[1]}"))
    assert (await chosen.hear_until("ready"))[0] == f"seated {codes[1]} black othello"


async def test_two_games_of_one_pair_in_one_minute_are_both_saved(tmp_path):
    from tui_reversi.core import Color, Ending
    from tui_reversi.server.ledger.store import PlayedGame
    from tui_reversi.storage import SavedGames

    archive = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    started = datetime(2026, 11, 24, 13, 0, 5, tzinfo=UTC)
    resigned = Ending("resigned", Color.BLACK, "White resigned.")
    for transcript in ("f5d6", "f5f6"):  # a quick rematch: same pair, colours, table, minute
        game = CoreGame.from_transcript(transcript)
        assert (
            await archive.keep(PlayedGame("ABCDE", game, ("bob", "alice"), started, resigned)) == []
        )
    for name in ("bob", "alice"):
        games = SavedGames(tmp_path / "players" / name / "data" / "tui-reversi" / "games")
        saved = sorted((entry.name, entry.record.transcript) for entry in games.list())
        assert saved == [  # f5 d6, then f5 f6
            ("bob vs alice 2026-11-24 13.00 table ABCDE", "f5d6"),
            ("bob vs alice 2026-11-24 13.00 table ABCDE (2)", "f5f6"),
        ]
    await archive.close()
