"""Where a game clock goes: hard plays itself under NBoard's protocol with a
clock each (the GGF's TI), as NBoard would run it, and the seconds each
move really took are summed per phase (the opening above 44 empties, the
midgame, the ending below 20) with the forced and book moves apart.

    nice python bench/clock.py                 # 2 games, 60 s a side
    nice python bench/clock.py --games 4 --clock 120

Prints figures only; never asserts a duration.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Game, Move
from tui_reversi.nboard import NBoardSession
from tui_reversi.players.time_plan import ENDGAME_EMPTIES, OPENING_EMPTIES

START = "---------------------------O*------*O---------------------------"


def phase(empties: int) -> str:
    if empties > OPENING_EMPTIES:
        return "opening"
    return "ending" if empties < ENDGAME_EMPTIES else "midgame"


def play(clock: float, seed: int) -> tuple[list[tuple[str, str, float]], list[float], str]:
    """One game: (phase, how the move was chosen, seconds) per move, each
    side's seconds left, and the result."""
    said: list[str] = []
    sessions = [NBoardSession(said.append, said.append) for _ in range(2)]
    game = Game()
    rng = random.Random(seed)
    for _ in range(2):  # two random moves each, so that the games differ
        game.play(rng.choice(game.position.legal_moves()))
    times = "".join(
        f"{'BW'[game.positions[ply].to_move]}[{move.name.upper()}//0]"
        for ply, move in enumerate(game.played)
    )
    ggf = f"(;GM[Othello]PC[bench]PB[a]PW[b]RE[?]TI[{clock:.0f}]TY[8]BO[8 {START} *]{times};)"
    for session in sessions:
        session.receive("nboard 2")
        session.receive("set depth 60")
        session.receive(f"set game {ggf}")
    moves: list[tuple[str, str, float]] = []
    while not game.is_over:
        mover = sessions[game.position.to_move]
        empties = game.position.empty_count
        said.clear()
        job = mover.receive("go")
        started = time.perf_counter()
        assert job is not None
        job(lambda: False)
        spent = time.perf_counter() - started
        answer = next(line for line in said if line.startswith("==="))
        thought = any(line.startswith("search") for line in said)
        how = "searched" if thought else "forced" if "/" not in answer else "book"
        name = answer.split()[1].split("/")[0]
        moves.append((phase(empties), how, spent))
        game.play(Move.parse(name))
        for session in sessions:
            session.receive(f"move {name}//{spent:.3f}")
            if not game.is_over and game.played[-1].is_pass:
                session.receive("move PA")
    left = [clock - used for used in sessions[0].used]
    return moves, left, str(game.result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--clock", type=float, default=60.0, help="seconds a side")
    args = parser.parse_args()
    everything: list[tuple[str, str, float]] = []
    for seed in range(args.games):
        moves, left, result = play(args.clock, seed)
        everything += moves
        print(f"game {seed}: {result}; seconds left: Black {left[0]:.1f}, White {left[1]:.1f}")
    for name in ("opening", "midgame", "ending"):
        searched = [s for p, how, s in everything if p == name and how == "searched"]
        others = [s for p, how, s in everything if p == name and how != "searched"]
        if searched:
            print(
                f"{name}: {len(searched)} searched moves, mean {statistics.mean(searched):.2f} s,"
                f" longest {max(searched):.2f} s, {sum(searched):.1f} s in all;"
                f" {len(others)} forced or book moves, {sum(others):.2f} s in all"
            )
        else:
            print(f"{name}: no searched moves; {len(others)} forced or book moves")


if __name__ == "__main__":
    main()
