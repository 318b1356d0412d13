"""The server's edge: everything a stranger reaches before and around a game.

The listener and the connection log (`arcade`), admission at the door
(`door`), login (`login`), names and keys (`accounts`, the `keys` command in
`key_commands`), the budgets a connection is held to (`budgets`), the places (`places`),
the host key (`hostkey`), a browser page's visit (`browser`, the page as a public
server serves it in `public_page`, bound browsers in `browser_passes`), and the
operator's port (`operator_port`, `health`, `metrics`, `service_manager`). It
imports the hall and the ledger; they never import it.
"""
