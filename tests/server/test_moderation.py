"""Block, report and the moderators' commands over real SSH, on a single server
(SQLite): a block keeps an invitation, a chat line, a seat and a pairing from
happening, both ways; a report keeps the game and the chat; a moderator (by
name and key) bans, mutes, notes and reads the log, and every refusal is one
sentence; a ban ends the banned player's session and refuses the next login;
a ban for cheating refunds the victims, each told at their next login."""

from __future__ import annotations

import asyncio
import socket

import asyncssh
import pytest

from tui_reversi.core import Color
from tui_reversi.net.lobby_link import LobbyLink
from tui_reversi.server.hall.mod_commands import REPORT_ROWS
from tui_reversi.server.ledger.moderation import WATCH_REPORTER, Report
from tui_reversi.server.ledger.refunds import REFUND_MOST

from .conftest import Player, wait_until
from .test_accounts import run
from .test_invitations import Guest
from .test_store import played
from .test_tables import Game, seat, sit_down, table_code

MODERATORS = (("mia", "moderator"), ("ada", "admin"))


# The next line a game (or a lobby's guest) hears that starts with a prefix.
heard = Guest.hear_starting


async def notices(arcade, user: str) -> str:
    """What `user` is told on stderr as they come in (`ssh host blocks`)."""
    player = await Player.connect(arcade, user, term=None, command="blocks")
    await player.finished()
    told = await player.process.stderr.read()
    player.close()
    return told.decode()


async def known(arcade, *names: str) -> None:
    """Each name has been here (logged in once, with its key)."""
    for name in names:
        status, _ = await run(arcade, name, "blocks")
        assert status == 0


async def archived(arcade) -> bool:
    """True once a game is in the archive."""
    return bool(await arcade.store.run_query("SELECT id FROM games", ()))


async def test_block_unblock_and_blocks_with_their_refusals(serve):
    arcade = await serve()
    await known(arcade, "alice", "bob")
    assert await run(arcade, "alice", "block bob") == (
        0,
        "tui-reversi: you block bob: no invitation, chat or pairing between you.\n",
    )
    assert await run(arcade, "alice", "block bob") == (0, "tui-reversi: you block bob already.\n")
    assert await run(arcade, "alice", "blocks") == (
        0,
        "tui-reversi: you block 1 of at most 500:\n  bob\n",
    )
    status, said = await run(arcade, "alice", "block nobody\x1b[2J")
    assert status == 1 and said == "tui-reversi: nobody called 'nobody\\x1b[2J' has been here.\n"
    assert (await run(arcade, "alice", "block alice"))[1] == "tui-reversi: that is your own name.\n"
    assert (await run(arcade, "alice", "block"))[0] == 2
    assert await run(arcade, "alice", "unblock bob") == (
        0,
        "tui-reversi: you no longer block bob.\n",
    )
    assert await run(arcade, "alice", "unblock bob") == (
        1,
        "tui-reversi: you do not block 'bob'.\n",
    )
    status, said = await run(arcade, "anyone", "block bob", guest=True)
    assert status == 1 and "a guest's name is not kept" in said


async def test_a_block_keeps_invitations_seats_and_chat_apart_both_ways(serve):
    arcade = await serve(max_per_address=10)
    await known(arcade, "alice", "bob", "carol")
    await run(arcade, "bob", "block alice")
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    carol = await Guest.arrive(arcade, "carol")
    carol.say("block alice")  # (from the lobby in the app, as `ssh host block alice`)
    assert await heard(carol, "answered ") == (
        "answered You block alice: no invitation, chat or pairing between you."
    )
    carol.say("invite alice black")
    assert await heard(carol, "refused ") == "refused Your invitation to alice cannot be sent."
    carol.say("block nobody")
    assert await heard(carol, "refused ") == "refused Nobody called 'nobody' has been here."
    carol.say("report alice spam invites all day")  # (the lobby's report, from the app)
    assert await heard(carol, "answered ") == (
        "answered Report 1 on alice (spam) is filed; you will be told when a moderator acts on it."
    )
    carol.say("report alice rudeness")
    assert (await heard(carol, "refused ")).startswith("refused 'rudeness' is not a reason")
    carol.say("unblock alice")  # (the lobby's u, as `ssh host unblock alice`)
    assert await heard(carol, "answered ") == "answered You no longer block alice."
    carol.say("unblock alice")
    assert await heard(carol, "refused ") == "refused You do not block 'alice'."
    for inviter, invitee in ((alice, "bob"), (bob, "alice")):
        inviter.say(f"invite {invitee} black")
        assert await heard(inviter, "refused ") == (
            f"refused Your invitation to {invitee} cannot be sent."
        )
    # bob's table: alice cannot sit down at it (nor could bob at hers).
    bob_game = await Game.connect(await seat(arcade, "bob", "table"))
    await bob_game.hear_until("ready")
    code = table_code(arcade)
    player = await Player.connect(arcade, "alice", command=f"join {code}")
    done = await player.finished()
    assert done.exit_status == 1
    assert f"that seat at table {code} cannot be taken." in player.output.decode()
    # carol sits down instead; alice watches and says something: not passed on.
    carol_game = await Game.connect(await seat(arcade, "carol", f"join {code}"))
    await carol_game.hear_until("ready")
    watcher = await Game.connect(await seat(arcade, "alice", f"watch {code}"))
    await watcher.hear_until("ready")
    watcher.say("say hello bob")
    assert await heard(watcher, "refused ") == "refused That line cannot be sent here."
    carol_game.say("say hello all")
    assert await heard(bob_game, "said ") == "said carol hello all"


async def test_a_block_keeps_two_players_from_being_paired(serve):
    arcade = await serve(max_per_address=10)
    await known(arcade, "alice", "bob")
    await run(arcade, "alice", "block bob")
    alice = await Player.connect(arcade, "alice", command="play 5+3")
    await alice.expect("Waiting ")
    bob = await Player.connect(arcade, "bob", command="play 5+3")
    await bob.expect("Waiting ")
    await asyncio.sleep(1.5)  # (more than a tick of the queue: they would be paired by now)
    assert not arcade.tables.tables and len(arcade.pairing.seekers) == 2
    carol = await Player.connect(arcade, "carol", command="play 5+3")
    await carol.facts()  # carol is paired with one of them
    assert len(arcade.tables.tables) == 1


async def test_a_report_keeps_the_game_and_the_chat_and_its_reporter_is_told(serve):
    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia")
    alice, bob, code = await sit_down(arcade)
    bob.say("say you play like [b]a bot[/b]")
    await heard(alice, "said ")
    alice.say("move 0 d3")  # (a game with no move is not kept)
    await heard(bob, "moved ")
    alice.say("resign")
    await heard(bob, "over ")

    await wait_until(lambda: archived(arcade), "the game archived")
    status, said = await run(arcade, "alice", "report bob abuse rude in chat")
    assert status == 0 and "report 1 on bob (abuse) about game 1 is filed;" in said
    status, said = await run(arcade, "alice", "report bob rudeness")
    assert status == 2 and said.startswith("tui-reversi: 'rudeness' is not a reason to report;")
    status, shown = await run(arcade, "mia", "mod reports")
    assert status == 0
    assert "alice on bob, abuse, game 1: rude in chat" in shown
    assert "| bob: you play like [b]a bot[/b]" in shown  # (as typed: never markup)
    assert code  # (the table it was said at)
    status, said = await run(arcade, "mia", "mod mute bob 30m abuse in chat")
    assert status == 0 and "1 report on bob closed." in said
    assert await notices(arcade, "alice") == (
        "tui-reversi: a moderator acted on your report 1 on bob: muted.\n"
    )
    assert await notices(arcade, "alice") == ""  # (told once)
    await run(arcade, "alice", "report bob other again")
    assert (await run(arcade, "mia", "mod dismiss 2 nothing in it"))[0] == 0
    assert await notices(arcade, "alice") == (
        "tui-reversi: a moderator looked at your report 2 on bob and closed it without acting.\n"
    )


async def test_a_player_reports_the_opponent_from_the_table_after_the_game(serve):
    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia")
    alice, bob, _code = await sit_down(arcade)
    bob.say("say [b]too slow[/b]")
    await heard(alice, "said ")
    alice.say("move 0 d3")
    await heard(bob, "moved ")
    bob.say("resign")
    await heard(alice, "over ")

    await wait_until(lambda: archived(arcade), "the game archived")
    alice.say("report stalling never moved in time")  # (the game-over dialog's !)
    assert await heard(alice, "news ") == (
        "news Report 1 on bob (stalling) about game 1 is filed; "
        "you will be told when a moderator acts on it."
    )
    alice.say("report rudeness")
    assert (await heard(alice, "refused ")).startswith("refused 'rudeness' is not a reason")
    status, shown = await run(arcade, "mia", "mod reports")
    assert status == 0 and "alice on bob, stalling" in shown and "never moved in time" in shown
    assert "| bob: [b]too slow[/b]" in shown  # (this table's chat, as typed)


async def test_mod_refuses_in_one_sentence(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "ada", "bob", "nina")
    await arcade.store.name_role("nina", "moderator", "ada", 0.0)
    await arcade.moderation.read()
    cases = [
        ("bob", "mod reports", "mod is for this server's moderators, and bob is not one."),
        ("mia", "mod ban nobody 1d spam", "nobody called 'nobody' has been here."),
        ("mia", "mod ban bob 3y spam", "'3y' is not a duration: say 30m, 2h, 7d or 2w"),
        ("mia", "mod mute bob forever spam", "'forever' is not a duration"),
        ("mia", "mod ban bob 0m spam", "a ban lasts from 1m to"),
        ("mia", "mod ban nina 1d spam", "nina is a moderator: only an admin may ban a moderator."),
        ("mia", "mod ban ada 1d spam", "ada is an admin: take the role away first"),
        ("mia", "mod ban 10.0.0.0/8 1d spam", "10.0.0.0/8 is too wide: an address ban takes at"),
        ("mia", "mod void 1", "mod void is for admins; mia is a moderator."),
        ("ada", "mod void 99999", "there is no game 99999 here."),
        ("mia", "mod unban bob", "'bob' is not banned."),
        ("mia", "mod frobnicate", "'frobnicate' is not something mod does;"),
        ("mia", "mod ban mia 1d spam", "you cannot ban yourself."),
        ("ada", "mod role mia none", "mia's role is the command line's (--moderators)"),
        # (a reason or a text of control characters alone is none)
        ("mia", "mod mute bob 1h \x1b\x07", "say: "),
        ("mia", "mod ban bob 1h \x1b \x7f", "say: "),
        ("mia", "mod note bob \x1b", "say: "),
        ("ada", "mod close bob \x07", "say: "),
    ]
    for who, command, sentence in cases:
        status, said = await run(arcade, who, command)
        assert status != 0, command
        assert said.startswith(f"tui-reversi: {sentence}"), (command, said)
        assert said.count("\n") == 1, said
    # An admin may ban a moderator; a name without its key is no moderator.
    assert (await run(arcade, "ada", "mod ban nina 1h spam"))[0] == 0


async def test_a_ban_ends_the_session_refuses_the_login_and_is_in_the_log(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "bob")
    bob = await Player.connect(arcade, "bob")
    await bob.facts()
    status, said = await run(arcade, "mia", "mod ban bob 2h abuse")
    assert status == 0 and said.startswith("tui-reversi: bob is banned until ")
    await bob.finished()
    assert "You are banned from this server until " in bob.output.decode()
    assert ": abuse." in bob.output.decode()
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(arcade, "bob", "lobby")
    assert refused.value.reason.startswith("You are banned from this server until ")
    assert await run(arcade, "mia", "mod unban bob") == (
        0,
        "tui-reversi: bob is no longer banned.\n",
    )
    assert (await run(arcade, "bob", "blocks"))[0] == 0  # back in
    assert (await run(arcade, "mia", "mod note bob warned about chat"))[0] == 0
    status, shown = await run(arcade, "mia", "mod log bob")
    lines = shown.splitlines()[1:]
    assert [line.split()[3:5] for line in lines] == [
        ["mia", "note"],
        ["mia", "unban"],
        ["mia", "ban"],
    ]
    assert "until " in lines[2] and lines[2].endswith(": abuse")


async def test_a_ban_by_address_prefix_holds_against_everyone_from_it(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia")
    assert (await run(arcade, "mia", "mod ban 127.0.0.0/24 10m flood"))[0] == 0
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(arcade, "zed", "lobby", guest=True)
    assert refused.value.reason.endswith(": flood")
    # (a moderator's name is banned by name alone, by an admin: mia comes from it too)
    assert (await run(arcade, "mia", "mod unban 127.0.0.9/24"))[0] == 0
    assert (await run(arcade, "zed", "lobby", guest=True))[0] == 0


async def test_a_muted_player_is_refused_chat_with_the_time_left(serve):
    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia", "alice", "bob")
    assert (await run(arcade, "mia", "mod mute bob 1h spam"))[0] == 0
    alice, bob, _ = await sit_down(arcade)
    bob.say("say hello")
    refusal = await heard(bob, "refused ")
    assert refusal.startswith("refused You are muted for another ") and "(spam)" in refusal
    alice.say("say hi")
    assert await heard(bob, "said ") == "said alice hi"


async def test_a_ban_for_cheating_refunds_the_victims_and_tells_them(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "alice", "bob")
    await arcade.store.keep(played("AAAAA", ("bob", "alice"), Color.BLACK))
    lost = await arcade.store.rating("alice")
    # (Glicko-2 moves a new name far: the game's loss, at most REFUND_MOST, comes back.)
    owed = min(1500 - lost.rating, REFUND_MOST)
    status, said = await run(arcade, "mia", "mod ban bob forever cheating with an engine")
    assert status == 0 and "bob is banned for good: cheating with an engine" in said
    assert f"refunded alice {owed:+.0f}" in said
    refunded = await arcade.store.rating("alice")
    assert refunded.rating == pytest.approx(lost.rating + owed)
    assert refunded.deviation == pytest.approx(lost.deviation)  # (points alone)
    assert f"bob is banned for cheating: the {owed:.0f} rating points you lost" in (
        await notices(arcade, "alice")
    )
    status, shown = await run(arcade, "mia", "mod log")
    assert f" refund alice: {owed:+.0f} after bob's ban" in shown


async def test_a_moderators_lobby_is_sent_the_open_reports_and_nobody_elses_is(serve):
    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia", "alice", "bob")
    assert (await run(arcade, "alice", "report bob spam invites me \x1b[31mall day"))[0] == 0
    mia = await Guest.arrive(arcade, "mia")
    alice = await Guest.arrive(arcade, "alice")
    for guest in (mia, alice):
        guest.say("look")
    assert await heard(mia, "report ") == "report 1 alice bob spam invites me [31mall day"
    lines = [await heard(alice, "")]
    while lines[-1] != "shown":
        lines.append(await heard(alice, ""))
    assert not any(text.startswith("report ") for text in lines)
    # Acted on, the report's news waits for alice's game: its lobby tells it.
    assert (await run(arcade, "mia", "mod mute bob 1h spam"))[0] == 0
    alice.player.close()  # (her game ends; the next one is her only one)
    await wait_until(lambda: arcade.sessions.own("alice") is None, "alice's game to end")
    again = await Guest.arrive(arcade, "alice")
    assert await heard(again, "answered ") == (
        "answered A moderator acted on your report 1 on bob: muted."
    )


async def test_an_admin_closes_a_name_for_good_and_its_keys_go(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "ada", "bob")
    assert (await run(arcade, "mia", "mod close bob spam"))[1].startswith(
        "tui-reversi: mod close is for admins;"
    )
    status, said = await run(arcade, "ada", "mod close bob a spam account")
    assert status == 0 and said.startswith(
        "tui-reversi: bob is closed for good (a spam account): 1 key"
    )
    assert await arcade.store.keys_of("bob") == []
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await run(arcade, "bob", "lobby")
    assert refused.value.reason == "You are banned from this server for good: a spam account"
    assert " close bob: a spam account" in (await run(arcade, "ada", "mod log bob"))[1]


async def test_the_fourth_boost_files_a_report_a_moderator_reads(serve):
    from .test_ratings import resign_at_once

    arcade = await serve(moderators=MODERATORS, max_per_address=10)
    await known(arcade, "mia")
    alice, bob, code = await sit_down(arcade)
    alice.say("say good luck")
    await heard(bob, "said ")
    # bob resigns after one move, four times: alice moves up each time.
    await resign_at_once(bob, alice, 4, until="rerated ", black=alice)

    async def filed() -> bool:
        return len(await arcade.store.open_reports(10)) == 2

    await wait_until(filed, "the watch's two reports filed")
    status, shown = await run(arcade, "mia", "mod reports")
    assert status == 0
    assert "(boosting watch) on bob, boosting" in shown and "possible sandbagging" in shown
    assert "(boosting watch) on alice, boosting" in shown and "possible boosting" in shown
    assert "| alice: good luck" in shown  # (the chat of the table it was caught at)
    status, said = await run(arcade, "mia", "mod ban bob 1d boosting with alice")
    assert status == 0 and "1 report on bob closed." in said
    assert code


async def test_mod_close_refuses_a_key_or_an_address_in_one_sentence(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "ada")
    key = "SHA256:" + "A" * 43
    for typed, sentence in [
        (key, "mod close takes a name, not a key or an address."),
        ("203.0.113.0/24", "mod close takes a name, not a key or an address."),
        ("SHA256:abc", "'SHA256:abc' is not a key's SHA256: fingerprint."),
        ("10.0.0.0/8", "10.0.0.0/8 is too wide: an address ban takes at most a /16."),
    ]:
        status, said = await run(arcade, "ada", f"mod close {typed} spam")
        assert (status, said) == (2, f"tui-reversi: {sentence}\n"), typed


async def test_mod_role_says_what_changed_and_refuses_what_would_not(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "ada", "nina")
    steps = ("none", "admin", "admin", "moderator", "none")
    said = [(await run(arcade, "ada", f"mod role nina {role}"))[1] for role in steps]
    assert said == [
        "tui-reversi: nina has no role to take away.\n",
        "tui-reversi: nina is an admin now.\n",
        "tui-reversi: nina is an admin already.\n",
        "tui-reversi: nina is a moderator now.\n",
        "tui-reversi: nina is no longer a moderator.\n",
    ]


async def test_a_moderators_lobby_reads_the_watchs_report_whose_reporter_has_a_space(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "bob")
    words = "4 rated games lost within a few moves in 3 hours: possible sandbagging"
    await arcade.store.file_report(Report(0, WATCH_REPORTER, "bob", "boosting", words, 3, (), 0))
    mia = await Guest.arrive(arcade, "mia")
    mia.say("look")
    sent = [await heard(mia, "")]
    while sent[-1] != "shown":
        sent.append(await heard(mia, ""))
    ends = socket.socketpair()  # (the app's end of the line, read as the app reads it)
    link = LobbyLink(ends[0], ends[0].makefile("rb"), "mia")
    news = [link.receive(f"{text}\n".encode()) for text in sent]
    for end in ends:
        end.close()
    (report,) = news[-1].view.reports
    # (its space is sent as a no-break space, shown the same, not a field's end)
    assert (report.reporter.replace("\N{NO-BREAK SPACE}", " "), report.name, report.reason) == (
        WATCH_REPORTER,
        "bob",
        "boosting",
    )
    assert report.words == words


async def test_a_report_open_already_is_not_filed_again(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "alice", "bob")
    assert (await run(arcade, "alice", "report bob spam invites me"))[0] == 0
    assert await run(arcade, "alice", "report bob SPAM invites me again") == (
        1,
        "tui-reversi: your report 1 on bob (spam) is open already; "
        "you will be told when a moderator acts on it.\n",
    )
    assert (await run(arcade, "alice", "report bob abuse rude"))[1].startswith(
        "tui-reversi: report 2 on bob (abuse)"
    )
    assert (await run(arcade, "mia", "mod dismiss 1"))[0] == 0
    assert (await run(arcade, "alice", "report bob spam again"))[1].startswith(
        "tui-reversi: report 3 on bob (spam)"
    )
    # A game of theirs since is another matter: reported again, about that game.
    await arcade.store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))
    assert (await run(arcade, "alice", "report bob spam in that game"))[1].startswith(
        "tui-reversi: report 4 on bob (spam) about game 1 is filed;"
    )


async def test_mod_reports_says_how_many_are_open_beyond_those_it_shows(serve):
    arcade = await serve(moderators=MODERATORS)
    await known(arcade, "mia", "bob")
    for number in range(REPORT_ROWS + 3):
        await arcade.store.file_report(Report(0, "mia", "bob", "other", f"{number}", None, (), 0))
    status, shown = await run(arcade, "mia", "mod reports")
    lines = shown.splitlines()
    assert status == 0
    assert (
        lines[0] == f"tui-reversi: {REPORT_ROWS + 3} open reports, the oldest {REPORT_ROWS} first:"
    )
    assert len(lines) == 1 + REPORT_ROWS and lines[-1].endswith(f": {REPORT_ROWS - 1}")
    await arcade.store.close_reports("bob", None, "mia", "muted", 1)
    await arcade.store.file_report(Report(0, "mia", "bob", "other", "alone", None, (), 2))
    assert (await run(arcade, "mia", "mod reports"))[1].startswith(
        "tui-reversi: 1 open report, the oldest first:\n"
    )
