"""The leaderboard and a player's profile as rows of text: `ssh host top` and
`ssh host player NAME` print them (commands.py), and the app's lobby shows the
same rows (lobby_host.py's `top` and `player`), where ⏎ on a row keyed
`player:NAME` opens that player's profile, on one keyed `game:ID` that game
for review.
"""

from __future__ import annotations

from ..ledger.standings import ArchivedGame, Profile, Standing

# How many players the leaderboard lists unless asked for another number.
TOP_COUNT = 20
# How many of a player's latest games a profile lists.
PROFILE_GAMES = 10
# A sparkline's levels, lowest first.
SPARKS = "▁▂▃▄▅▆▇█"

# A row: what ⏎ on it opens ('player:NAME', 'game:ID'; None: nothing), and its text.
Row = tuple[str | None, str]


def leaderboard_lines(standings: list[Standing]) -> list[str]:
    """`ssh host top`: the ranked players, then the provisional ones apart."""
    return [text for _, text in leaderboard_rows(standings)]


def leaderboard_rows(standings: list[Standing]) -> list[Row]:
    """The leaderboard's rows, each player's keyed by their name."""
    ranked = [standing for standing in standings if standing.rank is not None]
    unsettled = [standing for standing in standings if standing.rank is None]
    if not standings:
        return [(None, "tui-reversi: nobody has played a rated game here yet.")]
    header = f"  {'rank':>4}  {'name':<20} {'rating':>7} {'rated':>6}  {'won-drawn-lost':>14}  last"
    rows: list[Row] = [(None, "tui-reversi: the leaderboard"), (None, header)]
    rows += [(f"player:{standing.name}", _standing_line(standing)) for standing in ranked]
    if unsettled:
        rows.append((None, "Provisional, not ranked until their rating settles:"))
        rows += [(f"player:{standing.name}", _standing_line(standing)) for standing in unsettled]
    return rows


def _standing_line(standing: Standing) -> str:
    rank = str(standing.rank) if standing.rank is not None else "-"
    record = standing.record
    played = f"{record.wins}-{record.draws}-{record.losses}"
    seen = f"{standing.last_seen:%Y-%m-%d}" if standing.last_seen is not None else "-"
    return (
        f"  {rank:>4}  {standing.name:<20} {standing.shown_rating:>7} {standing.games:>6}"
        f"  {played:>14}  {seen}"
    )


def profile_lines(profile: Profile, hint: str) -> list[str]:
    """`ssh host player NAME`: the rating and its history, the record, the opponents
    most played and the latest games; `hint` is the ssh command before `replay ID`."""
    return [text for _, text in profile_rows(profile, hint)]


def profile_rows(profile: Profile, hint: str) -> list[Row]:
    """The profile's rows, each opponent's keyed by their name."""
    standing = profile.standing
    rank = f", rank {standing.rank}" if standing.rank is not None else ", provisional"
    seen = f"; last game {standing.last_seen:%Y-%m-%d %H:%M} UTC" if standing.last_seen else ""
    rows: list[Row] = [
        (
            None,
            f"tui-reversi: {standing.name}, rating {standing.shown_rating}{rank} "
            f"after {_rated_games(standing.games)}",
        ),
        (None, f"Record: {standing.record}{seen}"),
    ]
    if profile.history:
        # From the rating before the first of these games to today's, in that
        # order: 1516 then 1507 from 1500 reads "from 1500 to 1507", not a range.
        ratings = (profile.start, *profile.history)
        first, last = round(ratings[0]), round(ratings[-1])
        history = f"{sparkline(ratings)}  (from {first} to {last})"
        rows.append((None, f"Rating over the last {_rated_games(len(profile.history))}: {history}"))
    if profile.opponents:
        rows.append((None, "Against the opponents most played:"))
        for name, results in profile.opponents:
            rows.append((f"player:{name}", f"  {name:<20} {results}"))
    if profile.games:
        rows.append((None, f"Latest games (replay one: {hint} replay ID):"))
        rows += [(f"game:{game.id}", _game_line(game, standing.name)) for game in profile.games]
    return rows


def _game_line(game: ArchivedGame, name: str) -> str:
    color = game.color_of(name)
    opponent = game.names[color.other]
    change = game.change_for(name)
    moved = f" ({change:+.0f})" if change is not None else ""
    return (
        f"  {game.ended:%Y-%m-%d %H:%M}  against {opponent:<20} {color.label:<5} "
        f"{game.result_for(name) + moved:<15} {game.ending:<8}  id {game.id}"
    )


def sparkline(values: tuple[float, ...]) -> str:
    """One block character a value, as high as the value within the values' range."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    top = len(SPARKS) - 1
    return "".join(SPARKS[round((value - low) / span * top)] for value in values)


def _rated_games(count: int) -> str:
    return f"{count} rated game{'' if count == 1 else 's'}"
