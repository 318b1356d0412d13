"""The referee runs a whole game between seats with no app: it asks the
player to move, checks and records the answer, drops stale answers and
applies the takeback policy."""

import threading

import pytest

from tui_reversi.core import Color, Game, Move, Variant
from tui_reversi.match import (
    Asked,
    Failed,
    Match,
    Pacing,
    PauseChanged,
    RecordChanged,
    Referee,
    Refused,
    Thinking,
)
from tui_reversi.players import Limit, SearchInfo, create_player
from tui_reversi.players.base import PlayResult
from tui_reversi.players.human import HumanPlayer
from tui_reversi.players.kinds import seat

NO_PACING = Pacing(reply=0, watch=0)


def engines(level, variant):
    return create_player(level, variant=variant, seed=3)


def referee_for(match, *, engine_factory=engines):
    referee = Referee(
        match,
        lambda name, variant: seat(name, variant, engine_factory, Limit(depth=2)),
        pacing=NO_PACING,
    )
    events = []
    referee.watch(events.append)
    return referee, events


@pytest.mark.parametrize("variant", list(Variant))
def test_two_computers_play_a_whole_game_with_no_app(variant):
    referee, events = referee_for(Match.new("easy", "medium", variant))
    assert referee.play_out(timeout=120)
    game = referee.match.game
    assert game.is_over and game.result is not None
    # Every move was checked and recorded: the transcript replays under the rules.
    replayed = Game.from_transcript(game.transcript(), variant)
    assert replayed.position == game.position
    # One report per move recorded, and each player was asked before it moved.
    moves = [event for event in events if isinstance(event, RecordChanged) and event.moved]
    assert len(moves) == len([m for m in game.moves if m >= 0])
    asked = [event for event in events if isinstance(event, Asked)]
    assert len(asked) == len(moves)
    assert {event.color for event in asked} == {Color.BLACK, Color.WHITE}


def test_the_same_seeds_play_the_same_game():
    games = []
    for _ in range(2):
        referee, _events = referee_for(Match.new("easy", "easy"))
        assert referee.play_out(timeout=60)
        games.append(referee.match.game.transcript())
    assert games[0] == games[1]


def test_a_human_seat_answers_on_this_thread_and_a_refused_move_can_be_retried():
    referee, events = referee_for(Match.new("human", "human"))
    referee.start()
    human = referee.to_move
    assert isinstance(human, HumanPlayer) and human.waiting == referee.match.turn()
    assert human.submit(Move.parse("a1"))
    refused = events[-1]
    assert isinstance(refused, Refused) and (str(refused.move), refused.reason) == (
        "a1",
        "flips nothing",
    )
    assert referee.match.game.ply == 0 and not referee.paused
    assert human.submit(Move.parse("d3"))
    assert referee.match.game.transcript() == "d3"
    assert isinstance(referee.to_move, HumanPlayer) and referee.to_move.waiting is not None
    assert human.waiting is None  # its request was answered: nothing more to submit
    assert not human.submit(Move.parse("c3"))


def test_a_pass_with_a_legal_move_is_refused():
    referee, events = referee_for(Match.new("human", "easy"))
    referee.start()
    referee.to_move.submit(Move.null())
    assert isinstance(events[-1], Refused) and "pass" in events[-1].reason
    assert referee.match.game.ply == 0


class Stubborn:
    """An engine that answers only when the test says, whatever happened meanwhile."""

    level = "hard"
    variant = Variant.OTHELLO
    notice = None

    def __init__(self, answer="d3"):
        self.answer = answer
        self.gate = threading.Event()
        self.asked = threading.Event()

    def choose_move(self, position, limit, *, cancelled=None, progress=None):
        self.asked.set()
        if progress is not None:
            progress(SearchInfo(depth=2, nodes=10, best=None))
        self.gate.wait(10)
        return Move.parse(self.answer)


def test_a_stale_answer_is_dropped():
    engine = Stubborn("c4")
    referee, events = referee_for(Match.new("hard", "human"), engine_factory=lambda *_: engine)
    referee.start()
    assert engine.asked.wait(5)
    referee.inbox.run(lambda: any(isinstance(e, Thinking) for e in events), timeout=5)
    # A new game while it thinks: its answer belongs to the old one.
    old_turn = referee.asked
    referee.begin(Match.new("human", "human"))
    engine.gate.set()
    referee.inbox.run(lambda: False, timeout=0.3)
    assert referee.match.game.ply == 0 and referee.asked != old_turn


def test_a_failing_engine_pauses_the_game_and_says_why():
    class Broken(Stubborn):
        def choose_move(self, position, limit, *, cancelled=None, progress=None):
            raise RuntimeError("no book")

    referee, events = referee_for(Match.new("hard", "human"), engine_factory=lambda *_: Broken())
    referee.start()
    assert referee.inbox.run(lambda: referee.paused, timeout=5)
    failed, paused = events[-2:]
    assert isinstance(failed, Failed) and failed.problem == "RuntimeError: no book"
    assert failed.color is Color.BLACK
    assert paused == PauseChanged(True)  # the screen is told, not left to work it out


def test_an_illegal_computer_move_pauses_instead_of_being_played():
    engine = Stubborn("a1")
    engine.gate.set()
    referee, events = referee_for(Match.new("hard", "human"), engine_factory=lambda *_: engine)
    referee.start()
    assert referee.inbox.run(lambda: referee.paused, timeout=5)
    assert isinstance(events[-2], Refused) and referee.match.game.ply == 0
    assert events[-1] == PauseChanged(True)
    # p: the computer tries again.
    engine.answer = "d3"
    referee.set_paused(False)
    assert referee.inbox.run(lambda: referee.match.game.ply == 1, timeout=5)
    assert any(isinstance(e, PauseChanged) and not e.paused for e in events)


def test_undo_between_computers_pauses_and_reports_the_change():
    referee, events = referee_for(Match("easy", "easy", Game.from_transcript("f5d6c3")))
    assert referee.undo() and referee.paused
    assert referee.match.game.ply == 2
    assert PauseChanged(True) in events  # told as a pause, as the p key's is
    assert isinstance(events[-1], RecordChanged) and not events[-1].moved


def test_continue_from_discards_the_later_moves_and_asks_the_next_player():
    referee, events = referee_for(Match("human", "human", Game.from_transcript("f5d6c3d3")))
    referee.start()
    referee.continue_from(1)
    assert referee.match.game.length == 1
    assert isinstance(events[-1], Asked) and events[-1].color is Color.WHITE


def test_a_player_that_refuses_takebacks_is_respected():
    class Strict(HumanPlayer):
        allows = HumanPlayer.allows.__class__(hints=False, takebacks=False)

    match = Match("human", "human", Game.from_transcript("f5d6"))
    referee = Referee(match, lambda name, variant: Strict(), pacing=NO_PACING)
    assert not referee.undo() and not referee.redo()
    assert referee.match.game.ply == 2


def test_answers_from_other_threads_go_through_post():
    posted = []
    match = Match.new("human", "human")
    referee = Referee(match, lambda name, variant: seat(name, variant, engines), post=posted.append)
    referee.start()
    human = referee.to_move
    thread = threading.Thread(target=human.submit, args=(Move.parse("d3"),))
    thread.start()
    thread.join()
    assert referee.match.game.ply == 0 and len(posted) == 1
    posted[0]()
    assert referee.match.game.transcript() == "d3"


def test_a_play_result_names_its_turn():
    match = Match.new("human", "human")
    result = PlayResult(match.turn(), Move.parse("F5"))
    assert str(result.move) == "f5" and result.turn.ply == 0
    assert not Move.null() and str(Move.null()) == "pass"
