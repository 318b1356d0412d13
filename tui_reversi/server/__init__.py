"""The SSH server behind `tui-reversi serve`.

One child process per SSH session runs the game on its own pseudo-terminal, so
Textual owns that process's terminal and signals exactly as it would locally.

- `config`: what the operator chose (limits, auth, directories) and the rules
  derived from it (player directory names, the child's environment).
- `hostkey`: the server's ed25519 key, created once with mode 0600.
- `pty_process`: a program running as session leader on a fresh pty.
- `forkserver`: the preloaded parent, a separate Python that has imported the
  game and forks one child per game (no threads, no event loop in it).
- `preloaded`: the server's side of it: start it, ask it for games, restart it.
- `session`: one SSH session channel bound to one game process.
- `arcade`: the listener, authentication, limits and the connection log.

Importing this package imports asyncssh: only `tui-reversi serve` does that.
"""
