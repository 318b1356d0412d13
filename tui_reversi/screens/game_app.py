"""The app as the screens know it: what they ask of it beyond Textual's `App`.

Screens never import the app (it imports them); they cast `self.app` to
`GameApp`, and `ReversiApp` is checked against it where it is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..core import Position, Variant
from ..players import MoveScore
from ..players.base import CancelCheck

if TYPE_CHECKING:
    from ..match import Match, Referee
    from ..net.lobby_link import LobbyLink
    from ..net.remote import TableLink
    from ..session import Session
    from ..storage.settings import Settings

# The hint's search: best moves first, stopping when asked.
HintEngine = Callable[[Position, Variant, CancelCheck], list[MoveScore]]


class LobbyDoor(Protocol):
    """What the game screen asks of the lobby (lobby.py's `Invitations`): to open
    it, and the player's name there. (A Protocol, so that this module imports no
    screen: the dialogs import it.)"""

    link: LobbyLink

    def open_lobby(self) -> None: ...


class GameApp(Protocol):
    """The live game, the player's settings and files, and the app-wide look."""

    referee: Referee
    settings: Settings
    session: Session | None  # the player's files; None: nothing is kept
    table_link: TableLink | None  # at a server's table: the line to it
    clock: Callable[[], float]
    hint_engine: HintEngine
    keymap: dict[str, str]  # binding id -> keys, as given to `set_keymap`

    @property
    def invitations(self) -> LobbyDoor | None:
        """On a server, in the player's own game: the lobby."""
        ...

    @property
    def match(self) -> Match: ...

    @property
    def flips_animated(self) -> bool: ...

    def text(self, text: str) -> str:
        """`text` as the terminal should get it (ASCII mode spells symbols out)."""
        ...

    def change_settings(self, **changes: Any) -> None:
        """Settings changed in the app: they apply now and are saved."""
        ...

    def settings_saved(self, changed: dict[str, Any]) -> None:
        """The settings dialog saved `changed`: they apply now."""
        ...
