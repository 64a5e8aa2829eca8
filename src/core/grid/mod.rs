//! The grid model: a box shape and row-major cells, 0 = blank, 1..=n = digits. Its submodules
//! are the shapes, the text and line forms, and the validity checks.

pub mod answer;
pub mod check;
pub mod lines;
pub mod marks;
pub mod shape;
pub mod text;

use crate::core::error::{Cell, Error, Result, Unit};
use shape::BoxShape;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: BoxShape,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid from row-major cells; every value must be 0 or 1..=n.
    pub fn new(shape: BoxShape, cells: Vec<u8>) -> Result<Self> {
        let n = shape.size();
        if cells.len() != shape.cell_count() {
            return Err(Error::Shape(format!(
                "a {n}x{n} grid has {} cells, got {}",
                shape.cell_count(),
                cells.len()
            )));
        }
        // The largest value first, in one pass the compiler vectorises; the position only
        // for the error.
        let largest = cells.iter().fold(0u8, |m, &v| m.max(v));
        if largest as usize > n {
            let i = cells
                .iter()
                .position(|&v| v as usize > n)
                .expect("a value past n");
            return Err(Error::Value {
                cell: cell_at(i, n),
                found: cells[i].to_string(),
                expected: expected_values(n),
            });
        }
        Ok(Grid { shape, cells })
    }

    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    pub fn size(&self) -> usize {
        self.shape.size()
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    pub fn into_cells(self) -> Vec<u8> {
        self.cells
    }

    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal clues sharing a unit, scanning cells row-major (so the second
    /// cell is the earliest possible), as a `Conflict` error; `Ok` when the givens agree.
    pub fn check(&self) -> Result<()> {
        match find_conflict(self.shape, &self.cells) {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Complete and free of conflicts: a solved grid.
    pub fn is_solved(&self) -> bool {
        self.is_complete() && self.check().is_ok()
    }

    /// Whether `answer` is a solved grid of the same shape that keeps every clue of `self`.
    pub fn is_solved_by(&self, answer: &Grid) -> bool {
        answer.shape == self.shape
            && answer.is_solved()
            && self
                .cells
                .iter()
                .zip(&answer.cells)
                .all(|(&clue, &value)| clue == 0 || clue == value)
    }
}

/// The cell of a row-major index in a grid of side `n`.
pub fn cell_at(index: usize, n: usize) -> Cell {
    Cell {
        row: index / n,
        col: index % n,
    }
}

/// What a cell may hold, for messages.
pub fn expected_values(n: usize) -> String {
    format!("0 (blank) or 1..{n}")
}

/// See [`Grid::check`]. Works on raw cells so the solver can explain a rejected load.
pub fn find_conflict(shape: BoxShape, cells: &[u8]) -> Option<Error> {
    let n = shape.size();
    // First index + 1 holding each digit, per unit; 0 = not seen. Three tables of n*(n+1).
    let mut seen = vec![0usize; 3 * n * (n + 1)];
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (row, col) = (i / n, i % n);
        let units = [
            (Unit::Row, row),
            (Unit::Column, n + col),
            (Unit::Box, 2 * n + shape.box_index(row, col)),
        ];
        for (unit, u) in units {
            let slot = &mut seen[u * (n + 1) + v as usize];
            if *slot != 0 {
                return Some(Error::Conflict {
                    value: v,
                    unit,
                    first: cell_at(*slot - 1, n),
                    second: cell_at(i, n),
                });
            }
            *slot = i + 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(cells: Vec<u8>) -> Result<Grid> {
        Grid::new(BoxShape::CLASSIC, cells)
    }

    #[test]
    fn rejects_wrong_length_and_out_of_range_values() {
        assert!(matches!(classic(vec![0; 80]), Err(Error::Shape(_))));
        let mut cells = vec![0; 81];
        cells[13] = 10;
        let err = classic(cells).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value 10 at row 1, column 4: expected 0 (blank) or 1..9"
        );
    }

    #[test]
    fn names_both_cells_of_a_conflict() {
        let mut cells = vec![0; 81];
        cells[0] = 5;
        cells[4] = 5;
        let err = classic(cells.clone()).unwrap().check().unwrap_err();
        assert_eq!(
            err,
            Error::Conflict {
                value: 5,
                unit: Unit::Row,
                first: Cell { row: 0, col: 0 },
                second: Cell { row: 0, col: 4 }
            }
        );
        cells[4] = 0;
        cells[20] = 5; // (2, 2): same box as (0, 0)
        let err = classic(cells.clone()).unwrap().check().unwrap_err();
        assert!(matches!(
            err,
            Error::Conflict {
                unit: Unit::Box,
                ..
            }
        ));
        cells[20] = 0;
        cells[72] = 5; // (8, 0): same column
        let err = classic(cells).unwrap().check().unwrap_err();
        assert!(err.to_string().contains("(0, 0) and (8, 0)"), "{err}");
    }
}
