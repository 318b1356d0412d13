"""Seeded positions for the players' tests."""

import random

from tui_reversi.core import Game, Position, Variant


def random_games(variant: Variant, count: int, seed: int) -> list[Game]:
    """`count` games of random moves, each stopped at a random ply (some at the end)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = Game(variant)
        stop = rng.randint(0, 64)
        while game.length < stop and not game.is_over:
            game.play(rng.choice(game.position.legal_moves()))
        games.append(game)
    return games


def position_with_empties(empties: int, seed: int, variant=Variant.OTHELLO) -> Position:
    """A position reached by random moves with exactly `empties` empty squares
    and a move to make."""
    rng = random.Random(seed)
    while True:
        game = Game(variant)
        while not game.is_over and game.position.empty_count > empties:
            game.play(rng.choice(game.position.legal_moves()))
        if game.position.empty_count == empties and game.position.legal_moves():
            return game.position
