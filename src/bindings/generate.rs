//! Generating puzzles: one as a string, or a seeded batch straight into a numpy array on every
//! core. Seeds arrive already drawn (the Python wrapper draws one from the OS for `seed=None`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use std::ffi::CString;

use numpy::PyArrayMethods;
use pyo3::exceptions::{PyDeprecationWarning, PyTypeError};
use pyo3::prelude::*;

use crate::core::grid::text::to_line;
use crate::core::logic::{Level, Techniques};
use crate::core::make::generate::{self, Options, Symmetry};
use crate::core::make::logic_generate::{self, Target};
use crate::core::make::random::stream_seed;
use crate::core::{BoxShape, Control, Error, Rules, Solver};

use super::alloc;
use super::args::{BoxArg, Clues, Count, Names, Seed, Size, SymmetryArg, Threads};
use super::chunks::{Row, Runner};
use super::request::Request;
use super::run::SignalCheck;

/// The shape and options from the call's arguments, checked before any work starts. `size`
/// defaults to the rules' size, else 9.
pub(super) fn options(
    clues: Option<Clues>,
    size: Option<Size>,
    requested_box: Option<BoxArg>,
    symmetry: Option<SymmetryArg>,
    minimal: bool,
    rules: Option<&Rules>,
) -> PyResult<(BoxShape, Options)> {
    let shape = match rules {
        None => size.unwrap_or(Size(9)).shape(requested_box)?,
        Some(rules) => {
            let side = size.map_or_else(|| rules.size().unwrap_or(9), |s| s.0);
            let request = Request::under(requested_box, Some(Arc::new(rules.clone())))?;
            let shape = match (rules.size(), request.boxed()) {
                // Regions of another side than size=: say so, not that the chosen box does
                // not fit.
                (Some(n), Some(_)) if rules.regions().is_some() && n != side => {
                    Request::classic(None)?.shape(side)?
                }
                _ => request.shape(side)?,
            };
            rules.check_shape(shape)?;
            shape
        }
    };
    let clues = clues
        .and_then(|c| c.0)
        .map(|c| {
            usize::try_from(c).map_err(|_| {
                Error::Generate(format!(
                    "clues={c} is impossible: a clue count is at least 0"
                ))
            })
        })
        .transpose()?;
    let options = Options {
        clues,
        symmetry: symmetry.map_or(Symmetry::None, |s| s.0),
        minimal,
    };
    generate::check_options_with(shape, &options, rules.is_some())?;
    Ok((shape, options))
}

/// A solver for generating under `rules` (classic for `None`).
fn solver_for(shape: BoxShape, rules: Option<&Arc<Rules>>) -> Solver {
    match rules {
        None => Solver::new(shape),
        Some(rules) => Solver::with_rules(shape, rules.clone())
            .expect("the rules were checked against the shape"),
    }
}

/// `level=` and `techniques=`: a logical target, or `None` for the plain generator.
fn target(level: Option<&str>, techniques: Option<Names>) -> PyResult<Option<Target>> {
    if level.is_none() && techniques.is_none() {
        return Ok(None);
    }
    let level = level
        .map(|name| {
            Level::ALL
                .iter()
                .copied()
                .find(|l| l.label() == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = Level::ALL.iter().map(|l| l.label()).collect();
                    Error::Generate(format!(
                        "unknown level '{name}': expected one of {}",
                        known.join(", ")
                    ))
                })
        })
        .transpose()?;
    let techniques = match techniques {
        Some(names) => super::logic::techniques_arg(Some(names))?,
        None => Techniques::all(),
    };
    Ok(Some(Target { techniques, level }))
}

/// The logical target, checked against the options before any work. Its digging follows the
/// classic techniques, so it cannot honour variant rules: asking for both is refused rather
/// than silently dropping the rules.
pub(super) fn checked_target(
    level: Option<&str>,
    techniques: Option<Names>,
    options: &Options,
    rules: Option<&Arc<Rules>>,
) -> PyResult<Option<Target>> {
    let target = target(level, techniques)?;
    if let Some(target) = &target {
        if rules.is_some() {
            return Err(Error::Generate(
                "level= and techniques= make classic puzzles only; they cannot be combined \
                 with rules="
                    .into(),
            )
            .into());
        }
        logic_generate::check_target(options, target)?;
    }
    Ok(target)
}

/// One puzzle: from the plain generator, or for a logical target.
fn one_puzzle(
    shape: BoxShape,
    options: &Options,
    target: Option<&Target>,
    seed: u64,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> crate::core::Result<Vec<u8>> {
    match target {
        None => generate::generate(shape, options, seed, solver, control),
        Some(target) => logic_generate::generate(shape, options, target, seed, control),
    }
}

/// One puzzle with one solution as a line of n*n characters; see `sudoku_rs.generate`.
#[pyfunction]
#[pyo3(
    signature = (*, seed = None, clues = None, size = None, r#box = None, symmetry = None,
        minimal = false, rules = None, level = None, techniques = None, difficulty = None),
    text_signature = "(*, seed=None, clues=None, size=None, box=None, symmetry=None, \
        minimal=False, rules=None, level=None, techniques=None, difficulty=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn _generate(
    py: Python<'_>,
    seed: Option<Seed>,
    clues: Option<Clues>,
    size: Option<Size>,
    r#box: Option<BoxArg>,
    symmetry: Option<SymmetryArg>,
    minimal: bool,
    rules: Option<super::rules::RulesArg>,
    level: Option<String>,
    techniques: Option<Names>,
    difficulty: Option<String>,
) -> PyResult<String> {
    super::guard::entry(|| {
        // Called from the Python `generate`: the caller's line is one frame further out.
        let level = level_arg(py, level, difficulty, "generate", 2)?;
        let level = level.as_deref();
        let seed = seed.unwrap_or_else(Seed::fresh).0;
        let rules = super::rules::RulesArg::core(rules);
        let (shape, options) = options(clues, size, r#box, symmetry, minimal, rules.as_deref())?;
        let target = checked_target(level, techniques, &options, rules.as_ref())?;
        let mut control = SignalCheck::default();
        // Puzzle 0 of the batch with this seed: generate(seed=s) == generate_batch(k, seed=s)[0].
        let made = py.detach(|| {
            super::guard::no_panic(|| {
                let mut solver = solver_for(shape, rules.as_ref());
                one_puzzle(
                    shape,
                    &options,
                    target.as_ref(),
                    stream_seed(seed, 0),
                    &mut solver,
                    &mut control,
                )
            })
        })?;
        control.finish(made).map(|cells| to_line(&cells))
    })
}

/// `level=`, or the deprecated `difficulty=` that named it before (it warns, pointing
/// `stacklevel` Python frames out, as `warnings.warn` counts them; both is an error).
fn level_arg(
    py: Python<'_>,
    level: Option<String>,
    difficulty: Option<String>,
    name: &str,
    stacklevel: i32,
) -> PyResult<Option<String>> {
    let Some(difficulty) = difficulty else {
        return Ok(level);
    };
    if level.is_some() {
        return Err(PyTypeError::new_err(format!(
            "{name}() takes level= or its deprecated alias difficulty=, not both"
        )));
    }
    let message = CString::new(format!(
        "{name}(difficulty=...) is deprecated: use level=... (the technique level, as in \
         grade().level; rate().difficulty is another scale)"
    ))
    .expect("no NUL in the message");
    PyErr::warn(
        py,
        &py.get_type::<PyDeprecationWarning>(),
        &message,
        stacklevel,
    )?;
    Ok(Some(difficulty))
}

/// Make ``count`` puzzles on every core: a uint8 array of shape (count, n, n), 0 = blank.
///
/// The options are those of :func:`generate` (``difficulty`` too: the deprecated name of
/// ``level``). Puzzle i depends only on ``(seed, i)``, so the
/// result does not depend on ``threads`` (None: every core) and a longer batch with the same
/// seed starts with the shorter one. When a puzzle's clue count is not reached the batch stops
/// and raises :class:`GenerateError` naming that puzzle's index. ``progress=True`` shows a tqdm
/// bar. The GIL is released; Ctrl-C stops the batch.
#[pyfunction]
#[pyo3(
    signature = (count, *, clues = None, size = None, r#box = None, seed = None,
        symmetry = None, minimal = false, level = None, techniques = None, threads = None,
        progress = None, rules = None, difficulty = None),
    text_signature = "(count, *, clues=None, size=None, box=None, seed=None, symmetry=None, \
        minimal=False, level=None, techniques=None, threads=None, progress=False, rules=None, \
        difficulty=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn generate_batch<'py>(
    py: Python<'py>,
    count: Count,
    clues: Option<Clues>,
    size: Option<Size>,
    r#box: Option<BoxArg>,
    seed: Option<Seed>,
    symmetry: Option<SymmetryArg>,
    minimal: bool,
    level: Option<String>,
    techniques: Option<Names>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
    rules: Option<super::rules::RulesArg>,
    difficulty: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let level = level_arg(py, level, difficulty, "generate_batch", 1)?;
        let level = level.as_deref();
        let count = count.0;
        let shown = super::entry::shown(progress)?;
        super::entry::with_progress(py, shown, count, "generating", |update| {
            let seed = seed.unwrap_or_else(Seed::fresh).0;
            let rules = super::rules::RulesArg::core(rules);
            let (shape, options) =
                options(clues, size, r#box, symmetry, minimal, rules.as_deref())?;
            let target = checked_target(level, techniques, &options, rules.as_ref())?;
            let (n, nc) = (shape.size(), shape.cell_count());
            let len = alloc::product(count, nc, || format!("{count} puzzles of {nc} cells"))?;
            let out = alloc::zeros::<u8>(py, len)?;
            // One failure fails the batch (the options are out of reach), so the other puzzles
            // are skipped from then on rather than ground through for minutes. The error names
            // the lowest failing index seen: on one thread the first failing one.
            let failed: Mutex<Option<(usize, Error)>> = Mutex::new(None);
            let give_up = AtomicBool::new(false);
            let make = |solver: &mut Solver,
                        row: Row<'_, ()>,
                        _: &[u8],
                        out: &mut [u8],
                        control: &mut dyn Control| {
                if give_up.load(Ordering::Relaxed) {
                    return;
                }
                let index = row.index;
                let seed = stream_seed(seed, index as u64);
                match one_puzzle(shape, &options, target.as_ref(), seed, solver, control) {
                    Ok(puzzle) => out.copy_from_slice(&puzzle),
                    Err(Error::Interrupted) => {}
                    Err(err) => {
                        give_up.store(true, Ordering::Relaxed);
                        let mut first = failed.lock().expect("no panic while held");
                        if first.as_ref().map_or(true, |(j, _)| index < *j) {
                            *first = Some((index, err));
                        }
                    }
                }
            };
            let stopped = {
                let mut out_rw = out.readwrite();
                let flat = out_rw.as_slice_mut()?;
                // Generation has no input: each chunk's puzzles start as blank grids, and the
                // row's index says which seed to use.
                Runner::new(shape, count, threads, update)
                    .under(rules)
                    .for_chunks(
                        py,
                        nc,
                        |start, end, cells| {
                            cells.clear();
                            cells.resize((end - start) * nc, 0);
                            Ok(())
                        },
                        make,
                        |start, (), results: &[u8]| {
                            if give_up.load(Ordering::Relaxed) {
                                // Stops the batch; the failure is raised below.
                                return Err(Error::Interrupted.into());
                            }
                            flat[start * nc..start * nc + results.len()].copy_from_slice(results);
                            Ok(())
                        },
                    )
            };
            if let Some((index, err)) = failed.into_inner().expect("no panic while held") {
                return Err(Error::Generate(format!("puzzle {index}: {err}")).into());
            }
            stopped?;
            Ok(out.reshape([count, n, n])?.into_any())
        })
    })
}
