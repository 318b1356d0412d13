"""At a server's table: the other person's name, news from the table (who
sat down, a refused move, a resignation, a player gone), the clocks, chat,
and asking the server (resign, a takeback, a rematch). What the table
decides (a takeback, a rematch, an ending) the app hands to the referee
(`match.follow_table`); this part only shows it. Outside a table it does
nothing and its keys are hidden. The link is the screen's `link`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.binding import Binding

from ...core import Color
from ...net.remote import ClockReading, News, TableLink, rating_aside
from ...net.ssh_command import SSH_COMMAND_VARIABLE
from ...surroundings import current
from ...widgets.score import Clocks, ScorePanel
from ..chat import ChatScreen
from ..confirm import ConfirmScreen
from ..report import ReportScreen
from .status import EMPTY_SEAT
from .status_line import Say

if TYPE_CHECKING:
    from ...match import Match, Referee

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

CHAT_KEPT = 500  # lines of the table's chat kept to read back


class ResultDialog(Protocol):
    """The game-over dialog (end_of_game.py's `EndOfGame`), as the table uses it."""

    def set_aside(self) -> bool: ...

    def again(self, match: Match) -> None: ...

    def show_rating_changes(self, text: str) -> None: ...


class AtTable:
    """The table part of the game screen."""

    def __init__(
        self,
        link: Callable[[], TableLink | None],
        referee: Referee,
        app: App[Any],
        say: Say,
        *,
        panel: Callable[[], ScorePanel],
        result: ResultDialog,
        redraw: Callable[[], None],
        width: Callable[[], int],
    ) -> None:
        self._link = link
        self._referee = referee
        self._app = app
        self._say = say
        self._panel = panel  # the score panel, where the clocks are
        self._result = result
        self._redraw = redraw  # the names or ratings changed (they are the match's)
        self._width = width  # of the screen, for the invitation's sentence
        # The chat at this table so far, oldest first (the chat dialog shows it).
        self.said: list[str] = []
        # How the last rated game moved the ratings ('alice 1516 (+16), ...'), by game.
        self.rerated: tuple[int, str] | None = None
        # News that came before the screen was there to show it (a player sitting
        # down at the moment this game started), shown once it is.
        self._early: list[News] | None = []
        # The question before leaving a game that leaving loses, while it is up.
        self._asking: ConfirmScreen | None = None

    @property
    def link(self) -> TableLink | None:
        return self._link()

    @property
    def watching(self) -> bool:
        return self.link is not None and not self._referee.plays_here

    def ratings(self) -> tuple[str, str]:
        """Black's and White's ratings as the server wrote them ('1516', '1500?'); ''
        for a guest (unrated), a free seat, or away from a table."""
        link = self.link
        if link is None:
            return "", ""
        state = link.state
        black, white = (state.ratings.get(name, "") for name in state.names)
        return black, white

    def can_resign(self) -> bool:
        referee = self._referee
        return self.link is not None and referee.plays_here and not referee.match.is_over

    def why_not_play(self) -> str | None:
        """Why the person at this keyboard cannot play at this table, if so."""
        if self.watching:
            return "You are watching: , and . step through the game, esc comes back."
        ending = self._referee.match.ending
        return ending.text or str(ending) if ending is not None else None

    def started(self, after_refresh: Callable[[Callable[[], None]], object]) -> None:
        """The game is on the screen: name the players, and say where the table is;
        the table's clocks may start `after_refresh` (once the board is drawn)."""
        link = self.link
        early, self._early = self._early or [], None
        if link is None:
            return
        self._show_names(link.state.names)
        self._redraw()
        after_refresh(link.begun)  # the board is drawn: clocks may start
        state = link.state
        if state.clock is not None:
            self._show_clocks(state.clock)
        if state.ending is not None:
            self._say(state.ending.text)
        elif state.colour is None:
            black, white = state.names
            self._say(f"Watching table {state.code}: {black} (Black) against {white} (White).")
        elif "" in state.names:
            self._say(_invitation(state.code, self._width() - 2))
        else:
            you, opponent = state.names[state.colour], state.names[state.colour.other]
            rated = state.ratings
            # Where that is cut (60 columns), the opponent's mark is what must stay.
            colour, mark = state.colour.label, rating_aside(opponent, rated.get(opponent, ""))
            self._say(
                f"Table {state.code}: you{rating_aside(you, rated.get(you, ''))} play {colour} "
                f"against {opponent}{mark}.",
                narrow=f"You play {colour} against {opponent}{mark}.",
            )
        for news in early:
            self.news(news)

    def news(self, news: News) -> None:
        if self._early is not None:  # the screen is not drawn yet
            self._early.append(news)
            return
        if news.clock is not None:
            self._show_clocks(news.clock)
        elif news.over:  # (ended or adjourned, the server gone or not: no clock runs on)
            self._stop_clocks()
        if news.names is not None:
            self._show_names(news.names)
        if news.names is not None or news.rated:
            self._redraw()
        if news.asked:
            self._answer(news.text)
        if news.rerated:  # in the game-over dialog if it is up, and kept for when it opens
            self.rerated = (self._referee.match.game_id, news.text)
            self._result.show_rating_changes(news.text)
            self._say(f"Ratings: {news.text}")
            return
        if news.chat:  # kept to read in full: the status line cuts a long one
            self.said = [*self.said[-(CHAT_KEPT - 1) :], news.text]
        if news.text:
            self._say(news.text, error=news.refused or news.over)

    def can_ask_takeback(self) -> bool:
        return self.can_resign()

    def ask_takeback(self) -> None:
        link = self.link
        if link is not None and self.can_ask_takeback():
            link.ask_takeback()

    def can_ask_rematch(self) -> bool:
        """A player at a finished game whose opponent is still there to ask (not
        one they left, or did not come back to in time: both end `left`; nor one
        they were banned from the server during)."""
        ending = self._referee.match.ended
        return (
            self.link is not None
            and self._referee.plays_here
            and ending is not None
            and ending.reason not in ("adjourned", "left", "banned")
        )

    def ask_rematch(self) -> None:
        link = self.link
        if link is not None and self.can_ask_rematch():
            link.ask_rematch()

    def opponent(self) -> str:
        """The person across the table from this player ('' when watching, with the
        seat free, or away from a table): whom the game-over dialog may report."""
        link = self.link
        if link is None or link.state.colour is None:
            return ""
        return link.state.names[link.state.colour.other]

    def report(self) -> None:
        """Ask the reason (and words) for reporting the opponent, then send it; the
        server's answer comes as news."""
        link, name = self.link, self.opponent()
        if link is None or not name:
            return

        def chosen(report: tuple[str, str] | None) -> None:
            if report is not None:
                self._say(f"Reporting {name}…")
                link.report(*report)

        self._app.push_screen(ReportScreen(name), chosen)

    def _answer(self, question: str) -> None:
        link = self.link
        assert link is not None
        # One dialog at a time, the newer first: the result comes back if the answer is no.
        result_aside = self._result.set_aside()

        def answered(yes: bool | None) -> None:
            link.answer(bool(yes))
            if result_aside and not yes:
                self._result.again(self._referee.match)

        self._app.push_screen(
            ConfirmScreen(f"{question} Allow it?", yes="Allow", no="Decline"), answered
        )

    def chat(self) -> None:
        link = self.link
        if link is None:
            return

        def typed(text: str | None) -> None:
            if text:
                link.say(text)

        self._app.push_screen(ChatScreen(self.said), typed)

    def resign(self) -> None:
        link = self.link
        if link is None or not self.can_resign():
            return

        def answered(yes: bool | None) -> None:
            if yes and self.can_resign():
                link.resign()

        self._app.push_screen(
            ConfirmScreen("Resign this game? Your opponent wins.", yes="Resign", no="Play on"),
            answered,
        )

    def leave(self) -> None:
        """Quit the app. A game in progress with a move played is lost by leaving
        (the server counts it a forfeit): that asks first, and Esc plays on; a
        second quit while it asks leaves."""
        app = self._app
        opponent = self._leaving_loses_to()
        if opponent is None or app.screen is self._asking:
            app.exit()
            return

        def answered(yes: bool | None) -> None:
            self._asking = None
            if yes:
                app.exit()

        self._asking = ConfirmScreen(
            f"Leave the table? The game is lost to {opponent}.", yes="Leave", no="Play on"
        )
        app.push_screen(self._asking, answered)

    def _leaving_loses_to(self) -> str | None:
        """The opponent a quit now would lose the game to; None: it loses nothing
        (not at a table, watching, the game over or adjourned, no move played)."""
        link = self.link
        if link is None or not self.can_resign() or not self._referee.match.game.moves:
            return None
        colour = link.state.colour
        assert colour is not None  # (a player, not watching)
        return link.state.names[colour.other] or None

    def _show_clocks(self, clock: ClockReading) -> None:
        panel = self._panel()
        panel.clocks = Clocks(clock.left, clock.running, panel.clock())

    def _stop_clocks(self) -> None:
        """Stop the running clock where it stands now."""
        panel = self._panel()
        clocks = panel.clocks
        if clocks is None or clocks.running is None:
            return
        now = panel.clock()
        left = [clocks.left[0], clocks.left[1]]
        left[clocks.running] = max(0.0, left[clocks.running] - (now - clocks.reading))
        panel.clocks = Clocks((left[0], left[1]), None, now)

    def _show_names(self, names: tuple[str, str]) -> None:
        link = self.link
        assert link is not None
        you = link.state.colour
        shown = [name or EMPTY_SEAT for name in names]
        if you is not None:
            shown[you] = f"{shown[you]} (you)"
        self._referee.match.names = (shown[Color.BLACK], shown[Color.WHITE])


def _invitation(code: str, width: int) -> str:
    """'Table 5EMS7: a friend joins with  ssh -t games.example.org join 5EMS7': the
    command the server gave this game (net/ssh_command.py), for a friend to paste;
    the command alone where the sentence would not fit in `width` (cut, it is no use)."""
    ssh = current().get(SSH_COMMAND_VARIABLE)
    if not ssh:  # (not started by a server)
        return f"Table {code}: a friend joins with its code, {code}."
    command = f"{ssh} join {code}"
    sentence = f"Table {code}: a friend joins with  {command}"
    return sentence if len(sentence) <= width else command
