"""A `?code=` from `keys web` binds a browser only when its page's button is
pressed, on the page's own site: opening the link alone changes nothing (so
another site cannot bind a visitor's browser to its own name: login CSRF).
The page server on a real socket, asked as a browser would ask it."""

from __future__ import annotations

import aiohttp
import pytest

from tui_reversi.core import ReversiError
from tui_reversi.web import PASS_COOKIE
from tui_reversi.web.page import PageConfig, start_page


class Codes:
    """A public server's codes (the page's `Binding`): one code, for one name."""

    lifetime = "30 days"

    def __init__(self, code: str, name: str) -> None:
        self.codes = {code: name}

    async def holder(self, code: str, address: str) -> str | None:
        return self.codes.get(code)

    async def trade(self, code: str, address: str) -> str | None:
        return "the-pass" if self.codes.pop(code, None) is not None else None


@pytest.fixture
async def site():
    codes = Codes("ABCD-EF23", "<b>alice</b>")
    page = await start_page(PageConfig(binding=codes), "127.0.0.1", 0)
    try:
        yield page.address, codes
    finally:
        await page.close()


async def test_the_link_names_whom_it_binds_to_and_binds_nothing_by_itself(site):
    address, codes = site
    async with aiohttp.ClientSession() as browser:
        async with browser.get(f"{address}?code=ABCD-EF23&play=table") as shown:
            text = await shown.text()
            assert shown.status == 200 and PASS_COOKIE not in shown.cookies
            assert "frame-ancestors 'none'" in shown.headers["Content-Security-Policy"]
        # The name as it is, never markup; the button posts back here, keeping ?play=.
        assert "Bind this browser to &lt;b&gt;alice&lt;/b&gt;</button>" in text
        assert '<form method="post" action="./?play=table">' in text
        assert '<a class="cancel" href="./?play=table">Cancel</a>' in text
        assert codes.codes == {"ABCD-EF23": "<b>alice</b>"}  # not spent
        async with browser.get(f"{address}?code=WRONG") as refused:
            assert refused.status == 403 and "used or has lapsed" in await refused.text()


async def test_only_the_button_on_the_pages_own_site_trades_the_code(site):
    address, codes = site
    form = {"code": "ABCD-EF23"}
    async with aiohttp.ClientSession() as browser:
        for origin in ("https://evil.example", None):  # another site's form; no Origin
            headers = {"Origin": origin} if origin else {}
            async with browser.post(f"{address}?play=table", data=form, headers=headers) as said:
                assert said.status == 403 and PASS_COOKIE not in said.cookies
        assert codes.codes  # still there for the right button
        own = {"Origin": address.rstrip("/")}
        async with browser.post(
            f"{address}?play=table", data=form, headers=own, allow_redirects=False
        ) as bound:
            assert bound.status == 303 and bound.headers["Location"] == "./?play=table"
            cookie = bound.cookies[PASS_COOKIE]
            assert cookie.value == "the-pass" and cookie["httponly"]
            assert cookie["samesite"] == "Strict"
        async with browser.post(address, data=form, headers=own) as again:
            assert again.status == 403  # one use


class Away(Codes):
    """Codes kept in a database that is away just now."""

    async def holder(self, code: str, address: str) -> str | None:
        raise ReversiError("database reversi on db.example: away just now")


async def test_codes_that_cannot_be_asked_now_are_a_sentence_to_try_again():
    page = await start_page(PageConfig(binding=Away("ABCD-EF23", "alice")), "127.0.0.1", 0)
    try:
        async with (
            aiohttp.ClientSession() as browser,
            browser.get(f"{page.address}?code=ABCD-EF23") as said,
        ):
            assert said.status == 503
            assert await said.text() == (
                "The server cannot bind browsers just now; try the same address again "
                "in a minute.\n"
            )
    finally:
        await page.close()
