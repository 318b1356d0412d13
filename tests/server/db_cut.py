"""A TCP relay between one node and PostgreSQL that can cut that node off from the
database alone, and let it back: cut() closes every connection through it and
turns new ones away at once (as a broken network would, with the database still
up for the other nodes), restore() lets them through again; cut(sparing=PORT)
keeps the one connection PostgreSQL sees coming from PORT (a node's listening one:
the node stays in the fleet, its statements fail). Its own threads, so
a node that connects synchronously from the event loop does not wait on it."""

from __future__ import annotations

import contextlib
import socket
import threading


class DatabaseCut:
    """Relays 127.0.0.1:`port` (url_for() rewrites a URL to go through it)."""

    def __init__(self, port: int) -> None:
        self._target = ("127.0.0.1", port)
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._lock = threading.Lock()
        self._open: dict[socket.socket, socket.socket] = {}  # (each end -> its upstream)
        self.cut_off = False
        threading.Thread(target=self._accept, daemon=True).start()

    def url_for(self, url: str) -> str:
        return url.replace(f":{self._target[1]}/", f":{self.port}/")

    def cut(self, sparing: int | None = None) -> None:
        """Cut every connection through here (but the one PostgreSQL sees from port
        `sparing`), and turn new ones away, until restore()."""
        with self._lock:
            self.cut_off = True
            for sock, upstream in list(self._open.items()):
                with contextlib.suppress(OSError):
                    if upstream.getsockname()[1] == sparing:
                        continue
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
                del self._open[sock]

    def restore(self) -> None:
        with self._lock:
            self.cut_off = False

    def close(self) -> None:
        self.cut()
        self._server.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return  # (closed)
            with self._lock:
                if self.cut_off:
                    client.close()
                    continue
            try:
                upstream = socket.create_connection(self._target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open |= {client: upstream, upstream: upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with self._lock:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
                self._open.pop(sock, None)
