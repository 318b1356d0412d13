"""A session's seat at a table (tables.py), while it has one: however it sat
down there (`table`, `join`, `watch`, `resume`, the queue, the lobby, a
take-over), the seat is charged to the address the player connected from, is
let go once when the session is done with it, and its going is a drop when the
player went."""

from __future__ import annotations

from .tables import Tables


class TableSeat:
    """The secret of the session's seat, which its game is given, and the table's
    code, for what the player is told after the game (kept when the seat goes)."""

    def __init__(self, tables: Tables, address: str) -> None:
        self._tables = tables
        self._address = address
        self.secret: str | None = None
        self.code: str | None = None

    def take(self, secret: str, code: str | None) -> None:
        """Sit at the seat `secret` stands for, at table `code`: what its game asks
        is charged to this session's address from now on."""
        self.secret, self.code = secret, code
        self._tables.connected_from(secret, self._address)

    def leave(self) -> None:
        """The session is done with the seat: its secret is spent."""
        if self.secret is not None:
            self._tables.leave(self.secret)
            self.secret = None

    def forget(self) -> None:
        """Back at the player's own game after a table's: no table to speak of."""
        self.code = None

    def dropped(self) -> None:
        """The player went, or was hung up: their game's going is a drop (the seat
        is held for them), not a crash."""
        if self.secret is not None:
            self._tables.dropped(self.secret)

    def banned(self) -> None:
        """The player is banned from the server: their game at a table is lost at
        once, not held (Tables.banned)."""
        if self.secret is not None:
            self._tables.banned(self.secret)

    def hand_over(self) -> str | None:
        """A new secret of this seat for the player's session that takes their game
        over (Tables.hand_over), if there is a seat to hand over."""
        return self._tables.hand_over(self.secret) if self.secret is not None else None

    @property
    def playing(self) -> bool:
        """True while the game at this seat plays at its player's seat (not a
        spectator's place) and the table's game is not over."""
        return self.secret is not None and self._tables.playing(self.secret)

    def environment(self) -> dict[str, str]:
        """What the game needs in its environment to reach the seat (none without one)."""
        return self._tables.environment(self.secret) if self.secret is not None else {}
