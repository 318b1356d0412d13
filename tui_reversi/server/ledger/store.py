"""What a server keeps and shares beyond its own process, behind one interface:
`Store`. Two implement it: the archive's SQLite under the data directory
(archive.py; one machine, the default) and PostgreSQL (postgres.py; a fleet of
`serve` nodes on one database). The tables, the lobby and the sessions speak
only to a `Store`; the games never know which one it is.

What it holds: finished games and their results, ratings, the accounts (which
SSH keys are which name's: account_keys.py's `AccountStore`, a part of `Store`,
and the browsers bound to a name: browser_passes.py's `PassBook`),
the games kept not over (adjourned, or in play when last written), the players
waiting to be paired (seekers.py's `SeekerBook`, a part of `Store`), and, for a
fleet, each node's share of the lobby (who is there, which tables) and the
messages between nodes. On SQLite there are no other nodes: the fleet's part is empty. The
records that pass through it (`PlayedGame`, `UnfinishedGame`) are
declared here, beside the interface; those of the standings (`Results`,
`Standing`, `Profile`, `ArchivedGame`) in standings.py.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from ...core import Ending, Game
from ...net.terms import TimeControl
from .account_keys import AccountStore, KeyCodeStore
from .browser_passes import PassBook
from .fleet_messages import FleetMessage, Hearing
from .moderation import ModerationBook
from .penalties import PenaltyLedger
from .playbans import PlaybanBook
from .ratings import Rating
from .renames import RenameBook
from .seekers import SeekerBook
from .standings import ArchivedGame, Profile, Results, Standing
from .table_view import TableView
from .tournaments import TournamentBook


@dataclass(frozen=True, slots=True)
class Presence:
    """One person on a node, as the lobby shows them (lobby_host.py's `Doing`)."""

    name: str
    state: str
    text: str
    code: str | None
    node: str
    in_lobby: bool  # their own game shows the in-app lobby: they may be invited


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A table's finished game, as the server hands it to the archive."""

    code: str
    game: Game
    names: tuple[str, str]  # black, white
    started: datetime
    end: Ending
    rated: bool = True  # False: a casual tournament's game, kept but not rated


@dataclass(frozen=True, slots=True)
class UnfinishedGame:
    """A table's game that is not over, as it is kept to outlive the server."""

    code: str
    game: Game
    names: tuple[str, str]  # black, white
    time_control: TimeControl | None
    left: tuple[float, float]  # seconds on (Black's, White's) clock, stopped; (0, 0) without
    started: datetime
    adjourned: bool


class Store(
    AccountStore,
    PenaltyLedger,
    SeekerBook,
    PassBook,
    PlaybanBook,
    TournamentBook,
    ModerationBook,
    RenameBook,
    Protocol,
):
    """The server's state beyond its process, the accounts included (key_owner,
    keys_of, claim, add_key, remove_key: account_keys.py), the penalties of
    guessing (change_penalties: penalties.py), the pairing queue (seek, unseek,
    seekers, claim_pairs: seekers.py) and the browsers bound to names
    (issue_pass_code, trade_pass_code, pass_holder, ...: browser_passes.py) and the
    tournaments (new_tournament, entries, claim_pair, ...: tournaments.py) and what
    keeps the server civil (block, sanction, file_report, mod_log, ...: moderation.py;
    rename_player, renamed_away, ...: renames.py). Its
    storage methods are coroutines: on PostgreSQL they wait on the network without
    holding up the event loop, each statement within its timeout (node_link.py); on
    SQLite they run at once (a local file, quick). Methods raise StorageError (one
    sentence) when the store fails; keep() reports its problems instead, as it also
    writes the players' saved games."""

    @property
    def node(self) -> str:
        """This node's name in the fleet (one name on SQLite: there is no other)."""

    @property
    def alone(self) -> bool:
        """True if no other node can share this store (SQLite): a fleet of one."""

    @property
    def codes(self) -> KeyCodeStore:
        """Where the one-time codes to add a key wait (account_keys.py)."""

    @property
    def where(self) -> str:
        """Where the state is kept, for messages (never a password)."""

    async def look_alike(self, name: str) -> str | None:
        """The name someone has here that a reader could take `name` for (names.py),
        if `name` is not itself one someone has; else None."""

    async def enter_name(self, name: str, *, new: bool = False) -> str | None:
        """Keep `name` as someone's, unless a look-alike is: then that name (and
        `name` is not kept); None once `name` is someone's (now, or already: with
        `new`, a name kept already is refused too, and returned)."""

    async def leave(self) -> None:
        """Stop hearing messages: in a fleet, this node leaves it (its games become
        anyone's to take over). Then close()."""

    async def close(self) -> None:
        """Let go of the store."""

    # -- the archive --------------------------------------------------------------------

    async def keep(self, played: PlayedGame) -> list[str]:
        """Record a finished game (and forget it as unfinished); problems met, if any."""

    async def rating(self, name: str) -> Rating:
        """`name`'s Glicko-2 rating as of now (ratings.py; a new player's if none)."""

    async def ratings(self, names: Collection[str]) -> dict[str, Rating]:
        """Each of `names`' rating, as rating() gives it, read in one query (a lobby
        of N people is one round trip, not N)."""

    async def results(self, name: str) -> Results:
        """`name`'s wins, losses and draws at this server's tables."""

    async def records(self, names: Collection[str]) -> dict[str, Results]:
        """Each of `names`' results, as results() gives them, read in one query (the
        lobby's lookers: one round trip for all, not one each)."""

    # -- who is good here, and what a player has done (standings.py) ---------------------

    async def leaderboard(self, count: int) -> list[Standing]:
        """The `count` highest settled ratings (ratings.py), ranked, highest first."""

    async def profile(self, name: str, games: int) -> Profile | None:
        """`name`'s standing, rating history, record against frequent opponents and
        latest `games` games; None for a name that never finished a game here."""

    async def archived_game(self, game_id: int) -> ArchivedGame | None:
        """The finished game with that id, None if there is none."""

    # -- games not over -----------------------------------------------------------------

    async def save_table(self, unfinished: UnfinishedGame) -> None:
        """Keep a game not over yet (both seats taken), replacing what was kept of it;
        in a fleet, as this node's."""

    async def forget_table(self, code: str) -> None:
        """Forget a game kept not over that ends with no result to keep (no move played)."""

    async def unfinished_tables(self) -> tuple[list[UnfinishedGame], list[str]]:
        """The games kept not over that this node brings back when it starts (every
        one on SQLite; none in a fleet, where take_over() takes them one by one), and a
        sentence for each that cannot be read."""

    async def orphaned(self, name: str) -> list[UnfinishedGame]:
        """`name`'s games kept not over whose node has gone (a fleet's: stopped or
        killed), oldest first: any node may take them over."""

    async def take_over(self, code: str) -> UnfinishedGame | None:
        """Take table `code`'s game over from its gone node, for this node; None if
        no gone node's game has that code (another node took it first)."""

    async def hand_table(self, unfinished: UnfinishedGame, node: str) -> bool:
        """Keep a game not over as `node`'s from now on (this node drains and hands
        its tables over), as it is now; True if it was this node's to hand (False:
        another node keeps it, and nothing was written)."""

    async def holders(self, codes: list[str]) -> dict[str, str]:
        """Which node keeps each of these tables' games not over now (code -> node);
        a code whose game is not kept (it ended, or never was) is left out."""

    # -- the fleet: the lobby's shares and the messages between nodes --------------------

    async def share(self, people: list[Presence], tables: list[TableView]) -> None:
        """Tell the other nodes who is on this one and which tables it has."""

    async def shared(self) -> tuple[list[Presence], list[TableView]]:
        """Who is on the other live nodes and which tables they have."""

    async def send(self, node: str, message: FleetMessage) -> None:
        """Send `message` to `node` (in order: one node's messages arrive as sent)."""

    async def listen(self, heard: Hearing) -> None:
        """Start hearing the messages sent to this node: heard(Heard(node, message))
        for each (fleet_messages.py), LobbyChanged when another node's share of the
        lobby changes, and Down and Rejoined from this node itself."""

    async def live_nodes(self) -> set[str]:
        """The nodes up now, this one among them."""

    async def ping(self) -> None:
        """Ask the store the cheapest question there is: StorageError if it cannot answer."""
