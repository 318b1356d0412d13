"""Which of the game screen's keys apply: here, in this game at all (a
table's key in a local game does not, nor saving without files: the help
leaves them out), and now (not while reviewing, not on the other side's
turn, not before anything is analysed: the key bar and the palette leave
them out, the help lists them). `GameScreen.check_action` asks these of a
`KeyState`, a frozen picture of the game and the screen taken for the
question, so that the rules read one moment and nothing else."""

from __future__ import annotations

from dataclasses import dataclass

# Keys that, pressed when they do not apply now, say why ("needs your turn").
EXPLAINED = ("hint", "graph")

# Keys that would leave or rewrite the table's game: not at a table.
NOT_AT_TABLE = ("new_game", "open_games", "import", "continue_here")


@dataclass(frozen=True, slots=True)
class KeyState:
    """What the keys depend on, at one moment."""

    at_table: bool  # at a server's table
    served: bool  # on a server, in the player's own game (the lobby is there)
    keeps_files: bool  # the player's files are kept (save, open, settings)
    reviewing: bool
    premove: bool  # a move is typed ahead
    # The referee's answers (match.py):
    takebacks_allowed: bool
    hints_offered: bool
    hints_allowed: bool
    plays_here: bool
    local_to_move: bool
    pausing_allowed: bool
    paused: bool
    # At the table, for a player of it (table.py):
    can_resign: bool
    can_ask_rematch: bool
    # The analysis (analysis.py):
    analysis_allowed: bool
    analysed: bool


def applies_here(keys: KeyState, action: str) -> bool:
    """Whether `action` has a meaning in this game (at a table or not, with files or not)."""
    at_table = keys.at_table
    if action in ("resign", "chat", "takeback", "rematch"):
        return at_table
    if action in NOT_AT_TABLE and at_table:
        return False
    if action in ("lobby", "no_lobby"):  # at a table, q goes back to the lobby's game
        return not at_table and keys.served == (action == "lobby")
    if action in ("undo", "redo", "continue_here"):  # (continuing takes moves back)
        return keys.takebacks_allowed
    if action == "hint":
        return keys.hints_offered
    if action == "clear_premove":
        # False, not None, without one: esc is then the review's key.
        return keys.premove and not keys.reviewing
    if action == "markers":  # someone plays at this keyboard (not watching)
        return keys.plays_here
    if action == "pause":  # watching two computers, or after a player failed
        return keys.pausing_allowed or keys.paused
    if action in ("save_game", "open_games", "settings"):
        return keys.keeps_files
    return True


def applies_now(keys: KeyState, action: str, parameters: tuple[object, ...]) -> bool:
    """Whether `action`, which applies in this game, acts at this moment."""
    reviewing = keys.reviewing
    if action in ("resign", "takeback"):  # (a takeback is asked when resigning may be)
        return keys.can_resign
    if action == "rematch":
        return keys.can_ask_rematch
    if action in ("live", "continue_here"):
        return reviewing
    if action == "review_step" and parameters == (1,):
        return reviewing
    if action in ("undo", "redo", "pause"):
        return not reviewing
    if action == "hint":  # the person to move, in the live game
        return not reviewing and keys.hints_allowed
    if action == "markers":  # at a table, only on your turn (the key bar is short)
        on_turn = keys.local_to_move or not keys.at_table
        return not reviewing and on_turn
    if action == "analyse":  # never a help during play
        return keys.analysis_allowed
    if action == "graph":
        return keys.analysis_allowed and keys.analysed
    return True
