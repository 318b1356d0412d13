"""Fleet figures: two `tui-reversi serve` nodes on one PostgreSQL, the real app.

Starts a PostgreSQL in a temporary directory (the machine's initdb, as the
tests do; or `--database URL`, migrated first), two nodes on free loopback
ports, and connects asyncssh clients with 80x24 terminals. Prints:

- move to the opponent's screen across nodes: N tables at once (default 10),
  each opened on node A (`table`) and joined on node B (`join CODE`), every
  mover typing a legal square about once a second; from the key press until
  the opponent's screen (on the other node) starts to change, p50 and p95;
  then the same with both players on node A, for comparison in the same run;
- lobby update latency: a table opened on node A, until node B's lobby
  (`ssh lobby`) lists it, p50 and p95 (asked every 20 ms: that is its grain);
- connections per node before the board wait passes 1 s: node A holds more
  and more players in their games; at each level a few more arrive one at a
  time, from TCP connect to the board's key bar; the last level whose p95
  stayed under 1 s;
- the database stopped (only with the temporary PostgreSQL): N tables on node
  A alone play on while PostgreSQL is stopped for 10 s: the moves delivered
  meanwhile (and their p50), the moves found kept once it is back, and the
  time from PostgreSQL up again until both nodes are in the fleet again;
- a node killed (kill -9): a third node C hosts a table joined from node B;
  from the kill, how long until the player on B is told, until B's lobby has
  nobody of C's left, and until node B has taken the game over (and seated him);
- a node cut off from the database alone (only with the temporary PostgreSQL):
  node D reaches it through a relay that cuts it off for 6 s under a table
  joined from node B; how long until B has taken the game over, and once D can
  reach the database again, until D is back in the fleet and until its player
  sits at the game on B and it goes on (kept as not adjourned: the reconciling).
- the database slow: N tables on node A play on while the keys and the ratings
  are locked 5 s by another connection, three newcomers logging in to run `top`
  meanwhile (their key check and page wait for the lock): the moves to the
  other screen, p50 and p95, during the slowness and just before it, and how
  long the newcomers waited.

It prints the machine's load average before and after: the machine is shared.
Measures and prints; asserts nothing. Run it under nice, once:

    nice -n 10 python bench/fleet.py
    nice -n 10 python bench/fleet.py --tables 10 --levels 10,20,40 --database postgresql://...
    nice -n 10 python bench/fleet.py --slow-only --tables 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from serve import OPTIONS, Player, key_of, load, ms, percentile, play_tables, read_banner, sit_down  # noqa: E402  (bench/serve.py)

OUTAGE = 10.0  # seconds the database is stopped
SLOW = 5.0  # seconds the database is slow (the keys and the ratings locked)
NEWCOMERS = 3  # logins (running `top`) while it is slow
CUT = 6.0  # seconds node D is cut off from the database alone


def start_node(data_dir: Path, database: str) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "tui_reversi", "serve", "--port", "0"]
    command += ["--data-dir", str(data_dir), "--database", database]
    command += ["--max-sessions", "500", "--max-per-address", "1000"]
    command += ["--idle-timeout", "0", "--session-limit", "0"]
    node = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    port, _ = read_banner(node)
    return node, port


async def sit_across(port_a: int, port_b: int, table: int) -> tuple[Player, Player]:
    """A table opened on node A, and a guest who joined it by its code on node B."""
    host, guest, _ = await table_across(port_a, port_b, f"host{table}", f"guest{table}")
    return host, guest


async def table_across(
    port_a: int, port_b: int, host_name: str, guest_name: str
) -> tuple[Player, Player, str]:
    """A table opened on node A by `host_name`, joined on node B by `guest_name`: both
    at the board, and the table's code."""
    host = Player(host_name, "table")
    await host.open(port_a)
    await asyncio.wait_for(host.board_drawn.wait(), 300)
    while (found := re.search(rb"join ([A-Z2-9]{5})", host.text)) is None:
        await asyncio.sleep(0.05)
    code = found.group(1).decode()
    guest = Player(guest_name, f"join {code}")
    await guest.open(port_b)
    await asyncio.wait_for(guest.board_drawn.wait(), 300)
    return host, guest, code


async def moves_across(port_a: int, port_b: int, tables: int, seconds: float) -> None:
    seated = []
    for batch in range(0, tables, 5):
        seated += await asyncio.gather(
            *(sit_across(port_a, port_b, n) for n in range(batch, min(batch + 5, tables)))
        )
    await asyncio.sleep(2.0)  # the hosts' screens take the news in
    latencies = await play_tables(seated, seconds)
    where = "node B" if port_b != port_a else "node A too (one node, for comparison)"
    print(
        f"{tables} tables, each opened on node A and joined on {where}, {len(latencies)} moves: "
        f"move to the opponent's screen p50 {ms(percentile(latencies, 0.5))}, "
        f"p95 {ms(percentile(latencies, 0.95))}",
        flush=True,
    )
    await asyncio.gather(*(p.close() for pair in seated for p in pair))


async def lobby_text(port: int) -> bytes:
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username="watcher",
        known_hosts=None,
        agent_path=None,
        client_keys=[key_of("watcher")],  # (each name is its key's)
    ) as conn:
        result = await conn.run("lobby", encoding=None)
        return bytes(result.stdout or b"")


async def lobby_latency(port_a: int, port_b: int, samples: int) -> None:
    waits: list[float] = []
    for n in range(samples):
        host = Player(f"lobbyhost{n}", "table")
        await host.open(port_a)
        await asyncio.wait_for(host.board_drawn.wait(), 300)
        while (found := re.search(rb"join ([A-Z2-9]{5})", host.text)) is None:
            await asyncio.sleep(0.01)
        shown = time.perf_counter()  # the code is on the host's screen
        while found.group(1) not in await lobby_text(port_b):
            await asyncio.sleep(0.02)
        waits.append(time.perf_counter() - shown)
        await host.close()
    print(
        f"lobby update across nodes ({samples} tables opened on A, until B's lobby lists "
        f"them): p50 {ms(percentile(waits, 0.5))}, p95 {ms(percentile(waits, 0.95))}",
        flush=True,
    )


async def connections_per_node(port: int, levels: list[int], arrivals: int) -> None:
    held: list[Player] = []
    good = 0
    for level in levels:
        while len(held) < level:
            batch = [
                Player(f"held{len(held) + n}", OPTIONS) for n in range(min(10, level - len(held)))
            ]
            await asyncio.gather(*(player.open(port) for player in batch))
            await asyncio.wait_for(
                asyncio.gather(*(player.board_drawn.wait() for player in batch)), 600
            )
            held += batch
        waits = []
        for n in range(arrivals):
            player = Player(f"arrival{level}-{n}", OPTIONS)
            await player.open(port)
            await asyncio.wait_for(player.board_drawn.wait(), 600)
            waits.append(player.board - player.started)
            await player.close()
        p95 = percentile(waits, 0.95)
        print(
            f"  node A holding {level} games: connect to board p50 "
            f"{ms(percentile(waits, 0.5))}, p95 {ms(p95)}",
            flush=True,
        )
        if p95 > 1.0:
            break
        good = level
    print(f"connections per node before the board wait passes 1 s: {good} or more", flush=True)
    await asyncio.gather(*(player.close() for player in held))


def live_nodes(database: str) -> int:
    """How many nodes are in the fleet (0 while the database cannot be asked)."""
    import psycopg

    try:
        with psycopg.connect(database, connect_timeout=2) as conn:
            row = conn.execute("SELECT count(*) FROM live_nodes").fetchone()
    except psycopg.Error:
        return 0
    return int(row[0]) if row else 0


def node_of(database: str, code: str) -> str:
    """The node table `code`'s game is kept for."""
    import psycopg

    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT node FROM unfinished WHERE code = %s", (code,)).fetchone()
    return str(row[0]) if row else ""


def going_on(database: str, code: str) -> bool:
    """True once table `code`'s game is kept as going on (both players at it)."""
    import psycopg

    with psycopg.connect(database) as conn:
        row = conn.execute("SELECT adjourned FROM unfinished WHERE code = %s", (code,)).fetchone()
    return row is not None and not row[0]


def kept_moves(database: str) -> int:
    import psycopg

    with psycopg.connect(database) as conn:
        rows = conn.execute("SELECT moves FROM unfinished").fetchall()
    return sum(len(moves) // 2 for (moves,) in rows)


async def database_stop(cluster, database: str, port_a: int, tables: int) -> None:
    seated = [await sit_down(port_a, 2000 + n) for n in range(tables)]
    baseline = await play_tables(seated, OUTAGE)  # (as many tables, the database up)
    await asyncio.gather(*(p.close() for pair in seated for p in pair))
    seated = [await sit_down(port_a, 1000 + n) for n in range(tables)]
    before = kept_moves(database)
    await asyncio.to_thread(cluster.halt)
    latencies = await play_tables(seated, OUTAGE)
    await asyncio.to_thread(cluster.start_again)
    back = time.perf_counter()
    while live_nodes(database) < 2:
        await asyncio.sleep(0.05)
    rejoined = time.perf_counter() - back
    await asyncio.sleep(2.0)  # (what was kept waiting is written)
    kept = kept_moves(database) - before
    print(
        f"PostgreSQL stopped {OUTAGE:.0f} s under {tables} tables on node A: {len(latencies)} "
        f"moves delivered meanwhile (p50 {ms(percentile(latencies, 0.5))}; with it up, just "
        f"before: {len(baseline)} moves, p50 {ms(percentile(baseline, 0.5))}), {kept} found "
        f"kept once it was back; both nodes back in the fleet {ms(rejoined)} after it was up",
        flush=True,
    )
    await asyncio.gather(*(p.close() for pair in seated for p in pair))


async def newcomer(port: int, user: str) -> tuple[float, bytes]:
    """`ssh user@host top` with a key never seen: how long until the page, and the page."""
    started = time.perf_counter()
    async with asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, agent_path=None,
        client_keys=[key_of(user)],
    ) as conn:  # fmt: skip
        result = await conn.run("top", encoding=None)
    return time.perf_counter() - started, bytes(result.stdout or b"")


async def database_slow(database: str, port_a: int, tables: int) -> None:
    import psycopg

    seated = [await sit_down(port_a, 3000 + n) for n in range(tables)]
    baseline = await play_tables(seated, SLOW)  # (as many tables, the database quick)
    await asyncio.gather(*(p.close() for pair in seated for p in pair))
    seated = [await sit_down(port_a, 3100 + n) for n in range(tables)]
    with psycopg.connect(database) as locker:  # (as a long transaction elsewhere would)
        locker.execute("LOCK TABLE account_keys, ratings IN ACCESS EXCLUSIVE MODE")
        asking = [asyncio.ensure_future(newcomer(port_a, f"new{n}")) for n in range(NEWCOMERS)]
        latencies = await play_tables(seated, SLOW)
        locker.rollback()
    answered = await asyncio.gather(*asking)
    waits = [waited for waited, _ in answered]
    paged = sum(page.startswith(b"tui-reversi:") and b"cannot" not in page for _, page in answered)
    print(
        f"the database slow {SLOW:.0f} s (keys and ratings locked) under {tables} tables on "
        f"node A: {len(latencies)} moves, to the other screen p50 "
        f"{ms(percentile(latencies, 0.5))}, p95 {ms(percentile(latencies, 0.95))} (just "
        f"before, quick: {len(baseline)} moves, p50 {ms(percentile(baseline, 0.5))}, p95 "
        f"{ms(percentile(baseline, 0.95))}); {NEWCOMERS} newcomers running `top` meanwhile "
        f"waited {', '.join(ms(w) for w in waits)}, {paged} got the page",
        flush=True,
    )
    await asyncio.gather(*(p.close() for pair in seated for p in pair))


async def node_killed(database: str, port_b: int, data_dir: Path) -> None:
    node, port_c = start_node(data_dir, database)
    try:
        host, guest, code = await table_across(port_c, port_b, "killedhost", "leftguest")
        await asyncio.sleep(2.0)
        guest.text = b""
        held_by = node_of(database, code)
        node.kill()
        killed = time.perf_counter()
        told = seated = cleaned = 0.0
        while not (told and seated and cleaned):
            now = time.perf_counter() - killed
            if now > 60:
                print(
                    f"  (after 60 s: told {told}, seated {seated}, cleaned {cleaned}; the "
                    f"screen ends {guest.text[-600:]!r})",
                    flush=True,
                )
                break
            told = told or (now if b"went" in guest.text else 0.0)
            seated = seated or (now if node_of(database, code) != held_by else 0.0)
            lobby = await lobby_text(port_b)
            if not cleaned and re.search(rb"^\s*killedhost\s", lobby, re.MULTILINE) is None:
                cleaned = time.perf_counter() - killed
            await asyncio.sleep(0.02)
        print(
            f"node C killed (kill -9) under a table joined from node B: its game taken over "
            f"by node B after {ms(seated)}, the player on B told (on his screen) after "
            f"{ms(told)}, B's lobby without C's people after {ms(cleaned)}",
            flush=True,
        )
        await guest.close()
        host.reader.cancel()  # (its node is gone: nothing more to read)
        host.abort()
    finally:
        if node.poll() is None:
            node.kill()
        node.wait(timeout=60)


async def node_cut_off(database: str, port_b: int, data_dir: Path, postgres_port: int) -> None:
    from tests.server.db_cut import DatabaseCut

    cut = DatabaseCut(postgres_port)
    node, port_d = start_node(data_dir, cut.url_for(database))
    try:
        host, guest, code = await table_across(port_d, port_b, "cuthost", "cutguest")
        await asyncio.sleep(2.0)
        held_by, live = node_of(database, code), live_nodes(database)
        cut.cut()
        started = time.perf_counter()
        while node_of(database, code) == held_by and time.perf_counter() - started < 60:
            await asyncio.sleep(0.05)
        taken = time.perf_counter() - started
        await asyncio.sleep(max(0.0, CUT - taken))
        cut.restore()
        back = time.perf_counter()
        rejoined = seated = 0.0
        while not (rejoined and seated) and time.perf_counter() - back < 60:
            now = time.perf_counter() - back
            rejoined = rejoined or (now if live_nodes(database) >= live else 0.0)
            seated = seated or (now if going_on(database, code) else 0.0)
            await asyncio.sleep(0.02)
        print(
            f"node D cut off from the database alone {CUT:.0f} s under a table joined from "
            f"node B: its game taken over by node B after {ms(taken)}; once D could reach "
            f"the database again, D back in the fleet after {ms(rejoined)}, and its player "
            f"seated at the game on B, going on, after {ms(seated)} (0 ms: not within 60 s)",
            flush=True,
        )
        await asyncio.gather(host.close(), guest.close())
    finally:
        node.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
        node.wait(timeout=60)
        cut.close()


async def main() -> None:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a PostgreSQL to use (default: a temporary one)")
    parser.add_argument("--tables", type=int, default=10, help="tables across nodes at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="play time")
    parser.add_argument("--lobby-samples", type=int, default=10)
    parser.add_argument("--levels", default="20,40,80,120,160", help="games held on node A")
    parser.add_argument("--arrivals", type=int, default=5, help="arrivals timed per level")
    parser.add_argument(
        "--faults-only",
        action="store_true",
        help="a node killed, one cut off, the db stopped, the db slow",
    )
    parser.add_argument("--slow-only", action="store_true", help="the database slow, alone")
    args = parser.parse_args()
    from tests.server.postgres_cluster import Cluster, find_bin
    from tui_reversi.server.ledger.postgres import migrate_database

    cluster = None
    database = args.database
    if database is None:
        bin_dir = find_bin()
        if bin_dir is None:
            raise SystemExit("no PostgreSQL found: install postgresql, or give --database URL")
        cluster = Cluster(bin_dir)
        cluster.start()
        database = cluster.database()
    migrate_database(database)
    print(f"tui-reversi serve, a fleet of two nodes; Python {sys.version.split()[0]}")
    print(f"before: {load()}; nice {os.nice(0)}", flush=True)
    nodes = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-fleet-") as temporary:
            for name in ("a", "b"):
                nodes.append(start_node(Path(temporary) / name, database))
            (_, port_a), (_, port_b) = nodes
            everything = not (args.faults_only or args.slow_only)
            if everything:
                await moves_across(port_a, port_b, args.tables, args.seconds)
                await moves_across(port_a, port_a, args.tables, args.seconds)
                await lobby_latency(port_a, port_b, args.lobby_samples)
            if not args.slow_only:
                await node_killed(database, port_b, Path(temporary) / "c")
            if cluster is not None and not args.slow_only:
                await node_cut_off(database, port_b, Path(temporary) / "d", cluster.port)
                await database_stop(cluster, database, port_a, args.tables)
            await database_slow(database, port_a, args.tables)
            if everything:
                levels = [int(level) for level in args.levels.split(",")]
                await connections_per_node(port_a, levels, args.arrivals)
    finally:
        for node, _ in nodes:
            node.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
            node.wait(timeout=60)
        if cluster is not None:
            cluster.stop()
    print(f"after: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
