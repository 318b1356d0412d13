"""Two people play each other over real SSH: the real `tui-reversi serve` on
loopback, two OpenSSH clients in a private tmux at 80x24, the real app at
both ends. Every move is typed on the mover's terminal and both boards are
read back from the screens."""

import os
import queue
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tui_reversi.core import Game, square_name
from tui_reversi.storage import SavedGames

from ..app.test_tmux import SCRIPT, Tmux
from ..app.test_tmux_keeping import board
from .conftest import identity

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None,
    reason="needs tmux and an OpenSSH client",
)

SSH_OPTIONS = (
    "-F /dev/null -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
    "-o LogLevel=ERROR -o BatchMode=yes"
)

# A client without a key comes in as a guest, as OpenSSH does with no key to offer.
GUEST_OPTIONS = "-o PubkeyAuthentication=no -o PreferredAuthentications=keyboard-interactive"


class Server:
    """`tui-reversi serve` on a free loopback port, its log lines collected
    (started under `prefix`, such as `prlimit --nofile=...`, if given)."""

    def __init__(self, tmp_path: Path, *options: str, prefix: tuple[str, ...] = ()) -> None:
        env = {
            **os.environ,
            "HOME": str(tmp_path / "home"),
            "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
        }
        data = str(tmp_path / "server")
        self.process = subprocess.Popen(
            [*prefix, str(SCRIPT), "serve", "--port", "0", "--data-dir", data, *options],
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.log: list[str] = []  # the banner (stdout) and the log (stderr)
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._read, args=(stream,), daemon=True).start()
        try:
            self.port = int(self.wait_for(r"listening on 127\.0\.0\.1:(\d+)").group(1))
            self.wait_for("games start")
        except BaseException:
            self.stop()  # a server that never said it was ready is not left running
            raise

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        for line in self.log:
            if found := re.search(pattern, line):
                return found
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.log.append(line)
            if found := re.search(pattern, line):
                return found
        raise AssertionError(f"the server never logged {pattern!r}; it logged:\n{self.log}")

    def logged(self) -> list[str]:
        """Every line the server has written so far (for a failure's message)."""
        while True:
            try:
                self.log.append(self.lines.get_nowait())
            except queue.Empty:
                return self.log

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
        self.process.wait(timeout=30)


@pytest.fixture
def people(tmp_path):
    """The server and a private tmux; `people.ssh(name, user, command)` opens a terminal."""
    server = Server(tmp_path)
    tmux = Tmux(f"tui-reversi-people-{os.getpid()}")

    def ssh(name: str, user: str, command: str, *, guest: bool = False) -> None:
        """`user` with their key, or a guest (no key: keyboard-interactive, no prompt)."""
        key = GUEST_OPTIONS if guest else shlex.join(identity(user, tmp_path / "keys"))
        options = SSH_OPTIONS.replace("BatchMode=yes", "BatchMode=no") if guest else SSH_OPTIONS
        # (NO_COLOR: the discs told apart by shape, as board() reads them; in colour
        # both are solid.)
        line = (
            f"env NO_COLOR=1 ssh -o SendEnv=NO_COLOR {options} {key} -t "
            f"-p {tmux.server.port} {user}@127.0.0.1 {command}"
        )
        tmux.open_pane(name, line)

    def restart() -> None:
        """Stop the server (as Ctrl+C would) and start it again on the same data."""
        tmux.server.stop()
        tmux.server = Server(tmp_path)

    tmux.ssh = ssh
    tmux.server = server
    tmux.restart = restart
    tmux.data = tmp_path / "server"
    yield tmux
    tmux("kill-server")
    tmux.server.stop()


def screen(tmux: Tmux, name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait_screen(tmux: Tmux, name: str, check, what: str, timeout: float = 30.0) -> str:
    """`name`'s screen once `check(screen)` holds (an AssertionError counts as not yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = screen(tmux, name)
        try:
            if check(text):
                return text
        except AssertionError:
            pass  # half drawn
        time.sleep(0.05)
    # What the pane's command and the server (where the fixture has one) did
    # instead, so that a failure under load says which side stalled.
    pane = tmux("display-message", "-p", "-t", name, "dead=#{pane_dead} status=#{pane_dead_status}")
    server = getattr(tmux, "server", None)
    said = "".join(server.logged()[-30:]) if server is not None else "(no server)\n"
    raise AssertionError(
        f"{what} never appeared on {name}'s screen ({pane.strip()}):\n{screen(tmux, name)}\n"
        f"the server's last lines:\n{said}"
    )


# A table's invitation, whole: a screen can be read half drawn, with the
# sentence there and the code not yet.
INVITATION = re.compile(r"a friend joins with .* join ([A-Z0-9]{5})\b")


def table_code(tmux: Tmux, name: str, check=lambda s: True) -> tuple[str, str]:
    """The code of the table `name` opened, once its invitation is on the screen
    whole (and `check(screen)` holds); and that screen."""
    text = wait_screen(tmux, name, lambda s: INVITATION.search(s) and check(s), "the table's code")
    return INVITATION.search(text).group(1), text


def rows(game: Game) -> list[str]:
    text = str(game.position)[:64]
    return [text[row * 8 : row * 8 + 8] for row in range(8)]


def sit_down(people, options: str = "") -> str:
    """alice opens a table, bob joins it by its code; the code."""
    people.ssh("alice", "alice", f"table {options}")
    code, text = table_code(people, "alice")
    assert f"ssh -t -p {people.server.port} 127.0.0.1 join {code}" in text
    people.ssh("bob", "bob", f"join {code}")
    wait_screen(
        people, "bob", lambda s: "you (1500?) play White against alice (1500?)" in s, "bob's seat"
    )
    wait_screen(
        people,
        "alice",
        lambda s: "bob (rated 1500?) sits at the table as White" in s,
        "bob's arrival",
    )
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: "Black alice" in s and "White bob" in s, "both names")
    return code


def test_two_people_play_a_whole_game_a_spectator_watches_and_all_see_the_result(people):
    code = sit_down(people)
    people.ssh("carol", "carol", f"watch {code}")
    wait_screen(people, "carol", lambda s: f"Watching table {code}: alice" in s, "carol's view")
    wait_screen(people, "alice", lambda s: "carol is watching" in s, "carol's arrival")
    people("send-keys", "-t", "carol", "d", "3")  # a spectator's keys play nothing
    wait_screen(people, "carol", lambda s: "You are watching" in s, "the spectator told")
    game = Game()
    while not game.is_over:
        mover = ("alice", "bob")[game.position.to_move]
        move = game.position.legal_moves()[0]
        people("send-keys", "-t", mover, *square_name(move))
        game.play(move)
        if game.is_over:
            break  # the result covers the board: it is checked below
        expected = rows(game)
        if game.ply == 10:  # carol steps back through the game while the players play on
            people("send-keys", "-t", "carol", ",")
            wait_screen(people, "carol", lambda s: "REVIEWING MOVE" in s, "carol's review")
        if game.ply == 12:
            people("send-keys", "-t", "carol", "Escape")
        watching = ("alice", "bob") if 10 <= game.ply < 12 else ("alice", "bob", "carol")
        for name in watching:
            wait_screen(
                people,
                name,
                lambda s, expected=expected: board(s) == expected,
                f"the board after {square_name(move)} (ply {game.ply})",
            )
    result = game.result
    winner = ("alice", "bob")[result.winner]
    loser = ("alice", "bob")[1 - result.winner]
    scores = f"Black {result.black} - {result.white} White"
    wait_screen(people, winner, lambda s: "You win!" in s and scores in s, "the result")
    wait_screen(people, loser, lambda s: f"{winner} wins." in s and scores in s, "the result")
    seen = f"Game over: {winner} wins."
    wait_screen(people, "carol", lambda s: seen in s and scores in s, "the result")
    people.server.wait_for(f"table {code}: Game over: {winner} ")
    # The same result in the archive and in both players' saved games.
    with sqlite3.connect(people.data / "archive.sqlite3") as db:
        row = db.execute("SELECT black, white, moves, winner, black_score FROM games").fetchone()
    assert row == ("alice", "bob", game.transcript(), result.winner.name.lower(), result.black)
    for name in ("alice", "bob"):
        directory = people.data / "players" / name / "data" / "tui-reversi" / "games"
        (entry,) = SavedGames(directory).list()
        assert entry.record.names == ("alice", "bob")
        assert entry.record.to_game().result == result


def test_a_player_resigns_and_both_are_told(people):
    code = sit_down(people)
    people("send-keys", "-t", "alice", "d", "3")
    wait_screen(people, "bob", lambda s: "1 d3" in s, "alice's move")
    people("send-keys", "-t", "alice", "c", "5")  # not alice's turn: kept as a premove
    wait_screen(people, "alice", lambda s: "Premove c5: played on your turn" in s, "the premove")
    people("send-keys", "-t", "bob", "R")
    wait_screen(people, "bob", lambda s: "Resign this game?" in s, "the question")
    people("send-keys", "-t", "bob", "y")
    told = "bob (White) resigned: alice (Black) wins."
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: told in s, "the resignation")
    people("send-keys", "-t", "alice", "c", "5")  # (the premove was not played either)
    wait_screen(people, "alice", lambda s: "2 c5" not in s and told in s, "nothing played")
    people.server.wait_for(f"table {code}: bob \\(White\\) resigned")


def test_a_player_who_quits_ends_the_table_and_the_other_is_told(people):
    sit_down(people)
    people("send-keys", "-t", "bob", "C-q")
    told = "bob left the table: the game ends here."
    wait_screen(people, "alice", lambda s: told in s, "bob's leaving")
    people("send-keys", "-t", "alice", "d", "3")
    wait_screen(people, "alice", lambda s: "1 d3" not in s, "no move played")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def test_a_dropped_player_comes_back_to_the_board_by_connecting_again(people):
    sit_down(people)
    people("send-keys", "-t", "alice", "d", "3")
    wait_screen(people, "bob", lambda s: "1 d3" in s, "alice's move")
    people("kill-session", "-t", "bob")  # bob's terminal and ssh are gone at once
    wait_screen(people, "alice", lambda s: "bob dropped out: their seat is held for" in s, "hold")
    people.ssh("bob", "bob", "")  # plain `ssh host`, as anyone would reconnect
    # The status line is drawn after the board: wait for both.
    back = "you (1500?) play White against alice (1500?)"
    wait_screen(
        people, "bob", lambda s: "1 d3" in s and "bob (you)" in s and back in s, "bob's board"
    )
    wait_screen(people, "alice", lambda s: "bob is back." in s, "bob's return")
    people("send-keys", "-t", "bob", "c", "5")
    wait_screen(people, "alice", lambda s: "2 c5" in s, "bob's move after coming back")


def test_a_guest_who_closes_the_terminal_loses_at_once_and_nothing_lists_the_game(people):
    people.ssh("guest", "zed", "table", guest=True)
    code, _ = table_code(people, "guest")
    people.ssh("alice", "alice", f"join {code}")
    seated = re.compile(r"Black (guest-[0-9a-f]{6})")
    text = wait_screen(people, "alice", lambda s: seated.search(s) and "White alice" in s, "names")
    guest = seated.search(text).group(1)
    people("send-keys", "-t", "guest", "d", "3")
    wait_screen(people, "alice", lambda s: "1 d3" in s, "the guest's move")
    people("kill-session", "-t", "guest")  # the guest's terminal and ssh are gone at once
    told = f"{guest} went, and a guest cannot come back: alice (White) wins."
    text = wait_screen(people, "alice", lambda s: told in " ".join(s.split()), "the sentence")
    assert "held" not in text
    people.server.wait_for(f"table {code}: {guest} went")
    people("send-keys", "-t", "alice", "q")  # the game is over: leaving asks nothing
    deadline = time.monotonic() + 30
    while people("display-message", "-p", "-t", "alice", "#{pane_dead}").strip() != "1":
        assert time.monotonic() < deadline, f"alice's ssh never ended:\n{screen(people, 'alice')}"
        time.sleep(0.05)
    key = identity("alice", people.data.parent / "keys")
    port = str(people.server.port)
    asked = subprocess.run(
        ["ssh", *SSH_OPTIONS.split(), *key, "-p", port, "alice@127.0.0.1", "resume"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert asked.stdout == "tui-reversi: alice has no adjourned games on this server.\n"


def test_with_a_time_control_both_panels_show_both_clocks_and_the_movers_runs(people):
    sit_down(people, "clock 5+3")
    clocks = re.compile(r"Black alice.*\b[45]:\d\d.*\n.*White bob.*\b5:00")
    for name in ("alice", "bob"):
        wait_screen(people, name, clocks.search, "both clocks")
    people("send-keys", "-t", "alice", "d", "3")
    # alice's move added three seconds to her clock; now bob's runs.
    moved = re.compile(r"Black alice.*\b5:0[0-3].*\n.*White bob.*\b[45]:\d\d")
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: "1 d3" in s and moved.search(s), "the clocks")


def test_a_chat_line_typed_at_one_terminal_shows_literally_at_the_other(people):
    sit_down(people)
    people("send-keys", "-t", "bob", "/")
    wait_screen(people, "bob", lambda s: "Say something to the table" in s, "the chat line")
    people("send-keys", "-t", "bob", "-l", "[b]hello[/b] $who")
    people("send-keys", "-t", "bob", "Enter")
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: "bob: [b]hello[/b] $who" in s, "the chat")


def test_a_takeback_asked_at_one_terminal_and_allowed_at_the_other_takes_both_back(people):
    sit_down(people)
    people("send-keys", "-t", "alice", "d", "3")
    wait_screen(people, "bob", lambda s: "1 d3" in s, "alice's move")
    people("send-keys", "-t", "alice", "u")
    wait_screen(people, "bob", lambda s: "alice asks to take back" in s, "the question")
    people("send-keys", "-t", "bob", "y")
    start = rows(Game())
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: board(s) == start and "1 d3" not in s, "the start")
    people("send-keys", "-t", "alice", "c", "4")
    wait_screen(people, "bob", lambda s: "1 c4" in s, "alice's other move")


def game_processes(people, user: str) -> list[int]:
    """The game processes running for `user` (their working directory is the player's)."""
    home = str(people.data / "players" / user)
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "cwd") == home:
                    found.append(int(entry.name))
            except OSError:
                continue  # gone meanwhile, or not ours to look at
    return found


def clocks(text: str) -> tuple[str, str]:
    """Black's and White's clocks as a score panel shows them (AssertionError
    while they are not both drawn: `wait_screen` waits on)."""
    black = re.search(r"Black alice.*?(\d+:\d\d)", text)
    white = re.search(r"White bob.*?(\d+:\d\d)", text)
    assert black and white, text
    return black.group(1), white.group(1)


def test_a_killed_game_adjourns_at_once_and_both_resume_it_after_a_restart(people):
    code = sit_down(people, "clock 5+3")
    people("send-keys", "-t", "alice", "d", "3")
    wait_screen(people, "bob", lambda s: "1 d3" in s, "alice's move")
    (pid,) = game_processes(people, "bob")
    os.kill(pid, signal.SIGKILL)  # bob's game dies mid-game; his ssh is still connected
    told = "bob's game stopped unexpectedly: the game is adjourned until bob is back."
    stopped = wait_screen(people, "alice", lambda s: told in s and clocks(s), "the sentence")
    told_bob = f"Table {code}'s game is adjourned; to go on with it:"
    resume = f"  ssh -t -p {people.server.port} bob@127.0.0.1 resume"
    bob_told = ("your game stopped unexpectedly.", told_bob, resume)
    wait_screen(people, "bob", lambda s: all(part in s for part in bob_told), "bob told")
    with sqlite3.connect(people.data / "archive.sqlite3") as db:
        row = db.execute("SELECT code, moves, adjourned FROM unfinished").fetchone()
    assert row == (code, "d3", 1)
    # The clocks stopped where they were: a while later alice's screen still shows them.
    time.sleep(1.5)
    before = clocks(wait_screen(people, "alice", clocks, "the clocks"))
    assert before == clocks(stopped)

    people.restart()
    wait_screen(
        people,
        "alice",
        lambda s: "shutting down; sorry!" in s and f"Table {code}'s game is adjourned" in s,
        "the goodbye",
    )
    people.server.wait_for(f"table {code}: alice against bob kept adjourned, move 2")
    for name in ("alice", "bob"):
        people("kill-session", "-t", name)
        people.ssh(name, name, "resume")
    expected = rows(Game.from_transcript("d3"))
    for name in ("alice", "bob"):
        wait_screen(
            people,
            name,
            lambda s: board(s) == expected and "1 d3" in s and "both back" in s,
            "the game where it stopped",
        )
    # Black's clock (not running: it is White's turn) is where it stopped.
    assert clocks(wait_screen(people, "alice", clocks, "the clocks"))[0] == before[0]
    people("send-keys", "-t", "bob", "c", "5")
    wait_screen(people, "alice", lambda s: "2 c5" in s, "bob's move after the restart")


def test_the_host_who_asks_for_white_plays_white_and_the_friend_moves_first(people):
    people.ssh("alice", "alice", "table white")
    code, _ = table_code(people, "alice", lambda s: re.search(r"White alice \(you\)", s))
    people.ssh("bob", "bob", f"join {code}")
    wait_screen(people, "bob", lambda s: "you (1500?) play Black against alice" in s, "bob's seat")
    people("send-keys", "-t", "alice", "d", "3")  # not alice's turn (Black moves first): a premove
    wait_screen(people, "alice", lambda s: "Premove d3: played on your turn" in s, "the premove")
    people("send-keys", "-t", "bob", "d", "3")
    for name in ("alice", "bob"):
        wait_screen(people, name, lambda s: "1 d3" in s and "Black bob" in s, "bob's move")
    dropped = "The premove d3 was dropped: it is occupied now."
    wait_screen(people, "alice", lambda s: dropped in s and "2 d3" not in s, "the premove dropped")


def test_both_panels_show_both_players_ratings_beside_their_names(people):
    import asyncio

    from tui_reversi.core import Color
    from tui_reversi.server.ledger.archive import Archive

    from .test_store import played

    async def rate() -> None:  # (beside the running server, as another process would write it)
        archive = Archive(people.data / "archive.sqlite3", people.data / "players")
        try:
            await archive.keep(played("AAAAA", ("alice", "bob"), Color.BLACK))  # 1741?, 1259?
        finally:
            await archive.close()

    asyncio.run(rate())
    people.ssh("alice", "alice", "table")
    code, _ = table_code(people, "alice")
    people.ssh("bob", "bob", f"join {code}")
    panels = {
        "alice": r"● Black alice \(you\) +1741\? +2 ◀ *│\n.*○ White bob +1259\? +2  ",
        "bob": r"● Black alice +1741\? +2 ◀ *│\n.*○ White bob \(you\) +1259\? +2  ",
    }
    for name, panel in panels.items():
        wait_screen(people, name, re.compile(panel).search, f"both ratings on {name}'s panel")
