"""The stdin/stdout loop around an NBoard session (`tui-reversi nboard`).

A thread reads NBoard's lines into a queue; the loop hands each to the
session in order. A search the session starts runs in a thread of its own,
so the loop keeps reading while it thinks: `ping` (and `quit`, or the end
of input) stops it before being answered, as the protocol requires ("stop
thinking and respond with pong"); any other line waits until the search
is done, so answers keep NBoard's order. Every line out is flushed at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable
from typing import TextIO

from .protocol import Job, NBoardSession

# Lines that stop a search under way instead of waiting for it.
INTERRUPTING = frozenset({"ping", "quit"})


class _Output:
    """Protocol lines to `out`, sentences to `errors`, from any thread, one
    at a time; once the reader is gone (a broken pipe) nothing more is sent."""

    def __init__(self, out: TextIO, errors: TextIO) -> None:
        self._out, self._errors = out, errors
        self._lock = threading.Lock()
        self.gone = False

    def say(self, line: str) -> None:
        self._write(self._out, line)

    def complain(self, sentence: str) -> None:
        self._write(self._errors, sentence)

    def _write(self, stream: TextIO, line: str) -> None:
        with self._lock:
            if self.gone:
                return
            try:
                stream.write(line + "\n")
                stream.flush()
            except (BrokenPipeError, ValueError):  # ValueError: the stream was closed
                self.gone = True


class _Search:
    """One search of the session, in its own thread, stoppable."""

    def __init__(self, job: Job, output: _Output) -> None:
        self._stop = threading.Event()
        self._output = output
        self._thread = threading.Thread(target=self._run, args=(job,), name="nboard search")
        self._thread.start()

    def _run(self, job: Job) -> None:
        try:
            job(self._stop.is_set)
        except Exception as error:  # a bug in a search: one sentence, and the session goes on
            self._output.complain(f"the search failed ({type(error).__name__}: {error}).")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def finish(self) -> None:
        self._thread.join()


def serve(lines: Iterable[str], out: TextIO, errors: TextIO, *, level: str = "hard") -> int:
    """Speak the NBoard protocol on `lines` and `out` (`errors`: its error
    channel) until `quit`, the end of input or the reader going away; 0."""
    output = _Output(out, errors)
    session = NBoardSession(output.say, output.complain, level=level)
    incoming: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in lines:
            incoming.put(line)
        incoming.put(None)

    threading.Thread(target=read, name="nboard input", daemon=True).start()
    search: _Search | None = None
    while not output.gone:
        line = incoming.get()
        if search is not None:
            words = line.split() if line is not None else []
            if line is None or (words and words[0].lower() in INTERRUPTING):
                search.stop()
            else:
                search.finish()
            search = None
        if line is None:
            break
        job = session.receive(line)
        if session.finished:
            break
        if job is not None:
            search = _Search(job, output)
    if search is not None:
        search.stop()
    return 0


__all__ = ["INTERRUPTING", "serve"]
