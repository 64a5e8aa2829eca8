//! The generic search engine for any box shape up to 64x64.
//!
//! State is a row-major cell array plus one "digits used" bitmask per unit (row, column, box);
//! a cell's candidates are the digits no unit of it uses. Before every guess the engine fills
//! naked singles (a cell with one candidate) and hidden singles (a digit with one place in a
//! unit) to a fixed point, on 16x16 and up also locked candidates, and on 25x25 and up an
//! all-different pass (a perfect matching of each unit's open cells to its missing digits; a
//! candidate in no such matching goes). Then it branches on the cell with the fewest
//! candidates (from 10x10 up, per weight: the dead ends its units have caused), or a digit with
//! the fewest places in a unit, trying alternatives low to high so the first solution is always
//! the same one.
//!
//! Guessing copies the current state into the next level of an arena owned by the `Solver`;
//! backtracking is moving back a level. The arena grows to the deepest level ever reached and is
//! reused, so a warmed-up solver allocates nothing per search step or per puzzle.

use super::control::{mix, Attempt, Control, Flow, SearchStats};
use super::depth_first::{self, depth_first, Frame, Levels};
use super::trace::{NoTrace, Tracer};
use crate::core::error::Result;
use crate::core::grid::find_conflict;
use crate::core::grid::shape::{BoxShape, Geometry};

/// The smallest grid side on which locked candidates run. On 9x9 the pass cost more time than
/// the guesses it saved (figures: benches/results/2026-11-22-engine-choices.md); on 16x16 and
/// up it is what keeps big grids tractable.
const LOCKED_CANDIDATES_FROM: usize = 16;

/// The grid sides on which the all-different pass runs (see [`all_different`]). On 25x25 it
/// cuts the search tree several times over, and with it the heavy tail; on 16x16 the tree is
/// small already and the pass cost more time than it saved. From 36x36 on it finds nothing on
/// sparse grids at many times the cost of a node, even behind [`may_hold_a_tight_set`], and
/// there is no set of such puzzles to show it paying. Figures:
/// benches/results/2026-11-23-generic-engine.md, benches/results/2026-11-24-big-grids.md.
const MATCHING_SIDES: std::ops::Range<usize> = 25..36;

/// The smallest grid side whose cell choice is weighed by the dead ends each unit has caused
/// (see [`Generic::propagate`]). It makes counting to 2 faster from 12x12 up, most of all on
/// 25x25, where it cuts the heavy tail, and is level on 8x8 and 10x10. On 9x9, where this
/// engine runs only in comparisons, it saves nodes but not time
/// (benches/results/2026-11-24-generic-weights.md).
const WEIGHED_FROM: usize = 10;

/// The smallest grid side whose weights carry over from one restart attempt to the next, so
/// that a restart starts from where the earlier attempts failed; below it every attempt starts
/// afresh. Big grids restart after a few thousand nodes, and there carrying them over is what
/// cuts gen_25x25's tail. Below 25x25 an attempt runs 20,000 nodes before it restarts (the
/// solver's budgets change at the same side, `BIG_RESTARTS_FROM` in solver.rs; move the two
/// together), and what it learned misleads the next: gen_16x16 counts to 2 faster with the
/// weights reset, and unique 16x16 and 12x12 puzzles, which finish in their first attempt, do
/// not care (benches/results/2026-11-25-generic-16x16.md).
const WEIGHTS_KEPT_FROM: usize = 25;

/// What to branch on: whichever has the fewest alternatives.
#[derive(Clone, Copy)]
pub(crate) enum Choice {
    /// The digits of one cell; the untried mask holds digits.
    Cell(usize),
    /// The cells of one unit where a digit can go; the untried mask holds positions in the unit.
    /// On big grids a digit with two places is often tighter than any cell.
    Place { unit: usize, bit: u64 },
}

type Step = depth_first::Step<Choice>;

/// The generic engine's state for one box shape, reused across searches.
pub(crate) struct Generic {
    geo: Geometry,
    full: u64,
    /// Level k's cells live at `cells[k * ncells..]`, its unit masks at `used[k * 3n..]`.
    cells: Vec<u8>,
    used: Vec<u64>,
    /// Per cell, digits ruled out by locked candidates (beyond what its units use).
    elim: Vec<u64>,
    empties: Vec<usize>,
    frames: Vec<Frame<Choice>>,
    /// Scratch for locked candidates: one mask per row segment and per column segment.
    segments: Vec<u64>,
    /// The current attempt's seed (see [`Attempt::seed`]).
    seed: u64,
    /// Whether propagation ends with the all-different pass (see [`MATCHING_SIDES`]).
    matching: bool,
    /// Per unit, one more than the dead ends found in it during this call's attempts; empty
    /// when the cell choice is not weighed (see [`Generic::propagate`]).
    weights: Vec<u32>,
    stats: SearchStats,
}

impl Generic {
    pub(crate) fn new(shape: BoxShape) -> Self {
        let geo = Geometry::new(shape);
        let n = geo.size;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Generic {
            cells: vec![0; geo.cells],
            used: vec![0; 3 * n],
            elim: vec![0; geo.cells],
            segments: vec![0; 2 * n * n],
            empties: vec![0],
            frames: Vec::new(),
            seed: 0,
            matching: MATCHING_SIDES.contains(&n),
            weights: if n >= WEIGHED_FROM {
                vec![1; 3 * n]
            } else {
                Vec::new()
            },
            stats: SearchStats::default(),
            geo,
            full,
        }
    }

    pub(crate) fn shape(&self) -> BoxShape {
        self.geo.shape
    }

    /// Levels the arena has grown to (the deepest search so far, plus one).
    pub(crate) fn levels(&self) -> usize {
        self.empties.len()
    }

    pub(crate) fn cell_count(&self) -> usize {
        self.geo.cells
    }

    /// What the last search did.
    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Depth-first search calling `visit` on each solution until it says `Stop`, within the
    /// attempt's budgets: `Ok(true)` when the node budget ran out first.
    /// Conflicting givens are an `Error::Conflict` naming both cells.
    /// `marks`, when given, holds one candidate mask per cell that the solutions must keep to
    /// (a puzzle given as pencil marks).
    pub(crate) fn search(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        control: &mut (impl Control + ?Sized),
        attempt: Attempt,
        visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<bool> {
        self.search_traced(cells, marks, control, attempt, visit, &mut NoTrace)
    }

    /// [`Generic::search`], telling `tracer` every placement, guess, backtrack and dead end
    /// as it happens. The tracer is a type parameter, so the untraced search (with
    /// [`NoTrace`], whose methods are empty) compiles to the same code as before tracing
    /// existed.
    pub(crate) fn search_traced<T: Tracer>(
        &mut self,
        cells: &[u8],
        marks: Option<&[u64]>,
        control: &mut (impl Control + ?Sized),
        attempt: Attempt,
        visit: impl FnMut(&[u8]) -> Flow,
        tracer: &mut T,
    ) -> Result<bool> {
        assert_eq!(
            cells.len(),
            self.geo.cells,
            "cells must match the solver's shape"
        );
        self.stats = SearchStats::default();
        self.seed = attempt.seed;
        self.frames.clear();
        // From 25x25 up the weights carry over from one restart to the next of the same call
        // (see [`WEIGHTS_KEPT_FROM`]): reset at every attempt, or halved, the slowest puzzles
        // of gen_25x25 take longer (benches/results/2026-11-24-generic-weights.md).
        if attempt.seed == 0 || self.geo.size < WEIGHTS_KEPT_FROM {
            self.weights.fill(1);
        }
        self.load(cells)?;
        if let Some(marks) = marks {
            // What the marks leave out is ruled out from the start, as locked candidates rule
            // digits out: every level below copies it.
            assert_eq!(marks.len(), self.geo.cells, "one mask per cell");
            for (elim, &m) in self.elim[..self.geo.cells].iter_mut().zip(marks) {
                *elim = self.full & !m;
            }
        }

        let step = self.propagate(0, tracer);
        depth_first(self, step, control, attempt, visit, tracer)
    }

    /// Bytes the search arena holds (every level grown so far, and the branch stack).
    pub(crate) fn arena_bytes(&self) -> usize {
        self.cells.capacity()
            + 8 * (self.used.capacity() + self.elim.capacity() + self.empties.capacity())
            + size_of::<Frame<Choice>>() * self.frames.capacity()
    }

    /// Frees the arena's levels past the first `levels` (at least one stays): a deep search on
    /// a big grid grows it to hundreds of MiB, which a cached solver should not keep.
    pub(crate) fn shrink_levels(&mut self, levels: usize) {
        let levels = levels.clamp(1, self.empties.len());
        let (nc, nu) = (self.geo.cells, 3 * self.geo.size);
        self.cells.truncate(levels * nc);
        self.used.truncate(levels * nu);
        self.elim.truncate(levels * nc);
        self.empties.truncate(levels);
        self.frames.clear();
        self.cells.shrink_to_fit();
        self.used.shrink_to_fit();
        self.elim.shrink_to_fit();
        self.empties.shrink_to_fit();
        self.frames.shrink_to_fit();
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
    ///
    /// On grids from [`WEIGHED_FROM`] up the cell is the one with the fewest candidates per
    /// weight, a cell's weight being the sum of its three units' (dom/wdeg): a unit gains one
    /// each time a dead end is found in it (a cell of it without candidates, a digit without a
    /// place in it, two hidden singles wanting one cell). The search then branches where the
    /// puzzle has been failing, which proves a wrong early digit wrong in fewer nodes; the
    /// weights are kept across a call's restarts. A unit without a perfect matching (the
    /// all-different pass) adds nothing: the pass reports the first such unit in index order,
    /// so weighing it would favour rows over where the puzzle fails
    /// (benches/results/2026-11-24-generic-weights.md).
    fn propagate<T: Tracer>(&mut self, level: usize, tracer: &mut T) -> Step {
        let geo = &self.geo;
        let (n, nc, nu, full) = (geo.size, geo.cells, 3 * geo.size, self.full);
        let cells = &mut self.cells[level * nc..(level + 1) * nc];
        let used = &mut self.used[level * nu..(level + 1) * nu];
        let elim = &mut self.elim[level * nc..(level + 1) * nc];
        let (seed, matching) = (self.seed, self.matching);
        let segments = &mut self.segments;
        let empties = &mut self.empties[level];
        let weights = &mut self.weights;
        let weighed = !weights.is_empty();
        let candidates =
            |used: &[u64], elim: &[u64], cell: usize| candidates(geo, full, used, elim, cell);
        let mut place = |cells: &mut [u8], used: &mut [u64], cell: usize, bit: u64| {
            cells[cell] = bit.trailing_zeros() as u8 + 1;
            tracer.place(cell, cells[cell]);
            for &u in &geo.cell_units[cell] {
                used[u as usize] |= bit;
            }
            *empties -= 1;
        };

        loop {
            // Naked singles, noting the most constrained cell in case nothing gets placed.
            let mut placed = false;
            // (cell, candidates, their mask, the weight of its units)
            let mut best = (usize::MAX, u32::MAX, 0u64, 1u64);
            for cell in 0..nc {
                if cells[cell] != 0 {
                    continue;
                }
                let cand = candidates(used, elim, cell);
                if cand == 0 {
                    for &u in &geo.cell_units[cell] {
                        blame(weights, u as usize);
                    }
                    return Step::Contradiction;
                }
                if cand & (cand - 1) == 0 {
                    place(cells, used, cell, cand);
                    placed = true;
                } else if !placed {
                    // Fewest candidates first; ties go to the first cell, or under a restart
                    // to the one a hash of (attempt, cell) ranks lowest.
                    let count = cand.count_ones();
                    // Weighed: the fewest candidates per weight, count / w < best / best_w.
                    let w = if weighed {
                        let [a, b, c] = geo.cell_units[cell];
                        let w = |u: u16| u64::from(weights[u as usize]);
                        w(a) + w(b) + w(c)
                    } else {
                        1
                    };
                    let (mine, theirs) = (u64::from(count) * best.3, u64::from(best.1) * w);
                    if mine < theirs
                        || (seed != 0
                            && mine == theirs
                            && mix(seed, cell as u64) < mix(seed, best.0 as u64))
                    {
                        best = (cell, count, cand, w);
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
                    blame(weights, u); // a digit with no place left in this unit
                    return Step::Contradiction;
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
                        None => {
                            blame(weights, u);
                            return Step::Contradiction;
                        }
                    }
                }
            }
            if !placed
                && n >= LOCKED_CANDIDATES_FROM
                && locked_candidates(geo, cells, used, elim, full, segments)
            {
                continue;
            }
            if !placed && matching {
                match all_different(geo, cells, used, elim, full) {
                    Some(true) => continue,
                    Some(false) => {}
                    None => return Step::Contradiction,
                }
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

impl Levels for Generic {
    type Choice = Choice;

    /// Out of 64 positions: on grids of fewer than 64 digits many draws land above every
    /// alternative and keep the plain order, so a restart perturbs only some branches. Drawing
    /// among the grid's n instead perturbs every branch, and counts to 2 on gen_25x25 more
    /// slowly (benches/results/2026-11-24-big-grids.md).
    #[inline]
    fn draw_span(&self) -> u64 {
        64
    }

    #[inline]
    fn frames(&mut self) -> &mut Vec<Frame<Choice>> {
        &mut self.frames
    }

    #[inline]
    fn stats_mut(&mut self) -> &mut SearchStats {
        &mut self.stats
    }

    #[inline]
    fn solution(&self, level: usize) -> &[u8] {
        let nc = self.geo.cells;
        &self.cells[level * nc..(level + 1) * nc]
    }

    #[inline]
    fn resolve(&self, choice: Choice, next: u64) -> (usize, u64) {
        match choice {
            Choice::Cell(cell) => (cell, next),
            Choice::Place { unit, bit } => {
                let n = self.geo.size;
                let slot = next.trailing_zeros() as usize;
                (self.geo.unit_cells[unit * n + slot] as usize, bit)
            }
        }
    }

    #[inline]
    fn child<T: Tracer>(&mut self, parent: usize, cell: usize, bit: u64, tracer: &mut T) -> Step {
        let (nc, nu) = (self.geo.cells, 3 * self.geo.size);
        let level = parent + 1;
        self.ensure_levels(level + 1);
        self.cells.copy_within(parent * nc..level * nc, level * nc);
        self.used.copy_within(parent * nu..level * nu, level * nu);
        self.elim.copy_within(parent * nc..level * nc, level * nc);
        self.empties[level] = self.empties[parent];
        self.place(level, cell, bit);
        self.propagate(level, tracer)
    }
}

/// Counts a dead end against unit `u` (see [`Generic::propagate`]); nothing when the cell choice
/// is not weighed (`weights` empty).
fn blame(weights: &mut [u32], u: usize) {
    if let Some(w) = weights.get_mut(u) {
        *w = w.saturating_add(1);
    }
}

/// No slot: an unmatched digit.
const FREE: u8 = u8::MAX;

/// All-different reasoning per unit (every Hall set at once): the open cells of a unit and its
/// missing digits must admit a perfect matching, and a candidate that lies in no perfect
/// matching can go. `None`: some unit has no perfect matching (a contradiction); else whether
/// any candidate went.
fn all_different(
    geo: &Geometry,
    cells: &[u8],
    used: &[u64],
    elim: &mut [u64],
    full: u64,
) -> Option<bool> {
    let n = geo.size;
    let mut changed = false;
    let mut slot_cell = [0usize; 64];
    let mut cand = [0u64; 64];
    let mut owner = [FREE; 64]; // digit -> slot matched to it
    let mut reach = [0u64; 64];
    for u in 0..3 * n {
        let unit = &geo.unit_cells[u * n..(u + 1) * n];
        let mut m = 0;
        for &c in unit {
            let c = c as usize;
            if cells[c] == 0 {
                slot_cell[m] = c;
                cand[m] = candidates(geo, full, used, elim, c);
                m += 1;
            }
        }
        if !may_hold_a_tight_set(&cand[..m]) {
            continue;
        }
        owner[..n].fill(FREE);
        let mut mate = [FREE; 64]; // slot -> digit
        let mut taken = 0u64;
        for i in 0..m {
            let free = cand[i] & !taken;
            if free != 0 {
                let d = free.trailing_zeros() as usize;
                taken |= 1u64 << d;
                owner[d] = i as u8;
                mate[i] = d as u8;
            }
        }
        for i in 0..m {
            if mate[i] == FREE {
                let mut seen = 0u64;
                if !augment(i, &cand, &mut owner, &mut mate, &mut seen) {
                    return None;
                }
            }
        }
        // Slot i -> slot j when i could take j's digit. A candidate outside the matching is in
        // some perfect matching iff its edge lies on a cycle: iff both slots share a strongly
        // connected component.
        let mut back = [0u64; 64];
        for i in 0..m {
            let mut others = cand[i] & !(1u64 << mate[i]);
            let mut adj = 0u64;
            while others != 0 {
                let d = others.trailing_zeros() as usize;
                others &= others - 1;
                adj |= 1u64 << owner[d];
            }
            reach[i] = adj;
            let mut to = adj;
            while to != 0 {
                let j = to.trailing_zeros() as usize;
                to &= to - 1;
                back[j] |= 1u64 << i;
            }
        }
        let mut component = [0u64; 64];
        let mut rest = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        while rest != 0 {
            let v = rest & rest.wrapping_neg();
            let scc = closure(&reach, v, rest) & closure(&back, v, rest);
            let mut members = scc;
            while members != 0 {
                let i = members.trailing_zeros() as usize;
                members &= members - 1;
                component[i] = scc;
            }
            rest &= !scc;
        }
        for i in 0..m {
            let mut others = cand[i] & !(1u64 << mate[i]);
            let mut gone = 0u64;
            while others != 0 {
                let d = others.trailing_zeros() as usize;
                let bit = others & others.wrapping_neg();
                others ^= bit;
                if component[i] & (1u64 << owner[d]) == 0 {
                    gone |= bit;
                }
            }
            if gone != 0 {
                elim[slot_cell[i]] |= gone;
                changed = true;
            }
        }
    }
    Some(changed)
}

/// Whether some `k` of a unit's open cells, 2 <= k <= m - 2 of its `m`, could hold just `k`
/// digits between them: the only way the all-different pass removes a candidate that the
/// singles, run before it, leave (a set of one cell is a naked single, of m - 1 cells a hidden
/// single). Such a set needs `k` cells with at most `k` candidates each, which one count of
/// the candidate sizes rules out cheaply; on a sparse grid it rules out most units, where the
/// matching would find nothing at a cost of many nodes' worth of time.
fn may_hold_a_tight_set(cand: &[u64]) -> bool {
    let m = cand.len();
    let mut sizes = [0u8; 65];
    for &c in cand {
        sizes[c.count_ones() as usize] += 1;
    }
    let mut at_most = usize::from(sizes[0]) + usize::from(sizes[1]);
    (2..m.saturating_sub(1)).any(|k| {
        at_most += usize::from(sizes[k]);
        at_most >= k
    })
}

/// The slots of `within` reachable from `start` (itself included) along `edges`.
fn closure(edges: &[u64; 64], start: u64, within: u64) -> u64 {
    let mut seen = start;
    let mut todo = start;
    while todo != 0 {
        let i = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let new = edges[i] & within & !seen;
        seen |= new;
        todo |= new;
    }
    seen
}

/// Kuhn's augmenting path from slot `i`, not revisiting the digits in `seen`.
fn augment(
    i: usize,
    cand: &[u64; 64],
    owner: &mut [u8; 64],
    mate: &mut [u8; 64],
    seen: &mut u64,
) -> bool {
    let mut options = cand[i] & !*seen;
    while options != 0 {
        let d = options.trailing_zeros() as usize;
        *seen |= 1u64 << d;
        let holder = owner[d];
        if holder == FREE || augment(holder as usize, cand, owner, mate, seen) {
            owner[d] = i as u8;
            mate[i] = d as u8;
            return true;
        }
        options = cand[i] & !*seen;
    }
    false
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

    /// An empty 4x4 whose first row's cells may take only `row0` (digit bitmasks).
    fn first_row(row0: [u64; 4]) -> (Geometry, Vec<u8>, Vec<u64>, Vec<u64>) {
        let geo = Geometry::new(BoxShape::new(2, 2).unwrap());
        let mut elim = vec![0u64; 16];
        for (cell, allowed) in row0.into_iter().enumerate() {
            elim[cell] = 0b1111 & !allowed;
        }
        (geo, vec![0; 16], vec![0; 12], elim)
    }

    #[test]
    fn all_different_removes_what_no_perfect_matching_uses() {
        // {1,2} {1,2} {1,2,3} {1,2,3,4}: the pair takes 1 and 2, so 3 and then 4 are forced.
        let (geo, cells, used, mut elim) = first_row([0b0011, 0b0011, 0b0111, 0b1111]);
        assert_eq!(
            all_different(&geo, &cells, &used, &mut elim, 0b1111),
            Some(true)
        );
        let left: Vec<u64> = (0..4)
            .map(|c| candidates(&geo, 0b1111, &used, &elim, c))
            .collect();
        assert_eq!(left, [0b0011, 0b0011, 0b0100, 0b1000]);
        // Repeated, the pass reaches a fixed point (the other units' eliminations follow).
        let passes = (0..8)
            .take_while(|_| all_different(&geo, &cells, &used, &mut elim, 0b1111) == Some(true))
            .count();
        assert!(passes < 8);
    }

    #[test]
    fn all_different_finds_a_unit_with_no_perfect_matching() {
        // Three cells share two digits: no digit is without a place, yet no assignment exists.
        let (geo, cells, used, mut elim) = first_row([0b0011, 0b0011, 0b0011, 0b1111]);
        assert_eq!(all_different(&geo, &cells, &used, &mut elim, 0b1111), None);
    }
}
