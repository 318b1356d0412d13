"""A public server's page (`serve --web-port`), as the page server is given it:
each visitor a `BrowserVisitor` at the edge's door (browser.py), the `?code=`
trades counted as guesses (`GuardedBinding`), the page's sockets under the
budgets (`page_sockets`), and the server's own host names only (`page_hosts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...web.page import LOOPBACK_NAMES, PageConfig, PageRefusal, bound_names
from ...web.page_guard import CONNECTIONS_PER_ADDRESS, SocketLimits
from ..config import ServeConfig
from .browser import BrowserVisitor
from .budgets import PAGE_SOCKETS
from .descriptors import low_limit_note
from .guessing import code_failed, code_refusal

if TYPE_CHECKING:
    from ..ledger.store import Store
    from .arcade import Arcade


class GuardedBinding:
    """The page's `?code=` (web/page.py's `Binding`): the browser passes' codes,
    each wrong one counted against the address that tried it (guessing.py: the
    same count as wrong key codes, kept in the store), and PageRefusal once it
    has guessed wrong too often, before the code is even looked at."""

    def __init__(self, arcade: Arcade) -> None:
        self._arcade = arcade

    @property
    def lifetime(self) -> str:
        return self._arcade.browser_passes.lifetime

    async def holder(self, code: str, address: str) -> str | None:
        await self._refuse_if_spent(address)
        name = await self._arcade.browser_passes.holder(code)
        if name is None:
            await code_failed(self._store, None, address)
        return name

    async def trade(self, code: str, address: str) -> str | None:
        await self._refuse_if_spent(address)
        browser_pass = await self._arcade.browser_passes.trade(code)
        if browser_pass is None:
            await code_failed(self._store, None, address)
        return browser_pass

    @property
    def _store(self) -> Store:
        return self._arcade.store  # (opened before the page is served)

    async def _refuse_if_spent(self, address: str) -> None:
        refusal = await code_refusal(self._store, None, address)
        if refusal is not None:
            raise PageRefusal(refusal)


def page_hosts(arcade: Arcade) -> frozenset[str]:
    """The Host names the page answers: --public-address's host, the address it is
    bound to, and this machine's loopback names (a DNS-rebinding site's name is
    none of them: a page of its own cannot drive a game here)."""
    config = arcade.config
    hosts = set(bound_names(config.host)) | LOOPBACK_NAMES
    if config.public_address is not None:
        hosts.add(config.public_address[0].strip("[]").lower())
    return frozenset(hosts)


def page_sockets(config: ServeConfig, *, forwarded: bool, descriptors: int) -> SocketLimits:
    """The page port's connections: a quarter of the descriptors in all, and
    CONNECTIONS_PER_ADDRESS per person an address stands for (--max-per-address:
    a school behind one NAT), unless a proxy in front has them all come from its
    own address (it guards its port; the budgets here still count each visitor's
    own, from X-Forwarded-For)."""
    total = max(16, descriptors // 4)
    people = CONNECTIONS_PER_ADDRESS * config.people_per_address()
    per_address = total if forwarded else min(people, total)
    return SocketLimits(per_address, total, config.page_header_timeout)


def page_config(arcade: Arcade, *, least_size: tuple[int, int], forwarded: bool) -> PageConfig:
    """What a public server's page is: each visitor a `BrowserVisitor` at the
    edge's door, the code trade counted as guessing, the page's sockets under the
    budgets (`page_sockets`), its hosts only (`page_hosts`)."""
    if (low := low_limit_note(arcade.descriptors)) is not None:
        arcade.note(low)
    if not bound_names(arcade.config.host) and arcade.config.public_address is None:
        arcade.note(
            "the page answers at this machine's IP addresses and localhost only: give "
            "--public-address NAME:PORT for the name browsers reach it at"
        )

    def socket_refusal(address: str) -> str | None:
        if arcade.budgets.address_bucket(PAGE_SOCKETS, address).take():
            return None
        return "too many pages opened from your address; wait a few seconds."

    return PageConfig(
        visitor=lambda visit: BrowserVisitor(arcade, visit),
        binding=GuardedBinding(arcade),
        socket_refusal=socket_refusal,
        sockets=page_sockets(arcade.config, forwarded=forwarded, descriptors=arcade.descriptors),
        hosts=page_hosts(arcade),
        # Bound to every address with no public one named: reached at any of them.
        ip_hosts=not bound_names(arcade.config.host) and arcade.config.public_address is None,
        least_size=least_size,
        forwarded=forwarded,
    )
