"""A deliberately plain rules implementation (lists, scanning) to check the
bitboards against. Slow and obvious on purpose."""

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def to_grid(position):
    """8x8 list of 'X', 'O', '-' from a Position."""
    text = str(position)
    return [list(text[r * 8 : r * 8 + 8]) for r in range(8)]


def flipped_squares(grid, square, me):
    """Square indices a disc of `me` on `square` flips, scanning all 8 lines."""
    row, col = divmod(square, 8)
    if grid[row][col] != "-":
        return []
    other = "O" if me == "X" else "X"
    found = []
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and grid[r][c] == other:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and grid[r][c] == me:
            found.extend(line)
    return sorted(found)


def legal_squares(grid, me):
    return [sq for sq in range(64) if flipped_squares(grid, sq, me)]
