"""`ssh -t host replay ID`: the game a server gives as GGF opens as a finished game
does at home, names and ending kept, to review and analyse."""

from __future__ import annotations

from tui_reversi.game_run import replay_match
from tui_reversi.screens.game_over import GameOverScreen

from .conftest import status

GGF = (
    "(;GM[Othello]PC[tui-reversi]DT[2026.05.01_12:00:00.UTC]PB[alice]PW[bob]RE[-64.00:r]"
    "TI[0]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6]W[E7];)"
)


async def test_a_replay_opens_finished_with_both_names_and_reviews(make_app):
    match = replay_match(GGF)
    assert match.names == ("alice", "bob") and (match.black, match.white) == ("human", "human")
    app = make_app(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("comma")  # Review, as at home
        await pilot.pause()
        assert status(app).startswith("Move 9: Black played e6")
