"""Keeping the player's games: autosave, saved games, exchange formats, settings.

Pure: imports core, the registry of player kinds (players.kinds), the
standard library and platformdirs; never Textual or
rich. Every bad file or text becomes a StorageError (a core ReversiError, so
a ValueError) whose message is one sentence for a person; a bad file is
never overwritten or deleted without the player asking.

The app's calls, by moment:

At start (the CLI; StorageError -> one line on stderr, exit status 2)::

    settings, warnings = load_settings(themes=THEMES)      # warnings: list[str]
    plan = plan_start(load=args.load, resume=args.resume, new=args.new)
    if plan.used_stdin: reattach_terminal_stdin()           # after --load -
    plan.record            # start with this game (loaded or resumed), or None
    plan.offer             # else an unfinished game to offer: "Resume / New game"
    plan.notes             # one-sentence messages to show once
    (plan_start reads Autosave().load(): AutosaveLoad(record, game, problem, moved_to))

During play::

    record = SavedGame.from_game(game, black, white)        # new game
    record = record.with_game(game)                         # after every move
    autosave.save(record)     # one Autosave() for the session; a new game's first
                              # save keeps the one it replaces as autosave.previous.json
    AutosaveWriter(autosave).save(record)   # the same, off the UI thread; .close() at exit
    autosave.clear()                                        # finished or abandoned
    game = record.to_game(); record.players                 # back to the live game

Saved games::

    games = SavedGames()
    games.save(record, name, replace=False)  # NameTakenError -> ask, then replace=True
    games.list() -> list[SavedGameEntry]     # name, updated, black, white, status, moves
    games.load(name_or_key) -> SavedGame;  games.delete(name_or_key)

Exchange::

    export_transcript(game_or_record), export_position(game_or_record), export_ggf(record)
    write_export(path, text, replace=False)  # NameTakenError -> ask, then replace=True
    import_game(text_or_path) -> SavedGame   # GGF, record, board string or transcript

Settings::

    save_settings(settings) -> str | None    # a note if an old bad file was moved aside
"""

from __future__ import annotations

from .autosave import Autosave, AutosaveLoad
from .command_line import StartPlan, load_game_argument, plan_start, reattach_terminal_stdin
from .errors import FutureFormatError, NameTakenError, StorageError
from .formats import (
    export_ggf,
    export_position,
    export_transcript,
    import_file,
    import_game,
    import_text,
    write_export,
)
from .ggf import parse_ggf
from .paths import config_dir, data_dir, games_dir, shown_path
from .record import SavedGame, parse_player
from .saved_games import SavedGameEntry, SavedGames, clean_name, name_key
from .settings import Settings, load_settings, save_settings, settings_path
from .writer import AutosaveWriter

__all__ = [
    "Autosave",
    "AutosaveLoad",
    "AutosaveWriter",
    "FutureFormatError",
    "NameTakenError",
    "SavedGame",
    "SavedGameEntry",
    "SavedGames",
    "Settings",
    "StartPlan",
    "StorageError",
    "clean_name",
    "config_dir",
    "data_dir",
    "export_ggf",
    "export_position",
    "export_transcript",
    "games_dir",
    "import_file",
    "import_game",
    "import_text",
    "load_game_argument",
    "load_settings",
    "name_key",
    "parse_ggf",
    "parse_player",
    "plan_start",
    "reattach_terminal_stdin",
    "save_settings",
    "settings_path",
    "shown_path",
    "write_export",
]
