"""Hostile pages, as raw sockets speaking just enough WebSocket (RFC 6455) to
be a tab of the served page: nothing in between buffers, reads or answers for
them. Used by test_page_door.py and bench/web_hostile.py.

    python page_flooder.py PORT ping|frame-ping|stdin|paste|unread SECONDS [LOCAL_ADDRESS]

floods from one tab until SECONDS have passed and prints what it sent as JSON.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import sys
import time

# What a tab that reads nothing leaves the kernel to hold for it (the least Linux allows).
SMALL_BUFFER = 4096


async def open_page(
    port: int,
    source: str = "127.0.0.1",
    *,
    query: str = "width=80&height=24",
    host: str = "127.0.0.1",
    small_buffer: bool = False,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A page's socket, upgraded: (reader, writer) past the server's 101 answer.
    ConnectionError with the server's status line if it answers otherwise."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if small_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws?{query} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if " 101 " not in status:
        writer.close()
        raise ConnectionError(status)
    return reader, writer


def message(kind: str, data: object = None) -> bytes:
    """One of textual-serve's messages (["kind", data]) as a masked text frame."""
    payload = json.dumps([kind, data] if data is not None else [kind]).encode()
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x81, 0x80 | length)
    elif length < 1 << 16:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
    masked = bytes(byte ^ mask[n % 4] for n, byte in enumerate(payload))
    return head + mask + masked


CLOSE = struct.pack("!BB", 0x88, 0x80) + b"\0\0\0\0"  # a close frame, masked, no reason
# A WebSocket ping frame (not textual-serve's "ping" message), masked, one byte.
PING_FRAME = struct.pack("!BB", 0x89, 0x81) + b"\0\0\0\0" + b"1"
# The largest paste a game takes at once (16 KB), three times over.
PASTE = 48 * 1024


def flood_frame(kind: str) -> bytes:
    """What a flood of `kind` sends again and again (see `flood`)."""
    if kind == "frame-ping":
        return PING_FRAME
    if kind == "paste":
        return message("stdin", "a" * PASTE)
    return message("ping", "1") if kind == "ping" else message("stdin", "a")


async def read_all(reader: asyncio.StreamReader) -> int:
    """Read (and drop) what the server sends until it closes: the bytes read."""
    total = 0
    with contextlib.suppress(ConnectionError, OSError):
        while chunk := await reader.read(65536):
            total += len(chunk)
    return total


async def flood(port: int, kind: str, seconds: float, source: str = "127.0.0.1") -> dict:
    """One tab sending `kind` ("ping": the page's pings, "frame-ping": WebSocket ping
    frames, "stdin": one-byte keystrokes, "paste": 48 KB pastes) as fast as its
    socket takes them, reading what comes back, for `seconds`."""
    reader, writer = await open_page(port, source)
    reading = asyncio.ensure_future(read_all(reader))
    frame = flood_frame(kind)
    sent = 0
    end = time.monotonic() + seconds
    with contextlib.suppress(ConnectionError, OSError):
        writer.write(message("resize", {"width": 80, "height": 24}))
        while time.monotonic() < end and not reading.done():
            writer.write(frame * 100)
            sent += 100
            await writer.drain()
    writer.close()
    reading.cancel()
    return {"sent": sent}


async def unread_tab(port: int, seconds: float, source: str = "127.0.0.1") -> dict:
    """One tab at 1000x1000 that reads nothing and changes its size 4 times a
    second (within the window-change budget), for `seconds`; whether the server
    let it go meanwhile."""
    _, writer = await open_page(port, source, query="width=1000&height=1000", small_buffer=True)
    sizes = [{"width": 1000, "height": 1000}, {"width": 999, "height": 1000}]
    end = time.monotonic() + seconds
    sent = 0
    closed = False
    while time.monotonic() < end:
        try:
            writer.write(message("resize", sizes[sent % 2]))
            await asyncio.wait_for(writer.drain(), 1.0)
        except (ConnectionError, OSError):
            closed = True
            break
        except TimeoutError:
            pass
        sent += 1
        await asyncio.sleep(0.25)
    writer.transport.abort()
    return {"sent": sent, "closed": closed}


async def churn(port: int, seconds: float, source: str = "127.0.0.1") -> dict:
    """Open a page's socket and close it at once, again and again, for `seconds`:
    how many opened, and how many the server refused."""
    opened = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            _, writer = await open_page(port, source)
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            refused += 1
            await asyncio.sleep(0.01)
            continue
        opened += 1
        writer.write(CLOSE)
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()
    return {"opened": opened, "refused": refused}


async def idle_sockets(port: int, count: int, source: str) -> list[socket.socket]:
    """`count` connections from `source` that never send a byte, opened together
    (those the server takes and drops at once are counted too; one it leaves in
    its backlog past 5 s is given up)."""
    loop = asyncio.get_running_loop()

    async def one() -> socket.socket | None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind((source, 0))
        try:
            await asyncio.wait_for(loop.sock_connect(sock, ("127.0.0.1", port)), 5)
        except (OSError, TimeoutError):
            sock.close()
            return None
        return sock

    opened = await asyncio.gather(*(one() for _ in range(count)))
    return [sock for sock in opened if sock is not None]


if __name__ == "__main__":
    port, kind, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    local = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
    if kind == "unread":
        print(json.dumps(asyncio.run(unread_tab(port, seconds, local))))
    else:
        print(json.dumps(asyncio.run(flood(port, kind, seconds, local))))
