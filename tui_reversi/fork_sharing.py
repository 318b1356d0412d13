"""What the preloaded parent (launcher.py) does last before it forks games, so
that each game keeps sharing the parent's pages instead of copying them.

A forked game shares every page of the parent until it writes to one; then
that page is its own (copy-on-write). Measured in a game at its first frame
(/proc/PID/smaps against the parent's ranges; docs/hosting.md, "How many
players a node holds"), most of a game's own memory is such copies, and what
writes them is mostly CPython's reference counts: a game that merely uses an
object the parent built (a function it calls, a class, a name, a constant)
writes its count, and so copies the page it lives on, shared with hundreds of
others. The collector's passes would too; gc.freeze() keeps them off the
parent's objects.

Python 3.12 made some objects immortal (PEP 683): their count is never
written. `make_immortal` makes every object the parent holds so, as
Instagram's Cinder does before it forks its workers: then a game that uses
them writes nothing. They are never freed, which costs nothing here (the
parent holds them for its whole life, and a game that drops one keeps a few
bytes). Python 3.11 has no immortal objects: there, nothing is done.

`TUI_REVERSI_FORK_SHARING=off` in the server's environment turns this off
(the server tells the parent so on its command line, `told()`, which keeps
its environment bare): bench/players_per_node.py measures a node both ways in
one run.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys

SWITCH = "TUI_REVERSI_FORK_SHARING"
OFF = "--unshared"  # (the parent's argument when it is off)


def told() -> list[str]:
    """The server's side: the parent's arguments saying whether to do this."""
    return [OFF] if os.environ.get(SWITCH, "") == "off" else []


def wanted(argv: list[str]) -> bool:
    """The parent's side: False when its arguments (told()) turn this off."""
    return OFF not in argv


def make_immortal() -> int:
    """Make every object the garbage collector knows of, and every untracked object
    they hold (names, numbers, bytes, code), immortal: their reference counts are
    never written again, here or in a forked game. How many; 0 before Python 3.12,
    which has no immortal objects. Call with nothing else running (no thread)."""
    if sys.version_info < (3, 12):
        return 0
    # The count an immortal object has (None is one): written as it is.
    immortal = ctypes.c_ssize_t.from_address(id(None)).value
    gc.collect()
    waiting = gc.get_objects()
    seen: set[int] = set()  # (made after: an immortal one would never give its ints back)
    while waiting:
        held = waiting.pop()
        address = id(held)
        if address in seen:
            continue
        seen.add(address)
        ctypes.c_ssize_t.from_address(address).value = immortal
        # (a tracked referent is in gc.get_objects() already)
        waiting += [ref for ref in gc.get_referents(held) if not gc.is_tracked(ref)]
    return len(seen)
