//! Variant rules: a validated, immutable description of the constraints a grid must meet beyond
//! (or instead of) classic rows, columns and boxes. Their search engine is
//! `search/variant.rs`; this module is the model it reads.
//!
//! - this file: the [`Rules`] model, built from a [`Spec`] and checked once, so everything that
//!   holds one can trust it;
//! - `kinds`: the constraint kinds beyond all-different groups (cages, little killers, arrows,
//!   dots, lines, clues outside the grid, ...) and their checks on their own;
//! - `layout`: the rules bound to one grid shape, as the cell and group tables a search walks;
//! - `check`: finding the first broken rule among a grid's clues, named for the message;
//!
//! Cells are `(row, col)` counted from 0, as everywhere in the API; clues outside the grid
//! stand in row or column -1 or `n` ([`Outside`]).

mod check;
mod kinds;
pub(crate) mod layout;

use crate::core::error::{Cell, Error, Result};
use crate::core::grid::shape::{suggest_box, BoxShape, MAX_SIZE};

pub use check::{conflicting_cells, find_conflict};
use kinds::{check_digits, check_line, check_outside, check_pair, first_repeat};
pub use kinds::{
    region_stretches, Arrow, Cage, ClonePair, Direction, IndexerKind, LineClue, LineKind,
    LittleKiller, Outside, Pair, PencilMark, Quadruple, Whisper,
};
pub use layout::Layout;

/// The region id of a cell in no region (f-puzzles' `region: null`).
pub const NO_REGION: u8 = u8::MAX;

/// The sums an X and a V stand for.
pub const X_SUM: u32 = 10;
pub const V_SUM: u32 = 5;

/// What a caller asks for, before validation: every field defaults to "not this rule".
#[derive(Clone, Debug, Default)]
pub struct Spec {
    /// Both long diagonals hold distinct digits (sets both of the next two).
    pub diagonals: bool,
    /// The diagonal from top-left to bottom-right holds distinct digits (f-puzzles'
    /// `diagonal-`).
    pub main_diagonal: bool,
    /// The diagonal from bottom-left to top-right holds distinct digits (`diagonal+`).
    pub anti_diagonal: bool,
    /// The four 3x3 windows of windoku (9x9 only) hold distinct digits.
    pub windows: bool,
    /// Jigsaw regions replacing the boxes: `n` rows of `n` labels, any `n` distinct labels,
    /// each on `n` cells.
    /// `None` for a cell in no region (f-puzzles' `region: null`): rows and columns still hold.
    pub regions: Option<Vec<Vec<Option<i64>>>>,
    /// Further cell sets that hold distinct digits.
    pub extra_regions: Vec<Vec<Cell>>,
    /// Equal digits are never a knight's move apart.
    pub anti_knight: bool,
    /// Equal digits never touch, diagonally included.
    pub anti_king: bool,
    /// Orthogonal neighbours never hold consecutive digits, unless a white dot joins them.
    pub non_consecutive: bool,
    /// Cells in the same position of their boxes hold distinct digits.
    pub disjoint_groups: bool,
    pub cages: Vec<Cage>,
    pub little_killers: Vec<LittleKiller>,
    /// Digits rise strictly from the bulb (the first cell) along each line.
    pub thermometers: Vec<Vec<Cell>>,
    pub arrows: Vec<Arrow>,
    /// X (the pair adds up to 10) and V (to 5) marks.
    pub xv: Vec<Pair>,
    /// White Kropki dots: the pair differs by the value (1 by default).
    pub differences: Vec<Pair>,
    /// Black Kropki dots: one digit is the value (2 by default) times the other.
    pub ratios: Vec<Pair>,
    /// Every X and V is given: no other orthogonal pair adds up to 10 or 5.
    pub negative_xv: bool,
    /// Every black dot is given: no other orthogonal pair has a black dot's ratio (2, and the
    /// value of every black dot).
    pub negative_ratio: bool,
    /// The digits between the 1 and the `n` of the row or column add up to the value.
    pub sandwiches: Vec<LineClue>,
    pub whispers: Vec<Whisper>,
    /// Each line holds distinct consecutive digits in any order.
    pub renbans: Vec<Vec<Cell>>,
    /// Each line reads the same from both ends.
    pub palindromes: Vec<Vec<Cell>>,
    /// The digits strictly inside each line lie strictly between its two end digits.
    pub between_lines: Vec<Vec<Cell>>,
    pub odd_cells: Vec<Cell>,
    pub even_cells: Vec<Cell>,
    /// Each is less than its orthogonal neighbours that are not minimum cells themselves.
    pub minimum_cells: Vec<Cell>,
    /// Each is greater than its orthogonal neighbours that are not maximum cells themselves.
    pub maximum_cells: Vec<Cell>,
    pub quadruples: Vec<Quadruple>,
    pub clones: Vec<ClonePair>,
    /// The first X digits from the clue add up to the value, X being the first digit.
    pub x_sums: Vec<LineClue>,
    /// Seen from the clue, taller digits hide shorter ones: the value is how many are seen.
    pub skyscrapers: Vec<LineClue>,
    /// Given pencil marks: each cell holds one of its digits.
    pub pencil_marks: Vec<PencilMark>,
    /// The lines of each [`LineKind`], indexed by the kind (`lines[LineKind::Zipper as
    /// usize]`), each line a list of cells in order.
    pub lines: [Vec<Vec<Cell>>; LineKind::ALL.len()],
    /// The indexing cells of each [`IndexerKind`], indexed by the kind.
    pub indexers: [Vec<Cell>; IndexerKind::ALL.len()],
}

/// A validated set of rules. Immutable; two are equal when they describe the same rules in the
/// same order (jigsaw labels are renumbered, so equal partitions compare equal).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    main_diagonal: bool,
    anti_diagonal: bool,
    windows: bool,
    /// Region ids `0..n`, row-major, numbered in order of first appearance; [`NO_REGION`] for
    /// a cell in no region.
    regions: Option<Vec<u8>>,
    extra_regions: Vec<Vec<Cell>>,
    anti_knight: bool,
    anti_king: bool,
    non_consecutive: bool,
    disjoint_groups: bool,
    cages: Vec<Cage>,
    little_killers: Vec<LittleKiller>,
    thermometers: Vec<Vec<Cell>>,
    arrows: Vec<Arrow>,
    xv: Vec<Pair>,
    differences: Vec<Pair>,
    ratios: Vec<Pair>,
    negative_xv: bool,
    negative_ratio: bool,
    sandwiches: Vec<LineClue>,
    whispers: Vec<Whisper>,
    renbans: Vec<Vec<Cell>>,
    palindromes: Vec<Vec<Cell>>,
    between_lines: Vec<Vec<Cell>>,
    odd_cells: Vec<Cell>,
    even_cells: Vec<Cell>,
    minimum_cells: Vec<Cell>,
    maximum_cells: Vec<Cell>,
    quadruples: Vec<Quadruple>,
    clones: Vec<ClonePair>,
    x_sums: Vec<LineClue>,
    skyscrapers: Vec<LineClue>,
    pencil_marks: Vec<PencilMark>,
    lines: [Vec<Vec<Cell>>; LineKind::ALL.len()],
    indexers: [Vec<Cell>; IndexerKind::ALL.len()],
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
        for (i, k) in spec.little_killers.iter().enumerate() {
            let what = format!("little killer {i}");
            check_outside(&what, k.clue)?;
            if k.total == 0 {
                return Err(Error::Rules(format!(
                    "{what} (total 0) is impossible: digits count from 1"
                )));
            }
        }
        for (i, line) in spec.thermometers.iter().enumerate() {
            check_line(&format!("thermometer {i}"), line, 1)?;
        }
        for (i, arrow) in spec.arrows.iter().enumerate() {
            check_line(&format!("the circle of arrow {i}"), &arrow.circle, 1)?;
            check_line(&format!("the shaft of arrow {i}"), &arrow.shaft, 1)?;
            if let Some(cell) = arrow.shaft.iter().find(|c| arrow.circle.contains(c)) {
                return Err(Error::Rules(format!(
                    "arrow {i} has cell {cell} both in its circle and on its shaft"
                )));
            }
        }
        for (i, pair) in spec.xv.iter().enumerate() {
            let what = format!("XV mark {i}");
            check_pair(&what, pair)?;
            if pair.value != X_SUM && pair.value != V_SUM {
                return Err(Error::Rules(format!(
                    "{what} stands for {}; an X stands for 10 and a V for 5",
                    pair.value
                )));
            }
        }
        for (i, pair) in spec.differences.iter().enumerate() {
            let what = format!("white dot {i}");
            check_pair(&what, pair)?;
            if pair.value == 0 {
                return Err(Error::Rules(format!(
                    "{what} has difference 0, but neighbours in a row or column differ"
                )));
            }
        }
        for (i, pair) in spec.ratios.iter().enumerate() {
            let what = format!("black dot {i}");
            check_pair(&what, pair)?;
            if pair.value < 2 {
                return Err(Error::Rules(format!(
                    "{what} has ratio {}; a ratio is at least 2 (neighbours differ)",
                    pair.value
                )));
            }
        }
        for (kind, clues) in [
            ("sandwich clue", &spec.sandwiches),
            ("X-sum clue", &spec.x_sums),
            ("skyscraper clue", &spec.skyscrapers),
        ] {
            for (i, clue) in clues.iter().enumerate() {
                check_outside(&format!("{kind} {i}"), clue.clue)?;
                if kind != "sandwich clue" && clue.value == 0 {
                    return Err(Error::Rules(format!(
                        "{kind} {i} is 0, but it is at least 1"
                    )));
                }
            }
        }
        for (i, w) in spec.whispers.iter().enumerate() {
            check_line(&format!("whispers line {i}"), &w.cells, 1)?;
            if w.difference == Some(0) {
                return Err(Error::Rules(format!(
                    "whispers line {i} has difference 0; it is at least 1"
                )));
            }
        }
        for (kind, lines, least) in [
            ("renban line", &spec.renbans, 1),
            ("palindrome", &spec.palindromes, 1),
            ("between line", &spec.between_lines, 2),
        ] {
            for (i, line) in lines.iter().enumerate() {
                check_line(&format!("{kind} {i}"), line, least)?;
            }
        }
        for (kind, cells) in [
            ("odd cells", &spec.odd_cells),
            ("even cells", &spec.even_cells),
            ("minimum cells", &spec.minimum_cells),
            ("maximum cells", &spec.maximum_cells),
        ] {
            if let Some(cell) = first_repeat(cells) {
                return Err(Error::Rules(format!("{kind} list cell {cell} twice")));
            }
        }
        for (a, b, what) in [
            (&spec.odd_cells, &spec.even_cells, "odd and even"),
            (
                &spec.minimum_cells,
                &spec.maximum_cells,
                "minimum and maximum",
            ),
        ] {
            if let Some(cell) = a.iter().find(|c| b.contains(c)) {
                return Err(Error::Rules(format!(
                    "cell {cell} is marked both {what}, which no digit can be"
                )));
            }
        }
        for (i, q) in spec.quadruples.iter().enumerate() {
            check_digits(&format!("quadruple {i}"), &q.digits, 4)?;
        }
        for (i, clone) in spec.clones.iter().enumerate() {
            let what = format!("clone {i}");
            check_line(&what, &clone.cells, 1)?;
            check_line(&format!("the copy of {what}"), &clone.clone_cells, 1)?;
            if clone.cells.len() != clone.clone_cells.len() {
                return Err(Error::Rules(format!(
                    "{what} has {} cells but its copy has {}: they pair up cell by cell",
                    clone.cells.len(),
                    clone.clone_cells.len()
                )));
            }
        }
        for kind in LineKind::ALL {
            for (i, line) in spec.lines[kind as usize].iter().enumerate() {
                check_line(&format!("{} {i}", kind.name()), line, kind.least())?;
            }
        }
        for kind in IndexerKind::ALL {
            if let Some(cell) = first_repeat(&spec.indexers[kind as usize]) {
                return Err(Error::Rules(format!(
                    "{}s list cell {cell} twice",
                    kind.name()
                )));
            }
        }
        let marked: Vec<Cell> = spec.pencil_marks.iter().map(|m| m.cell).collect();
        if let Some(cell) = first_repeat(&marked) {
            return Err(Error::Rules(format!(
                "pencil marks are given twice for cell {cell}"
            )));
        }
        for mark in &spec.pencil_marks {
            check_digits(
                &format!("the pencil marks of cell {}", mark.cell),
                &mark.digits,
                MAX_SIZE,
            )?;
        }
        let rules = Rules {
            main_diagonal: spec.diagonals || spec.main_diagonal,
            anti_diagonal: spec.diagonals || spec.anti_diagonal,
            windows: spec.windows,
            regions,
            extra_regions: spec.extra_regions,
            anti_knight: spec.anti_knight,
            anti_king: spec.anti_king,
            non_consecutive: spec.non_consecutive,
            disjoint_groups: spec.disjoint_groups,
            cages: spec.cages,
            little_killers: spec.little_killers,
            thermometers: spec.thermometers,
            arrows: spec.arrows,
            xv: spec.xv,
            differences: spec.differences,
            ratios: spec.ratios,
            negative_xv: spec.negative_xv,
            negative_ratio: spec.negative_ratio,
            sandwiches: spec.sandwiches,
            whispers: spec.whispers,
            renbans: spec.renbans,
            palindromes: spec.palindromes,
            between_lines: spec.between_lines,
            odd_cells: spec.odd_cells,
            even_cells: spec.even_cells,
            minimum_cells: spec.minimum_cells,
            maximum_cells: spec.maximum_cells,
            quadruples: spec.quadruples,
            clones: spec.clones,
            x_sums: spec.x_sums,
            skyscrapers: spec.skyscrapers,
            pencil_marks: spec.pencil_marks,
            lines: spec.lines,
            indexers: spec.indexers,
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

    /// The constraint kinds in force, by their keyword (`"thermometers"`, `"anti_knight"`,
    /// ...), in a fixed order: what an engine that solves only some kinds checks against.
    pub fn kinds(&self) -> Vec<&'static str> {
        let flags = [
            ("main_diagonal", self.main_diagonal),
            ("anti_diagonal", self.anti_diagonal),
            ("windows", self.windows),
            ("regions", self.regions.is_some()),
            ("extra_regions", !self.extra_regions.is_empty()),
            ("anti_knight", self.anti_knight),
            ("anti_king", self.anti_king),
            ("non_consecutive", self.non_consecutive),
            ("disjoint_groups", self.disjoint_groups),
            ("cages", !self.cages.is_empty()),
            ("little_killers", !self.little_killers.is_empty()),
            ("thermometers", !self.thermometers.is_empty()),
            ("arrows", !self.arrows.is_empty()),
            ("xv", !self.xv.is_empty()),
            ("differences", !self.differences.is_empty()),
            ("ratios", !self.ratios.is_empty()),
            ("negative_xv", self.negative_xv),
            ("negative_ratio", self.negative_ratio),
            ("sandwiches", !self.sandwiches.is_empty()),
            ("whispers", !self.whispers.is_empty()),
            ("renbans", !self.renbans.is_empty()),
            ("palindromes", !self.palindromes.is_empty()),
            ("between_lines", !self.between_lines.is_empty()),
            ("odd_cells", !self.odd_cells.is_empty()),
            ("even_cells", !self.even_cells.is_empty()),
            ("minimum_cells", !self.minimum_cells.is_empty()),
            ("maximum_cells", !self.maximum_cells.is_empty()),
            ("quadruples", !self.quadruples.is_empty()),
            ("clones", !self.clones.is_empty()),
            ("x_sums", !self.x_sums.is_empty()),
            ("skyscrapers", !self.skyscrapers.is_empty()),
            ("pencil_marks", !self.pencil_marks.is_empty()),
        ];
        let lines = LineKind::ALL.map(|k| (k.keyword(), !self.lines(k).is_empty()));
        let indexers = IndexerKind::ALL.map(|k| (k.keyword(), !self.indexers(k).is_empty()));
        flags
            .into_iter()
            .chain(lines)
            .chain(indexers)
            .filter(|&(_, on)| on)
            .map(|(name, _)| name)
            .collect()
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
        // A prime side has no box: its boxes are its rows, which the regions replace.
        Ok(Some(suggest_box(n).unwrap_or((1, n))))
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
        let too_long = |what: String, len: usize, why: &str| {
            if len > n {
                Err(Error::Rules(format!(
                    "{what} has {len} cells, but a {n}x{n} grid has only {n} digits {why}"
                )))
            } else {
                Ok(())
            }
        };
        let digits_fit =
            |what: String, digits: &[u8]| match digits.iter().find(|&&d| d as usize > n) {
                Some(d) => Err(Error::Rules(format!(
                    "{what} lists {d}, but a {n}x{n} grid has digits 1..{n}"
                ))),
                None => Ok(()),
            };
        for (i, region) in self.extra_regions.iter().enumerate() {
            outside(format!("extra region {i}"), region)?;
            too_long(
                format!("extra region {i}"),
                region.len(),
                "to keep distinct",
            )?;
        }
        for (i, cage) in self.cages.iter().enumerate() {
            outside(format!("killer cage {i}"), &cage.cells)?;
            let k = cage.cells.len();
            too_long(format!("killer cage {i}"), k, "to keep distinct")?;
            let Some(total) = cage.total else { continue };
            let (low, high) = cage_sum_range(k, n);
            if (total as usize) < low || total as usize > high {
                return Err(Error::Rules(format!(
                    "killer cage {i} (total {total}) is impossible: {k} distinct digits of \
                     1..{n} add up to {low}..{high}"
                )));
            }
        }
        for (i, k) in self.little_killers.iter().enumerate() {
            let what = format!("little killer {i}");
            let on_ring = |v: i32| v == -1 || v == n as i32;
            let near = |v: i32| (-1..=n as i32).contains(&v);
            let (row, col) = (k.clue.row, k.clue.col);
            let cells = k.cells(n);
            if !(near(row) && near(col) && (on_ring(row) || on_ring(col))) || cells.is_empty() {
                return Err(Error::Rules(format!(
                    "{what} stands at {} and points {}, but a little killer stands outside the \
                     {n}x{n} grid (row or column -1 or {n}) pointing along a diagonal into it",
                    k.clue,
                    k.direction.code()
                )));
            }
            let len = cells.len() as u64;
            if u64::from(k.total) < len || u64::from(k.total) > len * n as u64 {
                return Err(Error::Rules(format!(
                    "{what} (total {}) is impossible: its {len} cells add up to {len}..{}",
                    k.total,
                    len * n as u64
                )));
            }
        }
        for (i, line) in self.thermometers.iter().enumerate() {
            outside(format!("thermometer {i}"), line)?;
            too_long(format!("thermometer {i}"), line.len(), "to rise through")?;
        }
        for (i, arrow) in self.arrows.iter().enumerate() {
            outside(format!("the circle of arrow {i}"), &arrow.circle)?;
            outside(format!("the shaft of arrow {i}"), &arrow.shaft)?;
            if arrow.circle.len() > 9 {
                return Err(Error::Rules(format!(
                    "the circle of arrow {i} has {} cells; at most 9 read as one number",
                    arrow.circle.len()
                )));
            }
        }
        for (kind, pairs, most) in [
            ("XV mark", &self.xv, u32::MAX),
            ("white dot", &self.differences, n as u32 - 1),
            ("black dot", &self.ratios, n as u32),
        ] {
            for (i, pair) in pairs.iter().enumerate() {
                outside(format!("{kind} {i}"), &pair.cells)?;
                if pair.value > most {
                    return Err(Error::Rules(format!(
                        "{kind} {i} has value {}, more than digits 1..{n} allow",
                        pair.value
                    )));
                }
            }
        }
        let inner = (n * (n + 1) / 2).saturating_sub(1 + n) as u32;
        let full = (n * (n + 1) / 2) as u32;
        for (kind, clues, least, most) in [
            ("sandwich clue", &self.sandwiches, 0, inner),
            ("X-sum clue", &self.x_sums, 1, full),
            ("skyscraper clue", &self.skyscrapers, 1, n as u32),
        ] {
            for (i, clue) in clues.iter().enumerate() {
                let what = format!("{kind} {i}");
                let Outside { row, col } = clue.clue;
                let n_i = n as i32;
                let faces = ((row == -1 || row == n_i) && (0..n_i).contains(&col))
                    || ((col == -1 || col == n_i) && (0..n_i).contains(&row));
                if !faces {
                    return Err(Error::Rules(format!(
                        "{what} stands at {}, but such a clue stands beside a row or column of \
                         the {n}x{n} grid (row or column -1 or {n}, the other 0..{})",
                        clue.clue,
                        n - 1
                    )));
                }
                if clue.value < least || clue.value > most {
                    return Err(Error::Rules(format!(
                        "{what} is {}, but on a {n}x{n} grid it is {least}..{most}",
                        clue.value
                    )));
                }
            }
        }
        for (i, w) in self.whispers.iter().enumerate() {
            outside(format!("whispers line {i}"), &w.cells)?;
            if w.difference_for(n) as usize >= n {
                return Err(Error::Rules(format!(
                    "whispers line {i} has difference {}, but digits 1..{n} differ by at most {}",
                    w.difference_for(n),
                    n - 1
                )));
            }
        }
        for (i, line) in self.renbans.iter().enumerate() {
            outside(format!("renban line {i}"), line)?;
            too_long(format!("renban line {i}"), line.len(), "to run through")?;
        }
        for (i, line) in self.palindromes.iter().enumerate() {
            outside(format!("palindrome {i}"), line)?;
        }
        for (i, line) in self.between_lines.iter().enumerate() {
            outside(format!("between line {i}"), line)?;
        }
        for (kind, cells) in [
            ("odd cells", &self.odd_cells),
            ("even cells", &self.even_cells),
            ("minimum cells", &self.minimum_cells),
            ("maximum cells", &self.maximum_cells),
        ] {
            outside(kind.to_string(), cells)?;
        }
        for (i, q) in self.quadruples.iter().enumerate() {
            outside(format!("quadruple {i}"), &q.cells())?;
            digits_fit(format!("quadruple {i}"), &q.digits)?;
        }
        for (i, clone) in self.clones.iter().enumerate() {
            outside(format!("clone {i}"), &clone.cells)?;
            outside(format!("the copy of clone {i}"), &clone.clone_cells)?;
        }
        for kind in LineKind::ALL {
            for (i, line) in self.lines(kind).iter().enumerate() {
                outside(format!("{} {i}", kind.name()), line)?;
            }
        }
        for kind in IndexerKind::ALL {
            outside(format!("{}s", kind.name()), self.indexers(kind))?;
        }
        for mark in &self.pencil_marks {
            outside("pencil marks".to_string(), &[mark.cell])?;
            digits_fit(
                format!("the pencil marks of cell {}", mark.cell),
                &mark.digits,
            )?;
        }
        Ok(())
    }

    /// Both long diagonals hold distinct digits.
    pub fn diagonals(&self) -> bool {
        self.main_diagonal && self.anti_diagonal
    }

    pub fn main_diagonal(&self) -> bool {
        self.main_diagonal
    }

    pub fn anti_diagonal(&self) -> bool {
        self.anti_diagonal
    }

    pub fn windows(&self) -> bool {
        self.windows
    }

    /// Region ids `0..n`, row-major, numbered in order of first appearance; [`NO_REGION`] for
    /// a cell in no region.
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

    pub fn disjoint_groups(&self) -> bool {
        self.disjoint_groups
    }

    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    pub fn little_killers(&self) -> &[LittleKiller] {
        &self.little_killers
    }

    pub fn thermometers(&self) -> &[Vec<Cell>] {
        &self.thermometers
    }

    pub fn arrows(&self) -> &[Arrow] {
        &self.arrows
    }

    pub fn xv(&self) -> &[Pair] {
        &self.xv
    }

    pub fn differences(&self) -> &[Pair] {
        &self.differences
    }

    pub fn ratios(&self) -> &[Pair] {
        &self.ratios
    }

    pub fn negative_xv(&self) -> bool {
        self.negative_xv
    }

    pub fn negative_ratio(&self) -> bool {
        self.negative_ratio
    }

    pub fn sandwiches(&self) -> &[LineClue] {
        &self.sandwiches
    }

    pub fn whispers(&self) -> &[Whisper] {
        &self.whispers
    }

    pub fn renbans(&self) -> &[Vec<Cell>] {
        &self.renbans
    }

    pub fn palindromes(&self) -> &[Vec<Cell>] {
        &self.palindromes
    }

    pub fn between_lines(&self) -> &[Vec<Cell>] {
        &self.between_lines
    }

    pub fn odd_cells(&self) -> &[Cell] {
        &self.odd_cells
    }

    pub fn even_cells(&self) -> &[Cell] {
        &self.even_cells
    }

    pub fn minimum_cells(&self) -> &[Cell] {
        &self.minimum_cells
    }

    pub fn maximum_cells(&self) -> &[Cell] {
        &self.maximum_cells
    }

    pub fn quadruples(&self) -> &[Quadruple] {
        &self.quadruples
    }

    pub fn clones(&self) -> &[ClonePair] {
        &self.clones
    }

    pub fn x_sums(&self) -> &[LineClue] {
        &self.x_sums
    }

    pub fn skyscrapers(&self) -> &[LineClue] {
        &self.skyscrapers
    }

    pub fn pencil_marks(&self) -> &[PencilMark] {
        &self.pencil_marks
    }

    /// The lines of one [`LineKind`].
    pub fn lines(&self, kind: LineKind) -> &[Vec<Cell>] {
        &self.lines[kind as usize]
    }

    /// The indexing cells of one [`IndexerKind`].
    pub fn indexers(&self, kind: IndexerKind) -> &[Cell] {
        &self.indexers[kind as usize]
    }

    /// Each cell's region on a grid of `shape` (row-major): its jigsaw region, else its box.
    pub fn cell_regions(&self, shape: BoxShape) -> Vec<Option<u8>> {
        let n = shape.size();
        match &self.regions {
            Some(ids) => ids
                .iter()
                .map(|&id| (id != NO_REGION).then_some(id))
                .collect(),
            None => (0..n * n)
                .map(|i| Some(shape.box_index(i / n, i % n) as u8))
                .collect(),
        }
    }
}

/// The least and greatest totals of `k` distinct digits of `1..=n`.
pub fn cage_sum_range(k: usize, n: usize) -> (usize, usize) {
    let low = k * (k + 1) / 2;
    let high = k * (2 * n + 1 - k.min(n)) / 2;
    (low, high)
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
        if let Some(total) = cage.total.filter(|&t| (t as usize) < least) {
            return Err(Error::Rules(format!(
                "killer cage {i} (total {total}) is impossible: {k} distinct digits add up to \
                 at least {least}"
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

/// Region labels as ids `0..n` in order of first appearance ([`NO_REGION`] for a cell in no
/// region), after checking they fit an `n x n` grid: `n` regions of `n` cells, or, where some
/// cells are in no region, regions of at most `n` cells.
fn normalise_regions(rows: &[Vec<Option<i64>>]) -> Result<Vec<u8>> {
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
    let mut labels: Vec<i64> = Vec::with_capacity(n);
    let mut sizes: Vec<usize> = Vec::with_capacity(n);
    let mut ids = Vec::with_capacity(n * n);
    for row in rows {
        for &label in row {
            let Some(label) = label else {
                ids.push(NO_REGION);
                continue;
            };
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
    let partial = ids.contains(&NO_REGION);
    if labels.len() < n && !partial {
        let found = match labels.len() {
            1 => "one label".to_string(),
            k => format!("{k} labels"),
        };
        return Err(Error::Rules(format!(
            "regions of a {n}x{n} grid must be {n} regions of {n} cells, but there is only \
             {found}"
        )));
    }
    // Cells in no region leave their regions short, never long: digits in a region differ.
    if let Some(id) = sizes
        .iter()
        .position(|&s| if partial { s > n } else { s != n })
    {
        let first = ids
            .iter()
            .position(|&i| i as usize == id)
            .expect("every id was seen");
        let want = if partial { "at most " } else { "" };
        return Err(Error::Rules(format!(
            "regions of a {n}x{n} grid must have {want}{n} cells each, but the region labelled \
             {} (first at cell ({}, {})) has {}",
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
        let rows = |labels: &[&str]| -> Vec<Vec<Option<i64>>> {
            labels
                .iter()
                .map(|r| r.chars().map(|c| (c != '.').then_some(c as i64)).collect())
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
            (rows(&["aab.", "aabb", "ccdd", "ccda"]), "at most 4 cells"),
        ] {
            let err = Rules::new(spec(bad)).unwrap_err().to_string();
            assert!(err.contains(says), "{err}");
        }
        // Prime sides have jigsaws too, and a cell may be in no region.
        let five = Rules::new(spec(rows(&["aaaab", "abbbb", "ccccc", "ddddd", "eeeee"]))).unwrap();
        assert_eq!(five.box_for(None).unwrap(), Some((1, 5)));
        let holes = Rules::new(spec(rows(&["a.bb", "aabb", "ccd.", "ccd."]))).unwrap();
        assert_eq!(holes.regions().unwrap()[..4], [0, NO_REGION, 1, 1]);
        assert_eq!(holes.cell_regions(BoxShape::new(2, 2).unwrap())[1], None);
    }

    #[test]
    fn cages_are_checked() {
        let spec = |cages| Spec {
            cages,
            ..Spec::default()
        };
        let cage = |total, cells: &[(usize, usize)]| Cage {
            total: Some(total),
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
