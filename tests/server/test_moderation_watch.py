"""A node's view of moderation (hall/moderation_watch.py) while its store is
away: what it read last holds, and the log says so once, not at every poll."""

from __future__ import annotations

from tui_reversi.server.hall.moderation_watch import Moderation
from tui_reversi.server.ledger.moderation import Sanction
from tui_reversi.storage import StorageError

from .conftest import wait_until

BAN = Sanction(1, "ban", "name", "bob", None, "abuse", "mia", 0.0)


class AwayAWhile:
    """A store that answers, then fails `failures` times, then answers again."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.asked = 0

    async def news(self) -> int:
        self.asked += 1
        if 1 < self.asked <= 1 + self.failures:
            raise StorageError("database on db.example: connection refused")
        return 1

    async def sanctions(self, now: float) -> list[Sanction]:
        return [BAN]

    async def named_roles(self) -> dict[str, str]:
        return {}

    async def blocks_among(self, names) -> list[tuple[str, str]]:
        return []

    async def renames_since(self, after: int) -> list:
        return []


async def test_a_store_away_keeps_what_was_read_and_is_said_once():
    lines: list[str] = []
    store = AwayAWhile(failures=4)
    moderation = Moderation(store, log=lines.append)  # type: ignore[arg-type]
    await moderation.start()
    try:
        await wait_until(lambda: store.asked > 6, "the store asked again after it failed")
        assert moderation.ban_of("bob", None, "") == BAN  # (held all along)
        assert [line.split(" (")[0] for line in lines] == [
            "moderation: the store cannot be read",
            "moderation: the store answers again",
        ]
    finally:
        await moderation.close()
