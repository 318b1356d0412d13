"""A table as the lobby shows it, on this node or another: what a node shares
of its tables (store.py) and what a message between nodes carries of one
(fleet_messages.py)."""

from __future__ import annotations

from dataclasses import dataclass

from .table_phase import Phase


@dataclass(frozen=True, slots=True)
class TableView:
    """A table as the lobby shows it, on this node or another."""

    code: str
    phase: Phase  # as listed (table_phase.py): open, playing or adjourned
    black: str  # '' for a free seat
    white: str
    variant: str
    clock: str  # '5+3', or '' without a clock
    move: int  # the number of the move to be played next
    node: str  # the node the table is at
    # Players whose seat waits for them (dropped, or an adjourned game's other
    # player is back at it): a player coming back to any node goes there.
    waiting_for: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # (read from another node, the phase is its word: one it does not know raises)
        object.__setattr__(self, "phase", Phase(self.phase))
