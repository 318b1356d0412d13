"""Taking a game over from a session on another node of the fleet ("take it over
here", ssh_session.py): the new session asks the node its game is on
(fleet_port.py: `Take`), and that node ends the old session. A game at a table: that node hands
the seat over, and the new session sits down at the table through the relay, as
a join from another node does. The player's own game (against the computer, or
their lobby screen): that node sends its autosave, taken out of the player's
folder there, and the new session's node puts it in the player's folder here
and resumes it; a node's players' folders need not be shared.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...storage import Autosave, SavedGame, StorageError
from ...storage.paths import APP_NAME
from .fleet_port import Fleet
from .tables import Tables


@dataclass(eq=False)
class GameElsewhere:
    """The player's game at table `code` on `node`, another node of the fleet, as the
    lobby's shares say, or their own game there (`code` None): a session there plays it."""

    node: str
    code: str | None
    started: float = field(default_factory=time.monotonic)
    client_connected: bool = True
    task: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        where = "on another node of the server"
        return f"{where}, at table {self.code}" if self.code else where


def game_on_other_node(
    fleet: Fleet, name: str, known: GameElsewhere | None
) -> GameElsewhere | None:
    """`name`'s game in a session on another node of the fleet, as the lobby's
    shares say: a seat at a table first (its session's own game goes with it),
    else their own game there; `known` again if it is the same game."""
    people = [person for person in fleet.others[0] if person.name == name]
    people.sort(key=lambda person: person.state not in ("playing", "waiting"))
    for person in people:
        if person.state in ("playing", "waiting", "free"):  # free: on their own there
            code = person.code if person.state != "free" else None
            if known is None or (known.node, known.code) != (person.node, code):
                return GameElsewhere(person.node, code)
            return known
    return None


async def take_game_from(
    fleet: Fleet,
    tables: Tables,
    players_dir: Path,
    other: GameElsewhere,
    name: str,
    address: str,
) -> tuple[str | None, str | None]:
    """Take `name`'s game over from their session on another node (for a session
    from `address`): the new secret of their seat at a table there, or None for
    their own game (put in their folder here, to be resumed) or a game gone
    meanwhile; and a sentence for the player, if there is one."""
    given = await fleet.take_overs.take_from(other.node, name, address)
    if given is None:
        return None, "that game is not there any more; starting yours here."
    if isinstance(given, bytes):
        return None, take_own_game_in(players_dir, name, given)
    secret, view = given
    return tables.seat_from(other.node, secret, view, name), None


def take_own_game_in(players_dir: Path, name: str, data: bytes) -> str | None:
    """Put `name`'s own game taken over from another node (its autosave's bytes)
    into their folder here as the autosave, the game there before kept as the
    previous one; why not, in one sentence, if it could not be."""
    if not data:
        return None
    autosave = player_autosave(players_dir, name)
    try:
        return autosave.save(SavedGame.from_json(data, "the game taken over"))
    except StorageError as error:
        return str(error)
    finally:
        autosave.release()


def player_autosave(players_dir: Path, name: str) -> Autosave:
    """The autosave of player `name` (their folder's name) as their games keep it."""
    return Autosave(players_dir / name / "data" / APP_NAME)  # (XDG_DATA_HOME there)
