"""At a server's table: the other person's name, news from the table (who
sat down, a refused move, a resignation, a player gone) and resigning. Outside
a table this part does nothing and its key is hidden."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textual.binding import Binding

from ...core import Color, Game
from ...match import Match
from ...net.remote import ClockReading, News, TableLink, TableState
from ...players.kinds import HUMAN, PERSON
from ...widgets.score import Clocks, ScorePanel
from ..chat import ChatScreen
from ..confirm import ConfirmScreen
from .status import EMPTY_SEAT

if TYPE_CHECKING:
    from .screen import GameScreen

TABLE_BINDINGS = [
    Binding("R", "resign", "Resign", id="table.resign", tooltip="Give the game up (asks first)"),
    Binding(
        "u",
        "takeback",
        "Take back",
        id="table.takeback",
        tooltip="Ask your opponent to let you take back your last move",
    ),
    Binding(
        "r",
        "rematch",
        "Rematch",
        id="table.rematch",
        tooltip="After the game: ask your opponent for another, colours changed",
    ),
    Binding(
        "slash",
        "chat",
        "Chat",
        id="table.chat",
        key_display="/",
        tooltip="Say one line to everyone at the table",
    ),
]

# Keys that would leave or rewrite the table's game: not at a table.
NOT_AT_TABLE = ("new_game", "open_games", "import", "continue_here")


class AtTable:
    """The table part of the game screen."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        # News that came before the screen was there to show it (a player sitting
        # down at the moment this game started), shown once it is.
        self._early: list[News] | None = []

    @property
    def link(self) -> TableLink | None:
        return self.screen.reversi_app.table

    @property
    def ended(self) -> str | None:
        """How the table's game ended, if it did (a resignation, a player gone)."""
        link = self.link
        return link.state.ended if link is not None else None

    @property
    def watching(self) -> bool:
        link = self.link
        return link is not None and link.state.colour is None

    def can_resign(self) -> bool:
        link = self.link
        return (
            link is not None
            and link.state.colour is not None
            and link.state.ended is None
            and not self.screen.match.is_over
        )

    def may_play(self) -> bool:
        """Whether the person at this keyboard may play a move now: away from a
        table, whenever the board allows; at one, on their turn in a game not over."""
        return self.link is None or (self.can_resign() and self.screen.match.human_to_move)

    def why_not_play(self) -> str | None:
        """Why the person at this keyboard cannot play at this table, if so."""
        if self.watching:
            return "You are watching: , and . step through the game, esc comes back."
        return self.ended

    def started(self) -> None:
        """The game is on the screen: name the players, and say where the table is."""
        link = self.link
        early, self._early = self._early or [], None
        if link is None:
            return
        self._show_names(link.state.names)
        self.screen.show()
        self.screen.call_after_refresh(link.begun)  # the board is drawn: clocks may start
        state = link.state
        if state.clock is not None:
            self._show_clocks(state.clock)
        if state.ended is not None:
            self.screen.say(state.ended)
        elif state.colour is None:
            black, white = state.names
            self.screen.say(
                f"Watching table {state.code}: {black} (Black) against {white} (White)."
            )
        elif "" in state.names:
            self.screen.say(
                f"Table {state.code}: a friend joins with  ssh -t{_port_option()} HOST join "
                f"{state.code}"
            )
        else:
            you, opponent = state.names[state.colour], state.names[state.colour.other]
            self.screen.say(
                f"Table {state.code}: you{_rated(state, you)} play {state.colour.label} "
                f"against {opponent}{_rated(state, opponent)}."
            )
        for news in early:
            self.news(news)

    def news(self, news: News) -> None:
        if self._early is not None:  # the screen is not drawn yet
            self._early.append(news)
            return
        screen = self.screen
        if news.clock is not None:
            self._show_clocks(news.clock)
        if news.names is not None:
            self._show_names(news.names)
            screen.show()
        if news.undone is not None:
            screen.back_to_ply(news.undone)
        if news.again:
            self._again()
        if news.asked:
            self._answer(news.text)
        if news.over:
            screen.thinking.stopped()
            screen.show()  # nothing more to play: no markers, no Enter to play
            screen.refresh_bindings()
        if news.text:
            screen.say(news.text, error=news.refused or news.over)

    def can_ask_takeback(self) -> bool:
        return self.can_resign()

    def ask_takeback(self) -> None:
        link = self.link
        if link is not None and self.can_ask_takeback():
            link.ask_takeback()

    def can_ask_rematch(self) -> bool:
        link = self.link
        return link is not None and link.state.colour is not None and self.ended is not None

    def ask_rematch(self) -> None:
        link = self.link
        if link is not None and self.can_ask_rematch():
            link.ask_rematch()

    def _again(self) -> None:
        """A rematch: a new game at the table, this player at the other colour."""
        from ..game_over import GameOverScreen

        link = self.link
        assert link is not None
        app = self.screen.app
        if isinstance(app.screen, GameOverScreen):  # the last game's result: done with
            app.screen.dismiss(None)
        you = link.state.colour
        if you is None:
            kinds = (PERSON, PERSON)
        else:
            kinds = (HUMAN, PERSON) if you == Color.BLACK else (PERSON, HUMAN)
        self.screen.begin(Match(*kinds, Game(link.state.variant), names=link.state.names))
        self._show_names(link.state.names)
        self.screen.refresh_bindings()

    def _answer(self, question: str) -> None:
        link = self.link
        assert link is not None

        def answered(yes: bool | None) -> None:
            link.answer(bool(yes))

        self.screen.app.push_screen(
            ConfirmScreen(f"{question} Allow it?", yes="Allow", no="Decline"), answered
        )

    def chat(self) -> None:
        link = self.link
        if link is None:
            return

        def typed(text: str | None) -> None:
            if text:
                link.say(text)

        self.screen.app.push_screen(ChatScreen(), typed)

    def resign(self) -> None:
        link = self.link
        if link is None or not self.can_resign():
            return

        def answered(yes: bool | None) -> None:
            if yes and self.can_resign():
                link.resign()

        self.screen.app.push_screen(
            ConfirmScreen("Resign this game? Your opponent wins.", yes="Resign", no="Play on"),
            answered,
        )

    def _show_clocks(self, clock: ClockReading) -> None:
        panel = self.screen.query_one(ScorePanel)
        panel.clocks = Clocks(clock.left, clock.running, panel.clock())

    def _show_names(self, names: tuple[str, str]) -> None:
        link = self.link
        assert link is not None
        you = link.state.colour
        shown = [name or EMPTY_SEAT for name in names]
        if you is not None:
            shown[you] = f"{shown[you]} (you)"
        self.screen.match.names = (shown[Color.BLACK], shown[Color.WHITE])


def _rated(state: TableState, name: str) -> str:
    """' (1516)': `name`'s rating on this server, if it sent one."""
    rating = state.ratings.get(name)
    return f" ({rating})" if rating is not None else ""


def _port_option() -> str:
    """' -p 2222' from the port this player reached the server on, if it was not 22."""
    words = os.environ.get("SSH_CONNECTION", "").split()
    port = words[3] if len(words) == 4 and words[3].isdigit() else "22"
    return "" if port == "22" else f" -p {port}"
