"""The learned book: games added to a book file of their own, so that the
engine plays what they taught it the next time it meets their positions
(NBoard's `learn`, as Edax and NTest do it).

    learn_game(game, data_dir() / LEARNED_NAME)  # then book_move(..., learned=path)

Each position of the game before the solver's reach (more than
SOLVED_EMPTIES empty squares) gets an entry in the shipped book's format:
its moves as the shipped book (or, out of it, a search LEARN_DEPTH deep)
scores them, and the move the game played with the value the game's own
line gives it, negamaxed from the end back: the exact value where the
line reaches the solver's reach (or the game's end), each earlier
position's best move's. A line the engine lost is thus worth what it lost,
and the engine leaves it where another move scores better.
"""

from __future__ import annotations

from pathlib import Path

from ..core import Game, Position, ReversiError
from ..core.bitboard import canonical_image, image_square
from ..engine.book import book_scores, keep_learned, load_learned
from ..engine.evaluation import SCALE
from .alphabeta_player import EXPERT_SELECTIVITY, engine_for, score_in_discs

LEARNED_NAME = "learned-book.txt"  # in the user's data folder
LEARN_DEPTH = 10  # the other moves of a position out of the shipped book
SOLVED_EMPTIES = 20  # from here on the solver's exact value stands for the line


def learn_game(game: Game, path: Path, depth: int = LEARN_DEPTH) -> int:
    """Add `game` (Othello from the standard start) to the learned book at
    `path`, searching `depth` plies where a search is needed; the number of
    positions learned. ReversiError for a game the book cannot hold."""
    if game.variant.fewer_discs_win or game.start != Position.initial():
        raise ReversiError("only games of Othello from the standard start can be learned")
    engine = engine_for(game.variant, "trained", EXPERT_SELECTIVITY)
    positions = game.positions[: game.length + 1]
    last = next(
        (ply for ply, p in enumerate(positions) if p.empty_count <= SOLVED_EMPTIES),
        len(positions) - 1,
    )
    if last == 0:
        return 0  # no move before the solver's reach: nothing to learn
    end = positions[last]
    if end.is_game_over():
        lead = end.own.bit_count() - end.opp.bit_count()
        # Othello's count: the empty squares go to the winner.
        value = (lead + (end.empty_count if lead > 0 else -end.empty_count if lead else 0)) * SCALE
    else:
        found = engine.search(end.own, end.opp, max_depth=depth, exact_empties=SOLVED_EMPTIES)
        value = _units(found.score)
    entries = dict(load_learned(path))
    learned = 0
    for ply in range(last - 1, -1, -1):
        position, move = positions[ply], game.move_at(ply)
        if move.is_pass:
            value = -value
            continue
        scores = book_scores(position.own, position.opp, path)
        if not scores:
            found = engine.search(position.own, position.opp, max_depth=depth, analyse=True)
            scores = {sq: _units(score) for sq, score in found.scores.items()}
        scores[move.square] = -value
        value = max(scores.values())
        c_own, c_opp, k = canonical_image(position.own, position.opp)
        image = {sq: image_square(sq, k) for sq in scores}
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        entries[c_own, c_opp] = [(image[sq], score) for sq, score in ranked]
        learned += 1
    keep_learned(path, entries)
    return learned


def _units(score: int) -> int:
    """A search score in the book's units (a proven one's margin, not its bound)."""
    return round(score_in_discs(score)[0] * SCALE)


__all__ = ["LEARNED_NAME", "LEARN_DEPTH", "SOLVED_EMPTIES", "learn_game"]
