"""The lobby inside the app, over real SSH on loopback: each player's game
(here the stand-in) is given a line to the lobby; the test speaks the lobby's
protocol as a game (or a forger) would. An accepted invitation opens a table
on its terms and the sessions start their players' games there; the real app
end to end is in test_lobby_game.py."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from tui_reversi.core import Color
from tui_reversi.net.lobby_link import LOBBY_SECRET_VARIABLE, LOBBY_SOCKET_VARIABLE
from tui_reversi.net.remote import TABLE_SECRET_VARIABLE, is_guest
from tui_reversi.server.hall.own_records import RECORD_AGAIN, OwnRecords
from tui_reversi.server.ledger.archive import Archive

from .conftest import Player, wait_until
from .test_store import played
from .test_tables import Game as TableGame
from .test_tables import seat


class Guest(TableGame):
    """One game's line to the lobby, as the test plays it (lines said and heard as
    at a table)."""

    def __init__(self, player: Player, reader, writer) -> None:
        super().__init__(reader, writer)
        self.player = player

    @classmethod
    async def arrive(cls, arcade, user: str, command: str | None = None) -> Guest:
        player = await Player.connect(arcade, user, command=command)
        env = (await player.facts())["env"]
        reader, writer = await asyncio.open_unix_connection(env[LOBBY_SOCKET_VARIABLE])
        guest = cls(player, reader, writer)
        guest.say(f"hello {env[LOBBY_SECRET_VARIABLE]}")
        assert await guest.hear() == f"welcome {user}"
        return guest

    async def hear_starting(self, prefix: str) -> str:
        """The next line that starts with `prefix` (lobby views and the like pass by)."""
        while True:
            text = await self.hear()
            assert text, f"the lobby closed the line before {prefix!r}"
            if text.startswith(prefix):
                return text


async def test_a_game_on_its_own_gets_a_private_line_to_the_lobby(serve):
    arcade = await serve()
    player = await Player.connect(arcade, "alice")
    env = (await player.facts())["env"]
    assert TABLE_SECRET_VARIABLE not in env
    path = env[LOBBY_SOCKET_VARIABLE]
    reader, writer = await asyncio.open_unix_connection(path)
    writer.write(b"hello not-the-secret\n")
    assert (await reader.readline()).startswith(b"refused ")
    assert await reader.readline() == b""  # and let go


async def test_look_sends_who_is_here_the_tables_and_the_record_whenever_it_changes(serve):
    arcade = await serve()
    alice = await Guest.arrive(arcade, "alice")
    alice.say("look")
    assert await alice.hear() == "person alice free playing on their own"
    assert await alice.hear() == "rated alice 1500?"
    assert await alice.hear() == "record 1500? 0 0 won, 0 lost, 0 drawn"
    assert await alice.hear() == "shown"
    await Player.connect(arcade, "dave", command="table variant anti clock 5+3")
    await alice.hear_starting("person dave waiting at table")
    code = next(iter(arcade.tables.tables))
    assert await alice.hear() == f"table {code} open dave - anti 5+3 1"


async def test_the_lobby_rates_each_named_player_and_an_inviter_and_never_a_guest(serve):
    arcade = await serve(max_per_address=10)
    store = arcade.store
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))  # alice 1741?, bob 1259?
    read: list[set[str]] = []  # each store read of ratings: the names asked for
    many, one = store.ratings, store.rating
    store.ratings = lambda names: read.append(set(names)) or many(names)
    store.rating = lambda name: read.append({name}) or one(name)
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    zed = await Player.connect(arcade, "zed", guest=True)
    env = (await zed.facts())["env"]
    reader, writer = await asyncio.open_unix_connection(env[LOBBY_SOCKET_VARIABLE])
    zed_lobby = Guest(zed, reader, writer)
    zed_lobby.say(f"hello {env[LOBBY_SECRET_VARIABLE]}")
    guest_name = (await zed_lobby.hear()).removeprefix("welcome ")
    assert is_guest(guest_name)
    await wait_until(lambda: len(arcade.lobby.guests) == 3, "three games in the lobby")
    read.clear()
    alice.say("look")
    view = [await alice.hear_starting("person ")]
    while view[-1] != "shown":
        view.append(await alice.hear())
    assert "rated alice 1741?" in view and "rated bob 1259?" in view
    assert f"person {guest_name} free playing on their own" in view
    assert not [line for line in view if line.startswith(f"rated {guest_name}")]
    # Everyone's ratings in one read, alice's own record beside it; none name by name.
    assert {"alice", "bob"} in read
    assert all(names in ({"alice", "bob"}, {"alice"}) for names in read), read
    zed_lobby.say("invite bob black variant othello")
    assert (await bob.hear_starting("invited ")).split()[2] == guest_name  # no rating before
    bob.say("decline " + (await zed_lobby.hear_starting("waiting ")).split()[1])
    bob.say("invite alice black variant othello")
    assert await alice.hear_starting("rated bob") == "rated bob 1259?"
    assert (await alice.hear()).startswith("invited ")


async def test_alice_invites_bob_who_accepts_and_both_are_seated_on_its_terms(serve):
    arcade = await serve()
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    alice.say("invite bob white variant reversi clock 5+3")
    number = (await alice.hear_starting("waiting ")).split()[1]
    invited = await bob.hear_starting("invited ")
    assert invited == f"invited {number} alice white variant reversi clock 5+3"
    bob.say(f"accept {number}")
    alice_code = (await alice.hear_starting("go ")).split()[1]
    assert await bob.hear_starting("go ") == f"go {alice_code}"
    table = arcade.tables.tables[alice_code]
    assert table.names == {Color.WHITE: "alice", Color.BLACK: "bob"}
    assert table.variant.value == "reversi" and str(table.time_control) == "5+3"
    # Each session ends the game on its own, starts the player's game at the table,
    # and after it the player's own game again (the lobby a key away).
    for guest in (alice, bob):
        env = await next_game(guest.player)
        assert TABLE_SECRET_VARIABLE in env and LOBBY_SECRET_VARIABLE not in env
        assert arcade.tables.seat_of(env[TABLE_SECRET_VARIABLE]).table is table
    await wait_until(lambda: _at_table(arcade) == 2, "both seated")
    env = await next_game(alice.player)
    assert LOBBY_SECRET_VARIABLE in env and TABLE_SECRET_VARIABLE not in env


async def test_the_clocks_at_an_invitations_table_wait_for_both_boards(serve):
    arcade = await serve()
    now = [500.0]
    arcade.tables.now = lambda: now[0]
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    alice.say("invite bob black clock 1+0")
    number = (await bob.hear_starting("invited ")).split()[1]
    bob.say(f"accept {number}")
    await alice.hear_starting("go ")
    now[0] += 2  # both games end, and start again at the table
    games = [await TableGame.connect(await next_game(guest.player)) for guest in (alice, bob)]
    for game in games:
        assert "clock 60.0 60.0 -" in await game.hear_until("ready")
    now[0] += 2  # and draw their boards
    for game in games:
        game.say("begun")
    for game in games:
        await game.hear_until("clock 60.0 60.0 black")


async def next_game(player: Player) -> dict:
    """Quit the stand-in (as the app does); the environment of the game started next."""
    player.output = b""
    player.send(b"q")
    return (await player.facts())["env"]


def _at_table(arcade) -> int:
    return sum(
        1
        for connection in arcade.connections
        if connection.session is not None and connection.session.table_secret is not None
    )


async def test_a_declined_or_unanswered_invitation_tells_the_inviter_in_one_sentence(serve):
    arcade = await serve()
    arcade.lobby.timeout = 0.3
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    alice.say("invite bob black")
    number = (await bob.hear_starting("invited ")).split()[1]
    bob.say(f"decline {number}")
    assert await alice.hear_starting("answered ") == "answered bob declined your invitation."
    bob.say(f"accept {number}")  # too late: it is gone
    assert (await bob.hear_starting("refused ")).startswith("refused That invitation is not")
    alice.say("invite bob random variant othello")
    lapsed = await alice.hear_starting("answered ")
    assert lapsed == "answered bob did not answer within 0 s: the invitation lapsed."
    assert (await bob.hear_starting("withdrawn ")).endswith("lapsed after 0 s without an answer.")


async def test_invitations_per_minute_are_limited_with_one_sentence(serve):
    arcade = await serve(invitations_per_minute=2)
    alice = await Guest.arrive(arcade, "alice")
    bob = await Guest.arrive(arcade, "bob")
    for _ in range(2):
        alice.say("invite bob black")
        number = (await bob.hear_starting("invited ")).split()[1]
        alice.say("withdraw")
        await bob.hear_starting(f"withdrawn {number} alice withdrew")
    alice.say("invite bob black")
    refused = await alice.hear_starting("refused ")
    assert refused == "refused Too fast: at most 2 invitations a minute; try again shortly."
    assert not arcade.lobby.invitations  # nothing went out


async def test_a_player_at_a_table_or_away_cannot_be_invited(serve):
    arcade = await serve()
    alice = await Guest.arrive(arcade, "alice")
    await Player.connect(arcade, "carol", command="table")
    await wait_until(lambda: arcade.tables.tables, "carol's table")
    code = next(iter(arcade.tables.tables))
    alice.say("invite carol black")
    refused = await alice.hear_starting("refused ")
    assert refused == (
        f"refused carol is at table {code} (Black), waiting for someone to join; "
        "invite them when that game is over."
    )
    alice.say("invite nobody black")
    assert await alice.hear_starting("refused ") == "refused nobody is not on this server now."
    alice.say("invite alice black")
    assert (await alice.hear_starting("refused ")).startswith("refused You cannot invite yourself")


async def test_lines_a_game_may_not_send_are_refused_and_change_nothing(serve):
    arcade = await serve()
    alice = await Guest.arrive(arcade, "alice")
    await Guest.arrive(arcade, "bob")
    for forged, answer in (
        ("invite bob purple", "refused 'purple' is not a term of an invitation: black, white"),
        ("invite bob black white", "refused Choose one colour: black, white or random."),
        ("invite bob black variant chess", "refused There is no variant 'chess': choose one"),
        ("invite bob black othello 5x3", "refused '5x3' is not a term of an invitation"),
        ("invite bob black othello 5+x", "refused '5+x' is not a time control"),
        ("invite bob clock 999+0", "refused '999+0' is not a time control"),
        ("invite", "refused An invitation names a player, then its terms: black, white"),
        (f"invite {'x' * 900} black", "refused That is not the name of anyone here."),
        ("invite b\x1b[2Jb black", "refused That is not the name of anyone here."),
        ("accept 1", "refused That invitation is not waiting for your answer"),
        ("sit NOPE1", "refused There is no open table 'NOPE1'"),
        ("hello again", "refused 'hello' is not something the lobby understands."),
        ("move 0 d3", "refused 'move' is not something the lobby understands."),
    ):
        alice.say(forged)
        assert (await alice.hear_starting("refused ")).startswith(answer), forged
    assert not arcade.tables.tables and not arcade.lobby.invitations


async def test_an_adjourned_game_is_listed_for_its_players_only_and_resumed_from_the_lobby(serve):
    from .test_tables import drop, sit_down

    arcade = await serve(hold_seat=0.5, on_drop="adjourn", max_per_address=10)
    alice_game, bob_game, code = await sit_down(arcade)
    alice_game.say("move 0 d3")
    await bob_game.hear_until("moved 0 d3")
    await drop(arcade, "bob", bob_game)
    await alice_game.hear_until(
        f"adjourned bob did not come back in time: the game is adjourned. "
        f"Either of you resumes it with  join {code}"
    )
    alice_game.say("leave")
    await wait_until(lambda: not arcade.tables.tables[code].links, "alice to leave")
    alice = await Guest.arrive(arcade, "alice")
    carol = await Guest.arrive(arcade, "carol")
    for guest in (alice, carol):
        guest.say("look")
    assert await alice.hear_starting("table ") == f"table {code} adjourned alice bob othello - 2"
    carols = [await carol.hear()]
    while carols[-1] != "shown":
        carols.append(await carol.hear())
    assert not [text for text in carols if text.startswith("table ")]  # not hers to resume
    carol.say(f"sit {code}")
    assert (await carol.hear_starting("refused ")).startswith("refused Both seats at table")
    alice.say(f"sit {code}")
    assert await alice.hear_starting("go ") == f"go {code}"
    env = await next_game(alice.player)
    seat = arcade.tables.seat_of(env[TABLE_SECRET_VARIABLE])
    assert seat.table.code == code and seat.color == Color.BLACK


async def test_the_lookers_own_records_are_not_read_again_each_second_however_many_look(serve):
    arcade = await serve(max_per_address=10)
    store = arcade.store
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))  # alice 1741?, bob 1259?
    reads: dict[str, list[object]] = {"ratings": [], "records": [], "one name": []}
    many, records, results, profile, one = (
        store.ratings,
        store.records,
        store.results,
        store.profile,
        store.rating,
    )
    store.ratings = lambda names: reads["ratings"].append(set(names)) or many(names)
    store.records = lambda names: reads["records"].append(set(names)) or records(names)
    store.results = lambda name: reads["one name"].append(name) or results(name)
    store.profile = lambda name, games: reads["one name"].append(name) or profile(name, games)
    store.rating = lambda name: reads["one name"].append(name) or one(name)
    lookers = [await Guest.arrive(arcade, name) for name in ("alice", "bob", "carol", "dave")]

    async def reads_in_five_refreshes() -> tuple[int, ...]:
        """How many times the store was read in five sendings of the lobby: the
        ratings, the records of many, the record of one name."""
        for kind in reads.values():
            kind.clear()
        for _ in range(5):
            await arcade.lobby.refresh()
        return tuple(len(kind) for kind in reads.values())

    async def look(guest: Guest) -> list[str]:
        guest.say("look")
        view = [await guest.hear_starting("person ")]
        while view[-1] != "shown":
            view.append(await guest.hear())
        return view

    last = "last Your last game, against bob (id 1), moved your rating +241."
    assert last in await look(lookers[0])
    assert await reads_in_five_refreshes() == (5, 0, 0)  # one looker: no record read again
    for guest in lookers[1:]:
        await look(guest)
    assert await reads_in_five_refreshes() == (5, 0, 0)  # four: the same
    # A rated game kept elsewhere (another node of a fleet): the ratings read for the
    # lobby show it; the two players' records are read again, once, in one read, and
    # each one's last game.
    before = (await one("alice")).rating
    await store.keep(played("BBBBB", ("bob", "alice"), Color.BLACK))
    assert await reads_in_five_refreshes() == (5, 1, 2)
    assert reads["records"] == [{"alice", "bob"}]
    after = await one("alice")
    rating = after.rating
    record = f"record {after.shown} 2 1 won, 1 lost, 0 drawn"
    assert await lookers[0].hear_starting("record ") == record
    moved = f"last Your last game, against bob (id 2), moved your rating {rating - before:+.0f}."
    assert await lookers[0].hear() == moved
    assert rating < before


async def test_a_game_kept_here_has_its_players_records_read_again_at_once(serve):
    arcade = await serve(max_per_address=10)
    store = arcade.store
    read: list[set[str]] = []  # each read of many names' records
    records = store.records
    store.records = lambda names: read.append(set(names)) or records(names)
    watcher = await Guest.arrive(arcade, "alice")
    watcher.say("look")
    assert await watcher.hear_starting("record ") == "record 1500? 0 0 won, 0 lost, 0 drawn"
    # alice loses to a guest: a game kept, unrated, that the ratings read cannot show.
    alice = await TableGame.connect(await seat(arcade, "alice", "table"))
    await alice.hear_until("ready")
    (code,) = arcade.tables.tables
    zed = await Player.connect(arcade, "zed", guest=True, command=f"join {code}")
    guest = await TableGame.connect((await zed.facts())["env"])
    await guest.hear_until("ready")
    alice.say("move 0 d3")
    await guest.hear_until("moved 0 d3")
    read.clear()
    alice.say("resign")
    # Within a second's refresh, not RECORD_AGAIN (30 s, past the test's patience) later.
    lost = "record 1500? 0 0 won, 1 lost, 0 drawn"
    while await watcher.hear_starting("record ") != lost:
        pass  # (a lobby sent before the game was kept)
    assert read == [{"alice"}]


async def test_otherwise_the_lookers_records_are_read_again_all_at_once_every_so_often(tmp_path):
    store = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    await store.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))  # alice 1741?, bob 1259?
    batches: list[set[str]] = []
    lasts: list[str] = []  # each read of one name's last game (a profile)
    records, profile = store.records, store.profile
    store.records = lambda names: batches.append(set(names)) or records(names)
    store.profile = lambda name, games: lasts.append(name) or profile(name, games)
    clock = [0.0]
    own = OwnRecords(lambda: store, now=lambda: clock[0])
    lookers = {"alice": 1, "bob": 1, "carol": 0, "guest-2e5d9a0b1c3d4e5f": 0}
    first = await own.of(lookers)
    assert first["alice"].last == "Your last game, against bob (id 1), moved your rating +241."
    assert (batches, sorted(lasts)) == ([{"alice", "bob", "carol"}], ["alice", "bob", "carol"])
    batches.clear()
    lasts.clear()
    clock[0] = RECORD_AGAIN - 1
    later = await own.of(lookers)
    assert all(later[name] == first[name] for name in ("alice", "bob", "carol"))
    assert (batches, lasts) == ([], [])  # nothing read
    # alice beats a guest, on another node: unrated, so only the time tells.
    await store.keep(played("BBBBB", ("alice", "guest-2e5d9a0b1c3d4e5f"), Color.BLACK))
    clock[0] = RECORD_AGAIN
    again = await own.of(lookers)
    assert batches == [{"alice", "bob", "carol"}]  # one read for all
    assert lasts == ["alice"]  # her last game, as hers alone changed
    assert (again["alice"].results, again["alice"].last) == ("2 won, 0 lost, 0 drawn", "")
    assert again["bob"] == replace(first["bob"], read=RECORD_AGAIN)
    await store.close()
