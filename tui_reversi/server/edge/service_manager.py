"""Telling systemd how the server is doing (the sd_notify protocol, no library).

Under a unit with `Type=notify` systemd names a datagram socket in
$NOTIFY_SOCKET; the server says `READY=1` once it listens, `WATCHDOG=1`
every half of $WATCHDOG_USEC while its event loop answers (a loop that
hangs stops the messages, and systemd restarts the server), and
`STOPPING=1` when it stops. Anywhere else (no $NOTIFY_SOCKET) it says
nothing:

    manager = ServiceManager.from_environment()
    manager.ready("listening on 127.0.0.1:2222")   # and starts the watchdog
    manager.stopping()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Mapping


class ServiceManager:
    """The service manager that started this process, if it asked to be told."""

    def __init__(self, address: str | None, watchdog_seconds: float | None) -> None:
        # An address starting with "@" is in Linux's abstract namespace.
        self.address = "\0" + address[1:] if address and address.startswith("@") else address
        self.watchdog_seconds = watchdog_seconds
        self._feeding: asyncio.Task[None] | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> ServiceManager:
        """The manager named in the environment (one that hears nothing if none is)."""
        address = environ.get("NOTIFY_SOCKET") or None
        watchdog: float | None = None
        with contextlib.suppress(ValueError):
            microseconds = int(environ.get("WATCHDOG_USEC", ""))
            # WATCHDOG_PID, when set, says which process the watchdog is for.
            meant_for = environ.get("WATCHDOG_PID")
            if microseconds > 0 and (meant_for is None or meant_for == str(os.getpid())):
                watchdog = microseconds / 1_000_000
        return cls(address, watchdog)

    def say(self, *fields: str) -> None:
        """Send `fields` (each `NAME=value`) as one message; a manager gone hears nothing."""
        if self.address is None:
            return
        with (
            contextlib.suppress(OSError),
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender,
        ):
            sender.setblocking(False)
            sender.sendto("\n".join(fields).encode(), self.address)

    def ready(self, status: str) -> None:
        """The server listens: say so (with `status` for `systemctl status`), and
        start feeding the watchdog if the unit has one."""
        self.say("READY=1", f"STATUS={status}", f"MAINPID={os.getpid()}")
        if self.address is not None and self.watchdog_seconds and self._feeding is None:
            self._feeding = asyncio.create_task(self._feed(self.watchdog_seconds / 2))

    def stopping(self) -> None:
        """The server stops: say so, and stop feeding the watchdog."""
        if self._feeding is not None:
            self._feeding.cancel()
            self._feeding = None
        self.say("STOPPING=1", "STATUS=stopping; hanging up every game")

    async def _feed(self, every: float) -> None:
        # Sent from the event loop itself: a loop stuck in a busy game stops the messages.
        while True:
            self.say("WATCHDOG=1")
            await asyncio.sleep(every)
