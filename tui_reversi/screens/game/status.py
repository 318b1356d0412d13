"""What the game screen says in words: the title bar, the status line's
advice (whose turn, a pass, game over, paused), the turn line of the score
panel and the description of a reviewed move. Functions of the match only:
the screen decides when to say them."""

from __future__ import annotations

from collections.abc import Callable

from textual.content import Content

from ...core import Color, Game, move_numbers, square_name
from ...match import Match

# `GameApp.text`: spells symbols out in ASCII mode.
Spell = Callable[[str], str]
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


def title_bar(
    match: Match,
    review_ply: int | None,
    spell: Spell,
    opening: str | None = None,
    *,
    play_from_here: bool = True,
) -> Content:
    """The game and its players (and the opening, when named), or the review
    banner while reviewing (with ⏎ playing on from there if `play_from_here`:
    not at a server's table)."""
    if review_ply is not None:
        here = " · [b]⏎[/b] play from here" if play_from_here else ""
        keys = f" · [b]esc[/b] back to the game{here} · [b],[/b] [b].[/b] step"
        if opening:  # the opening's name takes the room of the longer key hints
            keys = f" · [b]esc[/b] back{here}"
        return Content.from_markup(
            spell(f" REVIEWING $where$opening{keys}"),
            where=_where(match.game, review_ply).upper(),
            opening=spell(f" · {opening}") if opening else "",
        )
    return Content.from_markup(
        spell(" [b]tui-reversi[/b] · $variant · $black vs $white$opening"),
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
    at_table: bool = False,
    rematch: bool = False,
) -> Content:
    """What the player can do now, when there is nothing else to say (at a
    server's table, no new game: a `rematch` for a player)."""
    game = match.game
    if review_ply is not None:
        return Content(f" {describe_ply(game, review_ply)}")
    if match.ending is not None and match.ending.reason == "adjourned":
        leave = " · [b]q[/b] leave the table" if at_table else ""
        return Content.from_markup(
            spell(f" Adjourned: the game goes on when both players are back{leave}")
        )
    if match.is_over and at_table:
        again = "[b]r[/b] rematch · " if rematch else ""
        keys = "[b],[/b] review · [b]a[/b] analyse · [b]q[/b] leave the table"
        return Content.from_markup(spell(f" Game over: {again}{keys}"))
    if match.is_over:
        return Content.from_markup(
            spell(" Game over: [b]n[/b] new game · [b],[/b] review · [b]ctrl+q[/b] quit")
        )
    passed = game.ply and game.move_at(game.ply - 1).is_pass
    who = match.to_move.label
    if passed:
        text = f" {match.to_move.other.label} has no legal move and passes. {who} to move."
        return Content.from_markup("[b $warning]$text[/]", text=text)
    if match.human_to_move:
        legal = match.position.legal_moves()
        return Content.from_markup(
            spell(" $who to play: arrows/hjkl + [b]⏎[/b], type a square ([b]$square[/b]) or click"),
            who=who,
            square=square_name(legal[0]) if legal else "d3",  # an example that plays
        )
    if paused:
        return Content.from_markup(" Paused: [b]p[/b] to let the computers play on")
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
    """A one-line message for the status line, in bold."""
    return Content.from_markup("[b]$text[/b]", text=f" {spell(text)}")


def _where(game: Game, ply: int) -> str:
    """'move 9 of 30' as the move log numbers them (a pass takes no number),
    'the pass after move 8', or 'the start'."""
    if ply == 0:
        return "the start"
    numbers = move_numbers(game.played)
    total = sum(1 for number in numbers if number is not None)
    number = numbers[ply - 1]
    if number is None:
        before = max((n for n in numbers[: ply - 1] if n is not None), default=0)
        return f"the pass after move {before}" if before else "a pass before move 1"
    return f"move {number} of {total}"


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
        return f"{where[:1].upper()}{where[1:]}: {before.to_move.label} had no move. {counts}"
    flipped = before.flips(move.square).bit_count()
    number = where.split(" of ")[0].capitalize()
    return f"{number}: {before.to_move.label} played {move}, flipping {flipped}. {counts}"
