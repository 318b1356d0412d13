"""The board's geometry: sizes, fitting, and which square a click lands on."""

import pytest

from tui_reversi.core.squares import square_at
from tui_reversi.widgets.board import BoardView, board_size, largest_cell
from tui_reversi.widgets.glyphs import ASCII, CELL_SIZES, UNICODE


def test_the_smallest_board_fits_beside_the_side_panel_at_80x24():
    size = board_size(CELL_SIZES[0], UNICODE)
    assert (size.width, size.height) == (35, 18)
    assert largest_cell(80 - 26, 24 - 3, UNICODE) == CELL_SIZES[0]


def test_bigger_terminals_get_bigger_squares():
    assert largest_cell(200, 57, UNICODE) == (11, 5)
    assert largest_cell(160 - 26, 50 - 3, UNICODE) == (9, 4)  # 160x50: not stuck at (7, 3)
    assert largest_cell(120, 37, UNICODE) == (7, 3)
    assert largest_cell(10, 5, UNICODE) == CELL_SIZES[0]  # never smaller than the smallest


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII])
@pytest.mark.parametrize("cell", CELL_SIZES)
def test_every_square_interior_maps_back_to_its_square(glyphs, cell):
    board = BoardView()
    board.glyphs, board.cell = glyphs, cell
    for row in range(8):
        for col in range(8):
            x, y = board._origin(row, col)
            for dx in range(cell[0]):
                for dy in range(cell[1]):
                    assert board.square_at_offset(x + dx, y + dy) == square_at(row, col)
    assert board.square_at_offset(0, 0) is None  # the coordinates are not squares


def test_disc_art_fits_its_cell_and_black_and_white_differ_in_shape():
    for cell, (black, white, flipping) in UNICODE.art.items():
        width, height = cell
        for rows in (black, white, flipping):
            assert len(rows) == height and all(len(row) <= width - 2 for row in rows)
        assert black != white
    assert UNICODE.black != UNICODE.white and ASCII.black != ASCII.white


def board_row(app, row: int) -> str:
    """The text of the board's middle line through row `row` (1-8)."""
    board = app.screen.query_one(BoardView)
    lines = [board.render_line(y).text for y in range(board.size.height)]
    return next(line for line in lines if line.startswith(str(row)))


@pytest.mark.parametrize("size", [(80, 24), (60, 21), (120, 37)])
async def test_in_colour_both_discs_are_solid_and_without_it_white_is_hollow(
    make_app, monkeypatch, size
):
    # d4 is White's, e4 Black's: a ring read as a zero on the page.
    app = make_app(white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        cells = [cell.strip() for cell in board_row(app, 4).split("│")[1:9]]
        assert cells[3] == cells[4] and cells[3] in ("●", "█████")
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        cells = [cell.strip() for cell in board_row(app, 4).split("│")[1:9]]
        assert cells[3] != cells[4] and cells[3] in ("○", "█   █")
