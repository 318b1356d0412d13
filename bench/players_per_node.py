"""How many players one `tui-reversi serve` holds: memory and CPU a player, this
tree and (with --against) an older one, in one run.

For each tree it starts that tree's `serve` (TREE/.venv/bin/python, else this
Python) on a free loopback port, seats N players at boards over SSH (asyncssh,
80x24 terminals, as the tests do) and prints:

- at the board, idle: PSS a player (the games, plus the preloaded parent shared
  out), a game's private dirty memory, and CPU a player over the idle seconds;
- playing: each player against `hard`, typing every square's name once a
  second (the illegal ones are refused, the first legal one played and
  answered, out of the book within a few moves): PSS a player and CPU a
  player once the computer has searched;
- from these, players per GB of memory and per core; and the server
  process's own PSS, which a node pays once.

With --python (given once or more) it serves with those interpreters instead
of the tree's (a venv of each with this tree installed: Python 3.11 and 3.13
side by side); with --unshared it also measures each without what the
preloaded parent does so games share its pages (tui_reversi/fork_sharing.py,
`TUI_REVERSI_FORK_SHARING=off`), labelled `off`, beside it, in the same run.
With --where it prints, for one game at the board, where its memory goes: by
mapping (the C heap, the anonymous mappings that hold Python's objects,
libpython's data, the extensions), private dirty against shared dirty, and how
much of its private memory is pages of the parent it copied on write (the
parent's ranges, /proc/PID/pagemap) against pages of its own. With
--games-per-process K (given once or more: 1 and 6 side by side) it serves with
`serve --games-per-process K`, up to K games a process, labelled `K=K`.

It prints the machine's load average: the machine is shared, and the CPU
figures move with it. Measures and prints; asserts nothing. Run it under nice:

    nice -n 10 .venv/bin/python bench/players_per_node.py --players 20
    nice -n 10 .venv/bin/python bench/players_per_node.py --against /tmp/old-checkout
    nice -n 10 .venv/bin/python bench/players_per_node.py --players 30 --unshared --where \
        --python .venv/bin/python --python /tmp/venv313/bin/python
    nice -n 10 .venv/bin/python bench/players_per_node.py --players 24 \
        --games-per-process 1 --games-per-process 6
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from game_memory import game_memory
from serve import (
    Player,
    cpu_seconds,
    games,
    load,
    preloaded_parent,
    pss_kib,
    read_banner,
    rollup_kib,
)

ROOT = Path(__file__).resolve().parent.parent
IDLE = "new white easy"  # a board, the player to move: nothing runs until a key
PLAYING = "new white hard"  # the computer searches after every legal move
# Typed at once each second: the illegal ones are refused, the first legal one played.
EVERY_SQUARE = "".join(f"{column}{row}" for row in "36452718" for column in "cdefbgah").encode()


def python_of(tree: Path) -> str:
    venv = tree / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def start(run: Run, data: Path, players: int) -> tuple[subprocess.Popen[str], int]:
    tree, shared = run.tree, run.shared
    command = [run.python, "-m", "tui_reversi", "serve", "--port", "0"]
    command += ["--data-dir", str(data), "--max-sessions", str(players + 10)]
    command += ["--max-per-address", "1000", "--idle-timeout", "0", "--session-limit", "0"]
    if run.games_per_process > 1:  # (an older tree has no such flag)
        command += ["--games-per-process", str(run.games_per_process)]
    server = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tree,
        env={
            "PYTHONPATH": str(tree),
            "PATH": "/usr/bin:/bin",
            "HOME": str(data),
            "TUI_REVERSI_FORK_SHARING": "on" if shared else "off",
        },
    )
    port, banner = read_banner(server)
    shares = f"up to {run.games_per_process} games a process"
    if run.games_per_process > 1 and shares not in banner:
        server.terminate()
        raise SystemExit(f"the server runs a process a game, not {shares}:\n{banner}")
    return server, port


def memory(server: subprocess.Popen[str], players: int) -> tuple[float, float]:
    """MB a player (PSS of the games and the parent's share), and a game process's
    private dirty MB (a host's, with K games in it, under --games-per-process)."""
    parent = preloaded_parent(server.pid)
    seated = games(server.pid)
    pss = sum(pss_kib(pid) for pid in seated) + (pss_kib(parent) if parent else 0)
    dirty = sum(rollup_kib(pid, "Private_Dirty") for pid in seated) / max(1, len(seated))
    return pss / players / 1024, dirty / 1024


async def seat(port: int, count: int, command: str, name: str) -> list[Player]:
    players: list[Player] = []
    for batch in range(0, count, 10):
        crowd = [Player(f"{name}{n}", command) for n in range(batch, min(batch + 10, count))]
        await asyncio.gather(*(player.open(port) for player in crowd))
        await asyncio.wait_for(asyncio.gather(*(p.board_drawn.wait() for p in crowd)), 300)
        players += crowd
    return players


async def cpu_share(server: subprocess.Popen[str], seconds: float, players: int, busy) -> float:
    """Cores a player uses (server, parent and games) while `busy` runs for `seconds`."""
    before, started = cpu_seconds(server.pid), time.perf_counter()
    await busy(seconds)
    return (cpu_seconds(server.pid) - before) / (time.perf_counter() - started) / players


async def measure(
    run: Run, count: int, seconds: float, where: bool
) -> tuple[dict[str, float], list[str]]:
    with tempfile.TemporaryDirectory(prefix="bench-players-") as scratch:
        server, port = start(run, Path(scratch) / "data", count)
        try:
            idle = await seat(port, count, IDLE, "idle")
            await asyncio.sleep(2.0)  # what the first frame set going settles
            figures: dict[str, float] = {}
            figures["idle MB"], figures["idle dirty MB"] = memory(server, count)
            parent, seated = preloaded_parent(server.pid), games(server.pid)
            figures["processes"] = len(seated)
            looked = game_memory(parent, seated[0]) if where and parent and seated else []
            figures["server MB"] = pss_kib(server.pid) / 1024  # the node's own, not a player's
            figures["idle cores"] = await cpu_share(server, seconds, count, asyncio.sleep)
            await asyncio.gather(*(player.close() for player in idle))
            await asyncio.sleep(2.0)
            playing = await seat(port, count, PLAYING, "play")

            async def play(duration: float) -> None:
                async def typist(index: int, player: Player) -> None:
                    await asyncio.sleep(index / count)  # spread over the second
                    deadline = time.perf_counter() + duration
                    while time.perf_counter() < deadline:
                        player.press(EVERY_SQUARE)
                        await asyncio.sleep(1.0)

                await asyncio.gather(*(typist(i, p) for i, p in enumerate(playing)))

            figures["playing cores"] = await cpu_share(server, seconds, count, play)
            figures["playing MB"], figures["playing dirty MB"] = memory(server, count)
            await asyncio.gather(*(player.close() for player in playing))
            return figures, looked
        finally:
            server.terminate()
            server.wait(timeout=60)


def report(label: str, figures: dict[str, float]) -> None:
    print(
        f"{label}   server: PSS {figures['server MB']:5.1f} MB of its own;"
        f" {figures['processes']:.0f} game processes at the board",
        flush=True,
    )
    for state in ("idle", "playing"):
        mb, dirty, cores = (figures[f"{state} {what}"] for what in ("MB", "dirty MB", "cores"))
        per_core = f"{1 / cores:.0f}" if cores > 0 else "-"
        print(
            f"{label} {state:>8}: PSS {mb:5.1f} MB a player (a game process's private dirty"
            f" {dirty:4.1f} MB), {1024 / mb:4.0f} players per GB; CPU {cores * 100:5.2f}%"
            f" of a core a player, {per_core} players per core",
            flush=True,
        )


@dataclass(frozen=True)
class Run:
    """One server measured: a tree, the Python serving it, whether games share
    (fork_sharing), and how many games a process runs."""

    label: str
    tree: Path
    python: str
    shared: bool = True
    games_per_process: int = 1


def version_of(python: str) -> str:
    return subprocess.run(
        [python, "-c", "import sys; print(sys.version.split()[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def runs_of(args: argparse.Namespace) -> list[Run]:
    """Each server the command line asks for, in the order measured."""
    trees = {"new": args.tree.resolve()}
    if args.against is not None:
        trees = {"old": args.against.resolve(), **trees}
    runs: list[Run] = []
    shares = args.games_per_process or [1]
    for label, tree in trees.items():
        for python in args.python or [python_of(tree)]:
            named = f"{label} {version_of(python)}" if args.python else label
            if args.unshared and label == "new":
                runs.append(Run(f"{named} off", tree, python, shared=False))
            for k in shares if label == "new" else [1]:
                shown = f"{named} K={k}" if args.games_per_process else named
                runs.append(Run(shown, tree, python, games_per_process=k))
    return runs


async def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="players seated at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="time each state is held")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout measured")
    parser.add_argument("--against", type=Path, help="an older checkout, measured beside it")
    parser.add_argument(
        "--python", action="append", help="serve with this Python (a venv's; once or more)"
    )
    parser.add_argument(
        "--unshared", action="store_true", help="also measure without fork_sharing, beside it"
    )
    parser.add_argument("--where", action="store_true", help="where a game's memory goes")
    parser.add_argument(
        "--games-per-process",
        type=int,
        action="append",
        metavar="K",
        help="serve with --games-per-process K (once or more: each measured, side by side)",
    )
    args = parser.parse_args()
    runs = runs_of(args)
    print(f"tui-reversi serve, {args.players} players")
    for run in runs:
        print(f"{run.label}: {run.tree} ({run.python})")
    print(f"before: {load()}; nice {os.nice(0)}", flush=True)
    width = max(len(run.label) for run in runs)
    for run in runs:
        figures, looked = await measure(run, args.players, args.seconds, args.where)
        report(run.label.rjust(width), figures)
        for line in looked:
            print(f"{run.label.rjust(width)}    {line}", flush=True)
    print(f"after: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
