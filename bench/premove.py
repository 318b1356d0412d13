"""How soon a premove reaches the server: the app at a table (driven by
Pilot, the bench being the server at the other end of a socket pair) has a
move typed ahead; the bench writes the opponent's move and times how long
until the app's move comes back. The server's clock charges the player
about this (plus the network's round trip).

    python bench/premove.py             # 10 runs
    python bench/premove.py --runs 30

Prints figures only; compare runs made on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import threading
import time
from dataclasses import replace

from tui_reversi.app import create_app
from tui_reversi.core import Color, Variant
from tui_reversi.match import Match, Pacing, table_seats
from tui_reversi.net.remote import TableLink, TableState
from tui_reversi.storage import Settings


async def one_premove() -> float:
    """Seconds from the opponent's move written to the premove read back."""
    server, app_end = socket.socketpair()
    state = TableState(
        code="K7QP2", colour=Color.WHITE, variant=Variant.OTHELLO, names=("alice", "bob")
    )
    link = TableLink(app_end, app_end.makefile("rb"), state)
    black, white = table_seats(Color.WHITE)
    match = Match(black, white, link.start_game(), names=state.names)
    settings = replace(Settings(), theme="reversi", animation=False)
    app = create_app(settings=settings, match=match, table_link=link, pacing=Pacing(0, 0))
    arrived: list[float] = []

    def read_the_move() -> None:
        heard = b""
        while b"move 1 " not in heard:
            data = server.recv(4096)
            if not data:
                return
            heard += data
        arrived.append(time.perf_counter())

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)  # the board drawn
        await pilot.press("c", "5")  # before alice (Black) has moved: a premove
        await pilot.pause(0.05)
        reader = threading.Thread(target=read_the_move)
        reader.start()
        sent = time.perf_counter()
        server.sendall(b"moved 0 d3\n")
        for _ in range(2000):
            if arrived:
                break
            await pilot.pause(0.001)
        reader.join(2)
    server.close()
    link.close()
    if not arrived:
        raise SystemExit("the premove never reached the server")
    return arrived[0] - sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    times = [asyncio.run(one_premove()) for _ in range(runs)]
    print(
        f"premove at the server after the opponent's move: median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms ({runs} runs)"
    )


if __name__ == "__main__":
    main()
