"""Widgets, one a module: the board, the score panel, the move log, a choice row."""
