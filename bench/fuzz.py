"""Fuzz the real app in a real terminal: tmux gives it a pty, and the fuzzer
sends it bytes, not only keys.

    nice -n 10 .venv/bin/python bench/fuzz.py --keys 100000 --seed 1
    nice -n 10 .venv/bin/python bench/fuzz.py --ssh --keys 20000 --seed 2

Each step sends one of: a run of keys (game keys, named keys, printable and
non-ASCII text, control characters), bytes that are not UTF-8, a truncated
escape sequence, a bracketed paste of binary data (or of a game), mouse
clicks, a burst of 1,000 keys, or a resize down to as small as 40x10 and
back to 80x24. After every step it checks that the app is alive by pressing
F1 (help opens) and F1 again (help closes), with Esc between tries to close
the palette and dialogs (over which F1 does nothing), one Esc for each
however many are stacked: four tries in a row where F1 brings no help
within 5 s and Esc changes nothing within 1 s are a hang.
`q` and ctrl+q are never sent (they quit, by design); if the app quits some
other way (the palette's Quit), it is started again and counted.

A crash is the app ending with a non-zero status, a traceback on the screen,
or a crash report written. Every failure prints the step's seed and what the
step sent; `--seed S --keys N` replays the same run, `--step SEED` that one
step alone from a fresh start (repeat it for several). It prints keys sent (a
key, a byte of junk, a paste, a click or a resize each count as one),
crashes, hangs, restarts (and the steps that quit), panes lost (tmux's
doing, not the app's), games whose autosave would not read back, and the
rate. A failure leaves the screen it saw in the output folder
(crash-N.screen, hang-N.screen); after a local hang, hang-N.stacks holds
every thread's stack in the app at that moment (SIGUSR1 with
$TUI_REVERSI_STACKS set: the app's faulthandler writes them, stuck or
not). With `--ssh` the app runs under `tui-reversi serve` (port 2300 by
default) and the fuzzer plays through OpenSSH; the server's log is checked
for crashes too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = Path(sys.executable).parent / "tui-reversi"
SOCKET = f"tui-reversi-fuzz-{os.getpid()}"
EXITED = "tui-reversi-fuzz-exited-"
STATUS_FILE = Path(tempfile.gettempdir()) / f"{SOCKET}.status"  # the app's exit status
HELP_MARK = "(esc closes)"  # the help screen's title
PATIENCE = 5.0  # seconds a screen may take to change after a key that changes it
ESC_LIMIT = 30  # more dialogs than this over the game is a fault in itself
SIZE = (80, 24)

# What a key sends on an xterm. q and ctrl+q (\x11) are left out: they quit.
NAMED = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "delete": "\x1b[3~",
    "insert": "\x1b[2~",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
    "f5": "\x1b[15~",
    "enter": "\r",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "backspace": "\x7f",
    "space": " ",
    "ctrl+p": "\x10",
    "ctrl+u": "\x15",
    "ctrl+c": "\x03",
    "ctrl+w": "\x17",
    "alt+x": "\x1bx",
}
GAME_KEYS = "abcdefgh12345678nurimpsoxtdyhjkl,.?wci"
TEXT = "ABCDEFGHIJKLMNOPRSTUVWXYZ0123456789 -_/\\'\"[]{}()<>:;!@#$%^&*+=|~`"
UNICODE = "éßøΩЖ中文●○▶⏎😀\u200b\u0301\ufffd"
TRUNCATED = [
    "\x1b[",
    "\x1b[1;",
    "\x1bO",
    "\x1b[<0;",
    "\x1b[<0;12",
    "\x1b[200",
    "\x1b]52;c;",
    "\x1bP",
]
GAMES = ["f5d6c3d3c4f4f6", "---------------------------OX------XO--------------------------- X"]
KINDS = {  # step kind -> weight
    "keys": 50,
    "junk": 8,
    "truncated": 6,
    "paste": 6,
    "mouse": 8,
    "resize": 8,
    "burst": 10,
}


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, timeout=30)
    return done.stdout


def screen() -> str:
    """The pane's text ('' if tmux has no such pane any more), and once the
    app has ended a last line EXITED<its exit status>."""
    shown = tmux("capture-pane", "-p", "-J", "-t", "fuzz")
    if STATUS_FILE.exists():
        return f"{shown}{EXITED}{STATUS_FILE.read_text().strip()}\n"
    return shown


def send(data: bytes) -> None:
    # tmux takes at most a few thousand arguments comfortably: send in slices.
    for start in range(0, len(data), 2000):
        chunk = data[start : start + 2000]
        tmux("send-keys", "-t", "fuzz", "-H", *(f"{byte:02x}" for byte in chunk))


def resize(width: int, height: int) -> None:
    tmux("resize-window", "-t", "fuzz", "-x", str(width), "-y", str(height))


def wait_until(check, timeout: float = PATIENCE) -> str | None:
    """The screen once `check(screen)` holds, or None after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        shown = screen()
        if check(shown):
            return shown
        if time.monotonic() > deadline:
            return None
        time.sleep(0.02)


@dataclass
class Step:
    kind: str
    seed: int
    writes: list[bytes] = field(default_factory=list)
    keys: int = 0
    size: tuple[int, int] | None = None

    def describe(self) -> str:
        sent = b"".join(self.writes)
        shown = repr(sent[:120]) + ("..." if len(sent) > 120 else "")
        extra = f" resize to {self.size[0]}x{self.size[1]}" if self.size else ""
        return f"{self.kind} step, seed {self.seed}:{extra} {shown}"


def random_key(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(GAME_KEYS)
    if roll < 0.80:
        return NAMED[rng.choice(list(NAMED))]
    if roll < 0.92:
        return rng.choice(TEXT)
    if roll < 0.97:
        return rng.choice(UNICODE)
    control = rng.choice([c for c in range(1, 32) if c not in (0x11, 0x1B)])
    return chr(control)


def make_step(seed: int) -> Step:
    """One step, entirely decided by `seed`."""
    rng = random.Random(seed)
    kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
    step = Step(kind, seed)
    if kind == "burst":
        step.writes.append("".join(random_key(rng) for _ in range(1000)).encode())
        step.keys = 1000
    elif kind == "keys":  # runs of keys, with a lone Esc (closing a dialog) between them
        for run in range(rng.randint(1, 4)):
            if run:
                step.writes.append(b"\x1b")
            count = rng.randint(1, 150)
            step.writes.append("".join(random_key(rng) for _ in range(count)).encode())
            step.keys += count + (1 if run else 0)
    elif kind == "junk":
        junk = bytes(
            rng.choice([rng.randrange(0x80, 0x100), rng.randrange(256)])
            for _ in range(rng.randint(1, 64))
        )
        step.writes.append(junk.replace(b"\x11", b"").replace(b"q", b""))
        step.keys = len(junk)
    elif kind == "truncated":
        count = rng.randint(1, 10)
        text = "".join(rng.choice(TRUNCATED) + random_key(rng) for _ in range(count))
        step.writes.append(text.encode())
        step.keys = count * 2
    elif kind == "paste":
        if rng.random() < 0.3:
            body = rng.choice(GAMES).encode()
        else:
            body = rng.randbytes(rng.randint(1, 400)).replace(b"\x1b", b"")
        step.writes.append(b"\x1b[200~" + body + b"\x1b[201~")
        step.keys = 1
    elif kind == "mouse":
        clicks = rng.randint(1, 30)
        for _ in range(clicks):
            x, y = rng.randint(1, SIZE[0]), rng.randint(1, SIZE[1])
            button = rng.choice([0, 0, 0, 2, 64, 65])  # left, right, wheel
            step.writes.append(f"\x1b[<{button};{x};{y}M\x1b[<{button};{x};{y}m".encode())
        step.keys = clicks
    else:  # resize
        step.size = (rng.randint(40, 120), rng.randint(10, 40))
        step.keys = 1
    return step


class Target:
    """Where the app runs: locally, or over SSH to `tui-reversi serve`."""

    def __init__(self, home: Path, ssh_port: int | None) -> None:
        self.home = home
        self.ssh_port = ssh_port
        self.server: subprocess.Popen | None = None
        self.server_log = home / "server.log"
        env = {**os.environ, "HOME": str(home)}
        if ssh_port is not None:
            log = self.server_log.open("w")
            self.server = subprocess.Popen(
                [
                    *(APP, "serve", "--port", str(ssh_port), "--data-dir", str(home / "server")),
                    *("--idle-timeout", "0", "--session-limit", "0"),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
            deadline = time.monotonic() + 30
            while "listening" not in self.server_log.read_text().lower():
                if self.server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(
                        f"fuzz: the server did not start:\n{self.server_log.read_text()}"
                    )
                time.sleep(0.1)

    @property
    def data_dir(self) -> Path:
        if self.ssh_port is None:
            return self.home / "data" / "tui-reversi"
        return self.home / "server" / "players" / "fuzz" / "data" / "tui-reversi"

    @property
    def crash_reports(self) -> list[Path]:
        where = self.home / "server" if self.ssh_port is not None else self.data_dir
        return sorted((where / "crash-reports").glob("*.txt"))

    @property
    def stacks_file(self) -> Path:
        return self.home / "stacks.txt"

    def stacks(self) -> str:
        """Every thread's stack in the app, as it is now (local only: the
        app writes them on SIGUSR1); '' if they could not be had."""
        if self.ssh_port is not None:
            return ""
        shell = tmux("display-message", "-p", "-t", "fuzz", "#{pane_pid}").strip()
        found = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True)
        pids = found.stdout.split()
        if not pids:
            return ""
        with contextlib.suppress(OSError):  # emptied, not removed: the app holds it open
            os.truncate(self.stacks_file, 0)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGUSR1)
        time.sleep(1.0)
        try:
            return self.stacks_file.read_text(errors="replace")
        except OSError:
            return ""

    def command(self) -> str:
        if self.ssh_port is None:
            env = f"XDG_DATA_HOME={self.home}/data XDG_CONFIG_HOME={self.home}/config"
            env += f" TUI_REVERSI_STACKS={self.stacks_file}"  # SIGUSR1: every thread's stack
            run = f"env {env} TERM=xterm-256color {APP} --white easy"
        else:
            ssh = ["ssh", "-tt", "-e", "none", "-p", str(self.ssh_port)]
            ssh += ["-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
            ssh += ["-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "fuzz@127.0.0.1"]
            run = f"TERM=xterm-256color {shlex.join(ssh)}"
        # Once the app has ended the terminal is in cooked mode, and a ctrl+c
        # still to come in the step is SIGINT. The shell traps it (the app
        # starts with the default: a child's traps are reset) and lives to
        # write the status to a file (on the terminal, the ctrl+c after it
        # would flush it unseen); the pane stays when the shell ends
        # (remain-on-exit, set with the session). Else the pane, the session
        # and the status went, and the fuzzer read a blank pane as a hang.
        status = shlex.quote(str(STATUS_FILE))
        return f"trap : INT QUIT TSTP; cd {self.home}/files && {run}; echo $? > {status}"

    def start(self) -> bool:
        """A fresh game on the screen (the unfinished one resumed); False if it never came."""
        STATUS_FILE.unlink(missing_ok=True)
        (self.home / "files").mkdir(exist_ok=True)
        size = ("-x", str(SIZE[0]), "-y", str(SIZE[1]))
        # In place: killing the last session ends the tmux server, and a new
        # session started while it goes away may silently fail.
        alive = ["tmux", "-L", SOCKET, "has-session", "-t", "fuzz"]
        if subprocess.run(alive, capture_output=True).returncode == 0:
            tmux("respawn-pane", "-k", "-t", "fuzz", self.command())
            tmux("resize-window", "-t", "fuzz", *size)
        else:
            tmux(
                *("start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";"),
                *("new-session", "-d", "-s", "fuzz", *size, self.command()),
            )
        shown = wait_until(lambda s: "Black" in s or "Resume" in s or EXITED in s, timeout=30)
        if shown is None or EXITED in shown:
            return False
        if "Resume" in shown:
            send(b"r")
        # The board's column letters, however wide the squares (ASCII mode is wider).
        board = re.compile(r"a\s+b\s+c\s+d\s+e")
        if wait_until(lambda s: board.search(s) is not None, timeout=30) is None:
            (self.home / f"start-{time.time():.0f}.screen").write_text(screen())
            return False
        return True

    def stop(self) -> None:
        tmux("kill-server")
        STATUS_FILE.unlink(missing_ok=True)
        if self.server is not None:
            self.server.send_signal(signal.SIGINT)  # (at once: SIGTERM drains)
            try:
                self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()


def exit_status(shown: str) -> int | None:
    found = re.search(rf"{EXITED}(\d+)", shown)
    return int(found[1]) if found else None


def help_toggles() -> bool:
    """F1 opens help and F1 closes it again (or closes it, if it was open).
    False if the screen did not answer within PATIENCE."""
    was_open = HELP_MARK in screen()
    send(NAMED["f1"].encode())
    if was_open:
        return wait_until(lambda s: HELP_MARK not in s or EXITED in s) is not None
    shown = wait_until(lambda s: HELP_MARK in s or EXITED in s)
    if shown is None:
        return False
    if EXITED in shown:
        return True
    send(NAMED["f1"].encode())
    return wait_until(lambda s: HELP_MARK not in s or EXITED in s) is not None


def escaped() -> bool:
    """Esc changed the screen (closed the palette or a dialog) within a second."""
    before = screen()
    send(b"\x1b")
    return wait_until(lambda s: s != before, timeout=1.0) is not None


def alive() -> tuple[str, int]:
    """('', retries) if the app answers keys, else (what went wrong, retries).

    F1 toggles help over the game and the other full screens, but not over
    the command palette or a dialog (a modal screen keeps the app's keys
    from it), and a key can be taken as the end of an escape sequence the
    step left unfinished. If help does not answer, Esc (which closes the
    palette and every dialog) and try again. An Esc that changes the screen
    is an answer: a stack of dialogs takes one Esc each, however deep (up to
    ESC_LIMIT). Four tries in a row where neither F1 nor Esc changed the
    screen (24 s) are a hang."""
    retries = unanswered = 0
    while unanswered < 4:
        if help_toggles():
            return "", retries
        retries += 1
        if retries >= ESC_LIMIT:
            return f"help never opened in {ESC_LIMIT} tries, though Esc changed the screen", retries
        unanswered = 0 if escaped() else unanswered + 1
    return "neither F1 nor Esc changed the screen in four tries in a row", retries


def resized(width: int, height: int) -> str:
    """'' if the app redraws for a new size, else what went wrong (checked
    where the size is below the app's minimum: it says so, with the size)."""
    resize(width, height)
    if width >= 60 and height >= 21:
        return ""
    said = f"{width}x{height}"
    if wait_until(lambda s: said in s or EXITED in s) is None:
        return f"no 'too small' notice at {said}"
    return ""


def record_reads_back(target: Target) -> str:
    """'' if the autosave (the game as the app left it) reads back as a legal game."""
    if not (target.data_dir / "autosave.json").exists():
        return ""
    env = {**os.environ, "XDG_DATA_HOME": str(target.data_dir.parent)}
    done = subprocess.run(
        [APP, "games", "export", "--autosave", "--format", "transcript"],
        capture_output=True,
        text=True,
        env=env,
    )
    return "" if done.returncode == 0 else done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=2000, help="keys to send (default 2000)")
    parser.add_argument("--seed", type=int, default=None, help="the run's seed (default: random)")
    parser.add_argument("--ssh", action="store_true", help="play through tui-reversi serve")
    parser.add_argument("--port", type=int, default=2300, help="the server's port with --ssh")
    parser.add_argument("--out", type=Path, default=None, help="keep the run's files here")
    parser.add_argument(
        "--step",
        type=int,
        action="append",
        default=[],
        metavar="SEED",
        help="replay only the step with this seed (as a failure prints it), from a fresh app; "
        "repeat the flag for several steps in order",
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None or (args.ssh and shutil.which("ssh") is None):
        raise SystemExit("fuzz: needs tmux (and the OpenSSH client for --ssh)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    home = args.out or Path(tempfile.mkdtemp(prefix="tui-reversi-fuzz-"))
    home.mkdir(parents=True, exist_ok=True)
    what = f"the steps {', '.join(map(str, args.step))}" if args.step else f"{args.keys} keys"
    print(
        f"fuzz: seed {seed}, {what}, {'over SSH' if args.ssh else 'local'};",
        f"files in {home}",
    )
    target = Target(home, args.port if args.ssh else None)
    rng = random.Random(seed)
    sent = steps = crashes = hangs = lost = restarts = bad_records = retries = 0
    failures: list[str] = []
    quits: list[str] = []  # not failures, but which steps quit is worth knowing
    reports_seen = 0
    started = time.monotonic()
    next_report = 0.1
    try:
        if not target.start():
            raise SystemExit(f"fuzz: the app did not start:\n{screen()}")
        replay = list(args.step)
        while (sent < args.keys) if not args.step else replay:
            step = make_step(replay.pop(0) if args.step else rng.getrandbits(32))
            steps += 1
            problem = ""
            if step.size is not None:
                problem = resized(*step.size)
                resize(*SIZE)
            for data in step.writes:
                send(data)
                if data == b"\x1b":
                    time.sleep(0.15)  # longer than Textual waits for the rest of a sequence
            sent += step.keys
            time.sleep(0.02)
            shown = screen()
            if not problem and EXITED not in shown:
                problem, retried = alive()
                retries += retried
            shown = screen()
            status = exit_status(shown)
            reports = target.crash_reports
            crashed = (
                (status is not None and status != 0)
                or "Traceback" in shown
                or len(reports) > reports_seen
            )
            if crashed:
                crashes += 1
                reports_seen = len(reports)
                what = f"exit status {status}" if status is not None else "traceback or report"
                failures.append(f"CRASH ({what}) after {sent} keys; {step.describe()}")
                (home / f"crash-{steps}.screen").write_text(shown)
            elif problem and not shown:  # no pane to read: tmux, not the app
                lost += 1
                failures.append(f"LOST (tmux's pane is gone) after {sent} keys; {step.describe()}")
            elif problem:
                hangs += 1
                failures.append(f"HANG ({problem}) after {sent} keys; {step.describe()}")
                (home / f"hang-{steps}.screen").write_text(shown)
                (home / f"hang-{steps}.stacks").write_text(target.stacks())
            if crashed or problem or status is not None:
                if status == 0:
                    restarts += 1
                    quits.append(f"quit (status 0) after {sent} keys; {step.describe()}")
                record = record_reads_back(target)
                if record:
                    bad_records += 1
                    failures.append(f"RECORD after {sent} keys: {record}")
                if not target.start():
                    failures.append(f"the app did not start again after {sent} keys")
                    break
                reports_seen = len(target.crash_reports)
            if sent >= next_report * args.keys:
                rate = sent / (time.monotonic() - started)
                print(
                    f"  {sent} keys, {crashes} crashes, {hangs} hangs ({rate:.0f} keys/s)",
                    flush=True,
                )
                next_report += 0.1
        record = record_reads_back(target)
        if record:
            bad_records += 1
            failures.append(f"RECORD at the end: {record}")
    finally:
        target.stop()
    took = time.monotonic() - started
    if target.server is not None:
        log = target.server_log.read_text()
        logged = log.count("game crashed")
        if logged > crashes:
            failures.append(f"the server logged {logged} crashes")
            crashes = logged
    print(
        f"fuzz: seed {seed}: {sent} keys in {steps} steps, {took:.0f} s "
        f"({sent / took:.0f} keys/s): "
        f"{crashes} crashes, {hangs} hangs, {restarts} restarts after a quit, "
        f"{lost} panes lost, "
        f"{bad_records} autosaves that did not read back; "
        f"{retries} probes answered only after Esc"
    )
    for failure in failures + quits:
        print(f"  {failure}")
    sys.exit(1 if crashes or hangs or lost or bad_records else 0)


if __name__ == "__main__":
    main()
