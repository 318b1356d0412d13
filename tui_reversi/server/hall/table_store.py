"""The tables as the server's `Store` (store.py: the archive's SQLite, or a
fleet's PostgreSQL) keeps them.

Every game with both seats taken is kept after each change, finished games
are recorded with their result, and after a restart the kept games come back
adjourned, their clocks as they were. The ratings it keeps are put in words
here too, for the tables and both lobbies: each name's rating as shown (read
for many names at once) and how a rated game moved them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...core import Color, Ending
from ...net.remote import is_guest, shown_name
from ...net.server_line import line
from ...storage import StorageError
from ..ledger.ratings import Rating
from ..ledger.store import PlayedGame, Store, UnfinishedGame
from ..ledger.table_phase import Phase
from .table import Table


def unfinished(table: Table) -> UnfinishedGame:
    """`table` (both seats taken, not over) as the store keeps it."""
    left = (0.0, 0.0)
    if table.time_control is not None:  # a running clock as of its last start
        left = (table.remaining[Color.BLACK], table.remaining[Color.WHITE])
    names = (table.name(Color.BLACK), table.name(Color.WHITE))
    return UnfinishedGame(
        table.code,
        table.game.copy(),
        names,
        table.time_control,
        left,
        table.started,
        table.adjourned,
    )


def brought_back(kept: UnfinishedGame) -> Table:
    """A game kept from before a restart: adjourned, its clocks as they were."""
    names = dict(zip(Color, kept.names, strict=True))
    clock, adjourned = kept.time_control, Phase.ADJOURNED
    table = Table(kept.code, kept.game.variant, names, time_control=clock, opens_as=adjourned)
    table.game, table.started = kept.game.copy(), kept.started
    if kept.time_control is not None:
        table.remaining = dict(zip(Color, kept.left, strict=True))
    return table


def played(table: Table, end: Ending) -> PlayedGame:
    """`table`'s game, over, as the store records it."""
    names = (table.name(Color.BLACK), table.name(Color.WHITE))
    return PlayedGame(table.code, table.game.copy(), names, table.started, end, table.rated)


def rating_changes(before: dict[str, Rating], after: dict[str, Rating]) -> str:
    """'alice 1741? (+241), bob 1259? (-241)': how a rated game moved each player's
    rating (as Rating.shown writes it), from their ratings before and after it; ''
    if it was not rated."""
    if all(after[name].games == before[name].games for name in after):
        return ""  # (no rated game was added: a guest's, or no result)
    return ", ".join(
        f"{name} {rating.shown} ({rating.rating - before[name].rating:+.0f})"
        for name, rating in after.items()
    )


async def named_ratings(
    store: Store, names: Iterable[str], *, log: Callable[[str], None] | None = None
) -> dict[str, str]:
    """Each name's rating as shown ('1642', '1500?' while provisional), in the order
    given and read in one store call; '' for a guest (unrated), and for everyone on a
    server whose store cannot say now (who is where is still shown; `log`, if given,
    is told why)."""
    names = list(dict.fromkeys(names))
    return shown_ratings(names, await read_ratings(store, names, log=log))


async def read_ratings(
    store: Store, names: Iterable[str], *, log: Callable[[str], None] | None = None
) -> dict[str, Rating]:
    """The rating of each of `names` but guests, read in one store
    call; {} when the store cannot say now (`log`, if given, is told why)."""
    rated = [name for name in dict.fromkeys(names) if not is_guest(name)]
    try:
        return await store.ratings(rated) if rated else {}
    except StorageError as error:
        if log is not None:
            log(f"the ratings cannot be read: {error}")
        return {}


def shown_ratings(names: Iterable[str], read: dict[str, Rating]) -> dict[str, str]:
    """named_ratings' answer from what read_ratings read: '' where it read nothing."""
    return {name: read[name].shown if name in read else "" for name in names}


async def last_game_lines(archive: Store, name: str) -> list[str]:
    """'Your last game, against bob (id 12), moved your rating +16.', if it was rated:
    both lobbies say it so (`ssh host lobby` and the app's). Raises StorageError."""
    profile = await archive.profile(name, 1)
    last = profile.games[0] if profile is not None and profile.games else None
    change = last.change_for(name) if last is not None else None
    if last is None or change is None:
        return []
    opponent = last.names[last.color_of(name).other]
    return [f"Your last game, against {opponent} (id {last.id}), moved your rating {change:+.0f}."]


def rated_lines(rated: dict[str, str]) -> list[bytes]:
    """`rated NAME RATING` for each name with a rating in `rated` (as named_ratings
    gives them: a guest's is '', for guests play unrated)."""
    return [line("rated", shown_name(name), rating) for name, rating in rated.items() if rating]
