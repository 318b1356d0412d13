"""NBoard's engine protocol, replayed from transcripts written after its
published description (NTest's instructions/Protocol.htm, version 2): the
session answers each line as an engine must, with no I/O of its own."""

import random
import re

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.core import Game, Move, Position
from tui_reversi.nboard import NBoardSession
from tui_reversi.players.alphabeta_player import engine_for

START = "---------------------------O*------*O---------------------------"
# The example session's game (the published description's own).
EXAMPLE_GGF = (
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]"
    f"TI[15:00]TY[8]BO[8 {START} *]"
    "B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
)
EXAMPLE_MOVES = "f5f6d3c5e6f7e7f4"
# Black's b2 leaves White without a move; Black's a5 then ends it (64-0).
BEFORE_A_PASS = "e6f6g6e3e2f2c3d2e1c2g1b4b2"
SEARCH = re.compile(r"^search ([A-H][1-8]|PA)\S* (-?\d+\.\d+) 0 (\d+%?W?)( .*)?$")
ANSWER = re.compile(r"^=== ([A-H][1-8]|PA)(?:/(-?\d+\.\d+)?/(\d+\.\d+))?$")


def ggf(
    transcript: str = "",
    clock: str = "0",
    times: dict[int, float] | None = None,
    passes: bool = True,
) -> str:
    """A GGF game as NBoard sends it with `set game`, moves with their times
    (and without the forced passes, unless `passes`)."""
    game = Game.from_transcript(transcript)
    moves = ""
    for ply, move in enumerate(game.played):
        if move.is_pass and not passes:
            continue
        colour = "BW"[game.positions[ply].to_move]
        spent = (times or {}).get(ply)
        name = "PA" if move.is_pass else move.name.upper()
        moves += f"{colour}[{name}{'' if spent is None else f'//{spent}'}]"
    return f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[{clock}]TY[8]BO[8 {START} *]{moves};)"


class Transcript:
    """A session fed lines as NBoard sends them; its searches run to the end."""

    def __init__(self, *lines: str) -> None:
        self.said: list[str] = []
        self.complaints: list[str] = []
        self.session = NBoardSession(self.said.append, self.complaints.append)
        self.send(*lines)

    def send(self, *lines: str) -> list[str]:
        """The lines the engine said in answer to `lines`."""
        before = len(self.said)
        for line in lines:
            job = self.session.receive(line)
            if job is not None:
                job(lambda: False)
        return self.said[before:]


def answer(said: list[str]) -> re.Match[str]:
    """The go's answer line, checked against the protocol's form."""
    answers = [line for line in said if line.startswith("===")]
    assert len(answers) == 1, said
    found = ANSWER.match(answers[0])
    assert found is not None, answers[0]
    return found


def test_the_published_example_session_is_answered_and_go_leaves_the_board_alone():
    nboard = Transcript()
    said = nboard.send("nboard 2", f"set game {EXAMPLE_GGF}", "set depth 6", "ping 1", "go")
    assert said[:2] == ["set myname tui-reversi", "pong 1"]
    found = answer(said)
    position = Game.from_transcript(EXAMPLE_MOVES).position
    assert position.is_legal(Move.parse(found[1]).square)
    assert found[2] is not None and float(found[3]) >= 0
    assert said[-1].startswith("===") and not nboard.complaints
    # The engine waits for NBoard's `move`: the position is the same until it comes.
    assert nboard.session.game.position == position
    nboard.send(f"move {found[1]}/{found[2]}/{found[3]}")
    assert nboard.session.game.position == position.play(Move.parse(found[1]).square)


def test_each_move_line_plays_a_move_and_a_bad_one_changes_nothing():
    nboard = Transcript("nboard 2", "set depth 2", f"set game {ggf()}")
    assert nboard.send("move F5/0.50/1.2", "move d6", "C3") == []  # version 1's bare move too
    assert nboard.session.game.position == Game.from_transcript("f5d6c3").position
    for line in ("move D4", "move Z9", "move F5/x/y/z", "move C4//-3", "move PA"):
        assert nboard.send(line) == []
    assert nboard.session.game.position == Game.from_transcript("f5d6c3").position
    assert len(nboard.complaints) == 5
    assert all(sentence.endswith(".") and "\n" not in sentence for sentence in nboard.complaints)
    assert "'move D4' was ignored: d4 is occupied" in nboard.complaints[0]


def test_a_hint_gives_search_lines_for_the_top_moves_at_each_depth_then_clears_the_status():
    nboard = Transcript("nboard 2", "set depth 3", f"set game {EXAMPLE_GGF}")
    said = nboard.send("hint 2")
    assert said[0].startswith("status ") and said[-1] == "status"
    lines = [SEARCH.match(line) for line in said[1:-1]]
    assert all(lines), said
    position = Game.from_transcript(EXAMPLE_MOVES).position
    by_depth: dict[str, list[str]] = {}
    for found in lines:
        assert found is not None and position.is_legal(Move.parse(found[1]).square)
        by_depth.setdefault(found[3], []).append(found[1])
    assert list(by_depth) == ["1", "2", "3"]
    assert all(len(moves) == 2 and len(set(moves)) == 2 for moves in by_depth.values())


def test_from_the_book_a_hint_gives_book_lines():
    said = Transcript("nboard 2", "set depth 8", f"set game {ggf()}").send("hint 4")
    books = [line.split() for line in said if line.startswith("book ")]
    assert books and all(len(words) == 5 and words[3] == "0" for words in books)
    assert all(Position.initial().is_legal(Move.parse(words[1]).square) for words in books)


def played_until(stop, seed: int) -> Game:
    """A game of random moves until `stop(game)` holds."""
    rng = random.Random(seed)
    game = Game()
    while not stop(game):
        game.play(rng.choice(game.position.legal_moves()))
    return game


def test_near_the_end_the_hint_is_solved_and_says_100_percent():
    game = played_until(lambda game: game.position.empty_count <= 14, seed=7)
    nboard = Transcript("nboard 2", "set depth 2", f"set game {ggf(game.transcript())}")
    said = nboard.send("hint 1")
    solved = [found for line in said if (found := SEARCH.match(line)) and found[3] == "100%"]
    assert solved, said
    position = game.position
    assert float(solved[-1][2]) == engine_for(game.variant).solve(position.own, position.opp)
    # A wipeout the midgame search proves early is a proven win: 100%W.
    early = Transcript("nboard 2", "set depth 2", f"set game {ggf(BEFORE_A_PASS[:-2])}")
    assert "search B2 64.00 0 100%W" in early.send("hint 1")


def test_a_pass_nboard_still_owes_is_the_answer_then_play_goes_on():
    written = Transcript("nboard 2", "set depth 2", f"set game {ggf(BEFORE_A_PASS)}")
    assert answer(written.send("go"))[1] == "A5"  # the pass is in the GGF: Black's last move
    nboard = Transcript("nboard 2", "set depth 2", f"set game {ggf(BEFORE_A_PASS, passes=False)}")
    assert answer(nboard.send("go"))[1] == "PA"  # White, as NBoard sees it, must pass
    assert nboard.send("move PA") == [] and not nboard.complaints
    assert answer(nboard.send("go"))[1] == "A5"
    assert nboard.send("move PA") == [] and len(nboard.complaints) == 1  # Black has moves


def test_a_forced_move_is_answered_at_once_without_thinking():
    game = played_until(lambda game: len(game.position.legal_moves()) == 1, seed=3)
    only = game.position.legal_moves()[0]
    nboard = Transcript("nboard 2", "set depth 60", f"set game {ggf(game.transcript())}")
    assert nboard.send("go") == [f"=== {Move.of(only).name.upper()}"]


def test_ping_learn_and_the_settings_answer_as_the_protocol_asks():
    nboard = Transcript("nboard 2")
    assert nboard.send("ping 42", "learn", "set contempt 100", "set depth 9") == [
        "pong 42",
        "learned",
    ]
    assert nboard.complaints == [] and nboard.session.depth == 9
    refused = ("set depth 0", "set depth 61", "ping x", "set contempt 9999", "frobnicate 3")
    assert nboard.send(*refused) == []
    assert len(nboard.complaints) == 5 and nboard.session.depth == 9


def test_a_bad_game_is_one_sentence_and_the_game_stays():
    nboard = Transcript("nboard 2", f"set game {ggf('f5d6')}")
    nboard.send("set game (;GM[Othello]BO[8 " + START + " *]B[F5]W[F5];)", "set game (;GM[Go];)")
    assert len(nboard.complaints) == 2 and all("\n" not in c for c in nboard.complaints)
    assert "is illegal" in nboard.complaints[0] or "occupied" in nboard.complaints[0]
    assert nboard.session.game.position == Game.from_transcript("f5d6").position


def test_analyze_scores_every_position_from_the_end_back():
    game = Game.from_transcript(BEFORE_A_PASS + "a5")
    nboard = Transcript("nboard 2", "set depth 1", f"set game {ggf(BEFORE_A_PASS + 'a5')}")
    said = nboard.send("analyze")
    rows = [line.split() for line in said if line.startswith("analysis ")]
    assert [int(words[1]) for words in rows] == list(range(game.length, -1, -1))
    # The final position, White to move and wiped out: -64 for the side to move.
    assert float(rows[0][2]) == -64.0


def test_with_a_clock_go_spends_its_share_of_the_time_left():
    nboard = Transcript("nboard 2", "set depth 60")
    nboard.send(f"set game {ggf(EXAMPLE_MOVES, clock='1:00', times={0: 10.0, 2: 20.0})}")
    assert nboard.session.used == [30.0, 0.0]  # Black's two timed moves
    nboard.send("move C4/0.0/5")
    assert nboard.session.used == [35.0, 0.0]
    budget = nboard.session._budget()
    assert budget is not None and 0 < budget < 25.0 / 4  # of White's 60 s, one share


@given(st.text(max_size=80))
def test_no_line_raises_and_a_bad_one_gets_one_sentence(line):
    nboard = Transcript("nboard 2", "set depth 1")
    said = nboard.send(line.replace("\n", " ").replace("\r", " "))
    assert len(nboard.complaints) <= 1
    assert all(
        "\n" not in sentence and "Traceback" not in sentence for sentence in nboard.complaints
    )
    assert all(isinstance(out, str) for out in said)


def test_in_reversi_s_centre_the_hint_ranks_the_placements():
    empty = "-" * 64
    reversi = f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {empty} *];)"
    nboard = Transcript("nboard 2", "set depth 3", f"set game {reversi}")
    said = nboard.send("hint 4")
    moves = {found[1] for line in said if (found := SEARCH.match(line))}
    assert moves == {"D4", "E4", "D5", "E5"} and said[-1] == "status"
    assert not nboard.complaints


def test_a_book_move_is_answered_without_a_search_and_with_the_book_s_value():
    nboard = Transcript("nboard 2", "set depth 60", f"set game {ggf(clock='15:00')}")
    said = nboard.send("go")
    assert not any(line.startswith(("search", "nodestats")) for line in said), said
    found = answer(said)
    book = Transcript("nboard 2", f"set game {ggf()}").send("hint 4")
    assert f"book {found[1]} {found[2]} 0 10" in book


def test_go_tells_an_exact_solve_from_a_win_draw_or_loss_solve():
    twenty_two = played_until(lambda game: game.position.empty_count <= 22, seed=5)
    nboard = Transcript("nboard 2", "set depth 60", f"set game {ggf(twenty_two.transcript())}")
    codes = {line.split()[4] for line in nboard.send("go") if line.startswith("search ")}
    assert "100%W" in codes and "100%" not in codes  # hard decides 21-22 empties by sign
    fourteen = played_until(lambda game: game.position.empty_count <= 14, seed=5)
    nboard.send(f"set game {ggf(fourteen.transcript())}")
    codes = {line.split()[4] for line in nboard.send("go") if line.startswith("search ")}
    assert "100%" in codes
