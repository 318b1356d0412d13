"""The one place the game screen's widgets are rebuilt from the game: the
board (the live or the reviewed position, its markers, hint and premove),
the score panel, the move log with what the analysis found, then the title
and status lines and the analysis panel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Color, Ending, Game
from ...widgets.board import BoardState, BoardView
from ...widgets.move_log import MoveList, MoveLog
from ...widgets.score import Scoreboard, ScorePanel
from . import status

if TYPE_CHECKING:
    from .screen import GameScreen


class GameView:
    """Pushes the state of the game down to the screen's widgets."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def show(self, *, animate: bool = False) -> None:
        """Push the state of the game (or of the reviewed position) down to the widgets."""
        screen = self.screen
        hints, analysis = screen.hints, screen.analysis
        match, game = screen.match, screen.match.game
        review_ply = screen.review.ply
        ply = game.ply if review_ply is None else review_ply
        position = game.positions[ply]
        last, flipped = _last_move(game, ply)
        # Whether a move may be played here now (so the key bar offers "⏎ Play"):
        # not while a computer or the person across the table is to move.
        to_play = screen.referee.local_to_move
        human_live = review_ply is None and to_play
        screen.query_one(BoardView).show(
            BoardState(
                position,
                legal=position.legal_mask() if human_live and screen.settings.legal_moves else 0,
                last_move=last,
                flipped=flipped,
                # in review, the best move from the reviewed position, when analysed
                hint=hints.square if review_ply is None else analysis.best(review_ply),
                premove=screen.premove.square if review_ply is None else None,
                readonly=review_ply is not None,
                playable=screen.referee.plays_here,
                to_play=to_play,
                over=match.is_over and review_ply is None,
            ),
            animate=animate,
        )
        turn = status.turn_text(
            match, ply, reviewing=review_ply is not None, paused=screen.referee.paused
        )
        # A game may end off the board (a resignation, a flag, a player gone).
        ending = match.ending if review_ply is None else None
        screen.query_one(ScorePanel).scoreboard = Scoreboard(
            players=(match.player_label(Color.BLACK), match.player_label(Color.WHITE)),
            ratings=screen.table.ratings(),
            counts=(position.count(Color.BLACK), position.count(Color.WHITE)),
            to_move=None if position.is_game_over() or ending is not None else position.to_move,
            status=turn if ending is None or position.is_game_over() else _ended_status(ending),
        )
        marks, notes = analysis.marks(game)
        screen.query_one(MoveLog).moves = MoveList(
            game.played,
            game.ply,
            review_ply,
            first=game.positions[0].to_move,
            marks=marks,
            notes=notes,
        )
        screen.status_line.show_title()
        screen.status_line.show_status()
        analysis.shown()


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
