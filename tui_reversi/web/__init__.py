"""The game in a browser page: textual-serve's terminal in the page, one game
process per visitor behind a WebSocket (`tui-reversi web`)."""
