"""The help screen: every key, generated from the bindings themselves."""

from __future__ import annotations

import textwrap
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.widgets import Static

from .dialog import Dialog

# Binding id prefix -> (heading, the game's action that opens it), in the order
# the help shows them. A section whose opener does nothing in this game (the lobby
# off a server, saving without files) is left out; the opener's key is shown
# ("(action)": the section needs what the action needs, but is not opened by it).
SECTIONS: dict[str, tuple[str, str | None]] = {
    "board": ("Playing", None),
    "game": ("Game", None),
    "review": ("History review", None),
    "log": ("Move log (tab to it)", None),
    "analysis": ("Analysis (in review or when the game is over)", None),
    "graph": ("Evaluation graph", "graph"),
    "table": ("At a table (playing someone on a server)", None),
    "lobby": ("Lobby, on a server", "lobby"),
    "invite": ("Invitation dialog (from a person in the lobby)", "lobby"),
    "standings": ("Leaderboard and profiles (t in the lobby)", "lobby"),
    "new-game": ("New-game dialog", "new_game"),
    "resume": ("At start, with an unfinished game", "(open_games)"),
    "save": ("Save dialog", "save_game"),
    "games": ("Saved games", "open_games"),
    "import": ("Import dialog (from the saved games, or paste a game)", "import"),
    "export": ("Export dialog", "export"),
    "export-file": ("Export dialog, in its file box", "export"),
    "settings": ("Settings dialog", "settings"),
    "app": ("Anywhere", None),
}

KEYS_WIDTH = 12

# Ways to play that are not a single key.
EXTRAS = (
    (
        "board",
        "a-h 1-8",
        "Type a square, e.g. d3, to play it, in the move log too; the cursor stays "
        "where it is, and an Enter straight after does nothing (h then a digit is "
        "column h; h alone moves the cursor left)",
    ),
    ("board", "click", "Click a square to play it; click a move in the log to review it"),
)


def _binding_classes(app: App[Any]) -> list[type[DOMNode]]:
    from ..widgets.board import BoardView
    from ..widgets.move_log import MoveLog
    from .eval_graph import EvalGraphScreen
    from .export import ExportScreen
    from .game import GameScreen
    from .import_game import ImportScreen
    from .invitation import InviteScreen
    from .lobby import LobbyScreen
    from .new_game import NewGameScreen
    from .resume import ResumeScreen
    from .save_game import SaveGameScreen
    from .saved_games import SavedGamesScreen
    from .settings import SettingsScreen
    from .standings import StandingsScreen

    return [
        BoardView,
        GameScreen,
        MoveLog,
        NewGameScreen,
        LobbyScreen,
        InviteScreen,
        StandingsScreen,
        ResumeScreen,
        SaveGameScreen,
        SavedGamesScreen,
        ImportScreen,
        ExportScreen,
        SettingsScreen,
        EvalGraphScreen,
        type(app),
    ]


def key_names(app: App, binding: Binding) -> list[str]:
    """How each key of `binding` is shown, after the app's keymap."""
    keymap: dict[str, str] = getattr(app, "keymap", {})  # GameApp keeps the one it is given
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    names = []
    for index, key in enumerate(part.strip() for part in keys.split(",")):
        if index == 0 and binding.key_display and keys == binding.key:
            names.append(app.get_key_display(binding))
        else:
            names.append(app.get_key_display(Binding(key, binding.action)))
    return names


class _Applies:
    """Whether a binding does anything in this game, asked of the nodes that
    own it (`check_action` False: not here; None, not now, still counts).
    Without a game on screen (the README's list) every binding counts."""

    def __init__(self, app: App[Any]) -> None:
        from ..widgets.board import BoardView
        from ..widgets.move_log import MoveLog
        from .game import GameScreen

        self.app = app
        self.nodes: dict[type[DOMNode], DOMNode] = {}
        self.game: GameScreen | None = None
        for screen in app.screen_stack:
            if isinstance(screen, GameScreen):
                self.game = screen
                for widget in (screen.query_one(BoardView), screen.query_one(MoveLog)):
                    self.nodes[type(widget)] = widget
            self.nodes.setdefault(type(screen), screen)  # the dialogs open now
        if self.game is not None:
            self.nodes[type(self.game)] = self.game
        self.nodes[type(app)] = app

    def action(self, action: str) -> bool:
        """Whether the game's `action` does anything in this game."""
        if self.game is None or not hasattr(self.game, f"action_{action}"):
            return True
        return self.app._check_action_state(action, self.game) is not False

    def binding(self, cls: type[DOMNode], binding: Binding) -> bool:
        node = self.nodes.get(cls)
        if node is not None:
            return self.app._check_action_state(binding.action, node) is not False
        # A dialog not open now: its key for one of the game's actions (the
        # new-game dialog's L, the lobby) does what that action does.
        name = binding.action.split("(")[0]
        return "." in name or self.action(name)


def _heading(app: App[Any], section: str) -> str:
    from .game import GameScreen

    heading, opener = SECTIONS.get(section, (section, None))
    for binding in GameScreen.BINDINGS:
        if isinstance(binding, Binding) and binding.action == opener:
            return f"{heading} ({' '.join(key_names(app, binding))})"
    return heading


def help_rows(app: App) -> list[tuple[str, str, str]]:
    """(section, keys, what it does) for every key binding that does anything
    in this game, grouped by section. The text is the binding's description,
    then its tooltip when it has one."""
    applies = _Applies(app)
    rows: list[tuple[str, str, str]] = list(EXTRAS)
    seen: set[str] = set()
    for cls in _binding_classes(app):
        for binding in cls.BINDINGS:
            if not isinstance(binding, Binding) or not binding.id or binding.id in seen:
                continue
            seen.add(binding.id)
            section = binding.id.split(".")[0]
            opener = (SECTIONS.get(section, ("", None))[1] or "").strip("()")
            if not applies.binding(cls, binding) or (opener and not applies.action(opener)):
                continue
            text = binding.description
            if binding.tooltip:
                text = f"{text}: {binding.tooltip[:1].lower()}{binding.tooltip[1:]}"
            keys = " ".join(key_names(app, binding))
            if rows and rows[-1][0] == section and rows[-1][2] == text:
                keys = f"{rows.pop()[1]} {keys}"  # two bindings, one job: one line
            rows.append((section, keys, text))
    if app.ENABLE_COMMAND_PALETTE:
        palette = Binding(app.COMMAND_PALETTE_BINDING, "command_palette")
        rows.append(
            (
                "app",
                " ".join(key_names(app, palette)),
                "Command palette: themes, ASCII board, animation, ...",
            )
        )
    order = list(SECTIONS)
    rows.sort(key=lambda row: order.index(row[0]) if row[0] in order else len(order))
    return [(_heading(app, section), keys, text) for section, keys, text in rows]


def section_of(screen: DOMNode) -> str | None:
    """The help's section for the keys of `screen`, if it is a dialog with
    keys of its own (over the game the help starts at the top)."""
    if not isinstance(screen, Dialog):
        return None
    for binding in type(screen).BINDINGS:
        if isinstance(binding, Binding) and binding.id:
            section = binding.id.split(".")[0]
            if section in SECTIONS and section != "app":
                return section
    return None


class HelpScreen(Dialog[None]):
    """Every key, by what it is for. Esc or ? closes. Opened over a dialog,
    it starts at that dialog's keys (`about`: a key of SECTIONS)."""

    BINDINGS = [
        Binding(
            "escape,question_mark,f1", "close", "Close help", id="help.close", key_display="esc"
        ),
        # j/k as well as the arrows (and PgUp/PgDn): the keys it lists for moving.
        # Before the list's own arrow keys (priority), which lose keys in a burst.
        Binding("down,j", "scroll(1)", "Scroll", id="help.down", key_display="↓/j", priority=True),
        Binding("up,k", "scroll(-1)", "Scroll up", id="help.up", show=False, priority=True),
    ]

    def __init__(self, about: str | None = None) -> None:
        super().__init__()
        self._about = about  # a section, until shown

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Static("Keys", id="dialog-title")
            with VerticalScroll(id="help-body"):
                yield Static(id="help-text")

    def on_resize(self) -> None:
        width = self.query_one("#help-body").content_region.width - 3  # scrollbar
        text = self._text(max(30, width))
        self.query_one("#help-text", Static).update(text)
        lines = text.plain.split("\n")
        heading = _heading(self.app, self._about) if self._about is not None else None
        if heading in lines:
            line = lines.index(heading)
            self._about = None  # once: later sizes keep where the reader is
            # After the refresh: only then is the new text's height known.
            body = self.query_one("#help-body")
            self.call_after_refresh(body.scroll_to, y=line, animate=False)

    def _text(self, width: int) -> Content:
        """The rows, each description wrapped under itself beside its keys."""
        lines: list[Content] = []
        section = None
        for heading, keys, text in help_rows(self.app):
            if heading != section:
                if section is not None:
                    lines.append(Content(""))
                lines.append(Content.from_markup("[b $accent]$h[/]", h=heading))
                section = heading
            wrapped = textwrap.wrap(text, max(10, width - KEYS_WIDTH - 3)) or [""]
            lines.append(
                Content.from_markup("  [b]$k[/b] $t", k=f"{keys:<{KEYS_WIDTH}}", t=wrapped[0])
            )
            lines.extend(Content(" " * (KEYS_WIDTH + 3) + more) for more in wrapped[1:])
        return Content("\n").join(lines)

    def action_scroll(self, lines: int) -> None:
        # At once: a deferred scroll starts from where the last one has not got to yet.
        self.query_one("#help-body").scroll_relative(y=lines, animate=False, immediate=True)

    def action_close(self) -> None:
        self.dismiss(None)
