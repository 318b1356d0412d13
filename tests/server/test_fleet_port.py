"""The fleet's port (hall/fleet_port.py) hands each message to the handlers of
its kind: a kind nobody here handles is one line in the log, never raised, and
only this node's own store says whether this node is in the fleet."""

from __future__ import annotations

from tui_reversi.server.hall.fleet_port import Fleet
from tui_reversi.server.hall.tables import Tables
from tui_reversi.server.ledger.archive import Archive
from tui_reversi.server.ledger.fleet_messages import Down, Gone, Heard, LobbyLine, Rejoined


async def test_each_kind_goes_to_its_handlers_and_one_without_any_is_said_once(tmp_path):
    store = Archive(tmp_path / "archive.sqlite3", tmp_path / "players")
    lines: list[str] = []
    fleet = Fleet(store, people=list, log=lines.append)
    Tables(lines.append, store, fleet)  # (this node's tables: they give themselves to it)
    await fleet.start()  # (a fleet of one: nothing to look at)
    gone: list[tuple[str, str]] = []
    fleet.handle(Gone, lambda node, message: gone.append((node, message.name)))
    fleet.handle(Gone, lambda node, message: gone.append((node, message.name.upper())))
    fleet.heard(Heard("b", Gone("alice")))
    assert gone == [("b", "alice"), ("b", "ALICE")]
    fleet.heard(Heard("b", LobbyLine("alice", b"invited 1 bob")))
    assert lines == ["a guest message from node b has no handler here: dropped"]
    # Another node cannot say this one is down, or back.
    changed: list[str] = []
    fleet.watch(lambda: changed.append("changed"))
    fleet.heard(Heard("b", Down()))
    assert not fleet.down and not changed
    assert lines[-1] == "a down message from node b: only this node says that"
    fleet.heard(Heard(store.node, Down()))
    assert fleet.down and changed == ["changed"]
    fleet.heard(Heard(store.node, Rejoined()))
    assert not fleet.down
    await fleet.close()
    await store.close()
