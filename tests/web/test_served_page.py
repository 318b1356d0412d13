"""`tui-reversi serve --web-port`: the public server's page, in Chromium beside
real SSH players (OpenSSH in tmux): a browser visitor is one more terminal of
the server's, a guest."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import time
from urllib.parse import quote

import pytest

from ..app.test_tmux import Tmux
from ..server.conftest import identity
from ..server.test_hosted_games import terminals_of
from ..server.test_table_game import INVITATION, SSH_OPTIONS, Server, table_code, wait_screen
from .browser import DESKTOP, WebTerminal, children_of

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None,
    reason="needs tmux and an OpenSSH client",
)


@pytest.fixture
def hall(tmp_path, request):
    """The server with its page (and the test's `serve_options`, if marked so),
    and a private tmux for the SSH players."""
    marker = request.node.get_closest_marker("serve_options")
    server = Server(tmp_path, "--web-port", "0", *(marker.args if marker else ()))
    tmux = Tmux(f"tui-reversi-web-{os.getpid()}")
    try:
        page = server.wait_for(r"the page at (http://\S+/)").group(1)

        def ssh(name: str, user: str, command: str) -> None:
            key = shlex.join(identity(user, tmp_path / "keys"))
            line = f"ssh {SSH_OPTIONS} {key} -t -p {server.port} {user}@127.0.0.1 {command}"
            tmux.open_pane(name, line)

        tmux.ssh = ssh
        tmux.server = server
        tmux.page = page
        yield tmux
    finally:
        tmux("kill-server")
        server.stop()


def test_a_browser_guest_and_an_ssh_player_play_at_one_table_and_see_each_others_moves(
    browser, hall
):
    hall.ssh("alice", "alice", "table")
    code, _ = table_code(hall, "alice")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(f"{hall.page}?play={quote(f'join {code}')}")
        seated = terminal.wait_for(
            lambda s: (
                re.search(r"you play White against alice", s) is not None
                or "play White against alice" in s
            ),
            "the browser guest's seat",
        )
        assert "play White against alice" in seated
        # A guest, as ssh HOST without a key gives: unrated.
        wait_screen(
            hall,
            "alice",
            lambda s: re.search(r"guest-\w+ \(a guest, unrated\) sits at the table as White", s),
            "the guest",
        )
        alice_d3_guest_c5(hall, page, terminal)
        # Both games are the server's own processes, forked from its preloaded parent.
        parent = int(hall.server.wait_for(r"preloaded parent \(pid (\d+)").group(1))
        assert len(children_of(parent)) == 2
    finally:
        context.close()
    # The page's game ends with the page (its seat held, as for a dropped SSH player).
    hall.server.wait_for("disconnect .*web:")
    down_to_one(lambda: children_of(parent))
    assert len(children_of(parent)) == 1  # alice's game only


def down_to_one(processes) -> None:
    """Wait (30 s at most) for the page's game to go, leaving alice's alone."""
    deadline = time.monotonic() + 30
    while len(processes()) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)


def alice_d3_guest_c5(hall, page, terminal) -> None:
    """alice (over SSH) plays d3, the guest at her table (on the page) c5, each
    seen on both screens."""
    hall("send-keys", "-t", "alice", "d", "3")
    terminal.wait_for(lambda s: terminal.moves_played(1) and " 1 d3" in s, "alice's d3")
    page.mouse.click(*terminal.square_point("c5"))
    wait_screen(hall, "alice", lambda s: "c5" in s.split("Moves")[-1], "the guest's c5")
    terminal.wait_for(lambda s: terminal.moves_played(2), "the guest's c5 on its own page")


@pytest.mark.serve_options("--games-per-process", "3")
def test_a_browser_guests_game_shares_a_game_process_with_an_ssh_players(browser, hall):
    hall.ssh("alice", "alice", "table")
    code, _ = table_code(hall, "alice")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(f"{hall.page}?play={quote(f'join {code}')}")
        terminal.wait_for(lambda s: "play White against alice" in s, "the browser guest's seat")
        alice_d3_guest_c5(hall, page, terminal)
        # Both games run in one game process, forked from the preloaded parent.
        parent = int(hall.server.wait_for(r"preloaded parent \(pid (\d+)").group(1))
        (host,) = children_of(parent)
        assert len(terminals_of(host)) == 2
    finally:
        context.close()
    # The page's game ends with the page; alice's plays on in the same process.
    hall.server.wait_for("disconnect .*web:")
    down_to_one(lambda: terminals_of(host))
    assert len(terminals_of(host)) == 1 and children_of(parent) == {host}


def web_code(hall) -> str:
    """The code alice's `keys web` prints, at the end of the page's own address (as
    the server was reached: 127.0.0.1, the page's port)."""
    hall.ssh("alice-keys", "alice", "keys web")
    given = re.compile(rf"{re.escape(hall.page)}\?code=([A-Z0-9]{{4}}-[A-Z0-9]{{4}})\b")
    return given.search(wait_screen(hall, "alice-keys", given.search, "the code")).group(1)


def test_a_keyed_player_binds_a_browser_with_a_one_time_code_and_plays_rated_as_themselves(
    browser, hall
):
    code = web_code(hall)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(f"{hall.page}?code={code}&play=table")
        # Nothing is bound until the button that names alice is pressed.
        button = page.get_by_role("button", name="Bind this browser to alice")
        button.wait_for()
        assert not context.cookies()
        button.click()
        page.wait_for_url(lambda url: "code=" not in url)  # gone from the address
        assert "play=table" in page.url and context.cookies()
        text = terminal.wait_for(INVITATION.search, "the bound browser's table")
        table = INVITATION.search(text).group(1)
        # The hint names the SSH port and the host the page was reached at.
        assert re.search(rf"-p {hall.server.port} (\S+@)?127\.0\.0\.1 join {table}", text), text
        hall.server.wait_for(r"connect .*peer=web:\S+ user=alice")
        hall.ssh("bob", "bob", f"join {table}")
        # Rated on both sides: alice is herself, not a guest.
        wait_screen(
            hall, "bob", lambda s: "you (1500?) play White against alice (1500?)" in s, "bob's seat"
        )
        hall.server.wait_for(r"a browser is bound to alice: pass [0-9a-f]{8}")
        # The code worked once: a second browser is told so, and gets no pass.
        other = browser.new_context(viewport=DESKTOP)
        try:
            again = other.new_page().goto(f"{hall.page}?code={code}")
            assert again.status == 403
            assert "used or has lapsed" in again.text()
            assert not other.cookies()
        finally:
            other.close()
    finally:
        context.close()


@pytest.mark.serve_options("--max-sessions", "1")
def test_a_browser_visitor_counts_in_the_servers_seats_and_is_told_when_they_are_taken(
    browser, hall
):
    hall.ssh("alice", "alice", "")
    wait_screen(hall, "alice", lambda s: "Black alice" in s, "alice's game")
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(hall.page)
        terminal.wait_for(lambda s: "all 1 seats are taken" in s, "the sentence")
        page.wait_for_selector("body.-closed", state="attached", timeout=15_000)
    finally:
        context.close()


def test_stopping_the_server_ends_the_browsers_game_and_tells_its_page(browser, hall):
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(hall.page)
        terminal.wait_for(lambda s: "Black to move" in s, "the guest's game")
        hall.server.stop()
        assert hall.server.process.returncode == 0
        terminal.wait_for(lambda s: "the server is shutting down" in s, "the goodbye")
        page.wait_for_selector("body.-closed", state="attached", timeout=15_000)
    finally:
        context.close()


def test_cancel_on_the_binding_page_leaves_the_browser_a_guest(browser, hall):
    code = web_code(hall)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        terminal = WebTerminal(page)
        page.goto(f"{hall.page}?code={code}")
        page.get_by_role("link", name="Cancel").click()
        terminal.wait_for(lambda s: "Black to move" in s, "the guest's game")
        assert not context.cookies() and "code=" not in page.url
        hall.server.wait_for(r"connect .*peer=web:\S+ user=guest-")
    finally:
        context.close()
