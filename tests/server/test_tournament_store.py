"""Tournaments as both stores keep them (ledger/tournaments.py): made, listed,
started once by one of two nodes, a pair claimed both or neither, a game's
seats and result, and the standings counted from them."""

from __future__ import annotations

from tui_reversi.server.ledger.tournament_standings import standings
from tui_reversi.server.ledger.tournaments import (
    ARENA,
    BLACK_WON,
    COMING,
    FINISHED,
    OVER,
    PAUSED,
    PLAYING,
    RUNNING,
    WAITING,
    Tournament,
    TournamentGame,
)

from .test_store import open_store as open_store  # (the fixture: both stores)

NOW = 1_800_000_000.0


def arena(starts: float = NOW) -> Tournament:
    return Tournament(0, ARENA, "othello", "3+2", True, 0, 0, starts, starts + 1800, COMING, "ann")


async def test_a_tournament_is_made_listed_and_started_by_one_node(open_store):
    store = await open_store()
    made = await store.new_tournament(arena())
    other = await open_store()  # (another node of one database)
    assert [t.id for t in await other.tournaments()] == [made]
    assert await store.advance(made, RUNNING, 0, (COMING, 0))
    assert not await other.advance(made, RUNNING, 0, (COMING, 0))  # started once
    assert (await other.tournament(made)).state == RUNNING
    assert await store.finish(made, "ann") and not await other.finish(made, "bob")
    finished = await store.tournament(made)
    assert (finished.state, finished.winner) == (FINISHED, "ann")
    assert await store.tournament(made + 100) is None


async def test_a_pair_is_claimed_both_or_neither_and_its_game_scored(open_store):
    store = await open_store()
    made = await store.new_tournament(arena())
    for name, rating in (("ann", 1600.0), ("bob", 1500.0), ("cy", 1400.0)):
        await store.enter(made, name, rating, "local", NOW)
    await store.set_entry(made, "cy", PAUSED)
    assert not await store.claim_pair(made, ("bob", "cy"))  # cy is paused: neither
    states = {entry.name: entry.state for entry in await store.entries(made)}
    assert states == {"ann": WAITING, "bob": WAITING, "cy": PAUSED}
    assert await store.claim_pair(made, ("ann", "bob"))
    assert not await store.claim_pair(made, ("ann", "bob"))  # taken already
    game = TournamentGame(0, 0, "ann", "bob", "ABCDE", "local", (True, False), None, 0)
    game_id = await store.start_game(made, game, {"ann": "local s1", "bob": "local s2"}, NOW)
    seats = {entry.name: (entry.state, entry.seat) for entry in await store.entries(made)}
    assert seats["ann"] == (PLAYING, "local s1") and seats["bob"] == (PLAYING, "local s2")
    await store.seat_taken(made, "ann")
    await store.set_entry(made, "bob", PAUSED)  # (bob's connection went mid-game)
    await store.end_game(made, game_id, BLACK_WON, 31, NOW + 60)
    states = {entry.name: entry.state for entry in await store.entries(made)}
    assert states == {"ann": OVER, "bob": PAUSED, "cy": PAUSED}
    await store.enter(made, "bob", 1500.0, "local", NOW + 70)  # back: waiting again
    games = await store.tournament_games(made)
    assert [(g.result, g.moves, g.berserk) for g in games] == [(BLACK_WON, 31, (True, False))]
    lines = standings(await store.tournament(made), await store.entries(made), games)
    # A berserk win of 31 moves: 2 points and 1 more.
    assert [(line.name, line.score) for line in lines] == [("ann", 3), ("bob", 0), ("cy", 0)]
