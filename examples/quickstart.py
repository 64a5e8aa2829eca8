"""The README's first example: solve one puzzle in each input kind."""

import numpy as np

import sudoku_rs as sr

puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

# A string in, a string out.
print(sr.solve(puzzle))

# A LeetCode board (rows of one-character strings, '.' blank) in, the same kind out.
board = [list(puzzle[r * 9 : r * 9 + 9]) for r in range(9)]
print(sr.solve(board)[0])

# A numpy array of any integer dtype in, a new array of that dtype out.
grid = np.array([[0 if c == "." else int(c) for c in row] for row in board], dtype=np.int8)
print(sr.solve(grid).dtype, sr.is_unique(grid), sr.count_solutions(grid))
