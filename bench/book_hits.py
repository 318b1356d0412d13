"""How many moves of an arena match's games came from each side's book.

Reads `tui-reversi arena --json` files. A side's book is the one its label
names with TUI_REVERSI_BOOK=PATH (an outside engine started as
`cmd:env TUI_REVERSI_BOOK=PATH tui-reversi engine hard`), else the shipped
book. A move counts as the book's when its mover had a choice (forced moves
never ask the book) and the position was in that side's book: hard then
plays the book's move without searching.

    python bench/book_hits.py m.jsonl [more.jsonl ...]
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_reversi.core import Game
from tui_reversi.core.bitboard import canonical_image
from tui_reversi.engine.book import BOOK_PATH, read_book

NAMED_BOOK = re.compile(r"TUI_REVERSI_BOOK=(\S+)")


def book_of(label: str) -> Path:
    found = NAMED_BOOK.search(label)
    return Path(found[1]) if found else BOOK_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    books: dict[Path, set[tuple[int, int]]] = {}
    hits: dict[str, list[int]] = {}  # per side's label: book moves in each game
    last: dict[str, list[int]] = {}  # per side's label: the ply of its last book move
    for path in args.files:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            game = Game.from_transcript(record["transcript"])
            opening = len(Game.from_transcript(record["opening"]).played)
            for colour, label in enumerate((record["black"], record["white"])):
                book = book_of(label)
                if book not in books:
                    books[book] = set(read_book(book))
                count, latest = 0, 0
                for ply in range(opening, game.length):
                    position = game.positions[ply]
                    if position.to_move != colour or len(position.legal_moves()) < 2:
                        continue
                    if canonical_image(position.own, position.opp)[:2] in books[book]:
                        count, latest = count + 1, ply + 1
                hits.setdefault(label, []).append(count)
                last.setdefault(label, []).append(latest)
    for label, counts in hits.items():
        used = sum(1 for count in counts if count)
        print(
            f"{label}: {statistics.mean(counts):.2f} book moves a game "
            f"({sum(counts)} in {len(counts)} games; {used} games used the book), "
            f"last book move at ply {statistics.mean(last[label]):.1f} on average"
        )


if __name__ == "__main__":
    main()
