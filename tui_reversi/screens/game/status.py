"""What the game screen says in words: the title bar, the status line's
advice (whose turn, a pass, game over, paused), the turn line of the score
panel and the description of a reviewed move. Functions of the match only:
the screen decides when to say them."""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content

from ...core import Color, Game, move_numbers, square_name
from ...core.errors import capitalised
from ...match import Match

# `GameApp.text`: spells symbols out in ASCII mode.
Spell = Callable[[str], str]
# The key shown for an action as bound ("review_step(-1)"), None where it does not act now.
KeyFor = Callable[[str], str | None]
# At a table, the name shown for a seat nobody has taken yet.
EMPTY_SEAT = "waiting…"


def turn_text(match: Match, ply: int, *, reviewing: bool, paused: bool) -> str:
    """The score panel's line for the position at `ply`: whose turn, a
    pass, or the result."""
    game = match.game
    position = game.positions[ply]
    if position.is_game_over():
        return str(game.variant.result(position))
    side = position.to_move.label
    if ply and game.move_at(ply - 1).is_pass:
        return f"{position.to_move.other.label} passed: {side} again"
    if position.must_pass:
        return f"{side} has no move: must pass"
    if not reviewing and paused:
        return f"{side} to move (paused)"
    return f"{side} to move"


def keys_text(key: KeyFor, spell: Spell, *jobs: tuple[str | tuple[str, ...], str]) -> Content:
    """`key job · key job` for the (action or actions, job) pairs whose keys act
    now, each key as bound (after the keymap); empty if none does."""
    parts = []
    for actions, job in jobs:
        keys = [key(action) for action in ((actions,) if isinstance(actions, str) else actions)]
        if all(keys):
            parts.append(Content(" ").join([*(Content.styled(k or "", "b") for k in keys), job]))
    return Content(spell(" · ")).join(parts)


def title_bar(
    match: Match,
    review_ply: int | None,
    spell: Spell,
    opening: str | None = None,
    *,
    key: KeyFor,
    narrow: bool = False,
) -> Content:
    """The game and its players (and the opening, when named), or the review
    banner while reviewing, with its keys; `narrow` (the bar does not fit):
    the app's name gives way first, and in the banner the keys in short,
    before the opening's name, which gives way."""
    if review_ply is not None:
        jobs: list[tuple[str | tuple[str, ...], str]] = [("live", "back to the game")]
        jobs.append(("continue_here", "play from here"))
        if narrow:  # esc and ⏎ stay (the key bar leaves them out first; it shows , .)
            opening = None
            jobs[0] = ("live", "back")
        elif not opening:  # the opening's name takes the room of the longer key hints
            jobs.append((("review_step(-1)", "review_step(1)"), "step"))
        else:
            jobs[0] = ("live", "back")
        keys = keys_text(key, spell, *jobs)
        return Content.from_markup(
            spell(" REVIEWING $where$opening"),
            where=_where(match.game, review_ply).upper(),
            opening=spell(f" · {opening}") if opening else "",
        ) + (Content(spell(" · ")) + keys if keys else Content(""))
    app = "" if narrow else "[b]tui-reversi[/b] · "
    return Content.from_markup(
        spell(f" {app}$variant · $black vs $white$opening"),
        variant=match.variant.value.capitalize(),
        black=f"Black {match.player_label(Color.BLACK)}",
        white=f"White {match.player_label(Color.WHITE)}",
        opening=spell(f" · {opening}") if opening else "",
    )


def advice(
    match: Match,
    review_ply: int | None,
    *,
    paused: bool,
    spell: Spell,
    key: KeyFor,
    at_table: bool = False,
) -> Content:
    """What the player can do now, when there is nothing else to say (at a
    server's table, no new game: a rematch for a player), with its keys."""
    game = match.game
    if review_ply is not None:
        return Content(f" {describe_ply(game, review_ply)}")
    if match.ending is not None and match.ending.reason == "adjourned":
        leave = keys_text(key, spell, ("quit", "leave the table")) if at_table else Content("")
        adjourned = Content(" Adjourned: the game goes on when both players are back")
        return adjourned + (Content(spell(" · ")) + leave if leave else Content(""))
    if match.is_over:
        if at_table:
            jobs = [("rematch", "rematch"), ("review_step(-1)", "review")]
            jobs += [("analyse", "analyse"), ("quit", "leave the table")]
        else:
            jobs = [("new_game", "new game"), ("review_step(-1)", "review"), ("quit", "quit")]
        return Content(" Game over: ") + keys_text(key, spell, *jobs)
    passed = game.ply and game.move_at(game.ply - 1).is_pass
    who = match.to_move.label
    if passed:
        text = f" {match.to_move.other.label} has no legal move and passes. {who} to move."
        return Content.from_markup("[b $warning]$text[/]", text=text)
    if match.human_to_move:
        legal = match.position.legal_moves()
        play = key("choose")  # the board's key, when it has the focus
        return Content.assemble(
            Content.from_markup(" $who to play: arrows/hjkl", who=who),
            Content(" + ") + Content.styled(play, "b") if play else "",
            Content.from_markup(
                ", type a square ([b]$square[/b]) or click",
                square=square_name(legal[0]) if legal else "d3",  # an example that plays
            ),
        )
    if paused:
        keys = keys_text(key, spell, ("pause", "to let the computers play on"))
        return Content(" Paused: ") + keys
    if not match.thinks(match.to_move):  # someone at another terminal: no "thinking"
        name = match.names[match.to_move]
        if name == EMPTY_SEAT:
            return Content(f" {who} to move, once someone sits down.")
        return Content(spell(f" Waiting for {name} ({who}) to move…"))
    return Content.from_markup(
        spell(" $who ($level) is thinking…"),
        who=who,
        level=match.player_label(match.to_move),
    )


def notice(text: str, spell: Spell) -> Content:
    """A message for the status line, in bold (its margin is the line's own,
    so that a second line of it lines up with the first)."""
    return Content.from_markup("[b]$text[/b]", text=spell(text))


def _where(game: Game, ply: int) -> str:
    """'move 9 of 30' as the move log numbers them (a pass takes no number),
    'the pass after move 8', 'move 15, taken back' (a move undone, which
    the total does not count), or 'the start'."""
    if ply == 0:
        return "the start"
    numbers = move_numbers(game.played)
    number = numbers[ply - 1]
    if number is None:
        before = max((n for n in numbers[: ply - 1] if n is not None), default=0)
        return f"the pass after move {before}" if before else "a pass before move 1"
    if ply > game.ply:
        return f"move {number}, taken back"
    return f"move {number} of {game.move_number()}"


def describe_ply(game: Game, ply: int) -> str:
    """'Move 4: White played d3, flipping 1. Black 4, White 4.' for review
    (numbered as the move log numbers them)."""
    position = game.positions[ply]
    counts = f"Black {position.count(Color.BLACK)}, White {position.count(Color.WHITE)}."
    if ply == 0:
        return f"The start. {counts}"
    move, before = game.move_at(ply - 1), game.positions[ply - 1]
    where = _where(game, ply)
    if move.is_pass:
        return f"{capitalised(where)}: {before.to_move.label} had no move. {counts}"
    flipped = before.flips(move.square).bit_count()
    number = where.split(" of ")[0].split(",")[0].capitalize()
    return f"{number}: {before.to_move.label} played {move}, flipping {flipped}. {counts}"
