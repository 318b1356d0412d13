"""The in-app lobby as each game that shows it sees it (lobby_host.py's guests
looking at it): the people here, the tables, everyone's rating, the looker's
own record, and for a moderator the open reports. It is sent every REFRESH
seconds and whenever something changed (refresh()), to each game only if what
that game would see changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from ...net.lobby_link import NO_CLOCK
from ...net.remote import NOBODY, is_guest
from ...net.server_line import line
from ...storage import StorageError
from ..ledger.ratings import FIRST
from ..ledger.store import Store, TableView
from ..ledger.table_phase import Phase
from .lobby_guest import Doing, Guest
from .own_records import OwnRecord, OwnRecords
from .table_store import rated_lines, read_ratings, shown_ratings
from .tables import Tables

# How often the lobby is looked at again for the games that show it (sent only if changed).
REFRESH = 1.0
# The open reports a moderator's lobby shows, the oldest first.
LOBBY_REPORTS = 10
# A report's words as a moderator's lobby shows them, at most (a line is 1024 bytes).
REPORT_BYTES = 600


class LobbyView:
    """The lobby sent to the games that show it: start(), refresh(), close()."""

    def __init__(
        self,
        guests: Callable[[], list[Guest]],
        people: Callable[[], dict[str, Doing]],
        tables: Tables,
        store: Store,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._guests = guests  # the lobby's guests: those looking are sent it
        self._people = people  # who is on the server and what they do
        self._tables = tables
        self._store = store
        # The lookers' own records, read again when a game of theirs is kept here.
        self._records = OwnRecords(lambda: store, now)
        tables.course.kept_names = self._records.kept
        self._refresher: asyncio.Task[None] | None = None
        self._sending: asyncio.Task[None] | None = None  # (refresh's)
        self._send_again = False  # refreshed while sending: send once more

    def start(self) -> None:
        self._refresher = asyncio.create_task(self._refreshing())

    def close(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
        if self._sending is not None:
            self._sending.cancel()

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            self.refresh()

    def refresh(self) -> asyncio.Task[None]:
        """Send the lobby to every game that shows it, if it changed for that game:
        by a task, as the ratings are the store's to read (once more after it, if
        asked again meanwhile). The task, for a caller that waits for the sending."""
        if self._sending is not None and not self._sending.done():
            self._send_again = True
            return self._sending
        self._sending = asyncio.create_task(self._send_lobby())
        return self._sending

    async def _send_lobby(self) -> None:
        self._send_again = True
        while self._send_again:
            self._send_again = False
            looking = [guest for guest in self._guests() if guest.looking]
            if not looking:
                continue
            people = self._people()
            views = self._tables.views(everywhere=True)
            seated = [name for view in views for name in (view.black, view.white) if name]
            lookers = list(dict.fromkeys(guest.name for guest in looking))
            # One read of everyone's rating, whoever is looking (store.py's `ratings`).
            names = list(dict.fromkeys([*sorted(people), *seated, *lookers]))
            read = await read_ratings(self._store, names)
            rated = shown_ratings(names, read)
            # The lookers' own records (own_records.py: read again only when stale).
            self._records.forget_all_but(lookers)
            # Whose rating could not be read waits for the store.
            games = {
                name: read.get(name, FIRST).games
                for name in lookers
                if name in read or is_guest(name)
            }
            records: dict[str, tuple[str, int, OwnRecord]] = {}
            with contextlib.suppress(StorageError):  # (those lobbies wait for the store)
                for name, own in (await self._records.of(games)).items():
                    rating = read.get(name, FIRST)
                    records[name] = (rating.shown, rating.games, own)
            reports = await self._open_reports(looking)
            for guest in looking:
                if guest.name not in records:
                    continue
                data = self.view_for(guest.name, people, views, rated, records[guest.name])
                if guest.moderator:
                    data = data.removesuffix(line("shown")) + reports + line("shown")
                if data != guest.shown:
                    guest.shown = data
                    guest.send(data)

    async def _open_reports(self, looking: list[Guest]) -> bytes:
        """The open reports' lines, if a moderator is among `looking` (else none)."""
        store = self._tables.store
        if not any(guest.moderator for guest in looking):
            return b""
        with contextlib.suppress(StorageError):  # (shown again when the store answers)
            return b"".join(
                line(
                    "report",
                    r.id,
                    _one_word(r.reporter),
                    r.name,
                    r.reason,
                    _cut(r.words, REPORT_BYTES),
                )
                for r in await store.open_reports(LOBBY_REPORTS)
            )
        return b""

    def view_for(
        self,
        name: str,
        people: dict[str, Doing],
        views: list[TableView],
        rated: dict[str, str],
        record: tuple[str, int, OwnRecord],
    ) -> bytes:
        """The lobby as `name` sees it, in protocol lines ending with `shown`: `people`
        here, the tables of `views`, each name's rating in `rated` (as shown; '' none),
        and `record`: their own rating as shown, the rated games it rests on, and
        their results and last game's move of it."""
        lines = [line("person", who, what.state, what.text) for who, what in sorted(people.items())]
        for view in views:
            if view.phase is Phase.ADJOURNED and name not in (view.black, view.white):
                continue  # only its players may resume it
            clock = view.clock or NO_CLOCK
            black, white = view.black or NOBODY, view.white or NOBODY
            lines.append(
                line("table", view.code, view.phase, black, white, view.variant, clock, view.move)
            )
        lines += rated_lines(rated)
        rating, games, own = record
        lines.append(line("record", rating, games, own.results))
        if own.last:
            lines.append(line("last", own.last))
        lines.append(line("shown"))
        return b"".join(lines)


def _cut(text: str, most: int) -> str:
    """`text` cut to at most `most` bytes of UTF-8, never inside a character."""
    return text.encode()[:most].decode(errors="ignore")


def _one_word(reporter: str) -> str:
    """A reporter as one field of a `report` line, whose fields end at spaces: the
    watch's '(boosting watch)' keeps its space as a no-break one, shown the same."""
    return reporter.replace(" ", "\N{NO-BREAK SPACE}")
