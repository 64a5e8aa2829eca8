//! The [`Solver`] facade: one reusable solver for a box shape that picks the engine (the
//! dedicated 9x9 engine for classic grids, the generic one otherwise, the variant engine of
//! `rules` when there are variant rules), holds the guess budget, and runs restarts for big
//! grids. The engines themselves live in `generic.rs`, `nine.rs` and `variant.rs`.

use std::collections::HashSet;
use std::sync::Arc;

use super::control::{Attempt, Control, Flow, GuessBudget, SearchStats};
use super::generic::Generic;
use super::nine;
use super::trace::Tracer;
use super::variant::Variant;
use crate::core::error::{Error, Result};
use crate::core::grid::shape::BoxShape;
use crate::core::grid::Grid;
use crate::core::rules::Rules;

/// The node budgets of a restarting search.
#[derive(Clone, Copy, Debug)]
struct Restarts {
    /// Nodes the first attempt may use before it restarts.
    first: u64,
    /// The unit of the budgets after the first attempt, scaled by the Luby sequence.
    unit: u64,
}

/// Below 25x25: a first budget far more than any 9x9 puzzle needs, so restarts only ever happen
/// on big grids.
const RESTARTS: Restarts = Restarts {
    first: 20_000,
    unit: 4_000,
};

/// 25x25 and up, where searches far from unique are heavy-tailed: restarting sooner cuts the
/// CPU time of gen_25x25 and most of all its slowest puzzles
/// (benches/results/2026-11-23-generic-engine.md). These are the budgets of a 25x25 (625
/// cells); bigger grids scale them by their cell count, since filling an empty grid alone takes
/// about one node a cell (about 3,600 on an empty 64x64), and a first budget below that would make
/// every attempt on a sparse grid restart.
const BIG_RESTARTS: Restarts = Restarts {
    first: 2_000,
    unit: 500,
};

/// The cell count [`BIG_RESTARTS`] is set for.
const BIG_RESTARTS_CELLS: u64 = 625;

/// The smallest grid side that restarts on [`BIG_RESTARTS`]. The generic engine's
/// `WEIGHTS_KEPT_FROM` is set to the same side: it keeps its dead-end weights across restarts
/// only where attempts are this short.
const BIG_RESTARTS_FROM: usize = 25;

/// The restart budgets for a grid of side `n`.
fn restarts_for(n: usize) -> Restarts {
    if n < BIG_RESTARTS_FROM {
        return RESTARTS;
    }
    let cells = (n * n) as u64;
    Restarts {
        first: BIG_RESTARTS.first * cells / BIG_RESTARTS_CELLS,
        unit: BIG_RESTARTS.unit * cells / BIG_RESTARTS_CELLS,
    }
}

/// Variant searches below this grid side never restart; from it up they restart like the
/// generic engine (benches/results/2026-11-24-variant-engine.md): 9x9 non-consecutive puzzles
/// often need more nodes than a first attempt's budget, and a unique puzzle's proof of
/// uniqueness must fit in one attempt, so restarting there multiplies the work; on 16x16
/// killers with no givens restarts cut the hardest searches' guesses.
const VARIANT_RESTARTS_FROM: usize = 16;

/// A first attempt with no node budget: it always completes.
const NO_RESTARTS: Restarts = Restarts {
    first: u64::MAX,
    unit: u64::MAX,
};

/// Count limits up to this use restarts (they keep the solutions seen).
pub const MAX_RESTART_LIMIT: u64 = 64;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (1-based): the restart schedule that is within a
/// log factor of the best fixed budget without knowing it.
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let k = 64 - i.leading_zeros() as u64; // 2^(k-1) <= i < 2^k
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A reusable solver for one box shape. Not `Sync`; make one per thread.
pub struct Solver {
    generic: Generic,
    /// Classic 9x9 searches go to the dedicated engine in `nine.rs`.
    use_nine: bool,
    /// Variant rules' searches go to their own engine; `None` for classic rules.
    variant: Option<Box<Variant>>,
    /// The most guesses one call may make, over all its restart attempts (`None`: no limit).
    max_guesses: Option<u64>,
    restarts: Restarts,
    stats: SearchStats,
    /// Scratch: the solutions found by the current restart attempt, back to back.
    found: Vec<u8>,
}

/// The shape, the engine and the last search's statistics; the engines' working state is
/// scratch space, not worth printing.
impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let engine = if self.use_nine {
            "9x9"
        } else if self.variant.is_some() {
            "variant"
        } else {
            "generic"
        };
        f.debug_struct("Solver")
            .field("shape", &self.shape())
            .field("engine", &engine)
            .field("max_guesses", &self.max_guesses)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// A solver for `shape`; classic 9x9 uses the dedicated 9x9 engine.
    pub fn new(shape: BoxShape) -> Self {
        let mut solver = Self::generic(shape);
        solver.use_nine = shape == BoxShape::CLASSIC;
        solver
    }

    /// A solver that always uses the generic engine, whatever the shape: its search order and
    /// statistics do not change when the 9x9 engine does.
    pub fn generic(shape: BoxShape) -> Self {
        Solver {
            generic: Generic::new(shape),
            use_nine: false,
            variant: None,
            max_guesses: None,
            restarts: restarts_for(shape.size()),
            stats: SearchStats::default(),
            found: Vec::new(),
        }
    }

    /// A solver for `shape` under `rules`: classic rules get [`Solver::new`]'s engines, any
    /// variant rule the variant engine. [`Error::Rules`] when the rules do not fit the shape.
    pub fn with_rules(shape: BoxShape, rules: Arc<Rules>) -> Result<Self> {
        if rules.is_classic() {
            return Ok(Self::new(shape));
        }
        let mut solver = Self::generic(shape);
        solver.variant = Some(Box::new(Variant::new(shape, rules)?));
        if shape.size() < VARIANT_RESTARTS_FROM {
            solver.restarts = NO_RESTARTS;
        }
        Ok(solver)
    }

    /// The variant rules this solver follows; `None` for classic ones.
    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.variant.as_deref().map(Variant::rules)
    }

    /// The variant engine, for the generator.
    pub(crate) fn variant_mut(&mut self) -> Option<&mut Variant> {
        self.variant.as_deref_mut()
    }

    /// Limits every later call (`solve`, `count`, `solutions`, `search`) to `max_guesses`
    /// guesses; a call that needs more returns [`Error::GuessLimit`]. `None` removes the limit.
    pub fn set_max_guesses(&mut self, max_guesses: Option<u64>) {
        self.max_guesses = max_guesses;
    }

    pub fn shape(&self) -> BoxShape {
        self.generic.shape()
    }

    /// Bytes held between searches beyond the fixed tables: the engines' arenas and the
    /// restarts' scratch.
    pub fn held_bytes(&self) -> usize {
        self.generic.arena_bytes()
            + self.found.capacity()
            + self.variant.as_deref().map_or(0, Variant::arena_bytes)
    }

    /// Frees what past searches grew beyond about `keep` bytes, so a solver kept for reuse does
    /// not hold the peak of its deepest search. The next deep search grows it again.
    pub fn release(&mut self, keep: usize) {
        if self.held_bytes() <= keep {
            return;
        }
        let per_level = self.generic.arena_bytes() / self.generic.levels().max(1);
        self.generic.shrink_levels(keep / per_level.max(1));
        self.found = Vec::new();
        if let Some(variant) = self.variant.as_deref_mut() {
            variant.release(keep.saturating_sub(self.generic.arena_bytes()));
        }
    }

    /// Statistics of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The first solution (deterministic), or `NoSolution`.
    pub fn solve(&mut self, grid: &Grid, control: &mut (impl Control + ?Sized)) -> Result<Grid> {
        let mut out = vec![0u8; self.generic.cell_count()];
        if self.solve_into(grid.cells(), &mut out, control)? {
            Ok(Grid::new(self.shape(), out).expect("a solution is a valid grid"))
        } else {
            Err(Error::NoSolution)
        }
    }

    /// The search of `cells` up to its first solution, told to `tracer` (see
    /// [`super::trace`]): `Ok(true)` when it found one, `Ok(false)` when there is none. The
    /// classic 9x9 grid is searched by the 9x9 engine, as `solve` searches it; every other
    /// classic shape by the generic engine (its single attempt, in the plain order, without
    /// restarts). Under this solver's guess budget; a solver for variant rules is refused with
    /// [`Error::Rules`].
    pub fn trace(
        &mut self,
        cells: &[u8],
        tracer: &mut impl Tracer,
        control: &mut (impl Control + ?Sized),
    ) -> Result<bool> {
        if self.variant.is_some() {
            return Err(Error::Rules(
                "search traces follow the classic engines; variant rules are not traced".into(),
            ));
        }
        if self.use_nine {
            return nine::trace(cells, control, self.max_guesses, &mut self.stats, tracer);
        }
        let mut found = false;
        let attempt = Attempt::only(self.max_guesses);
        let outcome = self.generic.search_traced(
            cells,
            None,
            control,
            attempt,
            |_| {
                found = true;
                Flow::Stop
            },
            tracer,
        );
        self.stats = self.generic.stats();
        outcome?;
        Ok(found)
    }

    /// Writes the first solution of `cells` into `out`; `Ok(false)` when there is none.
    /// `cells` must be `n*n` values in `0..=n` (a [`Grid`]'s cells).
    pub fn solve_into(
        &mut self,
        cells: &[u8],
        out: &mut [u8],
        control: &mut (impl Control + ?Sized),
    ) -> Result<bool> {
        self.solve_into_marked(cells, None, out, control)
    }

    /// [`Solver::solve_into`] of the puzzle `cells` with pencil `marks`: one candidate mask
    /// per cell (bit `d-1` for digit `d`) that every solution keeps to, as
    /// [`crate::core::grid::marks::restrict`] returns them. `None` is `solve_into` itself.
    /// Marks under variant rules are an [`Error::Rules`].
    pub fn solve_into_marked(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        out: &mut [u8],
        control: &mut (impl Control + ?Sized),
    ) -> Result<bool> {
        if let Some(out) = self.nine_out(cells, out) {
            // The 9x9 engine never restarts: it writes its first solution straight into `out`.
            return nine::solve_into(
                cells,
                marks,
                control,
                self.max_guesses,
                &mut self.stats,
                out,
            );
        }
        let mut found = false;
        self.restarting(cells, marks, control, 1, |solution| {
            out.copy_from_slice(solution);
            found = true;
        })?;
        Ok(found)
    }

    /// Counts solutions, stopping at `limit` (`None`: count them all).
    pub fn count(
        &mut self,
        cells: &[u8],
        limit: Option<u64>,
        control: &mut (impl Control + ?Sized),
    ) -> Result<u64> {
        self.count_marked(cells, None, limit, control)
    }

    /// [`Solver::count`] of the puzzle `cells` with pencil `marks` (see
    /// [`Solver::solve_into_marked`]).
    pub fn count_marked(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        limit: Option<u64>,
        control: &mut (impl Control + ?Sized),
    ) -> Result<u64> {
        let mut count = 0u64;
        match limit {
            Some(0) => {}
            // The 9x9 engine never restarts, and counts without writing the solutions out.
            _ if self.use_nine => {
                let limit = limit.unwrap_or(u64::MAX);
                count = nine::count(
                    cells,
                    marks,
                    control,
                    self.max_guesses,
                    &mut self.stats,
                    limit,
                )?;
            }
            // Small limits (uniqueness checks) restart like solve; the solutions seen are kept
            // to count each once, so large limits search once, in the plain order.
            Some(limit) if limit <= MAX_RESTART_LIMIT => {
                self.restarting(cells, marks, control, limit as usize, |_| count += 1)?;
            }
            _ => {
                let limit = limit.unwrap_or(u64::MAX);
                let terms = Attempt::only(self.max_guesses);
                self.search_within(cells, marks, control, terms, |_| {
                    count += 1;
                    if count >= limit {
                        Flow::Stop
                    } else {
                        Flow::Continue
                    }
                })?;
            }
        }
        Ok(count)
    }

    /// Up to `limit` distinct solutions; the first is [`Solver::solve`]'s.
    pub fn solutions(
        &mut self,
        grid: &Grid,
        limit: usize,
        control: &mut (impl Control + ?Sized),
    ) -> Result<Vec<Grid>> {
        self.solutions_marked(grid, None, limit, control)
    }

    /// [`Solver::solutions`] of the puzzle `grid` with pencil `marks` (see
    /// [`Solver::solve_into_marked`]).
    pub fn solutions_marked(
        &mut self,
        grid: &Grid,
        marks: Option<&[u64]>,
        limit: usize,
        control: &mut (impl Control + ?Sized),
    ) -> Result<Vec<Grid>> {
        let mut found = Vec::new();
        let shape = self.shape();
        self.restarting(grid.cells(), marks, control, limit, |solution| {
            found.push(Grid::new(shape, solution.to_vec()).expect("a solution is a valid grid"));
        })?;
        Ok(found)
    }

    /// Calls `on_new` once for each distinct solution until `limit` have been seen, searching
    /// with restarts: first in the plain order, then, when a budget of nodes runs out, again with
    /// ties and digit order perturbed by the attempt number, under budgets that follow the Luby
    /// sequence. Big grids far from unique have heavy-tailed search times (one early wrong
    /// digit can hide an unsatisfiable subtree of millions of nodes); a restart escapes it.
    /// An attempt that finishes within its budget has seen every solution, so counts and "no
    /// solution" stay exact; the attempt order is fixed, so results are deterministic. 9x9
    /// puzzles never need a second attempt.
    fn restarting(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        control: &mut (impl Control + ?Sized),
        limit: usize,
        mut on_new: impl FnMut(&[u8]),
    ) -> Result<()> {
        if limit == 0 {
            return Ok(());
        }
        // One attempt never sees a solution twice, so only solutions of earlier attempts are
        // hashed; the current attempt's go into a reused buffer. A search that ends within its
        // first attempt (every 9x9 one) allocates nothing here.
        let nc = self.generic.cell_count();
        let mut earlier: HashSet<Vec<u8>> = HashSet::new();
        let mut current = std::mem::take(&mut self.found);
        let mut total = SearchStats::default();
        let mut budget = self.restarts.first;
        for attempt in 0.. {
            current.clear();
            let mut distinct = earlier.len();
            let terms = Attempt {
                seed: attempt,
                node_budget: budget,
                guesses: GuessBudget {
                    max: self.max_guesses,
                    spent_before: total.guesses,
                },
            };
            let outcome = self.search_within(cells, marks, control, terms, |solution| {
                if earlier.is_empty() || !earlier.contains(solution) {
                    current.extend_from_slice(solution);
                    distinct += 1;
                    on_new(solution);
                }
                if distinct >= limit {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            });
            total.add(self.stats);
            self.stats = total;
            let out_of_budget = match outcome {
                Ok(out) => out,
                Err(err) => {
                    self.found = current;
                    return Err(err);
                }
            };
            if !out_of_budget || distinct >= limit {
                self.found = current;
                return Ok(());
            }
            earlier.extend(current.chunks(nc).map(<[u8]>::to_vec));
            budget = self.restarts.unit.saturating_mul(luby(attempt + 1));
        }
        unreachable!("the budgets grow until an attempt completes")
    }

    /// `out` as the 9x9 engine's output buffer, when searches go to that engine.
    fn nine_out<'a>(&self, cells: &[u8], out: &'a mut [u8]) -> Option<&'a mut [u8; 81]> {
        if !self.use_nine {
            return None;
        }
        assert_eq!(cells.len(), 81, "cells must match the solver's shape");
        Some(out.try_into().expect("out must hold one value per cell"))
    }

    /// Depth-first search calling `visit` on each solution until it says `Stop`.
    /// Conflicting givens are an `Error::Conflict` naming both cells.
    pub fn search(
        &mut self,
        cells: &[u8],
        control: &mut (impl Control + ?Sized),
        visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<()> {
        let terms = Attempt::only(self.max_guesses);
        self.search_within(cells, None, control, terms, visit)
            .map(|_| ())
    }

    /// One attempt on whichever engine fits: `Ok(true)` when it ran out of nodes.
    fn search_within(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        control: &mut (impl Control + ?Sized),
        attempt: Attempt,
        visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<bool> {
        assert_eq!(
            cells.len(),
            self.generic.cell_count(),
            "cells must match the solver's shape"
        );
        if self.use_nine {
            // The 9x9 engine finishes any puzzle long before a node budget would matter.
            // It never restarts, so the whole guess budget is its own.
            nine::search(
                cells,
                marks,
                control,
                self.max_guesses,
                &mut self.stats,
                visit,
            )?;
            return Ok(false);
        }
        if let Some(variant) = self.variant.as_deref_mut() {
            if marks.is_some() {
                return Err(Error::Rules(
                    "pencil-mark puzzles are searched under classic rules only".into(),
                ));
            }
            let outcome = variant.search(cells, control, attempt, visit);
            self.stats = variant.stats();
            return outcome;
        }
        let outcome = self.generic.search(cells, marks, control, attempt, visit);
        self.stats = self.generic.stats();
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::{parse, to_line};
    use crate::core::search::Unbounded;

    fn solve_line(line: &str) -> String {
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        to_line(solver.solve(&grid, &mut Unbounded).unwrap().cells())
    }

    #[test]
    fn release_frees_a_deep_arena_and_the_solver_still_works() {
        let shape = BoxShape::new(5, 5).unwrap();
        let empty = Grid::new(shape, vec![0; 625]).unwrap();
        let mut solver = Solver::new(shape);
        let first = solver.solve(&empty, &mut Unbounded).unwrap();
        let grown = solver.held_bytes();
        assert!(grown > 64 * 1024, "an empty 25x25 grows the arena: {grown}");
        solver.release(16 * 1024);
        assert!(solver.held_bytes() <= 16 * 1024, "{}", solver.held_bytes());
        assert_eq!(solver.solve(&empty, &mut Unbounded).unwrap(), first);
    }

    #[test]
    fn empty_big_grids_fill_within_the_first_attempt() {
        for (rows, cols) in [(5, 5), (6, 6), (7, 7), (8, 8)] {
            let shape = BoxShape::new(rows, cols).unwrap();
            let empty = Grid::new(shape, vec![0; shape.cell_count()]).unwrap();
            let mut solver = Solver::new(shape);
            let filled = solver.solve(&empty, &mut Unbounded).unwrap();
            assert!(empty.is_solved_by(&filled));
            let nodes = solver.stats().nodes;
            assert!(
                nodes <= solver.restarts.first,
                "{}x{}: {nodes} nodes, first budget {}",
                shape.size(),
                shape.size(),
                solver.restarts.first
            );
        }
    }

    /// Each cell's marks as a sukaku writes a classic puzzle: a given is its digit alone, an
    /// empty cell every digit no given peer holds.
    fn marks_of(grid: &Grid) -> Vec<u64> {
        let n = grid.size();
        let shape = grid.shape();
        (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                match grid.get(r, c) {
                    0 => (0..n * n)
                        .filter(|&o| {
                            let (r2, c2) = (o / n, o % n);
                            r2 == r || c2 == c || shape.box_index(r2, c2) == shape.box_index(r, c)
                        })
                        .fold(u64::MAX >> (64 - n), |m, o| match grid.get(o / n, o % n) {
                            0 => m,
                            v => m & !(1 << (v - 1)),
                        }),
                    v => 1 << (v - 1),
                }
            })
            .collect()
    }

    #[test]
    fn pencil_marks_of_a_puzzle_are_the_same_puzzle_on_every_engine() {
        let nine = include_str!("../../../tests/data/puzzles6_forum_hardest_1106");
        let sixteen = include_str!("../../../tests/data/gen_16x16");
        let lines = nine.lines().take(20).chain(sixteen.lines().take(3));
        for line in lines {
            let grid = parse(line, None).unwrap();
            let marks = marks_of(&grid);
            let blank = Grid::new(grid.shape(), vec![0; grid.cells().len()]).unwrap();
            let mut engines = vec![Solver::generic(grid.shape())];
            if grid.size() == 9 {
                engines.push(Solver::new(grid.shape()));
            }
            for solver in &mut engines {
                let plain = solver.solutions(&grid, 2, &mut Unbounded).unwrap();
                let marked = solver
                    .solutions_marked(&blank, Some(&marks), 2, &mut Unbounded)
                    .unwrap();
                assert_eq!(plain, marked, "{line}");
                let count = solver
                    .count_marked(blank.cells(), Some(&marks), Some(2), &mut Unbounded)
                    .unwrap();
                assert_eq!(count, plain.len() as u64, "{line}");
                let mut out = vec![0; blank.cells().len()];
                assert!(solver
                    .solve_into_marked(blank.cells(), Some(&marks), &mut out, &mut Unbounded)
                    .unwrap());
                assert_eq!(out, plain[0].cells(), "{line}");
            }
        }
    }

    #[test]
    fn pencil_marks_narrow_an_empty_grid_and_can_leave_no_solution() {
        for shape in [BoxShape::CLASSIC, BoxShape::new(2, 3).unwrap()] {
            let n = shape.size();
            let blank = Grid::new(shape, vec![0; n * n]).unwrap();
            let all = u64::MAX >> (64 - n);
            // Row 0 may hold only 1 and 2 in its first two cells: two ways, times the rest.
            let mut marks = vec![all; n * n];
            marks[0] = 0b11;
            marks[1] = 0b11;
            for m in &mut marks[2..n] {
                *m = all & !0b11;
            }
            for mut solver in [Solver::new(shape), Solver::generic(shape)] {
                let found = solver
                    .solutions_marked(&blank, Some(&marks), 50, &mut Unbounded)
                    .unwrap();
                assert_eq!(found.len(), 50);
                for g in &found {
                    assert!(blank.is_solved_by(g));
                    assert!(g
                        .cells()
                        .iter()
                        .zip(&marks)
                        .all(|(&v, &m)| m >> (v - 1) & 1 == 1));
                }
                // Three cells of one row sharing two digits: no solution.
                let mut none = marks.clone();
                none[2] = 0b11;
                let count = solver
                    .count_marked(blank.cells(), Some(&none), None, &mut Unbounded)
                    .unwrap();
                assert_eq!(count, 0);
            }
        }
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn restarted_searches_stay_deterministic_and_exact() {
        // A 25x25 from the generated set that needs restarts (over the first budget of nodes).
        let line = include_str!("../../../tests/data/gen_25x25")
            .lines()
            .next()
            .unwrap();
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let first = solver.solve(&grid, &mut Unbounded).unwrap();
        assert!(
            solver.stats().nodes > solver.restarts.first,
            "this puzzle should need a restart"
        );
        assert!(grid.is_solved_by(&first));
        assert_eq!(solver.solve(&grid, &mut Unbounded).unwrap(), first);
        let two = solver.solutions(&grid, 2, &mut Unbounded).unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[0], first);
        assert_ne!(two[0], two[1]);
        assert!(two.iter().all(|g| grid.is_solved_by(g)));
    }

    #[test]
    fn a_16x16_restart_starts_with_fresh_weights() {
        // Line 667 of ../shared/data/gen_16x16 (made by this project's generator): its first
        // attempt runs out of nodes. With the weights of that attempt carried into the next
        // ones, counting it to 2 took 52,035 nodes; started afresh, the second attempt
        // finishes it in under 30 nodes (see WEIGHTS_KEPT_FROM in generic.rs).
        let line = "24.3C6...F..59GE.F18.432.E..C....E........B.A..4D6CB..G9.4..17.....53......GB4\
                    ......BD.4..58G6..6.GC..5E4.....124..AG....2...E..3.2F....81....6.81.E..F..5.9\
                    ...C.....56....278....9....8.C.D......4..G...3...5985.E9.........A.BC.6DE..5..\
                    ..F1..1...4B....9E.CD.";
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let count = solver.count(grid.cells(), Some(2), &mut Unbounded).unwrap();
        let nodes = solver.stats().nodes;
        assert_eq!(count, 2);
        assert!(
            nodes > solver.restarts.first,
            "this puzzle should need a restart"
        );
        assert!(nodes < 30_000, "{nodes} nodes");
    }

    #[test]
    fn solves_the_tutorial_puzzle() {
        let rows = "31.5784.2/.29.3...8/4..629.31/2.3.1..8./.7.863..5/8.1.9.6../13....25./692.5..74/7..2.63..";
        let solution = solve_line(&rows.replace('/', ""));
        assert!(
            solution.starts_with("316578492529134768487629531"),
            "{solution}"
        );
    }

    #[test]
    fn solves_leetcode_37() {
        let board =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert_eq!(
            solve_line(board),
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
    }

    #[test]
    fn counts_stop_at_the_limit_and_find_none_when_unsolvable() {
        let empty = parse(&".".repeat(81), None).unwrap();
        let mut solver = Solver::new(empty.shape());
        assert_eq!(
            solver
                .count(empty.cells(), Some(7), &mut Unbounded)
                .unwrap(),
            7
        );
        // 4x4 Latin squares with 2x2 boxes: exactly 288 of them.
        let empty4 = parse(&".".repeat(16), None).unwrap();
        let mut solver4 = Solver::new(empty4.shape());
        assert_eq!(
            solver4.count(empty4.cells(), None, &mut Unbounded).unwrap(),
            288
        );
        // Consistent givens with no completion: row 0 needs a 9 that column 8 forbids... built
        // so that cell (0, 8) has no candidate.
        let mut line = String::from("12345678.");
        line.push_str("........9");
        line.push_str(&".".repeat(63));
        let grid = parse(&line, None).unwrap();
        assert_eq!(solver.solve(&grid, &mut Unbounded), Err(Error::NoSolution));
        assert_eq!(solver.count(grid.cells(), None, &mut Unbounded).unwrap(), 0);
    }

    #[test]
    fn solutions_are_distinct_and_start_with_the_first() {
        let empty = parse(&".".repeat(36), Some((2, 3))).unwrap();
        let mut solver = Solver::new(empty.shape());
        let first = solver.solve(&empty, &mut Unbounded).unwrap();
        let all = solver.solutions(&empty, 20, &mut Unbounded).unwrap();
        assert_eq!(all.len(), 20);
        assert_eq!(all[0], first);
        for (i, a) in all.iter().enumerate() {
            assert!(a.is_solved());
            assert!(all[i + 1..].iter().all(|b| b != a));
        }
    }

    #[test]
    fn reports_conflicting_givens() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "5");
        line.replace_range(4..5, "5");
        let grid = parse(&line, None).unwrap();
        let err = Solver::new(grid.shape())
            .solve(&grid, &mut Unbounded)
            .unwrap_err();
        assert!(matches!(err, Error::Conflict { value: 5, .. }), "{err}");
    }

    #[test]
    fn control_can_interrupt() {
        struct StopAt(u64);
        impl Control for StopAt {
            fn proceed(&mut self, stats: &SearchStats) -> bool {
                stats.nodes < self.0
            }
        }
        let empty = parse(&".".repeat(256), None).unwrap();
        let mut solver = Solver::new(empty.shape());
        let result = solver.count(empty.cells(), None, &mut StopAt(5000));
        assert_eq!(result, Err(Error::Interrupted));
    }

    #[test]
    fn a_guess_budget_allows_exactly_that_many_guesses() {
        // A forum-hardest puzzle: it needs guessing on every engine.
        let line = include_str!("../../../tests/data/puzzles6_forum_hardest_1106")
            .lines()
            .next()
            .unwrap();
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let solution = solver.solve(&grid, &mut Unbounded).unwrap();
        let needed = solver.stats().guesses;
        assert!(needed > 1, "this puzzle should need guesses");
        solver.set_max_guesses(Some(needed));
        assert_eq!(solver.solve(&grid, &mut Unbounded).unwrap(), solution);
        solver.set_max_guesses(Some(needed - 1));
        assert_eq!(
            solver.solve(&grid, &mut Unbounded),
            Err(Error::GuessLimit {
                max_guesses: needed - 1
            })
        );
        assert_eq!(solver.stats().guesses, needed - 1);
        solver.set_max_guesses(None);
        assert_eq!(solver.solve(&grid, &mut Unbounded).unwrap(), solution);
    }

    #[test]
    fn variant_restarts_keep_counts_exact_and_results_fixed() {
        use crate::core::rules::Spec;
        let shape = BoxShape::new(2, 3).unwrap();
        let specs = [
            Spec {
                non_consecutive: true,
                ..Spec::default()
            },
            Spec {
                anti_knight: true,
                ..Spec::default()
            },
        ];
        for spec in specs {
            let rules = Arc::new(Rules::new(spec).unwrap());
            let mut plain = Solver::with_rules(shape, rules.clone()).unwrap();
            assert_eq!(plain.restarts.first, u64::MAX, "no restarts below 16x16");
            let mut restarting = Solver::with_rules(shape, rules).unwrap();
            // Budgets far below what the searches need, so every call restarts many times.
            restarting.restarts = Restarts { first: 3, unit: 2 };
            let cells = vec![0u8; 36];
            let empty = Grid::new(shape, cells.clone()).unwrap();
            let all = plain.count(&cells, None, &mut Unbounded).unwrap();
            assert!(all > 2, "{all}");
            for limit in [1, 2, all.min(MAX_RESTART_LIMIT), all + 1] {
                let got = restarting
                    .count(&cells, Some(limit), &mut Unbounded)
                    .unwrap();
                assert_eq!(got, limit.min(all));
                if limit <= MAX_RESTART_LIMIT {
                    // The plain search needs more nodes than the first budget, so the
                    // restarting one cannot have finished within its first attempt.
                    plain.count(&cells, Some(limit), &mut Unbounded).unwrap();
                    assert!(
                        plain.stats().nodes > restarting.restarts.first,
                        "it restarted"
                    );
                }
            }
            let some = restarting.solutions(&empty, 5, &mut Unbounded).unwrap();
            assert_eq!(
                restarting.solutions(&empty, 5, &mut Unbounded).unwrap(),
                some
            );
            for (i, a) in some.iter().enumerate() {
                assert!(empty.is_solved_by(a));
                assert!(some[i + 1..].iter().all(|b| b != a));
            }
        }
    }

    #[test]
    fn a_guess_budget_never_passes_for_a_count_or_no_solution() {
        let empty4 = parse(&".".repeat(16), None).unwrap();
        let mut solver = Solver::new(empty4.shape());
        solver.set_max_guesses(Some(10));
        for limit in [None, Some(1000)] {
            assert_eq!(
                solver.count(empty4.cells(), limit, &mut Unbounded),
                Err(Error::GuessLimit { max_guesses: 10 })
            );
        }
        // Stopping at the limit within the budget is an exact answer.
        assert_eq!(solver.count(empty4.cells(), Some(2), &mut Unbounded), Ok(2));
    }

    #[test]
    fn restarts_spend_one_guess_budget() {
        let line = include_str!("../../../tests/data/gen_25x25")
            .lines()
            .next()
            .unwrap();
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let first = solver.solve(&grid, &mut Unbounded).unwrap();
        let needed = solver.stats().guesses;
        assert!(
            solver.stats().nodes > solver.restarts.first,
            "needs a restart"
        );
        assert!(grid.is_solved_by(&first));
        // Below what all attempts together need, but more than the last attempt alone spends:
        // only a budget shared by the attempts runs out.
        let max_guesses = needed - 1;
        solver.set_max_guesses(Some(max_guesses));
        assert_eq!(
            solver.solve(&grid, &mut Unbounded),
            Err(Error::GuessLimit { max_guesses })
        );
        assert_eq!(solver.stats().guesses, max_guesses);
    }

    #[test]
    fn stats_show_singles_only_puzzles_need_no_guess() {
        let grid = parse(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            None,
        )
        .unwrap();
        let mut solver = Solver::new(grid.shape());
        solver.solve(&grid, &mut Unbounded).unwrap();
        assert_eq!(solver.stats().guesses, 0);
        assert_eq!(solver.stats().nodes, 1);
    }
}
