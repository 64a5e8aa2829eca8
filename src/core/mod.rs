//! The pure Rust core: grid model, text parsing, the search engine. No pyo3 types in here, so
//! it is unit-tested with plain `cargo test` and usable from Rust directly.

pub mod batch;
pub mod canonical;
pub mod check;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
pub mod generate;
pub mod grid;
pub mod lines;
mod nine;
pub mod random;
pub mod rate;
pub mod shape;
pub mod solver;
pub mod status;
pub mod text;
pub mod transform;

pub use error::{Cell, Error, Result, Unit};
pub use grid::Grid;
pub use shape::{BoxShape, MAX_SIZE};
pub use solver::{Control, Flow, SearchStats, Solver, Unbounded};
pub use status::Status;
