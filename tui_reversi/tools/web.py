"""`tui-reversi web`: play in a browser page on this machine, with your own
games and settings as in the terminal (each page runs the game, as
`tui-reversi` does in a terminal).

Parsing stays light; aiohttp and textual-serve load only in `run`.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import signal
import sys

from .serve_options import port_number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this machine only: anyone who "
        "can reach another address plays your games)",
    )
    parser.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_serve(args.host, args.port))


async def _serve(host: str, port: int) -> int:
    from ..screens.too_small import MIN_HEIGHT, MIN_WIDTH
    from ..web.page import LOOPBACK_NAMES, PageConfig, start_page

    config = PageConfig(
        argv=[sys.executable, "-m", "tui_reversi"],
        least_size=(MIN_WIDTH, MIN_HEIGHT),
        hosts=LOOPBACK_NAMES if _loopback(host) else None,
    )
    site = await start_page(config, host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    print(f"tui-reversi: playing in a browser at {site.address} (ctrl+c stops)", flush=True)
    if not _loopback(host):
        print(
            "tui-reversi: anyone who can reach this address plays with your games and settings",
            file=sys.stderr,
        )
    try:
        await stop.wait()
    finally:
        await site.close()
    print("tui-reversi: stopped; every open game is saved", flush=True)
    return 0


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
