"""A keyed player's browser, bound to their name: `ssh host keys web` shows a
one-time code (once, for CODE_LIFETIME, one use); the page opened with
`?code=CODE` names whom it binds the browser to, and its button trades the code
for a pass (a random token kept by the browser as an HttpOnly cookie); a page
that shows the pass plays under that name, rated.

The codes and passes are the store's (ledger/browser_passes.py: shared by a
fleet's nodes, only digests kept, 30 days after the last use, 10 a name, gone
with the key that made them). A server that kept them in DIR/browser_passes.json
before moves that file's passes into the store once, when it starts.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from ...storage import StorageError
from ..ledger.browser_passes import PASS_IDLE, BrowserPass, PassBook, digest

# Where an older server kept its passes, and what the file is called once moved.
PASSES_FILE = "browser_passes.json"
MOVED_SUFFIX = ".moved"


class BrowserPasses:
    """The codes and the passes, through the store: start(store) before any other call."""

    def __init__(
        self,
        data_dir: Path,
        note: Callable[[str], None],
        holds: Callable[[str, str], Awaitable[bool]],
    ) -> None:
        """`holds(name, key)`: whether a key is still the name's (login.py's Accounts):
        a pass whose key has gone, however it went, binds nothing."""
        self._file = data_dir / PASSES_FILE
        self._note = note
        self._holds = holds
        self._book: PassBook | None = None

    async def start(self, book: PassBook) -> None:
        """Keep codes and passes in `book`, the old file's passes moved into it first."""
        self._book = book
        try:
            passes = json.loads(self._file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return  # (none, or nothing readable: nothing to move)
        if not isinstance(passes, dict):
            return
        old = [
            (str(token_digest), str(held["name"]), float(str(held.get("until", 0))))
            for token_digest, held in passes.items()
            if isinstance(held, dict) and isinstance(held.get("name"), str)
        ]
        try:
            moved = await book.import_passes(old, time.time())
        except StorageError as error:
            self._note(f"the browsers' passes in {self._file} cannot be moved yet: {error}")
            return
        with contextlib.suppress(OSError):
            self._file.rename(self._file.with_name(PASSES_FILE + MOVED_SUFFIX))
        self._note(f"{moved} browsers' passes moved from {self._file} into the store")

    @property
    def lifetime(self) -> str:
        """How long a bound browser stays bound without being played in."""
        return f"{round(PASS_IDLE / 86400)} days"

    @property
    def book(self) -> PassBook:
        assert self._book is not None, "BrowserPasses.start() first"
        return self._book

    async def issue(self, name: str, key: str | None) -> str:
        """A new code for `name` (its session's key `key`), replacing any it had."""
        return await self.book.issue_pass_code(name, key, time.time())

    async def holder(self, code: str) -> str | None:
        """The name a current code would bind a browser to (the code is not spent).
        StorageError (said in the log too) if the store cannot be asked."""
        try:
            return await self.book.pass_code_holder(code[:64], time.time())
        except StorageError as error:
            self._note(f"a browser's code cannot be read: {error}")
            raise

    async def trade(self, code: str) -> str | None:
        """A pass for the browser, the code spent; None if the code is not current.
        StorageError (said in the log too) if the store cannot keep it."""
        token = secrets.token_urlsafe(32)
        try:
            traded = await self.book.trade_pass_code(code[:64], digest(token), time.time())
        except StorageError as error:
            self._note(f"a browser's pass cannot be kept: {error}")
            raise
        if traded is None:
            return None
        made, unbound = traded
        room = f" (unbound to make room: {', '.join(unbound)})" if unbound else ""
        self._note(f"a browser is bound to {made.name}: pass {made.id}{room}")
        return token

    async def name_of(self, token: str) -> str | None:
        """The name a pass binds its browser to, if it is current (its use is noted)."""
        try:
            held = await self.book.pass_holder(digest(token[:100]), time.time())
            if held is None or held.key is None or await self._holds(held.name, held.key):
                return held.name if held is not None else None
            # Its key went another way than `keys remove` (out of the authorized-keys file).
            await self.book.remove_passes(held.name, held.id)
            self._note(f"{held.name}'s browser pass {held.id} removed: its key is not theirs")
        except StorageError as error:  # (the browser comes in as if it showed none)
            self._note(f"a browser's pass cannot be read: {error}")
        return None

    async def listed(self, name: str) -> list[BrowserPass]:
        """`name`'s current passes, the first made first."""
        return await self.book.passes_of(name, time.time())

    async def remove(self, name: str, pass_id: str | None) -> int:
        """Unbind `name`'s pass `pass_id` (None: all); how many went."""
        removed = await self.book.remove_passes(name, pass_id)
        if removed:
            self._note(f"{removed} of {name}'s browser passes removed")
        return removed
