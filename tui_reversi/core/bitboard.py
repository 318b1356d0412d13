"""Bitboard primitives: the engine's hot code.

A board is a pair of Python ints, one bit per square: a1 is bit 0, b1 bit 1 ...
h8 bit 63, row-major with a1 at the top left. Everything here takes and returns
plain ints so that search loops stay flat and allocation-free; readable types
(`Position`, square names) live on top of this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

FULL: Final = (1 << 64) - 1
# Columns b..g: masking the opponent with this stops horizontal and diagonal
# shifts from wrapping round from one row into the next.
INNER_COLUMNS: Final = 0x7E7E7E7E7E7E7E7E
CENTRE: Final = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)  # d4, e4, d5, e5
CORNERS: Final = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)

# (row step, column step) of the eight directions.
_DIRECTIONS: Final = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays(square: int, upward: bool) -> tuple[tuple[int, int], ...]:
    """(first square, whole ray) masks from `square` in the directions whose
    bit index grows (`upward`) or shrinks, skipping rays too short to flip."""
    row, col = divmod(square, 8)
    found: list[tuple[int, int]] = []
    for dr, dc in _DIRECTIONS:
        if (dr * 8 + dc > 0) != upward:
            continue
        ray, r, c = 0, row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8:
            ray |= 1 << (r * 8 + c)
            r, c = r + dr, c + dc
        if ray.bit_count() >= 2:
            found.append((1 << ((row + dr) * 8 + col + dc), ray))
    return tuple(found)


RAYS_UP: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(_rays(sq, True) for sq in range(64))
RAYS_DOWN: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    _rays(sq, False) for sq in range(64)
)


def legal_moves(own: int, opp: int) -> int:
    """Mask of the squares where the side owning `own` may play.

    Normal Othello rule only: a move must flip at least one line. Per direction
    the opponent runs adjacent to our discs are grown by doubling (runs of 1, 2,
    then 4 and 6), then one more step onto an empty square is a move.
    """
    empty = ~(own | opp) & FULL
    m = opp & INNER_COLUMNS
    # east (+1) and west (-1)
    t = m & (own << 1)
    t |= m & (t << 1)
    p = m & (m << 1)
    t |= p & (t << 2)
    t |= p & (t << 2)
    moves = t << 1
    t = m & (own >> 1)
    t |= m & (t >> 1)
    p >>= 1
    t |= p & (t >> 2)
    t |= p & (t >> 2)
    moves |= t >> 1
    # south (+8) and north (-8): vertical shifts cannot wrap
    t = opp & (own << 8)
    t |= opp & (t << 8)
    p = opp & (opp << 8)
    t |= p & (t << 16)
    t |= p & (t << 16)
    moves |= t << 8
    t = opp & (own >> 8)
    t |= opp & (t >> 8)
    p >>= 8
    t |= p & (t >> 16)
    t |= p & (t >> 16)
    moves |= t >> 8
    # south-east (+9) and north-west (-9)
    t = m & (own << 9)
    t |= m & (t << 9)
    p = m & (m << 9)
    t |= p & (t << 18)
    t |= p & (t << 18)
    moves |= t << 9
    t = m & (own >> 9)
    t |= m & (t >> 9)
    p >>= 9
    t |= p & (t >> 18)
    t |= p & (t >> 18)
    moves |= t >> 9
    # south-west (+7) and north-east (-7)
    t = m & (own << 7)
    t |= m & (t << 7)
    p = m & (m << 7)
    t |= p & (t << 14)
    t |= p & (t << 14)
    moves |= t << 7
    t = m & (own >> 7)
    t |= m & (t >> 7)
    p >>= 7
    t |= p & (t >> 14)
    t |= p & (t >> 14)
    moves |= t >> 7
    return moves & empty


# Both sides' moves at once: the two boards side by side in one wide int,
# the second LANE bits up. The gap between them (LANE - 64 >= 18 bits, the
# longest shift below) is zero in every mask, so nothing leaks across.
LANE: Final = 82
_INNER_PAIR: Final = INNER_COLUMNS | INNER_COLUMNS << LANE


def legal_moves_pair(own: int, opp: int) -> tuple[int, int]:
    """(legal_moves(own, opp), legal_moves(opp, own)) in one pass: about a
    quarter cheaper than two calls, which the evaluation needs at every leaf."""
    e = ~(own | opp) & FULL
    mine = own | opp << LANE
    theirs = opp | own << LANE
    m = theirs & _INNER_PAIR
    t = m & (mine << 1)
    t |= m & (t << 1)
    p = m & (m << 1)
    t |= p & (t << 2)
    t |= p & (t << 2)
    moves = t << 1
    t = m & (mine >> 1)
    t |= m & (t >> 1)
    p >>= 1
    t |= p & (t >> 2)
    t |= p & (t >> 2)
    moves |= t >> 1
    t = theirs & (mine << 8)
    t |= theirs & (t << 8)
    p = theirs & (theirs << 8)
    t |= p & (t << 16)
    t |= p & (t << 16)
    moves |= t << 8
    t = theirs & (mine >> 8)
    t |= theirs & (t >> 8)
    p >>= 8
    t |= p & (t >> 16)
    t |= p & (t >> 16)
    moves |= t >> 8
    t = m & (mine << 9)
    t |= m & (t << 9)
    p = m & (m << 9)
    t |= p & (t << 18)
    t |= p & (t << 18)
    moves |= t << 9
    t = m & (mine >> 9)
    t |= m & (t >> 9)
    p >>= 9
    t |= p & (t >> 18)
    t |= p & (t >> 18)
    moves |= t >> 9
    t = m & (mine << 7)
    t |= m & (t << 7)
    p = m & (m << 7)
    t |= p & (t << 14)
    t |= p & (t << 14)
    moves |= t << 7
    t = m & (mine >> 7)
    t |= m & (t >> 7)
    p >>= 7
    t |= p & (t >> 14)
    t |= p & (t >> 14)
    moves |= t >> 7
    return moves & e, moves >> LANE & e


def flips(own: int, opp: int, square: int) -> int:
    """Mask of the opponent discs that a disc placed on `square` would flip.

    Along each ray the first square that is not the opponent's decides: if it
    is ours, every square before it flips. Zero means the move is illegal.
    """
    f = 0
    for first, ray in RAYS_UP[square]:
        if opp & first:
            o = ray & ~opp
            b = o & -o  # nearest non-opponent square: the lowest bit
            if b & own:
                f |= (b - 1) & ray
    for first, ray in RAYS_DOWN[square]:
        if opp & first:
            o = ray & ~opp
            if o:
                b = 1 << (o.bit_length() - 1)  # nearest: the highest bit
                if b & own:
                    f |= ray & -(b << 1)
    return f


def count_leaves(own: int, opp: int, depth: int, make_leaves: bool) -> int:
    """Perft's inner loop (see perft.py): the leaves `depth` plies below the
    position where the side owning `own` is to move, a pass counting as a ply."""
    moves = legal_moves(own, opp)
    if not moves:
        if depth > 1 and legal_moves(opp, own):
            return count_leaves(opp, own, depth - 1, make_leaves)
        return 1
    if depth == 1:
        if not make_leaves:
            return moves.bit_count()
        n = 0
        while moves:
            b = moves & -moves
            f = flips(own, opp, b.bit_length() - 1)
            child_own = opp ^ f  # made, not searched
            child_opp = own | f | b
            if child_own | child_opp:
                n += 1
            moves ^= b
        return n
    n = 0
    while moves:
        b = moves & -moves
        f = flips(own, opp, b.bit_length() - 1)
        n += count_leaves(opp ^ f, own | f | b, depth - 1, make_leaves)
        moves ^= b
    return n


FlipFunction = Callable[[int, int], int]
_flip_table: list[FlipFunction] = []


def flip_table() -> list[FlipFunction]:
    """64 functions, one per square: `table[sq](own, opp)` == `flips(own, opp, sq)`.

    Each is straight-line code generated for its square, with the ray masks as
    literals and every line walked by nested ifs: about twice as fast as
    `flips`, which is what the search's inner loops need. Built on first use
    (a few tens of milliseconds) so that importing the rules stays instant.
    """
    if not _flip_table:
        source = "\n".join(_flip_function_source(square) for square in range(64))
        namespace: dict[str, FlipFunction] = {}
        exec(compile(source, "<generated flip table>", "exec"), namespace)
        _flip_table.extend(namespace[f"flips_{square}"] for square in range(64))
    return _flip_table


def _flip_function_source(square: int) -> str:
    lines = [f"def flips_{square}(own, opp):", "    f = 0"]
    row, col = divmod(square, 8)
    for dr, dc in _DIRECTIONS:
        ray: list[int] = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8:
            ray.append(1 << (r * 8 + c))
            r, c = r + dr, c + dc
        if len(ray) < 2:
            continue
        # ray[0] is the opponent's; own disc on ray[k] flips ray[:k].
        lines.append(f"    if opp & {ray[0]}:")
        flipped = ray[0]
        for k in range(1, len(ray)):
            indent = " " * (4 * k + 4)
            lines.append(f"{indent}if own & {ray[k]}: f |= {flipped}")
            if k + 1 < len(ray):
                lines.append(f"{indent}elif opp & {ray[k]}:")
                flipped |= ray[k]
    lines.append("    return f")
    return "\n".join(lines)


def squares_of(mask: int) -> list[int]:
    """The square indices set in `mask`, ascending."""
    found: list[int] = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# The eight symmetries of the square, as bit permutations (chessprogramming.org
# "Flipping Mirroring and Rotating"; with a1 = bit 0 these act on rows/columns).


def flip_vertical(b: int) -> int:
    """Reverse the order of the rows (row 1 <-> row 8)."""
    return int.from_bytes(b.to_bytes(8, "little"), "big")


def mirror_horizontal(b: int) -> int:
    """Reverse the order of the columns (a <-> h)."""
    b = ((b >> 1) & 0x5555555555555555) | ((b & 0x5555555555555555) << 1)
    b = ((b >> 2) & 0x3333333333333333) | ((b & 0x3333333333333333) << 2)
    return ((b >> 4) & 0x0F0F0F0F0F0F0F0F) | ((b & 0x0F0F0F0F0F0F0F0F) << 4)


def transpose(b: int) -> int:
    """Swap rows and columns (a2 <-> b1), the a1-h8 diagonal staying put."""
    t = 0x0F0F0F0F00000000 & (b ^ (b << 28))
    b ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (b ^ (b << 14))
    b ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (b ^ (b << 7))
    b ^= t ^ (t >> 7)
    return b & FULL


def symmetries(b: int) -> list[int]:
    """`b` under all eight symmetries of the board, identity first."""
    v = flip_vertical(b)
    h = mirror_horizontal(b)
    vh = mirror_horizontal(v)
    return [b, v, h, vh, transpose(b), transpose(v), transpose(h), transpose(vh)]
