//! The one error type of the core. The binding layer converts it once into Python exceptions,
//! so every variant carries what a message needs (the shape seen, the row and column, the value).

use std::fmt;

/// A cell position, 0-based, as `grid[row][col]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// Which kind of unit two conflicting clues share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Row,
    Column,
    Box,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input does not describe an n x n grid (ragged, empty, a length that is not a square).
    Shape(String),
    /// The grid is square but no box shape fits it, or the requested one does not.
    BoxShape(String),
    /// A cell holds something that is not 0 (blank) or 1..=n.
    Value {
        cell: Cell,
        /// The offending value as the user wrote it (`12`, `-1`, `'x'`, `2.5`).
        found: String,
        /// What the cell may hold, for the message (`0..9 (0 = blank)`).
        expected: String,
    },
    /// Two equal clues share a row, column or box.
    Conflict {
        value: u8,
        unit: Unit,
        first: Cell,
        second: Cell,
    },
    /// Clues break a variant rule (see `rules`); `rule` names it ("anti-knight"), `detail`
    /// says where.
    RuleConflict { rule: &'static str, detail: String },
    /// Variant rules that cannot hold, or do not fit the grid (see `rules::Rules`).
    Rules(String),
    /// The givens are consistent but have no completion.
    NoSolution,
    /// The caller's control hook asked the search to stop (Ctrl-C, a budget).
    Interrupted,
    /// The search needed more guesses than the solver's `max_guesses` allows; the puzzle may
    /// or may not have a solution.
    GuessLimit { max_guesses: u64 },
    /// Pencil marks that do not fit the grid: the wrong size, a bad character, an empty cell
    /// left without candidates, or a candidate the puzzle's one solution needs ruled out.
    Candidates(String),
    /// The generator was asked for something it cannot make (impossible options, or a clue
    /// count its attempts did not reach).
    Generate(String),
    /// A model's reply holds no grid or moves that can be read (see `grid::answer`); the
    /// message says what was found instead.
    Answer(String),
    /// A published puzzle that cannot be read: an unknown link, a payload that is not
    /// LZ-string base64 or not JSON, a grid of the wrong size (see `link`).
    Link(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shape(msg)
            | Error::BoxShape(msg)
            | Error::Generate(msg)
            | Error::Candidates(msg)
            | Error::Rules(msg)
            | Error::Answer(msg)
            | Error::Link(msg) => f.write_str(msg),
            Error::RuleConflict { rule, detail } => write!(f, "{rule}: {detail}"),
            Error::Value {
                cell,
                found,
                expected,
            } => write!(
                f,
                "invalid value {found} at row {}, column {}: expected {expected}",
                cell.row, cell.col
            ),
            Error::Conflict {
                value,
                unit,
                first,
                second,
            } => write!(
                f,
                "conflicting clues: {value} appears twice in one {unit}, at {first} and {second} \
                 (row, column, counted from 0)"
            ),
            Error::NoSolution => f.write_str("the puzzle has no solution"),
            Error::Interrupted => f.write_str("the search was interrupted"),
            Error::GuessLimit { max_guesses } => write!(
                f,
                "gave up after {max_guesses} guesses (max_guesses={max_guesses}): the puzzle \
                 may still have a solution; raise max_guesses, or pass None for no limit"
            ),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
