"""The wire protocol between a game and `tui-reversi serve`: the line format
(server_line.py), a table's terms and clocks (terms.py), a table's link as a
seat (remote.py), the lobby's link (lobby.py) and the ssh command a hint shows
(ssh_command.py). The game and the server both import it; it imports only
core/ and players/.
"""
