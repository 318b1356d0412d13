"""Bans at the door and inside: a banned player (by name, by the key they
prove, or by the address they come from) is refused at login with one
sentence that says until when, and a session already in when the ban is
read (made here, or on another node of a fleet) is ended with the same
sentence (hall/moderation_watch.py tells `end_banned` every ban it reads),
and a game they play at a table of this node is lost by them at once
(`forfeit_banned`: a ban is no dropped connection, and no seat is held).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..hall.moderation_watch import Moderation
from ..hall.sanction_terms import until_text
from ..hall.tables import Tables
from ..ledger.moderation import Sanction
from .accounts import fingerprint


class Visitor(Protocol):
    """A client let in (connection.py's `Client`), as a ban reads it."""

    user: str | None
    authenticated: bool
    address: str

    @property
    def proved_key(self) -> str | None: ...

    def turn_away(self, why: str) -> None: ...


class Present(Protocol):
    """The running server as `present_names` reads it (arcade.py's `Arcade`)."""

    @property
    def connections(self) -> Iterable[Visitor]: ...

    @property
    def tables(self) -> Tables: ...


def banned_sentence(ban: Sanction) -> str:
    """What a banned player reads: one sentence, until when and why."""
    return f"you are banned from this server {until_text(ban.until)}: {ban.reason}"


def ban_refusal(moderation: Moderation, name: str, key: str | None, address: str) -> str | None:
    """Why this player may not come in, if a ban holds against them (a moderator's
    name is never banned by its address or key: only by an admin, by name)."""
    if moderation.is_moderator(name):
        key, address = None, ""
    ban = moderation.ban_of(name, _fingerprint(key), address)
    return banned_sentence(ban) if ban is not None else None


def end_banned(visitors: Iterable[Visitor], moderation: Moderation, bans: list[Sanction]) -> None:
    """End the sessions of everyone let in that one of `bans` holds against."""
    if not bans:
        return
    for visitor in list(visitors):
        if not visitor.authenticated or visitor.user is None:
            continue
        refusal = ban_refusal(moderation, visitor.user, visitor.proved_key, visitor.address)
        if refusal is not None:
            visitor.turn_away(refusal)


def forfeit_banned(tables: Tables, moderation: Moderation, bans: list[Sanction]) -> None:
    """Each game at this node's tables whose player one of `bans` holds against (by
    name, or by the address their seat connected from) is lost by them at once,
    wherever their session is (a ban by key: their session's end does it)."""
    if bans:
        tables.forfeit_banned(
            lambda name, address: bool(ban_refusal(moderation, name, None, address))
        )


def present_names(arcade: Present) -> set[str]:
    """The names on this node: let in, or seated at its tables."""
    names = {v.user for v in arcade.connections if v.authenticated and v.user is not None}
    for table in arcade.tables.tables.values():
        names |= set(table.names.values())
    return names


def _fingerprint(key: str | None) -> str | None:
    if key is None:
        return None
    try:
        return fingerprint(key)
    except (ValueError, TypeError):  # (asyncssh.KeyImportError is a ValueError)
        return None
