"""`ssh host mod ...`: what a moderator does, each act appended to the
moderation log with who, on whom, what, why and until when.

A moderator is a name the operator gave (`serve --moderators`) or an admin
named (`mod role`), logged in with one of its keys: a name alone proves
nothing. A moderator reads the open reports, bans (a name, a key's
fingerprint or an address prefix) and mutes for a time, lifts them, writes
notes and reads the log; an admin also voids a game's rating, names
moderators, renames (mod_rename.py) and closes names, and bans moderators.
A ban for cheating or boosting refunds the name's victims (ledger/refunds.py),
each told; the reports on a name a moderator acts on are closed, and their
reporters told.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ...net.typed_number import typed_number
from ..ledger.moderation import ADMIN, MODERATOR, WATCH_REPORTER, LogEntry, Report, Sanction
from ..ledger.refunds import REFUNDED_REASONS, refunds_due
from ..ledger.store import Store
from .asker import Asker
from .mod_rename import rename
from .safety import Refused, answering, known, plain
from .sanction_terms import (
    SanctionRefused,
    parse_duration,
    subject_of,
    until_text,
)

# How many rows `mod log` and `mod reports` show.
LOG_ROWS = 50
REPORT_ROWS = 20
# What a sanction makes of its subject.
DONE = {"ban": "banned", "mute": "muted"}
REASON_LENGTH = 200
GAME_DIGITS = 12


@answering
async def mod(asker: Asker, words: list[str]) -> list[str]:
    """`mod WHAT ...`, for a moderator (see the module)."""
    moderation = asker.server.moderation
    role = moderation.role_of(asker.player)
    if role is None:
        raise Refused(f"mod is for this server's moderators, and {asker.player} is not one.")
    if not asker.key_proved:
        raise Refused(f"mod needs {asker.player}'s key: connect with it, not a password.")
    store = asker.server.store
    what, rest = (words[0], words[1:]) if words else ("help", [])
    if what == "help":
        return help_lines(role)
    act = _ACTS.get(what)
    if act is None:
        raise Refused(f"{what[:20]!r} is not something mod does; mod help lists what it does.", 2)
    admin_only = what in ("void", "role", "close", "rename")
    if admin_only and role != ADMIN:
        raise Refused(f"mod {what} is for admins; {asker.player} is a moderator.")
    return await act(_Act(asker, store, role), rest)


class _Act:
    """One moderator's act in progress: who, with what role, on which store."""

    def __init__(self, asker: Asker, store: Store, role: str) -> None:
        self.asker = asker
        self.store = store
        self.role = role
        self.moderation = asker.server.moderation
        self.now = self.moderation.now()

    def entry(self, action: str, subject: str, reason: str, until: float | None = None) -> LogEntry:
        return LogEntry(0, self.now, self.asker.player, action, subject, reason, until)

    def usage(self, terms: str) -> Refused:
        return Refused(f"say: {self.asker.ssh(terminal=False)} mod {terms}", 2)

    def reason(self, words: list[str], terms: str) -> str:
        """The words of a reason (or a note), as kept: control characters dropped.
        Raises the usage of `terms` if nothing is left."""
        reason = plain(" ".join(words), REASON_LENGTH)
        if not reason.strip():
            raise self.usage(terms)
        return reason

    async def subject(self, typed: str, kind: str) -> tuple[str, str]:
        """Whom a ban or mute is against; Refused for a name not there, the asker,
        or one whose role protects it."""
        try:
            scope, subject = subject_of(typed)
        except SanctionRefused as refusal:
            raise Refused(str(refusal), 2) from None
        if kind == "mute" and scope != "name":
            raise Refused("a mute is of a name, not of a key or an address.", 2)
        if scope != "name":
            return scope, subject
        name = await known(self.store, subject)
        if name == self.asker.player:
            raise Refused(f"you cannot {kind} yourself.")
        theirs = self.moderation.role_of(name)
        if theirs == ADMIN:
            raise Refused(f"{name} is an admin: take the role away first (mod role {name} none).")
        if theirs == MODERATOR and self.role != ADMIN:
            raise Refused(f"{name} is a moderator: only an admin may {kind} a moderator.")
        return scope, name

    async def close_reports(self, name: str, outcome: str) -> int:
        """Close `name`'s open reports; each reporter told. How many."""
        closed = await self.store.close_reports(name, None, self.asker.player, outcome, self.now)
        for report in told(closed):
            await self.store.leave_notice(
                report.reporter,
                f"a moderator acted on your report {report.id} on {report.name}: {outcome}.",
                self.now,
            )
        return len(closed)


async def _sanction(act: _Act, words: list[str], kind: str) -> list[str]:
    terms = f"{kind} {'NAME|KEY|ADDRESS' if kind == 'ban' else 'NAME'} 7d REASON"
    reason = act.reason(words[2:], terms)
    scope, subject = await act.subject(words[0], kind)
    try:
        seconds = parse_duration(words[1], kind)
    except SanctionRefused as refusal:
        raise Refused(str(refusal), 2) from None
    until = None if seconds is None else act.now + seconds
    moderator = act.asker.player
    sanction = Sanction(0, kind, scope, subject, until, reason, moderator, act.now)
    await act.store.sanction(sanction, act.entry(kind, subject, reason, until))
    told = [f"tui-reversi: {subject} is {DONE[kind]} {until_text(until)}: {reason}"]
    if scope == "name":
        closed = await act.close_reports(subject, DONE[kind])
        if closed:
            told.append(f"  {closed} report{'s' if closed > 1 else ''} on {subject} closed.")
        first = reason.split()[0].lower() if reason.split() else ""
        if kind == "ban" and first in REFUNDED_REASONS:
            told += await refund_victims(act, subject, first)
    await act.moderation.read()  # (in force on this node at once; the others within a poll)
    return told


async def refund_victims(act: _Act, cheat: str, why: str) -> list[str]:
    """Refund `cheat`'s victims (ledger/refunds.py), log and tell each; the lines said."""
    refunds = await refunds_due(act.store, cheat, act.now)
    if not refunds:
        return [f"  no opponent of {cheat} is owed a refund."]
    entries = [
        act.entry("refund", refund.name, f"{refund.points:+.0f} after {cheat}'s ban")
        for refund in refunds
    ]
    await act.store.refund({refund.name: refund.points for refund in refunds}, entries)
    lines = []
    for refund in refunds:
        await act.store.leave_notice(
            refund.name,
            f"{cheat} is banned for {why}: the {refund.points:.0f} rating points you "
            "lost to them are given back to you.",
            act.now,
        )
        games = ", ".join(str(game) for game in refund.games)
        lines.append(f"  refunded {refund.name} {refund.points:+.0f} (games {games}).")
    return lines


async def _ban(act: _Act, words: list[str]) -> list[str]:
    return await _sanction(act, words, "ban")


async def _mute(act: _Act, words: list[str]) -> list[str]:
    return await _sanction(act, words, "mute")


async def _lift(act: _Act, words: list[str], kind: str) -> list[str]:
    if len(words) != 1:
        raise act.usage(f"un{kind} {'NAME|KEY|ADDRESS' if kind == 'ban' else 'NAME'}")
    try:
        scope, subject = subject_of(words[0])
    except SanctionRefused as refusal:
        raise Refused(str(refusal), 2) from None
    lifted = await act.store.lift(
        kind, scope, subject, act.entry(f"un{kind}", subject, ""), act.now
    )
    if not lifted:
        raise Refused(f"{words[0][:45]!r} is not {DONE[kind]}.")
    await act.moderation.read()
    return [f"tui-reversi: {subject} is no longer {DONE[kind]}."]


async def _unban(act: _Act, words: list[str]) -> list[str]:
    return await _lift(act, words, "ban")


async def _unmute(act: _Act, words: list[str]) -> list[str]:
    return await _lift(act, words, "mute")


async def _note(act: _Act, words: list[str]) -> list[str]:
    text = act.reason(words[1:], "note NAME TEXT")
    name = await known(act.store, words[0])
    await act.store.append_log(act.entry("note", name, text))
    return [f"tui-reversi: your note on {name} is in the log."]


async def _log(act: _Act, words: list[str]) -> list[str]:
    if len(words) > 1:
        raise act.usage("log [NAME]")
    subject = words[0] if words else None
    if subject is None:
        rows = await act.store.mod_log(None, LOG_ROWS)
    else:  # (and the rows of the names it had before a rename)
        rows = await act.store.person_log(subject, LOG_ROWS)
    if not rows:
        about = f" about {subject[:40]!r}" if subject else ""
        return [f"tui-reversi: the moderation log holds nothing{about}."]
    lines = [f"tui-reversi: the moderation log, the latest {len(rows)} first:"]
    former = await act.store.former_names(subject) if subject else []
    if former:
        lines.append(f"  ({subject} was {', then '.join(reversed(former))} before)")
    for row in rows:
        until = f" {until_text(row.until)}" if row.action in ("ban", "mute") else ""
        why = f"{' ' if row.action == 'rename' else ': '}{row.reason}" if row.reason else ""
        lines.append(
            f"  {row.id:>5} {_when(row.at)} {row.moderator} {row.action} {row.subject}{until}{why}"
        )
    return lines


async def _reports(act: _Act, words: list[str]) -> list[str]:
    if words:
        raise act.usage("reports")
    reports = await act.store.open_reports(REPORT_ROWS)
    if not reports:
        return ["tui-reversi: no report is open."]
    count = len(reports)
    if count == REPORT_ROWS:  # (there may be more than are shown: say how many)
        rows = await act.store.run_query("SELECT count(*) FROM reports WHERE closed IS NULL", ())
        count = max(int(rows[0][0]), count) if rows else count
    many = "s" if count > 1 else ""
    shown = f"the oldest {len(reports)} first" if count > len(reports) else "the oldest first"
    lines = [f"tui-reversi: {count} open report{many}, {shown}:"]
    for report in reports:
        lines += report_lines(report)
    return lines


def told(reports: list[Report]) -> list[Report]:
    """The reports whose reporter is a person, to be told what became of them."""
    return [report for report in reports if report.reporter != WATCH_REPORTER]


def report_lines(report: Report) -> list[str]:
    """One report as a moderator reads it: who, on whom, why, the game, the chat."""
    game = f", game {report.game}" if report.game is not None else ""
    said = f": {report.words}" if report.words else ""
    who = f"{report.reporter} on {report.name}, {report.reason}{game}{said}"
    lines = [f"  {report.id:>5} {_when(report.made)} {who}"]
    lines += [f"          | {line}" for line in report.chat]
    return lines


async def _dismiss(act: _Act, words: list[str]) -> list[str]:
    number = typed_number(words[0], GAME_DIGITS) if words else None
    if number is None:
        raise act.usage("dismiss REPORT [WHY]")
    why = plain(" ".join(words[1:]), REASON_LENGTH) or "no action"
    closed = await act.store.close_reports(
        None, number, act.asker.player, f"dismissed ({why})", act.now
    )
    if not closed:
        raise Refused(f"there is no open report {number}.")
    await act.store.append_log(act.entry("dismiss", f"report {number}", why))
    for report in told(closed):  # (told it was looked at; the moderator's words stay theirs)
        await act.store.leave_notice(
            report.reporter,
            f"a moderator looked at your report {report.id} on {report.name} "
            "and closed it without acting.",
            act.now,
        )
    return [f"tui-reversi: report {number} is closed: {why}."]


async def _close(act: _Act, words: list[str]) -> list[str]:
    reason = act.reason(words[1:], "close NAME REASON")
    scope, name = await act.subject(words[0], "close")  # (a bad key or prefix: Refused)
    if scope != "name":
        raise Refused("mod close takes a name, not a key or an address.", 2)
    ban = Sanction(0, "ban", "name", name, None, reason, act.asker.player, act.now)
    keys = await act.store.close_name(ban, act.entry("close", name, reason))
    closed = await act.close_reports(name, "closed")
    await act.moderation.read()
    return [
        f"tui-reversi: {name} is closed for good ({reason}): {keys} key"
        f"{'' if keys == 1 else 's'} let go, the name kept by nobody; {closed} report"
        f"{'' if closed == 1 else 's'} closed."
    ]


async def _rename(act: _Act, words: list[str]) -> list[str]:
    return await rename(act.asker, act.now, words)


async def _void(act: _Act, words: list[str]) -> list[str]:
    game_id = typed_number(words[0], GAME_DIGITS) if len(words) >= 1 else None
    if game_id is None:
        raise act.usage("void GAME [WHY]")
    why = plain(" ".join(words[1:]), REASON_LENGTH) or "voided"
    moved = await act.store.void_game(game_id, act.entry("void", f"game {game_id}", why))
    if not moved:
        if not await act.store.run_query("SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise Refused(f"there is no game {game_id} here.")
        raise Refused(f"game {game_id} moved no rating (or it was voided already).")
    told = ", ".join(f"{name} {-change:+.0f}" for name, change in moved)
    return [f"tui-reversi: game {game_id}'s rating is voided: {told}."]


async def _role(act: _Act, words: list[str]) -> list[str]:
    if len(words) != 2 or words[1] not in (MODERATOR, ADMIN, "none"):
        raise act.usage("role NAME moderator|admin|none")
    name = await known(act.store, words[0])
    if name in act.moderation.given:
        raise Refused(f"{name}'s role is the command line's (--moderators): change it there.")
    role = None if words[1] == "none" else words[1]
    if act.moderation.role_of(name) == role:  # (nothing would change: nothing logged)
        if role is None:
            raise Refused(f"{name} has no role to take away.")
        raise Refused(f"{name} is {ROLE_SAID[role]} already.")
    await act.store.name_role(name, role, act.asker.player, act.now)
    await act.store.append_log(act.entry("role", name, words[1]))
    await act.moderation.read()
    if role is None:
        return [f"tui-reversi: {name} is no longer a moderator."]
    return [f"tui-reversi: {name} is {ROLE_SAID[role]} now."]


ROLE_SAID = {MODERATOR: "a moderator", ADMIN: "an admin"}


# What `mod help` lists: each act, its terms and what it does (admins' last).
ACTS_SAID = (
    ("reports", "the open reports, the oldest first, with their chat"),
    ("ban NAME|KEY|ADDRESS DURATION REASON", "ban a name, a key (SHA256:...) or an address/prefix"),
    ("unban NAME|KEY|ADDRESS", "lift a ban"),
    ("mute NAME DURATION REASON", "refuse a name's chat for a while"),
    ("unmute NAME", "lift a mute"),
    ("note NAME TEXT", "a note on a name, in the log"),
    ("log [NAME]", "the moderation log, the latest first"),
    ("dismiss REPORT [WHY]", "close a report without acting"),
    ("void GAME [WHY]", "admins: take a game's rating changes back"),
    ("close NAME REASON", "admins: close a name: banned for good, its keys let go"),
    ("rename OLD NEW [WHY]", "admins: rename a player: all theirs moves, OLD stays reserved"),
    ("role NAME moderator|admin|none", "admins: name a moderator (or take the role away)"),
)


def help_lines(role: str) -> list[str]:
    """`mod help` (or `mod` alone): what a moderator may do here."""
    lines = [f"tui-reversi: what you may do as this server's {role}"]
    for terms, says in ACTS_SAID:
        if role == ADMIN or not says.startswith("admins"):
            lines.append(f"  mod {terms}")
            lines.append(f"      {says}")
    lines.append("DURATION: 30m, 2h, 7d, 2w, or forever (a ban). A ban for cheating or boosting")
    lines.append("refunds what its victims lost to the name (its last 40 rated games of 5 days).")
    return lines


def _when(at: float) -> str:
    return f"{datetime.fromtimestamp(at, UTC):%Y-%m-%d %H:%M}"


_ACTS = {
    "reports": _reports,
    "ban": _ban,
    "unban": _unban,
    "mute": _mute,
    "unmute": _unmute,
    "note": _note,
    "log": _log,
    "dismiss": _dismiss,
    "void": _void,
    "close": _close,
    "rename": _rename,
    "role": _role,
}
