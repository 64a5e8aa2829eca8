"""How long one call can take under a guess budget: the worst inputs we know of for each size,
run with max_guesses=1,000 and 100,000, best of 3 (the machine may be shared, so read the
numbers as upper bounds). Not a test.

    python scripts/budget_calls.py
"""

import time

import sudoku_rs as sr

HARD_UNSOLVABLE_9 = (
    "2.......8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
)


def sparse(n, clues):
    """An n x n grid with the first `clues` cells of a valid pattern filled: nearly empty."""
    r = int(n**0.5)
    cells = []
    for i in range(n * n):
        row, col = divmod(i, n)
        value = (row % r * r + row // r + col) % n + 1
        cells.append(value if i < clues else 0)
    return [cells[i * n : (i + 1) * n] for i in range(n)]


CASES = [
    (
        "9x9 unsolvable, needs ~1000 guesses",
        lambda m: sr.count_solutions(HARD_UNSOLVABLE_9, max_guesses=m),
    ),
    ("9x9 empty, count all", lambda m: sr.count_solutions("." * 81, max_guesses=m)),
    ("16x16 empty, count all", lambda m: sr.count_solutions("." * 256, max_guesses=m)),
    ("25x25 empty, count all", lambda m: sr.count_solutions("." * 625, max_guesses=m)),
    ("25x25 near-empty, count all", lambda m: sr.count_solutions(sparse(25, 30), max_guesses=m)),
    ("36x36 empty, count all", lambda m: sr.count_solutions(sparse(36, 0), max_guesses=m)),
    ("64x64 empty, count all", lambda m: sr.count_solutions(sparse(64, 0), max_guesses=m)),
]


def main():
    for budget in (1_000, 100_000):
        for name, call in CASES:
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                try:
                    call(budget)
                    outcome = "answered"
                except sr.GuessLimitError:
                    outcome = "gave up"
                best = min(best, time.perf_counter() - start)
                if best > 20:
                    break
            print(f"max_guesses={budget:>7,}  {name:<36} {outcome:<9} {best:8.3f} s", flush=True)


if __name__ == "__main__":
    main()
