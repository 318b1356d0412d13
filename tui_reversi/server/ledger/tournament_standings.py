"""A tournament's standings counted from what the store keeps (tournaments.py):
an arena's by arena.py's scoring, a Swiss's by swiss.py's, and the players
free to be paired in the order the arena pairs them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .arena import DRAW, LOSS, WIN, ArenaGame, FreePlayer, arena_score, on_fire
from .swiss import SwissPlayer, SwissRound, swiss_standings
from .tournaments import (
    ARENA,
    BLACK_WON,
    BYE,
    DRAWN,
    NO_RESULT,
    WAITING,
    Entry,
    Tournament,
    TournamentGame,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a tournament's standings (arena: points; Swiss: points and
    tie-breaks)."""

    rank: int
    name: str
    score: float
    games: int
    fire: bool = False  # an arena player whose next game scores double
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0


def _outcome(game: TournamentGame, name: str) -> str | None:
    """WIN, DRAW or LOSS for `name` in `game`; None without a result (yet)."""
    if game.result in (None, NO_RESULT):
        return None
    if game.result == BYE:
        return "bye"
    if game.result == DRAWN:
        return DRAW
    won = game.black if game.result == BLACK_WON else game.white
    return WIN if won == name else LOSS


def arena_games(games: Sequence[TournamentGame]) -> dict[str, list[ArenaGame]]:
    """Each player's finished arena games, in the order played."""
    played: dict[str, list[ArenaGame]] = {}
    for game in games:
        for name, berserk in zip((game.black, game.white), game.berserk, strict=True):
            outcome = _outcome(game, name)
            if name and outcome in (WIN, DRAW, LOSS):
                played.setdefault(name, []).append(ArenaGame(outcome, berserk, game.moves))
    return played


def swiss_players(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[SwissPlayer]:
    """The Swiss's players with their rounds (a game in play: a round without a result)."""
    players = {entry.name: SwissPlayer(entry.name, entry.rating) for entry in entries}
    for game in games:
        for name, opponent, colour in (
            (game.black, game.white, "black"),
            (game.white, game.black, "white"),
        ):
            if name not in players:
                continue
            if game.result == BYE:
                players[name].rounds.append(SwissRound(None, None, "bye"))
            else:
                players[name].rounds.append(SwissRound(opponent, colour, _outcome(game, name)))
    return list(players.values())


def standings(
    tournament: Tournament, entries: Sequence[Entry], games: Sequence[TournamentGame]
) -> list[Standing]:
    """The standings, the leader first."""
    if tournament.kind == ARENA:
        played = arena_games(games)
        score = {entry.name: arena_score(played.get(entry.name, [])) for entry in entries}
        order = sorted(entries, key=lambda e: (-score[e.name], -e.rating, e.name))
        return [
            Standing(
                rank,
                entry.name,
                score[entry.name],
                len(played.get(entry.name, [])),
                on_fire(played.get(entry.name, [])),
            )
            for rank, entry in enumerate(order, start=1)
        ]
    players = swiss_players(entries, games)
    counted = {player.name: len(player.rounds) for player in players}
    return [
        Standing(
            line.rank,
            line.name,
            line.score,
            counted[line.name],
            buchholz=line.buchholz,
            sonneborn_berger=line.sonneborn_berger,
        )
        for line in swiss_standings(players)
    ]


def free_in_order(
    lines: Sequence[Standing], entries: Sequence[Entry], games: Sequence[TournamentGame]
) -> list[FreePlayer]:
    """The arena's players waiting now, in the standings' order, each with their
    last opponent."""
    last: dict[str, str] = {}
    for game in games:  # (in the order begun: the last one stays)
        if game.white:
            last[game.black], last[game.white] = game.white, game.black
    waiting = {entry.name for entry in entries if entry.state == WAITING}
    return [FreePlayer(line.name, last.get(line.name)) for line in lines if line.name in waiting]
