"""Ratings that mean something: a new name is provisional (`1500?`), and rated
games between the same two players in a day move ratings less and less, then
not at all (ratings.py: the first five by 1, 1/2, 1/4, 1/8, 1/16 of Glicko-2's
change). Real SSH on loopback; the test speaks the games'
protocol, as two keys of one farmer would."""

from tui_reversi.core import Color
from tui_reversi.server.ledger.ratings import PAIR_WEIGHTS

from .test_accounts import run
from .test_tables import sit_down

REMATCHES = 12


async def test_twelve_resign_rematch_games_of_one_pair_move_a_rating_five_times_only(serve):
    arcade = await serve(max_per_address=10)
    _, lobby = await run(arcade, "bob", "lobby")
    assert "rating 1500? after 0 rated games" in lobby
    alice, bob, _ = await sit_down(arcade)
    colours = {Color.BLACK: alice, Color.WHITE: bob}
    for number in range(REMATCHES):
        colours[Color.BLACK].say("move 0 d3")  # one move, then alice resigns: bob wins
        await alice.hear_until("moved 0 d3")
        alice.say("resign")
        for game in (alice, bob):
            while not (await game.hear()).startswith("over resigned"):
                pass
        if number < REMATCHES - 1:
            bob.say("rematch")
            await alice.hear_until("asked rematch bob")
            alice.say("allow")
            for game in (alice, bob):
                await game.hear_until("again")
            colours = {Color.BLACK: colours[Color.WHITE], Color.WHITE: colours[Color.BLACK]}
    assert str(await arcade.archive.results("bob")) == f"{REMATCHES} won, 0 lost, 0 drawn"
    rating = await arcade.archive.rating("bob")
    assert rating.games == REMATCHES and rating.rating > 1500.0
    profile = await arcade.archive.profile("bob", REMATCHES)
    changes = [game.change_for("bob") for game in reversed(profile.games)]  # oldest first
    moving = len(PAIR_WEIGHTS)
    assert all(change > 0 for change in changes[:moving])
    assert changes[moving:] == [0.0] * (REMATCHES - moving)
    _, lobby = await run(arcade, "bob", "lobby")
    assert f"rating {rating.shown} after {REMATCHES} rated games" in lobby
