"""A table opened for one colour: its host sits there and whoever joins takes the other."""

from tui_reversi.core import Color
from tui_reversi.server.hall.tables import Tables


async def test_a_table_opened_as_white_seats_its_host_at_white_and_the_joiner_at_black():
    log: list[str] = []
    tables = Tables(log.append)
    table, host_secret = tables.open("alice", colour=Color.WHITE)
    _, joiner_secret = await tables.join(table.code, "bob")
    assert table.names == {Color.WHITE: "alice", Color.BLACK: "bob"}
    host, joiner = tables.seat_of(host_secret), tables.seat_of(joiner_secret)
    assert host is not None and joiner is not None
    assert (host.color, joiner.color) == (Color.WHITE, Color.BLACK)
    assert f"table {table.code} opened by alice as White (othello)" in log


async def test_a_table_opened_without_a_colour_seats_its_host_at_black():
    tables = Tables(lambda _: None)
    table, _ = tables.open("alice")
    await tables.join(table.code, "bob")
    assert table.names == {Color.BLACK: "alice", Color.WHITE: "bob"}
