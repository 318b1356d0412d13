"""A tournament of a fleet (two nodes on one real PostgreSQL): players on each
node are paired with each other by the nodes' directors through the store,
each seated at a table on the node of the higher-ranked, and paired again
after each game (hall/tournaments.py). Skipped without PostgreSQL, as every
fleet test."""

from __future__ import annotations

from tui_reversi.core import Color

from .conftest import Player, wait_until
from .test_accounts import run
from .test_fleet import two_nodes
from .test_tournaments import (
    black_moves_white_resigns,
    end_by_result,
    games_begun,
    quick,
    tables_of,
)

__all__ = ["quick"]  # (the fixture: directors that look often)


async def test_an_arena_across_two_nodes_pairs_players_of_both_again_and_again(
    serve, tmp_path, database
):
    a, b = await two_nodes(serve, tmp_path, database)
    status, said = await run(b, "di", "tournament new arena 30 1+0")
    assert status == 0 and "Arena 1 made" in said
    # The standings' order at first (no points, one rating): ann, bob, cy, di.
    where = {"ann": a, "bob": b, "cy": a, "di": b}
    players = {}
    for name, node in where.items():
        players[name] = await Player.connect(node, name, command="tournament join 1")

        async def entered(name: str = name) -> bool:
            return name in {entry.name for entry in await b.store.entries(1)}

        # Entered (in this order): the wait's first words may never show, as a
        # director that looks at once may seat the player before they are drawn.
        await wait_until(entered, f"{name} entered")
    envs = {name: await games_begun(player, 1) for name, player in players.items()}
    first = tables_of(a)  # (both opened on node A: ann's and cy's)
    assert sorted(frozenset(t.names.values()) for t in first) == sorted(
        [frozenset({"ann", "bob"}), frozenset({"cy", "di"})]
    )
    # ann (node A, Black) and bob (node B, through it) play one move; bob resigns.
    (real,) = [t for t in first if "ann" in t.names.values()]
    assert real.names == {Color.BLACK: "ann", Color.WHITE: "bob"}
    await black_moves_white_resigns(envs["ann"], envs["bob"])
    (other,) = [t for t in first if t is not real]
    end_by_result(a, other, Color.BLACK)
    for player in players.values():
        await games_begun(player, 2)

    async def four_games() -> bool:
        return len(await b.store.tournament_games(1)) == 4

    await wait_until(four_games, "the second games, kept")
    games = await b.store.tournament_games(1)
    second = {frozenset((g.black, g.white)) for g in games[2:]}
    assert not second & {frozenset((g.black, g.white)) for g in games[:2]}
    assert {g.result for g in games[:2]} == {"black"}
