"""The referee at every table of `tui-reversi serve`: what a seated game may
ask, and the answer. Every move is checked with core before both games are
told of it; a takeback or a rematch is asked by one player and allowed or
declined by the other; resigning; a line of chat, within its limits; a report
on the opponent (table_reports.py). A game that asks anything else, or out
of turn, is refused in one sentence and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from ...core import Color, Ending, Game, Move, ReversiError
from ...net.remote import CHAT_LENGTH, shown_name
from ...net.server_line import line
from ..bucket import Limit, Limiter, per_minute
from ..ledger.table_phase import Phase
from ..tally import GAMES_STARTED, MOVES, TALLY
from .moderation_watch import Moderation, chat_refusal
from .table import Seat, Table
from .table_clocks import TableClocks

# Takebacks one player may ask for in one game.
TAKEBACKS_PER_GAME = 5
# Lines of chat one person (by name, across tables) may say at once and a minute;
# the names from one address together, as many as the people it stands for.
CHAT = Limit(per_minute(10), per_minute(10), "chat lines", "wait a moment")
# Takebacks asked for (refused ones too), the same way: a flood of them, the
# opponent asked again and again, is what this stops.
TAKEBACKS = Limit(per_minute(3), per_minute(3), "takebacks", "wait a moment")


class TableReferee:
    """Rules on what the seated games ask: heard() gives the refusal, if any."""

    def __init__(
        self,
        clocks: TableClocks,
        *,
        end: Callable[[Table, Ending], None],
        save: Callable[[Table], None],
        log: Callable[[str], None],
        charged: Callable[[str, str], None],
        moderation: Moderation,
        report: Callable[[Seat, list[str]], str | None],
        people_per_address: int = 1,
    ) -> None:
        self._clocks = clocks
        self._end = end  # the game is over: told, recorded
        self._save = save  # the game changed: kept
        self._log = log
        # (a drop past a limit is noted charged to the address that flooded)
        people = people_per_address
        self._chat = Limiter(CHAT, charged, people=people, now=clocks.now)
        self._takebacks = Limiter(TAKEBACKS, charged, people=people, now=clocks.now)
        self._moderation = moderation  # (mutes and blocks: moderation_watch.py)
        self._report = report  # (the opponent reported: table_reports.py)

    def heard(self, seat: Seat, command: str, rest: str) -> str | None:
        """Do what the game at `seat` asked; why not, in one sentence, if it cannot be done."""
        if command == "say":
            return self._say(seat, rest)
        if command == "report":  # (a spectator is told where to report from)
            return self._report(seat, rest.split())
        if seat.color is None:
            return "You are watching: only the players move."
        if command == "move":
            return self._move(seat, rest)
        if command == "resign":
            return self._resign(seat)
        if command == "takeback":
            return self._ask_takeback(seat)
        if command == "rematch":
            return self._ask_rematch(seat)
        if command in ("allow", "deny") and seat.table.phase is Phase.ENDED:
            return self._answer_rematch(seat, allowed=command == "allow")
        if command in ("allow", "deny"):
            return self._answer_takeback(seat, allowed=command == "allow")
        return f"{command[:20]!r} is not something a game may say here."

    def _say(self, seat: Seat, text: str) -> str | None:
        """Pass a line of chat on to everyone at the table, within the limits."""
        text = "".join(ch for ch in text if ch.isprintable()).strip()
        if not text:
            return None
        if len(text) > CHAT_LENGTH:
            return f"A chat line is at most {CHAT_LENGTH} characters."
        refusal = chat_refusal(self._moderation, seat.name, seat.table.names.values())
        if refusal is not None:
            return refusal
        if not self._chat.take(seat.name, seat.address):
            return self._chat.limit.refusal
        told = line("said", shown_name(seat.name), text)
        seat.table.chat.append(told)
        seat.table.broadcast(told)
        return None

    def _move(self, seat: Seat, rest: str) -> str | None:
        """Play the seat's move if it is legal and its turn; else why not."""
        table, color = seat.table, seat.color
        assert color is not None
        game = table.game
        if table.phase is Phase.ENDED:
            return "The game is over."
        if table.phase is Phase.ADJOURNED:
            return "The game is adjourned until you are both back at the table."
        if table.phase is Phase.OPEN:
            return f"Nobody has joined yet: give your friend the code {table.code}."
        if game.position.to_move != color:
            return "It is not your turn."
        try:
            ply_text, square = rest.split(" ")
            ply = int(ply_text)
            move = Move.parse(square)
        except (ValueError, ReversiError):
            return "That is not a move."
        if ply != game.ply:
            return "That move was for another position."
        if self._clocks.check_flag(table):
            return None  # too late: the game is over, and both are told why
        if not move:
            return "Passes are the server's to play: choose a square."
        reason = game.position.illegal_reason(move.square)
        if reason is not None:
            return f"{move} {reason}."
        self._clocks.stop(table, add_increment=True)
        table.takeback = None  # a move answers a waiting takeback: no
        game.play(move)
        TALLY.count(MOVES)
        result = game.result
        if result is None:
            # Kept before anyone is told: a server killed now loses no move it announced.
            self._save(table)
        table.broadcast(line("moved", ply, move))
        if result is not None:
            self._end(table, Ending("normal", result.winner, table.result_text()))
        else:
            self._clocks.run(table)
        return None

    def _resign(self, seat: Seat) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        if table.phase is Phase.ENDED:
            return "The game is over."
        other = table.shown(color.other)
        winner = f"{other} ({color.other.label}) wins." if other else "The table closes."
        how = f"{table.shown(color)} ({color.label}) resigned: {winner}"
        self._end(table, Ending("resigned", color.other if other else None, how))
        return None

    # -- takebacks: asked by one player, allowed or declined by the other -------------

    def _ask_takeback(self, seat: Seat) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        game = table.game
        if not self._takebacks.take(seat.name, seat.address):
            return self._takebacks.limit.refusal
        if table.phase is Phase.ENDED:
            return "The game is over."
        if table.takeback is not None:
            return "A takeback is waiting for an answer already."
        if table.takebacks_asked.get(color, 0) >= TAKEBACKS_PER_GAME:
            return f"At most {TAKEBACKS_PER_GAME} takebacks a game may be asked for."
        mine = [
            ply
            for ply in range(game.ply)
            if game.move_at(ply) and game.positions[ply].to_move == color
        ]
        if not mine:
            return "You have no move to take back."
        table.takeback = (color, mine[-1])
        table.takebacks_asked[color] = table.takebacks_asked.get(color, 0) + 1
        other = table.links.get(color.other)
        if other is not None:
            other.write(line("asked", "takeback", shown_name(seat.name)))
        writer = table.links.get(color)
        if writer is not None:
            writer.write(line("news", f"Asked {table.shown(color.other)} to take back your move."))
        return None

    def _answer_takeback(self, seat: Seat, *, allowed: bool) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        asked = table.takeback
        if asked is None or asked[0] == color or table.phase is Phase.ENDED:
            return "No takeback is waiting for your answer."
        table.takeback = None
        asker, ply = asked
        if not allowed:
            writer = table.links.get(asker)
            if writer is not None:
                writer.write(line("news", f"{shown_name(seat.name)} declined the takeback."))
            return None
        self._clocks.stop(table)
        table.game.continue_from(ply)
        self._log(f"table {table.code}: back to ply {ply}, allowed by {seat.name}")
        table.broadcast(line("undone", ply))
        table.broadcast(
            line("news", f"{shown_name(seat.name)} allowed {table.shown(asker)}'s takeback.")
        )
        self._clocks.run(table)
        self._save(table)
        return None

    # -- a rematch: asked by one player after the game, allowed by the other ------------

    def _ask_rematch(self, seat: Seat) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        if table.phase is not Phase.ENDED:
            return "The game is not over."
        other = table.links.get(color.other)
        if other is None:  # (nobody there, or nobody ever sat there)
            return f"{table.shown(color.other) or 'Nobody'} is not at the table any more."
        if self._moderation.apart(seat.name, table.name(color.other)):  # (as an invitation)
            return f"Your rematch offer to {table.shown(color.other)} cannot be sent."
        if table.rematch == color:
            return "Your rematch offer is waiting for an answer already."
        if table.rematch == color.other:  # both asked: that is a yes
            self._rematch(table)
            return None
        table.rematch = color
        other.write(line("asked", "rematch", shown_name(seat.name)))
        mine = table.links.get(color)
        if mine is not None:
            mine.write(line("news", f"Asked {table.shown(color.other)} for a rematch."))
        return None

    def _answer_rematch(self, seat: Seat, *, allowed: bool) -> str | None:
        table, color = seat.table, seat.color
        assert color is not None
        asker = table.rematch
        if asker is None or asker == color:
            return "No rematch is waiting for your answer."
        if allowed:
            self._rematch(table)
            return None
        table.rematch = None
        writer = table.links.get(asker)
        if writer is not None:
            writer.write(line("news", f"{shown_name(seat.name)} declined the rematch."))
        return None

    def _rematch(self, table: Table) -> None:
        """A new game at the table, on the same terms, the colours changed."""
        table.names = {color.other: name for color, name in table.names.items()}
        table.links = {color.other: writer for color, writer in table.links.items()}
        table.begun = {color.other for color in table.begun}  # (its seats' colours follow)
        table.game = Game(table.variant)
        table.begin_again()
        table.rematch, table.takeback = None, None
        table.takebacks_asked.clear()
        table.started = datetime.now(UTC)
        TALLY.count(GAMES_STARTED)
        if table.time_control is not None:
            table.remaining = {color: table.time_control.base for color in Color}
        black, white = table.name(Color.BLACK), table.name(Color.WHITE)
        self._log(f"table {table.code}: rematch, {black} (Black) against {white} (White)")
        table.broadcast(line("again"))
        table.broadcast(table.players_line())
        table.broadcast(line("news", f"A rematch: {black} plays Black this time."))
        self._clocks.run(table)
        self._save(table)
