"""The engine: the hot bitboard search, the endgame solver, the evaluations
(hand-made and trained, with their weights), the transposition table, the
opening book and which build of it runs (compiled by mypyc or interpreted).

Imports only core/. The modules whose first line is `# mypyc: compiled` are
compiled (build.py finds them); the rest are read as plain Python.
"""
