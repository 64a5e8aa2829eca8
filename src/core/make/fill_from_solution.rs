//! Puzzles given more of their solution's digits (`fill_from_solution`): row by row, blanks
//! take their solution digit in a seeded random order until the row holds the clue count asked
//! for, optionally choosing the first digits so that the result has exactly one solution.
//!
//! Row `i` draws its order from [`Rng`] seeded with `stream_seed(seed, i)`, and every search it
//! runs is deterministic, so a row's result depends only on the seed, `i` and the row: not on
//! the thread count or the rest of the batch.

use crate::core::grid::find_conflict;
use crate::core::grid::shape::BoxShape;
use crate::core::make::random::{stream_seed, Rng};
use crate::core::{Control, Flow, Solver, Status};

/// What every row of one call shares.
#[derive(Clone, Copy, Debug)]
pub struct FillTerms {
    /// The clues (givens) each row ends with; at most the grid's cell count.
    pub clues: usize,
    pub seed: u64,
    /// Only return rows with exactly one solution.
    pub unique: bool,
}

/// A row whose input cannot be filled as asked: the caller's mistake, not an outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FillError {
    /// The puzzle already has more givens than the clue count asked for.
    MoreGivens { givens: usize, clues: usize },
    /// The solution given for the row is not a solution of it: `why` says how.
    NotASolution { why: String },
}

/// Fills row `row` of a batch into `out` (the puzzle's `n*n` cells come in `puzzle`; `solution`
/// is its solution when the caller gave one). Returns the row's status: [`Status::Solved`] when
/// `out` holds the fill; otherwise `out` holds the puzzle unchanged and the status says why:
/// [`Status::Invalid`] (conflicting givens), [`Status::NoSolution`], or [`Status::NotUnique`]
/// (no solution given and the puzzle has several, so which digits to add is not defined; or
/// `unique` and the clue count is reached before the puzzle has one solution).
///
/// With `unique`, digits are first taken where the puzzle's other solutions part from the
/// solution: the search finds a solution other than it, and the first cell of the row's order
/// where the two differ takes its digit, until no other solution remains; then the order goes
/// on to the clue count. A puzzle with one solution keeps it whatever digits it gains.
#[allow(clippy::too_many_arguments)]
pub fn fill_row(
    solver: &mut Solver,
    shape: BoxShape,
    puzzle: &[u8],
    solution: Option<&[u8]>,
    terms: FillTerms,
    row: u64,
    control: &mut dyn Control,
    out: &mut [u8],
) -> Result<Status, FillError> {
    let givens = puzzle.iter().filter(|&&v| v != 0).count();
    if givens > terms.clues {
        return Err(FillError::MoreGivens {
            givens,
            clues: terms.clues,
        });
    }
    out.copy_from_slice(puzzle);
    let mut solved = vec![0u8; puzzle.len()];
    // Whether the puzzle as given is known to have one solution.
    let mut unique = false;
    match solution {
        Some(given) => {
            check_solution(shape, puzzle, given)?;
            solved.copy_from_slice(given);
        }
        None => {
            let mut found = 0;
            let searched = solver.search(puzzle, control, |s| {
                if found == 0 {
                    solved.copy_from_slice(s);
                }
                found += 1;
                if found >= 2 {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            });
            match searched {
                Err(err) => return Ok(Status::of_error(&err)),
                Ok(()) if found == 0 => return Ok(Status::NoSolution),
                Ok(()) if found > 1 => return Ok(Status::NotUnique),
                Ok(()) => unique = true,
            }
        }
    }
    let mut order: Vec<usize> = (0..puzzle.len()).filter(|&i| puzzle[i] == 0).collect();
    Rng::new(stream_seed(terms.seed, row)).shuffle(&mut order);
    let mut room = terms.clues - givens;
    if terms.unique && !unique {
        let mut other = vec![0u8; puzzle.len()];
        loop {
            let mut differs = false;
            let searched = solver.search(out, control, |s| {
                if s == solved.as_slice() {
                    return Flow::Continue;
                }
                other.copy_from_slice(s);
                differs = true;
                Flow::Stop
            });
            if let Err(err) = searched {
                out.copy_from_slice(puzzle);
                return Ok(Status::of_error(&err));
            }
            if !differs {
                break;
            }
            if room == 0 {
                out.copy_from_slice(puzzle);
                return Ok(Status::NotUnique);
            }
            // `other` keeps every digit of `out`, so it parts from the solution on a blank.
            let cell = order
                .iter()
                .copied()
                .find(|&i| out[i] == 0 && other[i] != solved[i])
                .expect("another solution differs from the solution on a blank");
            out[cell] = solved[cell];
            room -= 1;
        }
    }
    for &cell in &order {
        if room == 0 {
            break;
        }
        if out[cell] == 0 {
            out[cell] = solved[cell];
            room -= 1;
        }
    }
    Ok(Status::Solved)
}

/// `Ok` when `solution` is a complete grid without conflicts that keeps every given of `puzzle`.
fn check_solution(shape: BoxShape, puzzle: &[u8], solution: &[u8]) -> Result<(), FillError> {
    let n = shape.size();
    let not = |why: String| Err(FillError::NotASolution { why });
    if let Some(i) = solution.iter().position(|&v| v == 0) {
        return not(format!("it is blank at ({}, {})", i / n, i % n));
    }
    if let Some(i) = (0..puzzle.len()).find(|&i| puzzle[i] != 0 && puzzle[i] != solution[i]) {
        return not(format!(
            "it has {} at ({}, {}) where the puzzle has {}",
            solution[i],
            i / n,
            i % n,
            puzzle[i]
        ));
    }
    if let Some(err) = find_conflict(shape, solution) {
        return not(err.to_string());
    }
    Ok(())
}

impl std::fmt::Display for FillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FillError::MoreGivens { givens, clues } => {
                write!(
                    f,
                    "it has {givens} givens, more than the {clues} clues asked for"
                )
            }
            FillError::NotASolution { why } => write!(f, "not a solution of its puzzle: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;
    use crate::core::search::Unbounded;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn fill(
        puzzle: &[u8],
        solution: Option<&[u8]>,
        terms: FillTerms,
        row: u64,
    ) -> (Status, Vec<u8>) {
        let mut solver = Solver::new(BoxShape::CLASSIC);
        let mut out = vec![0; 81];
        let status = fill_row(
            &mut solver,
            BoxShape::CLASSIC,
            puzzle,
            solution,
            terms,
            row,
            &mut Unbounded,
            &mut out,
        )
        .unwrap();
        (status, out)
    }

    fn count(cells: &[u8]) -> u64 {
        Solver::new(BoxShape::CLASSIC)
            .count(cells, Some(2), &mut Unbounded)
            .unwrap()
    }

    #[test]
    fn keeps_the_givens_adds_solution_digits_and_hits_the_count() {
        let puzzle = parse(PUZZLE, None).unwrap();
        let solution = parse(SOLUTION, None).unwrap();
        for clues in [30, 50, 81] {
            let terms = FillTerms {
                clues,
                seed: 7,
                unique: false,
            };
            let (status, out) = fill(puzzle.cells(), None, terms, 3);
            assert_eq!(status, Status::Solved);
            assert_eq!(out.iter().filter(|&&v| v != 0).count(), clues);
            let rows = out.iter().zip(puzzle.cells()).zip(solution.cells());
            for ((&got, &given), &digit) in rows {
                assert!(given == 0 || got == given);
                assert!(got == 0 || got == digit);
            }
        }
    }

    #[test]
    fn unique_fills_of_an_empty_grid_have_one_solution() {
        let solution = parse(SOLUTION, None).unwrap();
        let empty = [0u8; 81];
        for row in 0..5 {
            let terms = FillTerms {
                clues: 40,
                seed: 1,
                unique: true,
            };
            let (status, out) = fill(&empty, Some(solution.cells()), terms, row);
            assert_eq!(status, Status::Solved);
            assert_eq!(out.iter().filter(|&&v| v != 0).count(), 40);
            assert_eq!(count(&out), 1);
        }
        // Too few clues for any unique 9x9 puzzle: refused, the row unchanged.
        let terms = FillTerms {
            clues: 10,
            seed: 1,
            unique: true,
        };
        let (status, out) = fill(&empty, Some(solution.cells()), terms, 0);
        assert_eq!(status, Status::NotUnique);
        assert_eq!(out, empty);
    }

    #[test]
    fn bad_rows_are_errors_or_statuses() {
        let puzzle = parse(PUZZLE, None).unwrap();
        let terms = FillTerms {
            clues: 20,
            seed: 0,
            unique: false,
        };
        let mut solver = Solver::new(BoxShape::CLASSIC);
        let mut out = vec![0; 81];
        let err = fill_row(
            &mut solver,
            BoxShape::CLASSIC,
            puzzle.cells(),
            None,
            terms,
            0,
            &mut Unbounded,
            &mut out,
        )
        .unwrap_err();
        assert_eq!(
            err,
            FillError::MoreGivens {
                givens: 30,
                clues: 20
            }
        );
        let mut wrong = parse(SOLUTION, None).unwrap().into_cells();
        wrong.swap(0, 1);
        let terms = FillTerms {
            clues: 40,
            seed: 0,
            unique: false,
        };
        assert!(matches!(
            fill_row(
                &mut solver,
                BoxShape::CLASSIC,
                puzzle.cells(),
                Some(&wrong),
                terms,
                0,
                &mut Unbounded,
                &mut out,
            ),
            Err(FillError::NotASolution { .. })
        ));
        let (status, out) = fill(&[0u8; 81], None, terms, 0);
        assert_eq!((status, out), (Status::NotUnique, vec![0u8; 81]));
    }
}
