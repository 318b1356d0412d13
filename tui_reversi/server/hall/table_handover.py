"""A fleet node that drains hands its tables to the other nodes at once, rather
than leave them to be taken over once it has gone.

Each table not over goes to the node a player at it plays from (that player
plays on there at once, as after a take-over), else to another node in turn:
the store keeps its game as that node's (one statement, fenced to this node),
and the `Handed` message carries the game there (fleet_port.py), which brings it
back and seats its own players at it. Meanwhile its clock is stopped and its
moves wait (adjourned); one the store will not hand plays on here as it was.
This node's players at it go on through the relay until the drain is over,
told in one sentence to connect again then (they land on another node, back
at their seat). A node alone, or whose fleet is out of reach, hands nothing:
its games adjourn when it stops, as before.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ...net.server_line import line
from ...storage import StorageError
from ..config import format_duration
from ..ledger.store import Store, UnfinishedGame
from ..ledger.table_phase import Phase
from .fleet_port import Fleet
from .fleet_relay import RelayTransport
from .table_store import unfinished
from .tables import Tables

# What the players at a table handed over read: on this node (their games go on
# through it until it stops), on another (the table comes to theirs).
HERE = (
    "This node of the server is going down for a restart: table {code} moves to another "
    "node now, every move in it, and you play on there through this one until it stops "
    "in {within}; then connect again to sit back down at it."
)
THERE = (
    "Table {code}'s node of the server is going down for a restart: the table moves to "
    "the node you play through now, every move in it, and the game goes on."
)
# What this node's players at tables on other nodes read.
ELSEWHERE = (
    "This node of the server is going down for a restart: you play on through it until "
    "it stops in {within}; then connect again to sit back down at your table."
)


async def hand_tables_over(
    tables: Tables, fleet: Fleet, store: Store, seconds: float, log: Callable[[str], None]
) -> int:
    """Hand every table here with a game not over to another node of the fleet,
    telling everyone at it and this node's players at tables elsewhere that this
    node stops in `seconds`; how many tables were handed (0 with no other node)."""
    nodes = fleet.others_alive()
    if not nodes:
        return 0
    within = format_duration(seconds)
    fleet.tell_playing(line("news", ELSEWHERE.format(within=within)))
    handed = 0
    for code in list(tables.tables):
        kept = _handing(tables, code)
        if kept is None:
            continue
        was_adjourned = kept.adjourned
        hosted = fleet.hosted_from()
        at_table = tables.secrets_at(code)
        from_nodes = {secret: hosted[secret] for secret in at_table if secret in hosted}
        players = [tables.seat_of(secret) for secret in from_nodes]
        playing_from = [
            from_nodes[secret]
            for secret, seat in zip(from_nodes, players, strict=True)
            if seat is not None and seat.color is not None
        ]
        node = (playing_from or [nodes[handed % len(nodes)]])[0]
        kept = dataclasses.replace(kept, adjourned=True)  # (brought back so, there)
        try:
            ours = await store.hand_table(kept, node)
        except StorageError as error:
            log(f"table {code} cannot be handed to node {node}: {error}")
            ours = False
        if not ours:
            _not_handed(tables, code, was_adjourned)
            continue
        table = tables.tables.get(code)
        if table is not None:
            for writer in [*table.links.values(), *table.spectators]:
                said = THERE if isinstance(writer.transport, RelayTransport) else HERE
                writer.write(line("news", said.format(code=code, within=within)))
        fleet.hand(node, kept, from_nodes)
        tables.handed_away(code, node, from_nodes)
        handed += 1
    return handed


def _handing(tables: Tables, code: str) -> UnfinishedGame | None:
    """Table `code`'s game as it is handed to another node, its clock stopped and
    its moves refused (adjourned) until it sits there; None if it has none to hand
    (a seat free, or over)."""
    table = tables.tables.get(code)
    if table is None or table.phase in (Phase.OPEN, Phase.ENDED):
        return None
    tables.clocks.stop(table)
    kept = unfinished(table)
    if table.phase is not Phase.ADJOURNED:
        table.move_to(Phase.ADJOURNED)  # (moves wait: it resumes there)
    return kept


def _not_handed(tables: Tables, code: str, adjourned: bool) -> None:
    """Table `code` could not be handed over: it plays on here as it was
    (`adjourned` or not: playing, or held while a dropped seat waits)."""
    table = tables.tables.get(code)
    if table is None or table.phase is not Phase.ADJOURNED or adjourned:
        return
    table.move_to(Phase.PLAYING)
    if table.held:
        table.move_to(Phase.HELD)  # (its dropped seats' timers still run)
    tables.clocks.run(table)
