//! `_EnvBatch`, what `sudoku_rs.env` steps: the core's batch of environments (`core::env`)
//! with every step, reset and mask of the whole batch made in one call with the GIL released.
//! `SudokuEnv` is a batch of one, so the single and the vector environment cannot disagree.

use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::core::batch::thread_count;
use crate::core::env::{
    Batch, Config, Generator, OnInvalid, Outcome, Rewards, Source, State, CHUNK,
};
use crate::core::make::random::Rng;
use crate::core::BoxShape;

use super::alloc;
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

/// The arrays of one call, made by numpy before the GIL is released and handed back as they
/// are: each call's arrays are new, so the ones a caller holds from an earlier step never
/// change.
struct Outputs<'py> {
    grid: Bound<'py, PyArrayDyn<u8>>,
    givens: Bound<'py, PyArrayDyn<i8>>,
    candidates: Option<Bound<'py, PyArrayDyn<i8>>>,
    reward: Bound<'py, PyArray1<f64>>,
    terminated: Bound<'py, PyArray1<bool>>,
    truncated: Bound<'py, PyArray1<bool>>,
    conflicts: Bound<'py, PyArray1<i64>>,
    solved: Bound<'py, PyArray1<bool>>,
    still_solvable: Bound<'py, PyArray1<bool>>,
    cells_correct: Bound<'py, PyArray1<i64>>,
}

/// What a call writes for every environment: the data of [`Outputs`], written with the GIL
/// released.
struct Columns<'a> {
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

/// The data of a new array, which nothing else refers to yet.
///
/// # Safety
/// `array` must have been made by this call and not handed to anything else, so that nothing
/// reads or writes its data while the slice lives.
// A mutable slice from a shared handle is numpy's own `as_slice_mut`; the contract above is
// what makes it sound.
#[allow(clippy::mut_from_ref)]
unsafe fn data<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a Bound<'_, numpy::PyArray<T, D>>,
) -> &'a mut [T] {
    // SAFETY: as the caller promises; numpy makes new arrays C-contiguous.
    unsafe { array.as_slice_mut() }.expect("a new array is contiguous")
}

impl<'py> Outputs<'py> {
    fn new(py: Python<'py>, count: usize, n: usize, candidates: bool) -> PyResult<Outputs<'py>> {
        let cells = n * n;
        Ok(Outputs {
            grid: alloc::zeros_shaped(py, count * cells, &[count, n, n])?,
            givens: alloc::zeros_shaped(py, count * cells, &[count, n, n])?,
            candidates: if candidates {
                Some(alloc::zeros_shaped(
                    py,
                    count * cells * n,
                    &[count, n, n, n],
                )?)
            } else {
                None
            },
            reward: alloc::zeros(py, count)?,
            terminated: alloc::zeros(py, count)?,
            truncated: alloc::zeros(py, count)?,
            conflicts: alloc::zeros(py, count)?,
            solved: alloc::zeros(py, count)?,
            still_solvable: alloc::zeros(py, count)?,
            cells_correct: alloc::zeros(py, count)?,
        })
    }

    /// The arrays' data, to be written with the GIL released.
    fn columns(&self) -> Columns<'_> {
        // SAFETY: every array was made by `Outputs::new` and is handed to Python only by
        // `into_python`, which takes `self` after these borrows end.
        unsafe {
            Columns {
                grid: data(&self.grid),
                givens: data(&self.givens),
                candidates: self.candidates.as_ref().map_or(&mut [][..], |c| data(c)),
                reward: data(&self.reward),
                terminated: data(&self.terminated),
                truncated: data(&self.truncated),
                conflicts: data(&self.conflicts),
                solved: data(&self.solved),
                still_solvable: data(&self.still_solvable),
                cells_correct: data(&self.cells_correct),
            }
        }
    }

    fn into_python(self) -> Arrays<'py> {
        (
            self.grid.into_any(),
            self.givens.into_any(),
            self.candidates.map(Bound::into_any),
            self.reward.into_any(),
            self.terminated.into_any(),
            self.truncated.into_any(),
            self.conflicts.into_any(),
            self.solved.into_any(),
            self.still_solvable.into_any(),
            self.cells_correct.into_any(),
        )
    }
}

impl Columns<'_> {
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
}

/// One environment's grid and givens into its rows of the output.
#[inline(always)]
fn board_row(grid: &mut [u8], givens: &mut [i8], cells: &[u8], puzzle: &[u8]) {
    grid.copy_from_slice(cells);
    for (out, &v) in givens.iter_mut().zip(puzzle) {
        *out = i8::from(v != 0);
    }
}

impl Rows<'_> {
    /// Row `k`: environment `env` after its turn.
    #[inline(always)]
    fn write(&mut self, k: usize, n: usize, env: &State, outcome: Outcome) {
        let cells = env.cells().len();
        let (grid, givens) = (
            &mut self.grid[k * cells..(k + 1) * cells],
            &mut self.givens[k * cells..(k + 1) * cells],
        );
        // A 9x9 board's copy compiled for its length: a few vector moves.
        if cells == 81 {
            board_row(
                &mut grid[..81],
                &mut givens[..81],
                &env.cells()[..81],
                &env.puzzle()[..81],
            );
        } else {
            board_row(grid, givens, env.cells(), env.puzzle());
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
        let outputs = Outputs::new(py, count, n, candidates)?;
        let mut columns = outputs.columns();
        let rows = columns.chunks(n * n, n);
        py.detach(|| {
            super::guard::no_panic(|| {
                batch.run_all(
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
            })
        })??;
        Ok(outputs.into_python())
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
    let strided: Vec<i64>;
    let ids = match wide.as_slice() {
        Ok(ids) => ids,
        // A strided view (every other action, say) is read element by element.
        Err(_) => {
            strided = wide.as_array().iter().copied().collect();
            &strided
        }
    };
    // One pass that finds nothing out of range (no branch per id), then the conversion.
    let in_range = |a: i64| u64::try_from(a).is_ok_and(|a| a < limit as u64);
    if !ids.iter().fold(true, |ok, &a| ok & in_range(a)) {
        let (i, a) = ids
            .iter()
            .enumerate()
            .find(|&(_, &a)| !in_range(a))
            .expect("an id is out of range");
        return Err(PyValueError::new_err(format!(
            "action {a} of environment {i} is out of range: actions go from 0 to {}",
            limit - 1
        )));
    }
    Ok(ids.iter().map(|&a| a as usize).collect())
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
            let mut flags = alloc::filled(count * actions, false, || {
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
            let ids = alloc::zeros::<i64>(py, batch.len())?;
            // SAFETY: the array was made just above and is handed out only after this.
            let out = unsafe { data(&ids) };
            py.detach(|| {
                super::guard::no_panic(|| {
                    for (slot, action) in out.iter_mut().zip(batch.sample_all(base, threads)) {
                        *slot = action.map_or(0, |a| a as i64);
                    }
                })
            })?;
            Ok(ids)
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
