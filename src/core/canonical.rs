//! The canonical form of a grid: the lexicographically smallest grid equivalent to it under the
//! transforms of [`super::transform`], comparing cells row-major with blank (0) smallest.
//! Equivalent grids, and only those, have equal canonical forms, so it deduplicates datasets.
//!
//! For a fixed order of cells the smallest relabelling numbers digits by first appearance, so the
//! search runs over row and column orders only, relabelling as it reads. It is a depth-first
//! branch and bound in output order: pick the first row, then the columns one by one (each fixes
//! one cell of row 0), then the other rows one by one. A branch is cut as soon as its prefix is
//! larger than the best grid found so far. Two identical rows of one band (or columns of one
//! stack), common among blank lines of sparse puzzles, are interchangeable, so only the first
//! one still unused is tried.

use std::fmt;

use super::grid::Grid;
use super::shape::BoxShape;
use super::transform::Transform;

/// The largest group searched: the 9x9 one, 2 * 6^8 row and column orders. That admits 4x4,
/// 6x6 (either box), 8x8 (either box) and 9x9; 10x10 with 2x5 boxes already has 1.1e8.
const MAX_GROUP: u128 = 2 * 6u128.pow(8);

/// The grid is too large for an exhaustive search of its symmetries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

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
pub fn canonical(grid: &Grid) -> Result<(Grid, Transform), Unsupported> {
    let shape = grid.shape();
    check_supported(shape)?;
    let n = shape.size();
    let mut search = Search::new(shape);
    search.run(grid.cells().to_vec(), false);
    if shape.rows() == shape.cols() {
        let mut transposed = vec![0u8; n * n];
        for (i, &v) in grid.cells().iter().enumerate() {
            transposed[(i % n) * n + i / n] = v;
        }
        search.run(transposed, true);
    }
    let transform = search.best_transform.expect("every grid has an order");
    let best = Grid::new(shape, search.best).expect("relabelled values stay in range");
    debug_assert_eq!(transform.apply(grid), best);
    Ok((best, transform))
}

/// The canonical cells of a grid already known to be well formed and of a supported shape.
pub fn canonical_cells(shape: BoxShape, cells: &[u8], out: &mut [u8]) {
    let grid = Grid::new(shape, cells.to_vec()).expect("a well-formed grid");
    let (best, _) = canonical(&grid).expect("a supported shape");
    out.copy_from_slice(best.cells());
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
            label: vec![0; n + 1],
            labelled: Vec::with_capacity(n),
            cur: vec![0; n * n],
            best: vec![u8::MAX; n * n],
            version: 0,
            best_transform: None,
        }
    }

    /// Searches every order of `g` (already transposed or not), keeping the smallest found.
    fn run(&mut self, g: Vec<u8>, transposed: bool) {
        let n = self.n;
        self.g = g;
        self.transposed = transposed;
        let row = |g: &[u8], r: usize| g[r * n..(r + 1) * n].to_vec();
        let col = |g: &[u8], c: usize| (0..n).map(|r| g[r * n + c]).collect::<Vec<u8>>();
        self.row_twins = twins(n, self.shape.rows(), |r| row(&self.g, r));
        self.col_twins = twins(n, self.shape.cols(), |c| col(&self.g, c));
        for r0 in 0..n {
            if self.row_twins[r0] != 0 {
                continue;
            }
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
            let mark = self.labelled.len();
            let v = self.relabel(self.g[r0 * n + c]);
            if !less && v > self.best[k] {
                self.unlabel(mark);
                continue;
            }
            self.cur[k] = v;
            self.col_of[k] = c;
            self.cols_used |= 1 << c;
            self.choose_col(k + 1, less || v < self.best[k]);
            self.cols_used &= !(1 << c);
            self.unlabel(mark);
        }
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
    use crate::core::text::parse;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn supported_shapes() -> Vec<BoxShape> {
        [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)]
            .iter()
            .map(|&(r, c)| BoxShape::new(r, c).unwrap())
            .collect()
    }

    fn pattern(shape: BoxShape) -> Grid {
        let (n, br, bc) = (shape.size(), shape.rows(), shape.cols());
        let cells = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((bc * (r % br) + r / br + c) % n + 1) as u8
            })
            .collect();
        Grid::new(shape, cells).unwrap()
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
    fn names_the_size_it_cannot_search() {
        let err = check_supported(BoxShape::new(4, 4).unwrap()).unwrap_err();
        assert!(err.0.contains("16x16"), "{err}");
        assert!(check_supported(BoxShape::new(2, 5).unwrap()).is_err());
        for shape in supported_shapes() {
            assert!(check_supported(shape).is_ok(), "{shape:?}");
        }
        assert_eq!(group_order(BoxShape::CLASSIC), MAX_GROUP);
    }
}
