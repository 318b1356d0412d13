"""Rules invariants over random playouts (hypothesis)."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import PASS, Color, Game, Position, Variant
from tui_reversi.core.bitboard import squares_of, symmetries

from .reference import flipped_squares, legal_squares, to_grid


@st.composite
def games(draw, variant=None):
    """A game played to a random length (possibly to the end) by random moves."""
    variant = variant or draw(st.sampled_from(list(Variant)))
    rnd = draw(st.randoms(use_true_random=False))
    game = Game(variant)
    stop = draw(st.integers(0, 70))
    while game.length < stop and not game.is_over:
        game.play(rnd.choice(game.position.legal_moves()))
    return game


@given(games())
def test_every_legal_move_agrees_with_a_plain_scan_and_flips_exactly_its_lines(game):
    position = game.position
    if position.in_opening_placement:
        return
    grid, me = to_grid(position), position.to_move.symbol
    assert position.legal_moves() == legal_squares(grid, me)
    for square in range(64):
        assert squares_of(position.flips(square)) == flipped_squares(grid, square, me)
        # A move is legal iff it flips something (empty squares only).
        if position.color_at(square) is None:
            assert position.is_legal(square) == bool(position.flips(square))


@given(games())
def test_discs_placed_and_flipped_add_up_move_by_move(game):
    for ply, move in enumerate(game.moves):
        before, after = game.positions[ply], game.positions[ply + 1]
        mover = before.to_move
        if move == PASS:
            assert (after.black, after.white) == (before.black, before.white)
            continue
        flipped = before.flips(move).bit_count()
        assert after.count(mover) == before.count(mover) + 1 + flipped
        assert after.count(mover.other) == before.count(mover.other) - flipped
        assert after.empty_count == before.empty_count - 1
        assert after.to_move is mover.other


@given(games())
def test_the_eight_symmetries_map_legal_moves_to_legal_moves(game):
    position = game.position
    blacks, whites = symmetries(position.black), symmetries(position.white)
    for k in range(8):
        image = Position(blacks[k], whites[k], position.to_move)
        mapped = sorted(symmetries(1 << m)[k].bit_length() - 1 for m in position.legal_moves())
        assert image.legal_moves() == mapped


@given(games())
def test_random_games_end_within_60_moves_and_the_winner_follows_the_variant(game):
    while not game.is_over:
        game.play(game.position.legal_moves()[0])
    squares_played = sum(1 for m in game.moves if m != PASS)
    assert squares_played == game.start.empty_count - game.position.empty_count
    # 60 moves from the Othello start; classic Reversi adds its 4 placements.
    assert squares_played <= (64 if game.variant is Variant.REVERSI else 60)
    result = game.result
    b, w = game.position.count(Color.BLACK), game.position.count(Color.WHITE)
    if b != w:
        more = Color.BLACK if b > w else Color.WHITE
        assert result.winner is (more.other if game.variant is Variant.ANTI else more)
    assert result.black + result.white == 64  # the empties went to someone


@given(games())
def test_transcript_and_board_string_round_trip(game):
    again = Game.from_transcript(game.transcript(), game.variant)
    assert again.moves == game.moves and again.positions == game.positions
    for position in game.positions:
        assert Position.from_string(str(position)) == position


@given(games(), st.data())
def test_undo_then_redo_restores_identical_positions(game, data):
    end = game.position
    steps = data.draw(st.integers(0, game.length))
    undone = 0
    for _ in range(steps):
        undone += game.undo()
    if undone:
        assert game.position.legal_mask()  # undo lands where somebody can play
    for _ in range(undone):
        assert game.redo()
    assert game.position == end
    assert not game.can_redo
