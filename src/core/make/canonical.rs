//! The canonical form of a grid: the lexicographically smallest grid equivalent to it under the
//! transforms of [`crate::core::make::transform`], comparing cells row-major with blank (0) smallest.
//! Equivalent grids, and only those, have equal canonical forms, so it deduplicates datasets.
//!
//! For a fixed order of cells the smallest relabelling numbers digits by first appearance, so the
//! search runs over row and column orders only, relabelling as it reads. It is a depth-first
//! branch and bound in output order: pick the first row, then the columns one by one (each fixes
//! one cell of row 0), then the other rows one by one. A branch is cut as soon as its prefix is
//! larger than the best grid found so far, and, while columns are chosen, as soon as the
//! smallest row 0 it can still reach is larger than best's, or ties it while row 1 is already
//! larger. Only lines that can become the smallest possible row 0 start a search. Two identical
//! rows of one band (or columns of one stack), common among blank lines of sparse puzzles, are
//! interchangeable, so only the first one still unused is tried.

use std::cmp::Ordering;
use std::fmt;

use crate::core::error::Error;
use crate::core::grid::shape::BoxShape;
use crate::core::grid::Grid;
use crate::core::make::transform::Transform;

/// The largest group searched: the 9x9 one, 2 * 6^8 row and column orders. That admits 4x4,
/// 6x6 (either box), 8x8 (either box) and 9x9; 10x10 with 2x5 boxes already has 1.1e8.
const MAX_GROUP: u128 = 2 * 6u128.pow(8);

/// The largest side of a supported shape (9x9), and the most columns in a stack or stacks in
/// a grid (4, for 2x4 and 4x2 boxes), for fixed-size scratch arrays.
const MAX_SEARCHED: usize = 9;
const MAX_BLOCK: usize = 4;

/// The grid is too large for an exhaustive search of its symmetries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

/// Why [`canonical`] gives no form for a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The shape's group is too large to search.
    Unsupported(Unsupported),
    /// Two equal clues share a unit ([`Error::Conflict`]), so it is not a puzzle, and the
    /// search's bounds take each digit to appear at most once in a line: such a grid would get
    /// a form that is not the smallest of its equivalents. Refused, as the solver refuses it.
    Invalid(Error),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Unsupported(err) => err.fmt(f),
            Refused::Invalid(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for Refused {}

/// Row and column orders in the group (digit relabellings aside), saturating.
fn group_order(shape: BoxShape) -> u128 {
    let factorial = |k: usize| (1..=k as u128).fold(1u128, u128::saturating_mul);
    let n = shape.size();
    let lines = |block: usize| {
        let blocks = n / block;
        (0..blocks).fold(factorial(blocks), |acc, _| {
            acc.saturating_mul(factorial(block))
        })
    };
    let transposes = if shape.rows() == shape.cols() { 2 } else { 1 };
    lines(shape.rows())
        .saturating_mul(lines(shape.cols()))
        .saturating_mul(transposes)
}

/// Whether [`canonical`] handles this shape; the error names the size.
pub fn check_supported(shape: BoxShape) -> Result<(), Unsupported> {
    if group_order(shape) <= MAX_GROUP {
        return Ok(());
    }
    let n = shape.size();
    Err(Unsupported(format!(
        "the canonical form of a {n}x{n} grid with box=({}, {}) is not supported: it searches \
         every row and column order, too many beyond 9x9; supported sizes are 4x4, 6x6, 8x8 \
         and 9x9",
        shape.rows(),
        shape.cols()
    )))
}

/// The canonical form of `grid`, and a transform that maps `grid` onto it.
pub fn canonical(grid: &Grid) -> Result<(Grid, Transform), Refused> {
    canonical_counted(grid).map(|(form, transform, _)| (form, transform))
}

/// [`canonical`], also counting the search's nodes (rows and columns tried), a measure of its
/// work that does not depend on the machine or its load.
pub fn canonical_counted(grid: &Grid) -> Result<(Grid, Transform, u64), Refused> {
    let shape = grid.shape();
    check_supported(shape).map_err(Refused::Unsupported)?;
    grid.check().map_err(Refused::Invalid)?;
    let n = shape.size();
    let mut orientations = vec![(grid.cells().to_vec(), false)];
    if shape.rows() == shape.cols() {
        let mut transposed = vec![0u8; n * n];
        for (i, &v) in grid.cells().iter().enumerate() {
            transposed[(i % n) * n + i / n] = v;
        }
        orientations.push((transposed, true));
    }
    // Row 0 of the canonical form is the smallest any line can become, so only lines that
    // can become it are tried as row 0.
    let row0 = orientations
        .iter()
        .flat_map(|(g, _)| g.chunks(n).map(|row| smallest_row(row, shape.cols())))
        .min()
        .expect("a grid has rows");
    let mut search = Search::new(shape);
    for (g, transposed) in orientations {
        search.run(g, transposed, &row0);
    }
    let transform = search.best_transform.expect("every grid has an order");
    let best = Grid::new(shape, search.best).expect("relabelled values stay in range");
    debug_assert_eq!(transform.apply(grid), best);
    Ok((best, transform, search.nodes))
}

/// Writes the canonical cells of well-formed `cells` of a supported shape into `out`; when two
/// equal clues share a unit it writes zeros and returns false.
pub fn canonical_cells(shape: BoxShape, cells: &[u8], out: &mut [u8]) -> bool {
    let grid = Grid::new(shape, cells.to_vec()).expect("a well-formed grid");
    match canonical(&grid) {
        Ok((best, _)) => {
            out.copy_from_slice(best.cells());
            true
        }
        Err(Refused::Invalid(_)) => {
            out.fill(0);
            false
        }
        Err(Refused::Unsupported(err)) => panic!("the caller checks the shape: {err}"),
    }
}

/// A key of `cells`' equivalence class, for any shape (no search, a few passes over the
/// cells): equivalent grids have equal keys, so unequal keys prove two grids inequivalent,
/// while equal keys may still belong to different classes ([`canonical`] tells those apart).
/// Each clue is described by how many clues its row, column, box, band and stack hold and how
/// often its digit occurs, which row, column, band and stack orders and relabellings keep;
/// the key is two order-free hashes (sums of mixed descriptions) of the clues, the smaller of
/// the grid's and its transpose's when boxes are square.
pub fn class_key(shape: BoxShape, cells: &[u8]) -> [u64; 2] {
    let key = clue_hashes(shape, cells, false);
    if shape.rows() == shape.cols() {
        key.min(clue_hashes(shape, cells, true))
    } else {
        key
    }
}

fn clue_hashes(shape: BoxShape, cells: &[u8], transposed: bool) -> [u64; 2] {
    use crate::core::make::random::mix64;
    let n = shape.size();
    let (br, bc) = (shape.rows(), shape.cols());
    let at = |r: usize, c: usize| {
        if transposed {
            cells[c * n + r]
        } else {
            cells[r * n + c]
        }
    };
    let mut row = [0u64; 64];
    let mut col = [0u64; 64];
    let mut boxes = [0u64; 64];
    let mut digit = [0u64; 65];
    let mut band = [0u64; 64];
    let mut stack = [0u64; 64];
    for r in 0..n {
        for c in 0..n {
            let v = at(r, c);
            if v != 0 {
                row[r] += 1;
                col[c] += 1;
                boxes[r / br * (n / bc) + c / bc] += 1;
                digit[usize::from(v)] += 1;
                band[r / br] += 1;
                stack[c / bc] += 1;
            }
        }
    }
    let mut sums = [0u64; 2];
    for r in 0..n {
        for c in 0..n {
            let v = at(r, c);
            if v == 0 {
                continue;
            }
            // Counts up to 64 take 7 bits, band and stack counts up to 4096 13: 54 bits.
            let described = (row[r] << 47)
                | (col[c] << 40)
                | (boxes[r / br * (n / bc) + c / bc] << 33)
                | (digit[usize::from(v)] << 26)
                | (band[r / br] << 13)
                | stack[c / bc];
            sums[0] = sums[0].wrapping_add(mix64(described));
            sums[1] = sums[1].wrapping_add(mix64(described ^ 0x9E37_79B9_7F4A_7C15));
        }
    }
    sums
}

/// Lines `0..n` as bits.
fn all_lines(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The lines of the block holding `line`, as bits.
fn block_of(line: usize, block: usize) -> u64 {
    all_lines(block) << (line / block * block)
}

/// Lines iterated from the lowest bit up.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

struct Search {
    shape: BoxShape,
    n: usize,
    /// The grid in the orientation being searched (the input, or its transpose).
    g: Vec<u8>,
    transposed: bool,
    /// Per line, the earlier lines of its band (stack) with identical content.
    row_twins: Vec<u64>,
    col_twins: Vec<u64>,
    row_of: Vec<usize>,
    col_of: Vec<usize>,
    rows_used: u64,
    cols_used: u64,
    /// Whether row 0 (in the input's terms, `row_of[0]`) has no blank.
    row0_full: bool,
    /// First-appearance relabelling: `label[v]` is v's new digit, 0 while unseen.
    label: Vec<u8>,
    /// Digits in the order they were labelled, to undo on backtracking.
    labelled: Vec<u8>,
    cur: Vec<u8>,
    /// The smallest grid so far; all 255 (above any value) before the first one.
    best: Vec<u8>,
    /// Bumped whenever `best` changes, so a caller knows its prefix now equals best's.
    version: u64,
    best_transform: Option<Transform>,
    nodes: u64,
}

impl Search {
    fn new(shape: BoxShape) -> Self {
        let n = shape.size();
        Search {
            shape,
            n,
            g: Vec::new(),
            transposed: false,
            row_twins: Vec::new(),
            col_twins: Vec::new(),
            row_of: vec![0; n],
            col_of: vec![0; n],
            rows_used: 0,
            cols_used: 0,
            row0_full: false,
            label: vec![0; n + 1],
            labelled: Vec::with_capacity(n),
            cur: vec![0; n * n],
            best: vec![u8::MAX; n * n],
            version: 0,
            best_transform: None,
            nodes: 0,
        }
    }

    /// Searches every order of `g` (already transposed or not) whose row 0 can become `row0`,
    /// keeping the smallest found.
    fn run(&mut self, g: Vec<u8>, transposed: bool, row0: &[u8]) {
        let n = self.n;
        self.g = g;
        self.transposed = transposed;
        let row = |g: &[u8], r: usize| g[r * n..(r + 1) * n].to_vec();
        let col = |g: &[u8], c: usize| (0..n).map(|r| g[r * n + c]).collect::<Vec<u8>>();
        self.row_twins = twins(n, self.shape.rows(), |r| row(&self.g, r));
        self.col_twins = twins(n, self.shape.cols(), |c| col(&self.g, c));
        for r0 in 0..n {
            let line = &self.g[r0 * n..(r0 + 1) * n];
            if self.row_twins[r0] != 0 || smallest_row(line, self.shape.cols()) != row0 {
                continue;
            }
            self.row0_full = line.iter().all(|&v| v != 0);
            self.row_of[0] = r0;
            self.rows_used = 1 << r0;
            self.choose_col(0, false);
        }
        self.rows_used = 0;
    }

    /// The new digit of `v`, labelling it now if it is the first time it appears.
    fn relabel(&mut self, v: u8) -> u8 {
        if v == 0 {
            return 0;
        }
        let l = &mut self.label[usize::from(v)];
        if *l == 0 {
            self.labelled.push(v);
            *l = self.labelled.len() as u8;
        }
        *l
    }

    fn unlabel(&mut self, mark: usize) {
        while self.labelled.len() > mark {
            let v = self.labelled.pop().expect("above the mark");
            self.label[usize::from(v)] = 0;
        }
    }

    /// Chooses output column `k`, which fixes cell `k` of output row 0. `less` says whether the
    /// prefix so far is already below `best` (else it equals it).
    fn choose_col(&mut self, k: usize, mut less: bool) {
        let (n, bc) = (self.n, self.shape.cols());
        if k == n {
            return self.choose_row(1, less);
        }
        let entry = self.version;
        let candidates = if k % bc == 0 {
            all_lines(n) & !self.cols_used
        } else {
            block_of(self.col_of[k - 1], bc) & !self.cols_used
        };
        let r0 = self.row_of[0];
        for c in bits(candidates) {
            if self.col_twins[c] & !self.cols_used != 0 {
                continue;
            }
            if self.version != entry {
                less = false;
            }
            self.nodes += 1;
            let mark = self.labelled.len();
            let v = self.relabel(self.g[r0 * n + c]);
            if !less && v > self.best[k] {
                self.unlabel(mark);
                continue;
            }
            self.cur[k] = v;
            self.col_of[k] = c;
            self.cols_used |= 1 << c;
            let hopeless = !less
                && v == self.best[k]
                && match self.row0_rest_vs_best(k) {
                    Ordering::Greater => true,
                    Ordering::Equal => self.row1_cannot_tie(k),
                    Ordering::Less => false,
                };
            if !hopeless {
                self.choose_col(k + 1, less || v < self.best[k]);
            }
            self.cols_used &= !(1 << c);
            self.unlabel(mark);
        }
    }

    /// The smallest the rest of row 0 (after column `k`) can still be, against best's. It is
    /// exact: the rest of the current stack comes next, sorted; then the unused stacks, each
    /// sorted, in sorted order; digits not labelled yet sort last and take fresh labels in order
    /// of position (an exchange argument shows no column order does better). `Greater`: cut.
    /// `Equal`: row 0 can at best tie, so row 1 decides (see [`Self::row1_cannot_tie`]); a
    /// solved grid's row 0 relabels to 1, 2, .., n in every column order, so without this every
    /// one of them would tie through row 0.
    fn row0_rest_vs_best(&self, k: usize) -> Ordering {
        const FRESH: u8 = u8::MAX;
        let (n, bc) = (self.n, self.shape.cols());
        if self.row0_full {
            // The common case of solved grids, in short: every digit left is fresh.
            let unseen = k as u8 + 2;
            return (unseen..=n as u8).cmp(self.best[k + 1..n].iter().copied());
        }
        let r0 = self.row_of[0];
        let token = |c: usize| match self.g[r0 * n + c] {
            0 => 0,
            d => match self.label[usize::from(d)] {
                0 => FRESH,
                label => label,
            },
        };
        let sorted_block = |mask: u64| {
            let mut block = [0u8; MAX_BLOCK];
            let mut len = 0;
            for c in bits(mask) {
                block[len] = token(c);
                len += 1;
            }
            block[..len].sort_unstable();
            (block, len)
        };
        let mut rest = [0u8; MAX_SEARCHED];
        let mut len = 0;
        let mut append = |block: &[u8]| {
            rest[len..len + block.len()].copy_from_slice(block);
            len += block.len();
        };
        if (k + 1) % bc != 0 {
            let (block, l) = sorted_block(block_of(self.col_of[k], bc) & !self.cols_used);
            append(&block[..l]);
        }
        let mut stacks = [[0u8; MAX_BLOCK]; MAX_BLOCK];
        let mut count = 0;
        for s in 0..n / bc {
            let mask = block_of(s * bc, bc);
            if mask & self.cols_used == 0 {
                stacks[count] = sorted_block(mask).0;
                count += 1;
            }
        }
        stacks[..count].sort_unstable();
        for block in &stacks[..count] {
            append(&block[..bc]);
        }
        let unseen = self.labelled.len() as u8 + 1;
        let fresh = rest[..len].iter_mut().filter(|t| **t == FRESH);
        for (label, t) in (unseen..).zip(fresh) {
            *t = label;
        }
        rest[..len].cmp(&self.best[k + 1..n])
    }

    /// Whether every possible row 1 is already above best's row 1 in columns `0..=k`. A digit
    /// not labelled yet will get a label above every label given so far: a lower bound.
    fn row1_cannot_tie(&self, k: usize) -> bool {
        let (n, br) = (self.n, self.shape.rows());
        let unseen = self.labelled.len() as u8 + 1;
        let r0 = self.row_of[0];
        bits(block_of(r0, br) & !self.rows_used & !(1 << r0)).all(|r1| {
            for j in 0..=k {
                let d = self.g[r1 * n + self.col_of[j]];
                let target = self.best[n + j];
                let label = self.label[usize::from(d)];
                if d == 0 || label != 0 {
                    let v = if d == 0 { 0 } else { label };
                    if v != target {
                        return v > target;
                    }
                } else {
                    return unseen > target;
                }
            }
            false
        })
    }

    /// Chooses output row `r` (columns all fixed), reading its `n` cells.
    fn choose_row(&mut self, r: usize, mut less: bool) {
        let (n, br) = (self.n, self.shape.rows());
        if r == n {
            if less {
                self.best.copy_from_slice(&self.cur);
                self.version += 1;
                self.best_transform = Some(self.transform());
            }
            return;
        }
        let entry = self.version;
        let candidates = if r % br == 0 {
            all_lines(n) & !self.rows_used
        } else {
            block_of(self.row_of[r - 1], br) & !self.rows_used
        };
        for row in bits(candidates) {
            if self.row_twins[row] & !self.rows_used != 0 {
                continue;
            }
            if self.version != entry {
                less = false;
            }
            self.nodes += 1;
            let mark = self.labelled.len();
            let mut row_less = less;
            let mut cut = false;
            for k in 0..n {
                let v = self.relabel(self.g[row * n + self.col_of[k]]);
                let p = r * n + k;
                if !row_less {
                    if v > self.best[p] {
                        cut = true;
                        break;
                    }
                    row_less = v < self.best[p];
                }
                self.cur[p] = v;
            }
            if !cut {
                self.row_of[r] = row;
                self.rows_used |= 1 << row;
                self.choose_row(r + 1, row_less);
                self.rows_used &= !(1 << row);
            }
            self.unlabel(mark);
        }
    }

    /// The transform that produced `cur`. Digits absent from the grid take the unused labels in
    /// increasing order, so the map is a permutation.
    fn transform(&self) -> Transform {
        let n = self.n;
        let mut digits: Vec<u8> = self.label[1..].to_vec();
        let mut free = (1..=n as u8)
            .filter(|l| !digits.contains(l))
            .collect::<Vec<_>>();
        free.reverse();
        for d in digits.iter_mut().filter(|d| **d == 0) {
            *d = free.pop().expect("one free label per unseen digit");
        }
        Transform::new(
            self.shape,
            self.transposed,
            self.row_of.clone(),
            self.col_of.clone(),
            &digits,
        )
        .expect("orders chosen band by band")
    }
}

/// The smallest a row can become on its own: blanks first within each stack, then the stacks
/// in sorted order, digits numbered by first appearance.
fn smallest_row(row: &[u8], stack: usize) -> Vec<u8> {
    let mut stacks: Vec<Vec<u8>> = row
        .chunks(stack)
        .map(|s| {
            let mut tokens: Vec<u8> = s.iter().map(|&d| u8::from(d != 0)).collect();
            tokens.sort_unstable();
            tokens
        })
        .collect();
    stacks.sort_unstable();
    let mut next = 0;
    stacks
        .concat()
        .into_iter()
        .map(|t| {
            next += t;
            t * next
        })
        .collect()
}

/// Per line, the bits of the earlier lines in its block with the same content.
fn twins(n: usize, block: usize, content: impl Fn(usize) -> Vec<u8>) -> Vec<u64> {
    let lines: Vec<Vec<u8>> = (0..n).map(content).collect();
    (0..n)
        .map(|i| {
            let start = i / block * block;
            (start..i)
                .filter(|&j| lines[j] == lines[i])
                .fold(0u64, |acc, j| acc | 1 << j)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;
    use crate::core::make::pattern;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    const MAX_SIZE_TRIED: usize = 32;

    fn supported_shapes() -> Vec<BoxShape> {
        [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]
            .iter()
            .map(|&(r, c)| BoxShape::new(r, c).unwrap())
            .collect()
    }

    /// Blanks every cell whose index hits `keep` false: a sparse grid with blank-line ties.
    fn thin(grid: &Grid, keep: impl Fn(usize) -> bool) -> Grid {
        let cells = grid
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &v)| if keep(i) { v } else { 0 })
            .collect();
        Grid::new(grid.shape(), cells).unwrap()
    }

    #[test]
    fn equivalent_grids_share_one_form_and_the_transform_reaches_it() {
        for shape in supported_shapes() {
            let full = pattern(shape);
            let sparse = thin(&full, |i| i % 7 == 0 || i % 5 == 1);
            for grid in [full, sparse] {
                let (form, t) = canonical(&grid).unwrap();
                assert_eq!(t.apply(&grid), form);
                for i in 0..8 {
                    let moved = Transform::for_item(shape, 9, i).apply(&grid);
                    assert_eq!(canonical(&moved).unwrap().0, form, "{shape:?}");
                }
                assert_eq!(canonical(&form).unwrap().0, form, "idempotent");
                assert!(form.cells() <= grid.cells());
            }
        }
    }

    #[test]
    fn class_keys_agree_on_equivalent_grids_of_every_shape() {
        let shapes = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)];
        for (r, c) in shapes {
            let shape = BoxShape::new(r, c).unwrap();
            let full = pattern(shape);
            let sparse = thin(&full, |i| i % 7 == 0 || i % 5 == 1);
            let key = class_key(shape, sparse.cells());
            for i in 0..8 {
                let moved = Transform::for_item(shape, 9, i).apply(&sparse);
                assert_eq!(class_key(shape, moved.cells()), key, "{shape:?}");
            }
            let other = thin(&full, |i| i % 7 == 0 || i % 5 == 2);
            assert_ne!(class_key(shape, other.cells()), key, "{shape:?}");
        }
    }

    #[test]
    fn the_classic_puzzle_and_its_solution() {
        let puzzle = parse(PUZZLE, None).unwrap();
        let solution = parse(SOLUTION, None).unwrap();
        let (p, t) = canonical(&puzzle).unwrap();
        // The mapping transform carries the solution along: it solves the canonical puzzle.
        assert!(p.is_solved_by(&t.apply(&solution)));
        // Blanks sort first, so the canonical puzzle opens with the longest blank run possible.
        assert_eq!(&p.cells()[..4], &[0, 0, 0, 0]);
        let (s, _) = canonical(&solution).unwrap();
        assert_eq!(&s.cells()[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        for i in 0..5 {
            let moved = Transform::for_item(BoxShape::CLASSIC, 2, i);
            assert_eq!(canonical(&moved.apply(&solution)).unwrap().0, s);
            assert_eq!(canonical(&moved.apply(&puzzle)).unwrap().0, p);
        }
    }

    #[test]
    fn different_grids_have_different_forms() {
        let puzzle = parse(PUZZLE, None).unwrap();
        let mut cells = puzzle.cells().to_vec();
        cells[2] = 4; // one more clue: not equivalent (clue counts differ)
        let more = Grid::new(BoxShape::CLASSIC, cells).unwrap();
        assert_ne!(canonical(&puzzle).unwrap().0, canonical(&more).unwrap().0);
        let empty = Grid::new(BoxShape::CLASSIC, vec![0; 81]).unwrap();
        assert_eq!(canonical(&empty).unwrap().0, empty);
    }

    #[test]
    fn refuses_conflicting_clues() {
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[3] = 1; // twice in row 0
        let grid = Grid::new(BoxShape::new(2, 2).unwrap(), cells.clone()).unwrap();
        let err = canonical(&grid).unwrap_err();
        assert!(
            matches!(err, Refused::Invalid(Error::Conflict { .. })),
            "{err}"
        );
        let mut out = vec![9u8; 16];
        assert!(!canonical_cells(grid.shape(), &cells, &mut out));
        assert_eq!(out, vec![0; 16]);
    }

    #[test]
    fn names_the_size_it_cannot_search() {
        let err = check_supported(BoxShape::new(4, 4).unwrap()).unwrap_err();
        assert!(err.0.contains("16x16"), "{err}");
        assert!(check_supported(BoxShape::new(2, 5).unwrap()).is_err());
        for shape in supported_shapes() {
            assert!(check_supported(shape).is_ok(), "{shape:?}");
        }
        // Every supported shape fits the search's scratch arrays.
        for rows in 2..=MAX_SIZE_TRIED {
            for cols in 2..=MAX_SIZE_TRIED {
                let Ok(shape) = BoxShape::new(rows, cols) else {
                    continue; // beyond MAX_SIZE
                };
                if check_supported(shape).is_ok() {
                    assert!(shape.size() <= MAX_SEARCHED, "{shape:?}");
                    assert!(
                        cols <= MAX_BLOCK && shape.size() / cols <= MAX_BLOCK,
                        "{shape:?}"
                    );
                }
            }
        }
        assert_eq!(group_order(BoxShape::CLASSIC), MAX_GROUP);
    }
}
