"""Blocking someone from the lobby or the standings: the lasting act a player may
do to another, so it is asked first, saying what it does (as the server's
`block` does it: server/hall/safety.py), and sent only on yes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from ..net.lobby_link import LobbyLink
from ..net.remote import shown_name
from .confirm import ConfirmScreen

# What a block does, in the words docs/playing.md's "Blocking someone" uses.
WHAT_A_BLOCK_DOES = (
    "Neither of you can then invite the other, sit at the other's table, chat where the "
    "other plays or be paired together (u takes it back)."
)


def block_someone(
    screen: Screen[Any], link: LobbyLink, name: str, say: Callable[[str], None]
) -> None:
    """Ask over `screen` whether to block `name`, saying what a block does; on yes,
    send the block and `say` it is on its way (the server's answer follows). On no,
    nothing is sent."""
    shown = shown_name(name)

    def answered(yes: bool | None) -> None:
        if yes:
            say(f"Blocking {shown}…")
            link.block(name)

    question = f"Block {shown}? {WHAT_A_BLOCK_DOES}"
    screen.app.push_screen(ConfirmScreen(question, yes="Block"), answered)
