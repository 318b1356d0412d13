"""On a served game (`tui-reversi serve` sets TUI_REVERSI_FILES_ROOT to the SSH
player's own directory) import and export name files only inside it."""

import pytest

from tui_reversi.storage import StorageError, import_game, write_export
from tui_reversi.storage.paths import FILES_ROOT_VARIABLE

OPENING = "f5d6c3d3c4f4"


@pytest.fixture
def player_home(tmp_path, monkeypatch):
    home = tmp_path / "player"
    home.mkdir()
    monkeypatch.setenv(FILES_ROOT_VARIABLE, str(home))
    monkeypatch.chdir(home)
    return home


def test_a_served_player_exports_and_imports_inside_their_folder(player_home):
    path = write_export("game.txt", OPENING)
    assert path == player_home / "game.txt"
    assert import_game("game.txt").moves == import_game(OPENING).moves


def test_a_served_player_cannot_write_outside_their_folder(player_home, tmp_path):
    target = tmp_path / "server-file"
    with pytest.raises(StorageError, match="your own folder"):
        write_export(str(target), OPENING)
    with pytest.raises(StorageError, match="your own folder"):
        write_export("../server-file", OPENING)
    assert not target.exists()


def test_a_served_player_cannot_read_outside_their_folder(player_home, tmp_path):
    secret = tmp_path / "secret.ggf"
    secret.write_text(f"(;GM[Othello]BO[8 {'-' * 27}OX------XO{'-' * 27} *]B[f5];)")
    for name in (str(secret), "../secret.ggf"):
        with pytest.raises(StorageError, match="your own folder"):
            import_game(name)


def test_a_symbolic_link_out_of_the_folder_is_refused(player_home, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (player_home / "link").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(StorageError, match="your own folder"):
        write_export("link/game.txt", OPENING)
    assert not (tmp_path / "elsewhere" / "game.txt").exists()


def test_pasted_games_still_import_on_a_served_game(player_home):
    assert len(import_game(OPENING).moves) == 6


def test_without_the_variable_any_path_is_the_players(tmp_path, monkeypatch):
    monkeypatch.delenv(FILES_ROOT_VARIABLE, raising=False)
    path = write_export(str(tmp_path / "anywhere.txt"), OPENING)
    assert import_game(str(path)).moves == import_game(OPENING).moves
