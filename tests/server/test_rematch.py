"""After a table's game, a rematch: asked by one player, allowed (or declined)
by the other; the new game is on the same terms with the colours changed, and
each game goes to the archive. Real SSH on loopback; the test speaks the games'
protocol."""

from .test_accounts import run
from .test_tables import Game, clocked_table, seat, sit_down


async def resigned(arcade, watcher: str | None = None):
    """alice and bob at a table whose game bob resigned; the watcher's game, if any."""
    alice, bob, code = await sit_down(arcade)
    watching = None
    if watcher is not None:
        watching = await Game.connect(await seat(arcade, watcher, f"watch {code}"))
        await watching.hear_until("ready")
        await alice.hear_until(f"news {watcher} is watching.")
    alice.say("rematch")
    assert await alice.hear() == "refused The game is not over."
    alice.say("move 0 d3")  # (a game with no move played is no result)
    for game in (alice, bob):
        await game.hear_until("moved 0 d3")
    bob.say("resign")
    for game in (alice, bob):
        await game.hear_until("over resigned black bob (White) resigned: alice (Black) wins.")
        await game.hear_until("rerated alice 1741? (+241), bob 1259? (-241)")
    if watching is not None:
        await watching.hear_until("rerated alice 1741? (+241), bob 1259? (-241)")
    return alice, bob, code, watching


async def test_a_rematch_allowed_starts_a_new_game_with_the_colours_changed(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, _, carol = await resigned(arcade, "carol")
    bob.say("rematch")
    assert await bob.hear() == "news Asked alice for a rematch."
    assert await alice.hear() == "asked rematch bob"
    bob.say("rematch")
    assert await bob.hear() == "refused Your rematch offer is waiting for an answer already."
    alice.say("allow")
    for game in (alice, bob, carol):
        heard = await game.hear_until("news A rematch: bob plays Black this time.")
        assert heard[-3:] == [
            "again",
            "players bob alice",
            "news A rematch: bob plays Black this time.",
        ]
    alice.say("move 0 d3")
    assert await alice.hear() == "refused It is not your turn."
    bob.say("move 0 d3")
    assert await carol.hear() == "moved 0 d3"
    alice.say("resign")
    await bob.hear_until("over resigned black alice (White) resigned: bob (Black) wins.")
    assert str(await arcade.store.results("alice")) == "1 won, 1 lost, 0 drawn"
    assert str(await arcade.store.results("bob")) == "1 won, 1 lost, 0 drawn"


async def test_a_rematch_declined_is_told_and_changes_nothing(serve):
    arcade = await serve()
    alice, bob, code, _ = await resigned(arcade)
    alice.say("rematch")
    await bob.hear_until("asked rematch alice")
    bob.say("deny")
    assert await alice.hear_until("news bob declined the rematch.")
    assert arcade.tables.tables[code].ended is not None
    bob.say("allow")
    assert await bob.hear() == "refused No rematch is waiting for your answer."


async def test_asking_both_ways_is_a_yes_and_the_clocks_start_again(serve):
    arcade = await serve()
    now = [50.0]
    alice, bob, _ = await clocked_table(arcade, now)
    now[0] += 20
    alice.say("resign")
    await bob.hear_until("over resigned white alice (Black) resigned: bob (White) wins.")
    bob.say("rematch")
    await alice.hear_until("asked rematch bob")
    alice.say("rematch")  # she asks too: that is a yes
    for game in (alice, bob):
        heard = await game.hear_until("clock 60.0 60.0 black")
        assert heard[heard.index("again") :][:2] == ["again", "players bob alice"]


async def test_a_rematch_offer_ends_when_the_other_player_leaves(serve):
    arcade = await serve()
    alice, bob, _, _ = await resigned(arcade)
    alice.say("rematch")
    await bob.hear_until("asked rematch alice")
    bob.say("leave")
    bob.writer.close()
    assert await alice.hear_until("news bob left: no rematch.")
    alice.say("rematch")
    assert await alice.hear() == "refused bob is not at the table any more."


async def test_no_rematch_is_asked_across_a_block_either_way(serve):
    arcade = await serve(max_per_address=10)
    alice, bob, _, _ = await resigned(arcade)
    assert (await run(arcade, "alice", "block bob"))[0] == 0
    bob.say("rematch")  # (told no more than an invitation's refusal tells)
    assert await bob.hear() == "refused Your rematch offer to alice cannot be sent."
    alice.say("rematch")
    assert await alice.hear() == "refused Your rematch offer to bob cannot be sent."
