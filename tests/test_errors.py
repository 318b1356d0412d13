"""One error family: whatever a person may be told went wrong is a ReversiError."""

import errno
import importlib
import inspect
import pkgutil

import tui_reversi
from tui_reversi.core import ReversiError
from tui_reversi.core.errors import reason

# Never told to a person: a crash raised on purpose to test the report, and
# the engine's own control flow (a search stopped by its clock or a cancel).
NOT_TOLD = {"tui_reversi.crash.DeliberateCrash", "tui_reversi.engine.endgame.SearchStopped"}


def test_every_error_the_package_defines_is_a_reversi_error():
    outside = []
    for module in pkgutil.walk_packages(tui_reversi.__path__, "tui_reversi."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.name
                and not name.startswith("_")  # a module's own control flow, never shown
                and f"{module.name}.{name}" not in NOT_TOLD
                and not issubclass(value, ReversiError)
            ):
                outside.append(f"{module.name}.{name}")
    assert outside == []


def test_an_os_error_reads_as_a_phrase_in_a_sentence():
    assert reason(OSError(errno.ENOSPC, "No space left on device")) == "no space left on device"
    # asyncio words a failed bind its own way; the OS's reason is what a person needs.
    bind = OSError(errno.EADDRINUSE, "error while attempting to bind on address: in use")
    assert reason(bind) == "address already in use"
    assert reason(ValueError("Not UTF-8")) == "not UTF-8"
    assert reason(TimeoutError()) == "TimeoutError"
