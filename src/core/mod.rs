//! The pure Rust core, free of pyo3 so it is unit-tested with plain `cargo test` and usable
//! from Rust directly. Folders by concern:
//!
//! - [`grid`]: box shapes, the grid model, its text and line forms, validity checks.
//! - [`search`]: the [`Solver`] facade and its engines (generic, dedicated 9x9), with the
//!   stop/flow/statistics vocabulary they share.
//! - [`logic`]: solving like a person: pencil marks, logical steps, technique-based grades.
//! - [`make`]: making and reshaping puzzles: generation, rating, transforms, canonical form,
//!   and the seeded random numbers they use.
//! - [`rules`]: variant rules (diagonals, windows, jigsaw, anti-knight/king,
//!   non-consecutive, killer cages) and the search engine for them.
//! - [`link`]: puzzles as published: f-puzzles and SudokuPad links, their LZ-string payloads
//!   and JSON, read into (and written from) a grid with its rules.
//! - [`batch`]: many puzzles on many threads.
//! - [`env`]: the reinforcement-learning environment, a batch of episodes stepped together.
//! - [`helpers`]: threads kept for many small calls, which the caller never waits to start.

pub mod batch;
pub mod env;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod grid;
pub mod helpers;
pub mod link;
pub mod logic;
pub mod make;
pub mod rules;
pub mod search;
pub mod status;
#[cfg(test)]
mod test_samples;

pub use error::{Cell, Error, Result, Unit};
pub use grid::shape::{BoxShape, MAX_SIZE};
pub use grid::Grid;
pub use rules::Rules;
pub use search::{Control, Flow, SearchStats, Solver, Unbounded};
pub use status::Status;
