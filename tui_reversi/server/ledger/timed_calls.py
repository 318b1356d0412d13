"""The store's calls timed for the operator's metrics: each public coroutine of a
store, once it is opened, goes through `_timed`, which adds how long it took to
the tally (tally.py's STORE_CALLS), by backend and method."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..tally import STORE_CALLS, TALLY
from .store import Store


def time_calls(store: Store, backend: str) -> None:
    """From now on every public coroutine method of `store` (this instance's) is
    timed under `backend` ("sqlite", "postgresql") and its name, answer or error."""
    for name, _method in inspect.getmembers(type(store), inspect.iscoroutinefunction):
        if not name.startswith("_"):
            setattr(store, name, _timed(getattr(store, name), backend, name))


def _timed(
    call: Callable[..., Awaitable[Any]], backend: str, method: str
) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(call)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            TALLY.observe(STORE_CALLS, time.perf_counter() - began, backend, method)

    return timed
