//! The pyo3 binding: each function converts its input, runs the core with the GIL released,
//! and maps core errors to Python exceptions. No solving logic lives here.

mod alloc;
mod answer;
mod args;
mod augment;
mod batch;
mod board;
mod canonical;
mod cell_objects;
mod cells;
mod check;
mod chunks;
mod constants;
mod dtype;
mod entry;
mod env;
mod errors;
mod fill;
mod generate;
mod guard;
mod input;
mod lines;
mod logic;
mod logic_batch;
mod one_row;
mod puzzle;
mod pystr;
mod rate;
mod records;
mod request;
mod rules;
mod run;
mod se;
mod single;
mod solutions;
mod solutions_batch;
mod trace;
mod transform;

use pyo3::prelude::*;

#[pymodule]
mod _sudoku_rs {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::answer::{_answer_grids, _parse_answer, parse_answer_batch};
    #[pymodule_export]
    use super::augment::augment_batch;
    #[pymodule_export]
    use super::batch::{count_solutions_batch, solve_batch};
    #[pymodule_export]
    use super::board::{_apply_step, _conflicts, _read_grid};
    #[pymodule_export]
    use super::canonical::{_class_keys, canonical, canonical_batch};
    #[pymodule_export]
    use super::cells::{
        _batch_cells, _decode_moves, _decode_onehot, _encode_moves, _encode_onehot,
    };
    #[pymodule_export]
    use super::check::{check_batch, score_batch};
    #[pymodule_export]
    use super::entry::_check_batch_shape;
    #[pymodule_export]
    use super::env::EnvBatch;
    #[pymodule_export]
    use super::errors::{GenerateError, InvalidCandidatesError};
    #[pymodule_export]
    use super::errors::{
        GuessLimitError, InvalidPuzzleError, InvalidRulesError, NoSolutionError, SudokuError,
    };
    #[pymodule_export]
    use super::fill::fill_from_solution;
    #[pymodule_export]
    use super::generate::{_generate, generate_batch};
    #[pymodule_export]
    use super::lines::{_format_lines, _parse_lines};
    #[pymodule_export]
    use super::logic::{
        _candidates, _explain, _format_candidates, _grade, _hint, _parse_candidates, _techniques,
        candidates_batch,
    };
    #[pymodule_export]
    use super::logic_batch::{explain_batch, grade_batch};
    #[pymodule_export]
    use super::puzzle::Puzzle;
    #[pymodule_export]
    use super::rate::{_rate, rate_batch};
    #[pymodule_export]
    use super::rules::Rules;
    #[pymodule_export]
    use super::se::{_se_rate, se_rate_batch};
    #[pymodule_export]
    use super::single::{count_solutions, is_unique, is_valid, solve};
    #[pymodule_export]
    use super::solutions::{iter_solutions, solutions, SolutionIterator};
    #[pymodule_export]
    use super::solutions_batch::solutions_batch;
    #[pymodule_export]
    use super::trace::{_search_trace, logic_trace_batch, search_trace_batch};
    #[pymodule_export]
    use super::transform::Transform;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        super::constants::add(m)
    }
}
