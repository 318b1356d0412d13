"""`ssh host mod rename OLD NEW [WHY]`: an admin changes a player's name.

Everything the store keeps under OLD becomes NEW's in one transaction
(ledger/renames.py: keys, browsers, ratings, games, records, blocks, bans,
reports, roles, notices, tournaments), the moderation log gains a row that
names both (its old rows stay as written; `mod log NEW` reads OLD's too), and
OLD stays reserved. Every node then ends OLD's sessions, telling them their
new name, and moves OLD's folder (edge/rename_door.py). NEW is held to the
rules of a new player's name (ledger/names.py), and must be nobody's and look
like nobody's; a name at a table is renamed once its game has ended.
"""

from __future__ import annotations

from ..ledger.moderation import LogEntry
from ..ledger.renames import Rename, RenameRefused
from .asker import Asker
from .safety import Refused, plain

# How long the reason given may be (as the other acts' reasons).
WHY_LENGTH = 200


async def rename(asker: Asker, now: float, words: list[str]) -> list[str]:
    """Rename `words[0]` to `words[1]` for the admin `asker` (see the module); the
    lines said. Raises Refused."""
    if len(words) < 2:
        raise Refused(f"say: {asker.ssh(terminal=False)} mod rename OLD NEW [WHY]", 2)
    server = asker.server
    old, new = words[0], words[1]
    why = plain(" ".join(words[2:]), WHY_LENGTH) or "no reason given"
    if server.config.auth == "keys":
        raise Refused(
            "names here are the authorized-keys file's (--auth keys): rename the name there."
        )
    if old == asker.player:
        raise Refused("you cannot rename yourself: ask another admin.")
    given = server.moderation.given
    if old in given:
        raise Refused(
            f"{old}'s role is the command line's (--moderators): take it out there first."
        )
    if new in given:
        raise Refused(
            f"{new} is a moderator by the command line (--moderators): choose another name."
        )
    for view in server.tables.views(everywhere=True):
        if old in (view.black, view.white):
            raise Refused(f"{old} is at table {view.code}; try again when the game ends.")
    entry = LogEntry(0, now, asker.player, "rename", old, f"to {new}: {why}", None)
    try:
        await server.store.rename_player(Rename(0, old, new, asker.player, now), entry)
    except RenameRefused as refusal:
        raise Refused(str(refusal)) from None
    await server.store.leave_notice(
        new, f"this server's admins renamed you from {old} to {new} ({why}).", now
    )
    await server.moderation.read()  # (their sessions here end now; on other nodes within a poll)
    return [
        f"tui-reversi: {old} is {new} now ({why}): their keys, ratings, games and records "
        f"are {new}'s, and nobody may take the name {old}."
    ]
