"""Hypothesis strategies for saved games: random legal games and their records."""

from dataclasses import replace

from hypothesis import strategies as st

from tui_reversi.core import Game, Variant
from tui_reversi.players.kinds import NAMES
from tui_reversi.storage import SavedGame


@st.composite
def played_games(draw, variants=tuple(Variant), custom_start=True):
    """A core Game of a random variant played by random legal moves to a
    random length (sometimes to the end), sometimes from a custom start
    position, with the cursor sometimes moved back as after an undo."""
    variant = draw(st.sampled_from(variants))
    rnd = draw(st.randoms(use_true_random=False))
    start = None
    if custom_start and draw(st.booleans()):
        # A position reached by random play, possibly with White to move.
        lead_in = Game(variant)
        for _ in range(draw(st.integers(0, 20))):
            if lead_in.is_over:
                break
            lead_in.play(rnd.choice(lead_in.position.legal_moves()))
        start = lead_in.position
    game = Game(variant, start)
    stop = draw(st.integers(0, 70))
    while game.length < stop and not game.is_over:
        game.play(rnd.choice(game.position.legal_moves()))
    if game.length and draw(st.booleans()):
        game.go_to(draw(st.integers(0, game.length)))
    return game


@st.composite
def records(draw, **kwargs):
    """A SavedGame of a played_games() game between random players."""
    game = draw(played_games(**kwargs))
    black, white = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES))
    name = draw(st.none() | st.text(max_size=30))
    return SavedGame.from_game(game, black, white, name=name)


@st.composite
def imported_records(draw):
    """A records() game as GGS would have it: named players (or one), their
    ratings, a time control, a date as written and the seconds per move."""
    record = draw(records())
    name = st.text("abcXYZ019_-", min_size=1, max_size=12)
    names = draw(st.tuples(name, name | st.just("")))
    rating = st.floats(0, 3000).map(lambda r: f"{r:.2f}")
    seconds = st.floats(0, 999).map(lambda s: f"{s:.2f}") | st.just("")
    times = draw(st.lists(seconds, max_size=len(record.moves)))
    while times and not times[-1]:
        times.pop()
    return replace(
        record.with_players("human", "human"),
        names=names,
        ratings=draw(st.tuples(rating, rating)),
        time_control=draw(st.sampled_from(["05:00//02:00", "15:00", "1:00:00/0/0"])),
        date=draw(st.sampled_from(["2003.12.15_13:24:03.MST", "2019-09-25 06:42:54 GMT"])),
        times=tuple(times),
    )


def same_game(a: Game, b: Game) -> bool:
    """Same variant, start, moves (passes included) and cursor."""
    return (a.variant, a.start, a.moves, a.ply) == (b.variant, b.start, b.moves, b.ply)


__all__ = ["imported_records", "played_games", "records", "same_game"]
