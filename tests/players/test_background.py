"""The one background runner for engine work: one job at a time, a token
with every answer, a cancelled job never answered as done."""

import queue
import threading

from tui_reversi.players.background import Background, Done, Failed, Stopped


def answers():
    got: queue.Queue = queue.Queue()
    return got, got.put


def test_a_job_answers_done_with_its_token_and_result():
    got, answer = answers()
    runner = Background("test")
    runner.start(("game", 3), lambda cancelled: 42, answer)
    assert got.get(timeout=5) == Done(("game", 3), 42)


def test_a_new_job_stops_the_one_before_whose_answer_is_never_done():
    got, answer = answers()
    runner = Background("test")
    started = threading.Event()

    def think(cancelled):
        started.set()
        while not cancelled():  # polls, as the engine does
            pass
        return "stale"

    runner.start(1, think, answer)
    assert started.wait(5) and runner.busy
    runner.start(2, lambda cancelled: "fresh", answer)
    outcomes = {got.get(timeout=5), got.get(timeout=5)}
    assert outcomes == {Stopped(1), Done(2, "fresh")}
    runner.cancel()


def test_a_failing_job_answers_one_line_for_a_bug_report():
    got, answer = answers()

    def broken(cancelled):
        raise RuntimeError("no book")

    Background("test").start(7, broken, answer)
    assert got.get(timeout=5) == Failed(7, "RuntimeError: no book")
