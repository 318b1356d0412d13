"""Draw the app at 80x24 into docs/screenshot.svg, the README's picture: a
game against Easy after 22 moves, with the real engine, theme and bindings.

    .venv/bin/python tools/screenshot.py [--out docs/screenshot.svg]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from tui_reversi.app import create_app
from tui_reversi.core import Game
from tui_reversi.match import Match
from tui_reversi.storage import Settings

TRANSCRIPT = "f5d6c3d3c4f4f6f3e6e7f2b3c6g4c2f1g2f7f8h1b2g5"


async def draw(out: Path) -> None:
    settings = Settings(black="human", white="easy", theme="reversi", animation=False)
    match = Match(settings.black, settings.white, Game.from_transcript(TRANSCRIPT))
    app = create_app(settings=settings, match=match, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshot.svg"))
    out = parser.parse_args().out
    asyncio.run(draw(out))
    print(out)


if __name__ == "__main__":
    main()
