//! What became of one puzzle of a batch, as a small code a batch returns per row (an int8
//! column in Python, `sudoku_rs.Status`), so one bad or pathological row neither stops the
//! batch nor passes for a solved or unsolvable one. Every batch says a row's outcome with this
//! one vocabulary, and a text column that names an outcome (a rating or grade that could not be
//! given) spells it with [`Status::label`].

use crate::core::error::Error;
use crate::core::logic::{Grade, Solutions};

/// A row's outcome. The codes are part of the public interface and never change: new outcomes
/// get new codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum Status {
    /// The row got its answer: solved, counted exactly (up to the limit) with at least one
    /// solution, rated, or graded at a level.
    Solved = 0,
    /// Not a well-formed puzzle of the batch's shape, or its clues break a rule (two equal
    /// clues share a unit, or a variant rule).
    Invalid = 1,
    /// The givens are consistent but have no completion.
    NoSolution = 2,
    /// The search ran out of its `max_guesses` budget: the answer is unknown.
    GuessLimit = 3,
    /// Several solutions, so no level: the logic stops where they part ways (grades only).
    NotUnique = 4,
    /// One solution, but the allowed techniques get stuck before the end (grades only).
    Unsolved = 5,
    /// The row's work ran past the caller's `time_limit`: the answer is unknown.
    TimeLimit = 6,
}

impl Status {
    /// Every status, in code order.
    pub const ALL: [Status; 7] = [
        Status::Solved,
        Status::Invalid,
        Status::NoSolution,
        Status::GuessLimit,
        Status::NotUnique,
        Status::Unsolved,
        Status::TimeLimit,
    ];

    /// The name Python's `sudoku_rs.Status` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "SOLVED",
            Status::Invalid => "INVALID",
            Status::NoSolution => "NO_SOLUTION",
            Status::GuessLimit => "GUESS_LIMIT",
            Status::NotUnique => "NOT_UNIQUE",
            Status::Unsolved => "UNSOLVED",
            Status::TimeLimit => "TIME_LIMIT",
        }
    }

    /// How a text column spells it where a row has no rating or level (`Status.label` in
    /// Python).
    pub fn label(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Invalid => "invalid",
            Status::NoSolution => "no solution",
            Status::GuessLimit => "guess limit",
            Status::NotUnique => "not unique",
            Status::Unsolved => "unsolved",
            Status::TimeLimit => "time limit",
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
            | Error::Generate(_)
            | Error::Answer(_)
            | Error::Link(_) => Status::Invalid,
        }
    }

    /// The status of a graded row: [`Status::Solved`] exactly when it has a level.
    pub fn of_grade(grade: &Grade) -> Status {
        match (grade.solutions, grade.level) {
            (Solutions::None, _) => Status::NoSolution,
            (Solutions::Many, _) => Status::NotUnique,
            (Solutions::One, Some(_)) => Status::Solved,
            (Solutions::One, None) => Status::Unsolved,
        }
    }

    pub fn code(self) -> i8 {
        self as i8
    }

    /// The status whose code is `code`, if any.
    pub fn from_code(code: i64) -> Option<Status> {
        Status::ALL
            .into_iter()
            .find(|s| i64::from(s.code()) == code)
    }
}

#[cfg(test)]
mod tests {
    use super::Status;

    #[test]
    fn codes_are_the_positions_and_round_trip() {
        for (i, status) in Status::ALL.into_iter().enumerate() {
            assert_eq!(status.code() as usize, i);
            assert_eq!(Status::from_code(i as i64), Some(status));
        }
        assert_eq!(Status::from_code(-1), None);
        assert_eq!(Status::from_code(Status::ALL.len() as i64), None);
    }

    #[test]
    fn the_published_codes_never_change() {
        let codes: Vec<(&str, i8)> = Status::ALL.iter().map(|s| (s.name(), s.code())).collect();
        assert_eq!(
            codes,
            [
                ("SOLVED", 0),
                ("INVALID", 1),
                ("NO_SOLUTION", 2),
                ("GUESS_LIMIT", 3),
                ("NOT_UNIQUE", 4),
                ("UNSOLVED", 5),
                ("TIME_LIMIT", 6),
            ]
        );
    }
}
