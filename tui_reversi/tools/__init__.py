"""Command-line tools around the game (sub-commands of `tui-reversi`).

Each module offers `add_arguments(parser)` and `run(args) -> int` and keeps
its heavy imports inside `run`, so `tui-reversi --help` stays instant.
"""
