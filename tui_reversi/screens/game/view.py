"""The one place the game screen's widgets are rebuilt from the game: the
board (the live or the reviewed position, its markers, hint and premove),
the score panel and the move log with what the analysis found, from a
`Shown`, the screen's picture of the moment (the title and status lines
and the analysis panel are drawn by their own parts after it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...core import Color, Ending, Game
from ...match import Match
from ...widgets.board import BoardState, BoardView
from ...widgets.move_log import MoveList, MoveLog
from ...widgets.score import Scoreboard, ScorePanel
from . import status


@dataclass(frozen=True, slots=True)
class Shown:
    """What the widgets show: the game, the ply reviewed (None: the live game)
    and what is marked on the board, with the referee's answers they need."""

    match: Match
    review_ply: int | None
    hint: int | None  # in review, the best move from the reviewed position, when analysed
    premove: int | None  # (the live game's only)
    legal_markers: bool  # the setting: the squares a player may play are dotted
    local_to_move: bool  # a move may be played here now (the key bar offers "⏎ Play")
    plays_here: bool
    paused: bool
    ratings: tuple[str, str]  # Black's and White's, at a server's table
    marks: tuple[tuple[str, ...], tuple[str, ...]]  # the move log's, from the analysis


class GameView:
    """Pushes the state of the game down to the screen's widgets."""

    def __init__(
        self,
        board: Callable[[], BoardView],
        score: Callable[[], ScorePanel],
        log: Callable[[], MoveLog],
    ) -> None:
        self._board, self._score, self._log = board, score, log

    def show(self, shown: Shown, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        match, game, review_ply = shown.match, shown.match.game, shown.review_ply
        ply = game.ply if review_ply is None else review_ply
        position = game.positions[ply]
        last, flipped = _last_move(game, ply)
        # Not while a computer or the person across the table is to move.
        human_live = review_ply is None and shown.local_to_move
        self._board().show(
            BoardState(
                position,
                legal=position.legal_mask() if human_live and shown.legal_markers else 0,
                last_move=last,
                flipped=flipped,
                hint=shown.hint,
                premove=shown.premove if review_ply is None else None,
                readonly=review_ply is not None,
                playable=shown.plays_here,
                to_play=shown.local_to_move,
                over=match.is_over and review_ply is None,
            ),
            animate=animate,
        )
        turn = status.turn_text(match, ply, reviewing=review_ply is not None, paused=shown.paused)
        # A game may end off the board (a resignation, a flag, a player gone).
        ending = match.ending if review_ply is None else None
        self._score().scoreboard = Scoreboard(
            players=(match.player_label(Color.BLACK), match.player_label(Color.WHITE)),
            ratings=shown.ratings,
            counts=(position.count(Color.BLACK), position.count(Color.WHITE)),
            to_move=None if position.is_game_over() or ending is not None else position.to_move,
            status=turn if ending is None or position.is_game_over() else _ended_status(ending),
        )
        marks, notes = shown.marks
        self._log().moves = MoveList(
            game.played,
            game.ply,
            review_ply,
            first=game.positions[0].to_move,
            marks=marks,
            notes=notes,
        )


def _ended_status(ending: Ending) -> str:
    """The score panel's line for a game ended off the board: who won and
    how ('Black wins: White resigned', 'White wins on time', 'Adjourned'),
    there for as long as the game is shown, as a result on the board is."""
    return str(ending)


def _last_move(game: Game, ply: int) -> tuple[int | None, int]:
    """The last real move before `ply` and the discs it flipped (a bitboard)."""
    for earlier in range(ply - 1, -1, -1):
        move = game.move_at(earlier)
        if move:
            return move.square, game.positions[earlier].flips(move.square)
    return None, 0
