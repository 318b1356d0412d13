"""`tui-reversi nboard` as NBoard runs it: a process on pipes. A ping stops a
search, bad input gets sentences on stderr, and two of them play a whole
game through the protocol with this test as the GUI."""

import queue
import subprocess
import sys
import threading

from tui_reversi.core import Game, Move

from .test_protocol import ANSWER, ggf, played_until

WAIT = 120.0  # seconds for any one answer on a loaded machine (never a speed check)


class EngineProcess:
    """One `tui-reversi nboard` process and the lines it has said."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui_reversi", "nboard"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, wanted) -> list[str]:
        """Every line said up to and including the first for which `wanted` holds."""
        said = []
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line is not None, f"the engine stopped after {said}"
            said.append(line)
            if wanted(line):
                return said

    def close(self) -> str:
        """Quit it; what it wrote on its error channel."""
        self.send("quit")
        _, errors = self.process.communicate(timeout=WAIT)
        assert self.process.returncode == 0
        return errors


def test_a_ping_stops_a_go_before_it_is_answered_and_no_move_comes_after():
    game = played_until(lambda game: game.length >= 20, seed=11)  # out of the book
    engine = EngineProcess()
    try:
        engine.send("nboard 2", "set depth 60", f"set game {ggf(game.transcript())}", "go")
        engine.until(lambda line: line.startswith("search "))  # it is thinking, at depth 60
        engine.send("ping 7")
        said = engine.until(lambda line: line.startswith("pong"))
        assert said[-1] == "pong 7" and not any(line.startswith("===") for line in said)
        engine.send("ping 8")
        assert engine.until(lambda line: line.startswith("pong")) == ["pong 8"]
    finally:
        errors = engine.close()
    assert errors == ""


def test_bad_input_gets_one_sentence_each_on_stderr_and_never_a_traceback():
    lines = b"nboard 2\nset depth abc\n\xff\xfe garbage\nset game (;GM[Othello]B[Z9];)\nping 3\n"
    done = subprocess.run(
        [sys.executable, "-m", "tui_reversi", "nboard"],
        input=lines,
        capture_output=True,
        timeout=WAIT,
    )
    assert done.returncode == 0
    assert done.stdout.decode().splitlines() == ["set myname tui-reversi", "pong 3"]
    errors = done.stderr.decode().splitlines()
    assert len(errors) == 3 and "Traceback" not in done.stderr.decode()
    assert all(error.endswith(".") and "was ignored" in error for error in errors)


def test_two_engines_play_a_legal_complete_game_through_the_protocol():
    game = Game()
    engines = (EngineProcess(), EngineProcess())  # Black's, White's
    try:
        for engine in engines:
            engine.send("nboard 2", "set depth 2", f"set game {ggf()}")
        ping = 0
        while not game.is_over:
            mover = engines[game.position.to_move]
            ping += 1
            mover.send(f"ping {ping}")
            mover.until(lambda line, ping=ping: line == f"pong {ping}")
            mover.send("go")
            found = ANSWER.match(mover.until(lambda line: line.startswith("==="))[-1])
            assert found is not None
            game.play(Move.parse(found[1]))  # refuses an illegal move
            for engine in engines:
                engine.send(f"move {found[0][4:]}")
            if not game.is_over and game.played[-1].is_pass:
                # NBoard asks the side that must pass, and tells both its PA.
                passer = engines[game.positions[-2].to_move]
                passer.send("go")
                assert passer.until(lambda line: line.startswith("==="))[-1] == "=== PA"
                for engine in engines:
                    engine.send("move PA")
    finally:
        errors = [engine.close() for engine in engines]
    assert game.is_over and game.result is not None
    assert errors == ["", ""]
