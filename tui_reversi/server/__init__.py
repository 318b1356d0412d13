"""The SSH server behind `tui-reversi serve`.

One child process per SSH session runs the game on its own pseudo-terminal, so
Textual owns that process's terminal and signals exactly as it would locally.

- `config`: what the operator chose (limits, auth, directories) and the rules
  derived from it (player directory names, the child's environment).
- `hostkey`: the server's ed25519 key, created once with mode 0600.
- `pty_process`: a program running as session leader on a fresh pty.
- `preloaded`: the server's side of the game launcher (`tui_reversi.launcher`,
  outside this package, given as `ServeConfig.launcher_command`): start it,
  ask it for games, restart it.
- `ssh_session`: one SSH session channel bound to one game process.
- `tables`, `table_*`: the tables, their referee, clocks, course and store.
- `store`: the one interface to what the server keeps and shares; `archive`
  (SQLite, one machine) and `postgres` with `migrations` (a fleet) implement it.
- `fleet`: several nodes on one PostgreSQL as one server: relayed seats, the
  lobby's shares, invitations between nodes.
- `lobby_host`: the server's end of the in-app lobby: guests and invitations.
- `roster`: who is here and what each is doing, as plain lines (`ssh host lobby`).
- `arcade`: the listener, authentication, limits and the connection log.
- `event_log`: the log's format, where whatever a client said is escaped and
  cut (`log_value`), and each address's allowance of log bytes.

Importing this package imports asyncssh: only `tui-reversi serve` does that.
"""
