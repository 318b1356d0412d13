"""A Swiss event's rules, pure: each round's pairings by the main rules of FIDE's
Dutch system (Handbook C.04.3), its colours, the bye, and the standings with
their tie-breaks. No pairing library on PyPI is kept up for this (lichess runs
bbpPairings, a C++ program), so the rules are written here and tested against
the Handbook's first round and by hypothesis over random results.

The rules kept:
- players are ranked by score, then rating, then name (their pairing numbers);
- with an odd number, the lowest-ranked player who has had no bye gets it
  (a point), provided the others can still be paired;
- each score group is paired top half against bottom half in order (S1 against
  S2: 1-5, 2-6, 3-7, 4-8), an unpaired player floating down to the next group;
  where that would pair two players again, the nearest exchange that does not;
- nobody meets the same opponent twice, and two players who both must have
  the same colour (absolute preference: they had it twice more, or twice in a
  row) are not paired, unless no pairing of the round exists otherwise;
- colours: both preferences where they differ; else the stronger preference;
  else the colours of the last round in which they differed, swapped; else the
  higher-ranked player's preference. In the first round the top board's higher
  player has Black (who moves first in Othello, as White in chess), and the
  boards alternate.

Score: a win 1, a draw 1/2, a bye 1. Tie-breaks: Buchholz (the sum of the
opponents' scores) then Sonneborn-Berger (the scores of the opponents beaten,
and half those drawn with); a bye adds nothing to either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

BLACK, WHITE = "black", "white"
# Points by result, from the player's side ('bye': unpaired in a round).
SWISS_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0, "bye": 1.0}


@dataclass(frozen=True, slots=True)
class SwissRound:
    """One round of a player: the opponent (None: a bye, or absent), the colour
    played, and the result from their side ('win', 'draw', 'loss', 'bye'; None
    while the game goes on, or 'absent' for a round missed)."""

    opponent: str | None
    colour: str | None
    result: str | None


@dataclass(slots=True)
class SwissPlayer:
    """A player as the pairing sees them: their rating and their rounds so far."""

    name: str
    rating: float
    rounds: list[SwissRound] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(SWISS_POINTS.get(played.result or "", 0.0) for played in self.rounds)

    @property
    def opponents(self) -> set[str]:
        return {played.opponent for played in self.rounds if played.opponent is not None}

    @property
    def had_bye(self) -> bool:
        return any(played.result == "bye" for played in self.rounds)

    @property
    def colours(self) -> list[str]:
        return [played.colour for played in self.rounds if played.colour is not None]


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairings: (black, white) by board, and the bye if any."""

    boards: tuple[tuple[str, str], ...]
    bye: str | None


def _preference(player: SwissPlayer) -> tuple[str | None, bool]:
    """The colour `player` should have next and whether it is absolute."""
    colours = player.colours
    difference = colours.count(BLACK) - colours.count(WHITE)
    twice = len(colours) >= 2 and colours[-1] == colours[-2]
    if difference > 0 or (difference == 0 and colours and colours[-1] == BLACK):
        wanted = WHITE
    elif difference < 0 or colours:
        wanted = BLACK
    else:
        return None, False
    return wanted, abs(difference) >= 2 or twice


def _colours(higher: SwissPlayer, lower: SwissPlayer, board: int) -> tuple[str, str]:
    """(black, white) for two players, `higher` ranked above `lower`, at `board`."""
    wants_high, strong_high = _preference(higher)
    wants_low, strong_low = _preference(lower)
    if wants_high is None and wants_low is None:  # the first round: alternate the boards
        wants_high = BLACK if board % 2 == 0 else WHITE
    elif wants_high is None:
        wants_high = WHITE if wants_low == BLACK else BLACK
    elif wants_low is not None and wants_high == wants_low:
        if strong_low and not strong_high:
            wants_high = WHITE if wants_low == BLACK else BLACK
        elif strong_high == strong_low:
            last_differed = _last_differing(higher.colours, lower.colours)
            if last_differed is not None:
                wants_high = WHITE if last_differed == BLACK else BLACK
    if wants_high == BLACK:
        return higher.name, lower.name
    return lower.name, higher.name


def _last_differing(high: list[str], low: list[str]) -> str | None:
    """`high`'s colour in the last round both played with different colours."""
    for mine, theirs in zip(reversed(high), reversed(low), strict=False):
        if mine != theirs:
            return mine
    return None


def ranked(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Pairing order: score, then rating, then name."""
    return sorted(players, key=lambda player: (-player.score, -player.rating, player.name))


def pair_round(players: Sequence[SwissPlayer]) -> Pairing:
    """The next round's pairing of `players` (those present: the withdrawn are
    left out by the caller). Raises ValueError if they cannot all be paired
    without a repeat (more rounds than players allow)."""
    order = ranked(players)
    for strict in (True, False):
        for bye in _bye_candidates(order):
            rest = [player for player in order if player is not bye]
            boards = _pair(rest, strict)
            if boards is not None:
                colours = tuple(
                    _colours(high, low, board) for board, (high, low) in enumerate(boards)
                )
                return Pairing(colours, bye.name if bye is not None else None)
    raise ValueError("these players cannot all be paired without meeting someone again")


def _bye_candidates(order: list[SwissPlayer]) -> list[SwissPlayer | None]:
    if len(order) % 2 == 0:
        return [None]
    lowest_first: list[SwissPlayer | None] = list(reversed(order))
    fresh: list[SwissPlayer | None] = [p for p in lowest_first if p is not None and not p.had_bye]
    return fresh or lowest_first


def _pair(order: list[SwissPlayer], strict: bool) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """Every player of `order` (ranked, an even number) paired, higher first, or None.
    The top unpaired player takes, in turn, the opponents the Dutch rules prefer."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for other in _preferred_opponents(top, rest):
        if not _may_meet(top, other, strict):
            continue
        others = [player for player in rest if player is not other]
        paired = _pair(others, strict)
        if paired is not None:
            return [(top, other), *paired]
    return None


def _preferred_opponents(top: SwissPlayer, rest: list[SwissPlayer]) -> list[SwissPlayer]:
    """`top`'s opponents in the order the Dutch rules prefer them: in its score
    group (itself and `rest`'s equals) the player half the group below it first,
    then the nearest to that one; then the lower groups, highest first."""
    group = [player for player in rest if player.score == top.score]
    lower = [player for player in rest if player.score != top.score]
    half = (len(group) + 1) // 2  # (the group is top and `group`: its S2 starts at half)
    ideal = half - 1
    by_distance = sorted(
        range(len(group)), key=lambda index: (abs(index - ideal), -index if index > ideal else 0)
    )
    return [group[index] for index in by_distance] + lower


def _may_meet(one: SwissPlayer, other: SwissPlayer, strict: bool) -> bool:
    if other.name in one.opponents:
        return False
    if not strict:
        return True
    wants_one, absolute_one = _preference(one)
    wants_other, absolute_other = _preference(other)
    return not (absolute_one and absolute_other and wants_one == wants_other)


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """One line of a Swiss event's standings."""

    rank: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float


def swiss_standings(players: Sequence[SwissPlayer]) -> list[SwissStanding]:
    """The standings: score, then Buchholz, then Sonneborn-Berger, then rating."""
    scores = {player.name: player.score for player in players}
    lines = []
    for player in players:
        buchholz = sum(scores.get(name, 0.0) for name in player.opponents)
        berger = sum(
            scores.get(played.opponent, 0.0) * SWISS_POINTS[played.result]
            for played in player.rounds
            if played.opponent is not None and played.result in ("win", "draw")
        )
        lines.append((player, buchholz, berger))
    lines.sort(key=lambda entry: (-entry[0].score, -entry[1], -entry[2], -entry[0].rating))
    return [
        SwissStanding(rank, player.name, player.score, buchholz, berger)
        for rank, (player, buchholz, berger) in enumerate(lines, start=1)
    ]
