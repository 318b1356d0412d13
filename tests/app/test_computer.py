"""The computer thinks in a worker: the screen stays live, the indicator
shows, undo and new game cancel the search, and stale answers are dropped."""

import asyncio

from tui_reversi.core import Color
from tui_reversi.widgets.board import BoardView
from tui_reversi.widgets.score import ScorePanel

from .conftest import GatedPlayer, moves, settle, status


async def wait_until(pilot, condition, rounds: int = 200) -> None:
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("condition never became true")


async def test_thinking_shows_elapsed_time_and_depth_and_keys_still_work(make_app, clock):
    player = GatedPlayer()
    app = make_app(player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await wait_until(pilot, player.thinking.is_set)
        panel = app.screen.query_one(ScorePanel)
        await wait_until(pilot, lambda: panel.thinking is not None and panel.thinking.depth == 3)
        clock.now += 2.5
        panel.refresh()
        await pilot.pause()
        assert "White thinking · 2.5s · depth 3" in panel.render().plain
        board = app.screen.query_one(BoardView)
        before = board.cursor
        await pilot.press("right")  # the cursor moves while the computer thinks
        assert board.cursor == before + 1
        await pilot.press("d", "6")  # not your turn: kept for it, nothing played now
        await pilot.pause()
        assert status(app).startswith("Premove d6: played on your turn")
        assert len(app.match.game.moves) == 1
        player.gate.set()
        await settle(pilot, app)
        assert len(app.match.game.moves) == 2  # (after White's c3, d6 flips nothing)
        assert status(app) == "The premove d6 was dropped: it flips nothing now."
        assert panel.thinking is None


async def test_undo_cancels_the_search_and_a_stale_answer_is_dropped(make_app):
    player = GatedPlayer(stubborn=True)
    app = make_app(player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await wait_until(pilot, player.thinking.is_set)
        await pilot.press("u")
        await wait_until(pilot, player.saw_cancel.is_set)  # the worker was told to stop
        assert moves(app) == "d3"  # redo is still possible
        assert app.match.game.ply == 0
        player.gate.set()  # the stubborn player answers anyway, for the old position
        await settle(pilot, app)
        await asyncio.sleep(0.05)
        await pilot.pause()
        assert app.match.game.ply == 0 and app.match.to_move is Color.BLACK
        assert moves(app) == "d3"


async def test_new_game_cancels_the_search_and_drops_its_answer(make_app):
    player = GatedPlayer(stubborn=True)
    app = make_app(player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await wait_until(pilot, player.thinking.is_set)
        first_game = app.match.game_id
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # same players, a fresh game
        await pilot.pause()
        assert app.match.game_id != first_game
        await wait_until(pilot, player.saw_cancel.is_set)
        player.gate.set()
        await settle(pilot, app)
        assert moves(app) == ""
        assert app.match.to_move is Color.BLACK


async def test_computer_against_computer_plays_on_and_pauses(make_app):
    app = make_app(black="easy", white="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.match.game.length >= 4)
        await pilot.press("p")
        await settle(pilot, app)
        paused_at = app.match.game.length
        await pilot.pause(0.1)
        assert app.match.game.length == paused_at
        assert "Paused" in status(app)
        await pilot.press("p")
        await wait_until(pilot, lambda: app.match.game.length >= paused_at + 2)


async def test_the_computer_moves_first_when_it_plays_black(make_app):
    app = make_app(black="easy", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.match.game.length == 1
        assert app.match.to_move is Color.WHITE


async def test_a_level_that_cannot_play_is_refused_in_the_new_game_dialog(make_app):
    from tui_reversi.core import ReversiError

    # Every built-in level plays; a factory that fails stands in for one that
    # cannot (say, an outside engine that will not start).
    def factory(level, variant):
        if level != "easy":
            raise ReversiError(f"the {level} engine could not be started")
        return GatedPlayer()

    app = make_app(player_factory=factory)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("down", "right", "right")  # White: Hard
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "NewGameScreen"
        assert "The hard engine could not be started." in str(
            app.screen.query_one("#problem").content
        )


async def test_damaged_weights_are_told_once_and_hard_plays_on(make_app, tmp_path, monkeypatch):
    from tui_reversi.core import square_name
    from tui_reversi.engine import book, pattern_weights
    from tui_reversi.players import alphabeta_player
    from tui_reversi.players.alphabeta_player import HARD, AlphaBetaPlayer

    damaged = tmp_path / "patterns.bin"
    damaged.write_bytes(pattern_weights.WEIGHTS_PATH.read_bytes()[:-10])
    monkeypatch.setattr(pattern_weights, "WEIGHTS_PATH", damaged)
    monkeypatch.setattr(pattern_weights, "_loaded", {})
    monkeypatch.setattr(pattern_weights, "_problems", {})
    monkeypatch.setattr(book, "BOOK_PATH", tmp_path / "no-book.txt")  # every move searched
    monkeypatch.setattr(book, "_books", {})
    monkeypatch.setattr(book, "_problems", {})
    monkeypatch.setattr(alphabeta_player, "_engines", {})
    from tui_reversi.players import Limit

    hard = AlphaBetaPlayer(HARD, seed=1, evaluation="trained")
    app = make_app(player=hard, white="hard", limit=Limit(depth=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await settle(pilot, app)
        assert len(app.match.game.moves) == 2  # hard answered, with the hand-made evaluation
        told = [n.message for n in app._notifications]
        assert told == [
            f"{damaged} is damaged: its checksum does not match; "
            "hard plays with the hand-made evaluation."
        ]
        await pilot.press(*square_name(app.match.position.legal_moves()[0]))
        await settle(pilot, app)
        assert len(app.match.game.moves) == 4
        assert [n.message for n in app._notifications] == told  # once, not after every move


async def test_play_is_offered_only_while_the_person_here_is_to_move(make_app):
    player = GatedPlayer()
    app = make_app(player=player)

    def bar() -> str:
        return app.screen.query_one("KeyBar").render().plain

    async with app.run_test(size=(160, 40)) as pilot:  # room for every key
        await pilot.pause()
        assert "⏎ Play" in bar()
        await pilot.press("d", "3")
        await wait_until(pilot, player.thinking.is_set)
        await pilot.pause()
        assert "Play" not in bar()  # the computer is to move: Enter plays nothing
        player.gate.set()
        await settle(pilot, app)
        assert len(app.match.game.moves) == 2
        await wait_until(pilot, lambda: "⏎ Play" in bar())
