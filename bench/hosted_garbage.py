"""What games hosted in one process leave behind once they end: live apps,
threads, objects and memory after every batch of games started and ended.

A process preloads as the launcher does (`launcher.preload()`, the garbage
collector frozen, then on: as a game host runs), then plays GAMES real games
(tui_reversi/hosted_game.py's HostedGame), AT_ONCE of them at a time, each in
a thread of its own on a pty of its own with its own HOME: the board drawn, a
move (f5) played and autosaved, the computer (easy) answering in its thread,
then ctrl+q. After each batch, once collected, it prints the games ended so
far, the ReversiApp objects still alive (counted by weak reference: a frozen
object is in no generation gc.get_objects() lists), the threads alive, the
objects the collector tracks and the process's resident memory (and, with
--trace, what tracemalloc holds). A game that ended must leave no app, no
thread and no growth behind (but the bounded caches filling: rich's styles,
Textual's); the last line says what is left, with Textual's key parsers:

    nice -n 10 .venv/bin/python bench/hosted_garbage.py --games 30 --at-once 3

Measures and prints; asserts nothing (tests/test_hosted_game.py runs it small
and checks its last line).
"""

from __future__ import annotations

import argparse
import gc
import os
import select
import tempfile
import threading
import time
import tracemalloc
import weakref
from pathlib import Path

from tui_reversi import launcher

WAIT = 60.0  # seconds for a game to show anything: a shared, loaded machine
CTRL_Q = b"\x11"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games in all (default 30)")
    parser.add_argument("--at-once", type=int, default=3, help="games playing at once (3)")
    parser.add_argument("--trace", action="store_true", help="also tracemalloc (slower)")
    parser.add_argument("--census", action="store_true", help="the objects left, by type")
    options = parser.parse_args()

    gc.disable()  # as the launcher's parent, then the host it forks
    launcher.preload()
    gc.freeze()
    gc.enable()
    from tui_reversi.app import ReversiApp

    apps: weakref.WeakSet[ReversiApp] = weakref.WeakSet()
    built = ReversiApp.__init__

    def counted(app: ReversiApp, *args: object, **named: object) -> None:
        built(app, *args, **named)  # type: ignore[arg-type]
        apps.add(app)

    ReversiApp.__init__ = counted  # type: ignore[method-assign]
    if options.trace:
        tracemalloc.start()
    threads_before = threading.active_count()
    print(f"before: threads {threads_before}, {_figures()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="hosted-garbage-") as folder:
        ended = 0
        while ended < options.games:
            batch = min(options.at_once, options.games - ended)
            statuses: list[int] = []
            players = [
                threading.Thread(target=_play, args=(Path(folder) / f"p{ended + i}", statuses))
                for i in range(batch)
            ]
            for player in players:
                player.start()
            for player in players:
                player.join()
            ended += batch
            _settle(threads_before)
            gc.collect()
            print(
                f"games {ended}: exits {sorted(set(statuses))}, live apps {len(apps)}, "
                f"threads {threading.active_count()}, {_figures()}",
                flush=True,
            )
    if options.census:
        from collections import Counter

        kinds = Counter(type(thing).__name__ for thing in gc.get_objects())
        print("most tracked objects by type:", kinds.most_common(12), flush=True)
    from textual._xterm_parser import XTermParser

    parsers = sum(isinstance(thing, XTermParser) for thing in gc.get_objects())
    print(
        f"left after {ended} games: live apps {len(apps)}, key parsers {parsers}, "
        f"threads {threading.active_count() - threads_before}",
        flush=True,
    )


def _settle(threads: int) -> None:
    """Give the ended games' threads a moment to end: a computer's search, cancelled
    by the quit, answers nobody but may still be unwinding (a daemon thread)."""
    deadline = time.monotonic() + WAIT
    while threading.active_count() > threads and time.monotonic() < deadline:
        time.sleep(0.05)


def _figures() -> str:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    resident = pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    figures = f"tracked objects {len(gc.get_objects())}, RSS {resident:.1f} MB"
    if tracemalloc.is_tracing():
        figures += f", traced {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB"
    return figures


def _play(home: Path, statuses: list[int]) -> None:
    """One game to its quit; its exit status to `statuses`."""
    from tui_reversi.hosted_game import HostedGame

    home.mkdir()
    master, slave = os.openpty()
    env = {"HOME": str(home), "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    game = HostedGame(["--new", "--white", "easy"], env, str(home), slave)
    status: list[int] = []
    runner = threading.Thread(target=lambda: status.append(game.run()))
    runner.start()
    drawn = b""
    autosave = home / ".local" / "share" / "tui-reversi" / "autosave.json"
    deadline = time.monotonic() + WAIT
    step = "drawing"  # then "moving", then "quitting"
    while runner.is_alive() and time.monotonic() < deadline:
        if select.select([master], [], [], 0.05)[0]:
            try:
                drawn += os.read(master, 65536)
            except OSError:  # the game has let its pty go
                break
        if step == "drawing" and b"Help" in drawn:
            os.write(master, b"f5")
            step = "moving"
        elif step == "moving" and autosave.exists() and "f5" in autosave.read_text().lower():
            os.write(master, CTRL_Q)
            step = "quitting"
    runner.join(WAIT)
    os.close(master)
    statuses.append(status[0] if status else -1)


if __name__ == "__main__":
    main()
