"""Where a forked game's memory goes, read from /proc (bench/players_per_node.py --where).

By mapping, from /proc/PID/smaps: the C heap ([heap]: malloc's, Python's larger
objects and buffers), the anonymous mappings (pymalloc's arenas: Python's
small objects; thread stacks; malloc's other arenas), libpython's own data,
the extension modules and the rest; each as private dirty (the game's alone)
and shared dirty (still shared with the parent and the other games). Then how
much of the game's private memory lies in ranges the parent has (pages of the
parent it wrote to, so copied on write: /proc/PID/pagemap, the same virtual
page on another physical one) and how much in ranges of its own.
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from pathlib import Path

PAGE = 4096
# /proc/PID/pagemap: one 64-bit word a page; bit 63 present, bits 0-54 the frame.
PRESENT = 1 << 63
FRAME = (1 << 55) - 1
MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$")
FIGURE = re.compile(r"^(\w+):\s+(\d+) kB")


def kind(name: str) -> str:
    """What a mapping holds, by its name in smaps."""
    if name in ("[heap]", "[stack]"):
        return name
    if not name:
        return "anonymous"
    if "libpython" in name:
        return "libpython"
    if name.endswith(".so") or ".so." in name or ".cpython-" in name:
        return "extensions, libraries"
    return "files" if name.startswith("/") else "other"


def mappings(pid: int) -> list[tuple[int, int, str, dict[str, int]]]:
    """Each mapping's start, end, name and figures (kB)."""
    found: list[tuple[int, int, str, dict[str, int]]] = []
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        if match := MAPPING.match(line):
            start, end = int(match.group(1), 16), int(match.group(2), 16)
            found.append((start, end, match.group(3), {}))
        elif (figure := FIGURE.match(line)) and found:
            found[-1][3][figure.group(1)] = int(figure.group(2))
    return found


def frames(pid: int, start: int, end: int) -> tuple[int, ...]:
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        pagemap.seek(start // PAGE * 8)
        count = (end - start) // PAGE
        return struct.unpack(f"{count}Q", pagemap.read(8 * count))


def copied_kib(parent: int, game: int, parents: list[tuple[int, int, str, dict[str, int]]]) -> int:
    """kB of the parent's writable pages the game has its own copy of (0 if /proc
    does not give frames: they need CAP_SYS_ADMIN)."""
    copied = 0
    for start, end, name, _ in parents:
        if kind(name) not in ("[heap]", "anonymous"):
            continue
        try:
            theirs, ours = frames(parent, start, end), frames(game, start, end)
        except (OSError, struct.error):
            continue
        for their, our in zip(theirs, ours, strict=True):
            both = their & PRESENT and our & PRESENT
            if both and their & FRAME and their & FRAME != our & FRAME:
                copied += PAGE // 1024
    return copied


def game_memory(parent: int, game: int) -> list[str]:
    """Lines saying where game `game` (forked from `parent`) keeps its memory."""
    ours, parents = mappings(game), mappings(parent)
    by_kind: dict[str, Counter[str]] = {}
    for _, _, name, figures in ours:
        by_kind.setdefault(kind(name), Counter()).update(figures)
    lines = []
    for name, figures in sorted(by_kind.items(), key=lambda item: -item[1]["Private_Dirty"]):
        if figures["Rss"] >= 256:
            lines.append(
                f"{name:>22}: private dirty {figures['Private_Dirty'] / 1024:5.1f} MB,"
                f" shared dirty {figures['Shared_Dirty'] / 1024:5.1f} MB"
            )
    spans = [(start, end) for start, end, _, _ in parents]
    inherited = sum(
        figures.get("Private_Dirty", 0)
        for start, end, _, figures in ours
        if any(start < their_end and their_start < end for their_start, their_end in spans)
    )
    total = sum(figures.get("Private_Dirty", 0) for _, _, _, figures in ours)
    copied = copied_kib(parent, game, parents)
    lines.append(
        f"private dirty {total / 1024:.1f} MB: {inherited / 1024:.1f} MB in the parent's ranges"
        f" ({copied / 1024:.1f} MB of them its pages copied on write), "
        f"{(total - inherited) / 1024:.1f} MB in ranges of its own"
    )
    return lines
