"""The server's hall: what a player who is in takes part in.

The SSH sessions and their games (`ssh_session`, its parts in `session_*`,
`lobby_routes`, `quick_pairing`, `tournament_games`, `live_game` and
`window_changes`, what the edge gives them in `session_edge`, the player's end
of the channel in `session_terminal`, the idle and session limits in
`session_limits`, a session's seat at a table in
`table_seat`, their game process from outside in `game_run`, what a player asks for
after the host in `session_command`, the games' processes in
`pty_process`, `preloaded`, `game_hosts` and the games' socket in `games_socket`), the
in-app lobby (`lobby_host`) and the roster (`roster`), the tables with their
referee, clocks, course and store (`tables`, `table_*`). It imports the
ledger, never the edge: what it needs of a connection it declares as a
Protocol that the edge's classes meet.

Importing this package imports nothing (the game launcher imports `pty_process`).
"""
