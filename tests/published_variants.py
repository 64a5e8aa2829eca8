"""Published variant puzzles with their published solutions, typed in by hand.

Each case names where the puzzle and its solution were published. CASES maps a case's name to
(rules, puzzle, solution). tests/test_published_variants.py checks every case; the other
variant tests and benches/variants.py read their published layouts from here.
"""

import sudoku_rs as sr


def rows(*lines):
    return "".join(lines)


# Udacity AI Nanodegree, "Diagonal Sudoku" project (solution_test.py, TestDiagonalSudoku).
X_UDACITY = (
    sr.Rules.x(),
    "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3",
    rows(
        "267945381",
        "853716249",
        "491823576",
        "576438192",
        "384192657",
        "129657438",
        "642379815",
        "935281764",
        "718564923",
    ),
)

# Wikipedia, "Sudoku" (variants), the hypersudoku example (Oceans Hypersudoku18, puzzle and
# solution images).
WINDOKU_WIKIPEDIA = (
    sr.Rules.windoku(),
    rows(
        ".......1.",
        "..2....34",
        "....51...",
        ".....65..",
        ".7.3...8.",
        "..3......",
        "....8....",
        "58....9..",
        "69.......",
    ),
    rows(
        "946832715",
        "152697834",
        "738451296",
        "819726543",
        "475319682",
        "263548179",
        "327985461",
        "584163927",
        "691274358",
    ),
)

# Janko.at, Chaos Sudoku 108 (www.janko.at/Raetsel/Sudoku/Chaos/108.a.htm): its regions, then
# the puzzle and its solution.
JANKO_108_REGIONS = [
    "999998888",
    "555998888",
    "555998333",
    "555111333",
    "222111333",
    "222111444",
    "222766444",
    "777766444",
    "777766666",
]
JIGSAW_JANKO_108 = (
    sr.Rules.jigsaw(JANKO_108_REGIONS),
    rows(
        "8........",
        "...1.....",
        "2.....4.6",
        ".....8..5",
        "...62..18",
        ".3...4.2.",
        "...5..1.7",
        "..2......",
        "...8...9.",
    ),
    rows(
        "845279361",
        "359162784",
        "281395476",
        "467918235",
        "574623918",
        "136754829",
        "928536147",
        "792481653",
        "613847592",
    ),
)

# Fun With Puzzles, "No Knight Step Sudoku", February 2018
# (www.funwithpuzzles.com/2018/02/no-knight-step-sudoku-puzzles.html).
ANTI_KNIGHT_FWP = (
    sr.Rules(anti_knight=True),
    rows(
        "143......",
        "..59..3.4",
        ".2.4...85",
        "......21.",
        ".........",
        ".32......",
        "35...7.2.",
        "2.8..97..",
        "......85.",
    ),
    rows(
        "143578962",
        "865921374",
        "927463185",
        "594736218",
        "781295436",
        "632184597",
        "359847621",
        "218659743",
        "476312859",
    ),
)

# Wikipedia, "Killer sudoku", the example puzzle and its solution (Killersudoku color.svg):
# no given digits, only cages (row, column from 0).
KILLER_CAGES = [
    (3, [(0, 0), (0, 1)]),
    (15, [(0, 2), (0, 3), (0, 4)]),
    (22, [(0, 5), (1, 4), (1, 5), (2, 4)]),
    (4, [(0, 6), (1, 6)]),
    (16, [(0, 7), (1, 7)]),
    (15, [(0, 8), (1, 8), (2, 8), (3, 8)]),
    (25, [(1, 0), (1, 1), (2, 0), (2, 1)]),
    (17, [(1, 2), (1, 3)]),
    (9, [(2, 2), (2, 3), (3, 3)]),
    (8, [(2, 5), (3, 5), (4, 5)]),
    (20, [(2, 6), (2, 7), (3, 6)]),
    (6, [(3, 0), (4, 0)]),
    (14, [(3, 1), (3, 2)]),
    (17, [(3, 4), (4, 4), (5, 4)]),
    (17, [(3, 7), (4, 6), (4, 7)]),
    (13, [(4, 1), (4, 2), (5, 1)]),
    (20, [(4, 3), (5, 3), (6, 3)]),
    (12, [(4, 8), (5, 8)]),
    (27, [(5, 0), (6, 0), (7, 0), (8, 0)]),
    (6, [(5, 2), (6, 1), (6, 2)]),
    (20, [(5, 5), (6, 5), (6, 6)]),
    (6, [(5, 6), (5, 7)]),
    (10, [(6, 4), (7, 3), (7, 4), (8, 3)]),
    (14, [(6, 7), (6, 8), (7, 7), (7, 8)]),
    (8, [(7, 1), (8, 1)]),
    (16, [(7, 2), (8, 2)]),
    (15, [(7, 5), (7, 6)]),
    (13, [(8, 4), (8, 5), (8, 6)]),
    (17, [(8, 7), (8, 8)]),
]
KILLER_WIKIPEDIA = (
    sr.Rules.killer(KILLER_CAGES),
    "." * 81,
    rows(
        "215647398",
        "368952174",
        "794381652",
        "586274931",
        "142593867",
        "973816425",
        "821739546",
        "659428713",
        "437165289",
    ),
)

CASES = {
    "x-udacity": X_UDACITY,
    "windoku-wikipedia": WINDOKU_WIKIPEDIA,
    "jigsaw-janko-108": JIGSAW_JANKO_108,
    "anti-knight-funwithpuzzles": ANTI_KNIGHT_FWP,
    "killer-wikipedia": KILLER_WIKIPEDIA,
}
