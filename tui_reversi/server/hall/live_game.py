"""A player's one live game, as a new session of theirs meets it: found open in
another session (here, or on another node in a fleet), the player asked what
to do about it (take_over_question.py, held by session_phases.py's `Asking`),
their answer acted on, and the game taken over from another node
(take_over_elsewhere.py).
"""

from __future__ import annotations

from collections.abc import Callable

from ..config import format_duration
from .session_limits import AGAIN
from .session_owner import Owner
from .session_phases import ENDED, Asking, Gone, Goodbye, Phase
from .session_terminal import PlayerTerminal
from .sessions import HallSession
from .take_over_elsewhere import GameElsewhere, game_on_other_node, take_game_from
from .take_over_question import TakeOverQuestion

# Where a player's live game is open: a session here, or one on another node.
Elsewhere = HallSession | GameElsewhere


class LiveGame:
    """`session`'s view of its player's live game: `find` it, `ask` about it,
    `take_from` another node. The session gives it how to `begin` a game (its
    options, the session whose game it takes over, whether it is separate), to
    `enter` a phase, to `cancel_timers` once answered, what to do when the
    player goes while asked (`gone`), and to say `goodbye`."""

    def __init__(
        self,
        owner: Owner,
        session: HallSession,
        terminal: PlayerTerminal,
        *,
        begin: Callable[[list[str], Elsewhere | None, bool], None],
        enter: Callable[[Phase], None],
        cancel_timers: Callable[[], None],
        gone: Gone,
        goodbye: Goodbye,
    ) -> None:
        self._owner = owner
        self._session = session
        self._terminal = terminal
        self._begin, self._enter, self._cancel_timers = begin, enter, cancel_timers
        self._gone, self._goodbye = gone, goodbye
        # The player's game on another node, as last found (the question compares it).
        self._elsewhere: GameElsewhere | None = None
        self._question: TakeOverQuestion | None = None
        self._options: list[str] = []

    def find(self) -> Elsewhere | None:
        """The player's game open in another session: their own game, or else a
        seat at a table they sat down at from a command (`join CODE`, `table`,
        `resume`), which a take-over sits back down at; in a fleet, such a seat
        or their own game in a session on another node."""
        arcade = self._owner.arcade
        player = self._session.player
        here = arcade.sessions.own(player) or arcade.sessions.at_table(player, self._session)
        if here is not None:
            return here
        found = game_on_other_node(arcade.fleet, player, self._elsewhere)
        if found is not None:
            self._elsewhere = found
        return found

    def ask(self, other: Elsewhere, options: list[str]) -> None:
        """Tell the player their game is open elsewhere and ask what to do; the
        game they choose starts with `options`."""
        self._options = options
        question = TakeOverQuestion(other, say=self._terminal.say, unanswered=self._no_answer)
        self._question = question
        self._enter(Asking(question, answered=self._answered, gone=self._gone))
        question.start()

    async def take_from(self, other: GameElsewhere) -> str | None:
        """Take the player's game over from their session on another node: this
        session's secret for its seat at a table there, or None for their own game
        (put in their folder here, to be resumed) or a game gone meanwhile."""
        arcade = self._owner.arcade
        session = self._session
        secret, said = await take_game_from(
            arcade.fleet,
            arcade.tables,
            arcade.config.players_dir,
            other,
            session.player,
            session.address,
        )
        if said is not None:
            self._terminal.say(f"tui-reversi: {said}")
        return secret

    def _answered(self, answer: str) -> None:
        """The player answered the question about their game open elsewhere."""
        assert self._question is not None  # (asked before any answer)
        other = self._question.other
        self._enter(ENDED)
        self._cancel_timers()
        options = [option for option in self._options if option not in ("--new", "--resume")]
        live = self.find()
        if answer == "leave":
            said = "your game carries on in the other session."
            self._goodbye("left the game open in another session", said, 0)
        elif answer == "separate":
            self._terminal.say("tui-reversi: starting a separate game...")
            self._begin([*options, "--new"], None, True)
        elif live is not None and live is not other:
            self.ask(live, self._options)  # someone else took it over meanwhile: ask again
        else:
            self._terminal.say("tui-reversi: taking your game over...")
            self._begin([*options, "--resume"], live, False)

    def _no_answer(self, wait: float) -> None:
        said = f"no answer in {format_duration(wait)}; {AGAIN}"
        self._goodbye("no answer about the game open elsewhere", said, 1)
