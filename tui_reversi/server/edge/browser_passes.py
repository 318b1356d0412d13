"""A keyed player's browser, bound to their name: `ssh host keys web` shows a
one-time code (once, for CODE_LIFETIME, one use); the page opened with
`?code=CODE` trades it for a pass (a random token kept by the browser as an
HttpOnly cookie), and a page that shows the pass plays under that name, rated.
The server keeps only each pass's SHA-256, in DIR/browser_passes.json (0600),
so a copy of that file lets nobody in."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import time
from pathlib import Path

from ...web import PASS_LIFETIME
from ..ledger.account_keys import CODE_LIFETIME, new_code, same_code

PASSES_FILE = "browser_passes.json"


class BrowserPasses:
    """The codes waiting to be traded (in this process) and the passes given (on disk)."""

    def __init__(self, data_dir: Path) -> None:
        self._path = data_dir / PASSES_FILE
        self._codes: dict[str, tuple[str, float]] = {}  # name -> (code, expires)

    def issue(self, name: str) -> str:
        """A new code for `name`, replacing any it had."""
        code = new_code()
        self._codes[name] = (code, time.monotonic() + CODE_LIFETIME)
        return code

    def trade(self, code: str) -> tuple[str, str] | None:
        """(name, pass) for a code issued and not yet used or lapsed; the code is spent."""
        now = time.monotonic()
        for name, (held, expires) in list(self._codes.items()):
            if expires < now:
                del self._codes[name]
            elif same_code(code, held):
                del self._codes[name]
                token = secrets.token_urlsafe(32)
                passes = self._read()
                passes[_digest(token)] = {"name": name, "until": time.time() + PASS_LIFETIME}
                self._write(passes)
                return name, token
        return None

    def name_of(self, token: str) -> str | None:
        """The name a pass binds its browser to, if it is one of ours and current."""
        held = self._read().get(_digest(token))
        if not isinstance(held, dict) or float(str(held.get("until", 0))) < time.time():
            return None
        name = held.get("name")
        return name if isinstance(name, str) else None

    def _read(self) -> dict[str, dict[str, object]]:
        try:
            passes = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return passes if isinstance(passes, dict) else {}

    def _write(self, passes: dict[str, dict[str, object]]) -> None:
        now = time.time()
        kept = {k: v for k, v in passes.items() if float(str(v.get("until", 0))) > now}
        temporary = self._path.with_suffix(".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(descriptor, "w", encoding="utf-8") as file:
            json.dump(kept, file)
        os.replace(temporary, self._path)
        with contextlib.suppress(OSError):
            os.chmod(self._path, 0o600)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
