"""A table opened for one colour: its host sits there and whoever joins takes the other."""

from tui_reversi.core import Color
from tui_reversi.server.hall.fleet_port import Fleet
from tui_reversi.server.hall.tables import Tables
from tui_reversi.server.ledger.archive import Archive


def alone(tmp_path, log) -> Tables:
    """A server alone's tables: a SQLite store, a fleet of one."""
    store = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    return Tables(log, store, Fleet(store, people=list, log=log))


async def closed(tables: Tables) -> None:
    """The tables closed (their writes done), then their store."""
    await tables.close()
    await tables.store.close()


async def test_a_table_opened_as_white_seats_its_host_at_white_and_the_joiner_at_black(tmp_path):
    log: list[str] = []
    tables = alone(tmp_path, log.append)
    table, host_secret = tables.open("alice", colour=Color.WHITE)
    _, joiner_secret = await tables.join(table.code, "bob")
    assert table.names == {Color.WHITE: "alice", Color.BLACK: "bob"}
    host, joiner = tables.seat_of(host_secret), tables.seat_of(joiner_secret)
    assert host is not None and joiner is not None
    assert (host.color, joiner.color) == (Color.WHITE, Color.BLACK)
    assert f"table {table.code} opened by alice as White (othello)" in log
    await closed(tables)


async def test_a_table_opened_without_a_colour_seats_its_host_at_black(tmp_path):
    tables = alone(tmp_path, lambda _: None)
    table, _ = tables.open("alice")
    await tables.join(table.code, "bob")
    assert table.names == {Color.BLACK: "alice", Color.WHITE: "bob"}
    await closed(tables)
