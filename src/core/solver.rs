//! The generic search engine for any box shape up to 64x64.
//!
//! State is a row-major cell array plus one "digits used" bitmask per unit (row, column, box);
//! a cell's candidates are the digits no unit of it uses. Before every guess the engine fills
//! naked singles (a cell with one candidate) and hidden singles (a digit with one place in a
//! unit) to a fixed point, then branches on the cell with the fewest candidates, trying digits
//! low to high so the first solution is always the same one.
//!
//! Guessing copies the current state into the next level of an arena owned by the `Solver`;
//! backtracking is moving back a level. The arena grows to the deepest level ever reached and is
//! reused, so a warmed-up solver allocates nothing per search step or per puzzle.

use std::collections::HashSet;

use super::error::{Error, Result};
use super::grid::{find_conflict, Grid};
use super::nine;
use super::shape::{BoxShape, Geometry};

/// Nodes a restarting search's first attempt may use before it restarts. Far more than any 9x9
/// puzzle needs, so restarts only ever happen on big grids.
const FIRST_BUDGET: u64 = 20_000;

/// The smallest grid side on which locked candidates run. On 9x9 the pass costs more than the
/// guesses it saves (measured with benches/bench.py: hardest-1905 count-to-2 went from 1,898/s
/// without to 1,334/s with); on 16x16 and up it is what keeps big grids tractable.
const LOCKED_CANDIDATES_FROM: usize = 16;

/// Count limits up to this use restarts (they keep the solutions seen).
const MAX_RESTART_LIMIT: u64 = 64;

/// The unit of the restart budgets after the first attempt, scaled by the Luby sequence.
const RESTART_UNIT: u64 = 4_000;

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (1-based): the restart schedule that is within a
/// log factor of the best fixed budget without knowing it.
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let k = 64 - i.leading_zeros() as u64; // 2^(k-1) <= i < 2^k
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A fixed 64-bit mix (splitmix64's finaliser), for restart perturbations.
fn mix(seed: u64, value: u64) -> u64 {
    let mut z =
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ value.wrapping_add(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How many search nodes pass between calls of [`Control::proceed`].
const POLL_INTERVAL: u64 = 1024;

/// A hook the search calls every `POLL_INTERVAL` nodes: return `false` to stop it
/// (Ctrl-C, a time or guess budget). The search then returns [`Error::Interrupted`].
pub trait Control {
    fn proceed(&mut self, stats: &SearchStats) -> bool;
}

/// Never stops the search.
pub struct Unbounded;

impl Control for Unbounded {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        true
    }
}

/// What a search did, so a caller can see how hard a puzzle was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// States propagated: the start plus one per guess.
    pub nodes: u64,
    /// Digits tried in a cell that had two or more candidates.
    pub guesses: u64,
    /// Guesses (or the start) that propagation proved wrong.
    pub dead_ends: u64,
}

/// What to branch on: whichever has the fewest alternatives.
#[derive(Clone, Copy)]
enum Choice {
    /// The digits of one cell; the untried mask holds digits.
    Cell(usize),
    /// The cells of one unit where a digit can go; the untried mask holds positions in the unit.
    /// On big grids a digit with two places is often tighter than any cell.
    Place { unit: usize, bit: u64 },
}

/// The result of propagating one state to its fixed point.
enum Step {
    Contradiction,
    Solved,
    /// Branch on this choice, trying these alternatives (a bitmask).
    Branch(Choice, u64),
}

/// A branching point: the choice at this level and the alternatives not tried yet.
#[derive(Clone, Copy)]
struct Frame {
    choice: Choice,
    untried: u64,
}

/// Whether the caller wants more solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// A reusable solver for one box shape. Not `Sync`; make one per thread.
pub struct Solver {
    geo: Geometry,
    full: u64,
    /// Level k's cells live at `cells[k * ncells..]`, its unit masks at `used[k * 3n..]`.
    cells: Vec<u8>,
    used: Vec<u64>,
    /// Per cell, digits ruled out by locked candidates (beyond what its units use).
    elim: Vec<u64>,
    empties: Vec<usize>,
    frames: Vec<Frame>,
    /// Scratch for locked candidates: one mask per row segment and per column segment.
    segments: Vec<u64>,
    stats: SearchStats,
    /// 0 for the plain search order; a restart's attempt number otherwise.
    seed: u64,
    /// Scratch: the solutions found by the current restart attempt, back to back.
    found: Vec<u8>,
    /// Classic 9x9 searches go to the dedicated engine in `nine.rs`.
    use_nine: bool,
    /// The most guesses one call may make, over all its restart attempts (`None`: no limit).
    max_guesses: Option<u64>,
    /// Guesses made by the earlier restart attempts of the current call.
    guesses_before: u64,
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
        let geo = Geometry::new(shape);
        let n = geo.size;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Solver {
            cells: vec![0; geo.cells],
            used: vec![0; 3 * n],
            elim: vec![0; geo.cells],
            segments: vec![0; 2 * n * n],
            seed: 0,
            found: Vec::new(),
            empties: vec![0],
            frames: Vec::new(),
            stats: SearchStats::default(),
            max_guesses: None,
            guesses_before: 0,
            geo,
            full,
            use_nine: false,
        }
    }

    /// Limits every later call (`solve`, `count`, `solutions`, `search`) to `max_guesses`
    /// guesses; a call that needs more returns [`Error::GuessLimit`]. `None` removes the limit.
    pub fn set_max_guesses(&mut self, max_guesses: Option<u64>) {
        self.max_guesses = max_guesses;
    }

    /// The guess budget, the one place it is checked: called just before each guess, it counts
    /// the guess or refuses it. Any engine plugged into `Solver` calls this per guess too.
    #[inline]
    fn spend_guess(&mut self) -> Result<()> {
        if let Some(max_guesses) = self.max_guesses {
            if self.guesses_before + self.stats.guesses >= max_guesses {
                return Err(Error::GuessLimit { max_guesses });
            }
        }
        self.stats.guesses += 1;
        Ok(())
    }

    pub fn shape(&self) -> BoxShape {
        self.geo.shape
    }

    /// Statistics of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The first solution (deterministic), or `NoSolution`.
    pub fn solve(&mut self, grid: &Grid, control: &mut (impl Control + ?Sized)) -> Result<Grid> {
        let mut out = vec![0u8; self.geo.cells];
        if self.solve_into(grid.cells(), &mut out, control)? {
            Ok(Grid::new(self.geo.shape, out).expect("a solution is a valid grid"))
        } else {
            Err(Error::NoSolution)
        }
    }

    /// Writes the first solution of `cells` into `out`; `Ok(false)` when there is none.
    /// `cells` must be `n*n` values in `0..=n` (a [`Grid`]'s cells).
    pub fn solve_into(
        &mut self,
        cells: &[u8],
        out: &mut [u8],
        control: &mut (impl Control + ?Sized),
    ) -> Result<bool> {
        let mut found = false;
        self.restarting(cells, control, 1, |solution| {
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
        let mut count = 0u64;
        match limit {
            Some(0) => {}
            // Small limits (uniqueness checks) restart like solve; the solutions seen are kept
            // to count each once, so large limits search once, in the plain order.
            Some(limit) if limit <= MAX_RESTART_LIMIT => {
                self.restarting(cells, control, limit as usize, |_| count += 1)?;
            }
            _ => {
                let limit = limit.unwrap_or(u64::MAX);
                self.search(cells, control, |_| {
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
        let mut found = Vec::new();
        let shape = self.geo.shape;
        self.restarting(grid.cells(), control, limit, |solution| {
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
        let nc = self.geo.cells;
        let mut earlier: HashSet<Vec<u8>> = HashSet::new();
        let mut current = std::mem::take(&mut self.found);
        let mut total = SearchStats::default();
        let mut budget = FIRST_BUDGET;
        for attempt in 0.. {
            self.seed = attempt;
            self.guesses_before = total.guesses;
            current.clear();
            let mut distinct = earlier.len();
            let outcome = self.search_within(cells, control, budget, |solution| {
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
            self.seed = 0;
            self.guesses_before = 0;
            total.nodes += self.stats.nodes;
            total.guesses += self.stats.guesses;
            total.dead_ends += self.stats.dead_ends;
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
            budget = RESTART_UNIT.saturating_mul(luby(attempt + 1));
        }
        unreachable!("the budgets grow until an attempt completes")
    }

    /// Depth-first search calling `visit` on each solution until it says `Stop`.
    /// Conflicting givens are an `Error::Conflict` naming both cells.
    pub fn search(
        &mut self,
        cells: &[u8],
        control: &mut (impl Control + ?Sized),
        visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<()> {
        self.search_within(cells, control, u64::MAX, visit)
            .map(|_| ())
    }

    /// [`Solver::search`] that gives up after `budget` nodes: `Ok(true)` when it did.
    fn search_within(
        &mut self,
        cells: &[u8],
        control: &mut (impl Control + ?Sized),
        budget: u64,
        mut visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<bool> {
        let nc = self.geo.cells;
        let nu = 3 * self.geo.size;
        assert_eq!(cells.len(), nc, "cells must match the solver's shape");
        if self.use_nine {
            // The 9x9 engine finishes any puzzle long before a budget would matter.
            // It never restarts, so the whole budget is its own.
            nine::search(cells, control, self.max_guesses, &mut self.stats, visit)?;
            return Ok(false);
        }
        self.stats = SearchStats::default();
        self.frames.clear();
        self.load(cells)?;

        let mut level = 0usize;
        let mut step = self.propagate(0);
        loop {
            self.stats.nodes += 1;
            if self.stats.nodes % POLL_INTERVAL == 0 && !control.proceed(&self.stats) {
                return Err(Error::Interrupted);
            }
            if self.stats.nodes > budget {
                return Ok(true);
            }
            match step {
                Step::Solved => {
                    if visit(&self.cells[level * nc..(level + 1) * nc]) == Flow::Stop {
                        return Ok(false);
                    }
                }
                Step::Contradiction => self.stats.dead_ends += 1,
                Step::Branch(choice, untried) => {
                    debug_assert_eq!(self.frames.len(), level);
                    self.frames.push(Frame { choice, untried });
                }
            }
            // Take the next untried digit of the deepest open branch into a fresh child level.
            loop {
                let depth = self.frames.len() as u64;
                let Some(frame) = self.frames.last_mut() else {
                    return Ok(false);
                };
                if frame.untried == 0 {
                    self.frames.pop();
                    continue;
                }
                // The lowest alternative, or under a restart the lowest at or above a
                // position drawn from (attempt, depth).
                let mut next = frame.untried & frame.untried.wrapping_neg();
                if self.seed != 0 {
                    let from = mix(self.seed, depth) % 64;
                    let above = frame.untried & (u64::MAX << from);
                    if above != 0 {
                        next = above & above.wrapping_neg();
                    }
                }
                frame.untried ^= next;
                let (cell, bit) = match frame.choice {
                    Choice::Cell(cell) => (cell, next),
                    Choice::Place { unit, bit } => {
                        let n = self.geo.size;
                        let slot = next.trailing_zeros() as usize;
                        (self.geo.unit_cells[unit * n + slot] as usize, bit)
                    }
                };
                self.spend_guess()?;
                let parent = self.frames.len() - 1;
                level = parent + 1;
                self.ensure_levels(level + 1);
                self.cells.copy_within(parent * nc..level * nc, level * nc);
                self.used.copy_within(parent * nu..level * nu, level * nu);
                self.elim.copy_within(parent * nc..level * nc, level * nc);
                self.empties[level] = self.empties[parent];
                self.place(level, cell, bit);
                step = self.propagate(level);
                break;
            }
        }
    }

    fn ensure_levels(&mut self, levels: usize) {
        if self.empties.len() < levels {
            self.cells.resize(levels * self.geo.cells, 0);
            self.used.resize(levels * 3 * self.geo.size, 0);
            self.elim.resize(levels * self.geo.cells, 0);
            self.empties.resize(levels, 0);
        }
    }

    /// Loads the givens into level 0.
    fn load(&mut self, cells: &[u8]) -> Result<()> {
        let nc = self.geo.cells;
        let nu = 3 * self.geo.size;
        self.cells[..nc].copy_from_slice(cells);
        self.used[..nu].fill(0);
        self.elim[..nc].fill(0);
        let mut empties = 0;
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                empties += 1;
                continue;
            }
            let bit = 1u64 << (v - 1);
            for &u in &self.geo.cell_units[i] {
                let mask = &mut self.used[u as usize];
                if *mask & bit != 0 {
                    return Err(find_conflict(self.geo.shape, cells)
                        .expect("a repeated digit in a unit is a conflict"));
                }
                *mask |= bit;
            }
        }
        self.empties[0] = empties;
        Ok(())
    }

    #[inline]
    fn place(&mut self, level: usize, cell: usize, bit: u64) {
        let nu = 3 * self.geo.size;
        self.cells[level * self.geo.cells + cell] = bit.trailing_zeros() as u8 + 1;
        let used = &mut self.used[level * nu..(level + 1) * nu];
        for &u in &self.geo.cell_units[cell] {
            used[u as usize] |= bit;
        }
        self.empties[level] -= 1;
    }

    /// Fills naked and hidden singles at `level` until none is left, then reports a
    /// contradiction, a solution, or the cell with the fewest candidates to branch on.
    fn propagate(&mut self, level: usize) -> Step {
        let geo = &self.geo;
        let (n, nc, nu, full) = (geo.size, geo.cells, 3 * geo.size, self.full);
        let cells = &mut self.cells[level * nc..(level + 1) * nc];
        let used = &mut self.used[level * nu..(level + 1) * nu];
        let elim = &mut self.elim[level * nc..(level + 1) * nc];
        let seed = self.seed;
        let segments = &mut self.segments;
        let empties = &mut self.empties[level];
        let candidates =
            |used: &[u64], elim: &[u64], cell: usize| candidates(geo, full, used, elim, cell);
        let mut place = |cells: &mut [u8], used: &mut [u64], cell: usize, bit: u64| {
            cells[cell] = bit.trailing_zeros() as u8 + 1;
            for &u in &geo.cell_units[cell] {
                used[u as usize] |= bit;
            }
            *empties -= 1;
        };

        loop {
            // Naked singles, noting the most constrained cell in case nothing gets placed.
            let mut placed = false;
            let mut best = (usize::MAX, u32::MAX, 0u64);
            for cell in 0..nc {
                if cells[cell] != 0 {
                    continue;
                }
                let cand = candidates(used, elim, cell);
                if cand == 0 {
                    return Step::Contradiction;
                }
                if cand & (cand - 1) == 0 {
                    place(cells, used, cell, cand);
                    placed = true;
                } else if !placed {
                    // Fewest candidates first; ties go to the first cell, or under a restart
                    // to the one a hash of (attempt, cell) ranks lowest.
                    let count = cand.count_ones();
                    if count < best.1
                        || (seed != 0
                            && count == best.1
                            && mix(seed, cell as u64) < mix(seed, best.0 as u64))
                    {
                        best = (cell, count, cand);
                    }
                }
            }
            if placed {
                if cells.iter().all(|&v| v != 0) {
                    return Step::Solved;
                }
                continue;
            }
            if best.0 == usize::MAX {
                return Step::Solved;
            }

            // Hidden singles: per unit, the digits that are candidates in exactly one cell.
            // Bit-sliced counters (places >= 1, 2, 3, 4) also find a digit with only two or
            // three places: on big grids a better branch than any cell.
            let mut best_place = (u32::MAX, 0usize, 0u64);
            for u in 0..nu {
                let unit = &geo.unit_cells[u * n..(u + 1) * n];
                let (mut once, mut twice, mut thrice, mut four) = (0u64, 0u64, 0u64, 0u64);
                for &cell in unit {
                    if cells[cell as usize] == 0 {
                        let cand = candidates(used, elim, cell as usize);
                        four |= thrice & cand;
                        thrice |= twice & cand;
                        twice |= once & cand;
                        once |= cand;
                    }
                }
                if (once | used[u]) != full {
                    return Step::Contradiction; // a digit with no place left in this unit
                }
                for (places, digits) in [(2, twice & !thrice), (3, thrice & !four)] {
                    if digits != 0 && places < best_place.0 {
                        best_place = (places, u, digits & digits.wrapping_neg());
                    }
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let home = unit
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| cells[c] == 0 && candidates(used, elim, c) & bit != 0);
                    match home {
                        Some(cell) => {
                            place(cells, used, cell, bit);
                            placed = true;
                        }
                        // Another hidden single of this unit took its only cell.
                        None => return Step::Contradiction,
                    }
                }
            }
            if !placed
                && n >= LOCKED_CANDIDATES_FROM
                && locked_candidates(geo, cells, used, elim, full, segments)
            {
                continue;
            }
            if !placed {
                if best_place.0 < best.1 {
                    let (_, u, bit) = best_place;
                    let unit = &geo.unit_cells[u * n..(u + 1) * n];
                    let slots = unit.iter().enumerate().fold(0u64, |acc, (i, &c)| {
                        let open =
                            cells[c as usize] == 0 && candidates(used, elim, c as usize) & bit != 0;
                        acc | (u64::from(open) << i)
                    });
                    return Step::Branch(Choice::Place { unit: u, bit }, slots);
                }
                return Step::Branch(Choice::Cell(best.0), best.2);
            }
        }
    }
}

/// The digits an empty cell can still take: none of its units uses them, and locked
/// candidates did not rule them out.
#[inline]
fn candidates(geo: &Geometry, full: u64, used: &[u64], elim: &[u64], cell: usize) -> u64 {
    let [a, b, c] = geo.cell_units[cell];
    full & !(used[a as usize] | used[b as usize] | used[c as usize] | elim[cell])
}

/// Locked candidates (box-line interactions), for the state of one level: a digit whose places
/// in a box all lie in one row (column) cannot go elsewhere in that row (column) -- "pointing";
/// a digit whose places in a row (column) all lie in one box cannot go elsewhere in that box --
/// "claiming". Records the eliminations in `elim`; returns whether any candidate went.
fn locked_candidates(
    geo: &Geometry,
    cells: &[u8],
    used: &[u64],
    elim: &mut [u64],
    full: u64,
    segments: &mut [u64],
) -> bool {
    let (n, rows, cols) = (geo.size, geo.shape.rows(), geo.shape.cols());
    let state = LineState {
        geo,
        cells,
        used,
        full,
    };
    // Rows: a box spans `rows` rows and cuts each into segments of `cols` cells; columns are
    // the same with the roles swapped. Both tables are taken before any elimination.
    let row_at = |line: usize, pos: usize| line * n + pos;
    let col_at = |line: usize, pos: usize| pos * n + line;
    let (row_seg, col_seg) = segments.split_at_mut(n * n / cols);
    state.segments(elim, row_seg, cols, row_at);
    state.segments(elim, col_seg, rows, col_at);
    let by_rows = state.eliminate(elim, row_seg, cols, rows, row_at);
    let by_cols = state.eliminate(elim, col_seg, rows, cols, col_at);
    by_rows | by_cols
}

/// What locked candidates reads of one level's state.
struct LineState<'a> {
    geo: &'a Geometry,
    cells: &'a [u8],
    used: &'a [u64],
    full: u64,
}

impl LineState<'_> {
    fn candidates(&self, elim: &[u64], cell: usize) -> u64 {
        if self.cells[cell] != 0 {
            return 0;
        }
        candidates(self.geo, self.full, self.used, elim, cell)
    }

    /// `segments[line * (n / seg_len) + s]`: the candidates of segment `s` of each line, where
    /// `at(line, pos)` is the cell at position `pos` of `line` (a row or a column).
    fn segments(
        &self,
        elim: &[u64],
        segments: &mut [u64],
        seg_len: usize,
        at: impl Fn(usize, usize) -> usize,
    ) {
        let n = self.geo.size;
        let per_line = n / seg_len;
        for line in 0..n {
            for s in 0..per_line {
                segments[line * per_line + s] = (s * seg_len..(s + 1) * seg_len)
                    .fold(0, |m, pos| m | self.candidates(elim, at(line, pos)));
            }
        }
    }

    /// Pointing and claiming along one kind of line, from its segment table; a box covers
    /// `span` consecutive lines and `seg_len` consecutive positions of each.
    fn eliminate(
        &self,
        elim: &mut [u64],
        segments: &[u64],
        seg_len: usize,
        span: usize,
        at: impl Fn(usize, usize) -> usize,
    ) -> bool {
        let n = self.geo.size;
        let per_line = n / seg_len;
        let mut changed = false;
        // Removes `digits` from the given cells; notes whether any of them had one.
        let mut strike =
            |elim: &mut [u64], digits: u64, targets: &mut dyn Iterator<Item = usize>| {
                for cell in targets {
                    if self.candidates(elim, cell) & digits != 0 {
                        elim[cell] |= digits;
                        changed = true;
                    }
                }
            };
        for line in 0..n {
            let first = line / span * span; // the first line of this box band
            for s in 0..per_line {
                let seg = segments[line * per_line + s];
                if seg == 0 {
                    continue;
                }
                let rest_box = (first..first + span)
                    .filter(|&other| other != line)
                    .fold(0, |m, other| m | segments[other * per_line + s]);
                let rest_line = (0..per_line)
                    .filter(|&other| other != s)
                    .fold(0, |m, other| m | segments[line * per_line + other]);
                let pointing = seg & !rest_box;
                if pointing != 0 {
                    let mut outside = (0..n)
                        .filter(|&pos| pos / seg_len != s)
                        .map(|pos| at(line, pos));
                    strike(elim, pointing, &mut outside);
                }
                let claiming = seg & !rest_line;
                if claiming != 0 {
                    let mut box_rest = (first..first + span)
                        .filter(|&other| other != line)
                        .flat_map(|other| {
                            (s * seg_len..(s + 1) * seg_len).map(move |pos| (other, pos))
                        })
                        .map(|(other, pos)| at(other, pos));
                    strike(elim, claiming, &mut box_rest);
                }
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::text::{parse, to_line};

    fn solve_line(line: &str) -> String {
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        to_line(solver.solve(&grid, &mut Unbounded).unwrap().cells())
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn restarted_searches_stay_deterministic_and_exact() {
        // A 25x25 from the generated set that needs restarts (over FIRST_BUDGET nodes).
        let line = include_str!("../../tests/data/gen_25x25")
            .lines()
            .next()
            .unwrap();
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let first = solver.solve(&grid, &mut Unbounded).unwrap();
        assert!(
            solver.stats().nodes > FIRST_BUDGET,
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
        let line = include_str!("../../tests/data/puzzles6_forum_hardest_1106")
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
        let line = include_str!("../../tests/data/gen_25x25")
            .lines()
            .next()
            .unwrap();
        let grid = parse(line, None).unwrap();
        let mut solver = Solver::new(grid.shape());
        let first = solver.solve(&grid, &mut Unbounded).unwrap();
        let needed = solver.stats().guesses;
        assert!(solver.stats().nodes > FIRST_BUDGET, "needs a restart");
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
