"""A tournament on a server, from the lobby (`T`, then ⏎ on one): its screen of
its own, asked for again every REFRESH seconds while it is shown. Its first row
is the player in it (the time left, their place, their next game, or how to
join), then the standings; the rows are the server's (net/lobby_link.py's
`Page`), shown literally. ⏎ on a player opens their profile; ⏎ on the row that
says how to join joins it (the server ends this game, saved, and brings the
player back to it once they leave the tournament); Esc goes back."""

from __future__ import annotations

from textual.widgets import OptionList

from ..net.lobby_link import LobbyLink, Page
from .standings import STANDINGS_OF, StandingsScreen

# The row that joins the tournament (or comes back to it, paused).
JOIN_KEY = "join-tournament:"

# How often the shown tournament is asked for again (seconds).
REFRESH = 2.0


def tournament_of(page: Page) -> int | None:
    """The number of the tournament `page` is the page of, if it is one."""
    key = page.rows[0][0] if page.rows else None
    if key is None or not key.startswith(STANDINGS_OF):
        return None
    number = key.removeprefix(STANDINGS_OF)
    return int(number) if number.isdigit() else None


class TournamentScreen(StandingsScreen):
    """One tournament: the player in it and the standings, kept up to date."""

    def __init__(self, link: LobbyLink, page: Page, number: int) -> None:
        super().__init__(link, page)
        self.number = number

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(REFRESH, self._ask_again)

    def _ask_again(self) -> None:
        if self.app.screen is self:  # (not under a profile opened from it)
            self.link.tournament(self.number)

    def chosen(self, key: str) -> None:
        if not key.startswith(JOIN_KEY):
            super().chosen(key)
            return
        self.say(f"Joining tournament {self.number} (your game is saved)…")
        self.link.join_tournament(self.number)

    def show_page(self, page: Page) -> None:
        """The page again, the cursor kept on the row it was on."""
        options = self.query_one(OptionList)
        kept = options.highlighted
        super().show_page(page)
        if kept is not None and kept < len(page.rows) and page.rows[kept][0] is not None:
            options.highlighted = kept
