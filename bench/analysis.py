"""Game analysis speed and how far its losses can be trusted.

For a few seeded games (hard against medium, to the end) it prints the time
to analyse each game at the given budget, the time per position (midgame and
exact apart), when the first result arrived, and how many labels a second
analysis of the same game gives alike (the analysis searches to a depth and
a node budget, never to the clock: it should be all of them). It also sums
each side's losses against the change of value from the first position to
the result. With --noise it analyses the midgame moves again two plies
deeper and prints how much each move's disc loss changed: the engine's own
uncertainty, which the label thresholds in docs/playing.md are set above. With --latency it runs the
app in tmux (bench/startup.py's harness) on a finished game and times the
cursor keys idle and while the Analyse key's analysis runs. With --wipeout it
analyses the newcomer's 64-0 win against Easy and prints its turning point by
the rule of docs/engine.md and by the rule before it (the first of the last
run of positions the winner led), and the deciding moves.

Prints figures only (never asserts a duration); compare runs made on the same
machine at the same time.

    python bench/analysis.py                # 3 games at the default budget
    python bench/analysis.py --games 2 --noise
    python bench/analysis.py --latency --keys 30
    python bench/analysis.py --wipeout
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Color, Game
from tui_reversi.players import Limit, create_player
from tui_reversi.players.analysis import (
    ANALYSIS_DEPTH,
    DEFAULT_TIME,
    GameAnalysis,
    MoveAnalysis,
    analyse_game,
    analyse_move,
    deciding_moves,
    turning_point,
)


def play_game(seed: int) -> Game:
    """Hard (fixed depth) against medium, a repeatable game for each seed."""
    hard = create_player("hard"), Limit(depth=4)
    medium = create_player("medium", seed=seed), Limit(depth=2)
    easy = create_player("easy", seed=seed), Limit()
    game = Game()
    while not game.is_over:
        ply = game.length
        # A few random moves early make each seed's game its own.
        player, limit = easy if ply in (2, 5) else hard if ply % 2 == seed % 2 else medium
        game.play(player.choose_move(game.position, limit))
    return game


# The newcomer's 64-0 win against Easy: hard (depth 2, seed 1, the book of its
# day) against Easy (seed 16), kept as moves as the tests keep it.
WIPEOUT = (
    "d3e3f4g5f3c3c4f2g3h3d2e1f5d6f1g1e2g4h4f6c1c5h6h5h2d1h1g2g6h7"
    "c2b1a1h8b2b3a3f7f8e6g7c7e7g8b8d8e8d7c6b7b6a2c8b4a4a8a7a5b5a6"
)


def wipeout(seconds: float) -> None:
    """The newcomer's 64-0 win against Easy (tests/players/test_game_analysis.py):
    its turning point by today's rule and by the one before, in one run."""
    game = Game.from_transcript(WIPEOUT)
    analysis = GameAnalysis(tuple(analyse_game(game, Limit(time=seconds))))
    print(f"{game.result}; {len(analysis.moves)} moves analysed at {seconds} s a position")

    def named(scored: MoveAnalysis | None) -> str:
        if scored is None:
            return "none"
        return f"move {game.move_number(scored.ply)}, {scored.side.label} {scored.move}" + (
            f" ({scored.label}, {scored.loss:g} discs; best {scored.best})" if scored.loss else ""
        )

    # The rule before: the first move of the last unbroken run the winner led.
    result = game.result
    assert result is not None and result.winner is not None
    sign = 1 if result.winner is Color.BLACK else -1
    before: MoveAnalysis | None = None
    for scored in analysis.moves:
        before = (before or scored) if scored.black_score * sign > 0 else None
    print(f"turning point, the last run the winner led: {named(before)}")
    print(
        f"turning point, the move after which the loser never came back: "
        f"{named(turning_point(analysis, result))}"
    )
    for scored, reason in deciding_moves(analysis, game):
        print(f"deciding: {named(scored)}{': ' + reason if reason else ''}")


def key_latency(keys: int) -> None:
    """Cursor key to screen, idle and while the app analyses a whole game."""
    import tempfile

    import startup

    game = play_game(0)
    path = Path(tempfile.mkdtemp(prefix="tui-reversi-bench-")) / "game.txt"
    path.write_text(game.transcript())
    command = f"{sys.executable} -m tui_reversi --load {path} --black human --white human"
    startup.start(f"env PYTHONPATH={startup.ROOT} {command}")
    startup.wait_for(lambda text: "Game over" in text)
    startup.tmux("send-keys", "-t", "bench", "Escape")
    startup.wait_for(lambda text: "Game over" not in text.splitlines()[5])
    figures = {}
    for phase in ("idle", "analysing"):
        if phase == "analysing":
            startup.tmux("send-keys", "-t", "bench", "a")
            startup.wait_for(lambda text: "Analysing" in text)
        latencies = []
        for i in range(keys):
            before = startup.cursor_row(startup.screen())
            sent = time.perf_counter()
            startup.tmux("send-keys", "-t", "bench", "Right" if i % 2 == 0 else "Left")
            while startup.cursor_row(startup.screen()) == before:
                if time.perf_counter() - sent > 5:
                    raise SystemExit(f"bench: the cursor never moved:\n{startup.screen()}")
                time.sleep(startup.POLL / 5)
            latencies.append(time.perf_counter() - sent)
            time.sleep(0.05)
        figures[phase] = latencies
    still = "Analysing" in startup.screen()
    startup.stop()
    for phase, latencies in figures.items():
        print(f"key-to-screen latency, {phase} ({keys} keys): {startup.ms(latencies)}")
    ratio = statistics.median(figures["analysing"]) / statistics.median(figures["idle"])
    print(f"analysing / idle latency (medians): {ratio:.2f}")
    if not still:
        print("(the analysis ended before the last key: run with fewer --keys)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--time", type=float, default=DEFAULT_TIME, help="seconds per position")
    parser.add_argument("--noise", action="store_true", help="re-analyse two plies deeper")
    parser.add_argument("--latency", action="store_true", help="key latency in the app (tmux)")
    parser.add_argument("--keys", type=int, default=30, help="keys to time with --latency")
    parser.add_argument("--wipeout", action="store_true", help="the 64-0 game's turning point")
    args = parser.parse_args()
    if args.wipeout:
        wipeout(args.time)
        return
    if args.latency:
        key_latency(args.keys)
        return

    midgame: list[float] = []
    exact: list[float] = []
    changes: list[float] = []
    for seed in range(args.games):
        game = play_game(seed)
        started = time.perf_counter()
        first = None
        last = started
        results = []
        for scored in analyse_game(game, Limit(time=args.time)):
            now = time.perf_counter()
            first = first if first is not None else now - started
            (exact if scored.exact else midgame).append(now - last)
            last = now
            results.append(scored)
        total = time.perf_counter() - started
        cpu = time.process_time()
        again = list(analyse_game(game, Limit(time=args.time)))
        cpu = time.process_time() - cpu
        alike = sum(a.label == b.label for a, b in zip(results, again, strict=True))
        moves = sum(1 for move in game.played if move)
        print(
            f"game {seed}: {moves} moves analysed in {total:.1f} s ({cpu:.1f} s CPU the"
            f" second time), first result after {first:.2f} s; {game.result}; labels alike"
            f" in two runs: {alike}/{len(results)}"
        )
        lost = {side: sum(m.loss or 0 for m in results if m.side is side) for side in Color}
        start = results[0].best_score if results[0].side is Color.BLACK else -results[0].best_score
        final = game.result.margin if game.result is not None else 0
        print(
            f"  losses: Black {lost[Color.BLACK]:.1f}, White {lost[Color.WHITE]:.1f};"
            f" White's minus Black's {lost[Color.WHITE] - lost[Color.BLACK]:+.1f} against"
            f" the change of Black's value {final - start:+.1f} (from {start:+.1f} to {final:+d})"
        )
        if args.noise:
            for scored in results:
                if scored.exact or scored.loss is None:
                    continue
                longer = analyse_move(
                    game.positions[scored.ply - 1],
                    game.move_at(scored.ply - 1),
                    scored.ply,
                    Limit(time=4 * args.time, depth=ANALYSIS_DEPTH + 2),
                )
                if longer.loss is not None:
                    changes.append(abs(longer.loss - scored.loss))
    for name, times in (("midgame", midgame), ("exact", exact)):
        if times:
            print(
                f"{name}: {len(times)} positions, mean {statistics.mean(times):.2f} s, "
                f"longest {max(times):.2f} s"
            )
    if changes:
        changes.sort()
        tenth = changes[int(0.9 * (len(changes) - 1))]
        print(
            f"loss change two plies deeper over {len(changes)} midgame moves: median "
            f"{statistics.median(changes):.1f}, 90th percentile {tenth:.1f}, "
            f"largest {changes[-1]:.1f} discs"
        )


if __name__ == "__main__":
    main()
