"""A person at another terminal: the seats of a game played at a server's table.

Over `tui-reversi serve`, two people at one table each run their own game
process; the server is the referee of record. A game process talks to the
server over a local socket (its path and a per-game secret come in the
environment, `TABLE_SOCKET_VARIABLE` and `TABLE_SECRET_VARIABLE`), one line
of UTF-8 at a time (net/server_line.py), words separated by one space:

    game -> server
      hello SECRET              the first line: who this game is (the server knows the name)
      begun                     the board is on this player's screen: the clocks wait for
                                both games to say so (server/hall/tables.py: BEGIN_GRACE at most)
      move PLY SQUARE           play SQUARE (e.g. d3) at ply PLY of the table's game
      resign                    give the game up
      takeback                  ask the opponent to take back this player's last move
      rematch                   after the game: ask for another, colours changed (or say
                                yes to the opponent's offer)
      allow | deny              answer the opponent's takeback (or, after the game, rematch)
      say TEXT                  a line of chat for the table (at most CHAT_LENGTH characters)
      report REASON [WORDS]     report the opponent to the server's moderators (a reason
                                of its list); answered by news, or refused
      leave                     the player quits (a game that just goes was dropped:
                                its seat is held for it a while)

    server -> game
      seated CODE SEAT VARIANT      you sit at table CODE as black or white, or are watching
      players BLACK WHITE           the names at the table ('-': nobody yet)
      rated NAME RATING             a player's rating on this server: 1516, or 1500?
                                    while provisional (its deviation over 110); none for
                                    a guest (unrated); again after a rated game
      rerated TEXT...               after a rated game, how it moved both ratings:
                                    'alice 1516 (+16), bob 1484? (-16)' (before `over`'s
                                    dialog is closed, or after: the dialog shows it)
      moved PLY SQUARE              a move the server accepted (passes follow, as in core)
      clock BLACK WHITE RUNNING     with a time control: seconds left each, as of now, and
                                    whose clock runs (black, white, or - for none)
      over REASON WINNER TEXT...    the game has ended: REASON normal, resigned, flag,
                                    left or banned; WINNER black, white or - (a draw, or
                                    no result);
                                    and how, in one sentence
      adjourned TEXT...             the game waits, clocks stopped, for both players
      resumed TEXT...               an adjourned game goes on: both players are back
      ready                         the table is described; news follows from here
      refused TEXT...               your last line was refused, and why (one sentence)
      news TEXT...                  something to tell the player (one sentence)
      said NAME TEXT...             a line of chat from NAME (a player or a spectator)
      asked takeback NAME           the opponent asks to take back their last move
      asked rematch NAME            the opponent asks for a rematch
      undone PLY                    a takeback was allowed: the game goes back to ply PLY
      again                         a rematch: a new game at the table, colours changed
                                    (`players` follows with the names where they sit now)

A game never decides anything: its own move is sent and played only once
the server's `moved` line comes back, exactly like the opponent's.

A game of the player's own (not at a table) speaks the lobby's protocol
instead, on a socket of its own: net/lobby_link.py.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field, replace
from typing import BinaryIO, Protocol

from ..core import Color, Ending, Game, Move, ReversiError, Variant
from ..core.errors import reason
from ..players.base import Allows, MoveRequest, PlayResult
from ..players.human import HumanPlayer
from ..players.kinds import HUMAN, PERSON
from .server_line import ServerLine, line, words

TABLE_SOCKET_VARIABLE = "TUI_REVERSI_TABLE_SOCKET"
TABLE_SECRET_VARIABLE = "TUI_REVERSI_TABLE_SECRET"
CHAT_LENGTH = 200  # characters in one line of chat
NOBODY = "-"
COLOURS: dict[str, Color | None] = {"black": Color.BLACK, "white": Color.WHITE, "watching": None}

# At a table nothing is taken back and no engine whispers.
TABLE_ALLOWS = Allows(hints=False, takebacks=False, pausing=False)


@dataclass(frozen=True, slots=True)
class ClockReading:
    """The table's clocks as the server last told them: seconds left for
    (Black, White) at the moment they arrived, and whose clock runs."""

    left: tuple[float, float]
    running: Color | None


@dataclass(frozen=True, slots=True)
class News:
    """Something from the table for the player: a sentence, and what changed."""

    text: str
    names: tuple[str, str] | None = None  # the names at the table, when they changed
    # The game has ended (a resignation, a player gone, adjourned), and how.
    ending: Ending | None = None
    refused: bool = False  # the player's own line was refused
    clock: ClockReading | None = None  # the clocks, when the server sent them
    chat: bool = False  # a line of chat ('name: text')
    asked: bool = False  # the opponent asks something (a takeback, a rematch): answer it
    undone: int | None = None  # the game went back to this ply (a takeback allowed)
    again: bool = False  # a rematch: a new game, colours changed (state.colour is the new one)
    resumed: bool = False  # an adjourned game goes on
    rerated: bool = False  # the text says how the game moved both players' ratings
    rated: bool = False  # a player's rating came (in the state's ratings): show it

    @property
    def over(self) -> bool:
        return self.ending is not None


# The names a server gives the players it let in without a key (`guest-7f3a9c...`):
# they play unrated, and the table says so beside their name.
GUEST_PREFIX = "guest-"


# What a guest's lobby (the text one and the app's) says in place of a record.
GUEST_UNRATED = "You play as a guest here: unrated; connect with an SSH key to claim a name."


def is_guest(name: str) -> bool:
    """True for a name the server gave a guest."""
    return name.startswith(GUEST_PREFIX)


# Hex digits shown of a guest's name (`guest-` and 16 of them, never given twice):
# enough to tell the guests in one lobby apart.
SHOWN_GUEST_DIGITS = 6


def shown_name(name: str) -> str:
    """A name as people read it: a guest's cut to `guest-7f3a9c`, any other whole."""
    return name[: len(GUEST_PREFIX) + SHOWN_GUEST_DIGITS] if is_guest(name) else name


def with_rating(name: str, rating: str) -> str:
    """'alice 1516': a name as shown, with its rating (as the server wrote it: '1516',
    '1500?' while provisional; '' none) beside it if it has one."""
    return f"{shown_name(name)} {rating}" if rating else shown_name(name)


def rating_aside(name: str, rating: str) -> str:
    """' (1516)', or ' (1500?)' while provisional: `name`'s rating (as with_rating's)
    put in a sentence; ' (a guest, unrated)' for a guest; '' for a name without one."""
    if is_guest(name):
        return " (a guest, unrated)"
    return f" ({rating})" if rating else ""


@dataclass
class TableState:
    """The table as the server described it when the game joined."""

    code: str = ""
    colour: Color | None = Color.BLACK  # None: watching
    variant: Variant = Variant.OTHELLO
    names: tuple[str, str] = ("", "")
    moves: list[tuple[int, Move]] = field(default_factory=list)
    ending: Ending | None = None  # how the game ended (adjourned: for now), if it did
    clock: ClockReading | None = None  # None: no time control
    ratings: dict[str, str] = field(default_factory=dict)  # by player name: '1516', '1500?'


class TableLink(ServerLine[News]):
    """The game's line to the server: sends this player's moves, receives every
    accepted move, and answers the seats' requests with them."""

    def __init__(self, sock: socket.socket, reader: BinaryIO, state: TableState) -> None:
        super().__init__(sock, reader, "table-link")
        self.state = state
        self._moves: dict[int, Move] = dict(state.moves)
        self._waiting: list[MoveRequest] = []

    @classmethod
    def connect(cls, path: str, secret: str, timeout: float = 10.0) -> TableLink:
        """Join the table the server gave this game. Raises ReversiError (one sentence)."""
        try:
            sock, reader, state = cls.dial(path, secret, timeout, _read_table)
        except OSError as error:
            raise ReversiError(f"cannot reach the table: {reason(error)}") from None
        return cls(sock, reader, state)

    # -- the seats ------------------------------------------------------------------

    def seat(self, kind: str, variant: Variant) -> HumanPlayer | RemotePerson:
        """The seat of kind `kind`: this player (`human`) or the other (`person`)."""
        if kind == HUMAN:
            return TableSeat(self)
        if kind == PERSON:
            return RemotePerson(self)
        raise ReversiError(f"only people sit at a table, not {kind!r}")

    def ask(self, request: MoveRequest) -> None:
        """Answer `request` with the server's move for its ply, now or when it comes."""
        with self._lock:
            move = self._moves.get(request.turn.ply)
            if move is None:
                self._waiting.append(request)
                return
        request.reply(PlayResult(request.turn, move))

    def forget(self, request: MoveRequest | None) -> None:
        with self._lock:
            self._waiting = [waiting for waiting in self._waiting if waiting is not request]

    def play(self, ply: int, move: Move) -> None:
        """Offer this player's `move` at `ply` to the server."""
        self._send(line("move", ply, move))

    def begun(self) -> None:
        """Tell the server the board is on the screen: the clocks may start."""
        if self.state.colour is not None:
            self._send(line("begun"))

    def resign(self) -> None:
        self._send(line("resign"))

    def say(self, text: str) -> None:
        """A line of chat for the table (shown to everyone there as it is)."""
        try:
            data = line("say", text)
        except ValueError:
            self._tell(News("That chat line is too long to send.", refused=True))
            return
        self._send(data)

    def ask_takeback(self) -> None:
        self._send(line("takeback"))

    def report(self, reason: str, words: str) -> None:
        """Report the opponent for `reason` (the server's list), with `words`."""
        self._send(line("report", reason, *words.split()))

    def ask_rematch(self) -> None:
        self._send(line("rematch"))

    def answer(self, allowed: bool) -> None:
        """Answer what the opponent asked (a takeback, or a rematch)."""
        self._send(line("allow" if allowed else "deny"))

    def leave(self) -> None:
        """The player quits the table (rather than being cut off)."""
        self._send(line("leave"))

    # -- news -------------------------------------------------------------------------

    def _unreachable(self) -> News:
        return _gone("The server cannot be reached: the game is over.")

    def _ended(self) -> News:
        return _gone("The server closed the table.")

    def _tell(self, news: News) -> None:
        state = self.state
        if news.ending is not None and (state.ending is None or news.ending.off_board):
            state.ending = news.ending
        if news.resumed:
            state.ending = None
        super()._tell(news)

    def _receive(self, data: bytes) -> None:
        command, rest = words(data)
        if command == "moved":
            ply, move = _moved(rest)
            with self._lock:
                self._moves[ply] = move
                answered = [r for r in self._waiting if r.turn.ply == ply]
                self._waiting = [r for r in self._waiting if r.turn.ply != ply]
            for request in answered:
                request.reply(PlayResult(request.turn, move))
        elif command == "players":
            names = _names(rest)
            self.state.names = names
            self._tell(News("", names=names))
        elif command == "rated":
            name, rating = rest.split(" ")
            self.state.ratings[name] = rating_word(rating)
            self._tell(News("", rated=True))
        elif command == "clock":
            self.state.clock = _clock(rest)
            self._tell(News("", clock=self.state.clock))
        elif command == "rerated":
            self._tell(News(rest, rerated=True))
        elif command == "over":
            ending = _ending(rest)
            self._tell(News(ending.text, ending=ending))
        elif command == "adjourned":
            self._tell(News(rest, ending=Ending("adjourned", None, rest)))
        elif command == "resumed":
            self._tell(News(rest, resumed=True))
        elif command == "refused":
            self._tell(News(rest, refused=True))
        elif command == "news":
            self._tell(News(rest))
        elif command == "asked":
            what, _, name = rest.partition(" ")
            if what == "rematch":
                text = f"{name} asks for a rematch (you change colours)."
            else:
                text = f"{name} asks to take back their last move."
            self._tell(News(text, asked=True))
        elif command == "again":
            with self._lock:
                self._moves = {}
                self._waiting = []
            state = self.state
            state.moves, state.ending = [], None
            if state.colour is not None:
                state.colour = state.colour.other
            self._tell(News("", again=True))
        elif command == "undone":
            ply = int(rest)
            with self._lock:
                self._moves = {at: move for at, move in self._moves.items() if at < ply}
            self._tell(News("", undone=ply))
        elif command == "said":
            name, _, text = rest.partition(" ")
            self._tell(News(f"{name}: {text}", chat=True))

    def start_game(self) -> Game:
        """The table's game so far, as core plays it."""
        game = Game(self.state.variant)
        for _, move in self.state.moves:
            game.play(move)
        return game


class TableSeat(HumanPlayer):
    """This player's seat at the table: a move from the board goes to the
    server, and is played when the server has accepted it."""

    kind = HUMAN
    allows = replace(TABLE_ALLOWS, local_input=True)

    def __init__(self, link: TableLink) -> None:
        super().__init__()
        self._link = link

    def request(self, request: MoveRequest) -> None:
        super().request(request)
        self._link.ask(request)

    def submit(self, move: Move) -> bool:
        request = self._request
        if request is None or self._link.state.ending is not None:
            return False
        self._link.play(request.turn.ply, move)
        return True

    def cancel(self) -> None:
        self._link.forget(self._request)
        super().cancel()

    def close(self) -> None:
        self.cancel()


class RemotePerson:
    """The other person at the table: their moves come from the server."""

    kind = PERSON
    allows = TABLE_ALLOWS

    def __init__(self, link: TableLink) -> None:
        self._link = link
        self._request: MoveRequest | None = None

    def request(self, request: MoveRequest) -> None:
        self._request = request
        self._link.ask(request)

    def cancel(self) -> None:
        self._link.forget(self._request)
        self._request = None

    def close(self) -> None:
        self.cancel()


def rating_word(word: str) -> str:
    """A rating as the server sends it ('1516', '1500?' while provisional), checked.
    Raises ValueError for anything else."""
    if not (word.removesuffix("?").isdigit() and len(word) <= 6):
        raise ValueError(f"{word[:8]!r} is not a rating")
    return word


def _read_table(reader: BinaryIO) -> TableState:
    """The server's description of the table, up to its `ready` line."""
    state = TableState()
    seated = False
    for data in reader:
        try:
            command, rest = words(data)
            if command == "seated":
                code, colour, variant = rest.split(" ")
                state.code, state.colour = code, COLOURS[colour]
                state.variant = Variant(variant)
                seated = True
            elif command == "players":
                state.names = _names(rest)
            elif command == "moved":
                state.moves.append(_moved(rest))
            elif command == "over":
                state.ending = _ending(rest)
            elif command == "adjourned":
                state.ending = Ending("adjourned", None, rest)
            elif command == "clock":
                state.clock = _clock(rest)
            elif command == "rated":
                name, rating = rest.split(" ")
                state.ratings[name] = rating_word(rating)
        except (ValueError, KeyError, ReversiError):
            raise ReversiError(
                "the server described the table in a way this game cannot read"
            ) from None
        if command in ("refused", "bye"):
            raise ReversiError(rest)
        if command == "ready" and seated:
            return state
    raise ReversiError("the server closed the table before it was ready")


def _ending(rest: str) -> Ending:
    """`over REASON WINNER TEXT...` as an Ending. Raises ValueError or ReversiError."""
    reason, winner, text = rest.split(" ", 2)
    try:
        return Ending(reason, COLOURS.get(winner), text)
    except ReversiError as error:
        raise ValueError(str(error)) from None


def _gone(text: str) -> News:
    """The line to the server has gone: for this player, the game waits (the
    server holds the seat, or adjourns)."""
    return News(text, ending=Ending("adjourned", None, text))


def _moved(rest: str) -> tuple[int, Move]:
    ply, square = rest.split(" ")
    return int(ply), Move.parse(square)


def _clock(rest: str) -> ClockReading:
    black, white, running = rest.split(" ")
    return ClockReading((float(black), float(white)), COLOURS.get(running))


def _names(rest: str) -> tuple[str, str]:
    black, white = rest.split(" ")
    return ("" if black == NOBODY else black, "" if white == NOBODY else white)


class TableCourse(Protocol):
    """Whoever plays out what the table decided (match.Referee does)."""

    def rematch(self) -> None: ...

    def rewind(self, ply: int) -> None: ...

    def end(self, ending: Ending) -> None: ...

    def carry_on(self) -> None: ...


def follow_table(course: TableCourse, news: News) -> None:
    """Play out in `course` what the table decided: a rematch, a takeback
    the players agreed on, an ending, an adjourned game going on."""
    if news.again:
        course.rematch()
    if news.undone is not None:
        course.rewind(news.undone)
    if news.ending is not None:
        course.end(news.ending)
    if news.resumed:
        course.carry_on()
