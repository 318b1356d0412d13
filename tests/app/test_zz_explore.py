from .test_keeping import keeping_app  # noqa
from .test_lobby import server  # noqa
from .conftest import settle
import pytest

def bar(app): return app.screen.query_one("KeyBar").render().plain

@pytest.mark.parametrize("size", [(80,24),(60,21)])
@pytest.mark.parametrize("lobby", [False, True])
async def test_explore(keeping_app, server, lobby, size):
    app, _ = keeping_app(cli={"white": "human"})
    if lobby:
        app.lobby = server.link
        from tui_reversi.screens.lobby import Invitations
        app.invitations = Invitations(app, server.link)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        print(lobby, size, "start :", bar(app))
        await pilot.press("f","5"); await settle(pilot, app); await pilot.press("u"); await settle(pilot, app)
        print(lobby, size, "played:", bar(app))
        await pilot.press("comma"); await pilot.pause()
        print(lobby, size,"review:", bar(app))
        await pilot.press("escape"); await pilot.pause()
        for k in "d3c3f5f4f3d2d1e3b3": await pilot.press(k)
        await settle(pilot, app)
        await pilot.press("escape"); await pilot.pause()
        print(lobby, size,"over:", bar(app), app.match.is_over)
