"""Settings: TOML in the config directory; bad values are warned about once and
replaced by defaults; a bad file is never overwritten silently."""

import tomllib
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Variant
from tui_reversi.players.kinds import NAMES
from tui_reversi.storage import Settings, load_settings, save_settings, settings_path
from tui_reversi.storage.settings import settings_to_toml


def test_no_file_means_the_defaults_and_no_warning(tmp_path):
    assert load_settings(tmp_path / "settings.toml") == (Settings(), [])


def test_saved_settings_load_back_and_live_in_the_config_directory(isolated_home):
    chosen = Settings(
        black="expert",
        white="human",
        variant=Variant.ANTI,
        theme="paper",
        ascii=True,
        legal_moves=False,
        animation=False,
    )
    assert save_settings(chosen) is None
    path = isolated_home / "config" / "tui-reversi" / "settings.toml"
    assert settings_path() == path
    assert load_settings() == (chosen, [])
    assert tomllib.loads(path.read_text())["variant"] == "anti"


def test_the_file_is_readable_toml_with_comments(tmp_path):
    text = settings_to_toml(Settings())
    assert 'black = "human"' in text and "# human, easy, medium, hard or expert" in text
    assert 'animation = "auto"' in text
    assert tomllib.loads(text)["legal_moves"] is True


@given(
    st.builds(
        Settings,
        black=st.sampled_from(NAMES),
        white=st.sampled_from(NAMES),
        variant=st.sampled_from(list(Variant)),
        theme=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", fullmatch=True),
        ascii=st.booleans(),
        legal_moves=st.booleans(),
        animation=st.none() | st.booleans(),
        clock=st.just("") | st.from_regex(r"[0-9]{1,3}\+[0-9]{1,2}", fullmatch=True),
    )
)
def test_every_settings_value_survives_the_file(settings):
    from tui_reversi.storage.settings import _from_table

    assert _from_table(tomllib.loads(settings_to_toml(settings)), "x", None) == (settings, [])


def write(tmp_path, text):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return path


def test_each_bad_value_is_one_warning_and_its_default_is_used(tmp_path):
    path = write(
        tmp_path,
        'black = "grandmaster"\nwhite = "HARD"\nvariant = 3\nascii = "yes"\n'
        'legal_moves = [1]\nanimation = {a = 1}\ntheme = "../../x"\nclock = "5+x"\n',
    )
    settings, warnings = load_settings(path)
    assert settings == Settings(white="hard")
    source = f"the settings file {path}"
    assert warnings == [
        f'{source} sets black to "grandmaster", but it should be one of human, easy, medium, '
        'hard, expert; "human" is used',
        f"{source} sets variant to 3, but it should be one of othello, reversi, anti; "
        '"othello" is used',
        f'{source} sets ascii to "yes", but it should be true or false; false is used',
        f"{source} sets legal_moves to a list, but it should be true or false; true is used",
        f"{source} sets animation to a table, but it should be true, false or "
        '"auto"; "auto" is used',
        f'{source} sets theme to "../../x", but it should be a theme name; "default" is used',
        f'{source} sets clock to "5+x", but it should be a clock such as "5+3", or "" for '
        'none; "" is used',
    ]


def test_an_unknown_key_is_a_warning_with_a_suggestion(tmp_path):
    settings, warnings = load_settings(write(tmp_path, 'whtie = "hard"\nsound = true\n'))
    assert settings == Settings()
    assert warnings[0].endswith(
        "has an unknown setting 'whtie' (did you mean 'white'?); it is ignored"
    )
    assert warnings[1].endswith("has an unknown setting 'sound'; it is ignored")


def test_themes_the_app_knows_are_checked_when_given(tmp_path):
    path = write(tmp_path, 'theme = "neon"\n')
    assert load_settings(path, themes=["default", "paper"])[1] == [
        f'the settings file {path} sets theme to "neon", but it should be one of default, paper; '
        '"default" is used'
    ]
    assert load_settings(path, themes=["neon"]) == (Settings(theme="neon"), [])


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"black = \n", "cannot be read (Invalid value (at line 1, column 9))"),
        (b'black = "human"\nblack = "easy"\n', "cannot be read (Cannot overwrite a value"),
        (b"\xff\xfe", "is not UTF-8 text"),
        (b"x" * 70_000, "is too large (68 KiB)"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_warning_and_all_defaults(tmp_path, content, why):
    path = tmp_path / "settings.toml"
    path.write_bytes(content)
    settings, warnings = load_settings(path)
    assert settings == Settings()
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert warnings[0].startswith(f"the settings file {path} {why}")
    assert warnings[0].endswith("the default settings are used")
    assert path.read_bytes() == content  # loading never changes the file


def test_saving_over_a_bad_file_moves_it_aside_first_and_says_so(tmp_path):
    path = write(tmp_path, 'black = "grandmaster"\n# my notes\n')
    settings, _ = load_settings(path)
    note = save_settings(replace(settings, white="expert"), path)
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("settings.toml.replaced-")]
    assert len(kept) == 1 and kept[0].read_text() == 'black = "grandmaster"\n# my notes\n'
    assert note == f"the old settings file had problems; it was kept as {kept[0]}"
    assert load_settings(path) == (Settings(white="expert"), [])


def test_saving_over_a_good_file_replaces_it_quietly(tmp_path):
    path = tmp_path / "settings.toml"
    save_settings(Settings(white="easy"), path)
    assert save_settings(Settings(white="hard"), path) is None
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]
    assert load_settings(path)[0].white == "hard"


def test_a_theme_name_with_odd_characters_is_written_as_valid_toml(tmp_path):
    path = tmp_path / "settings.toml"
    odd = 'quote" back\\slash \x7f del é'
    save_settings(Settings(theme=odd), path, themes=[odd])
    assert load_settings(path, themes=[odd]) == (Settings(theme=odd), [])
    assert save_settings(Settings(theme=odd), path, themes=[odd]) is None  # a good file
