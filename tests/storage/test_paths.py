"""The data and config directories follow XDG, so each SSH user gets their own."""

from pathlib import Path

from tui_reversi.storage import Autosave, SavedGames, config_dir, data_dir, settings_path


def test_the_directories_follow_xdg_data_home_and_xdg_config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "alice-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "alice-config"))
    assert data_dir() == tmp_path / "alice-data" / "tui-reversi"
    assert config_dir() == tmp_path / "alice-config" / "tui-reversi"
    assert Autosave().path == tmp_path / "alice-data" / "tui-reversi" / "autosave.json"
    assert SavedGames().directory == tmp_path / "alice-data" / "tui-reversi" / "games"
    assert settings_path() == tmp_path / "alice-config" / "tui-reversi" / "settings.toml"


def test_changing_the_environment_changes_the_directories_at_once(tmp_path, monkeypatch):
    # The SSH server starts one app per user with its own XDG variables.
    seen = []
    for user in ("alice", "bob"):
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / user))
        seen.append(Autosave().path)
    assert seen[0] != seen[1]
    assert all(Path(p).is_relative_to(tmp_path) for p in seen)


def test_without_xdg_the_directories_are_under_home(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_dir() == tmp_path / ".local" / "share" / "tui-reversi"
    assert config_dir() == tmp_path / ".config" / "tui-reversi"


def test_finding_the_directories_creates_nothing(tmp_path):
    data_dir(), config_dir(), Autosave(), SavedGames(), settings_path()
    assert not (tmp_path / "data").exists() and not (tmp_path / "config").exists()
