"""A stand-in for the game under `tui-reversi serve`: reports what a game would see.

On start it prints one line each: its pid and terminal facts, its environment
(as Python sees it, and the names in the block it was started with), its
inherited signal masks, its open descriptors and its arguments, then `READY`. In raw mode it
echoes every key as `KEY <hex>`, a resize as `SIZE <cols>x<rows>`, and quits
with status 0 on `q` or 3 on `x`. On SIGHUP it leaves `hup-<pid>` in its
working directory and exits with status 129 (or carries on with --ignore-hup).
`--helper` starts a grandchild in the same session, to prove it is cleaned up.
`--redraw` answers a resize with a whole screen's worth of output too (eight
bytes a cell, as a game's colours and glyph are), as a game drawing itself again.
"""

import json
import os
import signal
import subprocess
import sys
import termios
import tty


def say(line):
    os.write(1, (line + "\r\n").encode())


def size():
    columns, rows = os.get_terminal_size(0)
    return f"{columns}x{rows}"


def status_masks():
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("SigIgn", "SigBlk"):
                fields[name] = value.strip()
    return fields


def open_descriptors():
    """fd -> what it is, for every descriptor open in this process (but the listing's own)."""
    listing = "/proc/self/fd"
    found = {}
    for name in os.listdir(listing):
        try:
            found[name] = os.readlink(f"{listing}/{name}")
        except OSError:
            continue  # the directory listing's own descriptor, closed by now
    return found


def environment_block():
    """The names in /proc/self/environ: what the process was started with, whatever
    os.environ says now."""
    with open("/proc/self/environ", "rb") as block:
        entries = block.read().split(b"\0")
    return sorted(entry.partition(b"=")[0].decode() for entry in entries if entry)


def main():
    masks = status_masks()  # before Python's own handlers matter: read first
    ignore_hup = "--ignore-hup" in sys.argv
    helper = None
    if "--helper" in sys.argv:
        helper = subprocess.Popen(["sleep", "600"])

    def on_hup(number, frame):
        if ignore_hup:
            say("HUP ignored")
            return
        with open(f"hup-{os.getpid()}", "w") as marker:
            marker.write("hup\n")
        os._exit(129)

    signal.signal(signal.SIGHUP, on_hup)
    redraw = "--redraw" in sys.argv

    def on_resize(number, frame):
        say(f"SIZE {size()}")
        if redraw:
            columns, rows = os.get_terminal_size(0)
            screen = memoryview(b"\x1b[0;7mX" * columns * rows)
            while screen:
                screen = screen[os.write(1, screen) :]

    signal.signal(signal.SIGWINCH, on_resize)
    ctty = os.tcgetpgrp(0) == os.getpgrp()
    leader = os.getsid(0) == os.getpid()
    descriptors = open_descriptors()
    say(f"STANDIN pid={os.getpid()} size={size()} ctty={ctty} leader={leader} ppid={os.getppid()}")
    say("ENV " + json.dumps(dict(os.environ), sort_keys=True))
    say("ENVBLOCK " + json.dumps(environment_block()))
    say("FDS " + json.dumps(descriptors, sort_keys=True))
    say(f"SIGIGN {masks['SigIgn']} SIGBLK {masks['SigBlk']}")
    say("ARGS " + json.dumps(sys.argv[1:]))
    if helper is not None:
        say(f"HELPER {helper.pid}")
    saved = termios.tcgetattr(0)
    tty.setraw(0)
    say("READY")
    try:
        while True:
            try:
                data = os.read(0, 1024)
            except InterruptedError:
                continue
            except OSError:  # the pty hung up
                while ignore_hup:
                    signal.pause()
                return 1
            if not data:
                return 0
            say("KEY " + data.hex())
            if b"q" in data:
                return 0
            if b"x" in data:
                return 3
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)


if __name__ == "__main__":
    sys.exit(main())
