"""Whether a player may join a tournament now (`ssh -t host tournament join ID`,
or the app's lobby): a keyed player, not in it already in another session here,
before it is over (a Swiss before its last round). A refusal is one sentence."""

from __future__ import annotations

from ...core import ReversiError
from ...net.remote import is_guest
from ...net.typed_number import typed_number
from ..ledger.store import Store
from ..ledger.tournaments import FINISHED, RUNNING, SWISS, Tournament
from .tournament_pages import title
from .tournaments import TournamentDirector


class CommandMistake(ReversiError):
    """A tournament command asked for wrongly: its one sentence."""


def tournament_id(word: str) -> int | None:
    """A tournament's number as typed (at most 9 digits), or None."""
    return typed_number(word, 9)


async def may_join(store: Store, director: TournamentDirector, number: int, name: str) -> None:
    """Raise CommandMistake (or StorageError) unless `name` may join tournament
    `number` now: a keyed player, in no other session of it, before it is over."""
    if is_guest(name):
        raise CommandMistake("tournaments are for players with a name here (a key).")
    await joinable(store, number)
    if director.present(number, name) is not None:
        raise CommandMistake(f"you are in tournament {number} already, in another session.")


async def joinable(store: Store, number: int) -> Tournament:
    """Tournament `number`, if a player may join it now. Raises CommandMistake."""
    tournament = await store.tournament(number)
    if tournament is None:
        raise CommandMistake(f"there is no tournament {number} here.")
    if tournament.state == FINISHED:
        raise CommandMistake(f"{title(tournament)} is over; see it with: tournament {number}")
    if (
        tournament.kind == SWISS
        and tournament.state == RUNNING
        and tournament.round >= tournament.rounds
    ):
        raise CommandMistake(f"{title(tournament)} is in its last round; too late to join.")
    return tournament
