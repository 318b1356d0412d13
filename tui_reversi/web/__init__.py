"""The game in a browser page: textual-serve's terminal in the page, one game
process per visitor behind a WebSocket (`tui-reversi web`)."""

# The cookie a browser bound to a player's name keeps its pass in (a public
# server's). The browser keeps it as long as browsers keep any cookie (Chrome
# caps Max-Age at 400 days); the server's record of the pass decides how long
# the binding lasts (server/ledger/browser_passes.py: 30 days after its last use).
PASS_COOKIE = "tui_reversi_pass"
PASS_COOKIE_AGE = 400 * 24 * 3600


def page_address(host: str, port: int, *, behind_proxy: bool = False) -> str:
    """Where a browser finds the page served on `port` of `host`: 'http://host:8080/',
    or behind a reverse proxy (TLS ended there, on 443) 'https://host/'."""
    shown = f"[{host}]" if ":" in host else host
    return f"https://{shown}/" if behind_proxy else f"http://{shown}:{port}/"
