"""The app's command-line options: each maps onto create_app; bad ones are
one line on stderr and exit status 2."""

import subprocess
import sys

import pytest

from tui_reversi.__main__ import app_arguments, build_parser


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tui_reversi", *args], capture_output=True, text=True, timeout=60
    )


def test_options_become_factory_keywords():
    args = build_parser().parse_args(
        [
            "--black",
            "easy",
            "--white",
            "human",
            "--variant",
            "anti",
            "--ascii",
            "--theme",
            "reversi-light",
            "--no-animation",
        ]
    )
    assert app_arguments(args) == {
        "black": "easy",
        "white": "human",
        "variant": "anti",
        "ascii": True,
        "theme": "reversi-light",
        "animation": False,
    }
    assert args.no_mouse is False
    assert app_arguments(build_parser().parse_args([])) == {}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--black", "grandmaster"], "invalid choice"),
        (["--variant", "chess"], "invalid choice"),
        (["--theme", "neon"], "unknown theme 'neon'"),
        (["--white"], "expected one argument"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(args, words):
    done = run_cli(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert words in done.stderr and "Traceback" not in done.stderr


def test_help_names_every_option():
    done = run_cli("--help")
    assert done.returncode == 0
    for option in (
        "--black",
        "--white",
        "--variant",
        "--ascii",
        "--theme",
        "--no-mouse",
        "--no-animation",
    ):
        assert option in done.stdout
