//! The search engine for variant rules, apart from the classic engines so that a classic
//! search never looks at a rule.
//!
//! State is one candidate mask per cell. Placing a digit strikes it from the cell's peers
//! (every cell sharing a group with it, or a knight's or king's move away under those rules)
//! and, under non-consecutive, strikes its neighbours' digits one above and below. Before
//! every guess the engine fills naked singles, hidden singles (in groups of `n` cells) and
//! killer cage logic (the digit sets a cage may still hold, and the cells that see every home
//! of a digit a cage needs; a small cage with pair relations or entropic or modular lines
//! between its cells fills its cells exactly under them) to a fixed point. Under pair relations (dots, XV, the negative
//! constraints, ...) it also points through them: where a digit has two homes left in a
//! group (or three, under the negative constraints), a cell that would rule every one out by
//! taking some digit loses that digit. Under
//! anti-knight or anti-king it then points once: a digit with two to four homes in a group is
//! struck from every cell that sees them all (knight and king moves reach past the groups, so
//! this finds much the groups alone do not; measured, it costs more than it saves under the
//! other rules). It branches on the cell with the fewest candidates, among those on the one
//! whose guesses failed most often in this search (conflict-directed: the search keeps
//! returning to where the puzzle is hard), then the one with the most arcs and propagators
//! reading it, then the first; digits low to high, so
//! solutions come in a fixed order; a restart attempt's seed perturbs the tie-breaks and the
//! digit order, so it explores differently. Like the generic engine it copies state into an
//! arena level per guess.

use std::sync::Arc;

use super::control::{mix, Attempt, Control, Flow, SearchStats};
use super::depth_first::{self, depth_first, Frame, Levels};
use super::line_propagators::{line_propagators, LinePropagator};
#[cfg(target_arch = "x86_64")]
use super::nine;
use super::propagators::{
    place, strike_adjacent, Arcs, Between, Board, Cage, Pairs, Propagator, Quadruple, Relation,
    Renban, Sandwich, Skyscraper, Sum, Thermo, XSum, EXACT_CAGE,
};
use super::trace::{NoTrace, Tracer};
use crate::core::error::{Cell, Result};
use crate::core::grid::shape::BoxShape;
use crate::core::rules::layout::{neighbours, Layout, MAX_BITSET_CELLS};
use crate::core::rules::{find_conflict, LineKind, Rules};

/// Bits of a rank in a branching key.
const RANK_BITS: u32 = 6;
/// Ranks of cells with equal candidate counts run `0..=RANK_SPAN` (lower first), so a rank
/// fits its bits of the key.
const RANK_SPAN: u32 = (1 << RANK_BITS) - 1;
/// A cell's failures count in the branching order up to this many.
const MAX_FAILURES: u32 = 0xffff;
/// Where a cell's candidate count sits in its branching key, above its failures and rank.
const COUNT_SHIFT: u32 = 24;

/// A branch is on one cell's digits.
type Step = depth_first::Step<usize>;

/// The variant engine's state for one shape and set of rules, reused across searches.
pub(crate) struct Variant {
    rules: Arc<Rules>,
    layout: Layout,
    full: u64,
    /// Level k's candidate masks live at `cand[k * cells..]`, its digits at `value[k * cells..]`
    /// (0 = open).
    cand: Vec<u64>,
    value: Vec<u8>,
    open: Vec<usize>,
    /// Every constraint beyond the peers and the pair relations, as a propagator over the
    /// masks.
    propagators: Vec<Propagator>,
    /// The killer cages with totals (their propagators come first in `propagators`).
    cages: usize,
    /// Per cell, the propagators that read it, as `watch[watch_start[c]..watch_start[c + 1]]`:
    /// a propagator runs again only when one of its cells changed.
    watch: Vec<u32>,
    watch_start: Vec<u32>,
    /// The pair relations (Kropki dots, XV, whispers, the negative constraints, ...) as arcs
    /// from each cell to its partners, and the pairs again for the check of a complete grid.
    arcs: Arcs,
    pairs: Vec<Pairs>,
    /// Each cell's mask and digit when the arcs and propagators last looked at it: a cell that
    /// differs has changed since, and its arcs and watchers run. A child level starts from its
    /// parent's fixed point, where every arc and propagator was quiet.
    seen: Vec<u64>,
    seen_value: Vec<u8>,
    /// Per full group, the digits whose open homes there changed since [`Arcs::point`] last
    /// looked (a changed cell marks its groups); cleared when a child starts from its
    /// parent's fixed point.
    dirty: Vec<u64>,
    /// Per cell, the full groups holding it, as `cell_groups[group_start[c]..group_start[c + 1]]`.
    cell_groups: Vec<u16>,
    group_start: Vec<u32>,
    /// Whether [`Arcs::point`] runs: under rules with pair relations.
    arc_point: bool,
    /// Whether it looks at digits with three homes too: under the negative constraints, whose
    /// arcs join every orthogonal pair.
    point_three: bool,
    /// Per cell, its place among cells of equal candidate count when branching (lower
    /// first).
    rank: Vec<u32>,
    /// Per cell, its key among cells of equal candidate count in this search (lower first):
    /// its rank, below the count of its guesses that led straight to a contradiction, taken
    /// from [`MAX_FAILURES`]. So the search branches on the most failed cell first (the cells
    /// the puzzle's hard part hinges on), then by rank; one array, read once a cell.
    order: Vec<u32>,
    /// Whether some guess failed since `order` was last set from the ranks.
    reordered: bool,
    /// Whether failed guesses move their cells up the branching order (see `order`); off, the
    /// search keeps the plain order of counts and ranks.
    weigh_failures: bool,
    /// Scratch: the propagators queued to run, each once.
    queued: Vec<bool>,
    queue: Vec<u32>,
    /// Each cell's starting candidates, when some cell starts without every digit (odd and
    /// even cells, given pencil marks).
    masks: Option<Vec<u64>>,
    /// Scratch for [`point`]: per digit, the open cells that may hold it.
    planes: Vec<u64>,
    /// Per level, `planes` as [`point`] built them there before striking (`plane_span` words a
    /// level; none without anti-knight or anti-king): a child's pointing passes over the
    /// (group, digit) whose homes are still what its parent's pointing looked at.
    pointed_planes: Vec<u64>,
    plane_span: usize,
    frames: Vec<Frame<usize>>,
    /// The current attempt's seed (see [`Attempt::seed`]).
    seed: u64,
    stats: SearchStats,
}

impl Variant {
    pub(crate) fn new(shape: BoxShape, rules: Arc<Rules>) -> Result<Self> {
        let layout = Layout::for_search(shape, &rules)?;
        let n = shape.size();
        let nc = n * n;
        let plane_span = if layout.group_bits.is_some() {
            n * layout.words
        } else {
            0
        };
        let (mut propagators, pairs, cages, masks) = propagators(&rules, n);
        propagators.extend(line_propagators(&rules, shape));
        let mut variant = Variant {
            masks,
            cages,
            propagators: Vec::new(),
            watch: Vec::new(),
            watch_start: Vec::new(),
            arcs: Arcs::default(),
            pairs: Vec::new(),
            seen: vec![0; nc],
            seen_value: vec![0; nc],
            dirty: Vec::new(),
            cell_groups: Vec::new(),
            group_start: Vec::new(),
            arc_point: false,
            point_three: rules.negative_xv() || rules.negative_ratio(),
            rank: vec![0; nc],
            order: vec![0; nc],
            reordered: true,
            weigh_failures: true,
            queued: Vec::new(),
            queue: Vec::new(),
            rules,
            layout,
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            cand: vec![0; nc],
            value: vec![0; nc],
            open: vec![0],
            planes: vec![0; n * nc.div_ceil(64)],
            pointed_planes: vec![0; plane_span],
            plane_span,
            frames: Vec::new(),
            seed: 0,
            stats: SearchStats::default(),
        };
        variant.bind(propagators, pairs);
        Ok(variant)
    }

    /// Takes `propagators` and `pairs` on: the pair relations become arcs, the propagators are
    /// watched by their cells.
    fn bind(&mut self, mut propagators: Vec<Propagator>, pairs: Vec<Pairs>) {
        let nc = self.layout.n * self.layout.n;
        link_cages(&mut propagators, &pairs, self.layout.n, self.full);
        self.propagators = propagators;
        self.pairs = pairs;
        self.arcs = Arcs::new(&self.layout, &self.pairs);
        let mut watchers: Vec<Vec<u32>> = vec![Vec::new(); nc];
        for (i, p) in self.propagators.iter().enumerate() {
            let mut cells = p.cells();
            cells.sort_unstable();
            cells.dedup();
            for c in cells {
                watchers[c as usize].push(i as u32);
            }
        }
        (self.watch_start, self.watch) = flatten(watchers);
        self.queued = vec![false; self.propagators.len()];
        self.queue = Vec::with_capacity(self.propagators.len());
        let groups = &self.layout.full_groups;
        self.dirty = vec![0; groups.len()];
        let mut per_cell: Vec<Vec<u16>> = vec![Vec::new(); nc];
        for (g, group) in groups.iter().enumerate() {
            for &c in &group.cells {
                per_cell[c as usize].push(g as u16);
            }
        }
        (self.group_start, self.cell_groups) = flatten(per_cell);
        self.arc_point = !self.arcs.is_empty();
        // Ties among the fewest candidates go to the cell with the most arcs and propagators
        // reading it: its choice narrows the most. Killer cages are left out: measured, ranking
        // by them grows killer searches.
        let cages = self.cages as u32;
        for (c, rank) in self.rank.iter_mut().enumerate() {
            let watchers =
                &self.watch[self.watch_start[c] as usize..self.watch_start[c + 1] as usize];
            let degree = self.arcs.degree(c) + watchers.iter().filter(|&&p| p >= cages).count();
            *rank = RANK_SPAN - degree.min(RANK_SPAN as usize) as u32;
        }
        self.reordered = true;
    }

    /// A variant engine with `extra` propagators and pair relations besides those of its
    /// rules, for the tests.
    #[cfg(test)]
    pub(crate) fn with_propagators(
        shape: BoxShape,
        rules: Arc<Rules>,
        extra: Vec<Propagator>,
        extra_pairs: Vec<Pairs>,
    ) -> Result<Self> {
        let mut variant = Variant::new(shape, rules)?;
        let mut propagators = std::mem::take(&mut variant.propagators);
        let mut pairs = std::mem::take(&mut variant.pairs);
        propagators.extend(extra);
        pairs.extend(extra_pairs);
        variant.bind(propagators, pairs);
        Ok(variant)
    }

    pub(crate) fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Sets whether failed guesses move their cells up the branching order in the searches
    /// that follow (on by default); returns the previous setting.
    pub(crate) fn set_weigh_failures(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.weigh_failures, on)
    }

    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Depth-first search calling `visit` on each solution until it says `Stop`, within the
    /// attempt's budgets and in its order (seed 0: the plain one): `Ok(true)` when the node
    /// budget ran out first. Clues that break a rule are an error naming it.
    pub(crate) fn search(
        &mut self,
        cells: &[u8],
        control: &mut (impl Control + ?Sized),
        attempt: Attempt,
        visit: impl FnMut(&[u8]) -> Flow,
    ) -> Result<bool> {
        let nc = self.layout.n * self.layout.n;
        assert_eq!(cells.len(), nc, "cells must match the solver's shape");
        self.stats = SearchStats::default();
        if self.reordered {
            self.reordered = false;
            for (order, &rank) in self.order.iter_mut().zip(&self.rank) {
                *order = MAX_FAILURES << RANK_BITS | rank;
            }
        }
        self.seed = attempt.seed;
        self.frames.clear();
        let step = match self.load(cells)? {
            true => {
                // Nothing has been looked at yet: every cell counts as changed.
                self.seen.fill(0);
                self.seen_value.fill(0);
                self.dirty.fill(0);
                self.propagate(0)
            }
            false => Step::Contradiction,
        };
        depth_first(self, step, control, attempt, visit, &mut NoTrace)
    }

    /// Bytes the level arena holds (grown by deep searches, never by itself shrunk).
    pub(crate) fn arena_bytes(&self) -> usize {
        8 * (self.cand.capacity() + self.open.capacity() + self.pointed_planes.capacity())
            + self.value.capacity()
            + size_of::<Frame<usize>>() * self.frames.capacity()
    }

    /// Frees what the arena holds beyond about `keep` bytes (level 0 always stays), so a cached
    /// solver does not keep the peak of its deepest search. The next deep search grows it again.
    pub(crate) fn release(&mut self, keep: usize) {
        if self.arena_bytes() <= keep {
            return;
        }
        let nc = self.layout.n * self.layout.n;
        let levels = (keep / (9 * nc + 8 * self.plane_span + 8)).clamp(1, self.open.len());
        self.cand.truncate(levels * nc);
        self.value.truncate(levels * nc);
        self.open.truncate(levels);
        self.pointed_planes.truncate(levels * self.plane_span);
        self.frames.clear();
        self.cand.shrink_to_fit();
        self.pointed_planes.shrink_to_fit();
        self.value.shrink_to_fit();
        self.open.shrink_to_fit();
        self.frames.shrink_to_fit();
    }

    fn ensure_levels(&mut self, levels: usize) {
        if self.open.len() < levels {
            let nc = self.layout.n * self.layout.n;
            self.cand.resize(levels * nc, 0);
            self.value.resize(levels * nc, 0);
            self.open.resize(levels, 0);
            self.pointed_planes.resize(levels * self.plane_span, 0);
        }
    }

    /// Places the clues at level 0: `Ok(false)` when they leave no completion, an error when
    /// they break a rule outright.
    fn load(&mut self, cells: &[u8]) -> Result<bool> {
        let nc = cells.len();
        match &self.masks {
            Some(masks) => self.cand[..nc].copy_from_slice(masks),
            None => self.cand[..nc].fill(self.full),
        }
        self.value[..nc].fill(0);
        self.open[0] = nc;
        // A clue that breaks a rule outright is an error naming it; clues that only leave no
        // completion are a search with no solution.
        let broken = |rules: &Rules, shape| match find_conflict(shape, rules, cells) {
            Some(err) => Err(err),
            None => Ok(false),
        };
        let shape = self.layout.shape;
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 && !self.place(0, cell, 1u64 << (v - 1)) {
                return broken(&self.rules, shape);
            }
        }
        // Clue sums are the one rule of the peers' kinds placing cannot catch; the other
        // propagators' rules are checked on the clues once, here.
        let cages = &self.propagators[..self.cages];
        let sums_fit = cages
            .iter()
            .all(|p| !matches!(p, Propagator::Cage(c) if !c.clues_fit(cells)));
        if !sums_fit || self.propagators.len() > self.cages || !self.pairs.is_empty() {
            if let Some(err) = find_conflict(shape, &self.rules, cells) {
                return Err(err);
            }
        }
        Ok(sums_fit)
    }

    /// Places digit `bit` in `cell` at `level` and strikes what it rules out; `false` when the
    /// digit is no longer a candidate there.
    #[inline]
    fn place(&mut self, level: usize, cell: usize, bit: u64) -> bool {
        let nc = self.layout.n * self.layout.n;
        let cand = &mut self.cand[level * nc..(level + 1) * nc];
        let value = &mut self.value[level * nc..(level + 1) * nc];
        place(
            &self.layout,
            self.full,
            cand,
            value,
            &mut self.open[level],
            cell,
            bit,
        )
    }

    /// [`Variant::propagate_with`], built for the processor's popcount and bit instructions
    /// where it has them (as the 9x9 solver's search is): the loop counts candidates, picks
    /// bits and ANDs bitsets all the time. The same code either way, so the same search.
    fn propagate(&mut self, level: usize) -> Step {
        #[cfg(target_arch = "x86_64")]
        if nine::modern() {
            // SAFETY: `modern()` found every feature `modern_propagate` is built for.
            return unsafe { self.modern_propagate(level) };
        }
        self.propagate_with(level)
    }

    /// [`Variant::propagate_with`] with everything it inlines built for the features
    /// [`nine::modern`] checks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn modern_propagate(&mut self, level: usize) -> Step {
        self.propagate_with(level)
    }

    /// Fills singles and cage logic at `level` to a fixed point, then reports a contradiction,
    /// a solution, or the cell to branch on.
    #[inline(always)]
    fn propagate_with(&mut self, level: usize) -> Step {
        let layout = &self.layout;
        let (nc, full) = (layout.n * layout.n, self.full);
        let cand = &mut self.cand[level * nc..(level + 1) * nc];
        let value = &mut self.value[level * nc..(level + 1) * nc];
        let open = &mut self.open[level];
        let propagators = &self.propagators;
        let (arcs, pairs) = (&self.arcs, &self.pairs);
        let (watch, watch_start) = (&self.watch, &self.watch_start);
        let (seen, seen_value) = (&mut self.seen, &mut self.seen_value);
        let (dirty, cell_groups, group_start) =
            (&mut self.dirty, &self.cell_groups, &self.group_start);
        let arc_point = self.arc_point;
        let point_three = self.point_three;
        let order = &self.order;
        let (queued, queue) = (&mut self.queued, &mut self.queue);
        let seed = self.seed;
        let mut pointed = false;
        loop {
            let mut progress = false;
            for cell in 0..nc {
                if value[cell] != 0 {
                    continue;
                }
                let m = cand[cell];
                if m == 0 {
                    return Step::Contradiction;
                }
                if m & (m - 1) == 0 {
                    if !place(layout, full, cand, value, open, cell, m) {
                        return Step::Contradiction;
                    }
                    progress = true;
                }
            }
            if *open == 0 {
                let holds = propagators.iter().all(|p| p.holds(value))
                    && pairs.iter().all(|p| p.holds(value));
                return if holds {
                    Step::Solved
                } else {
                    Step::Contradiction
                };
            }
            if progress {
                continue;
            }
            // No open cell is down to one candidate here (the scan above placed them all), so
            // the cells holding one bit are the placed ones, whose digits no other cell of the
            // group keeps: a digit held once, not by such a cell, is a hidden single. Telling
            // them apart by the mask spares reading each cell's digit. (A cell that a placement
            // below leaves with one candidate counts as placed, and waits for the next scan.)
            for group in &layout.full_groups {
                let (mut once, mut twice, mut single) = (0u64, 0u64, 0u64);
                for &c in &group.cells {
                    let m = cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    single |= if m & m.wrapping_sub(1) == 0 { m } else { 0 };
                }
                if once != full {
                    return Step::Contradiction;
                }
                let mut hidden = once & !twice & !single;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let home = group
                        .cells
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| value[c] == 0 && cand[c] & bit != 0);
                    match home {
                        Some(cell) if place(layout, full, cand, value, open, cell, bit) => {
                            progress = true;
                        }
                        _ => return Step::Contradiction,
                    }
                }
            }
            if progress {
                continue;
            }
            if let Some(orthogonal) = &layout.orthogonal {
                // A neighbour may hold digit e only if this cell keeps a candidate at least two
                // away from e: a cell down to {4, 5} rules 4 and 5 out of its neighbours.
                for cell in 0..nc {
                    let m = cand[cell];
                    if value[cell] != 0 || m.count_ones() > 3 {
                        continue;
                    }
                    let mut ruled_out = 0u64;
                    let mut digits = (m | m << 1 | m >> 1) & full;
                    while digits != 0 {
                        let e = digits & digits.wrapping_neg();
                        digits ^= e;
                        if m & !(e | e << 1 | e >> 1) == 0 {
                            ruled_out |= e;
                        }
                    }
                    if ruled_out == 0 {
                        continue;
                    }
                    for &p in &orthogonal[cell] {
                        let p = p as usize;
                        if value[p] == 0 && cand[p] & ruled_out != 0 {
                            cand[p] &= !ruled_out;
                            if cand[p] == 0 {
                                return Step::Contradiction;
                            }
                            progress = true;
                        }
                    }
                }
                if progress {
                    continue;
                }
            }
            // What changed since the arcs and propagators last looked: each changed cell's
            // arcs narrow its partners, and the propagators reading it are queued (nothing to
            // look for under rules with neither).
            let watched = if queued.is_empty() && pairs.is_empty() {
                0
            } else {
                nc
            };
            for cell in 0..watched {
                let m = cand[cell];
                if m == seen[cell] && value[cell] == seen_value[cell] {
                    continue;
                }
                if arc_point {
                    let before = if seen_value[cell] == 0 { seen[cell] } else { 0 };
                    let now = if value[cell] == 0 { m } else { 0 };
                    let moved = before ^ now;
                    if moved != 0 {
                        let groups = group_start[cell] as usize..group_start[cell + 1] as usize;
                        for &g in &cell_groups[groups] {
                            dirty[g as usize] |= moved;
                        }
                    }
                }
                seen[cell] = m;
                seen_value[cell] = value[cell];
                match arcs.narrow_from(cell, cand) {
                    Some(changed) => progress |= changed,
                    None => {
                        for &p in queue.iter() {
                            queued[p as usize] = false;
                        }
                        queue.clear();
                        return Step::Contradiction;
                    }
                }
                for &p in &watch[watch_start[cell] as usize..watch_start[cell + 1] as usize] {
                    if !queued[p as usize] {
                        queued[p as usize] = true;
                        queue.push(p);
                    }
                }
            }
            let mut board = Board {
                layout,
                full,
                cand,
                value,
                open,
            };
            let mut dead = false;
            for &p in queue.iter() {
                queued[p as usize] = false;
                if dead {
                    continue;
                }
                match propagators[p as usize].propagate(&mut board) {
                    Some(changed) => progress |= changed,
                    None => dead = true,
                }
            }
            queue.clear();
            if dead {
                return Step::Contradiction;
            }
            if progress {
                continue;
            }
            if arc_point {
                match arcs.point(layout, full, cand, value, dirty, point_three) {
                    Some(true) => continue,
                    Some(false) => {}
                    None => return Step::Contradiction,
                }
            }
            // Last, as the dearest, once a node: where a digit has few homes left in a group,
            // the cells that see every home lose it.
            if layout.group_bits.is_some() && !pointed {
                pointed = true;
                // The grid's bitsets are one or two words up to 11x11: those get their own
                // copies of the loop, with every word loop unrolled.
                let span = self.plane_span;
                let (above, here) = self.pointed_planes.split_at_mut(level * span);
                let parent = (level > 0).then(|| &above[(level - 1) * span..]);
                let (planes, here) = (&mut self.planes, &mut here[..span]);
                let struck = match layout.words {
                    1 => point::<1>(layout, full, cand, value, planes, parent, here),
                    2 => point::<2>(layout, full, cand, value, planes, parent, here),
                    _ => point::<0>(layout, full, cand, value, planes, parent, here),
                };
                match struck {
                    Some(true) => continue,
                    Some(false) => {}
                    None => return Step::Contradiction,
                }
            }
            // The fixed point: every open cell keeps two candidates or more. Fewest candidates
            // first, then the most failures, then the lowest rank (most arcs and
            // propagators); ties go to the first cell, or under a restart to the one a hash of
            // (attempt, cell) ranks lowest.
            let mut best = (usize::MAX, u32::MAX);
            for cell in 0..nc {
                if value[cell] != 0 {
                    continue;
                }
                let count = cand[cell].count_ones() << COUNT_SHIFT | order[cell];
                if count < best.1
                    || (seed != 0
                        && count == best.1
                        && mix(seed, cell as u64) < mix(seed, best.0 as u64))
                {
                    best = (cell, count);
                }
            }
            return Step::Branch(best.0, cand[best.0]);
        }
    }
}

/// Pointing for every digit with two to four homes in a full group (see [`strike_common`]),
/// with the open cells that may hold each digit as bitsets in `planes` (`n` rows of
/// [`Layout::words`] words), so a group's homes and the cells to strike are a few ANDs. `W` is
/// the layout's word count when it is known at compile time, 0 when it is read from `layout`.
///
/// `pointed` gets `planes` as built here, before any strike, for the levels below; a (group,
/// digit) whose homes are those the parent level's pointing found (`parent`: its `pointed`,
/// `None` at level 0) is passed over: the parent struck from every cell seeing them all, and
/// candidates only shrink below it, so looking again would strike nothing.
#[inline(always)]
fn point<const W: usize>(
    layout: &Layout,
    full: u64,
    cand: &mut [u64],
    value: &[u8],
    planes: &mut [u64],
    parent: Option<&[u64]>,
    pointed: &mut [u64],
) -> Option<bool> {
    debug_assert!(W == 0 || W == layout.words);
    let (n, words) = (layout.n, if W == 0 { layout.words } else { W });
    let group_bits = layout
        .group_bits
        .as_deref()
        .expect("bitsets kept with the peers'");
    let planes = &mut planes[..n * words];
    planes.fill(0);
    for (cell, &m) in cand.iter().enumerate() {
        if value[cell] == 0 {
            let mut m = m;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                planes[d * words + cell / 64] |= 1 << (cell % 64);
            }
        }
    }
    pointed.copy_from_slice(planes);
    let mut struck = false;
    let mut common = [0u64; MAX_BITSET_CELLS / 64];
    let common = &mut common[..words];
    for gbits in group_bits.chunks_exact(words) {
        for d in 0..n {
            let plane = &planes[d * words..(d + 1) * words];
            if let Some(parent) = parent {
                let before = &parent[d * words..(d + 1) * words];
                let same = plane
                    .iter()
                    .zip(before)
                    .zip(gbits)
                    .all(|((p, b), g)| (p ^ b) & g == 0);
                if same {
                    continue;
                }
            }
            let k: u32 = plane
                .iter()
                .zip(gbits)
                .map(|(p, g)| (p & g).count_ones())
                .sum();
            if !(2..=4).contains(&k) {
                continue;
            }
            let mut homes = [0u16; 4];
            let mut k = 0usize;
            for (w, (&p, &g)) in plane.iter().zip(gbits).enumerate() {
                let mut h = p & g;
                while h != 0 {
                    homes[k] = (w * 64 + h.trailing_zeros() as usize) as u16;
                    k += 1;
                    h &= h - 1;
                }
            }
            let homes = &homes[..k];
            let bit = 1u64 << d;
            common.copy_from_slice(plane);
            for &h in homes {
                let bits = layout
                    .peer_bits(h as usize)
                    .expect("every cell has peer bits");
                for (c, b) in common.iter_mut().zip(bits) {
                    *c &= b;
                }
            }
            for w in 0..words {
                let mut hit = common[w];
                planes[d * words + w] &= !hit;
                while hit != 0 {
                    let c = w * 64 + hit.trailing_zeros() as usize;
                    hit &= hit - 1;
                    cand[c] &= !bit;
                    if cand[c] == 0 {
                        return None;
                    }
                    struck = true;
                }
            }
            struck |= strike_adjacent(layout, full, cand, value, homes, bit, |cell, mut gone| {
                while gone != 0 {
                    let e = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    planes[e * words + cell / 64] &= !(1 << (cell % 64));
                }
            })?;
        }
    }
    Some(struck)
}

/// A pair relation and its value: the pairs of one key share a propagator.
type PairKey = (PairKind, u32);

/// The relations pair constraints stand for (with a value where they have one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum PairKind {
    /// The pair adds up to the value (X, V).
    Sum,
    /// The pair differs by the value (white dots).
    Difference,
    /// One is the value times the other (black dots).
    Ratio,
    /// The pair differs by at least the value (whispers).
    AtLeast,
    /// Palindromes and clones.
    Equal,
    /// The first is less (minimum and maximum cells).
    Less,
    /// Negative XV: neither 5 nor 10.
    NotXv,
    /// Negative black dots: no black dot's ratio.
    NotRatio,
}

/// Every constraint of `rules` beyond the peers on a grid of side `n`: the propagators (killer
/// cages with totals first, and how many those are), the pair relations, and each cell's
/// starting candidates (odd, even, given pencil marks), `None` when every cell starts with
/// every digit.
fn propagators(rules: &Rules, n: usize) -> (Vec<Propagator>, Vec<Pairs>, usize, Option<Vec<u64>>) {
    use PairKind::{AtLeast, Difference, Equal, Less, NotRatio, NotXv, Ratio, Sum as Adds};
    let at = |c: &Cell| (c.row * n + c.col) as u16;
    let line = |cells: &[Cell]| -> Vec<u16> { cells.iter().map(at).collect() };
    let mut out: Vec<Propagator> = rules
        .cages()
        .iter()
        .filter_map(|cage| {
            let total = cage.total?;
            Some(Propagator::Cage(Cage::new(line(&cage.cells), total, n)))
        })
        .collect();
    let cages = out.len();
    for killer in rules.little_killers() {
        let terms = killer.cells(n).iter().map(|c| (at(c), 1)).collect();
        out.push(Propagator::Sum(Sum {
            terms,
            total: i64::from(killer.total),
        }));
    }
    for thermo in rules.thermometers() {
        if thermo.len() > 1 {
            out.push(Propagator::Thermo(Thermo {
                cells: line(thermo),
            }));
        }
    }
    for arrow in rules.arrows() {
        // The circle reads its digits in row-major order as one number.
        let mut circle = arrow.circle.clone();
        circle.sort_by_key(|c| (c.row, c.col));
        let mut terms: Vec<(u16, i64)> = arrow.shaft.iter().map(|c| (at(c), 1)).collect();
        let mut weight = 1i64;
        for c in circle.iter().rev() {
            terms.push((at(c), -weight));
            weight = weight.saturating_mul(10);
        }
        out.push(Propagator::Sum(Sum { terms, total: 0 }));
    }
    // Pairs of one relation share a propagator: one per (kind, value).
    let mut tables: Vec<(PairKey, Vec<(u16, u16)>)> = Vec::new();
    let mut add =
        |key: (PairKind, u32), a: u16, b: u16| match tables.iter_mut().find(|(k, _)| *k == key) {
            Some((_, pairs)) => pairs.push((a, b)),
            None => tables.push((key, vec![(a, b)])),
        };
    for p in rules.xv() {
        add((Adds, p.value), at(&p.cells[0]), at(&p.cells[1]));
    }
    for p in rules.differences() {
        add((Difference, p.value), at(&p.cells[0]), at(&p.cells[1]));
    }
    for p in rules.ratios() {
        add((Ratio, p.value), at(&p.cells[0]), at(&p.cells[1]));
    }
    for w in rules.whispers() {
        for pair in w.cells.windows(2) {
            add((AtLeast, w.difference_for(n)), at(&pair[0]), at(&pair[1]));
        }
    }
    // A nabner line: every two of its cells differ by at least 2, neighbours or not.
    for line in rules.lines(LineKind::Nabner) {
        for (i, a) in line.iter().enumerate() {
            for b in &line[i + 1..] {
                add((AtLeast, 2), at(a), at(b));
            }
        }
    }
    for p in rules.palindromes() {
        for i in 0..p.len() / 2 {
            add((Equal, 0), at(&p[i]), at(&p[p.len() - 1 - i]));
        }
    }
    for clone in rules.clones() {
        for (a, b) in clone.cells.iter().zip(&clone.clone_cells) {
            add((Equal, 0), at(a), at(b));
        }
    }
    let orthogonal_pairs = || {
        (0..n).flat_map(move |r| {
            (0..n).flat_map(move |c| {
                let right = (c + 1 < n).then(|| ((r * n + c) as u16, (r * n + c + 1) as u16));
                let down = (r + 1 < n).then(|| ((r * n + c) as u16, ((r + 1) * n + c) as u16));
                right.into_iter().chain(down)
            })
        })
    };
    let marked = |pairs: &[crate::core::rules::Pair], a: u16, b: u16| {
        pairs.iter().any(|p| {
            let (x, y) = (at(&p.cells[0]), at(&p.cells[1]));
            (x, y) == (a, b) || (y, x) == (a, b)
        })
    };
    if rules.negative_xv() {
        for (a, b) in orthogonal_pairs() {
            if !marked(rules.xv(), a, b) {
                add((NotXv, 0), a, b);
            }
        }
    }
    if rules.negative_ratio() {
        for (a, b) in orthogonal_pairs() {
            if !marked(rules.ratios(), a, b) {
                add((NotRatio, 0), a, b);
            }
        }
    }
    for (minimum, cells) in [
        (true, rules.minimum_cells()),
        (false, rules.maximum_cells()),
    ] {
        for m in cells {
            let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
            for (r, c) in neighbours(n, m.row, m.col, &steps) {
                let other = Cell { row: r, col: c };
                if !cells.contains(&other) {
                    // A minimum below its neighbour; a maximum is the neighbour below it.
                    let (lo, hi) = if minimum { (m, &other) } else { (&other, m) };
                    add((Less, 0), at(lo), at(hi));
                }
            }
        }
    }
    let ratios: Vec<u32> = std::iter::once(2)
        .chain(rules.ratios().iter().map(|p| p.value))
        .collect();
    let mut pair_relations = Vec::with_capacity(tables.len());
    for ((kind, value), pairs) in tables {
        let relation = match kind {
            Adds => Relation::new(n, |a, b| a + b == value),
            Difference => Relation::new(n, |a, b| a.abs_diff(b) == value),
            Ratio => Relation::new(n, |a, b| a == value * b || b == value * a),
            AtLeast => Relation::new(n, |a, b| a.abs_diff(b) >= value),
            Equal => Relation::new(n, |a, b| a == b),
            Less => Relation::new(n, |a, b| a < b),
            NotXv => Relation::new(n, |a, b| a + b != 5 && a + b != 10),
            NotRatio => Relation::new(n, |a, b| !ratios.iter().any(|&r| a == r * b || b == r * a)),
        };
        pair_relations.push(Pairs {
            cells: pairs,
            relation,
        });
    }
    for renban in rules.renbans() {
        out.push(Propagator::Renban(Renban {
            cells: line(renban),
        }));
    }
    for between in rules.between_lines() {
        let cells = line(between);
        out.push(Propagator::Between(Between {
            ends: (cells[0], cells[cells.len() - 1]),
            inner: cells[1..cells.len() - 1].to_vec(),
        }));
    }
    for clue in rules.sandwiches() {
        let cells = clue.cells(n);
        out.push(Propagator::Sandwich(Sandwich {
            line: line(&cells),
            total: i64::from(clue.value),
        }));
    }
    for clue in rules.x_sums() {
        let cells = clue.cells(n);
        out.push(Propagator::XSum(XSum {
            line: line(&cells),
            total: i64::from(clue.value),
        }));
    }
    for clue in rules.skyscrapers() {
        let cells = clue.cells(n);
        out.push(Propagator::Skyscraper(Skyscraper {
            line: line(&cells),
            clue: clue.value,
        }));
    }
    for q in rules.quadruples() {
        let mut digits: Vec<(u64, usize)> = Vec::new();
        for &d in &q.digits {
            let bit = 1u64 << (d - 1);
            match digits.iter_mut().find(|(b, _)| *b == bit) {
                Some(entry) => entry.1 += 1,
                None => digits.push((bit, 1)),
            }
        }
        out.push(Propagator::Quadruple(Quadruple {
            cells: q.cells().iter().map(at).collect(),
            digits,
            listed: q.digits.len(),
        }));
    }
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let odd = (0..n).step_by(2).fold(0u64, |m, b| m | 1 << b);
    let mut masks = vec![full; n * n];
    for c in rules.odd_cells() {
        masks[at(c) as usize] &= odd;
    }
    for c in rules.even_cells() {
        masks[at(c) as usize] &= !odd;
    }
    for mark in rules.pencil_marks() {
        let digits = mark.digits.iter().fold(0u64, |m, &d| m | 1 << (d - 1));
        masks[at(&mark.cell) as usize] &= digits;
    }
    let masks = masks.iter().any(|&m| m != full).then_some(masks);
    (out, pair_relations, cages, masks)
}

impl Levels for Variant {
    type Choice = usize;

    /// Among the grid's digits: every branch's order is perturbed.
    #[inline]
    fn draw_span(&self) -> u64 {
        self.layout.n as u64
    }

    #[inline]
    fn frames(&mut self) -> &mut Vec<Frame<usize>> {
        &mut self.frames
    }

    #[inline]
    fn stats_mut(&mut self) -> &mut SearchStats {
        &mut self.stats
    }

    #[inline]
    fn solution(&self, level: usize) -> &[u8] {
        let nc = self.layout.n * self.layout.n;
        &self.value[level * nc..(level + 1) * nc]
    }

    #[inline]
    fn resolve(&self, cell: usize, next: u64) -> (usize, u64) {
        (cell, next)
    }

    #[inline]
    fn child<T: Tracer>(&mut self, parent: usize, cell: usize, bit: u64, _: &mut T) -> Step {
        let nc = self.layout.n * self.layout.n;
        let level = parent + 1;
        self.ensure_levels(level + 1);
        self.cand.copy_within(parent * nc..level * nc, level * nc);
        self.value.copy_within(parent * nc..level * nc, level * nc);
        self.open[level] = self.open[parent];
        if !self.queued.is_empty() || !self.pairs.is_empty() {
            self.seen
                .copy_from_slice(&self.cand[parent * nc..level * nc]);
            self.seen_value
                .copy_from_slice(&self.value[parent * nc..level * nc]);
        }
        if self.arc_point {
            self.dirty.fill(0);
        }
        let step = if self.place(level, cell, bit) {
            self.propagate(level)
        } else {
            Step::Contradiction
        };
        if self.weigh_failures && matches!(step, Step::Contradiction) {
            self.reordered = true;
            let order = &mut self.order[cell];
            if *order >> RANK_BITS > 0 {
                *order -= 1 << RANK_BITS;
            }
        }
        step
    }
}

/// Gives each small killer cage the other constraints between two of its cells (the pair
/// relations, and the digit classes of entropic and modular lines: positions a multiple of
/// three apart share a class, others differ), so its exact filling sees them: a cage on three
/// cells of an entropic line holds one low, one middle and one high digit, which few totals
/// allow.
fn link_cages(propagators: &mut [Propagator], pairs: &[Pairs], n: usize, full: u64) {
    let lines: Vec<(Vec<u16>, [u64; 3])> = propagators
        .iter()
        .filter_map(|p| match p {
            Propagator::Line(LinePropagator::Classes(c)) => Some((c.cells.clone(), c.classes)),
            _ => None,
        })
        .collect();
    if lines.is_empty() && pairs.is_empty() {
        return;
    }
    // Per class-line kind, the digits beside each digit in the same class and in another.
    let tables = |classes: &[u64; 3]| {
        let class_of = |d: usize| {
            classes
                .iter()
                .copied()
                .find(|m| m >> d & 1 == 1)
                .unwrap_or(full)
        };
        let same: Vec<u64> = (0..n).map(class_of).collect();
        let apart: Vec<u64> = same
            .iter()
            .map(|&c| if c == full { full } else { full & !c })
            .collect();
        (same, apart)
    };
    for p in propagators.iter_mut() {
        let Propagator::Cage(cage) = p else {
            continue;
        };
        if cage.cells.len() > EXACT_CAGE {
            continue;
        }
        let cells = cage.cells.clone();
        let pos = |c: u16| cells.iter().position(|&x| x == c);
        for pair in pairs {
            let (ab, ba) = pair.relation.tables();
            for &(x, y) in &pair.cells {
                if let (Some(a), Some(b)) = (pos(x), pos(y)) {
                    cage.link(a, b, ab, ba);
                }
            }
        }
        for (line, classes) in &lines {
            let (same, apart) = tables(classes);
            for (i, &x) in line.iter().enumerate() {
                for (j, &y) in line.iter().enumerate().skip(i + 1) {
                    if let (Some(a), Some(b)) = (pos(x), pos(y)) {
                        let t = if (j - i) % 3 == 0 { &same } else { &apart };
                        cage.link(a, b, t, t);
                    }
                }
            }
        }
    }
}

/// Per-cell lists laid out as one flat list and start offsets: cell `c`'s list is
/// `flat[starts[c]..starts[c + 1]]` (one allocation each, read in the search's inner loop).
fn flatten<T>(lists: Vec<Vec<T>>) -> (Vec<u32>, Vec<T>) {
    let mut starts = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::with_capacity(lists.iter().map(Vec::len).sum());
    for list in lists {
        starts.push(flat.len() as u32);
        flat.extend(list);
    }
    starts.push(flat.len() as u32);
    (starts, flat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::Cell;
    use crate::core::rules::{Cage, Spec};
    use crate::core::search::control::GuessBudget;
    use crate::core::search::{Solver, Unbounded};

    /// Counts completions by plain backtracking, checking every rule with `find_conflict`.
    fn brute_count(shape: BoxShape, rules: &Rules, cells: &mut Vec<u8>, limit: u64) -> u64 {
        let Some(blank) = cells.iter().position(|&v| v == 0) else {
            return 1;
        };
        let mut count = 0;
        for v in 1..=shape.size() as u8 {
            cells[blank] = v;
            if find_conflict(shape, rules, cells).is_none() {
                count += brute_count(shape, rules, cells, limit - count);
                if count >= limit {
                    break;
                }
            }
        }
        cells[blank] = 0;
        count
    }

    fn specs() -> Vec<Spec> {
        let cell = |row, col| Cell { row, col };
        vec![
            Spec {
                diagonals: true,
                ..Spec::default()
            },
            Spec {
                anti_knight: true,
                ..Spec::default()
            },
            Spec {
                anti_king: true,
                ..Spec::default()
            },
            Spec {
                non_consecutive: true,
                ..Spec::default()
            },
            Spec {
                regions: Some(
                    [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]]
                        .map(|row| row.map(Some).to_vec())
                        .to_vec(),
                ),
                ..Spec::default()
            },
            Spec {
                cages: vec![
                    Cage {
                        total: Some(3),
                        cells: vec![cell(0, 0), cell(0, 1)],
                    },
                    Cage {
                        total: Some(7),
                        cells: vec![cell(1, 1), cell(2, 1), cell(2, 2)],
                    },
                ],
                extra_regions: vec![vec![cell(0, 3), cell(3, 0)]],
                ..Spec::default()
            },
        ]
    }

    #[test]
    fn counts_match_plain_backtracking_on_4x4() {
        let shape = BoxShape::new(2, 2).unwrap();
        for spec in specs() {
            let rules = Arc::new(Rules::new(spec.clone()).unwrap());
            let mut solver = Solver::with_rules(shape, rules.clone()).unwrap();
            for givens in [vec![], vec![(0usize, 1u8)], vec![(5, 2), (10, 3)]] {
                let mut cells = vec![0u8; 16];
                for &(i, v) in &givens {
                    cells[i] = v;
                }
                if find_conflict(shape, &rules, &cells).is_some() {
                    continue;
                }
                let want = brute_count(shape, &rules, &mut cells.clone(), 1000);
                let got = solver.count(&cells, None, &mut Unbounded).unwrap();
                assert_eq!(got, want, "{spec:?} {givens:?}");
                let all = solver.solutions(
                    &crate::core::Grid::new(shape, cells.clone()).unwrap(),
                    1000,
                    &mut Unbounded,
                );
                for sol in all.unwrap() {
                    assert!(find_conflict(shape, &rules, sol.cells()).is_none());
                }
            }
        }
    }

    /// The engine's count (to 200) of each of `specs` on `shape` under each set of `givens`
    /// that breaks no rule outright, against plain backtracking's.
    fn assert_counts_as_backtracking(shape: BoxShape, specs: &[Spec], givens: &[Vec<(usize, u8)>]) {
        let nc = shape.size() * shape.size();
        for spec in specs {
            let rules = Arc::new(Rules::new(spec.clone()).unwrap());
            let mut solver = Solver::with_rules(shape, rules.clone()).unwrap();
            for givens in givens {
                let mut cells = vec![0u8; nc];
                for &(i, v) in givens {
                    cells[i] = v;
                }
                if find_conflict(shape, &rules, &cells).is_some() {
                    continue;
                }
                let want = brute_count(shape, &rules, &mut cells.clone(), 200);
                let got = solver.count(&cells, Some(200), &mut Unbounded).unwrap();
                assert_eq!(got, want, "{spec:?} {givens:?}");
            }
        }
    }

    /// Pair relations, with and without the negative constraints: what the engine points
    /// through and ranks its branches by.
    #[test]
    fn pair_relations_count_as_plain_backtracking() {
        use crate::core::rules::Pair;
        let cell = |row, col| Cell { row, col };
        let pair = |a, b, value| Pair {
            cells: [a, b],
            value,
        };
        let specs = [
            Spec {
                negative_ratio: true,
                ratios: vec![pair(cell(0, 0), cell(0, 1), 2)],
                ..Spec::default()
            },
            Spec {
                negative_ratio: true,
                ..Spec::default()
            },
            Spec {
                negative_xv: true,
                xv: vec![pair(cell(1, 1), cell(1, 2), 5)],
                ..Spec::default()
            },
            Spec {
                differences: vec![pair(cell(2, 0), cell(3, 0), 1)],
                ratios: vec![pair(cell(2, 2), cell(2, 3), 3)],
                minimum_cells: vec![cell(1, 0)],
                ..Spec::default()
            },
        ];
        for (shape, givens) in [
            (
                BoxShape::new(2, 2).unwrap(),
                vec![vec![], vec![(5, 2)], vec![(0, 1), (15, 3)]],
            ),
            (
                BoxShape::new(2, 3).unwrap(),
                vec![
                    vec![(0, 1), (7, 4), (14, 6)],
                    vec![(3, 2), (20, 5), (33, 1), (35, 3)],
                ],
            ),
        ] {
            assert_counts_as_backtracking(shape, &specs, &givens);
        }
    }

    /// Small cages filled exactly, with the pair relations and entropic and modular line
    /// classes between their cells.
    #[test]
    fn linked_cages_count_as_plain_backtracking() {
        use crate::core::rules::{LineKind, Pair};
        let cell = |row, col| Cell { row, col };
        let cage = |total, cells: Vec<Cell>| Cage {
            total: Some(total),
            cells,
        };
        let with_line = |kind: LineKind, line: Vec<Cell>, cages: Vec<Cage>| {
            let mut spec = Spec {
                cages,
                ..Spec::default()
            };
            spec.lines[kind as usize].push(line);
            spec
        };
        let specs = [
            with_line(
                LineKind::Entropic,
                vec![cell(0, 0), cell(0, 1), cell(1, 1), cell(1, 2)],
                vec![
                    cage(7, vec![cell(0, 0), cell(0, 1), cell(1, 1)]),
                    cage(5, vec![cell(1, 2), cell(2, 2)]),
                ],
            ),
            with_line(
                LineKind::Modular,
                vec![cell(2, 0), cell(2, 1), cell(3, 1), cell(3, 2), cell(3, 3)],
                vec![
                    cage(6, vec![cell(2, 0), cell(2, 1), cell(3, 1)]),
                    cage(10, vec![cell(3, 2), cell(3, 3), cell(2, 3), cell(1, 3)]),
                ],
            ),
            Spec {
                cages: vec![
                    cage(9, vec![cell(0, 0), cell(0, 1), cell(1, 0)]),
                    cage(10, vec![cell(1, 2), cell(2, 2), cell(2, 3), cell(3, 3)]),
                ],
                differences: vec![Pair {
                    cells: [cell(0, 0), cell(0, 1)],
                    value: 1,
                }],
                xv: vec![Pair {
                    cells: [cell(2, 3), cell(3, 3)],
                    value: 5,
                }],
                ..Spec::default()
            },
        ];
        for (shape, givens) in [
            (
                BoxShape::new(2, 2).unwrap(),
                vec![vec![], vec![(5, 2)], vec![(15, 3)]],
            ),
            (
                BoxShape::new(2, 3).unwrap(),
                vec![vec![(20, 4), (35, 1)], vec![(7, 2), (33, 6), (28, 3)]],
            ),
        ] {
            assert_counts_as_backtracking(shape, &specs, &givens);
        }
    }

    #[test]
    fn a_seed_changes_the_order_but_not_the_solutions() {
        let shape = BoxShape::new(2, 3).unwrap();
        for spec in specs().into_iter().filter(|s| s.regions.is_none()) {
            let rules = Arc::new(Rules::new(spec.clone()).unwrap());
            let mut variant = Variant::new(shape, rules.clone()).unwrap();
            let all = |variant: &mut Variant, seed| {
                let attempt = Attempt {
                    seed,
                    node_budget: u64::MAX,
                    guesses: GuessBudget::default(),
                };
                let mut found = Vec::new();
                let out = variant.search(&[0; 36], &mut Unbounded, attempt, |s| {
                    found.push(s.to_vec());
                    Flow::Continue
                });
                assert_eq!(out, Ok(false));
                found
            };
            let plain = all(&mut variant, 0);
            let first = Solver::with_rules(shape, rules)
                .unwrap()
                .solve(
                    &crate::core::Grid::new(shape, vec![0; 36]).unwrap(),
                    &mut Unbounded,
                )
                .unwrap();
            assert_eq!(plain[0], first.cells(), "seed 0 is the plain order");
            let mut sorted = plain.clone();
            sorted.sort();
            let mut reordered = false;
            for seed in 1..=4 {
                let mut seeded = all(&mut variant, seed);
                reordered |= seeded != plain;
                seeded.sort();
                assert_eq!(seeded, sorted, "{spec:?} seed {seed}");
            }
            assert!(reordered, "{spec:?}");
        }
    }

    #[test]
    fn release_frees_a_deep_arena_and_the_solver_still_works() {
        let shape = BoxShape::new(5, 5).unwrap();
        let rules = Arc::new(
            Rules::new(Spec {
                diagonals: true,
                ..Spec::default()
            })
            .unwrap(),
        );
        let empty = crate::core::Grid::new(shape, vec![0; 625]).unwrap();
        let mut solver = Solver::with_rules(shape, rules).unwrap();
        let first = solver.solve(&empty, &mut Unbounded).unwrap();
        let grown = solver.held_bytes();
        assert!(grown > 1 << 20, "an empty 25x25 grows the arena: {grown}");
        solver.release(128 * 1024);
        assert!(solver.held_bytes() <= 128 * 1024, "{}", solver.held_bytes());
        assert_eq!(solver.solve(&empty, &mut Unbounded).unwrap(), first);
    }

    #[test]
    fn clues_that_break_a_rule_are_an_error() {
        let shape = BoxShape::CLASSIC;
        let rules = Arc::new(
            Rules::new(Spec {
                anti_king: true,
                ..Spec::default()
            })
            .unwrap(),
        );
        let mut cells = vec![0u8; 81];
        cells[2] = 4;
        cells[12] = 4;
        let err = Solver::with_rules(shape, rules)
            .unwrap()
            .count(&cells, Some(2), &mut Unbounded)
            .unwrap_err();
        assert!(
            err.to_string().starts_with("anti-king: (0, 2) and (1, 3)"),
            "{err}"
        );
    }
}
