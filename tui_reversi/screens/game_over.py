"""Game over: who won, the score (WOF count and raw discs) or how the game
ended off the board, and what next."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from ..core import Color, Ending
from ..match import Match
from ..widgets.key_bar import KeyLine
from ..widgets.literal import Literal
from .dialog import Dialog


def result_lines(match: Match, ending: Ending) -> tuple[str, str]:
    """A headline ('You win!', 'White (Easy) wins', 'bob wins.') and the score
    in detail (with how the game ended off the board: a resignation, a flag...)."""
    winner = ending.winner
    if winner is None:
        headline = "A draw!" if ending.reason == "normal" else "No result."
    elif match.is_human(winner) and match.humans == 1:
        headline = "You win!"
    elif match.names[winner]:  # a person at a server's table, by name
        headline = f"{match.player_label(winner)} wins."
    elif match.humans == 1:
        headline = "The computer wins."
    else:
        headline = f"{winner.label} ({match.player_label(winner)}) wins!"
    result = match.game.result
    if ending.off_board or result is None:
        position = match.game.position
        black, white = position.count(Color.BLACK), position.count(Color.WHITE)
        detail = f"{ending.text or ending}\nDiscs on the board: Black {black} - {white} White"
        return headline, detail
    black, white = result.score(Color.BLACK), result.score(Color.WHITE)
    detail = f"Black {black} - {white} White"
    if (result.black_discs, result.white_discs) != (black, white):
        detail += f"  (discs on the board {result.black_discs}-{result.white_discs})"
    if match.variant.fewer_discs_win:
        detail += "\nAnti-Othello: the side with fewer discs wins."
    return headline, detail


class GameOverScreen(Dialog[str | None]):
    """Dismissed with 'new', 'review', 'analyse' or None (just look at the
    board); at a server's table, 'rematch' (asked of the opponent) or
    'leave' (its button) instead of 'new', and 'report' (the opponent, to the
    server's moderators: `!`)."""

    # Nothing focused: Enter closes rather than pressing a button by surprise.
    AUTO_FOCUS = ""

    BINDINGS = [
        Binding("n", "choose('new')", "New game", id="over.new"),
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("comma,v", "choose('review')", "Review", id="over.review", key_display=","),
        Binding("a", "choose('analyse')", "Analyse", id="over.analyse"),
        Binding(
            "exclamation_mark",
            "choose('report')",
            "Report",
            id="over.report",
            key_display="!",
            tooltip="Report your opponent to the server's moderators",
        ),
        Binding("escape,enter", "choose(None)", "Close", id="over.close", key_display="esc"),
        # At a table q leaves it, said so in the keys; elsewhere it quits as in every
        # dialog (these two replace the Dialog's binding of q).
        Binding("q", "choose('leave')", "Leave the table", id="over.leave"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    # The keys' line and bar: what to do next first, leaving last.
    KEY_BAR_ORDER = (
        "over.rematch",
        "over.new",
        "over.review",
        "over.analyse",
        "over.close",
        "over.report",
    )

    def __init__(
        self,
        match: Match,
        ending: Ending,
        *,
        at_table: bool = False,
        rematch: bool = False,
        ratings: str = "",
        report: str = "",
    ) -> None:
        super().__init__()
        self.headline, self.detail = result_lines(match, ending)
        self.ratings = ratings  # how a rated game moved both ratings, once the server says
        self.at_table = at_table
        self.rematch = rematch  # a player at the table (not a spectator) may ask for one
        self.report = report  # the opponent a player at a table may report ('': nobody)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                Content.from_markup("[b]Game over: $h[/b]", h=self.headline), id="dialog-title"
            )
            yield Literal(self.detail, id="result")
            ratings = Literal(self._ratings_text(), id="ratings")
            ratings.display = bool(self.ratings)  # (an unrated game: no line for it)
            yield ratings
            yield KeyLine(id="dialog-keys")
            with Horizontal(id="dialog-buttons"):
                if self.at_table:  # another game is asked for, not started
                    if self.rematch:
                        yield Button("Rematch", variant="primary", id="rematch")
                    yield Button("Review", id="review")
                    yield Button("Analyse", id="analyse")
                    yield Button("Leave", id="leave")
                else:
                    yield Button("New game", variant="primary", id="new")
                    yield Button("Review", id="review")
                    yield Button("Analyse", id="analyse")
                yield Button("Close", id="close")

    def show_ratings(self, text: str) -> None:
        """How the game moved both ratings ('alice 1516 (+16), bob 1484 (-16)')."""
        self.ratings = text
        shown = self.query_one("#ratings", Literal)
        shown.update(self._ratings_text())
        shown.display = bool(text)

    def _ratings_text(self) -> str:
        return f"Ratings: {self.ratings}" if self.ratings else ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters in (("new",), ("leave",)):
            return self.at_table == (parameters == ("leave",))
        if action == "choose" and parameters == ("rematch",):
            return self.rematch
        if action == "choose" and parameters == ("report",):
            return bool(self.report)
        return True

    def action_choose(self, choice: str | None) -> None:
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None if event.button.id == "close" else event.button.id)
