"""The wire protocol between a game and `tui-reversi serve`: the line format
(server_line.py), a table's terms and clocks (terms.py), a table's link as a
seat (remote.py) and the lobby's link (lobby.py). The game and the server
both import it; it imports only core/ and players/.
"""
