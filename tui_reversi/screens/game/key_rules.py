"""Which of the game screen's keys apply: here, in this game at all (a
table's key in a local game does not, nor saving without files: the help
leaves them out), and now (not while reviewing, not on the other side's
turn, not before anything is analysed: the key bar and the palette leave
them out, the help lists them). `GameScreen.check_action` asks these."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .table import NOT_AT_TABLE

if TYPE_CHECKING:
    from .screen import GameScreen

# Keys that, pressed when they do not apply now, say why ("needs your turn").
EXPLAINED = ("hint", "graph")


def applies_here(screen: GameScreen, action: str) -> bool:
    """Whether `action` has a meaning in this game (at a table or not, with files or not)."""
    referee, at_table = screen.referee, screen.table.link is not None
    if action in ("resign", "chat", "takeback", "rematch"):
        return at_table
    if action in NOT_AT_TABLE and at_table:
        return False
    if action in ("lobby", "no_lobby"):  # at a table, q goes back to the lobby's game
        served = screen.reversi_app.invitations is not None
        return not at_table and served == (action == "lobby")
    if action in ("undo", "redo", "continue_here"):  # (continuing takes moves back)
        return referee.takebacks_allowed
    if action == "hint":
        return referee.hints_offered
    if action == "clear_premove":
        # False, not None, without one: esc is then the review's key.
        return screen.premove.move is not None and not screen.review.reviewing
    if action == "markers":  # someone plays at this keyboard (not watching)
        return referee.plays_here
    if action == "pause":  # watching two computers, or after a player failed
        return referee.allows(lambda allows: allows.pausing) or referee.paused
    if action in ("save_game", "open_games", "settings"):
        return screen.reversi_app.session is not None
    return True


def applies_now(screen: GameScreen, action: str, parameters: tuple[object, ...]) -> bool:
    """Whether `action`, which applies in this game, acts at this moment."""
    reviewing = screen.review.reviewing
    if action == "resign":
        return screen.table.can_resign()
    if action == "takeback":
        return screen.table.can_ask_takeback()
    if action == "rematch":
        return screen.table.can_ask_rematch()
    if action in ("live", "continue_here"):
        return reviewing
    if action == "review_step" and parameters == (1,):
        return reviewing
    if action in ("undo", "redo", "pause"):
        return not reviewing
    if action == "hint":  # the person to move, in the live game
        return not reviewing and screen.referee.hints_allowed
    if action == "markers":  # at a table, only on your turn (the key bar is short)
        on_turn = screen.referee.local_to_move or screen.table.link is None
        return not reviewing and on_turn
    if action == "analyse":  # never a help during play
        return screen.analysis.allowed()
    if action == "graph":
        return screen.analysis.allowed() and screen.analysis.analysed()
    return True
