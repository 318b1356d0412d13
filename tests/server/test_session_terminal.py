"""hall/session_terminal.py: what a session writes its player goes where their
client can read it (a terminal, or plain output and stderr without one), and
nothing is written once they have gone."""

from __future__ import annotations

from tui_reversi.server.hall.session_terminal import PlayerTerminal


class FakeChannel:
    def __init__(self) -> None:
        self.out = bytearray()
        self.err = bytearray()
        self.exits: list[int | str] = []

    def write(self, data: bytes) -> None:
        self.out += data

    def write_stderr(self, data: bytes) -> None:
        self.err += data

    def get_environment(self) -> dict[str, str]:
        return {"LANG": "C.UTF-8"}

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def exit(self, status: int) -> None:
        self.exits.append(status)

    def exit_with_signal(self, signal: str) -> None:
        self.exits.append(signal)


def terminal_on(chan: FakeChannel, closed: list[bool], pty: bool) -> PlayerTerminal:
    terminal = PlayerTerminal(lambda: closed.append(True))
    terminal.connected(chan)
    if pty:
        terminal.pty("xterm-256color", (100, 30, 0, 0), {})
    return terminal


def test_with_a_pty_lines_end_as_a_terminal_needs_them_and_go_to_the_screen():
    chan, closed = FakeChannel(), []
    terminal = terminal_on(chan, closed, pty=True)
    terminal.say("tui-reversi: you left the queue.")
    terminal.print(["one", "two"])
    terminal.exit(0)
    assert chan.out == b"tui-reversi: you left the queue.\r\none\r\ntwo\r\n"
    assert chan.err == b"" and chan.exits == [0] and closed == [True]
    assert terminal.size == (100, 30, 0, 0) and terminal.environment() == {"LANG": "C.UTF-8"}


def test_without_a_pty_an_answer_is_plain_output_and_a_refusal_goes_to_stderr():
    chan, closed = FakeChannel(), []
    terminal = terminal_on(chan, closed, pty=False)
    terminal.print(["alice 1516?"])
    terminal.say("tui-reversi: this is a full-screen game and needs a terminal")
    terminal.exit(1)
    assert chan.out == b"alice 1516?\n"
    assert chan.err == b"tui-reversi: this is a full-screen game and needs a terminal\n"
    assert chan.exits == [1] and closed == [True]


def test_once_the_client_has_gone_nothing_is_written_but_the_connection_is_told():
    chan, closed = FakeChannel(), []
    terminal = terminal_on(chan, closed, pty=True)
    terminal.lost()
    terminal.send(b"\x1b[2J")
    terminal.say("tui-reversi: bye")
    terminal.print(["a line"])
    terminal.exit(0)
    assert (chan.out, chan.err, chan.exits) == (b"", b"", [])
    assert closed == [True]
