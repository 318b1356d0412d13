"""NBoard's engine protocol: our engine as NBoard's GUI loads Edax or NTest.

`protocol.NBoardSession` is the protocol's state (the game, the depth, the
clock) and its answers, with no I/O: it is handed each line NBoard sends
and speaks through two callables, one for the protocol's lines and one for
its error channel; the searches it starts (`go`, `hint`, `analyze`) come
back as jobs for the caller to run and stop. `driver.serve` is the thin
stdin/stdout loop around it that `tui-reversi nboard` runs: a search runs
in a thread, and a `ping` stops it before the `pong`, as the protocol asks.
"""

from .driver import serve
from .protocol import NAME, NBoardSession

__all__ = ["NAME", "NBoardSession", "serve"]
