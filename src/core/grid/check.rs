//! Checking an answer against its puzzle, for bulk grading of model output: the one answer
//! checker behind `check_batch` and `score_batch`.

use crate::core::grid::shape::{BoxShape, MAX_SIZE};

/// How an answer relates to its puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The answer is a complete grid with no two equal digits in a row, column or box.
    pub valid: bool,
    /// Every clue of the puzzle is in the answer, in its place.
    pub keeps_clues: bool,
}

/// What [`Checker::score`] finds in one answer, before any search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// No blank cell.
    pub complete: bool,
    /// Every clue of the puzzle is in the answer, in its place.
    pub keeps_clues: bool,
    /// Some clue's cell holds another digit (a blank there drops the clue, not changes it).
    pub changes_clues: bool,
    /// Filled cells sharing their digit with another cell of one of their units.
    pub conflict_cells: u32,
    /// Rows, columns and boxes holding some digit twice or more.
    pub conflict_units: u32,
    /// Filled cells.
    pub filled: u32,
}

impl Marks {
    /// Complete, free of conflicts and keeping every clue: a solution of the puzzle.
    pub fn solved(&self) -> bool {
        self.complete && self.keeps_clues && self.conflict_units == 0
    }

    pub fn verdict(&self) -> Verdict {
        Verdict {
            valid: self.complete && self.conflict_units == 0,
            keeps_clues: self.keeps_clues,
        }
    }
}

/// Units of the biggest grid: rows, columns and boxes.
const MAX_UNITS: usize = 3 * MAX_SIZE;

/// Checks answers of one shape. It lives on the stack (no allocation), so a batch makes one
/// per row for free.
#[derive(Debug)]
pub struct Checker {
    shape: BoxShape,
    /// Per unit (rows, then columns, then boxes): digits seen once, digits seen again. Bit
    /// `v - 1` stands for digit v (at most 64).
    seen: [u64; MAX_UNITS],
    twice: [u64; MAX_UNITS],
}

impl Checker {
    pub fn new(shape: BoxShape) -> Self {
        Checker {
            shape,
            seen: [0; MAX_UNITS],
            twice: [0; MAX_UNITS],
        }
    }

    /// Scores `answer` against `puzzle`: both `n*n` row-major cells, 0 = blank, values at
    /// most n (the batch reader guarantees it).
    pub fn score(&mut self, puzzle: &[u8], answer: &[u8]) -> Marks {
        let n = self.shape.size();
        let (box_rows, box_cols) = (self.shape.rows(), self.shape.cols());
        let boxes_across = n / box_cols;
        assert!(puzzle.len() == n * n && answer.len() == n * n);
        let seen = &mut self.seen[..3 * n];
        let twice = &mut self.twice[..3 * n];
        seen.fill(0);
        twice.fill(0);
        let box_of = |i: usize| 2 * n + (i / n / box_rows) * boxes_across + (i % n) / box_cols;
        let (mut filled, mut dropped, mut changed) = (0u32, false, false);
        for (i, (&value, &clue)) in answer.iter().zip(puzzle).enumerate() {
            dropped |= clue != 0 && value == 0;
            changed |= clue != 0 && value != 0 && value != clue;
            if value == 0 {
                continue;
            }
            filled += 1;
            let bit = 1u64 << (value - 1);
            for u in [i / n, n + i % n, box_of(i)] {
                twice[u] |= seen[u] & bit;
                seen[u] |= bit;
            }
        }
        let conflict_units = twice.iter().filter(|&&t| t != 0).count() as u32;
        let mut conflict_cells = 0u32;
        if conflict_units > 0 {
            for (i, &value) in answer.iter().enumerate() {
                if value == 0 {
                    continue;
                }
                let bit = 1u64 << (value - 1);
                let units = twice[i / n] | twice[n + i % n] | twice[box_of(i)];
                conflict_cells += u32::from(units & bit != 0);
            }
        }
        Marks {
            complete: filled as usize == n * n,
            keeps_clues: !dropped && !changed,
            changes_clues: changed,
            conflict_cells,
            conflict_units,
            filled,
        }
    }
}

/// Judges `answer` against `puzzle` (see [`Checker::score`]).
pub fn check_answer(shape: BoxShape, puzzle: &[u8], answer: &[u8]) -> Verdict {
    Checker::new(shape).score(puzzle, answer).verdict()
}

/// How many filled cells of `answer` hold the digit of `solution`.
pub fn matching_cells(answer: &[u8], solution: &[u8]) -> u32 {
    answer
        .iter()
        .zip(solution)
        .map(|(&a, &s)| u32::from(a != 0 && a == s))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn verdict(puzzle: &str, answer: &str) -> Verdict {
        let p = parse(puzzle, None).unwrap();
        let a = parse(answer, None).unwrap();
        check_answer(p.shape(), p.cells(), a.cells())
    }

    #[test]
    fn the_solution_passes() {
        let v = verdict(PUZZLE, SOLUTION);
        assert!(v.valid && v.keeps_clues);
    }

    #[test]
    fn flags_blanks_clashes_and_changed_clues() {
        // A blank where the puzzle has none either: not valid, clues kept.
        let blank = format!("{}.{}", &SOLUTION[..2], &SOLUTION[3..]);
        assert_eq!(
            verdict(PUZZLE, &blank),
            Verdict {
                valid: false,
                keeps_clues: true
            }
        );
        // The first clue changed from 5 to 6: a clash in row 0, and a clue lost.
        let changed = format!("6{}", &SOLUTION[1..]);
        assert_eq!(verdict(PUZZLE, &changed), Verdict::default());
        // Swapping two digits everywhere keeps a valid grid but loses clues.
        let swapped: String = SOLUTION
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                other => other,
            })
            .collect();
        assert_eq!(
            verdict(PUZZLE, &swapped),
            Verdict {
                valid: true,
                keeps_clues: false
            }
        );
    }

    #[test]
    fn counts_conflicting_cells_and_units() {
        let p = parse(PUZZLE, None).unwrap();
        let mut checker = Checker::new(p.shape());
        let solution = parse(SOLUTION, None).unwrap();
        let marks = checker.score(p.cells(), solution.cells());
        assert!(marks.solved());
        assert_eq!(marks.filled, 81);
        // Two cells of row 0 swapped with a blank cell's value elsewhere: cell (0,0) set to
        // the 3 of (0,1) makes row 0, column 0 and box 0 hold two 3s.
        let mut cells = solution.cells().to_vec();
        cells[0] = 3;
        let marks = checker.score(p.cells(), &cells);
        assert!(!marks.keeps_clues && marks.complete && !marks.solved());
        // 3s at (0,0), (0,1) share row 0 and box 0; the 3 of column 0 is at (8,0).
        assert_eq!(marks.conflict_units, 3);
        assert_eq!(marks.conflict_cells, 3);
        // Blanks are neither conflicts nor filled.
        let blank = vec![0u8; 81];
        let marks = checker.score(p.cells(), &blank);
        assert_eq!(
            (marks.filled, marks.conflict_cells, marks.complete),
            (0, 0, false)
        );
        assert_eq!(matching_cells(&cells, solution.cells()), 80);
    }
}
