"""A stranger's SSH disconnect, sent before any key exchange: the packet any
client may send, with a reason of its choosing (RFC 4253, 11.1)."""

from __future__ import annotations

import asyncio
import os
import struct

# What a hostile reason carries: a line of the server's own, terminal controls, bulk.
FORGED_LINE = "\n2026-01-01 00:00:00 connect 6.6.6.6:1 user=root"
HOSTILE_REASON = FORGED_LINE + "\x1b]0;PWNED\x07\x1b[2J" + "A" * 260_000


def disconnect_packet(reason: str, code: int = 2) -> bytes:
    """An unencrypted SSH_MSG_DISCONNECT binary packet (block size 8, as before kex)."""
    text = reason.encode()
    payload = b"\x01" + struct.pack(">I", code)
    payload += struct.pack(">I", len(text)) + text + struct.pack(">I", 0)
    padding = 8 - (5 + len(payload)) % 8
    if padding < 4:
        padding += 8
    return struct.pack(">IB", 1 + len(payload) + padding, padding) + payload + os.urandom(padding)


async def send_disconnect(port: int, reason: str = HOSTILE_REASON) -> None:
    """Say hello, send the disconnect, and wait for the server to close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"SSH-2.0-x\r\n" + disconnect_packet(reason))
        await writer.drain()
        while await asyncio.wait_for(reader.read(65536), 15.0):
            pass  # (its version and key exchange offer, unanswered)
    finally:
        writer.close()
        await writer.wait_closed()
