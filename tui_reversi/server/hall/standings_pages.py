"""The leaderboard and a player's profile as rows of text: `ssh host top` and
`ssh host player NAME` print them (commands.py), and the app's lobby shows the
same rows (lobby_host.py's `top` and `player`), where ⏎ on a row keyed
`player:NAME` opens that player's profile, on one keyed `game:ID` that game
for review.
"""

from __future__ import annotations

from ..ledger.ratings import PROVISIONAL_DEVIATION
from ..ledger.standings import ArchivedGame, Profile, Standing

# How many players the leaderboard lists unless asked for another number.
TOP_COUNT = 20
# How many of a player's latest games a profile lists.
PROFILE_GAMES = 10
# The most digits of an archived game's number as typed (`replay ID`; its row's key).
GAME_ID_DIGITS = 18
# A sparkline's levels, lowest first.
SPARKS = "▁▂▃▄▅▆▇█"

# A row: what ⏎ on it opens ('player:NAME', 'game:ID'; None: nothing), and its text.
Row = tuple[str | None, str]


def leaderboard_lines(standings: list[Standing]) -> list[str]:
    """`ssh host top`: the players with a settled rating, ranked."""
    return [text for _, text in leaderboard_rows(standings)]


def leaderboard_rows(standings: list[Standing]) -> list[Row]:
    """The leaderboard's rows, each player's keyed by their name."""
    if not standings:
        return [(None, NOBODY_SETTLED)]
    header = _columns("rank", "name", "rating", "rated", "W-D-L", "last")
    rows: list[Row] = [(None, "tui-reversi: the leaderboard"), (None, header)]
    rows += [(f"player:{standing.name}", _standing_line(standing)) for standing in standings]
    return rows


# What the leaderboard says with nobody on it.
NOBODY_SETTLED = (
    "tui-reversi: nobody has a settled rating here yet "
    f"(a rating deviation of {PROVISIONAL_DEVIATION:.0f} or less)."
)


# The leaderboard's name column; a longer name (up to 32) is cut with an
# ellipsis, so that a row fits the lobby's page at 60 columns (54 inside it).
NAME_COLUMN = 16


# A profile's latest games name the opponent in this many columns.
OPPONENT_COLUMN = 10


def _cut(name: str, width: int) -> str:
    """`name` in a column `width` wide: padded, or cut with an ellipsis."""
    return f"{name[: width - 1]}…" if len(name) > width else f"{name:<{width}}"


def _columns(rank: str, name: str, rating: str, games: str, played: str, seen: str) -> str:
    return f"{rank:>3} {_cut(name, NAME_COLUMN)} {rating:>6} {games:>5} {played:>9} {seen:>10}"


def _standing_line(standing: Standing) -> str:
    rank = str(standing.rank) if standing.rank is not None else "-"
    record = standing.record
    played = f"{record.wins}-{record.draws}-{record.losses}"
    seen = f"{standing.last_seen:%Y-%m-%d}" if standing.last_seen is not None else "-"
    return _columns(rank, standing.name, standing.shown_rating, str(standing.games), played, seen)


def profile_lines(profile: Profile, hint: str) -> list[str]:
    """`ssh host player NAME`: the rating and its history, the record, the opponents
    most played and the latest games; `hint` is the ssh command before `replay ID`."""
    return [text for _, text in profile_rows(profile, hint)]


def profile_rows(profile: Profile, hint: str) -> list[Row]:
    """The profile's rows: the first (the player's name) and each opponent's keyed by
    their name, so that the app's keys for a person (its profile, block, report)
    reach the player shown as they reach their opponents."""
    standing = profile.standing
    rank = f", rank {standing.rank}" if standing.rank is not None else ", provisional"
    rows: list[Row] = [
        (f"player:{standing.name}", f"tui-reversi: {standing.name}"),
        (None, f"Rating {standing.shown_rating}{rank} after {_rated_games(standing.games)}"),
        (None, _sureness(standing)),
        (None, f"Record: {standing.record}"),
    ]
    if standing.last_seen:
        rows.append((None, f"Last game: {standing.last_seen:%Y-%m-%d %H:%M} UTC"))
    if profile.history:
        # From the rating before the first of these games to today's, in that
        # order: 1516 then 1507 from 1500 reads "from 1500 to 1507", not a range.
        # The sparkline on a row of its own: 51 marks fit the lobby at 60 columns.
        ratings = (profile.start, *profile.history)
        first, last = round(ratings[0]), round(ratings[-1])
        games = _rated_games(len(profile.history))
        rows.append((None, f"Rating over the last {games}: from {first} to {last}"))
        rows.append((None, f"  {sparkline(ratings)}"))
        now = round(standing.rating.rating)
        if now != last:  # a refund, or a game voided before the last, moved it since
            rows.append((None, f"Since then, a moderator's correction: {now} now."))
    if profile.opponents:
        rows.append((None, "Against the opponents most played:"))
        for name, results in profile.opponents:
            rows.append((f"player:{name}", f"  {name:<20} {results}"))
    if profile.games:
        rows.append((None, f"Latest games (replay one: {hint} replay ID):"))
        rows += [(f"game:{game.id}", _game_line(game, standing.name)) for game in profile.games]
    return rows


def _sureness(standing: Standing) -> str:
    """'Deviation 64 (provisional over 110), volatility 0.060': how sure the rating is."""
    rating = standing.rating
    limit = f"provisional over {PROVISIONAL_DEVIATION:.0f}"
    return f"Deviation {rating.deviation:.0f} ({limit}), volatility {rating.volatility:.3f}"


def _game_line(game: ArchivedGame, name: str) -> str:
    color = game.color_of(name)
    opponent = game.names[color.other]
    change = game.change_for(name)
    moved = f" ({change:+.0f})" if change is not None else ""
    # The id first (what `replay ID` takes), then what fits the lobby at 60 columns.
    return (
        f"{game.id:>6} {game.ended:%Y-%m-%d} {_cut(opponent, OPPONENT_COLUMN)} "
        f"{color.label:<5} {game.result_for(name) + moved:<10} {game.ending}"
    )


def sparkline(values: tuple[float, ...]) -> str:
    """One block character a value, as high as the value within the values' range."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    top = len(SPARKS) - 1
    return "".join(SPARKS[round((value - low) / span * top)] for value in values)


def _rated_games(count: int) -> str:
    return f"{count} rated game{'' if count == 1 else 's'}"
