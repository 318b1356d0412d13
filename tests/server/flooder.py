"""A hostile client in a process of its own: a guest with a terminal that floods
the server with window changes (`resize`) or 1-byte keystrokes (`keys`) for a
while, then prints what reached its game (the stand-in's SIZE and KEY lines) as
JSON: {"sent": N, "sizes": N, "last_size": "WxH", "keys": BYTES}. Used by
test_budgets.py and bench/hostile.py (against the real game, whose counts mean
nothing). `hold_the_door` is another: one idle socket at the door, again and
again.

    python flooder.py PORT resize|keys SECONDS [LOCAL_ADDRESS]
"""

import asyncio
import contextlib
import json
import sys
import time

import asyncssh

LAST = (77, 33)  # the size the flood ends on: the one the game must have at the end


class Guest(asyncssh.SSHClient):
    def kbdint_auth_requested(self):
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return [""] * len(prompts)


async def flood(port: int, kind: str, seconds: float, local: str) -> dict:
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username="flooder",
        known_hosts=None,
        client_keys=[],
        agent_path=None,
        client_factory=Guest,
        local_addr=(local, 0),
    )
    process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    output = await asyncio.wait_for(process.stdout.read(65536), 60)
    # The stand-in says READY; a real game has drawn its board by then.
    drawn = time.monotonic() + 3.0
    while b"READY" not in output and time.monotonic() < drawn:
        with contextlib.suppress(TimeoutError):
            output += await asyncio.wait_for(process.stdout.read(65536), 0.2)

    async def read_all() -> None:
        nonlocal output
        while chunk := await process.stdout.read(65536):
            output += chunk

    reader = asyncio.create_task(read_all())
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for _ in range(100):
            if kind == "resize":
                size = (1000, 1000) if sent % 2 else (1, 1)
                process.change_terminal_size(*size)
            else:
                process.stdin.write(b"a")
            sent += 1
        await process.stdin.drain()
        await asyncio.sleep(0)
    if kind == "resize":
        process.change_terminal_size(*LAST)
    last = f"SIZE {LAST[0]}x{LAST[1]}".encode()
    settle = time.monotonic() + 5
    while kind == "resize" and time.monotonic() < settle and not output.rstrip().endswith(last):
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    reader.cancel()
    conn.abort()
    lines = output.decode(errors="replace").splitlines()
    sizes = [line.split()[1] for line in lines if line.startswith("SIZE ")]
    keys = sum((len(line) - 4) // 2 for line in lines if line.startswith("KEY "))
    return {
        "sent": sent,
        "sizes": len(sizes),
        "last_size": sizes[-1] if sizes else "",
        "keys": keys,
    }


async def hold_the_door(port: int, source: str, stop: asyncio.Event) -> None:
    """One idle socket from `source`: says its version and nothing more, and
    connects again 0.2 s after it is dropped, until `stop`."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
            writer.write(b"SSH-2.0-idle\r\n")
            while await reader.read(4096):
                pass
            writer.close()
        except OSError:
            pass
        await asyncio.sleep(0.2)


if __name__ == "__main__":
    port, kind, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    local = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
    print(json.dumps(asyncio.run(flood(port, kind, seconds, local))))
