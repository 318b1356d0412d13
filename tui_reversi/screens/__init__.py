"""Screens and modals, one a module: game, new game, help, confirm, game over, too small."""
