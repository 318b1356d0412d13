"""What the ledger's books (moderation, renames, tournaments, browser passes)
ask of the store they are part of (archive.py's SQLite, postgres.py's
PostgreSQL): one statement, several in one transaction, and the store's test
that a row's name is one of several."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .standings import Query

T = TypeVar("T")


class KeptQueries(ABC):
    """The queries a book runs, as its store runs them."""

    @abstractmethod
    async def _rows(self, query: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """Run one statement (`?` for each value); its rows. Raises StorageError."""

    @abstractmethod
    async def _transaction(self, work: Callable[[Query], Awaitable[T]], what: str) -> T:
        """`work`'s statements in one transaction; StorageError saying it could not
        `what` if the store fails."""

    @abstractmethod
    def _among(self, names: list[str]) -> tuple[str, object]:
        """The store's test that a row's `name` is one of `names` (standings.Among)."""
