"""The settings: default players and variant, theme, ASCII board, legal-move
markers, animation. Kept in settings.toml; Enter saves, Esc leaves them."""

from __future__ import annotations

from dataclasses import fields, replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ..core import Variant
from ..players.kinds import KINDS, player_kind
from ..session import AUTO_THEME, Session, sentence
from ..storage import Settings, StorageError
from ..widgets.choice import ChoiceRow
from ..widgets.literal import Literal
from .form import FormScreen

ON_OFF = [("on", "On"), ("off", "Off")]
ANIMATION = [("auto", "Auto"), ("on", "On"), ("off", "Off")]

# Row id -> what the row is for, shown under the rows while it has focus.
DESCRIPTIONS = {
    "variant": "The variant of a new game started without the dialog.",
    "theme": "Default: the app's own colours, or 16 colours where the terminal has only those.",
    "ascii": "Draw everything with plain ASCII: X, O and dots, no box-drawing.",
    "legal_moves": "Mark the squares you may play.",
    "animation": "Turn flipped discs over visibly. Auto: off over SSH, on elsewhere.",
}

# How each command-line option is spelled, to say which ones hold for this run.
FLAGS = {
    "black": "--black",
    "white": "--white",
    "variant": "--variant",
    "theme": "--theme",
    "ascii": "--ascii",
    "animation": "--no-animation",
}


def _switch(value: bool | None) -> str:
    return "auto" if value is None else "on" if value else "off"


def _unswitch(text: str) -> bool | None:
    return None if text == "auto" else text == "on"


class SettingsScreen(FormScreen[dict | None]):
    """Dismissed with the settings the player changed ({} for none), or None."""

    BINDINGS = [
        Binding("enter", "submit", "Save", id="settings.save", key_display="⏎", priority=True),
        Binding("escape", "cancel", "Cancel", id="settings.cancel", key_display="esc"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.before = session.settings

    def compose(self) -> ComposeResult:
        settings = self.before
        levels = [(kind.name, kind.label) for kind in KINDS]
        variants = [(v.value, v.value.capitalize()) for v in Variant]
        themes = [(AUTO_THEME, "Default")] + [
            (name, name) for name in self.session.themes or () if name != AUTO_THEME
        ]
        if settings.theme not in dict(themes):
            themes.append((settings.theme, settings.theme))
        with Vertical(id="dialog"):
            yield Static("[b]Settings[/b]", id="dialog-title")
            yield ChoiceRow("Black", levels, settings.black, id="black")
            yield ChoiceRow("White", levels, settings.white, id="white")
            yield ChoiceRow("Variant", variants, settings.variant.value, id="variant")
            yield ChoiceRow("Theme", themes, settings.theme, compact=True, id="theme")
            yield ChoiceRow("ASCII", ON_OFF, _switch(settings.ascii), id="ascii")
            yield ChoiceRow("Markers", ON_OFF, _switch(settings.legal_moves), id="legal_moves")
            yield ChoiceRow("Animate", ANIMATION, _switch(settings.animation), id="animation")
            yield Literal(id="describe")
            yield Literal(self._held_note(), id="held")
            yield from self.footer(ok="Save")

    def _held_note(self) -> str:
        held = [FLAGS[key] for key in self.session.overrides if key in FLAGS]
        if not held:
            return ""
        return f"This run started with {', '.join(held)}: they hold until you quit."

    def on_mount(self) -> None:
        self.query_one("#black", ChoiceRow).focus()
        self._describe()

    def on_descendant_focus(self) -> None:
        self._describe()

    @on(ChoiceRow.Changed)
    def _describe(self) -> None:
        focused = self.focused
        if not isinstance(focused, ChoiceRow):
            text = ""
        elif focused.id in ("black", "white"):
            text = (
                f"{focused.label} in a new game started without the dialog: "
                f"{player_kind(focused.value).description}."
            )
        elif focused.id == "variant":
            text = f"{DESCRIPTIONS['variant']} {Variant.parse(focused.value).description}"
        elif focused.id is not None:
            text = DESCRIPTIONS[focused.id]
        else:
            return
        self.query_one("#describe", Literal).update(text)
        self.problem("")

    def chosen(self) -> Settings:
        def value(row: str) -> str:
            return self.query_one(f"#{row}", ChoiceRow).value

        return replace(  # (what the dialog does not show, the invitation's clock, stays)
            self.before,
            black=value("black"),
            white=value("white"),
            variant=Variant.parse(value("variant")),
            theme=value("theme"),
            ascii=value("ascii") == "on",
            legal_moves=value("legal_moves") == "on",
            animation=_unswitch(value("animation")),
        )

    def done(self) -> None:
        settings = self.chosen()
        try:
            note = self.session.save_settings(settings)
        except StorageError as error:
            self.problem(str(error))
            return
        if note:
            self.app.notify(sentence(note), severity="warning")
        changed = {
            field.name: getattr(settings, field.name)
            for field in fields(Settings)
            if getattr(settings, field.name) != getattr(self.before, field.name)
        }
        self.dismiss(changed)
