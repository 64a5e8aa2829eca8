//! The pencil-mark model: one candidate bitmask per cell (bit `d-1` for digit `d`), for every
//! size the core supports (4x4..64x64, rectangular boxes).
//!
//! Besides the per-cell masks it keeps, for every unit and digit, the positions inside the unit
//! where the digit is still possible, updated on each placement and elimination. The techniques
//! read "where can 7 go in box 5" as one word instead of scanning the unit, which is what makes
//! hidden singles, locked candidates, hidden subsets and fish cheap.
//!
//! Units are numbered rows `0..n`, columns `n..2n`, boxes `2n..3n` (boxes row-major); a cell's
//! position in its row is its column, in its column its row, in its box row-major inside the box.

use std::sync::{Arc, OnceLock};

use crate::core::grid::marks::restrict;
pub use crate::core::grid::marks::{cell_name, format_marks, parse_marks};
use crate::core::{BoxShape, Grid, Result};

/// The unit tables of one shape, shared by every candidate set of that shape.
#[derive(Debug)]
pub struct Layout {
    pub shape: BoxShape,
    /// The side `n`: cells per unit, and the number of digits.
    pub n: usize,
    /// `3n` units of `n` cell indices each, flattened: unit `u` is `unit_cells[u*n..(u+1)*n]`.
    unit_cells: Vec<u16>,
    /// Per cell: its row, column and box unit.
    cell_units: Vec<[u16; 3]>,
    /// Per cell: its position inside its row, column and box unit.
    cell_pos: Vec<[u8; 3]>,
}

impl Layout {
    /// The layout of `shape`; the classic one is built once per process.
    pub fn of(shape: BoxShape) -> Arc<Layout> {
        static CLASSIC: OnceLock<Arc<Layout>> = OnceLock::new();
        if shape == BoxShape::CLASSIC {
            return CLASSIC
                .get_or_init(|| Arc::new(Layout::build(shape)))
                .clone();
        }
        Arc::new(Layout::build(shape))
    }

    fn build(shape: BoxShape) -> Layout {
        let n = shape.size();
        let mut unit_cells = vec![0u16; 3 * n * n];
        let mut cell_units = Vec::with_capacity(n * n);
        let mut cell_pos = Vec::with_capacity(n * n);
        let (br, bc) = (shape.rows(), shape.cols());
        for row in 0..n {
            for col in 0..n {
                let index = (row * n + col) as u16;
                let b = shape.box_index(row, col);
                let units = [row, n + col, 2 * n + b];
                let pos = [col, row, (row % br) * bc + col % bc];
                for k in 0..3 {
                    unit_cells[units[k] * n + pos[k]] = index;
                }
                cell_units.push(units.map(|u| u as u16));
                cell_pos.push(pos.map(|p| p as u8));
            }
        }
        Layout {
            shape,
            n,
            unit_cells,
            cell_units,
            cell_pos,
        }
    }

    /// The cells of unit `u`, by position.
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.unit_cells[u * self.n..(u + 1) * self.n]
    }

    /// The row, column and box units of `cell`.
    #[inline]
    pub fn units_of(&self, cell: usize) -> [u16; 3] {
        self.cell_units[cell]
    }

    /// The positions of `cell` inside its row, column and box.
    #[inline]
    pub fn positions_of(&self, cell: usize) -> [u8; 3] {
        self.cell_pos[cell]
    }

    /// The box unit holding `cell`.
    #[inline]
    pub fn box_of(&self, cell: usize) -> usize {
        self.cell_units[cell][2] as usize
    }

    /// Whether two distinct cells share a row, column or box.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (self.cell_units[a], self.cell_units[b]);
        a != b && (ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2])
    }
}

/// The full mask of `n` digits (or positions).
#[inline]
pub fn full_mask(n: usize) -> u64 {
    u64::MAX >> (64 - n)
}

/// Pencil marks over a grid: the placed digits and, for each empty cell, its candidates.
#[derive(Clone, Debug)]
pub struct Candidates {
    layout: Arc<Layout>,
    /// Row-major cell values, 0 = empty.
    values: Vec<u8>,
    /// Per cell, its candidates; 0 for a placed cell.
    masks: Vec<u64>,
    /// `places[u*n + d]`: the positions in unit `u` where digit `d+1` is a candidate.
    places: Vec<u64>,
    /// Per unit, the digits placed in it.
    placed: Vec<u64>,
    empty: usize,
}

impl Candidates {
    /// The candidates a grid's filled cells leave: every digit no peer holds, no deduction
    /// beyond that. Conflicting clues are not rejected here (call [`Grid::check`] first); each
    /// is placed in turn.
    pub fn from_grid(grid: &Grid) -> Candidates {
        let layout = Layout::of(grid.shape());
        let n = layout.n;
        let mut c = Candidates {
            values: vec![0; n * n],
            masks: vec![full_mask(n); n * n],
            places: vec![full_mask(n); 3 * n * n],
            placed: vec![0; 3 * n],
            empty: n * n,
            layout,
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 && c.values[cell] == 0 {
                c.place(cell, v);
            }
        }
        c
    }

    /// A player's marks over a grid: `marks` holds one mask per cell (bit `d-1` for digit `d`).
    /// A filled cell's marks must be empty or include its digit. An empty cell's marks are
    /// intersected with what the filled cells allow (a stale mark of a digit a peer holds is
    /// dropped), and must leave at least one candidate (see [`restrict`]).
    pub fn from_marks(grid: &Grid, marks: &[u64]) -> Result<Candidates> {
        let allowed = restrict(grid, marks)?;
        let mut c = Candidates::from_grid(grid);
        for (cell, &m) in allowed.iter().enumerate() {
            if c.values[cell] != 0 {
                continue;
            }
            let mut gone = c.masks[cell] & !m;
            while gone != 0 {
                c.eliminate(cell, gone.trailing_zeros() as u8 + 1);
                gone &= gone - 1;
            }
        }
        Ok(c)
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn shape(&self) -> BoxShape {
        self.layout.shape
    }

    /// The side `n`.
    #[inline]
    pub fn size(&self) -> usize {
        self.layout.n
    }

    /// Row-major cell values, 0 = empty.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The value of `cell`, 0 when empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (0 for a filled cell).
    #[inline]
    pub fn mask(&self, cell: usize) -> u64 {
        self.masks[cell]
    }

    /// Every cell's candidates, row-major (0 for a filled cell).
    pub fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// The positions in unit `u` where `digit` (1-based) is a candidate.
    #[inline]
    pub fn places(&self, u: usize, digit: u8) -> u64 {
        self.places[u * self.layout.n + digit as usize - 1]
    }

    /// The two cells of unit `u` where `digit` is a candidate, in the unit's order, when it has
    /// exactly those two places there: a conjugate pair, one of which holds the digit.
    #[inline]
    pub fn pair_in(&self, u: usize, digit: u8) -> Option<(usize, usize)> {
        let places = self.places(u, digit);
        if places.count_ones() != 2 {
            return None;
        }
        let unit = self.layout.unit(u);
        Some((
            unit[places.trailing_zeros() as usize] as usize,
            unit[63 - places.leading_zeros() as usize] as usize,
        ))
    }

    /// The digits placed in unit `u`.
    #[inline]
    pub fn placed_in(&self, u: usize) -> u64 {
        self.placed[u]
    }

    /// Whether `digit` (1-based) is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.masks[cell] >> (digit - 1) & 1 != 0
    }

    /// The number of empty cells.
    pub fn empty_count(&self) -> usize {
        self.empty
    }

    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// Puts `digit` in `cell` and removes it from the cell's peers. Placing in a filled cell
    /// does nothing.
    pub fn place(&mut self, cell: usize, digit: u8) {
        if self.values[cell] != 0 {
            return;
        }
        let mut rest = self.masks[cell];
        while rest != 0 {
            let d = rest.trailing_zeros() as u8 + 1;
            self.eliminate(cell, d);
            rest &= rest - 1;
        }
        self.values[cell] = digit;
        self.empty -= 1;
        let units = self.layout.units_of(cell);
        let n = self.layout.n;
        for &u in &units {
            let u = u as usize;
            self.placed[u] |= 1 << (digit - 1);
            for k in 0..n {
                let peer = self.layout.unit_cells[u * n + k] as usize;
                self.eliminate(peer, digit);
            }
        }
    }

    /// Removes `digit` from the candidates of `cell`; returns whether it was there.
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u64 << (digit - 1);
        if self.masks[cell] & bit == 0 {
            return false;
        }
        self.masks[cell] &= !bit;
        let n = self.layout.n;
        let units = self.layout.units_of(cell);
        let pos = self.layout.positions_of(cell);
        for k in 0..3 {
            self.places[units[k] as usize * n + digit as usize - 1] &= !(1u64 << pos[k]);
        }
        true
    }

    /// One bool per (row, col, digit), row-major, as `sudoku_rs.candidates` returns: a filled
    /// cell is true at its own digit only.
    pub fn to_bools(&self) -> Vec<bool> {
        let n = self.layout.n;
        let mut out = vec![false; n * n * n];
        for cell in 0..n * n {
            let m = self.cell_marks(cell);
            for d in 0..n {
                out[cell * n + d] = m >> d & 1 != 0;
            }
        }
        out
    }

    /// The marks of a cell as written out: its candidates, or its digit when filled.
    fn cell_marks(&self, cell: usize) -> u64 {
        match self.values[cell] {
            0 => self.masks[cell],
            v => 1 << (v - 1),
        }
    }

    /// The marks as text (see [`format_marks`]); a filled cell shows its digit only.
    pub fn to_text(&self) -> Result<String> {
        let n = self.layout.n;
        let marks: Vec<u64> = (0..n * n).map(|cell| self.cell_marks(cell)).collect();
        format_marks(n, &marks)
    }
}

/// Reads one bool per (row, col, digit), row-major, into one mask per cell.
pub fn masks_from_bools(n: usize, bools: &[bool]) -> Vec<u64> {
    bools
        .chunks(n)
        .map(|cell| {
            cell.iter()
                .enumerate()
                .fold(0u64, |m, (d, &b)| m | (u64::from(b) << d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;

    const PUZZLE: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    /// The candidates by definition: digits no peer holds.
    fn naive(grid: &Grid) -> Vec<u64> {
        let n = grid.size();
        let shape = grid.shape();
        (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                if grid.get(r, c) != 0 {
                    return 0;
                }
                let mut m = full_mask(n);
                for other in 0..n * n {
                    let (r2, c2) = (other / n, other % n);
                    let v = grid.get(r2, c2);
                    if v != 0
                        && (r2 == r || c2 == c || shape.box_index(r2, c2) == shape.box_index(r, c))
                    {
                        m &= !(1 << (v - 1));
                    }
                }
                m
            })
            .collect()
    }

    #[test]
    fn from_grid_matches_the_definition_and_places_agree() {
        let six = "1.....\n..3...\n....5.\n.2....\n...4..\n.....6";
        for (text, shape) in [(PUZZLE, None), (six, Some((2, 3)))] {
            let grid = parse(text, shape).unwrap();
            let c = Candidates::from_grid(&grid);
            assert_eq!(c.masks(), naive(&grid).as_slice());
            let n = c.size();
            for u in 0..3 * n {
                for d in 1..=n as u8 {
                    let expect = c
                        .layout()
                        .unit(u)
                        .iter()
                        .enumerate()
                        .filter(|(_, &cell)| c.has(cell as usize, d))
                        .fold(0u64, |m, (k, _)| m | 1 << k);
                    assert_eq!(c.places(u, d), expect, "unit {u} digit {d}");
                }
            }
        }
    }

    #[test]
    fn text_round_trips_and_rejects_bad_text() {
        let grid = parse(PUZZLE, None).unwrap();
        let c = Candidates::from_grid(&grid);
        let text = c.to_text().unwrap();
        assert_eq!(text.len(), 729);
        assert_eq!(&text[..9], "...4.....");
        let (n, masks) = parse_marks(&text).unwrap();
        assert_eq!(n, 9);
        let back = Candidates::from_marks(&grid, &masks).unwrap();
        assert_eq!(back.masks(), c.masks());
        assert!(parse_marks(&text[1..]).is_err());
        let bad = format!("5{}", &text[1..]);
        let err = parse_marks(&bad).unwrap_err().to_string();
        assert!(err.contains("r1c1"), "{err}");
    }

    #[test]
    fn marks_are_validated() {
        let grid = parse(PUZZLE, None).unwrap();
        let c = Candidates::from_grid(&grid);
        let mut marks: Vec<u64> = (0..81).map(|i| c.cell_marks(i)).collect();
        marks[1] = 0;
        let err = Candidates::from_marks(&grid, &marks).unwrap_err();
        assert!(err.to_string().contains("r1c2"), "{err}");
        marks[1] = 1 << 3; // 4 is r1c1's clue: a stale mark, so nothing is left
        assert!(Candidates::from_marks(&grid, &marks).is_err());
        marks[1] = c.mask(1);
        marks[0] = 1 << 4; // r1c1 holds 4
        assert!(Candidates::from_marks(&grid, &marks).is_err());
        marks[0] = 0; // a filled cell may carry no marks
        marks[2] = full_mask(9); // stale marks are dropped
        let back = Candidates::from_marks(&grid, &marks).unwrap();
        assert_eq!(back.masks(), c.masks());
    }

    #[test]
    fn bools_round_trip() {
        let grid = parse(PUZZLE, None).unwrap();
        let c = Candidates::from_grid(&grid);
        let bools = c.to_bools();
        let masks = masks_from_bools(9, &bools);
        assert_eq!(masks[0], 1 << 3);
        assert_eq!(
            Candidates::from_marks(&grid, &masks).unwrap().masks(),
            c.masks()
        );
    }
}
