"""A deliberately plain Reversi move generator, in the style of typical
student programs: an 8x8 list of lists, every move found by scanning 64
squares x 8 directions, and a deep copy of the board for every move made.

It is the yardstick bench/perft.py measures the bitboard engine against.
"""

import copy

EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def new_board():
    board = [[EMPTY] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = WHITE
    board[3][4] = board[4][3] = BLACK
    return board


def discs_to_flip(board, row, col, player):
    if board[row][col] != EMPTY:
        return []
    opponent = WHITE if player == BLACK else BLACK
    to_flip = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        line = []
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == opponent:
            line.append((r, c))
            r += dr
            c += dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == player:
            to_flip.extend(line)
    return to_flip


def valid_moves(board, player):
    moves = []
    for row in range(8):
        for col in range(8):
            if discs_to_flip(board, row, col, player):
                moves.append((row, col))
    return moves


def make_move(board, row, col, player):
    new = copy.deepcopy(board)
    for r, c in discs_to_flip(board, row, col, player):
        new[r][c] = player
    new[row][col] = player
    return new


def perft(board, player, depth):
    if depth == 0:
        return 1
    opponent = WHITE if player == BLACK else BLACK
    moves = valid_moves(board, player)
    if not moves:
        if valid_moves(board, opponent):
            return perft(board, opponent, depth - 1)
        return 1
    total = 0
    for row, col in moves:
        total += perft(make_move(board, row, col, player), opponent, depth - 1)
    return total
