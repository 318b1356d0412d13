"""The people on the server, seen from a served game: the lobby and invitations.

A game that `tui-reversi serve` starts for a player on their own (not at a
table) reaches the server's lobby over a local socket of its own (its path and
a per-game secret in `LOBBY_SOCKET_VARIABLE` and `LOBBY_SECRET_VARIABLE`), in
lines like the tables' (net/server_line.py: UTF-8, at most `MAX_LINE`
bytes, words one space apart). The server knows the player's name from SSH; nothing
a game says names it. The server's side is server/hall/lobby_host.py.

    game -> server
      hello SECRET                  the first line: which game this is
      look | away                   start / stop sending the lobby (while it is on screen)
      invite NAME TERMS...          invite NAME to a game on TERMS, as net/terms.py
                                    writes and reads them: the inviter's colour (black,
                                    white or random), variant NAME, and clock M+S if any
                                    (`invite bob white variant anti clock 5+3`)
      withdraw                      take back the invitation this player is waiting on
      accept NUMBER | decline NUMBER   answer invitation NUMBER
      sit CODE                      take the free seat of open table CODE, or go back
                                    to this player's adjourned game there
      watch CODE                    watch table CODE
      block NAME                    block NAME (as `ssh host block NAME`): answered, or refused
      report NAME REASON WORDS...   report NAME (as `ssh host report ...`): answered, or refused
      top                           send the leaderboard (as `ssh host top`)
      player NAME                   send NAME's profile (as `ssh host player NAME`)
      tournaments                   send the tournaments (as `ssh host tournaments`)
      tournament ID                 send one's page: you in it, the time left, standings
      tournament join ID            join tournament ID (the server ends this game,
                                    saved, with `go tournament-ID`: its games follow,
                                    then this game again once the player leaves it)
      replay ID                     open archived game ID for review (the server ends
                                    this game, saved, with `go game-ID`, then brings
                                    the player back to it)

    server -> game
      welcome NAME                  you are NAME here
      person NAME STATE TEXT...     someone here (STATE: free, playing, waiting, watching
                                    or finished) and what they do, in words
      table CODE KIND BLACK WHITE VARIANT CLOCK MOVE
                                    a table (KIND: playing, open, adjourned; '-' for an
                                    empty seat or no clock, else M+S; MOVE the move to
                                    be played)
      rated NAME RATING             NAME's rating here ('1516', '1500?' while provisional):
                                    for each name in the lobby that has one (a guest's has
                                    none), and before an invitation from NAME
      record RATING GAMES TEXT...   your rating ('1500?' while provisional), the rated games
                                    it rests on, your results
      last TEXT...                  your last game, if it moved your rating, as `ssh host
                                    lobby` says it ('Your last game, against bob (id 12),
                                    moved your rating +16.'); no such line otherwise
      report ID REPORTER NAME REASON WORDS...
                                    to a moderator (logged in by key) only: an open
                                    report, the oldest first (what the reporter
                                    typed, control characters dropped)
      shown                         the lobby above is complete: show it (sent again,
                                    whole, whenever it changes while you look)
      invited NUMBER NAME TERMS...  NAME invites you, on the terms of their `invite`
                                    (the colour is NAME's; random: the server draws it)
      waiting NUMBER NAME           your invitation to NAME is sent; their answer follows
      answered TEXT...              your invitation's end (declined, lapsed, refused)
      withdrawn NUMBER TEXT...      the invitation to you is gone, and why
      refused TEXT...               your last line was refused, and why
      page TITLE...                 a page of rows follows (the leaderboard, a profile)
      row KEY TEXT...               one row of it: KEY `player:NAME` opens that player's
                                    profile, `game:ID` that game (replay ID),
                                    `tournament:ID` that tournament's page, whose first
                                    row is `standings-of:ID` (you in it, your next game)
                                    and whose second, `join-tournament:ID`, joins it,
                                    `-` nothing; TEXT as the command prints it
      paged                         the page above is complete: show it
      go CODE                       your seat at table CODE is ready: end this game
                                    (it is saved); the server seats you there at once

Every one of them is checked on the server; a game that breaks the protocol
is cut off. Answers are one sentence each, for the player to read.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from ..core import ReversiError, Variant
from ..core.errors import reason
from .remote import NOBODY, rating_word, with_rating
from .server_line import MAX_LINE, ServerLine, line, words
from .terms import TableTerms, TimeControl

LOBBY_SOCKET_VARIABLE = "TUI_REVERSI_LOBBY_SOCKET"
LOBBY_SECRET_VARIABLE = "TUI_REVERSI_LOBBY_SECRET"
NO_CLOCK = "-"
# `ssh -t host replay ID`: the server starts a game with the archived game's GGF
# in this variable, to be opened for review (nothing of the player's is touched).
REPLAY_VARIABLE = "TUI_REVERSI_REPLAY"


@dataclass(frozen=True, slots=True)
class OpenReport:
    """A report a moderator's lobby shows (`ssh host mod reports` has the rest)."""

    id: int
    reporter: str
    name: str
    reason: str
    words: str


@dataclass(frozen=True, slots=True)
class Person:
    """Someone on the server, and what they do."""

    name: str
    state: str  # free, playing, waiting, watching, finished
    text: str


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table as the lobby lists it."""

    code: str
    kind: str  # playing, open, adjourned
    names: tuple[str, str]  # black, white ('' for an empty seat)
    variant: Variant
    clock: TimeControl | None
    move: int

    def describe(self, ratings: Mapping[str, str]) -> str:
        """'alice 1516 (Black) against bob 1500? (White), othello, clock 5+3, move 12',
        each name with its rating in `ratings`, if it has one."""
        black, white = (with_rating(name, ratings.get(name, "")) for name in self.names)
        clock = f", clock {self.clock}" if self.clock is not None else ""
        how = f"{self.variant.value}{clock}, move {self.move}"
        if self.kind == "open":
            host, colour = (black, "Black") if black else (white, "White")
            return f"{host} waits ({colour}), {how}"
        return f"{black} (Black) against {white} (White), {how}"


@dataclass(frozen=True, slots=True)
class LobbyView:
    """The lobby as the server last described it."""

    people: tuple[Person, ...] = ()
    tables: tuple[TableEntry, ...] = ()
    rating: str = "1500?"
    games: int = 0
    record: str = ""
    last: str = ""  # how your last game moved your rating, in a sentence ('' unrated)
    # Each name's rating as the server wrote it ('1516', '1500?'); a guest's is not here.
    ratings: Mapping[str, str] = field(default_factory=dict)
    reports: tuple[OpenReport, ...] = ()  # a moderator's: the open reports


@dataclass(frozen=True, slots=True)
class Page:
    """The leaderboard or a profile, as rows of text (what ⏎ on each opens, if anything)."""

    title: str
    rows: tuple[tuple[str | None, str], ...]


@dataclass(frozen=True, slots=True)
class Invitation:
    """An invitation to this player: its number, who sent it, and its terms."""

    number: int
    inviter: str
    terms: TableTerms  # the inviter's colour asked for, the variant, the clock
    rating: str = ""  # the inviter's, as the server wrote it ('' for a guest: unrated)


@dataclass(frozen=True, slots=True)
class LobbyNews:
    """One thing from the server's lobby, for the app."""

    view: LobbyView | None = None  # the lobby, whole
    invited: Invitation | None = None
    waiting: str | None = None  # your invitation to this person is on its way
    withdrawn: int | None = None  # the invitation with this number is gone
    go: str | None = None  # the code of the table to go to (or game-ID: a replay)
    page: Page | None = None  # the leaderboard or a profile asked for
    text: str = ""  # a sentence for the player
    refused: bool = False
    closed: bool = False  # the server went away


@dataclass
class _Gathering:
    """A lobby being read, line by line, until `shown`."""

    people: list[Person] = field(default_factory=list)
    tables: list[TableEntry] = field(default_factory=list)
    rating: str = "1500?"
    games: int = 0
    record: str = ""
    last: str = ""
    ratings: dict[str, str] = field(default_factory=dict)
    reports: list[OpenReport] = field(default_factory=list)
    page: str | None = None  # the title of a page being read
    rows: list[tuple[str | None, str]] = field(default_factory=list)


class LobbyLink(ServerLine[LobbyNews]):
    """The game's line to the server's lobby: its requests out, its news in."""

    def __init__(self, sock: socket.socket, reader: BinaryIO, name: str) -> None:
        super().__init__(sock, reader, "lobby-link")
        self.name = name  # as the server knows this player
        self.going: str | None = None  # a table's code, once the server said `go`
        # Every name's rating as the server last wrote it (`rated`): the lobby's, an inviter's.
        self.ratings: dict[str, str] = {}
        self._gathering = _Gathering()

    @classmethod
    def connect(cls, path: str, secret: str, timeout: float = 10.0) -> LobbyLink:
        """Reach the lobby. Raises ReversiError (one sentence)."""
        try:
            sock, reader, (command, rest) = cls.dial(path, secret, timeout, _welcome)
        except (OSError, ValueError) as error:
            raise ReversiError(f"cannot reach the server's lobby: {reason(error)}") from None
        if command != "welcome" or not rest:
            sock.close()
            raise ReversiError(rest or "the server's lobby did not let this game in")
        return cls(sock, reader, rest)

    # -- what the player asks -----------------------------------------------------------

    def look(self, looking: bool = True) -> None:
        self._ask("look" if looking else "away")

    def invite(self, name: str, terms: TableTerms) -> None:
        self._ask("invite", name, *terms.words())

    def withdraw(self) -> None:
        self._ask("withdraw")

    def answer(self, number: int, accepted: bool) -> None:
        self._ask("accept" if accepted else "decline", number)

    def sit(self, code: str) -> None:
        self._ask("sit", code)

    def watch(self, code: str) -> None:
        self._ask("watch", code)

    def top(self) -> None:
        self._ask("top")

    def block(self, name: str) -> None:
        self._ask("block", name)

    def unblock(self, name: str) -> None:
        self._ask("unblock", name)

    def report(self, name: str, reason: str, words: str) -> None:
        self._ask("report", name, reason, *words.split())

    def player(self, name: str) -> None:
        self._ask("player", name)

    def replay(self, game_id: str) -> None:
        self._ask("replay", game_id)

    def tournaments(self) -> None:
        self._ask("tournaments")

    def tournament(self, number: int) -> None:
        self._ask("tournament", number)

    def join_tournament(self, number: int) -> None:
        self._ask("tournament", "join", number)

    def _ask(self, *parts: object) -> None:
        try:
            data = line(*parts)
        except ValueError:
            self._tell(LobbyNews(text="That is too long to send to the server.", refused=True))
            return
        self._send(data)

    # -- news ---------------------------------------------------------------------------

    def _unreachable(self) -> LobbyNews:
        return LobbyNews(text="The server's lobby cannot be reached.", closed=True)

    def _ended(self) -> LobbyNews | None:
        if self.going is not None:  # (the game ends for the table: nothing to tell)
            return None
        return LobbyNews(text="The server's lobby has closed.", closed=True)

    def _receive(self, data: bytes) -> None:
        news = self.receive(data)
        if news is not None:
            self._tell(news)

    def receive(self, data: bytes) -> LobbyNews | None:
        """Read one line of the server's; the news it makes, if any. Raises
        ValueError for a line that cannot be read."""
        command, rest = words(data)
        gathering = self._gathering
        try:
            if command == "person":
                name, state, text = rest.split(" ", 2)
                gathering.people.append(Person(name, state, text))
            elif command == "table":
                code, kind, black, white, variant, clock, move = rest.split(" ")
                names = ("" if black == NOBODY else black, "" if white == NOBODY else white)
                time_control = None if clock == NO_CLOCK else TimeControl.parse(clock)
                entry = TableEntry(code, kind, names, Variant(variant), time_control, int(move))
                gathering.tables.append(entry)
            elif command == "rated":
                name, rating = rest.split(" ")
                gathering.ratings[name] = self.ratings[name] = rating_word(rating)
            elif command == "record":
                rating, games, text = rest.split(" ", 2)
                gathering.rating, gathering.games = rating_word(rating), int(games)
                gathering.record = text
            elif command == "last":
                gathering.last = rest
            elif command == "report":
                number, reporter, name, reason, *said = rest.split(" ", 4)
                gathering.reports.append(
                    OpenReport(int(number), reporter, name, reason, " ".join(said))
                )
            elif command == "shown":
                self._gathering = _Gathering()
                view = LobbyView(
                    tuple(gathering.people),
                    tuple(gathering.tables),
                    gathering.rating,
                    gathering.games,
                    gathering.record,
                    gathering.last,
                    gathering.ratings,
                    tuple(gathering.reports),
                )
                return LobbyNews(view=view)
            elif command == "page":
                gathering.page, gathering.rows = rest, []
            elif command == "row" and gathering.page is not None:
                key, _, text = rest.partition(" ")
                gathering.rows.append((None if key == "-" else key, text))
            elif command == "paged" and gathering.page is not None:
                page = Page(gathering.page, tuple(gathering.rows))
                gathering.page, gathering.rows = None, []
                return LobbyNews(page=page)
            elif command == "invited":
                number, name, *said = rest.split(" ")
                terms, unread = TableTerms.parse(said)
                if unread:
                    raise ValueError(unread)
                invitation = Invitation(int(number), name, terms, self.ratings.get(name, ""))
                return LobbyNews(invited=invitation)
            elif command == "waiting":
                _, name = rest.split(" ")
                return LobbyNews(waiting=name)
            elif command == "withdrawn":
                number, _, text = rest.partition(" ")
                return LobbyNews(withdrawn=int(number), text=text)
            elif command == "answered":
                return LobbyNews(text=rest)
            elif command == "refused":
                return LobbyNews(text=rest, refused=True)
            elif command == "go":
                self.going = rest
                return LobbyNews(go=rest)
        except ValueError as error:  # a ReversiError (TableRefused too) included
            raise ValueError(f"a lobby line this game cannot read: {data[:60]!r}") from error
        return None


def _welcome(reader: BinaryIO) -> tuple[str, str]:
    """The lobby's first line: `welcome NAME`, or why not."""
    return words(reader.readline(MAX_LINE + 1))
