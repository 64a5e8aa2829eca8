//! `_EnvBatch`, what `sudoku_rs.env` steps: the core's batch of environments (`core::env`)
//! with every step, reset and mask of the whole batch made in one call with the GIL released.
//! `SudokuEnv` is a batch of one, so the single and the vector environment cannot disagree.

use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::batch::thread_count;
use crate::core::env::{
    Batch, Config, Generator, OnInvalid, Outcome, Rewards, Source, State, CHUNK,
};
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
    /// The last `sample_legal_actions` had no seed: until one has, every step and reset also
    /// draws the actions its next call without a seed hands back, while each environment is
    /// in the cache.
    sampling: bool,
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

/// One chunk's rows of [`Columns`], which the worker running the chunk writes.
struct Rows<'a> {
    grid: &'a mut [u8],
    givens: &'a mut [i8],
    candidates: &'a mut [i8],
    reward: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    conflicts: &'a mut [i64],
    solved: &'a mut [bool],
    still_solvable: &'a mut [bool],
    cells_correct: &'a mut [i64],
}

impl Columns {
    fn new(count: usize, cells: usize, n: usize, candidates: bool) -> Columns {
        Columns {
            grid: vec![0; count * cells],
            givens: vec![0; count * cells],
            candidates: vec![0; if candidates { count * cells * n } else { 0 }],
            reward: vec![0.0; count],
            terminated: vec![false; count],
            truncated: vec![false; count],
            conflicts: vec![0; count],
            solved: vec![false; count],
            still_solvable: vec![false; count],
            cells_correct: vec![0; count],
        }
    }

    /// The rows of each chunk of [`CHUNK`] environments, in order.
    fn chunks(&mut self, cells: usize, n: usize) -> Vec<Rows<'_>> {
        let count = self.reward.len();
        let mut grid = self.grid.chunks_mut(CHUNK * cells);
        let mut givens = self.givens.chunks_mut(CHUNK * cells);
        let mut candidates = self.candidates.chunks_mut(CHUNK * cells * n);
        let mut reward = self.reward.chunks_mut(CHUNK);
        let mut terminated = self.terminated.chunks_mut(CHUNK);
        let mut truncated = self.truncated.chunks_mut(CHUNK);
        let mut conflicts = self.conflicts.chunks_mut(CHUNK);
        let mut solved = self.solved.chunks_mut(CHUNK);
        let mut still_solvable = self.still_solvable.chunks_mut(CHUNK);
        let mut cells_correct = self.cells_correct.chunks_mut(CHUNK);
        // Without candidates, their column is empty and every chunk's share of it too.
        (0..count.div_ceil(CHUNK))
            .map(|_| Rows {
                grid: grid.next().unwrap_or_default(),
                givens: givens.next().unwrap_or_default(),
                candidates: candidates.next().unwrap_or_default(),
                reward: reward.next().unwrap_or_default(),
                terminated: terminated.next().unwrap_or_default(),
                truncated: truncated.next().unwrap_or_default(),
                conflicts: conflicts.next().unwrap_or_default(),
                solved: solved.next().unwrap_or_default(),
                still_solvable: still_solvable.next().unwrap_or_default(),
                cells_correct: cells_correct.next().unwrap_or_default(),
            })
            .collect()
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

impl Rows<'_> {
    /// Row `k`: environment `env` after its turn.
    fn write(&mut self, k: usize, n: usize, env: &State, outcome: Outcome) {
        let cells = env.cells().len();
        self.grid[k * cells..(k + 1) * cells].copy_from_slice(env.cells());
        for (out, &v) in self.givens[k * cells..(k + 1) * cells]
            .iter_mut()
            .zip(env.puzzle())
        {
            *out = i8::from(v != 0);
        }
        if !self.candidates.is_empty() {
            let rows = &mut self.candidates[k * cells * n..(k + 1) * cells * n];
            for (cell, row) in rows.chunks_exact_mut(n).enumerate() {
                let bits = env.candidate_bits(cell);
                for (d, out) in row.iter_mut().enumerate() {
                    *out = i8::from(bits >> d & 1 != 0);
                }
            }
        }
        self.reward[k] = outcome.reward;
        self.terminated[k] = outcome.terminated;
        self.truncated[k] = outcome.truncated;
        self.conflicts[k] = i64::from(outcome.conflicts);
        self.solved[k] = outcome.solved;
        self.still_solvable[k] = outcome.still_solvable;
        self.cells_correct[k] = i64::from(outcome.cells_correct);
    }
}

impl EnvBatch {
    /// Resets (`step` None) or steps every environment with the GIL released, and hands back
    /// the arrays.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        seeds: &[Option<u64>],
        puzzle: Option<&[u8]>,
        step: Option<&[usize]>,
    ) -> PyResult<Arrays<'py>> {
        let count = self.batch.len();
        let n = self.batch.config().shape.size();
        let (candidates, threads) = (self.candidates, self.threads);
        // The seed the next `sample_legal_actions` without a seed will use.
        let draw = self.sampling.then(|| self.sampler.clone().next_u64());
        let batch = &mut self.batch;
        let columns = py.detach(|| {
            super::guard::no_panic(|| {
                let mut columns = Columns::new(count, n * n, n, candidates);
                let rows = columns.chunks(n * n, n);
                batch
                    .run_all(
                        seeds,
                        puzzle,
                        step,
                        draw,
                        threads,
                        rows,
                        |rows, k, _, env, outcome| {
                            rows.write(k, n, env, outcome);
                        },
                    )
                    .map(|()| columns)
            })
        })??;
        columns.into_python(py, count, n, candidates)
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
    // int64 (what `sample_legal_actions` gives) is read in place; other integers converted.
    let wide = match actions.cast::<PyArray1<i64>>() {
        Ok(wide) => wide.clone(),
        Err(_) => actions
            .call_method1("astype", ("int64",))?
            .cast_into::<PyArray1<i64>>()?,
    };
    let wide = wide.readonly();
    let ids = match wide.as_slice() {
        Ok(ids) => ids.to_vec(),
        // A strided view (every other action, say) is read element by element.
        Err(_) => wide.as_array().iter().copied().collect(),
    };
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
                sampling: false,
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
            self.run(py, &seeds, puzzle.as_deref(), None)
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
            self.run(py, &[], None, Some(&ids))
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
            // Unseeded calls in a loop are what drawing ahead serves; a seeded call stops it
            // until the next unseeded one.
            self.sampling = seed.is_none();
            let (batch, threads) = (&mut self.batch, self.threads);
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
