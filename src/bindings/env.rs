//! `_EnvBatch`, what `sudoku_rs.env` steps: the core's batch of environments (`core::env`)
//! with every step, reset and mask of the whole batch made in one call with the GIL released.
//! `SudokuEnv` is a batch of one, so the single and the vector environment cannot disagree.

use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::batch::thread_count;
use crate::core::env::{Batch, Config, Generator, OnInvalid, Outcome, Rewards, Source, State};
use crate::core::make::random::Rng;
use crate::core::BoxShape;

use super::args::{BoxArg, Clues, Seed, Size};
use super::rules::RulesArg;

/// The environments of one `SudokuEnv` or `SudokuVectorEnv`.
#[pyclass(module = "sudoku_rs._sudoku_rs", name = "_EnvBatch")]
#[derive(Debug)]
pub struct EnvBatch {
    batch: Batch,
    /// Draws `sample_legal_actions`, apart from the episodes' own random numbers.
    sampler: Rng,
    /// Whether observations carry the candidates.
    candidates: bool,
    /// The threads a large batch call splits over: every core, asked once (asking reads the
    /// cgroup files, which costs more than stepping a small batch).
    threads: usize,
}

/// The arrays of one step or reset of the whole batch.
type Arrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// What a call writes for every environment, made with the GIL released.
struct Columns {
    grid: Vec<u8>,
    givens: Vec<i8>,
    candidates: Vec<i8>,
    reward: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    conflicts: Vec<i64>,
    solved: Vec<bool>,
    still_solvable: Vec<bool>,
    cells_correct: Vec<i64>,
}

impl Columns {
    fn new(count: usize, cells: usize, n: usize, candidates: bool) -> Columns {
        Columns {
            grid: Vec::with_capacity(count * cells),
            givens: Vec::with_capacity(count * cells),
            candidates: Vec::with_capacity(if candidates { count * cells * n } else { 0 }),
            reward: Vec::with_capacity(count),
            terminated: Vec::with_capacity(count),
            truncated: Vec::with_capacity(count),
            conflicts: Vec::with_capacity(count),
            solved: Vec::with_capacity(count),
            still_solvable: Vec::with_capacity(count),
            cells_correct: Vec::with_capacity(count),
        }
    }

    fn push(&mut self, config: &Config, env: &State, outcome: Outcome, candidates: bool) {
        self.grid.extend_from_slice(env.cells());
        self.givens
            .extend(env.puzzle().iter().map(|&v| i8::from(v != 0)));
        if candidates {
            let n = config.shape.size();
            let start = self.candidates.len();
            self.candidates.resize(start + env.cells().len() * n, 0);
            let mut flags = vec![false; config.action_count()];
            config.masks_into(env, &mut flags);
            for (out, &flag) in self.candidates[start..].iter_mut().zip(&flags) {
                *out = i8::from(flag);
            }
        }
        self.reward.push(outcome.reward);
        self.terminated.push(outcome.terminated);
        self.truncated.push(outcome.truncated);
        self.conflicts.push(i64::from(outcome.conflicts));
        self.solved.push(outcome.solved);
        self.still_solvable.push(outcome.still_solvable);
        self.cells_correct.push(i64::from(outcome.cells_correct));
    }

    /// `more`'s rows after these.
    fn append(&mut self, mut more: Columns) {
        self.grid.append(&mut more.grid);
        self.givens.append(&mut more.givens);
        self.candidates.append(&mut more.candidates);
        self.reward.append(&mut more.reward);
        self.terminated.append(&mut more.terminated);
        self.truncated.append(&mut more.truncated);
        self.conflicts.append(&mut more.conflicts);
        self.solved.append(&mut more.solved);
        self.still_solvable.append(&mut more.still_solvable);
        self.cells_correct.append(&mut more.cells_correct);
    }

    /// Every environment's columns of one batch call, in the pieces' order, as one.
    fn joined(pieces: Vec<Columns>) -> Columns {
        let mut pieces = pieces.into_iter();
        let mut all = pieces.next().expect("a batch has an environment");
        for more in pieces {
            all.append(more);
        }
        all
    }

    fn into_python(
        self,
        py: Python<'_>,
        count: usize,
        n: usize,
        candidates: bool,
    ) -> PyResult<Arrays<'_>> {
        let candidates = if candidates {
            Some(
                PyArray1::from_vec(py, self.candidates)
                    .reshape([count, n, n, n])?
                    .into_any(),
            )
        } else {
            None
        };
        Ok((
            PyArray1::from_vec(py, self.grid)
                .reshape([count, n, n])?
                .into_any(),
            PyArray1::from_vec(py, self.givens)
                .reshape([count, n, n])?
                .into_any(),
            candidates,
            PyArray1::from_vec(py, self.reward).into_any(),
            PyArray1::from_vec(py, self.terminated).into_any(),
            PyArray1::from_vec(py, self.truncated).into_any(),
            PyArray1::from_vec(py, self.conflicts).into_any(),
            PyArray1::from_vec(py, self.solved).into_any(),
            PyArray1::from_vec(py, self.still_solvable).into_any(),
            PyArray1::from_vec(py, self.cells_correct).into_any(),
        ))
    }
}

fn on_invalid_arg(name: &str) -> PyResult<OnInvalid> {
    match name {
        "mask" => Ok(OnInvalid::Mask),
        "penalise" => Ok(OnInvalid::Penalise),
        "end" => Ok(OnInvalid::End),
        _ => Err(PyValueError::new_err(format!(
            "on_invalid='{name}' is not one of 'mask', 'penalise', 'end'"
        ))),
    }
}

/// `actions` as one action id per environment: a 1-D integer array of the batch's length,
/// every id below the action count.
fn actions_arg(actions: &Bound<'_, PyAny>, count: usize, limit: usize) -> PyResult<Vec<usize>> {
    let array = actions.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "actions must be a numpy integer array of shape ({count},), got {}",
            actions
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    let kind = array.dtype().kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, got dtype {}",
            array.dtype().str()?
        )));
    }
    if array.shape() != [count] {
        return Err(PyValueError::new_err(format!(
            "actions must have shape ({count},), one per environment, got {:?}",
            array.shape()
        )));
    }
    let wide = actions.call_method1("astype", ("int64",))?;
    let wide = wide.cast::<PyArray1<i64>>()?.readonly();
    let ids = wide.as_slice()?;
    ids.iter()
        .enumerate()
        .map(|(i, &a)| {
            usize::try_from(a)
                .ok()
                .filter(|&a| a < limit)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "action {a} of environment {i} is out of range: actions go from 0 to {}",
                        limit - 1
                    ))
                })
        })
        .collect()
}

#[pymethods]
impl EnvBatch {
    /// `count` environments; the puzzles come from `puzzles` (an (k, n*n) uint8 array) or,
    /// without it, from the generator (`clues`, `level`, `size`, `box`, `rules`).
    #[new]
    #[pyo3(signature = (count, *, puzzles = None, size = None, r#box = None, rules = None,
        level = None, clues = None, on_invalid = "mask", rewards = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        max_steps = 1, undo = false, candidates = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        count: usize,
        puzzles: Option<&Bound<'_, PyAny>>,
        size: Option<Size>,
        r#box: Option<BoxArg>,
        rules: Option<RulesArg>,
        level: Option<&str>,
        clues: Option<Clues>,
        on_invalid: &str,
        rewards: [f64; 6],
        max_steps: u32,
        undo: bool,
        candidates: bool,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            if count == 0 {
                return Err(PyValueError::new_err("num_envs must be at least 1"));
            }
            let rules = RulesArg::core(rules);
            let (shape, source): (BoxShape, Source) = match puzzles {
                Some(puzzles) => {
                    let (shape, _) =
                        super::generate::options(None, size, r#box, None, false, rules.as_deref())?;
                    let array = puzzles.cast::<numpy::PyArray2<u8>>().map_err(|_| {
                        PyTypeError::new_err("puzzles must be a uint8 array of shape (k, n*n)")
                    })?;
                    let cells = array.readonly().as_array().iter().copied().collect();
                    (shape, Source::Puzzles(cells))
                }
                None => {
                    let (shape, options) = super::generate::options(
                        clues,
                        size,
                        r#box,
                        None,
                        false,
                        rules.as_deref(),
                    )?;
                    let target =
                        super::generate::checked_target(level, None, &options, rules.as_ref())?;
                    (shape, Source::Generate(Generator { options, target }))
                }
            };
            let config = Config {
                shape,
                rules,
                source,
                on_invalid: on_invalid_arg(on_invalid)?,
                rewards: Rewards { values: rewards },
                max_steps,
                undo,
            };
            Ok(EnvBatch {
                batch: Batch::new(config, count)?,
                sampler: Rng::new(Seed::fresh().0),
                candidates,
                threads: thread_count(None),
            })
        })
    }

    /// Resets every environment: `seeds` has one seed (or None: go on) per environment;
    /// `puzzle` (n*n uint8 cells) replaces every source draw.
    #[pyo3(signature = (seeds, puzzle = None))]
    // pyo3 extracts a sequence argument as an owned Vec; it cannot lend a slice.
    #[allow(clippy::needless_pass_by_value)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seeds: Vec<Option<u64>>,
        puzzle: Option<Vec<u8>>,
    ) -> PyResult<Arrays<'py>> {
        super::guard::entry(|| {
            let count = self.batch.len();
            if seeds.len() != count {
                return Err(PyValueError::new_err(format!(
                    "{} seeds for {count} environments",
                    seeds.len()
                )));
            }
            if let Some(puzzle) = &puzzle {
                self.batch.check_puzzle(puzzle)?;
            }
            let n = self.batch.config().shape.size();
            let (candidates, threads) = (self.candidates, self.threads);
            let batch = &mut self.batch;
            let columns = py.detach(|| {
                super::guard::no_panic(|| {
                    batch.run_all(
                        &seeds,
                        puzzle.as_deref(),
                        None,
                        threads,
                        |len| Columns::new(len, n * n, n, candidates),
                        |columns, config, env, outcome| {
                            columns.push(config, env, outcome, candidates);
                        },
                    )
                })
            })??;
            let columns = Columns::joined(columns);
            columns.into_python(py, count, n, candidates)
        })
    }

    /// One step of every environment: `actions` is one id per environment. An environment
    /// whose episode ended on the last step is reset instead (its action is not taken), with
    /// reward 0 and neither flag set.
    fn step<'py>(&mut self, actions: &Bound<'py, PyAny>) -> PyResult<Arrays<'py>> {
        super::guard::entry(|| {
            let py = actions.py();
            let count = self.batch.len();
            let ids = actions_arg(actions, count, self.batch.config().action_count())?;
            let n = self.batch.config().shape.size();
            let (candidates, threads) = (self.candidates, self.threads);
            let batch = &mut self.batch;
            let columns = py.detach(|| {
                super::guard::no_panic(|| {
                    batch.run_all(
                        &[],
                        None,
                        Some(&ids),
                        threads,
                        |len| Columns::new(len, n * n, n, candidates),
                        |columns, config, env, outcome| {
                            columns.push(config, env, outcome, candidates);
                        },
                    )
                })
            })??;
            let columns = Columns::joined(columns);
            columns.into_python(py, count, n, candidates)
        })
    }

    /// The legal actions of every environment: a (count, actions) bool array.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::guard::entry(|| {
            let count = self.batch.len();
            let actions = self.batch.config().action_count();
            let mut flags = super::alloc::filled(count * actions, false, || {
                format!("the action masks of {count} environments")
            })?;
            let batch = &self.batch;
            py.detach(|| {
                super::guard::no_panic(|| {
                    for (i, row) in flags.chunks_mut(actions).enumerate() {
                        batch.masks_into(i, row);
                    }
                })
            })?;
            Ok(PyArray1::from_vec(py, flags)
                .reshape([count, actions])?
                .into_any())
        })
    }

    /// One uniformly drawn legal action per environment (0 where there is none), from random
    /// numbers of their own, restarted by `seed`.
    #[pyo3(signature = (seed = None))]
    fn sample_legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        super::guard::entry(|| {
            if let Some(seed) = seed {
                self.sampler = Rng::new(seed);
            }
            let (batch, threads) = (&self.batch, self.threads);
            let base = self.sampler.next_u64();
            let ids = py.detach(|| {
                super::guard::no_panic(|| {
                    batch
                        .sample_all(base, threads)
                        .into_iter()
                        .map(|a| a.map_or(0, |a| a as i64))
                        .collect::<Vec<i64>>()
                })
            })?;
            Ok(PyArray1::from_vec(py, ids))
        })
    }

    /// The cells of every environment's solution found at reset: (count, n, n) uint8.
    fn solutions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::guard::entry(|| {
            let n = self.batch.config().shape.size();
            let cells: Vec<u8> = (0..self.batch.len())
                .flat_map(|i| self.batch.env(i).solution().iter().copied())
                .collect();
            Ok(PyArray1::from_vec(py, cells)
                .reshape([self.batch.len(), n, n])?
                .into_any())
        })
    }

    /// The box shape, `(rows, cols)`.
    #[getter]
    fn r#box(&self) -> (usize, usize) {
        let shape = self.batch.config().shape;
        (shape.rows(), shape.cols())
    }
}
