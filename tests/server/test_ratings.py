"""Ratings that mean something: a new name is provisional (`1500?`), and rated
games between the same two players in a day move ratings less and less, then
not at all (ratings.py: the first five by 1, 1/2, 1/4, 1/8, 1/16 of Glicko-2's
change). Real SSH on loopback; the test speaks the games'
protocol, as two keys of one farmer would."""

from tui_reversi.server.ledger.ratings import PAIR_WEIGHTS

from .test_accounts import run
from .test_tables import Game, sit_down

REMATCHES = 12


async def resign_at_once(
    resigning: Game, winning: Game, games: int, until: str = "over resigned", *, black: Game
) -> list[tuple[list[str], list[str]]]:
    """`games` games at the table of `resigning` and `winning` (`black` Black first):
    Black plays d3, `resigning` resigns, `winning` asks a rematch, `resigning` allows
    it (colours change); what each heard of each game, up to a line starting `until`
    (and the rematch's lines after it)."""
    heard = []
    for number in range(games):
        black.say("move 0 d3")
        await resigning.hear_until("moved 0 d3")
        resigning.say("resign")
        lines: list[list[str]] = []
        for game in (resigning, winning):
            lines.append([await game.hear()])
            while not lines[-1][-1].startswith(until):
                lines[-1].append(await game.hear())
        if number < games - 1:
            winning.say("rematch")
            while not lines[0][-1].startswith("asked rematch"):
                lines[0].append(await resigning.hear())
            resigning.say("allow")
            for game, said in zip((resigning, winning), lines, strict=True):
                said += await game.hear_until("again")
            black = winning if black is resigning else resigning
        heard.append((lines[0], lines[1]))
    return heard


async def test_twelve_resign_rematch_games_of_one_pair_move_a_rating_five_times_only(serve):
    arcade = await serve(max_per_address=10)
    _, lobby = await run(arcade, "bob", "lobby")
    assert "rating 1500? after 0 rated games" in lobby
    alice, bob, _ = await sit_down(arcade)
    await resign_at_once(
        alice, bob, REMATCHES, black=alice
    )  # one move, then alice resigns: bob wins
    assert str(await arcade.store.results("bob")) == f"{REMATCHES} won, 0 lost, 0 drawn"
    rating = await arcade.store.rating("bob")
    assert rating.games == REMATCHES and rating.rating > 1500.0
    profile = await arcade.store.profile("bob", REMATCHES)
    changes = [game.change_for("bob") for game in reversed(profile.games)]  # oldest first
    moving = len(PAIR_WEIGHTS)
    assert all(change > 0 for change in changes[:moving])
    assert changes[moving:] == [0.0] * (REMATCHES - moving)
    _, lobby = await run(arcade, "bob", "lobby")
    assert f"rating {rating.shown} after {REMATCHES} rated games" in lobby
