"""Storage speed: what an autosave after every move costs, and the loaders.

Prints medians and 90th percentiles in milliseconds. The autosave (temp
file, fsync, rename, fsync of the directory) is compared in the same run
with a plain overwrite of the same bytes, so the ratio shows what the
crash safety costs on this disk. Measure where the player's data lives:

    python bench/storage.py                 # a temporary directory here
    python bench/storage.py --dir ~/.local/share --saves 500
"""

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tui_reversi.core import Game
from tui_reversi.storage import (
    Autosave,
    AutosaveWriter,
    SavedGame,
    SavedGames,
    export_ggf,
    import_text,
)


def full_game(seed: int) -> Game:
    rnd = random.Random(seed)
    game = Game()
    while not game.is_over:
        game.play(rnd.choice(game.position.legal_moves()))
    return game


def timings(action, repeat: int) -> list[float]:
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - started)
    return seconds


def report(label: str, seconds: list[float]) -> float:
    ms = sorted(s * 1000 for s in seconds)
    median = statistics.median(ms)
    p90 = ms[int(len(ms) * 0.9) - 1]
    print(f"{label:<44} median {median:8.3f} ms   p90 {p90:8.3f} ms   (n={len(ms)})")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="where to make the files")
    parser.add_argument("--saves", type=int, default=200, help="autosaves to time")
    parser.add_argument("--games", type=int, default=200, help="saved games in the listing")
    args = parser.parse_args()
    args.dir.expanduser().mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="bench-storage-", dir=args.dir.expanduser()))
    try:
        game = full_game(1)
        record = SavedGame.from_game(game, "human", "hard")
        data = record.to_json().encode()
        print(f"in {workdir}: a {game.length}-ply game, {len(data)} bytes of JSON")

        autosave = Autosave(workdir)
        safe = report(
            "autosave.save (temp, fsync, rename)",
            timings(lambda: autosave.save(record), args.saves),
        )
        plain_path = workdir / "plain.json"
        plain = report(
            "plain overwrite of the same bytes",
            timings(lambda: plain_path.write_bytes(data), args.saves),
        )
        print(f"{'crash safety costs':<44} {safe / plain:8.1f} x a plain write")
        report(
            "record.with_game + to_json (per move)",
            timings(lambda: record.with_game(game).to_json(), args.saves),
        )
        writer = AutosaveWriter(Autosave(workdir / "threaded"))
        handed = report(
            "UI thread: record, hand to the writer",
            timings(lambda: writer.save(record.with_game(game)), args.saves),
        )
        writer.close()
        print(f"{'the writer thread spares the UI thread':<44} {safe / handed:8.0f} x")
        report(
            "Autosave.load (read, check, replay)",
            timings(lambda: Autosave(workdir).load(), args.saves),
        )

        games = SavedGames(workdir / "games")
        for number in range(args.games):
            games.save(SavedGame.from_game(full_game(number)), f"game {number}")
        report(
            f"SavedGames.list of {args.games} games, first",
            timings(lambda: SavedGames(workdir / "games").list(), 3),
        )
        games.list()
        report(f"SavedGames.list of {args.games} games, again", timings(games.list, 5))

        ggf = export_ggf(record)
        report("export_ggf", timings(lambda: export_ggf(record), args.saves))
        report("import_text of that GGF", timings(lambda: import_text(ggf), args.saves))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
