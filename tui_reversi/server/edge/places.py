"""The server's places (sessions at once, `--max-sessions`), and the guests'
share of them: guests together, and the guests of one address, hold at most
GUEST_SHARE of what there is, so a player with a key always finds a place
while the guests are at their cap, whoever opened them. (A place is the
server's; a seat is a chair at a table, tables.py's. Players read "seats" for
both, as they always have.)"""

from __future__ import annotations

from collections import Counter

from ..config import ServeConfig


class Places:
    """`take` a place for a session (a sentence if there is none for it), `leave` it."""

    def __init__(self, config: ServeConfig) -> None:
        self._config = config
        self.taken = 0
        self.guests: Counter[str] = Counter()  # places held by guests, per address

    def take(self, address: str, *, guest: bool) -> str | None:
        """Take a place for a session from `address`; why not (a sentence) if there is none."""
        config = self._config
        if self.taken >= config.max_sessions:
            return f"all {config.max_sessions} seats are taken; please try again in a few minutes."
        if guest and sum(self.guests.values()) >= config.guest_places():
            return (
                f"all {config.guest_places()} seats for guests are taken; please try again in a "
                "few minutes (players with a key have seats of their own)."
            )
        if guest and self.guests[address] >= config.guests_per_address():
            return (
                f"guests from your address hold {self.guests[address]} seats already, "
                "as many as one address's guests may."
            )
        self.taken += 1
        if guest:
            self.guests[address] += 1
        return None

    def leave(self, address: str, *, guest: bool) -> None:
        self.taken -= 1
        if guest:
            self.guests[address] -= 1
            if self.guests[address] <= 0:
                del self.guests[address]
