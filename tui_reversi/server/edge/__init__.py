"""The server's edge: everything a stranger reaches before and around a game.

The listener and the connection log (`arcade`), admission at the door
(`door`), login (`login`), names and keys (`accounts`, the `keys` command in
`key_commands`), the budgets a connection is held to (`budgets`), the seats (`seats`) and
the host key (`hostkey`). It imports the hall and the ledger; they never
import it.
"""
