"""The live game and the referee that runs it. No Textual here: storage,
tools and plain tests may import it freely.

`Match` is everything needed to carry on a game (the record, its variant,
which kind of player sits at each colour), so a save, a resume or a test
needs nothing else. `Referee` runs the turn loop over a Match and its
seated `Player`s: it asks the player to move for the current `Turn`, checks
the answer with core, records it (passes and the game's end follow from
core's record), applies the undo and redo policy, and reports every change
to whoever watches (the autosave, the screen)::

    referee = Referee(match, lambda name, variant: seat(name, variant, strategies))
    referee.watch(on_event)          # RecordChanged, Asked, Thinking, Refused, Failed, ...
    referee.start()                  # asks the player to move, and so on until the end

The course of a game at a server's table runs here too: a takeback the
players agreed on (`rewind`), a `rematch` with the colours changed, and
endings off the board (`end`: a resignation, a flag, a player gone, an
adjournment); net.remote.follow_table applies what the table's server says. Every
ending, on the board or off it, is reported as `Ended`; every pause as
`PauseChanged`.

Answers may arrive on any thread; `post` (given by the owner) runs a
callable on the referee's own thread. Without one, answers from other
threads wait in an `Inbox` the owner drains (`referee.inbox.run(...)`).
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

from .core import Color, Ending, Game, Move, Position, ReversiError, Variant
from .players.base import (
    Allows,
    LocalPlayer,
    MoveRequest,
    Notice,
    Player,
    PlayFailed,
    PlayResult,
    Progress,
    Reply,
    SearchInfo,
    Turn,
)
from .players.kinds import HUMAN, PERSON, label, player_kind

_game_ids = itertools.count(1)


@dataclass(eq=False)
class Match:
    """A game in progress: the core record plus the kind of player at each colour."""

    black: str = HUMAN
    white: str = "easy"
    game: Game = field(default_factory=Game)
    game_id: int = field(default_factory=lambda: next(_game_ids))
    # Who sits at each colour when the players have names (people at a server's table).
    names: tuple[str, str] = ("", "")
    # How the game ended off the board (a resignation, a flag...); None: it did
    # not, and the board says whether it is over.
    ending: Ending | None = None

    def __post_init__(self) -> None:
        self.black = player_kind(self.black).name
        self.white = player_kind(self.white).name

    @classmethod
    def new(cls, black: str, white: str, variant: Variant | str = Variant.OTHELLO) -> Match:
        return cls(black, white, Game(variant))

    # -- who is who ------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.game.variant

    def level(self, color: Color) -> str:
        return self.white if color else self.black

    def is_human(self, color: Color) -> bool:
        return self.level(color) == HUMAN

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def to_move(self) -> Color:
        return self.game.position.to_move

    @property
    def is_over(self) -> bool:
        """Over on the board, or ended off it (adjourned: over for now)."""
        return self.game.is_over or self.ending is not None

    @property
    def allows_takebacks(self) -> bool:
        """False once the game ended off the board (a resignation, a flag, a
        player gone, adjourned): a move taken back would drop how it ended."""
        return self.ending is None

    @property
    def ended(self) -> Ending | None:
        """How the game ended: off the board, or on it (`normal`); None while it goes on."""
        if self.ending is not None:
            return self.ending
        result = self.game.result
        if result is None:
            return None
        return Ending("normal", result.winner, str(result))

    def thinks(self, color: Color) -> bool:
        """True when a computer plays `color` (it shows its thinking)."""
        return player_kind(self.level(color)).computer

    @property
    def human_to_move(self) -> bool:
        return not self.is_over and self.is_human(self.to_move)

    @property
    def humans(self) -> int:
        return self.is_human(Color.BLACK) + self.is_human(Color.WHITE)

    def turn(self) -> Turn:
        return Turn(self.game_id, self.game.ply, self.game.position)

    def is_current(self, turn: Turn) -> bool:
        """True while `turn` still describes the live position."""
        return turn == self.turn()

    def player_label(self, color: Color) -> str:
        """'Human', 'Easy', ... for `color`'s player, or the person's name."""
        return self.names[color] or label(self.level(color))

    def rematch(self) -> Match:
        """A new game of the same variant between the same players, colours changed."""
        black, white = self.names
        return Match(self.white, self.black, Game(self.variant), names=(white, black))

    def at_home(self) -> Match:
        """This match played at one keyboard: a table's game loaded at home has
        both its people played here (their names stay)."""
        black, white = (HUMAN if level == PERSON else level for level in (self.black, self.white))
        return Match(black, white, self.game, names=self.names, ending=self.ending)

    # -- taking back -----------------------------------------------------------

    def undo(self) -> bool:
        """Take back the last move; against the computer, back to the human's
        previous turn (their move and the computer's reply together).
        Returns False when there is nothing a player would call a move to undo."""
        game = self.game
        if self.humans != 1:
            return game.undo()
        # The human's own earlier move must be among those taken back, or
        # undo would only make the computer play its reply again.
        ply = game.ply
        while ply > 0:
            earlier = _previous_real_move(game, ply)
            if earlier is None:
                return False
            ply = earlier
            if self.is_human(game.positions[ply].to_move):
                game.go_to(ply)
                return True
        return False

    def redo(self) -> bool:
        """Replay an undone move; against the computer, the computer's reply too."""
        game = self.game
        if not game.redo():
            return False
        if self.humans == 1:
            while game.can_redo and not self.is_human(game.position.to_move):
                game.redo()
        return True


def table_seats(colour: Color | None) -> tuple[str, str]:
    """The kinds of player at (Black, White) for the person at this keyboard
    sitting at `colour` of a server's table (None: watching, both elsewhere)."""
    if colour is None:
        return PERSON, PERSON
    return (HUMAN, PERSON) if colour == Color.BLACK else (PERSON, HUMAN)


def _previous_real_move(game: Game, ply: int) -> int | None:
    """The ply of the last non-pass move before `ply`, or None."""
    for earlier in range(ply - 1, -1, -1):
        if game.move_at(earlier):
            return earlier
    return None


def _is_local(player: Player) -> TypeGuard[LocalPlayer]:
    return player.allows.local_input


# -- what the referee reports ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordChanged:
    """The live game changed: a move (`moved`), a takeback, a new or loaded
    game. `save` is False when there is nothing new to keep (a resumed game)."""

    moved: bool
    save: bool = True


@dataclass(frozen=True, slots=True)
class Asked:
    """`color`'s player was asked to move at `turn`."""

    turn: Turn
    color: Color
    player: Player


@dataclass(frozen=True, slots=True)
class Thinking:
    """Progress of the player asked at `turn`."""

    turn: Turn
    color: Color
    info: SearchInfo


@dataclass(frozen=True, slots=True)
class Refused:
    """`color`'s player answered with a move the rules refuse; `reason`
    completes a sentence after the move ('is occupied')."""

    color: Color
    player: Player
    move: Move
    reason: str


@dataclass(frozen=True, slots=True)
class Failed:
    """`color`'s player could not answer; the referee paused the game."""

    color: Color
    player: Player
    problem: str


@dataclass(frozen=True, slots=True)
class Told:
    """`color`'s player has something to say about how it plays (one
    sentence); the game goes on."""

    color: Color
    player: Player
    text: str


@dataclass(frozen=True, slots=True)
class PauseChanged:
    """The players stopped thinking (`paused`: by a key, an undo between
    computers, or a computer that failed) or may carry on."""

    paused: bool


@dataclass(frozen=True, slots=True)
class Began:
    """Another game is on the board (new, loaded, a rematch): what was known
    of the last one (a review, an analysis, its result shown) no longer holds."""

    match: Match


@dataclass(frozen=True, slots=True)
class Ended:
    """The game ended, on the board (`normal`) or off it; nobody is asked to move."""

    ending: Ending


Event = RecordChanged | Asked | Thinking | Refused | Failed | Told | PauseChanged | Began | Ended

# Seats a player of a kind for a variant (players.kinds.seat with the strategies bound).
SeatFactory = Callable[[str, Variant], Player]
# Runs a callable on the referee's thread, soon; may be called from any thread.
Post = Callable[[Callable[[], None]], None]


class Inbox:
    """Answers that arrived from other threads, for an owner with no event
    loop of its own (a test, a tool): `run` handles them as they come."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def post(self, call: Callable[[], None]) -> None:
        self._calls.put(call)

    def run(self, until: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Handle answers until `until()` holds; False if `timeout` seconds pass first."""
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                call = self._calls.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            call()
        return True


@dataclass(frozen=True, slots=True)
class Pacing:
    """The fewest seconds a computer takes to answer: against a person, so
    its reply is seen after theirs; between computers, so the game can be
    watched."""

    reply: float = 0.35
    watch: float = 0.6


class Referee:
    """Runs the turn loop of the live match over its two seats."""

    def __init__(
        self,
        match: Match,
        seat: SeatFactory,
        *,
        pacing: Pacing | None = None,
        post: Post | None = None,
    ) -> None:
        self._seat_factory = seat
        self.pacing = pacing if pacing is not None else Pacing()
        self.inbox = Inbox()
        self._post = post if post is not None else self.inbox.post
        self._thread = threading.get_ident()
        self._watchers: list[Callable[[Event], None]] = []
        self.match = match
        self.seats = self._seat(match)
        self.paused = False
        self.started = False
        self._asked: Turn | None = None

    # -- who sits where ------------------------------------------------------------

    def _seat(self, match: Match) -> dict[Color, Player]:
        return {color: self._seat_factory(match.level(color), match.variant) for color in Color}

    def seat(self, color: Color) -> Player:
        return self.seats[color]

    @property
    def to_move(self) -> Player:
        """The player whose turn it is (in a finished game, whose turn it would be)."""
        return self.seats[self.match.to_move]

    def allows(self, what: Callable[[Allows], bool]) -> bool:
        """True when every seat allows `what` (e.g. `lambda a: a.takebacks`)."""
        return all(what(player.allows) for player in self.seats.values())

    @property
    def local_to_move(self) -> bool:
        """True when the game goes on and the person at this keyboard is to move."""
        return not self.match.is_over and self.to_move.allows.local_input

    @property
    def plays_here(self) -> bool:
        """True when some seat's moves come from this keyboard (not watching)."""
        return any(player.allows.local_input for player in self.seats.values())

    @property
    def hints_allowed(self) -> bool:
        """True when the person at this keyboard is to move and their seat allows hints."""
        return self.local_to_move and self.to_move.allows.hints

    def submit(self, move: Move) -> bool:
        """The person at this keyboard plays `move` (checked and reported as
        any answer is); False when no seat of theirs is asked to move now."""
        player = self.to_move
        if not self.local_to_move or not _is_local(player) or player.waiting is None:
            return False
        return player.submit(move)

    @property
    def asked(self) -> Turn | None:
        """The turn a player is working on now, or None."""
        return self._asked

    def watch(self, watcher: Callable[[Event], None]) -> None:
        """Call `watcher` with every Event from now on, in order."""
        self._watchers.append(watcher)

    def check_seats(self, match: Match) -> None:
        """Raise ReversiError if a seat of `match` cannot be filled."""
        for player in self._seat(match).values():
            player.close()

    # -- the turn loop ---------------------------------------------------------------

    def start(self, *, save: bool = False) -> None:
        """Begin the turn loop on this thread: report the game as it is (to be
        saved if `save`: a game loaded from a file), then ask its player."""
        self._thread = threading.get_ident()
        self.started = True
        self._changed(moved=False, save=save)

    def begin(self, match: Match) -> None:
        """Play `match` from now on (a new, loaded or imported game). Raises
        ReversiError, changing nothing, if one of its seats cannot be filled."""
        seats = self._seat(match)
        self._stop_asking()
        for player in self.seats.values():
            player.close()
        self.match, self.seats = match, seats
        self.started = True
        self._report(Began(match))
        if self.paused:
            self.paused = False
            self._report(PauseChanged(False))
        self._changed(moved=False)

    def set_paused(self, paused: bool) -> None:
        """Stop the players thinking, or let them carry on."""
        if paused == self.paused:
            return
        if paused:
            self._stop_asking()
            self._pause()
            return
        self.paused = False
        self._report(PauseChanged(False))
        self._ask()

    def _ask(self) -> None:
        match = self.match
        self._stop_asking()
        if not self.started or self.paused or match.is_over:
            return
        turn, color = match.turn(), match.to_move
        player = self.seats[color]
        self._asked = turn
        delay = self.pacing.reply if match.humans else self.pacing.watch
        self._report(Asked(turn, color, player))
        player.request(MoveRequest(turn, self._reply, min_time=delay))

    def _stop_asking(self) -> None:
        if self._asked is not None:
            self._asked = None
            for player in self.seats.values():
                player.cancel()

    def _reply(self, reply: Reply) -> None:
        if threading.get_ident() == self._thread:
            self._receive(reply)
        else:
            self._post(lambda: self._receive(reply))

    def _receive(self, reply: Reply) -> None:
        if reply.turn != self._asked or not self.match.is_current(reply.turn):
            return  # stale: the game moved on (undo, new game) while it thought
        color = self.match.to_move
        player = self.seats[color]
        if isinstance(reply, Progress):
            self._report(Thinking(reply.turn, color, reply.info))
        elif isinstance(reply, Notice):
            self._report(Told(color, player, reply.text))
        elif isinstance(reply, PlayFailed):
            self._asked = None
            self._report(Failed(color, player, reply.problem))
            self._pause()
        else:
            self._play(reply, color, player)

    def _play(self, result: PlayResult, color: Color, player: Player) -> None:
        move, position = result.move, self.match.position
        reason = (
            "is a pass, but a legal move is available"
            if not move
            else position.illegal_reason(move.square)
        )
        if reason is not None:
            self._report(Refused(color, player, move, reason))
            if player.allows.pausing:  # a computer that misplays would misplay again
                self._asked = None
                self._pause()
            return
        self.match.game.play(move)
        self._changed(moved=True)  # every seat drops the request it answered

    # -- changes from outside the loop ---------------------------------------------------

    @property
    def takebacks_allowed(self) -> bool:
        """True when the game and every seat allow taking moves back."""
        return self.match.allows_takebacks and self.allows(lambda allows: allows.takebacks)

    @property
    def hints_offered(self) -> bool:
        """True when a seat allows hints and the game may still come to a turn
        (it goes on, or a takeback can reopen it); given on the person's own
        turn only: hints_allowed."""
        reopens = not self.match.is_over or self.takebacks_allowed
        return reopens and any(p.allows.hints for p in self.seats.values())

    def undo(self) -> bool:
        """Take back as Match.undo does; between computers the game pauses."""
        if not self.takebacks_allowed or not self.match.undo():
            return False
        self.match.ending = None  # the game it ended is not this one
        if self.match.humans == 0:
            self._stop_asking()
            self._pause()
        self._changed(moved=False)
        return True

    def redo(self) -> bool:
        if not self.takebacks_allowed or not self.match.redo():
            return False
        self.match.ending = None
        self._changed(moved=False)
        return True

    def continue_from(self, ply: int) -> None:
        """Play on from `ply`, discarding the later moves. Raises ReversiError
        for a ply the game does not have or when a seat refuses takebacks."""
        if not self.takebacks_allowed:
            raise ReversiError("this game allows no taking moves back")
        self._stop_asking()
        self.match.game.continue_from(ply)
        self.match.ending = None
        if self.paused:
            self.paused = False
            self._report(PauseChanged(False))
        self._changed(moved=False)

    # -- the course of a table's game (the server decided; the referee plays it out) ------

    def rewind(self, ply: int) -> None:
        """Go back to `ply`, discarding the later moves: a takeback the
        players agreed on (whatever the seats allow alone)."""
        game = self.match.game
        self._stop_asking()
        game.continue_from(max(0, min(ply, game.length)))
        self.match.ending = None
        self._changed(moved=False)

    def rematch(self) -> None:
        """A new game between the same players, the colours changed."""
        self.begin(self.match.rematch())

    def end(self, ending: Ending) -> None:
        """The game ended as `ending` says (a resignation, a flag, a player
        gone, adjourned); nobody is asked to move any more. A game the board
        ended already keeps that ending."""
        match = self.match
        if match.game.is_over or match.ending == ending:
            return
        self._stop_asking()
        match.ending = ending
        self._report(Ended(ending))

    def carry_on(self) -> None:
        """An adjourned game goes on (both players are back)."""
        ending = self.match.ending
        if ending is not None and ending.reason == "adjourned":
            self.match.ending = None
            self._changed(moved=False, save=False)

    def close(self) -> None:
        """The match is left: every seat stops."""
        self._stop_asking()
        for player in self.seats.values():
            player.close()

    def _changed(self, *, moved: bool, save: bool = True) -> None:
        self._stop_asking()
        self._report(RecordChanged(moved, save))
        ended = self.match.ended
        if ended is not None:  # (a loaded or resumed game may be over already)
            self._report(Ended(ended))
        self._ask()

    def _pause(self) -> None:
        if not self.paused:
            self.paused = True
            self._report(PauseChanged(True))

    def _report(self, event: Event) -> None:
        for watcher in self._watchers:
            watcher(event)

    # -- for plain tests and tools ----------------------------------------------------------

    def play_out(self, timeout: float = 600.0) -> bool:
        """Start and run the game to its end on this thread; False if it was
        not over within `timeout` seconds (a seat waits for a person, or the
        game was paused)."""
        self.start()
        return self.inbox.run(lambda: self.match.is_over or self.paused, timeout)
