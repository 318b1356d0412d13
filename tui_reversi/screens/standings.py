"""The leaderboard and a player's profile, from the lobby on a server: the same
rows `ssh host top` and `ssh host player NAME` print (the server sends them,
net/lobby_link.py's `Page`). ⏎ on a player opens their profile; on a game
in a profile, that game for review (the server ends this game, saved, opens
the archived one, then brings the player back); Esc goes back to the lobby."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..net.lobby_link import LobbyLink, Page
from ..widgets.literal import Literal
from .blocking import block_someone
from .report import report_someone
from .row_dialog import RowDialog

PLAYER_KEY = "player:"
GAME_KEY = "game:"
# A tournament in the list (its page opens), and a tournament's own first row (asked again).
TOURNAMENT_KEY = "tournament:"
STANDINGS_OF = "standings-of:"


class StandingsScreen(RowDialog):
    """One page of the standings (the leaderboard, a profile); dismissed with Esc."""

    BINDINGS = [
        Binding(
            "enter",
            "choose",
            "Open",
            id="standings.choose",
            key_display="⏎",
            tooltip="The player's profile (rating history, record, latest games); a game to review",
        ),
        Binding(
            "b",
            "block",
            "Block",
            id="standings.block",
            tooltip="Block the player: no invitations, chat or pairing between you",
        ),
        Binding(
            "r",
            "report",
            "Report",
            id="standings.report",
            tooltip="Report the player to the server's moderators, with a reason",
        ),
        Binding(
            "u",
            "unblock",
            "Unblock",
            id="standings.unblock",
            tooltip="Unblock the player you blocked",
        ),
        Binding("down,j", "cursor(1)", "Next", id="standings.down", show=False),
        Binding("up,k", "cursor(-1)", "Previous", id="standings.up", show=False),
        Binding("escape", "close", "Back to the lobby", id="standings.close", key_display="esc"),
    ]

    # Block and report give way first where the bar is narrow.
    KEY_BAR_ORDER = ("standings.choose", "standings.close")

    def __init__(self, link: LobbyLink, page: Page) -> None:
        super().__init__()
        self.link = link
        self.page = page

    def compose(self) -> ComposeResult:
        with Vertical(id="standings-dialog"):
            yield Static(id="dialog-title")
            yield OptionList(id="standings-list")
            yield Literal(id="problem")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(OptionList).focus()
        self.show_page(self.page)

    def show_page(self, page: Page) -> None:
        """Show `page` in place of the one shown, the cursor on its first player."""
        self.page = page
        self.query_one("#dialog-title", Static).update(
            Content.from_markup("[b]$title[/b]", title=page.title)
        )
        options = self.query_one(OptionList)
        options.set_options(
            Option(Content(text), id=key, disabled=key is None) for key, text in page.rows
        )
        choosable = [index for index, (key, _) in enumerate(page.rows) if key is not None]
        if choosable:
            options.highlighted = choosable[0]
        self.say("")

    def say(self, text: str) -> None:
        """One sentence under the list (a refusal, or what is being asked)."""
        self.query_one("#problem", Literal).update(text)

    def action_block(self) -> None:
        name = self._player("block")
        if name is not None:
            block_someone(self, self.link, name, self.say)

    def action_unblock(self) -> None:
        name = self._player("unblock")
        if name is not None:
            self.say(f"Unblocking {name}…")
            self.link.unblock(name)

    def action_report(self) -> None:
        name = self._player("report")
        if name is not None:
            report_someone(self, self.link, name, self.say)

    def _player(self, doing: str) -> str | None:
        """The player on the highlighted row, someone else; or None, and why not said."""
        highlighted = self.query_one(OptionList).highlighted_option
        key = highlighted.id or "" if highlighted is not None else ""
        if not key.startswith(PLAYER_KEY):
            self.say(f"Choose a player to {doing}.")
        elif key.removeprefix(PLAYER_KEY) == self.link.name:
            self.say("That is you.")
        else:
            return key.removeprefix(PLAYER_KEY)
        return None

    def chosen(self, key: str) -> None:
        if key.startswith(PLAYER_KEY):
            name = key.removeprefix(PLAYER_KEY)
            self.say(f"Asking the server for {name}'s profile…")
            self.link.player(name)
        elif key.startswith(TOURNAMENT_KEY) or key.startswith(STANDINGS_OF):
            number = key.partition(":")[2]
            self.say(f"Asking the server for tournament {number}…")
            self.link.tournament(int(number))
        elif key.startswith(GAME_KEY):
            game_id = key.removeprefix(GAME_KEY)
            self.say(f"Opening game {game_id} for review (your game is saved)…")
            self.link.replay(game_id)
