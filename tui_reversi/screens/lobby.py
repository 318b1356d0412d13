"""The lobby, on a server, and `Invitations`, the app's part that takes the
lobby's news (the lobby redrawn, an invitation come, an answer, a seat at a
table) to whatever screen is in front.

The lobby screen shows who is here and what each is doing, the tables in
progress (to watch), the open ones (to sit at), this player's adjourned games
(to resume) and their record. Enter on a person invites them; on a table,
watches it, sits at it or resumes it. The server sends the lobby again
whenever it changes while it is on screen; rows that did not change stay."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..net.lobby_link import Invitation, LobbyLink, LobbyNews, LobbyView, Page
from ..net.remote import GUEST_UNRATED, is_guest, shown_name
from ..net.terms import TableTerms
from ..widgets.literal import Literal
from .blocking import block_someone
from .invitation import InvitedScreen, InviteScreen, WaitingScreen
from .report import report_someone
from .row_dialog import RowDialog
from .standings import StandingsScreen
from .tournament import TournamentScreen, tournament_of

if TYPE_CHECKING:
    from textual.app import App

    from .game_app import GameApp

ScreenType = TypeVar("ScreenType")

# On the game screen: the key that opens the lobby when served; elsewhere the
# same key (not in the key bar) says there is none.
LOBBY_TOOLTIP = "Who is on the server, invitations, tables to watch or join (when served)"
LOBBY_BINDINGS = [
    Binding("L", "lobby", "Lobby", id="lobby.open", tooltip=LOBBY_TOOLTIP),
    Binding("L", "no_lobby", "Lobby", id="lobby.open", tooltip=LOBBY_TOOLTIP, show=False),
]
# Said by that key where there is no lobby.
NO_LOBBY = "The lobby exists only on a tui-reversi server: connect with ssh to play people there."

NAME_WIDTH = 16  # the names' column, as in `ssh host lobby`
RATING_WIDTH = 5  # the ratings' column beside it: '1516', '1500?'

# Each kind of table: its heading and what Enter does there.
TABLE_SECTIONS = (
    ("playing", "Tables in progress (⏎ watches)", "watch"),
    ("open", "Open tables (⏎ sits down)", "sit"),
    ("adjourned", "Your adjourned games (⏎ resumes)", "sit"),
)


class LobbyScreen(RowDialog):
    """The lobby; dismissed with Esc. Invitations go out through `link`."""

    BINDINGS = [
        Binding(
            "enter",
            "choose",
            "Choose",
            id="lobby.choose",
            key_display="⏎",
            tooltip="Invite the person, watch the table, sit at the open one, resume yours",
        ),
        Binding(
            "t",
            "top",
            "Top players",
            id="lobby.top",
            tooltip="The leaderboard; ⏎ on a player there opens their profile",
        ),
        Binding(
            "T",
            "tournaments",
            "Tournaments",
            id="lobby.tournaments",
            tooltip="The arenas and Swiss events here; ⏎ on one shows its standings",
        ),
        Binding(
            "b",
            "block",
            "Block",
            id="lobby.block",
            tooltip="Block the person: no invitations, chat or pairing between you "
            "(u takes it back)",
        ),
        Binding(
            "r",
            "report",
            "Report",
            id="lobby.report",
            tooltip="Report the person to the server's moderators, with a reason",
        ),
        Binding(
            "u",
            "unblock",
            "Unblock",
            id="lobby.unblock",
            tooltip="Unblock the person you blocked",
        ),
        Binding("down,j", "cursor(1)", "Next", id="lobby.down", show=False),
        Binding("up,k", "cursor(-1)", "Previous", id="lobby.up", show=False),
        Binding("escape", "close", "Back to the game", id="lobby.close", key_display="esc"),
        Binding("question_mark", "app.help", "Help", id="lobby.help", key_display="?"),
    ]

    # Block and report give way first where the bar is narrow (60 columns): the
    # others are how the lobby is used at all.
    KEY_BAR_ORDER = ("lobby.choose", "lobby.top", "lobby.close", "lobby.help")

    def __init__(self, link: LobbyLink, view: LobbyView | None = None) -> None:
        super().__init__()
        self.link = link
        self.view = view
        self._rows: list[tuple[str | None, Content]] = []  # (id, prompt); id None: a heading

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-dialog"):
            yield Static("[b]Lobby[/b]", id="dialog-title")
            yield OptionList(id="lobby-list")
            yield Literal(id="lobby-record")
            yield Literal(id="problem")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(OptionList).focus()
        self.query_one("#dialog-title", Static).update(
            Content.from_markup(
                "[b]Lobby[/b] · you are $name on this server", name=shown_name(self.link.name)
            )
        )
        if self.view is not None:
            self.show_view(self.view)
        else:
            self.query_one("#lobby-record", Literal).update("Asking the server who is here…")
        self.link.look()

    def on_unmount(self) -> None:
        self.link.look(False)

    # -- what the server says ----------------------------------------------------------

    def show_view(self, view: LobbyView) -> None:
        """Show `view`; only rows that changed are redrawn, the cursor stays on its row."""
        self.view = view
        rows = self._rows_for(view)
        options = self.query_one(OptionList)
        if rows != self._rows:
            highlighted = options.highlighted_option
            keep = highlighted.id if highlighted is not None else None
            self._rows = rows
            options.set_options(
                Option(prompt, id=row_id, disabled=row_id is None) for row_id, prompt in rows
            )
            ids = [row_id for row_id, _ in rows]
            chosen = [i for i, row_id in enumerate(ids) if row_id is not None]
            if keep is not None and keep in ids:
                options.highlighted = ids.index(keep)
            elif chosen:
                options.highlighted = chosen[0]
        games = "game" if view.games == 1 else "games"
        record = view.record or "no games yet"
        text = f"Your record here: {record}; rating {view.rating} after {view.games} rated {games}."
        if view.last:  # (as `ssh host lobby` says it, written by the server)
            text = f"{text}\n{view.last}"
        if is_guest(self.link.name):
            text = GUEST_UNRATED
        shown = self.query_one("#lobby-record", Literal)
        if str(shown.content) != text:  # (unchanged: not redrawn)
            shown.update(text)

    def say(self, text: str, *, error: bool = False) -> None:
        """One sentence under the list (the answer to an invitation, a refusal)."""
        problem = self.query_one("#problem", Literal)
        problem.update(text)
        problem.set_class(not error, "-news")

    def _rows_for(self, view: LobbyView) -> list[tuple[str | None, Content]]:
        rows: list[tuple[str | None, Content]] = [(None, _heading("People here (⏎ invites)"))]
        for person in view.people:
            you = " (you)" if person.name == self.link.name else ""
            name = _cut(shown_name(person.name), NAME_WIDTH - len(you)) + you
            # A guest's column is empty: guests play unrated (the name says guest-).
            rating = view.ratings.get(person.name, "")
            # The words say the state ("at table K7QP2 (Black), against bob"), but for free.
            doing = f"free, {person.text}" if person.state == "free" else person.text
            text = f"{name:<{NAME_WIDTH}} {rating:>{RATING_WIDTH}}  {doing}"
            rows.append((f"person:{person.name}", Content(text)))
        for kind, heading, _ in TABLE_SECTIONS:
            tables = [table for table in view.tables if table.kind == kind]
            if tables:
                rows.append((None, _heading(heading)))
                rows += [
                    (f"{kind}:{t.code}", Content(f"{t.code}  {t.describe(view.ratings)}"))
                    for t in tables
                ]
        if view.reports:  # (a moderator's lobby: read here, acted on with `ssh host mod`)
            rows.append((None, _heading("Open reports (ssh host mod reports, mod ban...)")))
            for report in view.reports:
                said = f": {report.words}" if report.words else ""
                text = f"{report.id:>4} {report.reporter} on {report.name}, {report.reason}{said}"
                rows.append((f"report:{report.id}", Content(text)))  # (literally)
        return rows

    # -- keys ----------------------------------------------------------------------------

    def action_top(self) -> None:
        self.say("Asking the server for the leaderboard…")
        self.link.top()

    def action_block(self) -> None:
        name = self._person("block")
        if name is not None:
            block_someone(self, self.link, name, self.say)

    def action_unblock(self) -> None:
        name = self._person("unblock")
        if name is not None:
            self.say(f"Unblocking {shown_name(name)}…")
            self.link.unblock(name)

    def action_report(self) -> None:
        name = self._person("report")
        if name is not None:
            report_someone(self, self.link, name, self.say)

    def _person(self, doing: str) -> str | None:
        """The person on the highlighted row, someone else; or None, and why not said."""
        highlighted = self.query_one(OptionList).highlighted_option
        kind, _, name = (highlighted.id or "").partition(":") if highlighted else ("", "", "")
        if kind != "person":
            self.say(f"Choose a person to {doing}.", error=True)
        elif name == self.link.name:
            self.say("That is you.", error=True)
        else:
            return name
        return None

    def action_tournaments(self) -> None:
        self.say("Asking the server for its tournaments…")
        self.link.tournaments()

    def chosen(self, row_id: str) -> None:
        kind, _, key = row_id.partition(":")
        if kind == "person":
            self._invite(key)
            return
        if kind == "report":
            self.say(f"Act on report {key} with  ssh host mod ban|mute|dismiss ...")
            return
        verb = next(verb for section, _, verb in TABLE_SECTIONS if section == kind)
        if verb == "watch":
            self.say(f"Going to watch table {key}…")
            self.link.watch(key)
        else:
            self.say(f"Sitting down at table {key}…")
            self.link.sit(key)

    def _invite(self, name: str) -> None:
        if name == self.link.name:
            self.say("That is you: choose someone else to invite.", error=True)
            return
        person = next((p for p in self.view.people if p.name == name), None) if self.view else None
        if person is not None and person.state != "free":
            self.say(f"{name} is {person.text}: invite them when they are free.", error=True)
            return

        app = cast("GameApp", self.app)

        def chosen(terms: TableTerms | None) -> None:
            if terms is None:
                return
            self.say(f"Inviting {name}…")
            self.link.invite(name, terms)
            clock = str(terms.clock) if terms.clock is not None else ""
            if clock != app.settings.clock:  # offered first next time
                app.change_settings(clock=clock)

        rating = self.view.ratings.get(name, "") if self.view is not None else ""
        self.app.push_screen(InviteScreen(name, rating, app.settings.clock), chosen)


def _heading(text: str) -> Content:
    return Content.styled(text, "bold $text-accent")


def _cut(name: str, width: int) -> str:
    """`name`, cut to `width` columns (its last one '…') if it is longer: the rating
    beside it stays in its column."""
    return name if len(name) <= width else f"{name[: width - 1]}…"


class Invitations:
    """The app's side of the lobby: opens it, and brings its news to the screens."""

    def __init__(self, app: App[Any], link: LobbyLink) -> None:
        self.app = app
        self.link = link
        self.view: LobbyView | None = None  # the lobby as last sent
        self.closed = False  # the server's lobby has gone

    def open_lobby(self) -> None:
        if self.closed:
            self.app.notify("The server's lobby has closed.", severity="warning")
        elif self._find(LobbyScreen) is None:
            self.app.push_screen(LobbyScreen(self.link, self.view))

    def news(self, news: LobbyNews) -> None:
        """Take one piece of the lobby's news to where the player sees it."""
        if news.view is not None:
            self.view = news.view
            lobby = self._find(LobbyScreen)
            if lobby is not None:
                lobby.show_view(news.view)
        if news.page is not None:
            self._show_page(news.page)
        if news.invited is not None:
            self._invited(news.invited)
        if news.waiting is not None:
            rating = self.link.ratings.get(news.waiting, "")
            self.app.push_screen(WaitingScreen(news.waiting, rating), self._withdrawn_or_not)
            return
        if news.withdrawn is not None:
            asked = self._find(InvitedScreen)
            if asked is not None and asked.invitation.number == news.withdrawn:
                asked.dismiss(None)
        if news.text and not news.refused:  # an answer: no more waiting for it
            waiting = self._find(WaitingScreen)
            if waiting is not None:
                waiting.dismiss(False)
        if news.closed:
            self.closed = True
        if news.go is not None:
            self.app.exit()  # the session seats the player at the table next
            return
        if news.text:
            self._say(news.text, error=news.refused or news.closed)

    def _show_page(self, page: Page) -> None:
        """The leaderboard, a profile or the tournaments asked for: in the standings
        screen, opened if not; a tournament's page in its screen of its own."""
        number = tournament_of(page)
        if number is not None:
            tournament = self._find(TournamentScreen)
            if tournament is not None and self.app.screen is tournament:
                tournament.show_page(page)
            elif self._find(LobbyScreen) is not None:
                self.app.push_screen(TournamentScreen(self.link, page, number))
            return
        shown = self._find(StandingsScreen)
        if shown is not None and self.app.screen is shown:
            shown.show_page(page)
        elif self._find(LobbyScreen) is not None:
            self.app.push_screen(StandingsScreen(self.link, page))

    def _invited(self, invitation: Invitation) -> None:
        def answered(yes: bool | None) -> None:
            if yes is not None:  # (None: withdrawn or lapsed meanwhile)
                self.link.answer(invitation.number, yes)

        self.app.bell()
        self.app.push_screen(InvitedScreen(invitation), answered)

    def _withdrawn_or_not(self, withdraw: bool | None) -> None:
        if withdraw:
            self.link.withdraw()

    def _say(self, text: str, *, error: bool) -> None:
        standings = self._find(StandingsScreen)
        if standings is not None and self.app.screen is standings:
            standings.say(text)
            return
        lobby = self._find(LobbyScreen)
        if lobby is not None and self.app.screen is lobby:
            lobby.say(text, error=error)
        else:
            self.app.notify(text, severity="warning" if error else "information", timeout=8)

    def _find(self, kind: type[ScreenType]) -> ScreenType | None:
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, kind):
                return screen
        return None
