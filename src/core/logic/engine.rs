//! The engine: the next step (cheapest technique first), applying it, and running to the end
//! for an explanation or a grade.

use std::cell::{Cell, RefCell};
use std::fmt;

use crate::core::{Control, Error, Grid, Result, SearchStats, Solver, Status, Unit};

use super::candidates::{cell_name, Candidates};
use super::step::{Level, Step, Technique, Techniques};

/// What a finder sees: the candidates and what the caller wants.
pub struct Context<'a> {
    pub cands: &'a Candidates,
    /// Write each step's sentence (explanations do; grading does not need it).
    pub text: bool,
    /// Whether the puzzle has exactly one solution; asked of the solver on first call only,
    /// so a uniqueness technique calls [`Context::unique`] once it has found a pattern.
    unique: &'a dyn Fn() -> bool,
}

impl fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("cands", &self.cands)
            .field("text", &self.text)
            .finish_non_exhaustive()
    }
}

impl Context<'_> {
    /// The puzzle is known to have exactly one solution, so uniqueness techniques may run.
    pub fn unique(&self) -> bool {
        (self.unique)()
    }

    /// The sentence of a step, or nothing when no text is wanted (formatting is skipped).
    pub fn say(&self, args: fmt::Arguments<'_>) -> String {
        if self.text {
            fmt::format(args)
        } else {
            String::new()
        }
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.cands.size()
    }

    /// (row, col) of a cell index.
    #[inline]
    pub fn rc(&self, cell: usize) -> (usize, usize) {
        (cell / self.n(), cell % self.n())
    }

    /// A unit index as (kind, 0-based index).
    pub fn unit_ref(&self, u: usize) -> (Unit, usize) {
        unit_ref(u, self.n())
    }
}

/// A unit index (rows `0..n`, columns `n..2n`, boxes `2n..3n`) as (kind, 0-based index).
pub fn unit_ref(u: usize, n: usize) -> (Unit, usize) {
    match u / n {
        0 => (Unit::Row, u),
        1 => (Unit::Column, u - n),
        _ => (Unit::Box, u - 2 * n),
    }
}

/// How many solutions the puzzle has, as far as logic cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solutions {
    None,
    One,
    /// Two or more.
    Many,
}

/// The first step found with the allowed techniques, trying them in table order (cheapest
/// first); `None` when the grid is solved or no allowed technique applies. `unique` answers
/// whether the puzzle has one solution, for uniqueness techniques (`&|| false` turns them off).
pub fn hint(
    cands: &Candidates,
    techniques: Techniques,
    text: bool,
    unique: &dyn Fn() -> bool,
) -> Option<Step> {
    if cands.is_solved() {
        return None;
    }
    let ctx = Context {
        cands,
        text,
        unique,
    };
    Technique::ALL
        .iter()
        .filter(|&&t| techniques.contains(t))
        .find_map(|&t| t.find(&ctx))
}

/// Applies a step's placements and eliminations; returns whether anything changed.
pub fn apply(cands: &mut Candidates, step: &Step) -> bool {
    apply_changes(cands, &step.placements, &step.eliminations)
}

/// Removes each `(row, col, digit)` of `eliminations` from the candidates, then puts each of
/// `placements` in its cell when the cell is still blank (striking the digit from its peers);
/// returns whether anything changed. Rows, columns and digits must fit the grid.
pub fn apply_changes(
    cands: &mut Candidates,
    placements: &[(usize, usize, u8)],
    eliminations: &[(usize, usize, u8)],
) -> bool {
    let n = cands.size();
    let mut changed = false;
    for &(r, c, d) in eliminations {
        changed |= cands.eliminate(r * n + c, d);
    }
    for &(r, c, d) in placements {
        let cell = r * n + c;
        if cands.value(cell) == 0 {
            cands.place(cell, d);
            changed = true;
        }
    }
    changed
}

/// Where a hint or an explanation starts: the puzzle, the candidates, and its solution count
/// when already known.
#[derive(Debug)]
pub struct Start {
    pub puzzle: Grid,
    pub candidates: Candidates,
    pub solutions: Option<Solutions>,
}

/// Checks the grid (conflicting clues are an error) and sets up the candidates: from the
/// givens, or from `marks` (one mask per cell: a player's pencil marks, or a puzzle given as
/// marks, a sukaku). Marks are part of the puzzle, whose solutions are the grid's that keep to
/// them; they are counted (up to two) at once: when the grid alone has one solution and the
/// marks rule out a digit of it, that is an error naming the cell, since every later step
/// would rest on that mistake. Without marks nothing is solved here: the count is made only if
/// a step or the grade needs it.
pub fn start(
    grid: &Grid,
    marks: Option<&[u64]>,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> Result<Start> {
    grid.check()?;
    let Some(marks) = marks else {
        return Ok(Start {
            puzzle: grid.clone(),
            candidates: Candidates::from_grid(grid),
            solutions: None,
        });
    };
    let candidates = Candidates::from_marks(grid, marks)?;
    // The marks are part of the puzzle: its solutions are the grid's that keep to them.
    let found = solver.solutions_marked(grid, Some(candidates.masks()), 2, control)?;
    if found.is_empty() {
        // None: when the grid alone has one solution, the marks are a player's mistake.
        if let [solution] = solver.solutions(grid, 2, control)?.as_slice() {
            let n = grid.size();
            for (cell, &v) in solution.cells().iter().enumerate() {
                if candidates.value(cell) == 0 && !candidates.has(cell, v) {
                    return Err(Error::Candidates(format!(
                        "the candidates rule out {v} at {} (row {}, column {}, from 0), but \
                         the puzzle's one solution has {v} there",
                        cell_name(cell, n),
                        cell / n,
                        cell % n
                    )));
                }
            }
        }
    }
    Ok(Start {
        puzzle: grid.clone(),
        candidates,
        solutions: Some(solutions_of(found.len())),
    })
}

fn solutions_of(count: usize) -> Solutions {
    match count {
        0 => Solutions::None,
        1 => Solutions::One,
        _ => Solutions::Many,
    }
}

/// The puzzle's solution count, asked of the solver on first demand. The control lives here
/// too, so the run loop and the count share it.
struct Counter<'a, C: ?Sized> {
    puzzle: &'a Grid,
    solver: RefCell<&'a mut Solver>,
    control: RefCell<&'a mut C>,
    known: Cell<Option<Solutions>>,
    /// Why the count failed (interrupted, guess limit), raised by the run.
    failed: RefCell<Option<Error>>,
}

impl<C: Control + ?Sized> Counter<'_, C> {
    fn solutions(&self) -> Solutions {
        if let Some(known) = self.known.get() {
            return known;
        }
        let counted = self.solver.borrow_mut().count(
            self.puzzle.cells(),
            Some(2),
            &mut **self.control.borrow_mut(),
        );
        let solutions = match counted {
            Ok(count) => solutions_of(count as usize),
            Err(err) => {
                *self.failed.borrow_mut() = Some(err);
                Solutions::Many // not known to be unique: no uniqueness technique runs
            }
        };
        self.known.set(Some(solutions));
        solutions
    }

    fn unique(&self) -> bool {
        self.solutions() == Solutions::One
    }

    fn check(&self) -> Result<()> {
        match self.failed.borrow_mut().take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}

/// The next step from `start` (see [`hint`]); the solver is asked for the solution count only
/// if a uniqueness technique needs it.
pub fn next_step(
    start: &Start,
    techniques: Techniques,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> Result<Option<Step>> {
    let counter = Counter {
        puzzle: &start.puzzle,
        solver: RefCell::new(solver),
        control: RefCell::new(control),
        known: Cell::new(start.solutions),
        failed: RefCell::new(None),
    };
    let step = hint(&start.candidates, techniques, true, &|| counter.unique());
    counter.check()?;
    Ok(step)
}

/// A technique-based grade.
///
/// `score` is the sum of the weights of every step of the logical solution (each technique's
/// [`Technique::weight`], singles included), so a puzzle that needs many hard steps scores more
/// than one that needs a single hard step. `hardest` is the highest-weight technique used and
/// `level` its [`Level`]; a grid with nothing left to do is easy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    pub hardest: Option<Technique>,
    pub score: u64,
    /// `Some` only when the logic solved a puzzle with one solution.
    pub level: Option<Level>,
    /// The allowed techniques filled the grid.
    pub solved: bool,
    pub solutions: Solutions,
}

impl Grade {
    /// The level's label, or why there is none ([`Status::label`] of [`Status::of_grade`]):
    /// "no solution", "not unique" (the logic then stops where the solutions part ways), or
    /// "unsolved" (one solution, but the allowed techniques get stuck).
    pub fn label(&self) -> &'static str {
        match self.level {
            Some(level) if self.solutions == Solutions::One => level.label(),
            _ => Status::of_grade(self).label(),
        }
    }
}

/// A logical solution, as far as the allowed techniques go.
#[derive(Clone, Debug)]
pub struct Explanation {
    pub steps: Vec<Step>,
    /// The candidates after the last step.
    pub candidates: Candidates,
    pub grade: Grade,
}

impl Explanation {
    pub fn solved(&self) -> bool {
        self.grade.solved
    }

    /// The empty cells left when the logic got stuck, row-major (none when solved).
    pub fn remaining(&self) -> Vec<(usize, usize)> {
        let n = self.candidates.size();
        (0..n * n)
            .filter(|&cell| self.candidates.value(cell) == 0)
            .map(|cell| (cell / n, cell % n))
            .collect()
    }
}

/// How often a run polls its control, in steps.
const POLL_STEPS: u64 = 32;

/// Runs steps to the end, keeping them (with their sentences) when `keep` is set.
fn run(
    start: Start,
    techniques: Techniques,
    keep: bool,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> Result<(Vec<Step>, Candidates, Grade)> {
    let Start {
        puzzle,
        mut candidates,
        solutions,
    } = start;
    let counter = Counter {
        puzzle: &puzzle,
        solver: RefCell::new(solver),
        control: RefCell::new(control),
        known: Cell::new(solutions),
        failed: RefCell::new(None),
    };
    let unique = || counter.unique();
    let mut steps = Vec::new();
    let (mut hardest, mut score): (Option<Technique>, u64) = (None, 0);
    let mut count = 0u64;
    while let Some(step) = hint(&candidates, techniques, keep, &unique) {
        counter.check()?;
        count += 1;
        if count % POLL_STEPS == 0 {
            let stats = SearchStats {
                nodes: count,
                ..SearchStats::default()
            };
            if !counter.control.borrow_mut().proceed(&stats) {
                return Err(Error::Interrupted);
            }
        }
        // A step that changes nothing would repeat forever; finders never return one, but the
        // loop must end whatever a finder does.
        if !apply(&mut candidates, &step) {
            debug_assert!(false, "a step changed nothing: {step:?}");
            break;
        }
        let t = step.technique;
        score += u64::from(t.weight());
        if hardest.map_or(true, |h| t.weight() > h.weight()) {
            hardest = Some(t);
        }
        if keep {
            steps.push(step);
        }
    }
    counter.check()?;
    let solved = candidates.is_solved();
    // Every step holds in every solution, so a grid the logic fills is the only solution;
    // only a stuck run (or marks, counted at the start) needs the solver.
    let solutions = match (counter.known.get(), solved) {
        (Some(known), _) => known,
        (None, true) => Solutions::One,
        (None, false) => counter.solutions(),
    };
    counter.check()?;
    let level = (solved && solutions == Solutions::One)
        .then(|| hardest.map_or(Level::Easy, Technique::level));
    let grade = Grade {
        hardest,
        score,
        level,
        solved,
        solutions,
    };
    Ok((steps, candidates, grade))
}

/// Every step until solved or stuck, each with its sentence, and the grade.
pub fn explain(
    start: Start,
    techniques: Techniques,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> Result<Explanation> {
    let (steps, candidates, grade) = run(start, techniques, true, solver, control)?;
    Ok(Explanation {
        steps,
        candidates,
        grade,
    })
}

/// The grade alone: the same steps as [`explain`], without keeping them or writing sentences.
pub fn grade(
    start: Start,
    techniques: Techniques,
    solver: &mut Solver,
    control: &mut (impl Control + ?Sized),
) -> Result<Grade> {
    Ok(run(start, techniques, false, solver, control)?.2)
}
