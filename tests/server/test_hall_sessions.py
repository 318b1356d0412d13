"""This node's sessions as the hall keeps them (hall/sessions.py): one own game
per player, the oldest seat at a table found first, everyone ended at a stop."""

from dataclasses import dataclass, field

from tui_reversi.server.hall.sessions import Sessions


@dataclass(eq=False)
class Session:
    player: str
    started: float
    playing_at_table: bool = False
    address: str = "127.0.0.1"
    client_connected: bool = True
    table_secret: str | None = None
    task: None = None
    ended: list[str] = field(default_factory=list)

    def hand_seat_over(self):
        return None

    def end(self, reason, message):
        self.ended.append(reason)


def test_a_players_own_game_is_theirs_until_it_has_gone(tmp_path):
    sessions = Sessions(tmp_path)
    own, beside = Session("alice", 1.0), Session("alice", 2.0)
    sessions.begin(own, own=True)
    sessions.begin(beside, own=False)
    assert sessions.own("alice") is own and sessions.games == {own, beside}
    sessions.gone(beside)  # (a separate game going leaves the own game where it is)
    assert sessions.own("alice") is own
    sessions.gone(own)
    assert sessions.own("alice") is None and not sessions.games


def test_the_oldest_seat_at_a_table_is_found_and_never_the_asking_session(tmp_path):
    sessions = Sessions(tmp_path)
    older, newer = Session("bob", 1.0, True), Session("bob", 2.0, True)
    for session in (newer, older, Session("bob", 0.5), Session("carol", 0.1, True)):
        sessions.begin(session, own=False)
    assert sessions.at_table("bob", besides=newer) is older
    assert sessions.at_table("bob", besides=older) is newer
    assert sessions.at_table("dave", besides=older) is None


def test_a_stop_ends_every_game_here(tmp_path):
    sessions = Sessions(tmp_path)
    games = [Session(name, 1.0) for name in ("alice", "bob")]
    for session in games:
        sessions.begin(session, own=True)
    assert sessions.end_all("server shutting down", "sorry") == []  # (no task: nothing to wait)
    assert [session.ended for session in games] == [["server shutting down"]] * 2
