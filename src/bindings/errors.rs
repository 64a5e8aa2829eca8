//! Python exception classes and the one conversion from core errors.
//!
//! The classes are created with module `sudoku_rs`, the public package that re-exports them, so
//! they print and pickle as `sudoku_rs.InvalidPuzzleError`.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

use crate::core::Error;

create_exception!(
    sudoku_rs,
    SudokuError,
    PyValueError,
    "Base class of every error about a puzzle; a subclass of ValueError."
);
create_exception!(
    sudoku_rs,
    InvalidPuzzleError,
    SudokuError,
    "The input is not a well-formed puzzle: wrong shape, a bad value, two equal clues in one \
     row, column or box, or clues that break a variant rule (the message names the rule). The \
     message names the shape, or the row and column (from 0)."
);
create_exception!(
    sudoku_rs,
    InvalidRulesError,
    SudokuError,
    "Variant rules that cannot hold or do not fit the grid: jigsaw regions of the wrong size, \
     an impossible or overlapping killer cage, a cell outside the grid, box= with regions=."
);
create_exception!(
    sudoku_rs,
    InvalidCandidatesError,
    InvalidPuzzleError,
    "Pencil marks that do not fit the grid: the wrong size or characters, an empty cell with no \
     candidates, a filled cell marked without its digit, or a digit the puzzle's one solution \
     needs ruled out. The message names the cell."
);
create_exception!(
    sudoku_rs,
    NoSolutionError,
    SudokuError,
    "The givens are consistent but no completion exists."
);

create_exception!(
    sudoku_rs,
    GuessLimitError,
    SudokuError,
    "The search needed more guesses than max_guesses allows; whether the puzzle has a solution \
     is unknown."
);

create_exception!(
    sudoku_rs,
    GenerateError,
    SudokuError,
    "The generator cannot make the puzzle asked for: a clue count out of range or of the wrong \
     parity for the symmetry, an unknown symmetry, or a clue count its attempts did not reach."
);

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        match err {
            Error::NoSolution => NoSolutionError::new_err(err.to_string()),
            Error::GuessLimit { .. } => GuessLimitError::new_err(err.to_string()),
            // A binding that interrupts a search keeps the Python error that made it stop and
            // raises that instead; reaching this arm means a core caller stopped on its own.
            Error::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(err.to_string()),
            Error::Generate(_) => GenerateError::new_err(err.to_string()),
            Error::Answer(_) => PyValueError::new_err(err.to_string()),
            Error::Candidates(_) => InvalidCandidatesError::new_err(err.to_string()),
            Error::Rules(_) => InvalidRulesError::new_err(err.to_string()),
            Error::Shape(_)
            | Error::Link(_)
            | Error::BoxShape(_)
            | Error::Value { .. }
            | Error::Conflict { .. }
            | Error::RuleConflict { .. } => InvalidPuzzleError::new_err(err.to_string()),
        }
    }
}
