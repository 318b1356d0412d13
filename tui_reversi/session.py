"""What one run of tui-reversi keeps on disk: the game in progress (autosaved
after every change), the saved games and the settings.

The CLI builds it before the app starts; the app calls it; no Textual here,
so tests drive it with temporary directories::

    session = Session.start(load=..., resume=..., new=..., variant=..., themes=...)
    settings = session.settings_for(command_line_options)  # settings, then the flags
    match = session.start_match(black=..., white=...)      # loaded, resumed or offered
    app = create_app(settings=settings, match=match, session=session)
    app.run()
    session.close()                                       # the last autosave is on disk

`session.offer` is an unfinished game to offer before play starts (the
app's Resume / New game question); `session.notes` are one-sentence
messages for the app to show once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import fields, replace
from pathlib import Path
from typing import IO, Any

from .core import Variant
from .core.errors import reason, sentence
from .match import Match
from .players.analysis import GameAnalysis
from .storage import (
    Autosave,
    AutosaveWriter,
    SavedGame,
    SavedGameEntry,
    SavedGames,
    Settings,
    StorageError,
    import_game,
    load_settings,
    plan_start,
    reattach_terminal_stdin,
    save_settings,
    settings_path,
)
from .storage.record import new_id

PREVIOUS_NAME = "Previous autosave"  # how the load list shows autosave.previous.json
EARLIER_NAME = "Earlier autosave"  # ... and those in earlier-autosaves/
AUTO_THEME = "default"  # in settings.toml: the app picks (its own, or a 16-colour one)


class Session:
    """The player's files for one run of the app."""

    def __init__(
        self,
        *,
        autosave: Autosave | None = None,
        games: SavedGames | None = None,
        settings: Settings | None = None,
        settings_file: Path | None = None,
        themes: Collection[str] | None = None,
        notes: Collection[str] = (),
        start: SavedGame | None = None,
        resumed: bool = False,
        offer: SavedGame | None = None,
    ) -> None:
        self.autosave = autosave if autosave is not None else Autosave()
        self.games = games if games is not None else SavedGames()
        self.settings = settings if settings is not None else Settings()
        self.settings_file = settings_file if settings_file is not None else settings_path()
        self.themes = tuple(themes) if themes is not None else None
        self.notes = [sentence(note) for note in notes]
        self.start_record = start
        self.resumed = resumed  # start_record is the autosave's own game (--resume)
        self.offer = offer
        # Set by the app: called with one sentence when an autosave fails.
        self.on_autosave_error: Callable[[str], None] | None = None
        # ... and with one sentence when the game goes to an earlier autosave instead.
        self.on_autosave_note: Callable[[str], object] | None = None
        self._writer = AutosaveWriter(self.autosave, on_error=self._autosave_failed)
        self._writer.on_note = self._autosave_noted
        self._match: Match | None = None
        self._record: SavedGame | None = None
        self.overrides: dict[str, Any] = {}  # the command line's settings, for this run only

    @classmethod
    def start(
        cls,
        *,
        load: str | None = None,
        resume: bool = False,
        new: bool = False,
        variant: str | None = None,
        themes: Collection[str] | None = None,
        stdin: IO | None = None,
    ) -> Session:
        """Read the settings and the autosave, and load `--load`'s game.
        Raises StorageError (one sentence) for a game that cannot be loaded."""
        themes = None if themes is None else (AUTO_THEME, *themes)
        settings, warnings = load_settings(themes=themes)
        autosave = Autosave()
        plan = plan_start(
            load=load, resume=resume, new=new, autosave=autosave, stdin=stdin, variant=variant
        )
        if plan.used_stdin:
            reattach_terminal_stdin()
        return cls(
            autosave=autosave,
            settings=settings,
            themes=themes,
            notes=[*warnings, *plan.notes],
            start=plan.record,
            resumed=resume,
            offer=plan.offer,
        )

    # -- how the app starts ---------------------------------------------------------

    def settings_for(self, overrides: dict[str, Any] | None = None) -> Settings:
        """The settings for this run: the saved ones, then `overrides` (the
        command line's, by setting name), which hold for this run only."""
        self.overrides = dict(overrides or {})
        if "variant" in self.overrides:
            self.overrides["variant"] = Variant.parse(self.overrides["variant"])
        return replace(self.settings, **self.overrides)

    def start_match(self, *, black: str | None = None, white: str | None = None) -> Match | None:
        """The game to start with: the loaded or resumed one, else the one to
        offer, else None (a new game). `black`/`white` replace its players."""
        if self.start_record is not None:
            record, fresh = self.start_record, not self.resumed
        elif self.offer is not None:
            record, fresh = self.offer, False
        else:
            return None
        return self.match_from(record, black=black, white=white, fresh=fresh)

    @property
    def loaded(self) -> bool:
        """True when the game to start with came from a file (--load): it is
        not in the autosave yet."""
        return self.start_record is not None and not self.resumed

    def take_notes(self) -> list[str]:
        """The start-up messages, once."""
        notes, self.notes = self.notes, []
        return notes

    # -- the game in progress -----------------------------------------------------------

    def match_from(
        self,
        record: SavedGame,
        *,
        black: str | None = None,
        white: str | None = None,
        fresh: bool = True,
    ) -> Match:
        """The live game for `record`, remembered so that its autosaves keep
        its name. `fresh` gives it a new identity, so the autosave keeps the
        game it replaces (a game loaded from a file is another game, even if
        the file came from this one). Raises StorageError for a bad record."""
        game = record.to_game()
        if fresh:
            record = replace(record, id=new_id())
        record = record.with_players(black or record.black, white or record.white)
        names = record.names or ("", "")
        # A table's game at home is played (or reviewed) at this keyboard.
        match = Match(record.black, record.white, game, names=names, ending=record.ending)
        match = match.at_home()
        self._match, self._record = match, record
        return match

    def record_for(self, match: Match) -> SavedGame:
        """The record of `match` as it is now. A match the session has not
        seen is a new game, with an identity of its own."""
        if match is self._match and self._record is not None:
            record = self._record.with_game(match.game)
            if record.players != (match.black, match.white):
                record = replace(record, black=match.black, white=match.white)
        else:
            record = SavedGame.from_game(match.game, match.black, match.white)
        self._match, self._record = match, record
        return record

    def match_changed(self, match: Match) -> None:
        """Autosave `match` (off the UI thread; see AutosaveWriter)."""
        self._writer.save(self.record_for(match))

    def analysis_for(self, match: Match) -> GameAnalysis:
        """What is known of `match`'s moves: loaded with it, or found since."""
        if match is self._match and self._record is not None:
            return self._record.analysis.kept_for(match.game)
        return GameAnalysis()

    def analysis_changed(self, match: Match, analysis: GameAnalysis) -> None:
        """Keep `analysis` with `match` (saved games and the autosave)."""
        record = replace(self.record_for(match), analysis=analysis)
        self._record = record
        self._writer.save(record)

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Wait until the last autosave is on disk."""
        return self._writer.flush(timeout)

    def close(self, timeout: float | None = 5.0) -> bool:
        """At exit: finish the last autosave and let another session have it.
        False if the disk did not answer within `timeout` seconds."""
        done = self._writer.close(timeout)
        self.autosave.release()
        return done

    def _autosave_failed(self, problem: str) -> None:
        if self.on_autosave_error is not None:
            self.on_autosave_error(problem)

    def _autosave_noted(self, note: str) -> None:
        if self.on_autosave_note is not None:
            self.on_autosave_note(note)

    # -- saved games ----------------------------------------------------------------------

    def current_name(self, match: Match) -> str | None:
        """The name `match` was saved or loaded under, if any."""
        return self._record.name if match is self._match and self._record else None

    def save_game(
        self, match: Match, name: str, *, replace_existing: bool = False
    ) -> SavedGameEntry:
        """Save `match` as `name` and return its SavedGameEntry. Raises
        NameTakenError (ask, then again with replace_existing) or StorageError."""
        record = self.record_for(match)
        entry = self.games.save(record, name, replace=replace_existing)
        self._record = replace(record, name=entry.name)
        self._writer.save(self._record)  # the autosave learns the name too
        return entry

    def list_games(self) -> list[SavedGameEntry]:
        """The saved games, most recent first, then the previous autosave (the
        game a new one replaced) if there is one. Raises StorageError only
        if the directory cannot be listed."""
        entries = self.games.list()
        kept = []
        previous = self.autosave.previous_path
        if previous.exists():
            kept.append(self.games.entry_for(previous, PREVIOUS_NAME))
        for path in self.autosave.earlier_paths():
            kept.append(self.games.entry_for(path, EARLIER_NAME))
        # An autosave nobody moved in (kept by older versions) is not a game.
        entries.extend(entry for entry in kept if entry.record is None or entry.record.moves)
        return entries

    def delete_game(self, entry: SavedGameEntry) -> None:
        """Delete the file of `entry`. Raises StorageError."""
        autosave = self.autosave
        if entry.path == autosave.previous_path or entry.path.parent == autosave.earlier_dir:
            try:
                entry.path.unlink()
            except OSError as error:
                raise StorageError(f"could not delete {entry.path}: {reason(error)}") from None
        else:
            self.games.delete(entry.key)

    @staticmethod
    def import_game(text_or_path: str) -> SavedGame:
        """A game from a path or pasted text. Raises StorageError."""
        return import_game(text_or_path)

    # -- settings ----------------------------------------------------------------------------

    def save_settings(self, settings: Settings) -> str | None:
        """Persist `settings`; returns a note if a bad old file was moved aside.
        Raises StorageError."""
        note = save_settings(settings, self.settings_file, themes=self.themes)
        self.settings = settings
        return note

    def settings_changed(self, before: Settings, after: Settings) -> str | None:
        """The player changed the app's settings from `before` to `after`:
        persist the ones that changed, and only those (an option given on the
        command line is not saved unless the player changes it in the app).
        Returns a note as save_settings does. Raises StorageError."""
        changed = {
            field.name: getattr(after, field.name)
            for field in fields(Settings)
            if getattr(before, field.name) != getattr(after, field.name)
        }
        settings = replace(self.settings, **changed)
        if settings == self.settings:
            return None
        return self.save_settings(settings)
