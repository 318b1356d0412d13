"""Memory over many games: does anything stay behind from one game to the next?

    .venv/bin/python bench/soak.py [-n 50] [--black easy] [--white easy]
                                   [--baseline REV_OR_DIR]

Plays N computer-against-computer games back to back in the real app
(create_app with a Session on temporary user directories, driven by Pilot
at 100x30), starting each new game the way a player does: Esc closes the
game-over dialog, `n` opens the new-game dialog, Enter starts. The players
are Easy against Easy by default (fast: the app's pause between the moves
of two computers is set to 0, so 50 games take a few minutes; any level
may be chosen). After every game it prints the process's RSS and the
Python heap as tracemalloc traces it after a garbage collection (what is
*kept*), then the growth per game from a least-squares fit over the last
half of the games. Target (issue 20): under 50 kB a game.

`--baseline` runs the same soak first with another tree, a directory or a
git revision of this repository (exported to a temporary directory), each
tree in a fresh process, and prints both fits side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from itertools import count
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZE = (100, 30)
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


async def soak(games: int, black: str, white: str) -> None:
    """Play `games` games in this process; one JSON line per game on stdout."""
    import gc
    import time
    import tracemalloc

    import tui_reversi
    from tui_reversi.app import create_app
    from tui_reversi.players import create_player
    from tui_reversi.screens.game_over import GameOverScreen
    from tui_reversi.session import Session
    from tui_reversi.widgets.themes import theme_names

    print(json.dumps({"tree": str(Path(tui_reversi.__file__).parent.parent)}), flush=True)
    seeds = count(1)
    tracemalloc.start()
    session = Session.start(new=True, themes=theme_names())
    app = create_app(
        session=session,
        player_factory=lambda level, variant: create_player(
            level, variant=variant, seed=next(seeds)
        ),
        **_unpaced(black, white),
    )
    async with app.run_test(size=SIZE) as pilot:
        for game in range(1, games + 1):
            started = time.perf_counter()
            while not isinstance(app.screen, GameOverScreen):
                await pilot.pause(0.02)
            moves = app.match.game.length
            await pilot.press("escape", "n", "enter")  # close, new game, start
            await pilot.pause()
            gc.collect()  # measure what is kept, not what waits for the collector
            line = {
                "game": game,
                "moves": moves,
                "rss": rss_bytes(),
                "heap": tracemalloc.get_traced_memory()[0],
                "seconds": time.perf_counter() - started,
            }
            print(json.dumps(line), flush=True)
    session.close()


def _unpaced(black: str, white: str) -> dict[str, Any]:
    """create_app's options for `black` against `white`, no pause between
    the computers' moves, no animation, for this tree's create_app (before
    the seats rework it took the options one by one)."""
    import tui_reversi.match

    if not hasattr(tui_reversi.match, "Pacing"):
        look = {"theme": "reversi", "animation": False}
        return {"black": black, "white": white, "watch_delay": 0, **look}
    from tui_reversi.storage import Settings

    settings = Settings(black=black, white=white, theme="reversi", animation=False)
    return {"settings": settings, "pacing": tui_reversi.match.Pacing(watch=0)}


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of y over x."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """Soak `tree` in a fresh process; print its games; return its fit."""
    home = tempfile.mkdtemp(prefix="tui-reversi-soak-")
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        PYTHONDONTWRITEBYTECODE="1",  # leave the other tree as it was
        XDG_DATA_HOME=f"{home}/data",
        XDG_CONFIG_HOME=f"{home}/config",
    )
    command = [sys.executable, __file__, "--child", "-n", str(args.games)]
    command += ["--black", args.black, "--white", args.white]
    child = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    rows = []
    for text in child.stdout:
        row = json.loads(text)
        if "tree" in row:
            print(f"\n{row['tree']}: {args.black} v {args.white}, {args.games} games at 100x30")
            print(" game  moves   RSS MB  heap kB  seconds")
            continue
        rows.append(row)
        print(
            f"{row['game']:>5}  {row['moves']:>5}  {row['rss'] / 2**20:7.1f}  "
            f"{row['heap'] / 1000:7.0f}  {row['seconds']:7.2f}",
            flush=True,
        )
    if child.wait() != 0 or len(rows) < 4:
        raise SystemExit(f"soak: the run in {tree} failed")
    last_half = rows[len(rows) // 2 :]
    fit = {
        what: slope([(row["game"], row[what] / 1000) for row in last_half])
        for what in ("rss", "heap")
    }
    print(
        f"growth per game over games {last_half[0]['game']}-{last_half[-1]['game']}: "
        f"RSS {fit['rss']:+.1f} kB, heap {fit['heap']:+.1f} kB "
        f"(first to last game: RSS {(rows[-1]['rss'] - rows[0]['rss']) / 2**20:+.1f} MB)"
    )
    return fit


def baseline_tree(spec: str) -> Path:
    """A directory as it is, or a git revision exported to a temporary one."""
    if Path(spec).is_dir():
        return Path(spec).resolve()
    target = Path(tempfile.mkdtemp(prefix="tui-reversi-baseline-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", spec], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise SystemExit(f"soak: {spec!r} is neither a directory nor a git revision")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--games", type=int, default=50)
    parser.add_argument("--black", default="easy")
    parser.add_argument("--white", default="easy")
    parser.add_argument("--baseline", metavar="REV_OR_DIR", help="soak this tree first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(soak(args.games, args.black, args.white))
        return
    fits = {}
    if args.baseline:
        fits[f"baseline {args.baseline}"] = run_tree(baseline_tree(args.baseline), args)
    fits["this tree"] = run_tree(ROOT, args)
    print("\ngrowth per game (kB), fitted over the last half of the games:")
    for name, fit in fits.items():
        print(f"  {name:<28} RSS {fit['rss']:+8.1f}   heap {fit['heap']:+8.1f}")


if __name__ == "__main__":
    main()
