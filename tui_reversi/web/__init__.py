"""The game in a browser page: textual-serve's terminal in the page, one game
process per visitor behind a WebSocket (`tui-reversi web`)."""

# The cookie a browser bound to a player's name keeps its pass in (a public
# server's), and how long the binding lasts: the cookie's Max-Age and the
# server's record of the pass (server/edge/browser_passes.py) alike.
PASS_COOKIE = "tui_reversi_pass"
PASS_LIFETIME = 365 * 24 * 3600
