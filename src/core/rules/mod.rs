//! Variant rules: a validated, immutable description of the constraints a grid must meet beyond
//! (or instead of) classic rows, columns and boxes, and their own search engine.
//!
//! - this file: the [`Rules`] model, built from a [`Spec`] and checked once, so everything that
//!   holds one can trust it;
//! - `layout`: the rules bound to one grid shape, as the cell and group tables a search walks;
//! - `check`: finding the first broken rule among a grid's clues, named for the message;
//! - `cages`: the digit sets a killer cage may hold;
//! - `engine`: the search for variant puzzles, kept apart from the classic engines so a
//!   classic call never pays for variants;
//! - `fill`: random complete grids under rules, for the generator.
//!
//! Cells are `(row, col)` counted from 0, as everywhere in the API.

mod cages;
mod check;
pub(crate) mod engine;
pub(crate) mod fill;
pub(crate) mod layout;

use crate::core::error::{Cell, Error, Result};
use crate::core::grid::shape::{suggest_box, BoxShape, MAX_SIZE};

pub use check::{conflicting_cells, find_conflict};
pub use layout::Layout;

/// A killer cage: its cells hold distinct digits that add up to `total`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    pub total: u32,
    pub cells: Vec<Cell>,
}

/// What a caller asks for, before validation: every field defaults to "not this rule".
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// Both long diagonals hold distinct digits.
    pub diagonals: bool,
    /// The four 3x3 windows of windoku (9x9 only) hold distinct digits.
    pub windows: bool,
    /// Jigsaw regions replacing the boxes: `n` rows of `n` labels, any `n` distinct labels,
    /// each on `n` cells.
    pub regions: Option<Vec<Vec<i64>>>,
    /// Further cell sets that hold distinct digits.
    pub extra_regions: Vec<Vec<Cell>>,
    /// Equal digits are never a knight's move apart.
    pub anti_knight: bool,
    /// Equal digits never touch, diagonally included.
    pub anti_king: bool,
    /// Orthogonal neighbours never hold consecutive digits.
    pub non_consecutive: bool,
    pub cages: Vec<Cage>,
}

/// A validated set of rules. Immutable; two are equal when they describe the same rules in the
/// same order (jigsaw labels are renumbered, so equal partitions compare equal).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    diagonals: bool,
    windows: bool,
    /// Region ids `0..n`, row-major, numbered in order of first appearance.
    regions: Option<Vec<u8>>,
    extra_regions: Vec<Vec<Cell>>,
    anti_knight: bool,
    anti_king: bool,
    non_consecutive: bool,
    cages: Vec<Cage>,
}

impl Rules {
    /// Checks `spec` as far as it can without knowing the grid's size (all of it when the
    /// regions or windows fix the size), and freezes it.
    pub fn new(spec: Spec) -> Result<Rules> {
        let regions = spec.regions.as_deref().map(normalise_regions).transpose()?;
        for (i, region) in spec.extra_regions.iter().enumerate() {
            if region.is_empty() {
                return Err(Error::Rules(format!("extra region {i} has no cells")));
            }
            if let Some(cell) = first_repeat(region) {
                return Err(Error::Rules(format!(
                    "extra region {i} lists cell {cell} twice"
                )));
            }
        }
        check_cages(&spec.cages)?;
        let rules = Rules {
            diagonals: spec.diagonals,
            windows: spec.windows,
            regions,
            extra_regions: spec.extra_regions,
            anti_knight: spec.anti_knight,
            anti_king: spec.anti_king,
            non_consecutive: spec.non_consecutive,
            cages: spec.cages,
        };
        if let Some(n) = rules.size() {
            rules.check_size(n)?;
        }
        Ok(rules)
    }

    /// No rule beyond classic rows, columns and boxes.
    pub fn is_classic(&self) -> bool {
        *self == Rules::default()
    }

    /// The grid side the rules fix, if any: the regions', or 9 for windows.
    pub fn size(&self) -> Option<usize> {
        match &self.regions {
            Some(ids) => Some(crate::core::grid::shape::isqrt(ids.len())),
            None if self.windows => Some(9),
            None => None,
        }
    }

    /// Whether these rules replace the boxes (jigsaw regions do): a grid under them is read
    /// without a box of its own.
    pub fn replaces_boxes(&self) -> bool {
        self.regions.is_some()
    }

    /// The box a grid is read with under these rules, given `box=` as asked (`requested`):
    /// jigsaw regions replace the boxes, so a box asked for beside them is an error, and a
    /// side with no square box gets any box shape (the search never uses it); without regions,
    /// the box as asked.
    pub fn box_for(&self, requested: Option<(usize, usize)>) -> Result<Option<(usize, usize)>> {
        let Some(n) = self.size().filter(|_| self.replaces_boxes()) else {
            return Ok(requested);
        };
        if let Some((rows, cols)) = requested {
            return Err(Error::Rules(format!(
                "box=({rows}, {cols}) and jigsaw regions both say where the boxes are: the \
                 regions replace the boxes, so leave box out"
            )));
        }
        let root = crate::core::grid::shape::isqrt(n);
        if root * root == n {
            return Ok(None);
        }
        Ok(suggest_box(n))
    }

    /// Checks that the rules fit a grid of `shape`: sizes, cells in range, cage totals that
    /// `n` digits can make.
    pub fn check_shape(&self, shape: BoxShape) -> Result<()> {
        self.check_size(shape.size())
    }

    fn check_size(&self, n: usize) -> Result<()> {
        if let Some(size) = self.size().filter(|_| self.regions.is_some()) {
            if size != n {
                return Err(Error::Rules(format!(
                    "the regions are {size}x{size}, but the grid is {n}x{n}"
                )));
            }
        }
        if self.windows && n != 9 {
            return Err(Error::Rules(format!(
                "windows are four 3x3 windows of a 9x9 grid, but the grid is {n}x{n}"
            )));
        }
        let outside =
            |what: String, cells: &[Cell]| match cells.iter().find(|c| c.row >= n || c.col >= n) {
                Some(cell) => Err(Error::Rules(format!(
                    "{what} names cell {cell}, outside the {n}x{n} grid (row, column, counted \
                 from 0)"
                ))),
                None => Ok(()),
            };
        for (i, region) in self.extra_regions.iter().enumerate() {
            outside(format!("extra region {i}"), region)?;
            if region.len() > n {
                return Err(Error::Rules(format!(
                    "extra region {i} has {} cells, but a {n}x{n} grid has only {n} digits to \
                     keep distinct",
                    region.len()
                )));
            }
        }
        for (i, cage) in self.cages.iter().enumerate() {
            outside(format!("killer cage {i}"), &cage.cells)?;
            let k = cage.cells.len();
            if k > n {
                return Err(Error::Rules(format!(
                    "killer cage {i} has {k} cells, but a {n}x{n} grid has only {n} distinct \
                     digits"
                )));
            }
            let (low, high) = cage_sum_range(k, n);
            if (cage.total as usize) < low || cage.total as usize > high {
                return Err(Error::Rules(format!(
                    "killer cage {i} (total {}) is impossible: {k} distinct digits of 1..{n} \
                     add up to {low}..{high}",
                    cage.total
                )));
            }
        }
        Ok(())
    }

    pub fn diagonals(&self) -> bool {
        self.diagonals
    }

    pub fn windows(&self) -> bool {
        self.windows
    }

    /// Region ids `0..n`, row-major, numbered in order of first appearance.
    pub fn regions(&self) -> Option<&[u8]> {
        self.regions.as_deref()
    }

    pub fn extra_regions(&self) -> &[Vec<Cell>] {
        &self.extra_regions
    }

    pub fn anti_knight(&self) -> bool {
        self.anti_knight
    }

    pub fn anti_king(&self) -> bool {
        self.anti_king
    }

    pub fn non_consecutive(&self) -> bool {
        self.non_consecutive
    }

    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }
}

/// The least and greatest totals of `k` distinct digits of `1..=n`.
pub fn cage_sum_range(k: usize, n: usize) -> (usize, usize) {
    let low = k * (k + 1) / 2;
    let high = k * (2 * n + 1 - k.min(n)) / 2;
    (low, high)
}

/// The first cell listed twice, if any.
fn first_repeat(cells: &[Cell]) -> Option<Cell> {
    let mut seen = std::collections::HashSet::new();
    cells.iter().copied().find(|c| !seen.insert(*c))
}

/// Checks the cages on their own: cells, no repeats, no overlaps, totals that some size could
/// make (the size-dependent upper bound waits for the grid).
fn check_cages(cages: &[Cage]) -> Result<()> {
    let mut owner = std::collections::HashMap::new();
    for (i, cage) in cages.iter().enumerate() {
        if cage.cells.is_empty() {
            return Err(Error::Rules(format!("killer cage {i} has no cells")));
        }
        if let Some(cell) = first_repeat(&cage.cells) {
            return Err(Error::Rules(format!(
                "killer cage {i} lists cell {cell} twice"
            )));
        }
        let k = cage.cells.len();
        let least = k * (k + 1) / 2;
        if (cage.total as usize) < least {
            return Err(Error::Rules(format!(
                "killer cage {i} (total {}) is impossible: {k} distinct digits add up to at \
                 least {least}",
                cage.total
            )));
        }
        for &cell in &cage.cells {
            if let Some(j) = owner.insert(cell, i) {
                return Err(Error::Rules(format!(
                    "killer cages {j} and {i} overlap at cell {cell}: a cell belongs to one \
                     cage at most"
                )));
            }
        }
    }
    Ok(())
}

/// Region labels as ids `0..n` in order of first appearance, after checking they form `n`
/// regions of `n` cells on an `n x n` grid.
fn normalise_regions(rows: &[Vec<i64>]) -> Result<Vec<u8>> {
    let n = rows.len();
    if n < 2 {
        return Err(Error::Rules(format!(
            "regions must be n rows of n labels with n at least 2, got {n} rows"
        )));
    }
    if n > MAX_SIZE {
        return Err(Error::Rules(format!(
            "regions are {n}x{n}; the largest grid supported is {MAX_SIZE}x{MAX_SIZE}"
        )));
    }
    if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != n) {
        return Err(Error::Rules(format!(
            "regions must be {n} rows of {n} labels, but row {r} has {} labels",
            row.len()
        )));
    }
    // Every grid is held with a box shape, even where the regions replace the boxes; a side
    // with none (a prime) cannot be read at all, so say so here rather than at every call.
    if suggest_box(n).is_none() {
        return Err(Error::Rules(format!(
            "jigsaw regions of a {n}x{n} grid are not supported: even where regions replace \
             the boxes, a grid's side must be rows*cols with both at least 2 (4, 6, 8, 9, 10, \
             12, ...), and {n} is not"
        )));
    }
    let mut labels: Vec<i64> = Vec::with_capacity(n);
    let mut sizes: Vec<usize> = Vec::with_capacity(n);
    let mut ids = Vec::with_capacity(n * n);
    for row in rows {
        for &label in row {
            let id = match labels.iter().position(|&l| l == label) {
                Some(id) => id,
                None => {
                    if labels.len() == n {
                        return Err(Error::Rules(format!(
                            "regions of a {n}x{n} grid have {n} labels, but there are more \
                             (the {}th is {label})",
                            n + 1
                        )));
                    }
                    labels.push(label);
                    sizes.push(0);
                    labels.len() - 1
                }
            };
            sizes[id] += 1;
            ids.push(id as u8);
        }
    }
    if labels.len() < n {
        let found = match labels.len() {
            1 => "one label".to_string(),
            k => format!("{k} labels"),
        };
        return Err(Error::Rules(format!(
            "regions of a {n}x{n} grid must be {n} regions of {n} cells, but there is only \
             {found}"
        )));
    }
    if let Some(id) = sizes.iter().position(|&s| s != n) {
        let first = ids
            .iter()
            .position(|&i| i as usize == id)
            .expect("every id was seen");
        return Err(Error::Rules(format!(
            "regions of a {n}x{n} grid must have {n} cells each, but the region labelled {} \
             (first at cell ({}, {})) has {}",
            labels[id],
            first / n,
            first % n,
            sizes[id]
        )));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    #[test]
    fn classic_is_the_default() {
        assert!(Rules::new(Spec::default()).unwrap().is_classic());
        let x = Rules::new(Spec {
            diagonals: true,
            ..Spec::default()
        })
        .unwrap();
        assert!(!x.is_classic());
        assert_eq!(x.size(), None);
    }

    #[test]
    fn regions_are_renumbered_and_checked() {
        let rows = |labels: &[&str]| -> Vec<Vec<i64>> {
            labels
                .iter()
                .map(|r| r.chars().map(|c| c as i64).collect())
                .collect()
        };
        let spec = |regions| Spec {
            regions: Some(regions),
            ..Spec::default()
        };
        let a = Rules::new(spec(rows(&["aabb", "aabb", "ccdd", "ccdd"]))).unwrap();
        let b = Rules::new(spec(rows(&["xxyy", "xxyy", "zzww", "zzww"]))).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.size(), Some(4));
        assert_eq!(a.regions().unwrap()[..4], [0, 0, 1, 1]);
        for (bad, says) in [
            (rows(&["aabb", "aabb", "ccdd"]), "row 0 has 4"),
            (rows(&["aaab", "bbbb", "ccdd", "ccdd"]), "4 cells each"),
            (rows(&["aabb", "aabb", "ccdd", "ccde"]), "more"),
            (rows(&["aaaa", "bbbb", "cccc", "cccc"]), "only 3"),
            (
                rows(&["aaaab", "abbbb", "ccccc", "ddddd", "eeeee"]),
                "5x5 grid are not",
            ),
            (rows(&["aab", "abb", "ccc"]), "3x3 grid are not"),
        ] {
            let err = Rules::new(spec(bad)).unwrap_err().to_string();
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn cages_are_checked() {
        let spec = |cages| Spec {
            cages,
            ..Spec::default()
        };
        let cage = |total, cells: &[(usize, usize)]| Cage {
            total,
            cells: cells.iter().map(|&(r, c)| cell(r, c)).collect(),
        };
        let ok = Rules::new(spec(vec![cage(3, &[(0, 0), (0, 1)])])).unwrap();
        assert!(ok.check_size(4).is_ok());
        let err = |cages| Rules::new(spec(cages)).unwrap_err().to_string();
        assert!(err(vec![cage(2, &[(0, 0), (0, 1)])]).contains("at least 3"));
        assert!(err(vec![cage(3, &[(0, 0), (0, 0)])]).contains("twice"));
        assert!(err(vec![cage(3, &[])]).contains("no cells"));
        let overlap = err(vec![cage(3, &[(0, 0), (0, 1)]), cage(4, &[(0, 1), (1, 1)])]);
        assert!(overlap.contains("overlap at cell (0, 1)"), "{overlap}");
        let big = Rules::new(spec(vec![cage(17, &[(0, 0), (0, 1)])])).unwrap();
        assert!(big.check_size(9).is_ok());
        let msg = big.check_size(4).unwrap_err().to_string();
        assert!(msg.contains("add up to 3..7"), "{msg}");
        let far = Rules::new(spec(vec![cage(3, &[(0, 0), (4, 1)])])).unwrap();
        assert!(far
            .check_size(4)
            .unwrap_err()
            .to_string()
            .contains("(4, 1)"));
    }

    #[test]
    fn windows_fix_the_size() {
        let w = Rules::new(Spec {
            windows: true,
            ..Spec::default()
        })
        .unwrap();
        assert_eq!(w.size(), Some(9));
        assert!(w.check_size(16).is_err());
    }

    #[test]
    fn sum_ranges() {
        assert_eq!(cage_sum_range(2, 9), (3, 17));
        assert_eq!(cage_sum_range(9, 9), (45, 45));
        assert_eq!(cage_sum_range(1, 4), (1, 4));
    }
}
