"""What guessing a secret costs: password guesses and tries at a key code,
counted against whoever guesses, and kept in the store, so that neither a
restart nor another node of a fleet forgets them.

Password guesses (`--auth password`) are compared one at a time per source
address and per name asked for, each after a wait that grows with that
address's (or name's) wrong guesses, and at most TOTAL_PER_SECOND a second
on the whole server (the whole fleet), however many addresses they come
from. A guess whose turn would come after QUEUE_LIMIT seconds is not
compared at all: the client is told the server has too many guesses to
answer and is disconnected. A guess is compared only once its turn has
come, so a guess the client cancels by sending the next is never compared.

Wrong tries at a key code (`keys add CODE`) count against the key that tries
and its address, never against the code: CODE_TRIES_PER_KEY wrong ones from a
key, or CODE_TRIES_PER_ADDRESS from an address, and it may try no more until
CODE_LIFETIME has passed since its last. A browser's tries at a `keys web`
code (the page's `?code=`) come with no key: they count against the address,
in the same count.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from ..ledger.account_keys import CODE_LIFETIME
from ..ledger.penalties import Penalty, PenaltyLedger, Subject, forgiven

# A subject's wrong guesses are forgotten after this long without another.
FORGIVE_AFTER = 600.0
# The wait before a guess doubles after every this many wrong ones, up to MAX_PENALTY_FACTOR.
FAILURES_PER_DOUBLING = 3
MAX_PENALTY_FACTOR = 64
# Password guesses compared a second, from everywhere; a turn further off is refused.
TOTAL_PER_SECOND = 4.0
QUEUE_LIMIT = 8.0
# Wrong tries at key codes before a key, or an address, may try no more for CODE_LIFETIME.
CODE_TRIES_PER_KEY = 3
CODE_TRIES_PER_ADDRESS = 10

T = TypeVar("T")

TOO_MANY_GUESSES = "the server has too many password guesses to answer now; try again in a minute."


class PasswordGuesses:
    """Password guesses per address, per name and in total (see the module's docstring)."""

    def __init__(self, delay: float, log: Callable[[str], None], ledger: PenaltyLedger) -> None:
        self._delay = delay
        self._log = log
        self.ledger = ledger  # (the store)

    async def wait_after(self, address: str) -> float:
        """How long a source waits between guesses now (0 if it has no wrong guess held)."""
        subject = ("address", address)
        penalty = await self._change(
            [subject], lambda held: forgiven(held[subject], time.time(), FORGIVE_AFTER)
        )
        return self._wait(penalty.failures)

    async def turn(self, address: str, name: str) -> bool:
        """Wait for this guess's turn; False (and no turn) if it is too far off. Then
        compare at once, without awaiting anything first, and report it with
        `failed` or `passed`."""
        now = time.time()
        at = await self._change(
            self._subjects(address, name), lambda held: self._reserve(held, now)
        )
        if at is None:
            return False
        if at > now:
            await asyncio.sleep(at - now)
        return True

    async def failed(self, address: str, name: str, logged_name: str) -> None:
        """A wrong guess: the address's and the name's next ones wait longer."""
        now = time.time()

        def count(held: dict[Subject, Penalty]) -> int:
            for scope in ("address", "name"):
                who = address if scope == "address" else name
                penalty = forgiven(held[(scope, who)], now, FORGIVE_AFTER)
                penalty.failures += 1
                penalty.last_failure = now
                penalty.next_try = max(penalty.next_try, now + self._wait(penalty.failures))
            return held[("address", address)].failures

        if await self._change(self._subjects(address, name)[:2], count) == 1:
            self._log(
                f"wrong password from {address} (user={logged_name}): each further guess from "
                f"{address} waits {self._wait(1):g} s, longer after each failure"
            )

    async def passed(self, address: str, name: str) -> None:
        """The right password: the address's and the name's failures are forgotten."""

        def clear(held: dict[Subject, Penalty]) -> None:
            for subject in held:
                held[subject] = Penalty()

        await self._change(self._subjects(address, name)[:2], clear)

    def _reserve(self, held: dict[Subject, Penalty], now: float) -> float | None:
        """The time this guess may be compared, its turn taken; None if too far off."""
        at = max(now, *(penalty.next_try for penalty in held.values()))
        if at - now > QUEUE_LIMIT:
            return None
        for (scope, _), penalty in held.items():
            forgiven(penalty, now, FORGIVE_AFTER)
            if scope == "total":
                penalty.next_try = at + 1.0 / TOTAL_PER_SECOND
            else:  # (as if it fails: until it is reported, nothing else from it is compared)
                penalty.next_try = at + self._wait(penalty.failures + 1)
        return at

    def _subjects(self, address: str, name: str) -> list[Subject]:
        return [("address", address), ("name", name), ("total", "")]

    def _wait(self, failures: int) -> float:
        factor = min(2 ** (max(failures - 1, 0) // FAILURES_PER_DOUBLING), MAX_PENALTY_FACTOR)
        return self._delay * factor if failures else 0.0

    async def _change(
        self, subjects: list[Subject], change: Callable[[dict[Subject, Penalty]], T]
    ) -> T:
        return await self.ledger.change_penalties(subjects, change)


async def code_refusal(ledger: PenaltyLedger, key: str | None, address: str) -> str | None:
    """Why this key (None: a browser) may not try a code now (a sentence), or None if it may."""
    now = time.time()
    subjects = _code_subjects(key, address)
    most = {"code-key": CODE_TRIES_PER_KEY, "code-address": CODE_TRIES_PER_ADDRESS}

    def spent(held: dict[Subject, Penalty]) -> bool:
        return any(
            forgiven(held[subject], now, CODE_LIFETIME).failures >= most[subject[0]]
            for subject in subjects
        )

    if await ledger.change_penalties(subjects, spent):
        return "too many wrong codes from this key or address; try again in 10 minutes."
    return None


async def code_failed(ledger: PenaltyLedger, key: str | None, address: str) -> None:
    """A wrong code from this key (None: a browser) and address: counted against both."""
    now = time.time()

    def count(held: dict[Subject, Penalty]) -> None:
        for penalty in held.values():
            forgiven(penalty, now, CODE_LIFETIME).failures += 1
            penalty.last_failure = now

    await ledger.change_penalties(_code_subjects(key, address), count)


def _code_subjects(key: str | None, address: str) -> list[Subject]:
    keyed: list[Subject] = [("code-key", key)] if key is not None else []
    return [*keyed, ("code-address", address)]
