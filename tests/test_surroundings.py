"""A game's surroundings: its own environment and folder, not the process's."""

from pathlib import Path

from tui_reversi.crash import served
from tui_reversi.storage import config_dir, data_dir
from tui_reversi.storage.paths import player_file
from tui_reversi.surroundings import GameThread, Surroundings, current


def test_a_games_folders_follow_its_own_environment_not_the_processs(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "process-data"))
    mine = Surroundings({"HOME": str(tmp_path / "alice")}, tmp_path / "alice")
    with mine.entered():
        assert current() is mine
        assert data_dir() == tmp_path / "alice" / ".local" / "share" / "tui-reversi"
        assert config_dir() == tmp_path / "alice" / ".config" / "tui-reversi"
        assert not served()
    assert data_dir() == tmp_path / "process-data" / "tui-reversi"  # outside: the process's


def test_a_relative_xdg_folder_is_ignored_as_platformdirs_ignores_it(tmp_path):
    place = Surroundings({"HOME": str(tmp_path), "XDG_DATA_HOME": "data"}, tmp_path / "work")
    assert place.data_home() == tmp_path / ".local" / "share"


def test_a_players_file_names_are_taken_from_the_games_home_and_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the process's folder: not where the game's files are
    home, folder = tmp_path / "home", tmp_path / "work"
    with Surroundings({"HOME": str(home)}, folder).entered():
        assert player_file("game.ggf") == folder / "game.ggf"
        assert player_file("~/games/a.ggf") == home / "games" / "a.ggf"
        assert player_file("/elsewhere/b.ggf") == Path("/elsewhere/b.ggf")


def test_surroundings_are_a_value_the_environment_given_cannot_change(tmp_path):
    env = {"HOME": str(tmp_path)}
    place = Surroundings(env, tmp_path)
    env["HOME"] = "/somewhere/else"
    assert place.home == tmp_path


def test_a_thread_the_game_starts_reads_the_games_surroundings_not_the_processs(tmp_path):
    mine = Surroundings({"HOME": str(tmp_path / "alice")}, tmp_path / "alice")
    seen = []
    with mine.entered():
        thread = GameThread(target=lambda: seen.append(current()))
    thread.start()  # (started outside: what counts is where it was made)
    thread.join()
    assert seen == [mine]
