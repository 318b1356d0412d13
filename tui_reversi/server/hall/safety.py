"""What a player does about someone else, as the commands (safety_commands.py)
and the app's lobby (lobby_host.py) both do it: block a name (no invitation,
chat or pairing between the two, either way; up to MOST_BLOCKS names), file a
report (a fixed list of reasons; the report keeps the latest game of the two
and a copy of their table's chat, and the reporter is told when a moderator
acts on it), and take the notices waiting for a player. Whatever was typed is
kept and echoed after its control characters are dropped, never as it came.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from ...core import ReversiError
from ...net.remote import is_guest
from ...storage import StorageError
from ..ledger.moderation import MOST_BLOCKS, REPORT_REASONS, Report
from ..ledger.store import Store
from .moderation_watch import Moderation
from .table import Table

# How long a report's own words may be, a notice, and a name as typed.
REPORT_WORDS = 300
NOTICE_LENGTH = 300
NAME_TYPED = 40

Lines = tuple[list[str], int]
Asking = TypeVar("Asking")


class Refused(ReversiError):
    """A command refused, in one sentence, and its exit status."""

    def __init__(self, sentence: str, status: int = 1) -> None:
        super().__init__(sentence)
        self.status = status


def answering(
    work: Callable[[Asking, list[str]], Awaitable[list[str]]],
) -> Callable[[Asking, list[str]], Awaitable[Lines]]:
    """`work`'s lines and status 0; a refusal (or a store that fails) in one line."""

    async def answer(asker: Asking, words: list[str]) -> Lines:
        try:
            return await work(asker, words), 0
        except Refused as refusal:
            return [f"tui-reversi: {refusal}"], refusal.status
        except StorageError as error:
            return [f"tui-reversi: the server cannot answer that now: {error}"], 1

    return answer


def plain(text: str, most: int) -> str:
    """`text` without control characters, cut to `most`: safe to print and to keep."""
    return "".join(ch for ch in text if ch.isprintable())[:most]


def kept_for(store: Store, player: str) -> Store:
    """The store, for `player`, a name kept in it (not a guest's). Raises Refused."""
    if is_guest(player):
        raise Refused("a guest's name is not kept: connect with your key for that.")
    return store


async def known(store: Store, name: str) -> str:
    """`name`, if someone has it here. Raises Refused (for a name renamed away too:
    a block, report or sanction of it would reach nobody)."""
    if not await store.known_name(name):
        raise Refused(f"nobody called {name[:NAME_TYPED]!r} has been here.")
    if await store.renamed_away(name):
        raise Refused(f"{name} was renamed: nobody has that name now.")
    return name


async def between(store: Store, player: str, name: str) -> Store:
    """The store, for `player` (a name kept there) to act on `name` (someone else who
    has been here). Raises Refused."""
    store = kept_for(store, player)
    if name == player:
        raise Refused("that is your own name.")
    await known(store, name)
    return store


async def block_name(store: Store, moderation: Moderation, player: str, name: str) -> str:
    """`player` blocks `name` (kept, and known here at once): what they are told.
    Raises Refused, or StorageError."""
    store = await between(store, player, name)
    new = await store.block(player, name, moderation.now())
    if new is None:
        raise Refused(f"you block {MOST_BLOCKS} names already; unblock one first.")
    moderation.blocked(player, name, blocks=True)
    if not new:
        return f"you block {name} already."
    return f"you block {name}: no invitation, chat or pairing between you."


async def unblock_name(store: Store, moderation: Moderation, player: str, name: str) -> str:
    """`player` unblocks `name` (kept, and known here at once): what they are told.
    Raises Refused (not blocked), or StorageError."""
    if not await kept_for(store, player).unblock(player, name):
        raise Refused(f"you do not block {name[:NAME_TYPED]!r}.")
    moderation.blocked(player, name, blocks=False)
    return f"you no longer block {name}."


async def file_report(
    store: Store,
    tables: Iterable[Table],
    moderation: Moderation,
    reporter: str,
    name: str,
    words: list[str],
) -> str:
    """`reporter` reports `name` for `words` (a reason, then what they add), with
    their latest game and the chat of the latest of `tables` where both sat (the
    tables here): what they are told. Raises
    Refused, or StorageError."""
    reason = words[0].lower() if words else ""
    if reason not in REPORT_REASONS:
        raise Refused(
            f"{reason[:20]!r} is not a reason to report; say one of {', '.join(REPORT_REASONS)}.",
            2,
        )
    store = await between(store, reporter, name)
    game = await latest_game(store, reporter, name)
    filed = await open_report(store, reporter, name, reason, game)
    if filed is not None:  # (one is enough: the same again, a hundred times, buries the rest)
        raise Refused(
            f"your report {filed} on {name} ({reason}) is open already; "
            "you will be told when a moderator acts on it."
        )
    said = plain(" ".join(words[1:]), REPORT_WORDS)
    chat = table_chat(tables, reporter, name)
    number = await store.file_report(
        Report(0, reporter, name, reason, said, game, chat, moderation.now())
    )
    about = f" about game {game}" if game is not None else ""
    return (
        f"report {number} on {name} ({reason}){about} is filed; "
        "you will be told when a moderator acts on it."
    )


async def open_report(
    store: Store, reporter: str, name: str, reason: str, game: int | None
) -> int | None:
    """The number of `reporter`'s open report on `name` for `reason` about `game`
    (their latest: a game since is another report), if there is one."""
    same_game = "game IS NULL" if game is None else "game = ?"
    rows = await store.run_query(
        "SELECT min(id) FROM reports WHERE reporter = ? AND name = ? AND reason = ?"
        f" AND {same_game} AND closed IS NULL",
        (reporter, name, reason) + (() if game is None else (game,)),
    )
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


async def latest_game(store: Store, one: str, other: str) -> int | None:
    """The id of the latest archived game between the two, if any."""
    rows = await store.run_query(
        "SELECT max(id) FROM games WHERE (black = ? AND white = ?) OR (black = ? AND white = ?)",
        (one, other, other, one),
    )
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def table_chat(tables: Iterable[Table], one: str, other: str) -> tuple[str, ...]:
    """The chat of the latest of `tables` where both sat, as it is now."""
    shared = [t for t in tables if {one, other} <= set(t.names.values())]
    if not shared:
        return ()
    return tuple(_chat_line(said) for said in shared[-1].chat)


def _chat_line(said: bytes) -> str:
    """A `said NAME TEXT` line of a table as 'NAME: TEXT'."""
    text = said.decode("utf-8", "replace").strip()
    _, _, rest = text.partition(" ")
    who, _, words = rest.partition(" ")
    return plain(f"{who}: {words}", 200)


async def take_notices(store: Store, name: str) -> list[str]:
    """`name`'s notices (a report acted on, a refund), taken: told once, each a
    sentence; none while the store cannot say (they wait for the next time)."""
    if is_guest(name):
        return []
    try:
        notices = await store.take_notices(name)
    except StorageError:
        return []
    return [plain(text, NOTICE_LENGTH) for text in notices]
