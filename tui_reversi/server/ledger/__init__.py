"""The server's ledger: what outlives a process and what the nodes share.

The one interface to it (`store`), its SQLite (`archive`) and PostgreSQL
(`postgres`, `migrations`) implementations, the names' keys and the codes to
add one (`account_keys`), and the fleet of nodes on one database (`fleet`).
It speaks the wire's words (net/) and its own records, never the hall's or
the edge's: what it needs of the tables and the lobby it declares as a Protocol.
"""
