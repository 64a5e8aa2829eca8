//! Sudoku Explainer's chaining techniques: bidirectional cycles, forcing chains, Nishio, cell
//! and region forcing chains, dynamic forcing chains and their nested levels.
//!
//! SE rates a chain by its family's base difficulty plus a length increment, and the driver
//! applies the first hint of the first family that has one, SE's hints being sorted by
//! (difficulty, complexity, kind). The difficulty therefore hangs on the exact chain SE builds:
//! the implications are followed in SE's order (cell values ascending, then the block, the row
//! and the column of a candidate), the first way a candidate is reached is the one kept, and
//! the complexity counts the distinct candidates (with their on/off state) the conclusion rests
//! on. The code keeps SE's search order and queue discipline for that reason, over plain arrays
//! indexed by candidate (`cell * 9 + digit`) and by potential (`candidate * 2 + on`).

use super::{Hint, State, CELL_REGIONS, PEER_SETS, REGION_CELLS};
use crate::core::error::{Error, Result};
use crate::core::search::{Control, SearchStats};

/// The caller's [`Control`], asked now and then inside a chain search: one step of the nested
/// levels follows thousands of assumptions and can run for seconds, far past a time limit
/// checked only between steps. Once it says stop, every search returns at its next check with
/// what it has, and [`hints`] discards it.
pub(crate) struct Budget<'a> {
    control: &'a mut dyn Control,
    work: u32,
    stopped: bool,
}

impl<'a> Budget<'a> {
    /// How much work (a unit being about one cell's unary searches, an assumption followed
    /// counting [`Budget::FOLLOW`]) passes between two questions to the control: well under a
    /// millisecond of work, so a stop is felt at once, and a question costs nothing measurable.
    const PERIOD: u32 = 1024;
    const FOLLOW: u32 = 16;

    pub(crate) fn new(control: &'a mut dyn Control) -> Self {
        Budget {
            control,
            work: 0,
            stopped: false,
        }
    }

    /// Counts `work`; whether the search may go on.
    #[inline]
    fn spend(&mut self, work: u32) -> bool {
        self.work += work;
        if self.work >= Self::PERIOD && !self.stopped {
            self.work = 0;
            self.stopped = !self.control.proceed(&SearchStats::default());
        }
        !self.stopped
    }
}

/// SE's chaining families, in the order SE tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// Bidirectional X-, Y- and XY-cycles, forcing X-chains and forcing chains (6.5 and up).
    Cycles,
    /// Nishio forcing chains (7.5 and up).
    Nishio,
    /// Cell and region forcing chains (8.0 and up).
    Multiple,
    /// Dynamic contradiction, double, cell and region forcing chains (8.5 and up).
    Dynamic,
    /// Dynamic forcing chains helped by locked candidates, pairs and X-wings (9.0 and up).
    DynamicPlus,
    /// Dynamic forcing chains helped by those and by forcing chains (9.5 and up).
    NestedForcingChains,
    /// ... and by cell and region forcing chains (10.0 and up).
    NestedMultipleForcingChains,
    /// Dynamic forcing chains helped by the basic techniques and by dynamic forcing chains
    /// nested at level 0, 1 or 2 (10.5 and up: SE tries the three in turn, at one base).
    NestedDynamicForcingChains(u8),
}

impl Family {
    /// Every family, in SE's order (the driver's `ORDER` interleaves them with aligned triple
    /// exclusion; the tests walk them all).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const ALL: [Family; 10] = [
        Family::Cycles,
        Family::Nishio,
        Family::Multiple,
        Family::Dynamic,
        Family::DynamicPlus,
        Family::NestedForcingChains,
        Family::NestedMultipleForcingChains,
        Family::NestedDynamicForcingChains(0),
        Family::NestedDynamicForcingChains(1),
        Family::NestedDynamicForcingChains(2),
    ];
}

/// A potential: candidate `cell * 9 + digit` (digit 0..9), on or off.
type Pid = u16;

#[inline]
fn pid(cell: usize, d: usize, on: bool) -> Pid {
    ((cell * 9 + d) * 2 + on as usize) as Pid
}
#[inline]
fn pcell(p: Pid) -> usize {
    p as usize / 18
}
#[inline]
fn pdigit(p: Pid) -> usize {
    p as usize / 2 % 9
}
#[inline]
fn pon(p: Pid) -> bool {
    p & 1 == 1
}

/// A set of potentials (1,458 bits).
#[derive(Clone)]
struct PSet([u64; 23]);

impl PSet {
    fn new() -> Self {
        PSet([0; 23])
    }
    #[inline]
    fn has(&self, p: Pid) -> bool {
        self.0[p as usize >> 6] >> (p & 63) & 1 == 1
    }
    #[inline]
    fn set(&mut self, p: Pid) {
        self.0[p as usize >> 6] |= 1 << (p & 63);
    }
    /// Keeps only the potentials `other` has too.
    #[inline]
    fn and_with(&mut self, other: &PSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// The cells of each region as a bit set (bit `cell`), regions numbered as [`REGION_CELLS`].
const REGION_MASKS: [u128; 27] = region_masks();

const fn region_masks() -> [u128; 27] {
    let cells = REGION_CELLS;
    let mut out = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            out[r] |= 1 << cells[r][i];
            i += 1;
        }
        r += 1;
    }
    out
}

/// The cells holding each digit as a candidate (bit `cell` of plane `digit`): the grid read by
/// digit, so a region's places of a digit are one `and`. A region's cells in SE's order are its
/// cells in ascending index order, so walking a plane's bits upwards keeps SE's order.
type Planes = [u128; 9];

fn planes(cands: &[u16; 81]) -> Planes {
    let mut out = [0u128; 9];
    for (cell, &m) in cands.iter().enumerate() {
        let mut m = m;
        while m != 0 {
            out[m.trailing_zeros() as usize] |= 1 << cell;
            m &= m - 1;
        }
    }
    out
}

/// The potentials that get off when `cell`/`d` is on, in SE's order: the cell's other values
/// (when `y`), then the digit's other places in the block, the row and the column.
fn on_to_off(
    cands: &[u16; 81],
    planes: &Planes,
    cell: usize,
    d: usize,
    y: bool,
    out: &mut Vec<(Pid, Cause)>,
) {
    out.clear();
    if y {
        let mut m = cands[cell] & !(1 << d);
        while m != 0 {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push((pid(cell, v, false), Cause::Cell));
        }
    }
    let mut added: u128 = 1 << cell;
    for &r in &CELL_REGIONS[cell] {
        let mut m = REGION_MASKS[r as usize] & planes[d] & !added;
        added |= m;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            out.push((pid(o, d, false), Cause::Region(r)));
        }
    }
}

/// Whether `m` has exactly one bit set (the build may lack a population count instruction,
/// and these tests run for every link followed).
#[inline]
fn one_bit(m: u128) -> bool {
    m != 0 && m & (m - 1) == 0
}

/// Whether `m` has exactly two bits set.
#[inline]
fn two_bits(m: u16) -> bool {
    m != 0 && {
        let rest = m & (m - 1);
        rest != 0 && rest & (rest - 1) == 0
    }
}

/// Why a potential got on (the last value of a cell, or the last place in a region), or off
/// (another value of the cell, or the digit elsewhere in a region).
#[derive(Clone, Copy)]
enum Cause {
    Cell,
    Region(u8),
}

/// The potentials that get on when `cell`/`d` is off, in SE's order, each once (the first
/// cause kept): the cell's other value when it has two (when `y`), then the digit's last
/// place in the block, the row and the column (when `x`).
fn off_to_on(
    cands: &[u16; 81],
    planes: &Planes,
    cell: usize,
    d: usize,
    y: bool,
    x: bool,
    out: &mut Vec<(Pid, Cause)>,
) {
    out.clear();
    if y && two_bits(cands[cell]) {
        let other = (cands[cell] & !(1 << d)).trailing_zeros() as usize;
        if other < 9 {
            out.push((pid(cell, other, true), Cause::Cell));
        }
    }
    if x {
        for &r in &CELL_REGIONS[cell] {
            let m = REGION_MASKS[r as usize] & planes[d] & !(1u128 << cell);
            if one_bit(m) {
                let p = pid(m.trailing_zeros() as usize, d, true);
                if !out.iter().any(|&(q, _)| q == p) {
                    out.push((p, Cause::Region(r)));
                }
            }
        }
    }
}

/// SE's length increment: 0.1 for each step the complexity (less two) passes in the series
/// 4, 6, 8, 12, 16, 24, 32, ... (alternately times 3/2 and 4/3), summed as SE sums it.
fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0f64;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The potentials a chain passes through, each with why it got on or off.
type Chain = Vec<(Pid, Option<Cause>)>;

/// A hint before sorting: SE's difficulty, complexity and kind order, and its conclusion.
struct Candidate {
    difficulty: f64,
    complexity: u32,
    sort_key: u8,
    technique: &'static str,
    /// The conclusion: `cell`/`digit` on (placed) or off (eliminated).
    target: Pid,
    /// For cycles: the eliminations (candidate indexes).
    cycle_elims: Vec<u16>,
    /// For chains found inside another chain: the chain (for cycles and forcing chains from
    /// its end; for the others, each target's ancestors breadth first).
    chain: Chain,
}

/// Whether a hint keyed (difficulty, complexity, kind) sorts before another.
fn sorts_before(a: (f64, u32, u8), b: (f64, u32, u8)) -> bool {
    a.0.partial_cmp(&b.0)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
        .is_lt()
}

/// Sorts hints as SE does; stable, so equal keys keep SE's discovery order.
fn sort(found: &mut [Candidate]) {
    found.sort_by(|a, b| {
        a.difficulty
            .partial_cmp(&b.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.sort_key.cmp(&b.sort_key))
    });
}

fn finish(state: &State, mut found: Vec<Candidate>, out: &mut Vec<Hint>) {
    sort(&mut found);
    for c in found {
        let tenths = (c.difficulty * 10.0).round() as u16;
        let mut hint = Hint {
            tenths,
            technique: c.technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
        };
        if c.cycle_elims.is_empty() {
            let cell = pcell(c.target);
            let d = pdigit(c.target);
            if pon(c.target) {
                hint.placements.push((cell as u8, d as u8 + 1));
                let mut m = state.cands[cell] & !(1 << d);
                while m != 0 {
                    let v = m.trailing_zeros() as u8;
                    m &= m - 1;
                    hint.eliminations.push((cell as u8, v + 1));
                }
            } else {
                hint.eliminations.push((cell as u8, d as u8 + 1));
            }
        } else {
            hint.eliminations = c
                .cycle_elims
                .iter()
                .map(|&k| ((k / 9) as u8, (k % 9 + 1) as u8))
                .collect();
        }
        out.push(hint);
    }
}

/// Pushes the hint of `family` SE applies on `state` (the first in SE's order), if any.
/// `control` is asked now and then during the search: when it says stop, nothing is pushed
/// and the result is [`Error::Interrupted`].
pub(crate) fn hints(
    state: &State,
    family: Family,
    out: &mut Vec<Hint>,
    control: &mut dyn Control,
) -> Result<()> {
    family_hints(state, family, false, out, control)
}

/// [`hints`], with more hints of the family after the first, sorted the way SE sorts them:
/// every one of the multiple-chain families, the cycles and forcing chains that could sort
/// first (the tests check them all against the solution).
#[cfg(test)]
pub(crate) fn hints_all(
    state: &State,
    family: Family,
    out: &mut Vec<Hint>,
    control: &mut dyn Control,
) -> Result<()> {
    family_hints(state, family, true, out, control)
}

fn family_hints(
    state: &State,
    family: Family,
    all: bool,
    out: &mut Vec<Hint>,
    control: &mut dyn Control,
) -> Result<()> {
    let budget = &mut Budget::new(control);
    let found = match family {
        Family::Cycles => unary::hints(state, false, budget),
        Family::Nishio => multiple::hints(state, Mode::NISHIO, false, all, budget),
        Family::Multiple => multiple::hints(state, Mode::MULTIPLE, false, all, budget),
        Family::Dynamic => multiple::hints(state, Mode::DYNAMIC, false, all, budget),
        Family::DynamicPlus => multiple::hints(state, Mode::nested(1, 0), false, all, budget),
        Family::NestedForcingChains => {
            multiple::hints(state, Mode::nested(2, 0), false, all, budget)
        }
        Family::NestedMultipleForcingChains => {
            multiple::hints(state, Mode::nested(3, 0), false, all, budget)
        }
        Family::NestedDynamicForcingChains(inner) => {
            multiple::hints(state, Mode::nested(4, inner), false, all, budget)
        }
    };
    multiple::drop_spare_runs();
    if budget.stopped {
        return Err(Error::Interrupted);
    }
    finish(state, found, out);
    Ok(())
}

/// Keeps the runs a chain step is done with for the next steps of the same rating (their
/// buffers are most of the cost of a new run), and drops them when it goes: a rating holds one
/// while it runs, so the memory kept is what one step needed at most, and only while rating.
pub(crate) struct SpareRuns(());

impl SpareRuns {
    pub(crate) fn hold() -> SpareRuns {
        multiple::HELD.with(|h| h.set(h.get() + 1));
        SpareRuns(())
    }
}

impl Drop for SpareRuns {
    fn drop(&mut self) {
        multiple::HELD.with(|h| h.set(h.get() - 1));
        multiple::drop_spare_runs();
    }
}

/// The settings of one of SE's multiple-chain engines.
#[derive(Clone, Copy)]
struct Mode {
    dynamic: bool,
    nishio: bool,
    /// The nesting level: 1 adds locked candidates, pairs and X-wings inside the chains, 2
    /// cycles and forcing chains, 3 cell and region forcing chains, 4 (instead of those two)
    /// dynamic forcing chains of level `inner`.
    level: u8,
    inner: u8,
    base: f64,
}

impl Mode {
    const NISHIO: Mode = Mode {
        dynamic: true,
        nishio: true,
        level: 0,
        inner: 0,
        base: 7.5,
    };
    const MULTIPLE: Mode = Mode {
        dynamic: false,
        nishio: false,
        level: 0,
        inner: 0,
        base: 8.0,
    };
    const DYNAMIC: Mode = Mode {
        dynamic: true,
        nishio: false,
        level: 0,
        inner: 0,
        base: 8.5,
    };
    /// Dynamic forcing chains nested at `level` (SE's base difficulty: 8.5 plus 0.5 a level).
    const fn nested(level: u8, inner: u8) -> Mode {
        Mode {
            dynamic: true,
            nishio: false,
            level,
            inner,
            base: 8.5 + 0.5 * level as f64,
        }
    }
}

/// Cycles and forcing chains: one assumption followed through single links.
mod unary {
    use super::{
        length_difficulty, off_to_on, on_to_off, one_bit, pcell, pdigit, pid, planes, pon,
        sorts_before, two_bits, Budget, Candidate, Cause, PSet, Pid, Planes, State, PEER_SETS,
        REGION_MASKS,
    };

    struct Node {
        pid: Pid,
        parent: u32,
        cause: Option<Cause>,
        depth: u32,
    }

    const ROOT: u32 = u32::MAX;

    /// The links of one grid, computed once for the thousands of searches over it: per
    /// candidate, what its "on" turns off (the cell's other values, then the places in its
    /// regions) and what its "off" turns on (the cell's other value, then the regions' last
    /// places), in SE's order.
    struct Links {
        /// Candidate `k`'s "on" links are `on[on_start[k]..on_start[k + 1]]`, the first
        /// `on_cell[k]` of them to the cell's other values.
        on: Vec<(Pid, Cause)>,
        on_start: Vec<u32>,
        on_cell: Vec<u8>,
        /// Candidate `k`'s "off" links to its cell's other value (when the cell has two).
        off_cell: Vec<Option<Pid>>,
        /// Candidate `k`'s "off" links to its regions' last places.
        off: Vec<(Pid, Cause)>,
        off_start: Vec<u32>,
    }

    impl Links {
        fn new(cands: &[u16; 81], planes: &Planes) -> Links {
            let mut links = Links {
                on: Vec::with_capacity(729 * 12),
                on_start: Vec::with_capacity(730),
                on_cell: vec![0; 729],
                off_cell: vec![None; 729],
                off: Vec::with_capacity(729),
                off_start: Vec::with_capacity(730),
            };
            let mut buf = Vec::with_capacity(32);
            for k in 0..729 {
                let (cell, d) = (k / 9, k % 9);
                links.on_start.push(links.on.len() as u32);
                links.off_start.push(links.off.len() as u32);
                if cands[cell] >> d & 1 == 0 {
                    continue;
                }
                on_to_off(cands, planes, cell, d, true, &mut buf);
                links.on_cell[k] = (cands[cell].count_ones() - 1) as u8;
                links.on.extend_from_slice(&buf);
                off_to_on(cands, planes, cell, d, true, false, &mut buf);
                links.off_cell[k] = buf.first().map(|&(q, _)| q);
                off_to_on(cands, planes, cell, d, false, true, &mut buf);
                links.off.extend_from_slice(&buf);
            }
            links.on_start.push(links.on.len() as u32);
            links.off_start.push(links.off.len() as u32);
            links
        }

        /// Whether `p` ("off") turns anything on: a chain through an "off" potential that
        /// does not goes nowhere, so the searches need not keep it.
        #[inline]
        fn off_leads(&self, p: Pid, y: bool, x: bool) -> bool {
            let k = p as usize / 2;
            (y && self.off_cell[k].is_some()) || (x && self.off_start[k] != self.off_start[k + 1])
        }

        /// What `p` ("on") turns off, with the cell's other values when `y`.
        #[inline]
        fn on_to_off(&self, p: Pid, y: bool) -> &[(Pid, Cause)] {
            let k = p as usize / 2;
            let (a, b) = (self.on_start[k] as usize, self.on_start[k + 1] as usize);
            let skip = if y { 0 } else { self.on_cell[k] as usize };
            &self.on[a + skip..b]
        }

        /// What `p` ("off") turns on: the cell's other value when `y`, then the regions' last
        /// places when `x`; `f` sees each.
        #[inline]
        fn off_to_on(&self, p: Pid, y: bool, x: bool, mut f: impl FnMut(Pid, Cause) -> bool) {
            let k = p as usize / 2;
            if y {
                if let Some(q) = self.off_cell[k] {
                    if !f(q, Cause::Cell) {
                        return;
                    }
                }
            }
            if x {
                let (a, b) = (self.off_start[k] as usize, self.off_start[k + 1] as usize);
                for &(q, cause) in &self.off[a..b] {
                    if !f(q, cause) {
                        return;
                    }
                }
            }
        }
    }

    struct Search {
        planes: Planes,
        links: Links,
        nodes: Vec<Node>,
        to_on: PSet,
        to_off: PSet,
        pending_on: Vec<u32>,
        pending_off: Vec<u32>,
        next: Vec<u32>,
    }

    impl Search {
        fn push(&mut self, pid: Pid, parent: u32) -> u32 {
            self.push_cause(pid, parent, None)
        }

        fn push_cause(&mut self, pid: Pid, parent: u32, cause: Option<Cause>) -> u32 {
            let depth = if parent == ROOT {
                0
            } else {
                self.nodes[parent as usize].depth + 1
            };
            self.nodes.push(Node {
                pid,
                parent,
                cause,
                depth,
            });
            (self.nodes.len() - 1) as u32
        }

        /// Whether `pid` is an ancestor of node `n` (first parents only, as SE looks).
        fn is_parent(&self, mut n: u32, pid: Pid) -> bool {
            while self.nodes[n as usize].parent != ROOT {
                n = self.nodes[n as usize].parent;
                if self.nodes[n as usize].pid == pid {
                    return true;
                }
            }
            false
        }

        /// The cycles back to `source` (its "on" potential), as the nodes that close them.
        fn cycles(&mut self, source: Pid, y: bool, x: bool, limit: u32, cycles: &mut Vec<u32>) {
            self.nodes.clear();
            cycles.clear();
            self.to_on = PSet::new();
            let mut pending_on = std::mem::take(&mut self.pending_on);
            let mut pending_off = std::mem::take(&mut self.pending_off);
            let mut next = std::mem::take(&mut self.next);
            pending_on.clear();
            pending_off.clear();
            pending_on.push(self.push(source, ROOT));
            self.to_on.set(source);
            // An "off" potential turns on the same potentials wherever it is reached, and only
            // its first node (followed first) finds any not on yet: later nodes of it matter
            // only when they close a cycle, which only the "off"s linked strongly to `source`
            // do (by symmetry, those its own "off" turns on). The others are kept once.
            let mut closing = [Pid::MAX; 4];
            let mut n_closing = 0;
            self.links.off_to_on(source ^ 1, y, x, |q, _| {
                if n_closing < closing.len() {
                    closing[n_closing] = q ^ 1;
                    n_closing += 1;
                }
                true
            });
            let mut kept = PSet::new();
            let mut length = 0;
            while !pending_on.is_empty() || !pending_off.is_empty() {
                // The cycles this round closes have `length + 2` potentials.
                if length + 2 > limit {
                    break;
                }
                length += 1;
                for &p in &pending_on {
                    let pp = self.nodes[p as usize].pid;
                    for i in 0..self.links.on_to_off(pp, y).len() {
                        let (q, cause) = self.links.on_to_off(pp, y)[i];
                        if !self.links.off_leads(q, y, x) {
                            continue;
                        }
                        let closes = closing[..n_closing].contains(&q);
                        if (closes || !kept.has(q)) && !self.is_parent(p, q) {
                            kept.set(q);
                            let n = self.push_cause(q, p, Some(cause));
                            pending_off.push(n);
                        }
                    }
                }
                pending_on.clear();
                length += 1;
                std::mem::swap(&mut pending_off, &mut next);
                for &p in &next {
                    let pp = self.nodes[p as usize].pid;
                    let links = &self.links;
                    let nodes = &mut self.nodes;
                    let to_on = &mut self.to_on;
                    links.off_to_on(pp, y, x, |q, cause| {
                        if length >= 4 && q == source {
                            nodes.push(Node {
                                pid: q,
                                parent: p,
                                cause: Some(cause),
                                depth: nodes[p as usize].depth + 1,
                            });
                            cycles.push((nodes.len() - 1) as u32);
                        }
                        if !to_on.has(q) {
                            to_on.set(q);
                            nodes.push(Node {
                                pid: q,
                                parent: p,
                                cause: Some(cause),
                                depth: nodes[p as usize].depth + 1,
                            });
                            pending_on.push((nodes.len() - 1) as u32);
                        }
                        true
                    });
                }
                next.clear();
            }
            self.pending_on = pending_on;
            self.pending_off = pending_off;
            self.next = next;
        }

        /// The first conclusion that contradicts `source`, found breadth first: the node of
        /// its negation.
        fn forcing(&mut self, source: Pid, y: bool, limit: u32) -> Option<u32> {
            self.nodes.clear();
            self.to_on = PSet::new();
            self.to_off = PSet::new();
            let conj = source ^ 1;
            let mut pending_on = std::mem::take(&mut self.pending_on);
            let mut pending_off = std::mem::take(&mut self.pending_off);
            let mut next = std::mem::take(&mut self.next);
            pending_on.clear();
            pending_off.clear();
            let root = self.push(source, ROOT);
            if pon(source) {
                self.to_on.set(source);
                pending_on.push(root);
            } else {
                self.to_off.set(source);
                pending_off.push(root);
            }
            let mut found = None;
            'search: while !pending_on.is_empty() || !pending_off.is_empty() {
                std::mem::swap(&mut pending_on, &mut next);
                for &p in &next {
                    if self.nodes[p as usize].depth + 2 > limit {
                        break 'search;
                    }
                    let pp = self.nodes[p as usize].pid;
                    for i in 0..self.links.on_to_off(pp, y).len() {
                        let (q, cause) = self.links.on_to_off(pp, y)[i];
                        if q == conj {
                            found = Some(self.push_cause(q, p, Some(cause)));
                            break 'search;
                        }
                        if !self.to_off.has(q) {
                            self.to_off.set(q);
                            if self.links.off_leads(q, y, true) {
                                let n = self.push_cause(q, p, Some(cause));
                                pending_off.push(n);
                            }
                        }
                    }
                }
                next.clear();
                std::mem::swap(&mut pending_off, &mut next);
                for &p in &next {
                    if self.nodes[p as usize].depth + 2 > limit {
                        break 'search;
                    }
                    let pp = self.nodes[p as usize].pid;
                    let links = &self.links;
                    let nodes = &mut self.nodes;
                    let to_on = &mut self.to_on;
                    links.off_to_on(pp, y, true, |q, cause| {
                        let depth = nodes[p as usize].depth + 1;
                        if q == conj {
                            nodes.push(Node {
                                pid: q,
                                parent: p,
                                cause: Some(cause),
                                depth,
                            });
                            found = Some((nodes.len() - 1) as u32);
                            return false;
                        }
                        if !to_on.has(q) {
                            to_on.set(q);
                            nodes.push(Node {
                                pid: q,
                                parent: p,
                                cause: Some(cause),
                                depth,
                            });
                            pending_on.push((nodes.len() - 1) as u32);
                        }
                        true
                    });
                    if found.is_some() {
                        break 'search;
                    }
                }
                next.clear();
            }
            next.clear();
            self.pending_on = pending_on;
            self.pending_off = pending_off;
            self.next = next;
            found
        }

        /// The chain ending at node `n`, from its end to its assumption.
        fn path(&self, mut n: u32) -> Vec<(Pid, Option<Cause>)> {
            let mut out = Vec::new();
            loop {
                let node = &self.nodes[n as usize];
                out.push((node.pid, node.cause));
                if node.parent == ROOT {
                    return out;
                }
                n = node.parent;
            }
        }

        /// The number of distinct potentials on the chain ending at node `n`.
        fn count(&self, mut n: u32) -> u32 {
            let mut seen = PSet::new();
            let mut count = 0;
            loop {
                let node = &self.nodes[n as usize];
                if !seen.has(node.pid) {
                    seen.set(node.pid);
                    count += 1;
                }
                if node.parent == ROOT {
                    return count;
                }
                n = node.parent;
            }
        }

        /// SE's cycle eliminations: candidates outside the cycle's cells that see both an
        /// "on" and an "off" potential of their digit on the cycle, cell by cell.
        fn cycle_eliminations(&self, end: u32) -> Vec<u16> {
            let mut cells: u128 = 0;
            let mut forw = [0u128; 9];
            let mut back = [0u128; 9];
            let mut n = end;
            while self.nodes[n as usize].parent != ROOT {
                let p = self.nodes[n as usize].pid;
                let (cell, d) = (pcell(p), pdigit(p));
                cells |= 1 << cell;
                let seen = PEER_SETS[cell] & self.planes[d];
                if pon(p) {
                    forw[d] |= seen;
                } else {
                    back[d] |= seen;
                }
                n = self.nodes[n as usize].parent;
            }
            let mut both = [0u128; 9];
            let mut any = 0;
            for d in 0..9 {
                both[d] = forw[d] & back[d] & !cells;
                any |= both[d];
            }
            let mut out = Vec::new();
            while any != 0 {
                let cell = any.trailing_zeros() as usize;
                any &= any - 1;
                for (d, b) in both.iter().enumerate() {
                    if b >> cell & 1 == 1 {
                        out.push((cell * 9 + d) as u16);
                    }
                }
            }
            out
        }
    }

    /// The grid's links as digit planes, for forcing chains searched by level: outside nested
    /// chains a forcing chain's hint is only its conclusion (the assumption's negation) and
    /// its complexity, and each potential of the breadth-first tree is reached once, so the
    /// complexity is the level at which the negation is first reached plus one. A level's
    /// potentials are followed all at once, a digit plane at a time, rather than one by one.
    struct Levels {
        planes: Planes,
        /// The cells with two candidates.
        pairs: u128,
        /// `partners[d][cell]`: the places of `d` that get on when `cell`'s `d` is off (the
        /// other place of each of its regions where `d` has two).
        partners: [[u128; 81]; 9],
    }

    // Digits index several planes at once here.
    #[allow(clippy::needless_range_loop)]
    impl Levels {
        fn new(cands: &[u16; 81], planes: &Planes) -> Box<Levels> {
            let mut levels = Box::new(Levels {
                planes: *planes,
                pairs: 0,
                partners: [[0; 81]; 9],
            });
            for (cell, &m) in cands.iter().enumerate() {
                if two_bits(m) {
                    levels.pairs |= 1 << cell;
                }
            }
            for d in 0..9 {
                for region in &REGION_MASKS {
                    let places = region & planes[d];
                    if places != 0 && one_bit(places & (places - 1)) {
                        let (a, b) = (places.trailing_zeros(), places.ilog2());
                        levels.partners[d][a as usize] |= 1 << b;
                        levels.partners[d][b as usize] |= 1 << a;
                    }
                }
            }
            levels
        }

        /// [`Levels::forcing`] through one digit's places only (forcing X-chains).
        fn forcing_x(&self, start: Pid, limit: u32) -> Option<u32> {
            let (cell, d) = (pcell(start), pdigit(start));
            let (plane, partners) = (self.planes[d], &self.partners[d]);
            let mut frontier: u128 = 1 << cell;
            let (mut on, mut off) = if pon(start) {
                (frontier, 0)
            } else {
                (0, frontier)
            };
            let mut from_on = pon(start);
            let mut depth = 0u32;
            while frontier != 0 && depth + 2 <= limit {
                let mut next = 0u128;
                let mut m = frontier;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    next |= if from_on {
                        PEER_SETS[c] & plane
                    } else {
                        partners[c]
                    };
                    m &= m - 1;
                }
                // The negation is reached by the kind of potential this level turns to.
                if pon(start) == from_on && next >> cell & 1 == 1 {
                    return Some(depth + 2);
                }
                let seen = if from_on { &mut off } else { &mut on };
                next &= !*seen;
                *seen |= next;
                frontier = next;
                from_on = !from_on;
                depth += 1;
            }
            None
        }

        /// For each digit, the cells where another digit of `set` is: `set` with each
        /// digit's own plane left out.
        fn others(set: &[u128; 9]) -> [u128; 9] {
            let mut out = [0u128; 9];
            let mut below = 0u128;
            for d in 0..9 {
                out[d] = below;
                below |= set[d];
            }
            let mut above = 0u128;
            for d in (0..9).rev() {
                out[d] |= above;
                above |= set[d];
            }
            out
        }

        /// The complexity of the forcing chain from `start` to its negation (what
        /// `Search::forcing` finds and `Search::count` counts), if one of at most `limit`
        /// potentials exists; with `y`, through the cells' values too.
        fn forcing(&self, start: Pid, y: bool, limit: u32) -> Option<u32> {
            if !y {
                return self.forcing_x(start, limit);
            }
            let (cell, d) = (pcell(start), pdigit(start));
            let mut on = [0u128; 9];
            let mut off = [0u128; 9];
            let mut frontier = [0u128; 9];
            frontier[d] = 1 << cell;
            if pon(start) {
                on[d] = 1 << cell;
            } else {
                off[d] = 1 << cell;
            }
            // The digits the frontier has potentials of.
            let mut live = 1u16 << d;
            let mut from_on = pon(start);
            let mut depth = 0u32;
            while live != 0 && depth + 2 <= limit {
                let mut next = [0u128; 9];
                let mut digits = live;
                while digits != 0 {
                    let e = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let mut m = frontier[e];
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        // An "on" turns off its digit in its peers; an "off" turns on its
                        // digit's other place in a region where it has two.
                        next[e] |= if from_on {
                            PEER_SETS[c]
                        } else {
                            self.partners[e][c]
                        };
                        m &= m - 1;
                    }
                }
                // Its cell's other values: an "on" turns them off, an "off" turns on the
                // other one when the cell has two.
                let others = Self::others(&frontier);
                let reach = if from_on { !0 } else { self.pairs };
                let seen = if from_on { &mut off } else { &mut on };
                live = 0;
                for e in 0..9 {
                    next[e] = (next[e] | others[e] & reach) & self.planes[e];
                    if e == d && pon(start) == from_on && next[e] >> cell & 1 == 1 {
                        return Some(depth + 2);
                    }
                    next[e] &= !seen[e];
                    seen[e] |= next[e];
                    live |= u16::from(next[e] != 0) << e;
                }
                frontier = next;
                from_on = !from_on;
                depth += 1;
            }
            None
        }
    }

    /// Every forcing chain's complexity found by [`Levels::forcing`] and by the breadth-first
    /// search, for every assumption, with and without cells' values, under each of `limits`:
    /// the pairs that differ, and how many chains were found.
    #[cfg(test)]
    pub(super) fn forcing_both_ways(state: &State, limits: &[u32]) -> (Vec<String>, usize) {
        let cands = &state.cands;
        let planes = planes(cands);
        let levels = Levels::new(cands, &planes);
        let mut s = Search {
            planes,
            links: Links::new(cands, &planes),
            nodes: Vec::new(),
            to_on: PSet::new(),
            to_off: PSet::new(),
            pending_on: Vec::new(),
            pending_off: Vec::new(),
            next: Vec::new(),
        };
        let (mut differ, mut found) = (Vec::new(), 0);
        for y in [false, true] {
            for k in (0..729).filter(|&k| cands[k / 9] >> (k % 9) & 1 == 1) {
                for start in [pid(k / 9, k % 9, true), pid(k / 9, k % 9, false)] {
                    for &limit in limits {
                        let searched = s.forcing(start, y, limit).map(|end| {
                            assert_eq!(s.nodes[end as usize].pid, start ^ 1);
                            s.count(end)
                        });
                        let by_levels = levels.forcing(start, y, limit);
                        found += usize::from(searched.is_some());
                        if searched != by_levels {
                            differ.push(format!("{start} {y} {limit}: {searched:?} {by_levels:?}"));
                        }
                    }
                }
            }
        }
        (differ, found)
    }

    /// The longest chain of a kind (base difficulty, kind order) that still sorts before
    /// `best`.
    fn limit(base: f64, key: u8, best: Option<(f64, u32, u8)>) -> u32 {
        let Some(best) = best else {
            return u32::MAX;
        };
        let before = |c: u32| sorts_before((base + length_difficulty(c), c, key), best);
        let mut c = 0;
        while c < 100_000 && before(c + 1) {
            c += 1;
        }
        c
    }

    /// [`limit`], remembered for the arguments it was last asked with: a search asks the same
    /// for every candidate until a better hint turns up.
    #[derive(Default)]
    struct Limit {
        asked: Option<(f64, u8, Option<Key>)>,
        most: u32,
    }

    /// A hint's place in SE's order: difficulty, complexity, kind.
    type Key = (f64, u32, u8);

    impl Limit {
        fn get(&mut self, base: f64, key: u8, best: Option<Key>) -> u32 {
            let args = (base, key, best);
            if self.asked != Some(args) {
                self.asked = Some(args);
                self.most = limit(base, key, best);
            }
            self.most
        }
    }

    /// The cycles and forcing chains of `state`; with `nested`, every one, each with its
    /// chain; without, only those that could sort first (longer chains are not followed).
    pub(super) fn hints(state: &State, nested: bool, budget: &mut Budget<'_>) -> Vec<Candidate> {
        let cands = &state.cands;
        let planes = planes(cands);
        let mut s = Search {
            planes,
            links: Links::new(cands, &planes),
            nodes: Vec::with_capacity(4096),
            to_on: PSet::new(),
            to_off: PSet::new(),
            pending_on: Vec::with_capacity(256),
            pending_off: Vec::with_capacity(256),
            next: Vec::with_capacity(256),
        };
        // Nested, a forcing chain's path is part of its hint.
        let levels = (!nested).then(|| Levels::new(cands, &planes));
        let mut ends = Vec::new();
        let mut found = Vec::new();
        let mut best: Option<(f64, u32, u8)> = None;
        // Nested, every hint is kept but only the first (in SE's order) of each set of
        // eliminations is used (see `advanced::chains`): a chain that removes one candidate
        // need not be followed past the length where it would still sort after the best hint
        // found for that candidate so far (a later hint with an equal key sorts after it).
        let mut best_single = vec![None; 729];
        let (mut cycle_limit, mut chain_limit) = (Limit::default(), Limit::default());
        let better_single = |best: &mut [Option<(f64, u32, u8)>], k: usize, c: &Candidate| {
            let key = (c.difficulty, c.complexity, c.sort_key);
            if best[k].map_or(true, |b| sorts_before(key, b)) {
                best[k] = Some(key);
            }
        };
        let better = |best: &mut Option<(f64, u32, u8)>, c: &Candidate| {
            let key = (c.difficulty, c.complexity, c.sort_key);
            let first = best.map_or(true, |b| sorts_before(key, b));
            if first && !nested {
                *best = Some(key);
            }
        };
        // X-cycles and forcing X-chains, Y-cycles, then both links.
        for (y, x) in [(false, true), (true, false), (true, true)] {
            let (cycle_name, chain_name, sort_key, cycle_base, chain_base) = match (y, x) {
                (false, _) => ("Bidirectional X-Cycle", "Forcing X-Chain", 2, 6.5, 6.6),
                (true, false) => ("Bidirectional Y-Cycle", "", 3, 6.5, 0.0),
                (true, true) => ("Bidirectional Cycle", "Forcing Chain", 4, 7.0, 7.0),
            };
            for (cell, &mask) in cands.iter().enumerate() {
                let n = mask.count_ones();
                if state.values[cell] != 0 || n < 2 || (!x && n > 2) {
                    continue;
                }
                if !budget.spend(1) {
                    return found;
                }
                // Outside nested chains, once nothing of this kind could sort before the
                // best hint (no cycle or chain of two potentials would), the kind is done.
                if !nested
                    && cycle_limit.get(cycle_base, sort_key, best) < 2
                    && (!x || chain_limit.get(chain_base, sort_key, best) < 2)
                {
                    break;
                }
                for d in 0..9 {
                    if mask >> d & 1 == 0 {
                        continue;
                    }
                    let source = pid(cell, d, true);
                    // A cycle closes on `source`, and a chain from its "off" ends, with a
                    // strong link into it: links are symmetric, so only when its own "off"
                    // turns something on.
                    let strong = s.links.off_leads(source ^ 1, y, x);
                    ends.clear();
                    if strong {
                        let most = cycle_limit.get(cycle_base, sort_key, best);
                        s.cycles(source, y, x, most, &mut ends);
                    }
                    for &end in &ends {
                        let complexity = s.count(end);
                        let difficulty = cycle_base + length_difficulty(complexity);
                        // Only the first hint in SE's order is used outside nested chains: a
                        // cycle that sorts after the best so far is not worked out.
                        if best
                            .is_some_and(|b| !sorts_before((difficulty, complexity, sort_key), b))
                        {
                            continue;
                        }
                        let elims = s.cycle_eliminations(end);
                        if elims.is_empty() {
                            continue;
                        }
                        let single = (elims.len() == 1).then(|| elims[0] as usize);
                        found.push(Candidate {
                            difficulty,
                            complexity,
                            sort_key,
                            technique: cycle_name,
                            target: 0,
                            cycle_elims: elims,
                            chain: if nested { s.path(end) } else { Vec::new() },
                        });
                        better(&mut best, &found[found.len() - 1]);
                        if let (true, Some(k)) = (nested, single) {
                            better_single(&mut best_single, k, &found[found.len() - 1]);
                        }
                    }
                    if !x {
                        continue;
                    }
                    for start in [source, source ^ 1] {
                        if !(strong || pon(start)) {
                            continue;
                        }
                        // The one candidate this chain would remove, if one: the assumption
                        // itself, or the other value of a two-valued cell it places.
                        let single = if pon(start) {
                            Some(cell * 9 + d)
                        } else if n == 2 {
                            Some(cell * 9 + (mask & !(1 << d)).trailing_zeros() as usize)
                        } else {
                            None
                        };
                        let most = match (nested, single) {
                            (true, Some(k)) => limit(chain_base, sort_key, best_single[k]),
                            _ => chain_limit.get(chain_base, sort_key, best),
                        };
                        let forced = match &levels {
                            Some(levels) => levels.forcing(start, y, most).map(|c| (c, None)),
                            None => s
                                .forcing(start, y, most)
                                .map(|end| (s.count(end), Some(end))),
                        };
                        if let Some((complexity, end)) = forced {
                            let target = start ^ 1;
                            if pon(target) && n < 2 {
                                continue;
                            }
                            found.push(Candidate {
                                difficulty: chain_base + length_difficulty(complexity),
                                complexity,
                                sort_key,
                                technique: chain_name,
                                target,
                                cycle_elims: Vec::new(),
                                chain: end.map_or_else(Vec::new, |end| s.path(end)),
                            });
                            better(&mut best, &found[found.len() - 1]);
                            if let (true, Some(k)) = (nested, single) {
                                better_single(&mut best_single, k, &found[found.len() - 1]);
                            }
                        }
                    }
                }
            }
        }
        found
    }
}

/// Nishio, cell and region, and dynamic forcing chains: an assumption followed to all its
/// consequences, the consequences of several assumptions compared.
mod multiple {
    use super::{
        advanced, length_difficulty, off_to_on, on_to_off, pcell, pdigit, pid, planes, pon, Budget,
        Candidate, Cause, Chain, Mode, PSet, Pid, Planes, State, CELL_REGIONS, PEER_SETS,
        REGION_CELLS, REGION_MASKS,
    };
    use std::collections::VecDeque;

    /// The consequences of one assumption: every potential reached, with the potentials it
    /// was reached from.
    pub(super) struct Run {
        pids: Vec<Pid>,
        /// Node `i`'s parents are `parents[starts[i]..starts[i + 1]]`.
        starts: Vec<u32>,
        parents: Vec<u32>,
        /// The node of each potential reached (valid where `reached` has it).
        index: Vec<u32>,
        reached: PSet,
        /// A potential reached both on and off: the "on" node and the "off" node.
        absurd: Option<(u32, u32)>,
        /// Why each node got on or off (`None` for the assumption and for the eliminations
        /// of the techniques applied inside the chain).
        causes: Vec<Option<Cause>>,
        /// Per node, the chain found inside the run it came from (an index in `nests`).
        nest: Vec<u32>,
        /// The inner chains: an identity, and their complexity.
        nests: Vec<(u64, u32)>,
        /// [`follow`]'s buffers, kept with the run so that a recycled run brings them along.
        work: Work,
    }

    /// The queues and link buffers of [`follow`].
    #[derive(Default)]
    struct Work {
        pending_on: VecDeque<u32>,
        pending_off: VecDeque<u32>,
        offs: Vec<(Pid, Cause)>,
        ons: Vec<(Pid, Cause)>,
        parents: Vec<u32>,
    }

    impl Run {
        fn new() -> Self {
            if let Some(mut run) = SPARE.with(|s| s.borrow_mut().pop()) {
                run.pids.clear();
                run.starts.clear();
                run.starts.push(0);
                run.parents.clear();
                run.reached = PSet::new();
                run.absurd = None;
                run.causes.clear();
                run.nest.clear();
                run.nests.clear();
                return run;
            }
            Run {
                pids: Vec::with_capacity(256),
                starts: vec![0],
                parents: Vec::with_capacity(512),
                index: vec![0; 1458],
                reached: PSet::new(),
                absurd: None,
                causes: Vec::with_capacity(256),
                nest: Vec::with_capacity(256),
                nests: Vec::new(),
                work: Work::default(),
            }
        }

        /// Every potential reached (the tests check them against a solution), or `None` when
        /// the run met a contradiction.
        #[cfg(test)]
        pub(super) fn reached(&self) -> Option<Vec<Pid>> {
            if self.absurd.is_some() {
                return None;
            }
            Some(self.members(true).chain(self.members(false)).collect())
        }

        /// How many potentials a chain inside the run concluded.
        #[cfg(test)]
        pub(super) fn inner_conclusions(&self) -> usize {
            self.nests.len()
        }

        /// Hands the run's buffers to the next [`Run::new`].
        pub(super) fn recycle(self) {
            SPARE.with(|s| s.borrow_mut().push(self));
        }

        pub(super) fn node(&self, p: Pid) -> u32 {
            self.index[p as usize]
        }

        pub(super) fn push(
            &mut self,
            p: Pid,
            parents: &[u32],
            member: bool,
            cause: Option<Cause>,
        ) -> u32 {
            let n = self.pids.len() as u32;
            self.pids.push(p);
            self.causes.push(cause);
            self.nest.push(u32::MAX);
            // Most nodes have one parent: pushed, not copied as a slice.
            match parents {
                [q] => self.parents.push(*q),
                _ => self.parents.extend_from_slice(parents),
            }
            self.starts.push(self.parents.len() as u32);
            if member {
                self.reached.set(p);
                self.index[p as usize] = n;
            }
            n
        }

        #[inline]
        pub(super) fn has(&self, p: Pid) -> bool {
            self.reached.has(p)
        }

        /// The potentials every run of `runs` reached.
        fn common<'r>(runs: impl IntoIterator<Item = &'r Run>) -> PSet {
            let mut runs = runs.into_iter();
            let mut out = runs.next().map_or_else(PSet::new, |r| r.reached.clone());
            for run in runs {
                out.and_with(&run.reached);
            }
            out
        }

        /// The members in the order they were reached, "on" or "off" ones.
        fn members(&self, on: bool) -> impl Iterator<Item = Pid> + '_ {
            self.pids
                .iter()
                .enumerate()
                .filter(move |&(i, &p)| {
                    pon(p) == on && self.reached.has(p) && self.index[p as usize] == i as u32
                })
                .map(|(_, &p)| p)
        }

        /// Marks node `n` as concluded by an inner chain.
        pub(super) fn set_nest(&mut self, n: u32, key: u64, complexity: u32) {
            self.nest[n as usize] = self.nests.len() as u32;
            self.nests.push((key, complexity));
        }

        /// The number of distinct potentials node `n` rests on, itself included, plus the
        /// complexity of the inner chains among them not yet counted for this hint (in
        /// `scratch.keys`).
        /// `None` as soon as it passes `most`.
        fn count_within(&self, n: u32, scratch: &mut Scratch, most: u32) -> Option<u32> {
            scratch.epoch += 1;
            if scratch.seen.len() < self.pids.len() {
                scratch.seen.resize(self.pids.len(), 0);
            }
            let epoch = scratch.epoch;
            let mut count = 0;
            scratch.stack.clear();
            scratch.stack.push(n);
            scratch.seen[n as usize] = epoch;
            while let Some(m) = scratch.stack.pop() {
                count += 1;
                let nest = self.nest[m as usize];
                if nest != u32::MAX {
                    let (key, complexity) = self.nests[nest as usize];
                    if !scratch.keys.contains(&key) {
                        scratch.keys.push(key);
                        count += complexity;
                    }
                }
                if count > most {
                    return None;
                }
                let (a, b) = (self.starts[m as usize], self.starts[m as usize + 1]);
                for &q in &self.parents[a as usize..b as usize] {
                    if scratch.seen[q as usize] != epoch {
                        scratch.seen[q as usize] = epoch;
                        scratch.stack.push(q);
                    }
                }
            }
            Some(count)
        }

        /// Prints the run, node by node, with parents (a debugging aid for the tests).
        #[cfg(test)]
        pub(super) fn dump(&self) {
            let name = |p: Pid| {
                format!(
                    "r{}c{}.{}{}",
                    pcell(p) / 9 + 1,
                    pcell(p) % 9 + 1,
                    pdigit(p) + 1,
                    if pon(p) { "+" } else { "-" }
                )
            };
            for (i, &p) in self.pids.iter().enumerate() {
                let (a, b) = (self.starts[i], self.starts[i + 1]);
                let ps: Vec<String> = self.parents[a as usize..b as usize]
                    .iter()
                    .map(|&q| format!("{}:{}", q, name(self.pids[q as usize])))
                    .collect();
                println!("{i} {} <- {}", name(p), ps.join(" "));
            }
            if let Some((a, b)) = self.absurd {
                let mut scratch = Scratch::default();
                let c = self.count_within(a, scratch.hint(), u32::MAX).unwrap()
                    + self.count_within(b, &mut scratch, u32::MAX).unwrap();
                println!("absurd {a} {b} complexity {c}");
            }
        }

        /// SE's chain of node `n` (what a nested hint rests on and is told apart by): its
        /// ancestors breadth first, `n` first, with their causes; `root` stands for the
        /// assumption's (a cell's value, or a region's place, for cell and region chains).
        fn chain(
            &self,
            n: u32,
            root: Option<Cause>,
            scratch: &mut Scratch,
            out: &mut Vec<(Pid, Option<Cause>)>,
        ) {
            scratch.epoch += 1;
            if scratch.seen.len() < self.pids.len() {
                scratch.seen.resize(self.pids.len(), 0);
            }
            let epoch = scratch.epoch;
            let mut todo = vec![n];
            let mut next = Vec::new();
            while !todo.is_empty() {
                for &m in &todo {
                    if scratch.seen[m as usize] == epoch {
                        continue;
                    }
                    scratch.seen[m as usize] = epoch;
                    let cause = if m == 0 {
                        root
                    } else {
                        self.causes[m as usize]
                    };
                    out.push((self.pids[m as usize], cause));
                    let (a, b) = (self.starts[m as usize], self.starts[m as usize + 1]);
                    next.extend_from_slice(&self.parents[a as usize..b as usize]);
                }
                std::mem::swap(&mut todo, &mut next);
                next.clear();
            }
        }

        fn chain_pid(
            &self,
            p: Pid,
            root: Option<Cause>,
            scratch: &mut Scratch,
            out: &mut Vec<(Pid, Option<Cause>)>,
        ) {
            self.chain(self.index[p as usize], root, scratch, out);
        }
    }

    #[derive(Default)]
    pub(super) struct Scratch {
        seen: Vec<u32>,
        epoch: u32,
        stack: Vec<u32>,
        keys: Vec<u64>,
    }

    impl Scratch {
        /// Starts counting a new hint.
        fn hint(&mut self) -> &mut Self {
            self.keys.clear();
            self
        }
    }

    /// Follows `start` to all its consequences, as SE's engine does: "on" potentials first,
    /// one at a time, then one "off" potential (removed from the grid when dynamic), until
    /// nothing is left or a potential is reached both on and off.
    #[cfg(test)]
    pub(super) fn follow(state: &State, start: Pid, mode: Mode, budget: &mut Budget<'_>) -> Run {
        follow_from(state, &planes(&state.cands), start, mode, budget)
    }

    /// [`follow`], with the state's candidates by digit (`source`) read once by the caller
    /// for all the runs on the state.
    fn follow_from(
        state: &State,
        source: &Planes,
        start: Pid,
        mode: Mode,
        budget: &mut Budget<'_>,
    ) -> Run {
        let mut run = Run::new();
        let mut work = std::mem::take(&mut run.work);
        work.pending_on.clear();
        work.pending_off.clear();
        follow_into(state, source, start, mode, budget, &mut run, &mut work);
        run.work = work;
        run
    }

    fn follow_into(
        state: &State,
        source_planes: &Planes,
        start: Pid,
        mode: Mode,
        budget: &mut Budget<'_>,
        run: &mut Run,
        work: &mut Work,
    ) {
        let source = &state.cands;
        let mut grid = *source;
        let mut planes = *source_planes;
        let y = !mode.nishio;
        let Work {
            pending_on,
            pending_off,
            offs,
            ons,
            parents,
        } = work;
        let root = run.push(start, &[], true, None);
        if pon(start) {
            pending_on.push_back(root);
        } else {
            pending_off.push_back(root);
        }
        loop {
            if let Some(p) = pending_on.pop_front() {
                let pp = run.pids[p as usize];
                on_to_off(&grid, &planes, pcell(pp), pdigit(pp), y, offs);
                for &(q, cause) in offs.iter() {
                    if run.has(q ^ 1) {
                        let n = run.push(q, &[p], false, Some(cause));
                        run.absurd = Some((run.index[(q ^ 1) as usize], n));
                        return;
                    }
                    if !run.has(q) {
                        let n = run.push(q, &[p], true, Some(cause));
                        pending_off.push_back(n);
                    }
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                let pp = run.pids[p as usize];
                let (cell, d) = (pcell(pp), pdigit(pp));
                off_to_on(&grid, &planes, cell, d, y, true, ons);
                if mode.dynamic {
                    grid[cell] &= !(1 << d);
                    planes[d] &= !(1 << cell);
                }
                for &(q, cause) in ons.iter() {
                    parents.clear();
                    parents.push(p);
                    if mode.dynamic {
                        hidden_parents(
                            source,
                            &grid,
                            source_planes,
                            &planes,
                            q,
                            cause,
                            run,
                            parents,
                        );
                    }
                    if run.has(q ^ 1) {
                        let n = run.push(q, parents, false, Some(cause));
                        run.absurd = Some((n, run.index[(q ^ 1) as usize]));
                        return;
                    }
                    if !run.has(q) {
                        let n = run.push(q, parents, true, Some(cause));
                        pending_on.push_back(n);
                    }
                }
                continue;
            }
            if mode.level > 0
                && budget.spend(Budget::FOLLOW)
                && advanced::more(state, mode, &grid, run, pending_off, budget)
            {
                continue;
            }
            return;
        }
    }

    /// The "off" potentials that let `q` get on beside its first parent: the values its cell
    /// lost, or the places its region lost, during the run. `grid` has the current parent
    /// removed already; SE looks before removing it, so the parent is skipped.
    #[allow(clippy::too_many_arguments)]
    fn hidden_parents(
        source: &[u16; 81],
        grid: &[u16; 81],
        source_planes: &Planes,
        planes: &Planes,
        q: Pid,
        cause: Cause,
        run: &Run,
        parents: &mut Vec<u32>,
    ) {
        let first = run.pids[parents[0] as usize];
        let (cell, d) = (pcell(q), pdigit(q));
        match cause {
            Cause::Cell => {
                let mut m = source[cell] & !grid[cell];
                while m != 0 {
                    let v = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let off = pid(cell, v, false);
                    if off != first && run.has(off) {
                        parents.push(run.index[off as usize]);
                    }
                }
            }
            Cause::Region(r) => {
                // A region's cells in SE's order are its cells in ascending order.
                let mut m = REGION_MASKS[r as usize] & source_planes[d] & !planes[d];
                while m != 0 {
                    let o = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let off = pid(o, d, false);
                    if off != first && run.has(off) {
                        parents.push(run.index[off as usize]);
                    }
                }
            }
        }
    }

    /// Runs from each "on" potential, computed once per grid.
    struct Cache<'a, 'b> {
        state: &'a State,
        /// The state's candidates by digit.
        planes: Planes,
        mode: Mode,
        budget: &'a mut Budget<'b>,
        /// Each candidate's run (an index in `runs`, `u32::MAX` before it is followed).
        slot: [u32; 729],
        runs: Vec<Run>,
    }

    impl Cache<'_, '_> {
        fn on(&mut self, cand: usize) -> &Run {
            if self.slot[cand] == u32::MAX {
                self.slot[cand] = self.runs.len() as u32;
                self.budget.spend(Budget::FOLLOW);
                let start = (cand * 2 + 1) as Pid;
                let run = follow_from(self.state, &self.planes, start, self.mode, self.budget);
                self.runs.push(run);
            }
            &self.runs[self.slot[cand] as usize]
        }

        /// The run of a candidate [`Cache::on`] followed already.
        fn get(&self, cand: usize) -> &Run {
            &self.runs[self.slot[cand] as usize]
        }
    }

    impl Drop for Cache<'_, '_> {
        fn drop(&mut self) {
            for run in self.runs.drain(..) {
                run.recycle();
            }
        }
    }

    thread_local! {
        /// Runs done with, kept for the next ones: the nested levels follow hundreds of
        /// thousands of assumptions, and a run's buffers are the bulk of the work of making
        /// one. [`super::hints`] empties it when a rating step is done.
        static SPARE: std::cell::RefCell<Vec<Run>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    /// Drops the spare runs, unless a [`super::SpareRuns`] keeps them for its rating.
    pub(super) fn drop_spare_runs() {
        if HELD.with(std::cell::Cell::get) == 0 {
            SPARE.with(|s| s.borrow_mut().clear());
        }
    }

    thread_local! {
        /// How many [`super::SpareRuns`] are alive on this thread.
        pub(super) static HELD: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    fn names(mode: Mode) -> [&'static str; 4] {
        // Contradiction, double, cell, region.
        match (mode.nishio, mode.dynamic, mode.level) {
            (true, ..) => ["Nishio Forcing Chains"; 4],
            (false, false, _) => [
                "Contradiction Forcing Chains",
                "Double Forcing Chains",
                "Cell Forcing Chains",
                "Region Forcing Chains",
            ],
            (false, true, 0) => [
                "Dynamic Contradiction Forcing Chains",
                "Dynamic Double Forcing Chains",
                "Dynamic Cell Forcing Chains",
                "Dynamic Region Forcing Chains",
            ],
            (false, true, 1) => [
                "Dynamic Contradiction Forcing Chains (+)",
                "Dynamic Double Forcing Chains (+)",
                "Dynamic Cell Forcing Chains (+)",
                "Dynamic Region Forcing Chains (+)",
            ],
            (false, true, 2) => [
                "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
            ],
            (false, true, 3) => [
                "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Multiple Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Multiple Forcing Chains)",
            ],
            _ => [
                "Dynamic Contradiction Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Dynamic Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Dynamic Forcing Chains)",
            ],
        }
    }

    /// Where an engine's hints go: all of them (for the nested levels, and the tests), or only
    /// the one SE applies, the first in SE's order. All hints of an engine share its base, so
    /// one sorts before another when its complexity is lower, or equal with a lower kind; a
    /// hint that cannot sort before the one in hand is not counted to its end, and one that
    /// sorts equal comes later in SE's (stable) order.
    struct Keep {
        all: bool,
        best: Option<(u32, u8)>,
    }

    impl Keep {
        /// The most complexity a hint of kind `key` may have and still be kept.
        fn most(&self, key: u8) -> u32 {
            match self.best {
                Some((c, k)) if !self.all => {
                    if key < k {
                        c
                    } else {
                        c - 1
                    }
                }
                _ => u32::MAX,
            }
        }

        /// The complexity of a hint of kind `key` resting on the nodes `parts` of their runs,
        /// or `None` when it passes [`Keep::most`].
        fn count<'r>(
            &self,
            key: u8,
            parts: impl IntoIterator<Item = (&'r Run, u32)>,
            scratch: &mut Scratch,
        ) -> Option<u32> {
            let most = self.most(key);
            scratch.hint();
            let mut sum = 0u32;
            for (run, n) in parts {
                sum += run.count_within(n, scratch, most - sum)?;
            }
            Some(sum)
        }

        /// Keeps a hint [`Keep::count`] let through.
        fn add(&mut self, found: &mut Vec<Candidate>, hint: Candidate) {
            if !self.all {
                found.clear();
                self.best = Some((hint.complexity, hint.sort_key));
            }
            found.push(hint);
        }
    }

    /// The hints of one multiple-chain engine on `state`; with `nested`, each with its chain
    /// (what a nested hint rests on, see [`Run::chain`]); with `all` (or `nested`), every one,
    /// else only the first in SE's order.
    pub(super) fn hints(
        state: &State,
        mode: Mode,
        nested: bool,
        all: bool,
        budget: &mut Budget<'_>,
    ) -> Vec<Candidate> {
        let cands = &state.cands;
        let names = names(mode);
        let mut cache = Cache {
            state,
            planes: planes(cands),
            mode,
            budget,
            slot: [u32::MAX; 729],
            runs: Vec::new(),
        };
        let mut scratch = Scratch::default();
        let mut found = Vec::new();
        let mut keep = Keep {
            all: all || nested,
            best: None,
        };
        let worth = |p: Pid| !pon(p) || cands[pcell(p)].count_ones() > 1;
        let candidate = |complexity: u32, key: u8, name, target, chain| Candidate {
            difficulty: mode.base + length_difficulty(complexity),
            complexity,
            sort_key: key,
            technique: name,
            target,
            cycle_elims: Vec::new(),
            chain,
        };
        let multiple = !mode.nishio;
        let mut chain = Vec::new();
        for (cell, &mask) in cands.iter().enumerate() {
            let card = mask.count_ones();
            if state.values[cell] != 0 || !(card > 2 || (card > 1 && mode.dynamic)) {
                continue;
            }
            let double = card >= 3 && !mode.nishio && mode.dynamic;
            let contradiction = mode.dynamic || mode.nishio;
            let mut digits = [0usize; 9];
            let mut n_digits = 0;
            for d in 0..9 {
                if mask >> d & 1 == 1 {
                    digits[n_digits] = d;
                    n_digits += 1;
                }
            }
            let digits = &digits[..n_digits];
            for &d in digits {
                let cand = cell * 9 + d;
                let p_on = pid(cell, d, true);
                if cache.budget.stopped {
                    return found;
                }
                // Nishio's runs serve only their contradictions: one that cannot meet any is
                // not followed.
                let plane = cache.planes[d];
                let may_break = |on: bool| !mode.nishio || nishio_may_break(plane, cell, on);
                if may_break(true) {
                    let on_run = cache.on(cand);
                    if contradiction && worth(p_on ^ 1) {
                        if let Some((a, b)) = on_run.absurd {
                            let parts = [(on_run, a), (on_run, b)];
                            if let Some(c) = keep.count(7, parts, &mut scratch) {
                                if nested {
                                    on_run.chain(a, None, &mut scratch, &mut chain);
                                    on_run.chain(b, None, &mut scratch, &mut chain);
                                }
                                let chain = std::mem::take(&mut chain);
                                keep.add(&mut found, candidate(c, 7, names[0], p_on ^ 1, chain));
                            }
                        }
                    }
                }
                if (contradiction || double) && may_break(false) {
                    cache.budget.spend(Budget::FOLLOW);
                    let off_run = follow_from(state, &cache.planes, p_on ^ 1, mode, cache.budget);
                    if contradiction && worth(p_on) {
                        if let Some((a, b)) = off_run.absurd {
                            let parts = [(&off_run, a), (&off_run, b)];
                            if let Some(c) = keep.count(7, parts, &mut scratch) {
                                if nested {
                                    off_run.chain(a, None, &mut scratch, &mut chain);
                                    off_run.chain(b, None, &mut scratch, &mut chain);
                                }
                                let chain = std::mem::take(&mut chain);
                                keep.add(&mut found, candidate(c, 7, names[0], p_on, chain));
                            }
                        }
                    }
                    let on_run = cache.on(cand);
                    // Most pairs of runs share nothing: the members are walked only when they do.
                    if double && !Run::common([on_run, &off_run]).is_empty() {
                        for on in [true, false] {
                            for q in on_run.members(on) {
                                if !off_run.has(q) || !worth(q) {
                                    continue;
                                }
                                let parts = [(on_run, on_run.node(q)), (&off_run, off_run.node(q))];
                                let Some(c) = keep.count(1, parts, &mut scratch) else {
                                    continue;
                                };
                                if nested {
                                    on_run.chain_pid(q, None, &mut scratch, &mut chain);
                                    off_run.chain_pid(q, None, &mut scratch, &mut chain);
                                }
                                let chain = std::mem::take(&mut chain);
                                keep.add(&mut found, candidate(c, 1, names[1], q, chain));
                            }
                        }
                    }
                    off_run.recycle();
                }
                if multiple {
                    region_chains(
                        state,
                        &mut cache,
                        &mut scratch,
                        cell,
                        d,
                        nested,
                        &mut keep,
                        &mut |keep: &mut Keep, c, q, ch| {
                            if worth(q) {
                                keep.add(&mut found, candidate(c, 6, names[3], q, ch));
                            }
                        },
                    );
                }
            }
            if multiple {
                // Cell forcing chains: what every value of the cell implies.
                for &d in digits {
                    cache.on(cell * 9 + d);
                }
                let run = |d: usize| cache.get(cell * 9 + d);
                let common = Run::common(digits.iter().map(|&d| run(d)));
                if common.is_empty() {
                    continue;
                }
                for on in [true, false] {
                    for q in run(digits[0]).members(on) {
                        if !common.has(q) || !worth(q) {
                            continue;
                        }
                        let parts = digits.iter().map(|&d| (run(d), run(d).node(q)));
                        let Some(c) = keep.count(5, parts, &mut scratch) else {
                            continue;
                        };
                        if nested {
                            for &d in digits {
                                run(d).chain_pid(q, Some(Cause::Cell), &mut scratch, &mut chain);
                            }
                        }
                        let chain = std::mem::take(&mut chain);
                        keep.add(&mut found, candidate(c, 5, names[2], q, chain));
                    }
                }
            }
        }
        found
    }

    /// Whether a Nishio run from `cell` on (or off) in `plane`, its digit's places, could meet
    /// a contradiction. Such a run follows one digit: a place on turns the digit's places in
    /// its block, row and column off, and a region where a place got off gets its last place
    /// on. The closure of those links over the plane, a region's place taken on as soon as
    /// every other place of it is off and one is (the run looks at the region only then, and
    /// sees more places left, as it removes a place only once it follows it), holds every
    /// potential the run reaches; a closure with no place both on and off, and no region with
    /// every place off, means a run without a contradiction.
    pub(super) fn nishio_may_break(plane: u128, cell: usize, on: bool) -> bool {
        let (mut ons, mut offs) = if on {
            (1u128 << cell, 0u128)
        } else {
            (0, 1u128 << cell)
        };
        let mut followed = 0u128;
        loop {
            let mut fresh = ons & !followed;
            followed |= fresh;
            while fresh != 0 {
                let x = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                offs |= PEER_SETS[x] & plane;
            }
            let before = ons;
            for region in &REGION_MASKS {
                let places = region & plane;
                if places & offs == 0 {
                    continue;
                }
                let left = places & !offs;
                if left == 0 {
                    return true;
                }
                if left & (left - 1) == 0 {
                    ons |= left;
                }
            }
            if ons & offs != 0 {
                return true;
            }
            if ons == before && ons & !followed == 0 {
                return false;
            }
        }
    }

    /// Region forcing chains on the digit `d` of `cell`, for each region where `cell` is the
    /// digit's first place (so each region and digit is seen once).
    #[allow(clippy::too_many_arguments)]
    fn region_chains(
        state: &State,
        cache: &mut Cache<'_, '_>,
        scratch: &mut Scratch,
        cell: usize,
        d: usize,
        nested: bool,
        keep: &mut Keep,
        add: &mut dyn FnMut(&mut Keep, u32, Pid, Chain),
    ) {
        let cands = &state.cands;
        for &r in &CELL_REGIONS[cell] {
            let mut places = [0usize; 9];
            let mut n = 0;
            for &o in &REGION_CELLS[r as usize] {
                if cands[o as usize] >> d & 1 == 1 {
                    places[n] = o as usize;
                    n += 1;
                }
            }
            let places = &places[..n];
            if places.len() < 2 || places[0] != cell {
                continue;
            }
            for &o in places {
                cache.on(o * 9 + d);
            }
            let run = |o: usize| cache.get(o * 9 + d);
            let common = Run::common(places.iter().map(|&o| run(o)));
            if common.is_empty() {
                continue;
            }
            for on in [true, false] {
                for q in run(cell).members(on) {
                    if !common.has(q) {
                        continue;
                    }
                    let parts = places.iter().map(|&o| (run(o), run(o).node(q)));
                    let Some(c) = keep.count(6, parts, scratch) else {
                        continue;
                    };
                    let mut chain = Vec::new();
                    if nested {
                        for &o in places {
                            run(o).chain_pid(q, Some(Cause::Region(r)), scratch, &mut chain);
                        }
                    }
                    add(keep, c, q, chain);
                }
            }
        }
    }
}

/// The techniques SE's dynamic forcing chains (+) apply inside a chain once singles run dry:
/// generalised intersections, hidden pairs, naked pairs and X-wings, in that order, each
/// found the way SE's own finder scans (the order decides which chain is kept).
mod advanced {
    // Cells and regions index several arrays at once here.
    #![allow(clippy::needless_range_loop)]
    use super::multiple::{self, Run};
    use super::{
        pcell, pdigit, pid, planes, pon, sort, unary, Budget, Candidate, Cause, Mode, Pid, State,
        CELL_REGIONS, PEER_SETS, REGION_CELLS, REGION_MASKS,
    };
    use std::collections::VecDeque;

    /// An elimination a technique found, with the "off" potentials it rests on, and for a
    /// chain its identity and complexity.
    type Found = Vec<(Pid, Vec<Pid>, Option<(u64, u32)>)>;

    /// Blocks, then columns, then rows: the order SE's pair finders walk the regions.
    const BLOCKS_COLUMNS_ROWS: [usize; 27] = {
        let mut out = [0usize; 27];
        let mut i = 0;
        while i < 9 {
            out[i] = i;
            out[9 + i] = 18 + i;
            out[18 + i] = 9 + i;
            i += 1;
        }
        out
    };

    /// The pairs of 0..9 in SE's order (by the higher member, then the lower).
    fn pairs() -> impl Iterator<Item = (usize, usize)> {
        (1..9).flat_map(|b| (0..b).map(move |a| (a, b)))
    }

    /// Records a technique's eliminations, visited in the order SE's hash map of cells
    /// yields them (by cell index modulo the table size, then insertion order).
    fn emit(found: &mut Found, removable: Vec<(usize, u16)>, parents: &[Pid]) {
        emit_nested(found, removable, parents, None);
    }

    fn emit_nested(
        found: &mut Found,
        mut removable: Vec<(usize, u16)>,
        parents: &[Pid],
        nest: Option<(u64, u32)>,
    ) {
        if parents.is_empty() {
            return;
        }
        let mut cap = 16;
        while removable.len() > cap * 3 / 4 {
            cap *= 2;
        }
        removable.sort_by_key(|&(cell, _)| cell & (cap - 1));
        for (cell, mut m) in removable {
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                found.push((pid(cell, v, false), parents.to_vec(), nest));
            }
        }
    }

    /// Per region and digit, the digit's places in the region (bit `i` for the region's `i`-th
    /// cell), read once for all the finders.
    type Positions = [[u16; 9]; 27];

    /// A technique applied inside a chain: it adds the eliminations it finds on the grid.
    type Finder = fn(&State, &[u16; 81], &Positions, &mut Found);

    fn positions(grid: &[u16; 81]) -> Positions {
        let mut out = [[0u16; 9]; 27];
        for (cell, &m) in grid.iter().enumerate() {
            let [b, r, c] = CELL_REGIONS[cell];
            let (row, col) = (cell / 9, cell % 9);
            let in_block = row % 3 * 3 + col % 3;
            let mut m = m;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                out[b as usize][d] |= 1 << in_block;
                out[r as usize][d] |= 1 << col;
                out[c as usize][d] |= 1 << row;
            }
        }
        out
    }

    fn empty_cells(state: &State, region: usize) -> usize {
        REGION_CELLS[region]
            .iter()
            .filter(|&&c| state.values[c as usize] == 0)
            .count()
    }

    /// Pointing and claiming as SE's finder scans them (block and column, block and row,
    /// column and block, row and block; digits, then the first region, then the second). A
    /// hint rests on the digit's places the first region lost outside the second.
    fn locking(state: &State, grid: &[u16; 81], _: &Positions, found: &mut Found) {
        let (had, left) = (planes(&state.cands), planes(grid));
        for (t1, t2) in [(0, 18), (0, 9), (18, 0), (9, 0)] {
            for d in 0..9 {
                for r1 in t1..t1 + 9 {
                    let in1 = REGION_MASKS[r1];
                    let places = in1 & left[d];
                    if places.count_ones() < 2 {
                        continue;
                    }
                    for r2 in t2..t2 + 9 {
                        let in2 = REGION_MASKS[r2];
                        if in1 & in2 == 0 || places & !in2 != 0 {
                            continue;
                        }
                        // A region's cells in SE's order are its cells in ascending order.
                        let mut m = in2 & !in1 & left[d];
                        if m == 0 {
                            continue;
                        }
                        let mut removable = Vec::with_capacity(m.count_ones() as usize);
                        while m != 0 {
                            removable.push((m.trailing_zeros() as usize, 1u16 << d));
                            m &= m - 1;
                        }
                        let mut m = in1 & !in2 & had[d] & !left[d];
                        let mut parents = Vec::with_capacity(m.count_ones() as usize);
                        while m != 0 {
                            parents.push(pid(m.trailing_zeros() as usize, d, false));
                            m &= m - 1;
                        }
                        emit(found, removable, &parents);
                    }
                }
            }
        }
    }

    fn hidden_pairs(state: &State, grid: &[u16; 81], pos: &Positions, found: &mut Found) {
        for region in BLOCKS_COLUMNS_ROWS {
            if empty_cells(state, region) <= 4 {
                continue;
            }
            let cells = &REGION_CELLS[region];
            for (a, b) in pairs() {
                let (pa, pb) = (pos[region][a], pos[region][b]);
                if pa.count_ones() <= 1 || pb.count_ones() <= 1 || (pa | pb).count_ones() != 2 {
                    continue;
                }
                let both = pa | pb;
                let pair: u16 = 1 << a | 1 << b;
                let removable: Vec<(usize, u16)> = (0..9)
                    .filter(|&i| both >> i & 1 == 1)
                    .map(|i| (cells[i] as usize, grid[cells[i] as usize] & !pair))
                    .filter(|&(_, m)| m != 0)
                    .collect();
                if removable.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for (i, &c) in cells.iter().enumerate() {
                    if both >> i & 1 == 0 {
                        for v in [a, b] {
                            if state.cands[c as usize] >> v & 1 == 1 {
                                parents.push(pid(c as usize, v, false));
                            }
                        }
                    }
                }
                emit(found, removable, &parents);
            }
        }
    }

    fn naked_pairs(state: &State, grid: &[u16; 81], _: &Positions, found: &mut Found) {
        for region in BLOCKS_COLUMNS_ROWS {
            if empty_cells(state, region) < 4 {
                continue;
            }
            let cells = &REGION_CELLS[region];
            for (i, j) in pairs() {
                let (ci, cj) = (cells[i] as usize, cells[j] as usize);
                let (mi, mj) = (grid[ci], grid[cj]);
                if mi.count_ones() <= 1 || mj.count_ones() <= 1 || (mi | mj).count_ones() != 2 {
                    continue;
                }
                let union = mi | mj;
                let mut removable: Vec<(usize, u16)> = Vec::new();
                for v in 0..9 {
                    if union >> v & 1 == 0 {
                        continue;
                    }
                    let mut victims = !0u128;
                    for c in [ci, cj] {
                        if grid[c] >> v & 1 == 1 {
                            victims &= PEER_SETS[c];
                        }
                    }
                    for c in 0..81 {
                        if victims >> c & 1 == 1 && grid[c] >> v & 1 == 1 {
                            match removable.iter_mut().find(|e| e.0 == c) {
                                Some(e) => e.1 |= 1 << v,
                                None => removable.push((c, 1 << v)),
                            }
                        }
                    }
                }
                if removable.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for c in [ci, cj] {
                    for v in 0..9 {
                        if state.cands[c] >> v & 1 == 1 && union >> v & 1 == 0 {
                            parents.push(pid(c, v, false));
                        }
                    }
                }
                emit(found, removable, &parents);
            }
        }
    }

    fn x_wings(state: &State, grid: &[u16; 81], pos: &Positions, found: &mut Found) {
        let mut placed = [0usize; 10];
        for &v in &state.values {
            placed[v as usize] += 1;
        }
        // Columns as the base and rows as the cover, then the other way round.
        for (base, cover) in [(18, 9), (9, 18)] {
            for (i, j) in pairs() {
                for d in 0..9 {
                    if placed[d + 1] + 4 > 9 {
                        continue;
                    }
                    let (pi, pj) = (pos[base + i][d], pos[base + j][d]);
                    if pi.count_ones() <= 1 || pj.count_ones() <= 1 || (pi | pj).count_ones() != 2 {
                        continue;
                    }
                    let common = pi | pj;
                    let bases: u16 = 1 << i | 1 << j;
                    let mut removable = Vec::new();
                    for k in 0..9 {
                        if common >> k & 1 == 0 {
                            continue;
                        }
                        let rest = pos[cover + k][d] & !bases;
                        for p in 0..9 {
                            if rest >> p & 1 == 1 {
                                removable.push((REGION_CELLS[cover + k][p] as usize, 1u16 << d));
                            }
                        }
                    }
                    if removable.is_empty() {
                        continue;
                    }
                    let mut parents = Vec::new();
                    for b in [i, j] {
                        for (p, &c) in REGION_CELLS[base + b].iter().enumerate() {
                            let c = c as usize;
                            if state.cands[c] >> d & 1 == 1
                                && grid[c] >> d & 1 == 0
                                && common >> p & 1 == 0
                            {
                                parents.push(pid(c, d, false));
                            }
                        }
                    }
                    emit(found, removable, &parents);
                }
            }
        }
    }

    /// What a cycle or forcing chain removes, candidate indexes in ascending order.
    fn removable(grid: &[u16; 81], c: &Candidate) -> Vec<u16> {
        if !c.cycle_elims.is_empty() {
            return c.cycle_elims.clone();
        }
        let (cell, d) = (pcell(c.target), pdigit(c.target));
        if !pon(c.target) {
            return vec![(cell * 9 + d) as u16];
        }
        (0..9)
            .filter(|&v| v != d && grid[cell] >> v & 1 == 1)
            .map(|v| (cell * 9 + v) as u16)
            .collect()
    }

    /// The eliminations of the chains `hints` found on the run's grid, each resting on the
    /// candidates its links needed gone: the values a cell lost, or the places a region lost,
    /// for each "on" link (every link of a cycle, both directions). SE keeps the first hint,
    /// in its sort order, of each set of eliminations.
    fn chains(state: &State, grid: &[u16; 81], mut hints: Vec<Candidate>, found: &mut Found) {
        sort(&mut hints);
        let mut seen: std::collections::HashSet<Vec<u16>> = std::collections::HashSet::new();
        for c in &hints {
            let removed = removable(grid, c);
            if removed.is_empty() || !seen.insert(removed.clone()) {
                continue;
            }
            let cycle = !c.cycle_elims.is_empty();
            let mut parents: Vec<Pid> = Vec::new();
            let mut key: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(cycle);
            for &(p, cause) in &c.chain {
                key = (key ^ u64::from(p)).wrapping_mul(0x0100_0000_01b3);
                let Some(cause) = cause else { continue };
                if !(cycle || pon(p)) {
                    continue;
                }
                let (cell, d) = (pcell(p), pdigit(p));
                match cause {
                    Cause::Cell => {
                        for v in 0..9 {
                            if state.cands[cell] >> v & 1 == 1 && grid[cell] >> v & 1 == 0 {
                                parents.push(pid(cell, v, false));
                            }
                        }
                    }
                    Cause::Region(r) => {
                        for &o in &REGION_CELLS[r as usize] {
                            let o = o as usize;
                            if state.cands[o] >> d & 1 == 1 && grid[o] >> d & 1 == 0 {
                                parents.push(pid(o, d, false));
                            }
                        }
                    }
                }
            }
            let mut unique = Vec::with_capacity(parents.len());
            for p in parents {
                if !unique.contains(&p) {
                    unique.push(p);
                }
            }
            let mut cells: Vec<(usize, u16)> = Vec::new();
            for &k in &removed {
                let (cell, v) = (k as usize / 9, k % 9);
                match cells.iter_mut().find(|e| e.0 == cell) {
                    Some(e) => e.1 |= 1 << v,
                    None => cells.push((cell, 1 << v)),
                }
            }
            emit_nested(found, cells, &unique, Some((key, c.complexity)));
        }
    }

    /// Adds the eliminations of the first technique that finds some resting on the run's
    /// assumptions; whether any potential was added.
    pub(super) fn more(
        state: &State,
        mode: Mode,
        grid: &[u16; 81],
        run: &mut Run,
        pending_off: &mut VecDeque<u32>,
        budget: &mut Budget<'_>,
    ) -> bool {
        let mut found: Found = Vec::new();
        let finders: [Finder; 4] = [locking, hidden_pairs, naked_pairs, x_wings];
        let pos = positions(grid);
        for finder in finders {
            finder(state, grid, &pos, &mut found);
            if !found.is_empty() {
                break;
            }
        }
        if found.is_empty() && mode.level >= 2 {
            let inner = State {
                values: state.values,
                cands: *grid,
            };
            if mode.level < 4 {
                chains(state, grid, unary::hints(&inner, true, budget), &mut found);
                if found.is_empty() && mode.level == 3 {
                    let hints = multiple::hints(&inner, Mode::MULTIPLE, true, true, budget);
                    chains(state, grid, hints, &mut found);
                }
            } else {
                let inner_mode = match mode.inner {
                    0 => Mode::DYNAMIC,
                    level => Mode::nested(level, 0),
                };
                let hints = multiple::hints(&inner, inner_mode, true, true, budget);
                chains(state, grid, hints, &mut found);
            }
        }
        let mut added = false;
        let mut parents = Vec::new();
        for (p, rule_parents, nest) in found {
            if run.has(p) {
                continue;
            }
            parents.clear();
            parents.extend(
                rule_parents
                    .iter()
                    .filter(|&&q| run.has(q))
                    .map(|&q| run.node(q)),
            );
            let n = run.push(p, &parents, true, None);
            if let Some((key, complexity)) = nest {
                run.set_nest(n, key, complexity);
            }
            pending_off.push_back(n);
            added = true;
        }
        added
    }
}

#[cfg(test)]
mod tests;
