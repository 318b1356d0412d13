"""Every theme is readable: each character the board, the move log and the
panels draw (discs, markers, coordinates, grid lines, text) has a contrast
ratio of at least 3:1 with what is behind it (WCAG 2 formula), in the
truecolor rendering and in the 256- and 16-colour ones a terminal without
true colour shows.

The colours are read from what the app really draws, in the states that use
the most styles: legal-move markers, the cursor, the last move and the
discs it flipped, a typed column, a hint, an error, the computer thinking,
history review, a pass and undone moves in the log, and what the analysis
draws: the move log's marks and figures, the panel's summary and progress,
and the evaluation graph beside the board and on its own screen."""

from __future__ import annotations

import pytest
from rich.color import Color, ColorSystem, ColorType
from rich.style import Style
from textual.filter import dim_color

from tui_reversi.core import Move
from tui_reversi.players import MoveScore
from tui_reversi.widgets.themes import THEMES

from .conftest import GatedPlayer, settle

MINIMUM = 3.0
# The 16 colours as rich (and so Textual) chooses them when it downgrades,
# and as the VGA palette draws them; the terminal's default colours as a
# dark terminal draws them.
SIXTEEN = [
    (0, 0, 0), (170, 0, 0), (0, 170, 0), (170, 85, 0), (0, 0, 170), (170, 0, 170),
    (0, 170, 170), (170, 170, 170), (85, 85, 85), (255, 85, 85), (85, 255, 85),
    (255, 255, 85), (85, 85, 255), (255, 85, 255), (85, 255, 255), (255, 255, 255),
]  # fmt: skip
DEFAULT_FOREGROUND, DEFAULT_BACKGROUND = SIXTEEN[7], SIXTEEN[0]
RENDERINGS = {"truecolor": None, "256": ColorSystem.EIGHT_BIT, "16": ColorSystem.STANDARD}
# Decoration, not content: panel borders and scrollbars.
DECORATION = set("─│╭╮╰╯━┃┏┓┗┛▁▂▃▄▅▆▇█▔▕▏▎▍▌▋▊▉▐")
CHECKED = (
    "BoardView", "ScorePanel", "MoveLog", "KeyBar", "Static", "Literal",
    "AnalysisPanel", "EvalGraph", "PercentageStatus",
)  # fmt: skip
# Where block and line characters are the content: the graph's bars and the
# line through the reviewed move.
DRAWN_IN_BLOCKS = ("EvalGraph",)


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ratio(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def rendered(color: Color | None, system: ColorSystem | None, default) -> tuple[int, int, int]:
    """The RGB a terminal shows for `color` in a rendering."""
    if color is None or color.type is ColorType.DEFAULT:
        return default
    if system is not None and color.type in (ColorType.TRUECOLOR, ColorType.EIGHT_BIT):
        color = color.downgrade(system)
    if color.type in (ColorType.STANDARD, ColorType.WINDOWS):
        return SIXTEEN[color.number]
    if color.type is ColorType.EIGHT_BIT and color.number < 16:
        return SIXTEEN[color.number]
    triplet = color.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def cell_colours(style: Style, system: ColorSystem | None):
    foreground = rendered(style.color, system, DEFAULT_FOREGROUND)
    background = rendered(style.bgcolor, system, DEFAULT_BACKGROUND)
    if style.reverse:
        foreground, background = background, foreground
    if style.dim:  # as Textual draws dim text: halfway to the background
        blended = dim_color(Color.from_rgb(*background), Color.from_rgb(*foreground), 0.5)
        foreground = rendered(blended, system, DEFAULT_FOREGROUND)
    return foreground, background


def widget_name(app, x: int, y: int) -> str:
    widget, _ = app.screen.get_widget_at(x, y)
    return type(widget).__name__


def low_contrast(app, state: str) -> list[str]:
    """Every (widget, character, colours) on screen below the minimum, per rendering."""
    problems = set()
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for segment in strip:
            for char in segment.text:
                if char.strip() and segment.style is not None:
                    name = widget_name(app, x, y)
                    content = char not in DECORATION or name in DRAWN_IN_BLOCKS
                    if name in CHECKED and content:
                        for rendering, system in RENDERINGS.items():
                            fg, bg = cell_colours(segment.style, system)
                            if ratio(fg, bg) < MINIMUM:
                                problems.add(
                                    f"{state}, {rendering}: {name} {char!r} "
                                    f"{fg} on {bg} = {ratio(fg, bg):.2f}"
                                )
                x += 1
    return sorted(problems)


def hint(position, variant, cancelled):
    return [MoveScore(move=Move.parse("e6"), score=1.0)]


@pytest.mark.parametrize("theme", [theme.name for theme in THEMES])
async def test_every_theme_draws_everything_at_3_to_1_or_better(make_app, theme):
    problems: list[str] = []
    app = make_app(theme=theme, transcript="f5d6c3d3c4f4", white="human", hint_engine=hint)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "1")  # an illegal square: an error on the status line
        await pilot.pause()
        problems += low_contrast(app, "markers, last move, flipped, error")
        await pilot.press("i")
        await settle(pilot, app)
        await pilot.press("c")  # a typed column
        await pilot.pause()
        problems += low_contrast(app, "hint, typed column")
        await pilot.press("comma", "comma")
        await pilot.pause()
        problems += low_contrast(app, "review")
    app = make_app(theme=theme, transcript="d3c3e6d2d1e1b2c1", white="human")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("u", "u")  # undone moves and a pass in the log
        await pilot.pause()
        problems += low_contrast(app, "pass, undone")
    player = GatedPlayer()
    app = make_app(theme=theme, white="hard", player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "3")
        await pilot.pause(0.3)
        problems += low_contrast(app, "thinking")
        player.gate.set()
        await settle(pilot, app)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("size", "cell"), [((120, 40), (7, 3)), ((200, 60), (11, 5))])
async def test_legal_move_markers_grow_with_the_squares(make_app, size, cell):
    from tui_reversi.core import parse_square
    from tui_reversi.widgets.board import BoardView

    app = make_app(white="human")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        assert board.cell == cell
        square = parse_square("d3")  # legal for Black at the start
        x, y = board._origin(square // 8, square % 8)
        board.cursor = parse_square("a1")  # nothing drawn over the marker
        await pilot.pause()
        rows = [board.render_line(y + dy).text[x : x + cell[0]] for dy in range(cell[1])]
        marked = sum(1 for row in rows for char in row if char.strip())
        assert marked >= 3, rows  # not one dot lost in the square


def analysed(game, plies: int):
    """An analysis of the first `plies` moves of `game` with one move of each
    label (and the rest the best), exact from the fifth move on."""
    from tui_reversi.core import Color, Move
    from tui_reversi.players.analysis import GameAnalysis, MoveAnalysis

    losses = {2: 2.5, 3: 5.0, 4: 10.0}  # an inaccuracy, a mistake, a blunder
    moves = []
    for ply in range(1, plies + 1):
        side = Color.BLACK if ply % 2 else Color.WHITE
        loss = losses.get(ply, 0.0)
        move = game.move_at(ply - 1)
        best = Move.parse("a1") if loss else move
        score = 4.0 - ply
        moves.append(MoveAnalysis(ply, side, move, score - loss, best, score, exact=ply >= 5))
    return GameAnalysis(tuple(moves))


@pytest.mark.parametrize("theme", [theme.name for theme in THEMES])
async def test_the_analysis_draws_at_3_to_1_or_better(make_app, theme):
    problems: list[str] = []
    app = make_app(theme=theme, transcript="f5d6c3d3c4f4", white="human")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        screen.analysis.known = analysed(app.match.game, 3)  # the progress bar shows
        await pilot.press("comma", "comma", "comma")
        await pilot.pause()
        problems += low_contrast(app, "analysing, review")
        screen.analysis.known = analysed(app.match.game, 6)
        await pilot.press("full_stop")  # reviewing the blunder
        await pilot.pause()
        problems += low_contrast(app, "analysed: figures, marks, the graph beside the board")
        await pilot.press("u")  # two moves undone, figures and marks on them
        await pilot.press("escape", "u", "u")
        await pilot.pause()
        problems += low_contrast(app, "analysed, undone")
        await pilot.press("comma", "g")
        await pilot.pause()
        problems += low_contrast(app, "the graph's own screen")
    assert not problems, "\n".join(problems)
