//! What became of one puzzle of a batch, as a small code a batch returns per row (an int8
//! column in Python, `sudoku_rs.Status`), so one bad or pathological row neither stops the
//! batch nor passes for a solved or unsolvable one.

use crate::core::error::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum Status {
    /// Solved, or counted exactly (up to the limit) with at least one solution.
    Solved = 0,
    /// Not a well-formed puzzle of the batch's shape, or its clues break a rule (two equal
    /// clues share a unit, or a variant rule).
    Invalid = 1,
    /// The givens are consistent but have no completion.
    NoSolution = 2,
    /// The search ran out of its `max_guesses` budget: the answer is unknown.
    GuessLimit = 3,
}

impl Status {
    /// Every status, in code order.
    pub const ALL: [Status; 4] = [
        Status::Solved,
        Status::Invalid,
        Status::NoSolution,
        Status::GuessLimit,
    ];

    /// The name Python's `sudoku_rs.Status` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "SOLVED",
            Status::Invalid => "INVALID",
            Status::NoSolution => "NO_SOLUTION",
            Status::GuessLimit => "GUESS_LIMIT",
        }
    }

    /// The status of a row whose search ended with `err`.
    pub fn of_error(err: &Error) -> Status {
        match err {
            Error::NoSolution => Status::NoSolution,
            Error::GuessLimit { .. } => Status::GuessLimit,
            // Interrupted stops the whole batch, so no row keeps this status.
            Error::Interrupted => Status::GuessLimit,
            // A generator error is about the options asked for, never a row's search.
            Error::Shape(_)
            | Error::BoxShape(_)
            | Error::Value { .. }
            | Error::Conflict { .. }
            | Error::Candidates(_)
            | Error::RuleConflict { .. }
            | Error::Rules(_)
            | Error::Generate(_) => Status::Invalid,
        }
    }

    pub fn code(self) -> i8 {
        self as i8
    }
}
