"""The real game, telling what its first frame cost it: a game command for `tui-reversi serve`.

Run as `python first_frame.py OPTIONS...` (a preloaded parent runs it in a
forked child, as it runs the game). It plays `tui-reversi OPTIONS...` until
the first screen is drawn and idle, then quits and prints one line:
`FIRSTFRAME {"modules": [...], "private_dirty_kib": N, "pss_kib": N}`,
the modules imported after the game started (none, where the parent has
preloaded everything) and its memory then.
"""

import sys

before = set(sys.modules)

import asyncio  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from textual.app import App  # noqa: E402

from tui_reversi.__main__ import main  # noqa: E402

found: dict = {}
run = App.run


def memory_kib() -> dict[str, int]:
    text = Path("/proc/self/smaps_rollup").read_text()
    figures = dict(re.findall(r"^(\w+):\s+(\d+) kB", text, re.M))
    return {"private_dirty_kib": int(figures["Private_Dirty"]), "pss_kib": int(figures["Pss"])}


def run_to_first_frame(app, *args, **kwargs):
    async def look(pilot) -> None:
        await pilot.pause()
        await asyncio.sleep(0.5)  # what the first frame set going settles
        await pilot.pause()
        found["modules"] = sorted(set(sys.modules) - before)
        found.update(memory_kib())
        pilot.app.exit()

    return run(app, *args, **{**kwargs, "auto_pilot": look})


App.run = run_to_first_frame  # type: ignore[method-assign]
status = main(sys.argv[1:])
print("FIRSTFRAME " + json.dumps(found), flush=True)
sys.exit(status)
