# mypyc: compiled
"""Bitboard primitives: the engine's hot code.

A board is a 64-bit word, one bit per square: a1 is bit 0, b1 bit 1 ... h8
bit 63, row-major with a1 at the top left. The public functions take and
return plain non-negative Python ints; readable types (`Position`, square
names) live on top of this module.

The engine's hot loops (here, engine/search.py, endgame.py, evaluation.py)
work on `i64` words instead: compiled by mypyc they are machine words, and
interpreted they are plain ints, with identical results. `native()` and
`unsigned()` convert at the edges. What that asks of the code (mypyc needs
all of it typed; see also endgame.py's header):

- Compiled, an i64 with h8 (bit 63) set is negative and `<<` wraps at 64
  bits; interpreted, the same board is a non-negative int and `<<` grows.
  So every `<<` result is masked (or only ever combined by `&` with a
  board) before it is tested, counted or shifted right, and every `>>` is
  masked to the bits it may bring in (the compiled shift copies the sign).
- Masks with bit 63 set are built with `native()`, never written as i64
  literals; `~x` is masked with ALL.
- Count discs with `popcount()` and find a square with `lowest_square()`,
  never int methods on an i64 (they see the sign).
- Boards are never compared with `<` or `>`, only tested for zero or equality.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy_extensions import i64

FULL: Final = (1 << 64) - 1
# Columns b..g: masking the opponent with this stops horizontal and diagonal
# shifts from wrapping round from one row into the next.
INNER_COLUMNS: Final = 0x7E7E7E7E7E7E7E7E
CENTRE: Final = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)  # d4, e4, d5, e5
CORNERS: Final = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)

LOW63: Final = 0x7FFF_FFFF_FFFF_FFFF  # every square but h8: the largest i64 literal


def native(board: int) -> i64:
    """The i64 word of a board (an int in [0, 2**64)): compiled, h8 is its
    sign bit; interpreted, the same int."""
    return i64(board & LOW63) | (i64(board >> 63) << 63)


def unsigned(word: i64) -> int:
    """The board of an i64 word as a non-negative int (native's inverse)."""
    return int(word & LOW63) | (int(word >> 63 & 1) << 63)


# True when compiled: there a word with h8 set is a negative i64.
NATIVE_WORDS: Final = native(1 << 63) < 0

# `ONE << square` is a square's word. Not the literal 1: mypyc emits a Final
# 1 as a C int literal, and C shifts an int in 32 bits (1 << 40 goes wrong).
ONE: Final[i64] = native(1)
ALL: Final[i64] = native(FULL)
CORNER_SQUARES: Final[i64] = native(CORNERS)
INNER: Final[i64] = native(INNER_COLUMNS)
# What `>> k` may bring in, for k = 7, 8, 9 (the compiled shift copies h8 down).
BELOW_57: Final[i64] = 0x01FF_FFFF_FFFF_FFFF
BELOW_56: Final[i64] = 0x00FF_FFFF_FFFF_FFFF
BELOW_55: Final[i64] = 0x007F_FFFF_FFFF_FFFF
# Compiled, an int literal beyond 2**62 in i64 code is a boxed constant that is
# unboxed at every use: such words are built with native() once instead.
ALTERNATE_BITS: Final[i64] = native(0x5555555555555555)

# (row step, column step) of the eight directions.
_DIRECTIONS: Final = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def square_bit(square: i64) -> i64:
    """The word of `square` alone: ONE << square, without loading ONE."""
    # Compiled, a module constant is loaded and checked at every use, while
    # `i64(1) << square`, or a local 1 shifted once, is written as a shift
    # of a 32-bit C int (1 << 40 goes wrong): a local word shifted in place
    # stays a word. Small enough to be inlined into the callers.
    bit: i64 = 1
    bit <<= square
    return bit


def full_board() -> i64:
    """Every square, as ALL: compiled, a constant the C compiler folds in
    (ALL is loaded and checked at every use)."""
    h8 = square_bit(63)
    return h8 | (h8 - 1)  # -1 compiled, 2**64 - 1 interpreted


def popcount(word: i64) -> i64:
    """How many squares are set in `word`."""
    # The classic SWAR count, right for both builds (the last mask drops what
    # the interpreted product carries past bit 63). No branch on the build:
    # a function this small is inlined into the compiled solver.
    word = word - ((word >> 1) & ALTERNATE_BITS)
    word = (word & 0x3333333333333333) + ((word >> 2) & 0x3333333333333333)
    word = (word + (word >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (word * 0x0101010101010101) >> 56 & 127


def lowest_square(word: i64) -> i64:
    """The index of the lowest square set in `word` (which is not empty)."""
    return square_of(word & -word)


def square_of(bit: i64) -> i64:
    """The index of the one square set in `bit`."""
    # The bits below it, counted (h8 alone is the most negative word
    # compiled, and minus one wraps to the 63 bits below it).
    return popcount(bit - 1)


def legal_moves(own: int, opp: int) -> int:
    """Mask of the squares where the side owning `own` may play.

    Normal Othello rule only: a move must flip at least one line.
    """
    return unsigned(move_mask(native(own), native(opp)))


def move_mask(own: i64, opp: i64) -> i64:
    """legal_moves on words. Per direction the opponent runs adjacent to our
    discs are grown by doubling (runs of 1, 2, then 4 and 6), then one more
    step onto an empty square is a move."""
    # Locals, not ALL and INNER (loaded and checked at every use compiled,
    # as flip_mask says): every square, and the opponent off columns a and h.
    empty = ~(own | opp) & full_board()
    m: i64 = 0x3F3F3F3F3F3F3F3F
    m = opp & m << 1
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
    t = opp & (own >> 8) & BELOW_56
    t |= opp & (t >> 8)
    p = p >> 8 & BELOW_56
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
    t = m & (own >> 9) & BELOW_55
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
    t = m & (own >> 7) & BELOW_57
    t |= m & (t >> 7)
    p >>= 7
    t |= p & (t >> 14)
    t |= p & (t >> 14)
    moves |= t >> 7
    return moves & empty


def flips(own: int, opp: int, square: int) -> int:
    """Mask of the opponent discs that a disc placed on `square` would flip.
    Zero means the move is illegal."""
    return unsigned(flip_mask(native(own), native(opp), square))


def flip_mask(own: i64, opp: i64, square: i64) -> i64:
    """flips on words. Up the bit order (east, south, south-east,
    south-west) the first square of the direction's ray that is not the
    opponent's is its lowest such bit; down the bit order the run of
    opponent discs from the square is grown by doubling (runs of 1, 2,
    then 4 and 6, as in move_mask). A run flips when the square after it
    is ours."""
    # Compiled: shifts and masks only, no table to unbox (interpreted, the
    # module's end puts _flip_by_table in its place). Columns a and h are
    # masked out of `m` where a step could wrap round a row: a run in `m`
    # ends at column a or h at the latest, so a ray (a constant shifted to
    # the square) may run on past the row's end unmasked. A first step
    # down (`>>`) is masked to the bits it may bring in, as in move_mask.
    # Finding the first square rather than growing the run: 0.92x
    # flip_mask's instructions on FFO #42 (callgrind); then without the
    # branches (on an adjacent opponent disc, and on the end being ours),
    # more instructions but fewer mispredicted branches: FFO #40-44 at
    # 0.64-0.65x the CPU of 4a2c57c rather than 0.71x (bench/ffo.py, runs
    # in turn). The branches down the bit order taken out too: 0.66-0.67x.
    # The rays' literals stay below 2**62 (mypyc boxes larger ones:
    # south-east's is shifted nine more instead).
    # No module constants (ONE, INNER): compiled, each is loaded and checked
    # at every call (square_bit says why not i64(1)); INNER's literal is
    # beyond 2**62, which mypyc would box, so a local holds its half.
    b = square_bit(square)
    m: i64 = 0x3F3F3F3F3F3F3F3F
    m = opp & m << 1
    # Up the bit order without a branch: `end` is the square that ends
    # the run when it is ours, else 0; then `end - 1` is every bit below
    # it, or -1, whose sign (`>> 63`) clears it.
    r = -(b << 1)  # east: every square above, as the run ends in the row
    o = r & ~m
    end = o & -o & own
    d = end - 1
    f = r & d & ~(d >> 63)
    x = (b >> 1) & m  # west
    if x:
        x |= (x >> 1) & m
        p = m & (m >> 1)
        x |= (x >> 2) & p
        x |= (x >> 2) & p
        if (x >> 1) & own:
            f |= x
    r = 0x0101010101010100  # south
    r <<= square
    o = r & ~opp
    end = o & -o & own
    d = end - 1
    f |= r & d & ~(d >> 63)
    x = (b >> 8) & BELOW_56 & opp  # north
    if x:
        x |= (x >> 8) & opp
        p = opp & (opp >> 8)
        x |= (x >> 16) & p
        x |= (x >> 16) & p
        if (x >> 8) & own:
            f |= x
    r = 0x0040201008040201  # south-east
    r <<= 9  # (a shift by square + 9 could reach 64, which C leaves undefined)
    r <<= square
    o = r & ~m
    end = o & -o & own
    d = end - 1
    f |= r & d & ~(d >> 63)
    x = (b >> 9) & BELOW_55 & m  # north-west
    if x:
        x |= (x >> 9) & m
        p = m & (m >> 9)
        x |= (x >> 18) & p
        x |= (x >> 18) & p
        if (x >> 9) & own:
            f |= x
    r = 0x0102040810204080  # south-west
    r <<= square
    o = r & ~m
    end = o & -o & own
    d = end - 1
    f |= r & d & ~(d >> 63)
    x = (b >> 7) & BELOW_57 & m  # north-east
    if x:
        x |= (x >> 7) & m
        p = m & (m >> 7)
        x |= (x >> 14) & p
        x |= (x >> 14) & p
        if (x >> 7) & own:
            f |= x

    return f


def _flip_by_table(own: i64, opp: i64, square: i64) -> i64:
    # Interpreted, the generated straight-line functions are twice as fast
    # (and equal to flip_mask's shifts: tests/core/test_fast_bitboard.py).
    return (_flip_table or flip_table())[square](own, opp)


def count_leaves(own: int, opp: int, depth: int, make_leaves: bool) -> int:
    """Perft's inner loop (see perft.py): the leaves `depth` plies below the
    position where the side owning `own` is to move, a pass counting as a ply."""
    return _count_leaves(native(own), native(opp), depth, make_leaves)


def _count_leaves(own: i64, opp: i64, depth: int, make_leaves: bool) -> int:
    moves = move_mask(own, opp)
    if not moves:
        if depth > 1 and move_mask(opp, own):
            return _count_leaves(opp, own, depth - 1, make_leaves)
        return 1
    if depth == 1:
        if not make_leaves:
            return popcount(moves)
        n = 0
        while moves:
            b = moves & -moves
            f = flip_mask(own, opp, lowest_square(b))
            child_own = opp ^ f  # made, not searched
            child_opp = own | f | b
            if child_own | child_opp:
                n += 1
            moves ^= b
        return n
    n = 0
    while moves:
        b = moves & -moves
        f = flip_mask(own, opp, lowest_square(b))
        n += _count_leaves(opp ^ f, own | f | b, depth - 1, make_leaves)
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


def canonical_image(own: int, opp: int) -> tuple[int, int, int]:
    """The smallest symmetric image of the position, and which symmetry
    (an index into `symmetries`) gives it: the one position that all eight
    images stand for, wherever a value must not depend on the image."""
    images = list(zip(symmetries(own), symmetries(opp), strict=True))
    best = min(range(8), key=lambda k: images[k])
    return images[best][0], images[best][1], best


def image_square(square: int, k: int) -> int:
    """`square` in the symmetric image number `k`."""
    return symmetries(1 << square)[k].bit_length() - 1


def _squares_from_images() -> list[list[int]]:
    back = [[0] * 64 for _ in range(8)]
    for k in range(8):
        for square in range(64):
            back[k][image_square(square, k)] = square
    return back


# Per symmetry, the real square of each square of the image (six of the eight
# are their own inverse, the two quarter turns are not: built, not assumed).
SQUARE_FROM_IMAGE: Final = _squares_from_images()


if not NATIVE_WORDS:
    # Interpreted, flip_mask is the generated functions (_flip_by_table), for
    # this module and for every module importing it after. Compiled, no
    # test of the build at each call (FFO #42: 34 M calls).
    globals()["flip_mask"] = _flip_by_table
