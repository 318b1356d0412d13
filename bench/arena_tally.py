"""One result from several arena runs of the same match: W/D/L, score, Elo
with its 95 % interval, disc margin and time per move, over whole opening
pairs only.

A long match (expert at 5 s a move, 100 games) does not fit one sitting on
a shared machine; run it in parts, each with its own seed (so its openings
differ) and `--json`, then add the parts up here:

    nice tui-reversi arena expert:trained expert:handmade -n 100 --seed 21 --json e21.jsonl
    nice tui-reversi arena expert:trained expert:handmade -n 100 --seed 22 --json e22.jsonl
    python bench/arena_tally.py e21.jsonl e22.jsonl

A run stopped early leaves whole games in its file; a game whose opening's
other game (colours swapped) is missing is left out, so every opening is
played from both sides. Every file must hold the same two sides and
variant, and no two files the same seed's openings. Two seeds may still
draw the same opening now and then (there are only so many balanced ones):
a later file's games from an opening an earlier file played are left out,
since the same engines from the same opening play nearly the same game.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.tools.arena import elo_from_score, elo_interval, format_elo


class TallyError(Exception):
    """A file that is not an arena run of this match (one sentence)."""


@dataclass
class Tally:
    a: str = ""
    b: str = ""
    variant: str = ""
    games: list[dict] = field(default_factory=list)
    unpaired: int = 0
    repeated: int = 0
    openings: set[str] = field(default_factory=set)

    def add_file(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise TallyError(f"cannot read {path}: {error}") from None
        by_number: dict[int, dict] = {}
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                a, b = (
                    (game["black"], game["white"])
                    if game["game"] % 2 == 0
                    else (game["white"], game["black"])
                )
                float(game["score_a"])
            except (ValueError, KeyError, TypeError):
                raise TallyError(f"{path} line {number} is not a game of an arena run") from None
            if not self.a:
                self.a, self.b, self.variant = a, b, game["variant"]
            if (a, b, game["variant"]) != (self.a, self.b, self.variant):
                raise TallyError(
                    f"{path} line {number} is {a} against {b} in {game['variant']}, "
                    f"not {self.a} against {self.b} in {self.variant}"
                )
            by_number[game["game"]] = game
        openings = {game["opening"] for game in by_number.values()}
        seen = openings & self.openings
        if 2 * len(seen) > len(openings):
            raise TallyError(f"{path} repeats another file's openings: give each run its own seed")
        self.openings |= openings
        for number, game in sorted(by_number.items()):
            if game["opening"] in seen:
                self.repeated += 1
            elif number ^ 1 in by_number:
                self.games.append(game)
            else:
                self.unpaired += 1

    def summary(self) -> str:
        n = len(self.games)
        if n == 0:
            return "no whole opening pairs to count."
        wins = sum(g["score_a"] == 1 for g in self.games)
        draws = sum(g["score_a"] == 0.5 for g in self.games)
        losses = n - wins - draws
        score = (wins + draws / 2) / n
        low, high = elo_interval(wins, draws, losses)
        margin = sum(g["margin_a"] for g in self.games) / n
        text = (
            f"{self.a} vs {self.b} ({self.variant}): {n} games, +{wins} ={draws} -{losses}, "
            f"score {100 * score:.1f} %, Elo {format_elo(elo_from_score(score))} "
            f"[{format_elo(low)}, {format_elo(high)}], margin {margin:+.1f}"
        )
        for side in ("a", "b"):
            moves = sum(g.get(f"moves_{side}", 0) for g in self.games)
            if moves:
                seconds = sum(g[f"seconds_{side}"] for g in self.games)
                longest = max(g[f"longest_{side}"] for g in self.games)
                text += f", time/move {side.upper()} avg {seconds / moves:.3f}s max {longest:.3f}s"
        left_out = []
        if self.unpaired:
            left_out.append(f"{self.unpaired} unpaired games")
        if self.repeated:
            left_out.append(f"{self.repeated} games of openings an earlier file played")
        if left_out:
            text += f" ({' and '.join(left_out)} left out)"
        return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="arena --json files")
    args = parser.parse_args(argv)
    tally = Tally()
    try:
        for path in args.files:
            tally.add_file(path)
    except TallyError as error:
        print(f"arena_tally: {error}.", file=sys.stderr)
        return 1
    print(tally.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
