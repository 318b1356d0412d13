"""The penalties of guessing a secret, as the store keeps them: per subject
(an address, a name, a key, or the whole server), how many wrong guesses it
made lately and when it may guess next. The rules that fill them in are the
edge's (edge/guessing.py); the ledger only keeps them, one node at a time.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

# (scope, who): ('address', '192.0.2.1'), ('name', 'alice'), ('total', ''),
# ('code-key', 'ssh-ed25519 AAAA...'), ('code-address', '192.0.2.1').
Subject = tuple[str, str]
T = TypeVar("T")


@dataclass
class Penalty:
    """One subject's wrong guesses and when it may guess next (Unix time)."""

    failures: int = 0
    last_failure: float = 0.0
    next_try: float = 0.0

    def idle(self, now: float) -> bool:
        """Nothing left to keep: no failure remembered and no turn reserved."""
        return self.failures == 0 and self.next_try <= now


class PenaltyLedger(Protocol):
    """Where penalties are kept: the store (archive.py's SQLite, postgres.py's)."""

    async def change_penalties(
        self, subjects: Sequence[Subject], change: Callable[[dict[Subject, Penalty]], T]
    ) -> T:
        """Read the subjects' penalties (a fresh Penalty for one not kept), let
        `change` alter them in place, keep them and return what `change` returned:
        one transaction, one node at a time. Raises StorageError."""


def forgiven(penalty: Penalty, now: float, after: float) -> Penalty:
    """`penalty` with its failures forgotten if the last is older than `after`."""
    if penalty.failures and now - penalty.last_failure > after:
        penalty.failures = 0
    return penalty


async def change_kept(
    subjects: Sequence[Subject],
    change: Callable[[dict[Subject, Penalty]], T],
    read: Callable[[Subject], Awaitable[Sequence[Any] | None]],
    write: Callable[[Subject, Penalty | None], Awaitable[None]],
) -> T:
    """One change of penalties as a backend makes it, inside its own transaction:
    each subject's row (failures, last_failure, next_try) by `read`, altered by
    `change`, then written back by `write` (None: nothing left to keep)."""
    held = {subject: _penalty(await read(subject)) for subject in subjects}
    answer = change(held)
    now = time.time()
    for subject, penalty in held.items():
        await write(subject, None if penalty.idle(now) else penalty)
    return answer


def _penalty(row: Sequence[Any] | None) -> Penalty:
    return Penalty() if row is None else Penalty(int(row[0]), float(row[1]), float(row[2]))
