"""The tournaments' rules, pure (ledger/arena.py, ledger/swiss.py): lichess's
arena scoring and pairing, and the Dutch Swiss system's pairings, colours, byes
and tie-breaks; by example (the FIDE Handbook's first round) and by hypothesis
over random results."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_reversi.server.ledger.arena import (
    DRAW,
    LOSS,
    OUTCOMES,
    WIN,
    ArenaGame,
    FreePlayer,
    arena_pairs,
    arena_score,
    game_points,
    on_fire,
)
from tui_reversi.server.ledger.swiss import (
    BLACK,
    WHITE,
    SwissPlayer,
    SwissRound,
    pair_round,
    swiss_standings,
)

# -- arena scoring ------------------------------------------------------------------------


def test_a_win_is_two_a_draw_one_and_after_two_wins_games_score_double():
    games = [ArenaGame(WIN), ArenaGame(WIN), ArenaGame(WIN), ArenaGame(DRAW), ArenaGame(WIN)]
    assert [game_points(games[:i], game) for i, game in enumerate(games)] == [2, 2, 4, 2, 2]
    assert arena_score(games) == 12
    assert arena_score([ArenaGame(LOSS), ArenaGame(DRAW)]) == 1


def test_a_berserk_win_earns_a_point_more_once_it_lasted_seven_moves():
    assert arena_score([ArenaGame(WIN, berserk=True, moves=20)]) == 3
    assert arena_score([ArenaGame(WIN, berserk=True, moves=6)]) == 2
    assert arena_score([ArenaGame(DRAW, berserk=True, moves=60)]) == 1
    on_fire_berserk = [ArenaGame(WIN), ArenaGame(WIN), ArenaGame(WIN, berserk=True, moves=30)]
    assert arena_score(on_fire_berserk) == 2 + 2 + 4 + 1


games_of_a_player = st.lists(
    st.builds(
        ArenaGame,
        st.sampled_from(OUTCOMES),
        st.booleans(),
        st.integers(min_value=0, max_value=60),
    ),
    max_size=30,
)


@given(games_of_a_player)
def test_arena_scores_follow_the_rules_over_random_results(games):
    total = 0
    streak = 0
    for game in games:
        points = {WIN: 2, DRAW: 1, LOSS: 0}[game.outcome] * (2 if streak >= 2 else 1)
        if game.berserk and game.outcome == WIN and game.moves >= 7:
            points += 1
        total += points
        streak = streak + 1 if game.outcome == WIN else 0
    assert arena_score(games) == total
    assert on_fire(games) == (streak >= 2)
    # Losing never adds, and a win is never worth less than a draw in its place.
    assert arena_score([*games, ArenaGame(LOSS)]) == total
    assert arena_score([*games, ArenaGame(WIN)]) >= arena_score([*games, ArenaGame(DRAW)])


# -- arena pairing ------------------------------------------------------------------------


def test_free_players_are_paired_down_the_standings_never_twice_in_a_row():
    free = [
        FreePlayer("ann", "bob"),
        FreePlayer("bob", "ann"),
        FreePlayer("cy"),
        FreePlayer("di"),
        FreePlayer("ed"),
    ]
    pairs = [(one.name, other.name) for one, other in arena_pairs(free)]
    assert pairs == [("ann", "cy"), ("bob", "di")]  # ed, odd, waits
    # Two players who have just met, alone free, wait for someone else.
    assert arena_pairs([FreePlayer("ann", "bob"), FreePlayer("bob", "ann")]) == []


@st.composite
def free_players(draw):
    names = draw(st.lists(st.sampled_from("abcdefghijklmnop"), unique=True, max_size=16))
    return [
        FreePlayer(name, draw(st.one_of(st.none(), st.sampled_from("abcdefghijklmnop"))))
        for name in names
    ]


@given(free_players())
def test_arena_pairs_follow_the_rules_over_random_standings(free):
    pairs = arena_pairs(free)
    paired = [player.name for pair in pairs for player in pair]
    assert len(paired) == len(set(paired))  # nobody twice
    for one, other in pairs:
        assert one.last_opponent != other.name and other.last_opponent != one.name
        assert free.index(one) < free.index(other)  # the higher first
    # Nobody left waiting could have been paired with another left waiting.
    left = [player for player in free if player.name not in paired]
    for index, one in enumerate(left):
        for other in left[index + 1 :]:
            assert one.last_opponent == other.name or other.last_opponent == one.name


# -- Swiss --------------------------------------------------------------------------------


def test_the_first_round_pairs_top_half_against_bottom_half_colours_alternating():
    # FIDE Handbook C.04.3: 1-5, 2-6, 3-7, 4-8, the top board's higher player with the
    # first colour (Black, who moves first here) and the boards alternating.
    players = [SwissPlayer(f"p{n}", 2000 - n) for n in range(1, 9)]
    pairing = pair_round(players)
    assert pairing.boards == (("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4"))
    assert pairing.bye is None


def test_an_odd_number_gives_the_lowest_a_bye_and_the_second_round_pairs_by_score():
    players = [SwissPlayer(f"p{n}", 2000 - n) for n in range(1, 8)]
    first = pair_round(players)
    assert first.bye == "p7"
    assert first.boards == (("p1", "p4"), ("p5", "p2"), ("p3", "p6"))
    result_for = {"p1": "win", "p4": "loss", "p5": "win", "p2": "loss", "p3": "draw", "p6": "draw"}
    colour_of = {
        name: BLACK if board[0] == name else WHITE for board in first.boards for name in board
    }
    opponent = {a: b for board in first.boards for a, b in (board, board[::-1])}
    for player in players:
        if player.name == "p7":
            player.rounds.append(SwissRound(None, None, "bye"))
        else:
            player.rounds.append(
                SwissRound(opponent[player.name], colour_of[player.name], result_for[player.name])
            )
    second = pair_round(players)
    assert second.bye == "p4"  # the lowest ranked (no point, the lower rating), no bye yet
    leaders = {"p1", "p5", "p7"}  # a point each
    boards = [set(board) for board in second.boards]
    assert sum(1 for board in boards if board <= leaders) == 1  # two leaders meet
    # Colours: p3 (Black in round 1) against p7 (a bye) has White; p1 and p5, both
    # Black in round 1, cannot both have White: the higher ranked, p1, has it.
    assert ("p7", "p3") in second.boards and ("p5", "p1") in second.boards


def test_standings_break_ties_by_buchholz_then_sonneborn_berger():
    ann = SwissPlayer(
        "ann", 1500, [SwissRound("cy", BLACK, "win"), SwissRound("di", WHITE, "loss")]
    )
    bob = SwissPlayer(
        "bob", 1500, [SwissRound("di", WHITE, "win"), SwissRound("cy", BLACK, "loss")]
    )
    cy = SwissPlayer(
        "cy", 1500, [SwissRound("ann", WHITE, "loss"), SwissRound("bob", WHITE, "win")]
    )
    di = SwissPlayer(
        "di", 1500, [SwissRound("bob", BLACK, "loss"), SwissRound("ann", BLACK, "win")]
    )
    lines = swiss_standings([ann, bob, cy, di])
    assert all(line.score == 1.0 for line in lines)
    assert all(line.buchholz == 2.0 for line in lines)
    assert [line.sonneborn_berger for line in lines] == [1.0] * 4
    bye = SwissPlayer("ed", 1400, [SwissRound(None, None, "bye")])
    assert swiss_standings([bye])[0].score == 1.0 and swiss_standings([bye])[0].buchholz == 0


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=3, max_value=12),
    st.data(),
)
def test_swiss_pairings_follow_the_rules_over_random_results(count, data):
    players = [SwissPlayer(f"p{n:02}", 1500 + 10 * n) for n in range(count)]
    rounds = min(count // 2, 5) if count % 2 == 0 else min((count - 1) // 2, 5)
    byes: list[str] = []
    for _ in range(rounds):
        pairing = pair_round(players)
        seated = [name for board in pairing.boards for name in board]
        names = [*seated, *([pairing.bye] if pairing.bye else [])]
        assert sorted(names) == sorted(player.name for player in players)  # each once
        assert (pairing.bye is not None) == (count % 2 == 1)
        if pairing.bye is not None:
            assert pairing.bye not in byes  # a bye each round, never twice
            byes.append(pairing.bye)
        by_name = {player.name: player for player in players}
        for black, white in pairing.boards:
            assert white not in by_name[black].opponents  # no repeated pairing
            result = data.draw(st.sampled_from(("win", "draw", "loss")))
            other = {"win": "loss", "loss": "win", "draw": "draw"}[result]
            by_name[black].rounds.append(SwissRound(white, BLACK, result))
            by_name[white].rounds.append(SwissRound(black, WHITE, other))
        if pairing.bye is not None:
            by_name[pairing.bye].rounds.append(SwissRound(None, None, "bye"))
    for player in players:  # colours balanced: never two more of one than the other
        colours = player.colours
        assert abs(colours.count(BLACK) - colours.count(WHITE)) <= 2
    lines = swiss_standings(players)
    assert [line.rank for line in lines] == list(range(1, count + 1))
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
