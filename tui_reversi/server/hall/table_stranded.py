"""A game stranded: it sat at a table on another node, and the line there is
lost (that node went, or this node's database). The game is not over: its
player stays at the board, told what happened, the clocks stopped, until the
table is found again (taken over here, or on a node of the fleet) and the game
sits back down at it with no command typed (tables.py: `found_again`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from ...core import Ending
from ...net.server_line import line
from .table import Seat

# How often a stranded game looks for its table (seconds), and for how long while the
# fleet can be asked (a table nowhere after that ended, or closed with its node).
LOOK_AGAIN = 1.0
GIVE_UP = 30.0


async def stranded(
    seat: Seat,
    why: str,
    found_again: Callable[[], Awaitable[bool]],
    down: Callable[[], bool],
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
) -> str | None:
    """Keep the game at `seat` waiting (told `why` the line went: 'the server lost its
    database') until found_again() seats it again: the `adjourned` sentence it was
    told, to tell again once it sits down; None if its player left or its table is
    nowhere to be found."""
    table, color = seat.table, seat.color
    waits = "both players are back" if color is None else f"{table.name(color.other)} is back"
    if down():
        waits = "the database is back"
    told = f"{why}: the game is adjourned, clocks stopped, until {waits}."
    writer.write(line("adjourned", told))
    loop = asyncio.get_running_loop()
    looked = 0.0  # seconds spent looking while the fleet could be asked
    while not await found_again():
        started = loop.time()
        try:
            data = await asyncio.wait_for(reader.readline(), LOOK_AGAIN)
        except TimeoutError:
            data = None
        command = data.strip().partition(b" ")[0] if data is not None else None
        if data == b"" or command == b"leave":
            return None  # (the player went: the game waits where it is kept)
        if command is not None and command != b"begun":
            writer.write(line("refused", f"the game is adjourned until {waits}."))
        looked += 0.0 if down() else loop.time() - started
        if looked >= GIVE_UP:
            text = f"Table {table.code} is kept nowhere now: it ended, or closed with its node."
            table.end(Ending("left", None, text))
            writer.write(line("news", text))
            return None
    return told
