//! The constraint kinds beyond all-different groups: what each one is (its cells, clue and
//! value) and the checks on its own that need no grid size. The size-dependent checks (cells
//! inside the grid, values a grid of `n` digits can meet) are in `Rules::check_size`.

use crate::core::error::{Cell, Error, Result};

/// A killer cage: its cells hold distinct digits that add up to `total`; a cage without a
/// total only keeps its digits distinct.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    pub total: Option<u32>,
    pub cells: Vec<Cell>,
}

/// A place just outside the grid, where a clue stands: row or column -1 (above or left of
/// the grid) or `n` (below or right of it), the other counted from 0 as for cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outside {
    pub row: i32,
    pub col: i32,
}

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// The way a little killer's diagonal runs from its clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    UpRight,
    UpLeft,
    DownRight,
    DownLeft,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::UpRight,
        Direction::UpLeft,
        Direction::DownRight,
        Direction::DownLeft,
    ];

    /// f-puzzles' code: `UR`, `UL`, `DR`, `DL`.
    pub fn code(self) -> &'static str {
        match self {
            Direction::UpRight => "UR",
            Direction::UpLeft => "UL",
            Direction::DownRight => "DR",
            Direction::DownLeft => "DL",
        }
    }

    pub fn from_code(code: &str) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| d.code().eq_ignore_ascii_case(code))
    }

    /// One step as (row step, column step).
    pub fn step(self) -> (i32, i32) {
        match self {
            Direction::UpRight => (-1, 1),
            Direction::UpLeft => (-1, -1),
            Direction::DownRight => (1, 1),
            Direction::DownLeft => (1, -1),
        }
    }
}

/// A little killer: the digits on the diagonal from `clue` (outside the grid) running in
/// `direction` add up to `total`; they may repeat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LittleKiller {
    pub total: u32,
    pub clue: Outside,
    pub direction: Direction,
}

impl LittleKiller {
    /// The diagonal's cells on an `n x n` grid, nearest the clue first.
    pub fn cells(&self, n: usize) -> Vec<Cell> {
        walk(self.clue, self.direction.step(), n)
    }
}

/// A clue outside the grid about the row or column it faces: sandwich sums, X-sums and
/// skyscrapers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LineClue {
    pub value: u32,
    pub clue: Outside,
}

impl LineClue {
    /// The row or column the clue faces on an `n x n` grid, nearest the clue first (empty when
    /// the clue does not face one).
    pub fn cells(&self, n: usize) -> Vec<Cell> {
        let n_i = n as i32;
        let Outside { row, col } = self.clue;
        let step = if row == -1 {
            (1, 0)
        } else if row == n_i {
            (-1, 0)
        } else if col == -1 {
            (0, 1)
        } else if col == n_i {
            (0, -1)
        } else {
            return Vec::new();
        };
        walk(self.clue, step, n)
    }
}

/// The cells from one step past `from` on, `step` at a time, while inside the grid.
fn walk(from: Outside, (dr, dc): (i32, i32), n: usize) -> Vec<Cell> {
    let mut cells = Vec::new();
    let (mut r, mut c) = (from.row + dr, from.col + dc);
    while r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n {
        cells.push(Cell {
            row: r as usize,
            col: c as usize,
        });
        r += dr;
        c += dc;
    }
    cells
}

/// An arrow: the digits on the shaft add up to the number the circle's digits read in
/// row-major order (one digit for a one-cell circle). Shaft digits may repeat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    pub circle: Vec<Cell>,
    /// From the circle to the tip.
    pub shaft: Vec<Cell>,
}

/// A mark between two orthogonal neighbours with a value: a Kropki dot (white: the digits
/// differ by `value`; black: one is `value` times the other) or an X/V (the digits add up to
/// `value`, 10 or 5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    pub cells: [Cell; 2],
    pub value: u32,
}

/// A German whispers line: neighbours along it differ by at least `difference` (None: the
/// f-puzzles default, half the grid's side rounded up).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Whisper {
    pub cells: Vec<Cell>,
    pub difference: Option<u32>,
}

impl Whisper {
    /// The least difference on a grid of side `n`.
    pub fn difference_for(&self, n: usize) -> u32 {
        self.difference.unwrap_or(n.div_ceil(2) as u32)
    }
}

/// A quadruple: every listed digit appears in the 2x2 whose top-left cell is `corner`, a
/// digit listed twice at least twice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Quadruple {
    pub corner: Cell,
    pub digits: Vec<u8>,
}

impl Quadruple {
    /// The four cells, row-major.
    pub fn cells(&self) -> [Cell; 4] {
        let Cell { row, col } = self.corner;
        [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(dr, dc)| Cell {
            row: row + dr,
            col: col + dc,
        })
    }
}

/// Clones: `cells[i]` and `clone_cells[i]` hold the same digit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClonePair {
    pub cells: Vec<Cell>,
    pub clone_cells: Vec<Cell>,
}

/// Given pencil marks: `cell` holds one of `digits`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PencilMark {
    pub cell: Cell,
    pub digits: Vec<u8>,
}

/// The first cell listed twice, if any.
pub(crate) fn first_repeat(cells: &[Cell]) -> Option<Cell> {
    let mut seen = std::collections::HashSet::new();
    cells.iter().copied().find(|c| !seen.insert(*c))
}

/// A line of cells on its own: at least `least` cells, none twice.
pub(crate) fn check_line(what: &str, cells: &[Cell], least: usize) -> Result<()> {
    if cells.len() < least {
        let need = match least {
            1 => "at least one cell".to_string(),
            k => format!("at least {k} cells"),
        };
        return Err(Error::Rules(format!(
            "{what} has {} cells; it needs {need}",
            cells.len()
        )));
    }
    if let Some(cell) = first_repeat(cells) {
        return Err(Error::Rules(format!("{what} lists cell {cell} twice")));
    }
    Ok(())
}

/// A pair mark on its own: two orthogonal neighbours.
pub(crate) fn check_pair(what: &str, pair: &Pair) -> Result<()> {
    let [a, b] = pair.cells;
    if a.row.abs_diff(b.row) + a.col.abs_diff(b.col) != 1 {
        return Err(Error::Rules(format!(
            "{what} joins cells {a} and {b}, which are not orthogonal neighbours"
        )));
    }
    Ok(())
}

/// A clue outside the grid as far as it can be checked without the size: at most one step
/// above or left of it.
pub(crate) fn check_outside(what: &str, clue: Outside) -> Result<()> {
    if clue.row < -1 || clue.col < -1 {
        return Err(Error::Rules(format!(
            "{what} stands at {clue}, which is not next to the grid (a clue outside the grid is \
             in row or column -1 or n)"
        )));
    }
    Ok(())
}

/// Digits on their own: at least one, each from 1.
pub(crate) fn check_digits(what: &str, digits: &[u8], most: usize) -> Result<()> {
    if digits.is_empty() {
        return Err(Error::Rules(format!("{what} lists no digits")));
    }
    if digits.len() > most {
        return Err(Error::Rules(format!(
            "{what} lists {} digits; at most {most} fit",
            digits.len()
        )));
    }
    if digits.contains(&0) {
        return Err(Error::Rules(format!("{what} lists 0; digits count from 1")));
    }
    Ok(())
}

/// The line constraints whose rule is about the digits along one line alone (and, for region
/// sum lines, the regions the line passes through): each kept as a list of lines under its
/// kind, in the order given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineKind {
    /// Digits the same distance from the middle add up to the same total (the middle cell's
    /// digit, when the line has one).
    Zipper,
    /// The digits of each stretch of the line within one region add up to the same total; a
    /// line re-entering a region starts a new stretch.
    RegionSum,
    /// Every three cells in a row along the line hold a low, a middle and a high digit.
    Entropic,
    /// Every three cells in a row along the line hold digits of three different residues
    /// modulo 3.
    Modular,
    /// Digits never decrease along the line from its bulb (they may repeat).
    SlowThermo,
    /// The two end digits add up to the sum of the digits between them.
    DoubleArrow,
    /// The end digits (diamonds) differ by at least half the side, rounded down, and no digit
    /// between them on the line lies between or on theirs.
    Lockout,
    /// No two digits on the line are equal or consecutive, over every pair of its cells (not
    /// only neighbours).
    Nabner,
}

impl LineKind {
    pub const ALL: [LineKind; 8] = [
        LineKind::Zipper,
        LineKind::RegionSum,
        LineKind::Entropic,
        LineKind::Modular,
        LineKind::SlowThermo,
        LineKind::DoubleArrow,
        LineKind::Lockout,
        LineKind::Nabner,
    ];

    /// The `Rules` keyword and attribute.
    pub fn keyword(self) -> &'static str {
        match self {
            LineKind::Zipper => "zipper_lines",
            LineKind::RegionSum => "region_sum_lines",
            LineKind::Entropic => "entropic_lines",
            LineKind::Modular => "modular_lines",
            LineKind::SlowThermo => "slow_thermometers",
            LineKind::DoubleArrow => "double_arrows",
            LineKind::Lockout => "lockout_lines",
            LineKind::Nabner => "nabner_lines",
        }
    }

    /// One line's name in messages (and the rule named by a conflict).
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Zipper => "zipper line",
            LineKind::RegionSum => "region sum line",
            LineKind::Entropic => "entropic line",
            LineKind::Modular => "modular line",
            LineKind::SlowThermo => "slow thermometer",
            LineKind::DoubleArrow => "double arrow",
            LineKind::Lockout => "lockout line",
            LineKind::Nabner => "nabner line",
        }
    }

    /// f-puzzles' key (from the widely used constraint extensions that define these lines).
    pub fn fpuzzles_key(self) -> &'static str {
        match self {
            LineKind::Zipper => "zipperline",
            LineKind::RegionSum => "regionsumline",
            LineKind::Entropic => "entropicline",
            LineKind::Modular => "modularline",
            LineKind::SlowThermo => "slowthermometer",
            LineKind::DoubleArrow => "doublearrow",
            LineKind::Lockout => "lockout",
            LineKind::Nabner => "nabner",
        }
    }

    /// The fewest cells a line of this kind has: a double arrow has two ends and something
    /// between them, a lockout line two ends.
    pub fn least(self) -> usize {
        match self {
            LineKind::DoubleArrow => 3,
            LineKind::Lockout => 2,
            _ => 1,
        }
    }

    /// The digit classes three cells in a row must cover on a grid of side `n` (entropic:
    /// low, middle, high; modular: the residues 1, 2, 0 modulo 3), as masks of digits `1..=n`.
    /// `None` for the other kinds.
    pub fn classes(self, n: usize) -> Option<[u64; 3]> {
        let mask = |f: &dyn Fn(usize) -> bool| {
            (1..=n)
                .filter(|&d| f(d))
                .fold(0u64, |m, d| m | 1 << (d - 1))
        };
        match self {
            LineKind::Entropic => {
                // The low and high ranks are equally large; the middle one takes what is left.
                let (floor, ceil) = (n / 3, n.div_ceil(3));
                let edge = if 2 * floor + ceil == n { floor } else { ceil };
                Some([
                    mask(&|d| d <= edge),
                    mask(&|d| d > edge && d <= n - edge),
                    mask(&|d| d > n - edge),
                ])
            }
            LineKind::Modular => Some([
                mask(&|d| d % 3 == 1),
                mask(&|d| d % 3 == 2),
                mask(&|d| d % 3 == 0),
            ]),
            _ => None,
        }
    }

    /// A lockout line's least difference between its ends on a grid of side `n`.
    pub fn lockout_difference(n: usize) -> u32 {
        (n / 2) as u32
    }

    /// Whether the digits along a complete line (in line order) keep the rule on a grid of side
    /// `n`; `regions` gives each cell's region (region sum lines only; `None`: no region).
    pub fn holds(self, digits: &[u8], n: usize, regions: &[Option<u8>]) -> bool {
        let sum = |ds: &[u8]| ds.iter().map(|&d| u32::from(d)).sum::<u32>();
        match self {
            LineKind::Zipper => {
                let k = digits.len();
                let mut totals =
                    (0..k / 2).map(|i| u32::from(digits[i]) + u32::from(digits[k - 1 - i]));
                if k % 2 == 1 {
                    let middle = u32::from(digits[k / 2]);
                    totals.all(|t| t == middle)
                } else {
                    let first = totals.next();
                    totals.all(|t| Some(t) == first)
                }
            }
            LineKind::RegionSum => {
                let totals: Vec<u32> = region_stretches(regions)
                    .iter()
                    .map(|s| s.iter().map(|&i| u32::from(digits[i])).sum())
                    .collect();
                totals.windows(2).all(|w| w[0] == w[1])
            }
            LineKind::Entropic | LineKind::Modular => {
                let classes = self.classes(n).expect("classed kinds");
                let class = |d: u8| classes.iter().position(|m| m >> (d - 1) & 1 == 1);
                (0..digits.len()).all(|i| {
                    (i + 1..digits.len().min(i + 3)).all(|j| class(digits[i]) != class(digits[j]))
                        && (i + 3 >= digits.len() || class(digits[i]) == class(digits[i + 3]))
                })
            }
            LineKind::SlowThermo => digits.windows(2).all(|w| w[0] <= w[1]),
            LineKind::DoubleArrow => {
                let k = digits.len();
                u32::from(digits[0]) + u32::from(digits[k - 1]) == sum(&digits[1..k - 1])
            }
            LineKind::Lockout => {
                let (a, z) = (digits[0], digits[digits.len() - 1]);
                let (lo, hi) = (a.min(z), a.max(z));
                u32::from(hi - lo) >= LineKind::lockout_difference(n)
                    && digits[1..digits.len() - 1]
                        .iter()
                        .all(|&d| d < lo || d > hi)
            }
            LineKind::Nabner => (0..digits.len())
                .all(|i| digits[i + 1..].iter().all(|&d| d.abs_diff(digits[i]) >= 2)),
        }
    }
}

/// A region sum line's stretches: runs of positions along the line in one region, cells in no
/// region skipped (they neither count nor end a stretch), each position once.
pub fn region_stretches(regions: &[Option<u8>]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut current: Option<u8> = None;
    for (i, region) in regions.iter().enumerate() {
        let Some(region) = *region else { continue };
        if current == Some(region) {
            out.last_mut().expect("a stretch is open").push(i);
        } else {
            out.push(vec![i]);
            current = Some(region);
        }
    }
    out
}

/// Indexing cells: the digit in the cell names another cell of its row, column or region, and
/// that cell holds the marked cell's own place in the same line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexerKind {
    /// Cell (r, c) holding v: cell (v, c) (counted from 1) holds r (counted from 1).
    Row,
    /// Cell (r, c) holding v: cell (r, v) holds c (the "159" rule's kind).
    Column,
    /// The cell at place i of its region (row-major, counted from 1) holding v: the cell at
    /// place v of that region holds i.
    Box,
}

impl IndexerKind {
    pub const ALL: [IndexerKind; 3] = [IndexerKind::Row, IndexerKind::Column, IndexerKind::Box];

    /// The `Rules` keyword and attribute.
    pub fn keyword(self) -> &'static str {
        match self {
            IndexerKind::Row => "row_indexers",
            IndexerKind::Column => "column_indexers",
            IndexerKind::Box => "box_indexers",
        }
    }

    /// Its cells' name in messages (and the rule a conflict names).
    pub fn name(self) -> &'static str {
        match self {
            IndexerKind::Row => "row indexer",
            IndexerKind::Column => "column indexer",
            IndexerKind::Box => "box indexer",
        }
    }

    /// f-puzzles' key (from the constraint extension that defines the indexers).
    pub fn fpuzzles_key(self) -> &'static str {
        match self {
            IndexerKind::Row => "rowindexer",
            IndexerKind::Column => "columnindexer",
            IndexerKind::Box => "boxindexer",
        }
    }

    /// The line `cell` indexes into, in index order (cell indices, row-major, of an `n x n`
    /// grid whose cells are in `regions`), and the cell's own place in it (from 0). `None`
    /// for a box indexer on a cell in no region, or in a region of other than `n` cells.
    pub fn target_line(
        self,
        cell: Cell,
        n: usize,
        regions: &[Option<u8>],
    ) -> Option<(Vec<usize>, usize)> {
        let Cell { row, col } = cell;
        match self {
            IndexerKind::Row => Some(((0..n).map(|r| r * n + col).collect(), row)),
            IndexerKind::Column => Some(((0..n).map(|c| row * n + c).collect(), col)),
            IndexerKind::Box => {
                let own = regions[row * n + col]?;
                let line: Vec<usize> = (0..n * n).filter(|&i| regions[i] == Some(own)).collect();
                let place = line.iter().position(|&i| i == row * n + col)?;
                (line.len() == n).then_some((line, place))
            }
        }
    }
}
