"""The engine twice, compiled (mypyc) and interpreted (TUI_REVERSI_PURE=1),
each in a worker process, asked the same questions in turn (who goes first
alternating), so that a busy machine slows both alike and their ratio is fair.
bench/search.py and bench/perft.py print the two side by side.

Run as a script, this file is the worker: one JSON question per line on
stdin, one JSON answer per line on stdout.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class EngineWorker:
    """One worker process, on the compiled engine or forced interpreted."""

    def __init__(self, pure: bool):
        env = {k: v for k, v in os.environ.items() if k != "TUI_REVERSI_PURE"}
        if pure:
            env["TUI_REVERSI_PURE"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.questions, self.answers = self.process.stdin, self.process.stdout
        self.engine = self.ask({"kind": "engine"})["engine"]

    def ask(self, question: dict) -> dict:
        self.questions.write(json.dumps(question) + "\n")
        self.questions.flush()
        line = self.answers.readline()
        if not line:
            raise RuntimeError(f"the engine worker stopped (exit {self.process.wait()})")
        return json.loads(line)

    def close(self) -> None:
        self.questions.close()
        self.process.wait()


class BothEngines:
    """`ask(question)` -> (interpreted answer, compiled answer)."""

    def __init__(self):
        self.interpreted = EngineWorker(pure=True)
        self.compiled = EngineWorker(pure=False)
        self.asked = 0

    def ask(self, question: dict) -> tuple[dict, dict]:
        self.asked += 1
        if self.asked % 2:
            first = self.interpreted.ask(question)
            return first, self.compiled.ask(question)
        second = self.compiled.ask(question)
        return self.interpreted.ask(question), second

    def __enter__(self) -> "BothEngines":
        return self

    def __exit__(self, *exc) -> None:
        self.interpreted.close()
        self.compiled.close()


def answer(question: dict, engines: dict) -> dict:
    """`engines`: the worker's Engine per evaluation name; a search question
    may name one ("evaluation", default the hand-made one)."""
    from tui_reversi.core import Position, perft
    from tui_reversi.engine.build import engine_build

    kind = question["kind"]
    if kind == "engine":
        return {"engine": str(engine_build())}
    if kind == "load":
        return load_trained(engines)
    engine = engines[question.get("evaluation", "handmade")]
    if kind == "static":
        return static_evaluations(engine, question["boards"], question["repeat"])
    position = Position.from_string(question["board"])
    started = time.perf_counter()
    if kind == "perft":
        leaves = perft(position, question["depth"])
        return {"leaves": leaves, "seconds": time.perf_counter() - started}
    if kind == "search":
        result = engine.search(position.own, position.opp, time_limit=question["seconds"])
        seconds = time.perf_counter() - started
        return {"depth": result.depth, "nodes": result.nodes, "seconds": seconds}
    if kind == "solve":
        result = engine.search(position.own, position.opp, exact_empties=64)
        seconds = time.perf_counter() - started
        return {"margin": result.score // 100, "nodes": result.nodes, "seconds": seconds}
    raise ValueError(f"unknown question {kind!r}")


def load_trained(engines: dict) -> dict:
    """Load the trained weights (the first time in this process): time, peak
    memory while loading, size on disk; adds engines["trained"]."""
    import tracemalloc

    from tui_reversi.core import Position
    from tui_reversi.engine.pattern_weights import WEIGHTS_PATH, trained_evaluator
    from tui_reversi.engine.search import Engine

    tracemalloc.start()
    started = time.perf_counter()
    evaluator = trained_evaluator(False)
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    engines["trained"] = Engine(False, evaluator)
    warm = Position.initial()
    engines["trained"].search(warm.own, warm.opp, max_depth=2)
    size = WEIGHTS_PATH.stat().st_size if WEIGHTS_PATH.exists() else 0
    return {"loaded": evaluator is not None, "seconds": seconds, "peak": peak, "bytes": size}


def static_evaluations(engine, boards: list[str], repeat: int) -> dict:
    """Static evaluations of `boards` (each side to move), `repeat` times."""
    from tui_reversi.core import Position

    positions = [Position.from_string(board) for board in boards]
    pairs = [(p.own, p.opp) for p in positions] + [(p.opp, p.own) for p in positions]
    evaluate = engine.evaluator  # called with plain ints, as the bench can
    started = time.perf_counter()
    for _ in range(repeat):
        for own, opp in pairs:
            evaluate(own, opp)
    return {"calls": repeat * len(pairs), "seconds": time.perf_counter() - started}


def serve() -> None:
    sys.path.append(str(ROOT))  # the installed package first: it may be compiled
    from tui_reversi.core import Position
    from tui_reversi.engine.search import Engine

    engines = {"handmade": Engine()}
    warm = Position.initial()  # builds the evaluation tables before any clock runs
    engines["handmade"].search(warm.own, warm.opp, max_depth=2)
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line), engines)), flush=True)


if __name__ == "__main__":
    serve()
