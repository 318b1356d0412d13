"""The SSH server behind `tui-reversi serve`.

One child process per SSH session runs the game on its own pseudo-terminal, so
Textual owns that process's terminal and signals exactly as it would locally.

Three rooms, the arrows one way (edge -> hall -> ledger -> config): a lower
room never imports a higher one, even for the type checker; what it needs of
one above it declares as a Protocol (pyproject.toml's contract keeps it so).

- `config`: what the operator chose (limits, auth, directories) and the rules
  derived from it (player directory names, the child's environment), with
  `ServeError`; below all three rooms.
- `edge`: what a stranger reaches.
  - `arcade`: the listener, authentication, places, the connection log.
  - `event_log`: the log's format, where whatever a client said is escaped
    and cut (`log_value`), and each address's allowance of log bytes.
  - `door`: admission at the door.
  - `guessing`: what guessing a password or a key code costs (per address,
    name, key and in total), the penalties kept in the ledger.
  - `login`: one connection's way in; `accounts`: the name rules and the
    authorized-keys file; `key_commands`: `ssh host keys`.
  - `budgets`: what a client may send (input, packets, window changes,
    requests, sessions), per connection and per address; `places`: the places
    and the guests' share of them.
  - `hostkey`: the server's ed25519 key, created once with mode 0600.
  - `browser`: a browser page's way in (`serve --web-port`): its terminal is one
    more of the hall's, a guest's or, with a pass, a keyed player's;
    `browser_passes`: the `keys web` codes and the passes they become.
- `hall`: what a player who is in takes part in.
  - `ssh_session`: one SSH session channel bound to one game process;
    `session_edge`: what the edge gives a session (its log, channel, input
    allowance and request budget); `session_terminal`: the player's end of a
    session's channel; `session_limits`: its idle timeout and time limit;
    `table_seat`: its seat at a table; `session_game`: its game as a process
    (started, hung up, its end told); `game_run`: that process from
    outside (its folder, crash report, how its end is read); `session_owner`,
    `session_answers`, `session_admission`, `window_changes`, `lobby_routes`,
    `quick_pairing`, `tournament_games`, `live_game`: the session's other parts
    (what it runs on, its answers in lines, what is let start, the window size,
    the lobby's routes and back, `play`, a tournament's games, a game open
    elsewhere);
    `session_command`: what the player asked for after the host, checked;
    `take_over_question`: what to do about a game open in another session;
    `take_over_elsewhere`: "take it over here" for a game on another node;
    `commands`: the one table of commands the dispatcher and `help` read, and
    the answers of those that print lines (`top`, `player`, `replay`...).
  - `standings_pages`: the leaderboard and a profile as rows, for the
    commands and the in-app lobby alike.
  - `pairing`: quick pairing (`play`): the one pairing rule and its rating
    window, this node's part in the fleet's queue; `queue_wait`: one
    session's wait in it.
  - `pty_process`: a program running as session leader on a fresh pty.
  - `preloaded`: the server's side of the game launcher (`tui_reversi.launcher`,
    outside this package, given as `ServeConfig.launcher_command`): start it,
    ask it for games, restart it.
  - `game_hosts`: several players' games in one process (`--games-per-process`):
    the hosts the preloaded parent forks (`tui_reversi.game_host`), where each
    game goes, a game signalled and resized by message.
  - `games_socket`: the Unix socket the games reach their table and lobby by.
  - `tables`, `table_*`: the tables, their referee, clocks, course and store,
    their writes off the event loop (`table_writes`), and a game whose table
    on another node was lost, waiting to sit back down (`table_stranded`).
  - `conduct`: each rated game's outcome for each player, kept, and the
    playbans it brings, refused at `play` and new tables; `boost_watch`:
    games lost at once that move the winner up, warned and reported.
  - `lobby_host`: the server's end of the in-app lobby: guests and invitations;
    `lobby_guest`: a game's line to it and what a person is doing as it lists
    them; `lobby_view`: the lobby as each game looking at it sees it, sent
    when it changes.
  - `fleet_port`: several nodes on one PostgreSQL as one server (a server
    alone is a fleet of one): relayed seats, the lobby's shares, and the
    table of handlers each message kind goes to; `fleet_take_overs`: a
    take-over across nodes, asked and answered; `fleet_relay`: what it asks
    of this node's tables, and the transport of a relayed game;
    `fleet_outbox`: its messages, in order, off the event loop.
  - `roster`: who is here and what each is doing, as plain lines (`ssh host lobby`).
  - `guests`: a guest's name (64 random bits, shown short) and its folder.
- `ledger`: what outlives a process.
  - `store`: the one interface to what the server keeps and shares, and the
    records through it; `standings` the leaderboard's, the profiles' and the
    archived games' records and queries; `archive` (SQLite, one machine) and `postgres` with
    `migrations` (a fleet) implement it; `archive_import` moves the one into
    the other; `node_link`: a node's connections to PostgreSQL, its threads
    for calls off the event loop, its way back after the database went, and
    why it could not connect, in one sentence.
  - `account_keys`: which keys are which name's, the codes to add one
    (`postgres_key_codes`: a fleet's, in PostgreSQL).
  - `names`: one name per look-alike key (UTS #39 skeleton); `ratings`: the
    Glicko-2 rules (`glicko`: the paper's rule; provisional while unsure,
    rematches counting less; `glicko_migration`: the one move from Elo);
    `playbans`: each player's conduct and the bans it brings; `penalties`:
    the penalties of guessing as kept; `archive_schema`: SQLite's versions;
    `seekers`: the pairing queue as a store keeps it (`postgres_seekers`:
    a fleet's, in PostgreSQL).
  - `fleet_messages`: every message between a fleet's nodes, a frozen
    dataclass each, and their one codec; `fleet_seal`: each sealed (HMAC) for
    its channel, and opened; `table_view`: a table as the lobby shows it.

Importing `edge.arcade` imports asyncssh: only `tui-reversi serve` does that.
"""

import warnings

# asyncssh (2.24) names DSA key types when it is imported, and cryptography 51
# deprecates them with a warning on stderr: an operator would read it above
# every one-line error of `serve`. The server offers no DSA (hostkey.py makes
# an ed25519 key), so the warning says nothing that concerns it.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
