"""`ssh host block NAME`, `unblock NAME`, `blocks`, and `report NAME REASON
[words]`: commands.py's rows, each answering plain lines for an `Asker`; the
acts themselves are safety.py's (the app's lobby does them too).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..ledger.moderation import MOST_BLOCKS, REPORT_REASONS
from ..ledger.store import Store
from .asker import Asker
from .moderation_watch import Moderation
from .safety import (
    Refused,
    answering,
    block_name,
    file_report,
    kept_for,
    unblock_name,
)


def kept_by(member: Asker) -> Store:
    """The store, for the asker's name kept in it. Raises Refused."""
    return kept_for(member.server.store, member.player)


def one_name(member: Asker, words: list[str], command: str) -> str:
    """The one name after `command`, not the asker's own. Raises Refused."""
    if len(words) != 1:
        raise Refused(f"{command} takes one name: {member.ssh(terminal=False)} {command} NAME", 2)
    if words[0] == member.player:
        raise Refused("that is your own name.")
    return words[0]


@answering
async def block(member: Asker, words: list[str]) -> list[str]:
    """`block NAME`."""
    return await _change_block(member, words, "block", block_name)


@answering
async def unblock(member: Asker, words: list[str]) -> list[str]:
    """`unblock NAME`."""
    return await _change_block(member, words, "unblock", unblock_name)


async def _change_block(
    member: Asker,
    words: list[str],
    command: str,
    change: Callable[[Store, Moderation, str, str], Awaitable[str]],
) -> list[str]:
    """`block NAME` or `unblock NAME` by `change` (safety.py's, also the lobby's)."""
    name = one_name(member, words, command)
    server = member.server
    return [f"tui-reversi: {await change(server.store, server.moderation, member.player, name)}"]


@answering
async def blocks(member: Asker, words: list[str]) -> list[str]:
    """`blocks`: the names the asker blocks."""
    if words:
        raise Refused(f"blocks takes nothing after it: {member.ssh(terminal=False)} blocks", 2)
    names = await kept_by(member).blocks_of(member.player)
    if not names:
        return ["tui-reversi: you block nobody."]
    return [
        f"tui-reversi: you block {len(names)} of at most {MOST_BLOCKS}:",
        *(f"  {n}" for n in names),
    ]


REPORT_USAGE = f"report NAME REASON [words], a reason of {', '.join(REPORT_REASONS)}"


@answering
async def report(member: Asker, words: list[str]) -> list[str]:
    """`report NAME REASON [words]`."""
    if len(words) < 2:
        raise Refused(f"{REPORT_USAGE}: {member.ssh(terminal=False)} report NAME abuse", 2)
    name = one_name(member, words[:1], "report")
    server = member.server
    said = await file_report(
        server.store,
        server.tables.tables.values(),
        server.moderation,
        member.player,
        name,
        words[1:],
    )
    return [f"tui-reversi: {said}"]
