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

use super::{Hint, State};

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
}

impl Family {
    /// Every family, in SE's order (the driver's `ORDER` interleaves them with aligned triple
    /// exclusion; the tests walk them all).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) const ALL: [Family; 6] = [
        Family::Cycles,
        Family::Nishio,
        Family::Multiple,
        Family::Dynamic,
        Family::DynamicPlus,
        Family::NestedForcingChains,
    ];
}

/// The cells of each region: blocks 0..9, rows 9..18, columns 18..27, in SE's order.
const REGION_CELLS: [[u8; 9]; 27] = region_cells();
/// The block, row and column of each cell.
const CELL_REGIONS: [[u8; 3]; 81] = cell_regions();
/// The 20 peers of each cell.
const PEERS: [[u8; 20]; 81] = peers();

const fn region_cells() -> [[u8; 9]; 27] {
    let mut out = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            out[i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            out[9 + i][j] = (i * 9 + j) as u8;
            out[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    out
}

const fn cell_regions() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        out[c] = [
            (c / 27 * 3 + c % 9 / 3) as u8,
            (9 + c / 9) as u8,
            (18 + c % 9) as u8,
        ];
        c += 1;
    }
    out
}

const fn peers() -> [[u8; 20]; 81] {
    let mut out = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            let same_box = c / 27 == o / 27 && c % 9 / 3 == o % 9 / 3;
            if o != c && (c / 9 == o / 9 || c % 9 == o % 9 || same_box) {
                out[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    out
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
}

/// The potentials that get off when `cell`/`d` is on, in SE's order: the cell's other values
/// (when `y`), then the digit's other places in the block, the row and the column.
fn on_to_off(cands: &[u16; 81], cell: usize, d: usize, y: bool, out: &mut Vec<(Pid, Cause)>) {
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
        for &o in &REGION_CELLS[r as usize] {
            let o = o as usize;
            if added >> o & 1 == 0 && cands[o] >> d & 1 == 1 {
                added |= 1 << o;
                out.push((pid(o, d, false), Cause::Region(r)));
            }
        }
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
    cell: usize,
    d: usize,
    y: bool,
    x: bool,
    out: &mut Vec<(Pid, Cause)>,
) {
    out.clear();
    if y && cands[cell].count_ones() == 2 {
        let other = (cands[cell] & !(1 << d)).trailing_zeros() as usize;
        if other < 9 {
            out.push((pid(cell, other, true), Cause::Cell));
        }
    }
    if x {
        for &r in &CELL_REGIONS[cell] {
            let mut other = usize::MAX;
            let mut many = false;
            for &o in &REGION_CELLS[r as usize] {
                let o = o as usize;
                if o != cell && cands[o] >> d & 1 == 1 {
                    if other != usize::MAX {
                        many = true;
                        break;
                    }
                    other = o;
                }
            }
            if !many && other != usize::MAX {
                let p = pid(other, d, true);
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
    /// For cycles and forcing chains found inside another chain: the chain, from its end.
    chain: Vec<(Pid, Option<Cause>)>,
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

/// Pushes every hint of `family` on `state`, sorted the way SE sorts them (the first is the
/// one SE applies).
pub(crate) fn hints(state: &State, family: Family, out: &mut Vec<Hint>) {
    let found = match family {
        Family::Cycles => unary::hints(state, false),
        Family::Nishio => multiple::hints(state, Mode::NISHIO),
        Family::Multiple => multiple::hints(state, Mode::MULTIPLE),
        Family::Dynamic => multiple::hints(state, Mode::DYNAMIC),
        Family::DynamicPlus => multiple::hints(state, Mode::DYNAMIC_PLUS),
        Family::NestedForcingChains => multiple::hints(state, Mode::NESTED_FORCING_CHAINS),
    };
    finish(state, found, out);
}

/// The settings of one of SE's multiple-chain engines.
#[derive(Clone, Copy)]
struct Mode {
    dynamic: bool,
    nishio: bool,
    /// The nesting level: 1 adds locked candidates, pairs and X-wings inside the chains, 2
    /// cycles and forcing chains.
    level: u8,
    base: f64,
}

impl Mode {
    const NISHIO: Mode = Mode {
        dynamic: true,
        nishio: true,
        level: 0,
        base: 7.5,
    };
    const MULTIPLE: Mode = Mode {
        dynamic: false,
        nishio: false,
        level: 0,
        base: 8.0,
    };
    const DYNAMIC: Mode = Mode {
        dynamic: true,
        nishio: false,
        level: 0,
        base: 8.5,
    };
    const DYNAMIC_PLUS: Mode = Mode {
        dynamic: true,
        nishio: false,
        level: 1,
        base: 9.0,
    };
    const NESTED_FORCING_CHAINS: Mode = Mode {
        dynamic: true,
        nishio: false,
        level: 2,
        base: 9.5,
    };
}

/// Cycles and forcing chains: one assumption followed through single links.
mod unary {
    use super::{
        length_difficulty, off_to_on, on_to_off, pcell, pdigit, pid, pon, sorts_before, Candidate,
        Cause, PSet, Pid, State, PEERS,
    };

    struct Node {
        pid: Pid,
        parent: u32,
        cause: Option<Cause>,
        depth: u32,
    }

    const ROOT: u32 = u32::MAX;

    struct Search<'a> {
        cands: &'a [u16; 81],
        nodes: Vec<Node>,
        offs: Vec<(Pid, Cause)>,
        ons: Vec<(Pid, Cause)>,
    }

    impl Search<'_> {
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
        fn cycles(&mut self, source: Pid, y: bool, x: bool, limit: u32) -> Vec<u32> {
            self.nodes.clear();
            let mut to_on = PSet::new();
            let mut cycles = Vec::new();
            let mut pending_on = vec![self.push(source, ROOT)];
            to_on.set(source);
            let mut pending_off: Vec<u32> = Vec::new();
            let mut length = 0;
            while !pending_on.is_empty() || !pending_off.is_empty() {
                // The cycles this round closes have `length + 2` potentials.
                if length + 2 > limit {
                    break;
                }
                length += 1;
                for p in std::mem::take(&mut pending_on) {
                    let pp = self.nodes[p as usize].pid;
                    let mut offs = std::mem::take(&mut self.offs);
                    on_to_off(self.cands, pcell(pp), pdigit(pp), y, &mut offs);
                    for &(q, cause) in &offs {
                        if !self.is_parent(p, q) {
                            let n = self.push_cause(q, p, Some(cause));
                            pending_off.push(n);
                        }
                    }
                    self.offs = offs;
                }
                length += 1;
                for p in std::mem::take(&mut pending_off) {
                    let pp = self.nodes[p as usize].pid;
                    let mut ons = std::mem::take(&mut self.ons);
                    off_to_on(self.cands, pcell(pp), pdigit(pp), y, x, &mut ons);
                    for &(q, cause) in &ons {
                        if length >= 4 && q == source {
                            cycles.push(self.push_cause(q, p, Some(cause)));
                        }
                        if !to_on.has(q) {
                            to_on.set(q);
                            let n = self.push_cause(q, p, Some(cause));
                            pending_on.push(n);
                        }
                    }
                    self.ons = ons;
                }
            }
            cycles
        }

        /// The first conclusion that contradicts `source`, found breadth first: the node of
        /// its negation.
        fn forcing(&mut self, source: Pid, y: bool, limit: u32) -> Option<u32> {
            self.nodes.clear();
            let mut to_on = PSet::new();
            let mut to_off = PSet::new();
            let conj = source ^ 1;
            let mut pending_on = Vec::new();
            let mut pending_off = Vec::new();
            let root = self.push(source, ROOT);
            if pon(source) {
                to_on.set(source);
                pending_on.push(root);
            } else {
                to_off.set(source);
                pending_off.push(root);
            }
            while !pending_on.is_empty() || !pending_off.is_empty() {
                for p in std::mem::take(&mut pending_on) {
                    if self.nodes[p as usize].depth + 2 > limit {
                        return None;
                    }
                    let pp = self.nodes[p as usize].pid;
                    let mut offs = std::mem::take(&mut self.offs);
                    on_to_off(self.cands, pcell(pp), pdigit(pp), y, &mut offs);
                    for &(q, cause) in &offs {
                        if q == conj {
                            self.offs = offs;
                            return Some(self.push_cause(q, p, Some(cause)));
                        }
                        if !to_off.has(q) {
                            to_off.set(q);
                            let n = self.push_cause(q, p, Some(cause));
                            pending_off.push(n);
                        }
                    }
                    self.offs = offs;
                }
                for p in std::mem::take(&mut pending_off) {
                    if self.nodes[p as usize].depth + 2 > limit {
                        return None;
                    }
                    let pp = self.nodes[p as usize].pid;
                    let mut ons = std::mem::take(&mut self.ons);
                    off_to_on(self.cands, pcell(pp), pdigit(pp), y, true, &mut ons);
                    for &(q, cause) in &ons {
                        if q == conj {
                            self.ons = ons;
                            return Some(self.push_cause(q, p, Some(cause)));
                        }
                        if !to_on.has(q) {
                            to_on.set(q);
                            let n = self.push_cause(q, p, Some(cause));
                            pending_on.push(n);
                        }
                    }
                    self.ons = ons;
                }
            }
            None
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
        /// "on" and an "off" potential of their digit on the cycle.
        fn cycle_eliminations(&self, end: u32) -> Vec<u16> {
            let mut cells: u128 = 0;
            let mut n = end;
            while self.nodes[n as usize].parent != ROOT {
                cells |= 1 << pcell(self.nodes[n as usize].pid);
                n = self.nodes[n as usize].parent;
            }
            let mut forw = [0u128; 9];
            let mut back = [0u128; 9];
            let mut n = end;
            while self.nodes[n as usize].parent != ROOT {
                let p = self.nodes[n as usize].pid;
                let d = pdigit(p);
                for &o in &PEERS[pcell(p)] {
                    let o = o as usize;
                    if cells >> o & 1 == 0 && self.cands[o] >> d & 1 == 1 {
                        if pon(p) {
                            forw[d] |= 1 << o;
                        } else {
                            back[d] |= 1 << o;
                        }
                    }
                }
                n = self.nodes[n as usize].parent;
            }
            let mut out = Vec::new();
            for cell in 0..81 {
                for d in 0..9 {
                    if (forw[d] & back[d]) >> cell & 1 == 1 {
                        out.push((cell * 9 + d) as u16);
                    }
                }
            }
            out
        }
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

    /// The cycles and forcing chains of `state`; with `nested`, every one, each with its
    /// chain; without, only those that could sort first (longer chains are not followed).
    pub(super) fn hints(state: &State, nested: bool) -> Vec<Candidate> {
        let cands = &state.cands;
        let mut s = Search {
            cands,
            nodes: Vec::with_capacity(4096),
            offs: Vec::with_capacity(32),
            ons: Vec::with_capacity(4),
        };
        let mut found = Vec::new();
        let mut best: Option<(f64, u32, u8)> = None;
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
                for d in 0..9 {
                    if mask >> d & 1 == 0 {
                        continue;
                    }
                    let source = pid(cell, d, true);
                    let cycle_limit = limit(cycle_base, sort_key, best);
                    for end in s.cycles(source, y, x, cycle_limit) {
                        let elims = s.cycle_eliminations(end);
                        if elims.is_empty() {
                            continue;
                        }
                        let complexity = s.count(end);
                        found.push(Candidate {
                            difficulty: cycle_base + length_difficulty(complexity),
                            complexity,
                            sort_key,
                            technique: cycle_name,
                            target: 0,
                            cycle_elims: elims,
                            chain: if nested { s.path(end) } else { Vec::new() },
                        });
                        better(&mut best, &found[found.len() - 1]);
                    }
                    if !x {
                        continue;
                    }
                    for start in [source, source ^ 1] {
                        let chain_limit = limit(chain_base, sort_key, best);
                        if let Some(end) = s.forcing(start, y, chain_limit) {
                            let target = s.nodes[end as usize].pid;
                            if pon(target) && n < 2 {
                                continue;
                            }
                            let complexity = s.count(end);
                            found.push(Candidate {
                                difficulty: chain_base + length_difficulty(complexity),
                                complexity,
                                sort_key,
                                technique: chain_name,
                                target,
                                cycle_elims: Vec::new(),
                                chain: if nested { s.path(end) } else { Vec::new() },
                            });
                            better(&mut best, &found[found.len() - 1]);
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
        advanced, length_difficulty, off_to_on, on_to_off, pcell, pdigit, pid, pon, Candidate,
        Cause, Mode, PSet, Pid, State, CELL_REGIONS, REGION_CELLS,
    };

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
        /// Per node, the chain found inside the run it came from (an index in `nests`).
        nest: Vec<u32>,
        /// The inner chains: an identity, and their complexity.
        nests: Vec<(u64, u32)>,
    }

    impl Run {
        fn new() -> Self {
            Run {
                pids: Vec::with_capacity(256),
                starts: vec![0],
                parents: Vec::with_capacity(512),
                index: vec![0; 1458],
                reached: PSet::new(),
                absurd: None,
                nest: Vec::with_capacity(256),
                nests: Vec::new(),
            }
        }

        pub(super) fn node(&self, p: Pid) -> u32 {
            self.index[p as usize]
        }

        pub(super) fn push(&mut self, p: Pid, parents: &[u32], member: bool) -> u32 {
            let n = self.pids.len() as u32;
            self.pids.push(p);
            self.nest.push(u32::MAX);
            self.parents.extend_from_slice(parents);
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
        fn count(&self, n: u32, scratch: &mut Scratch) -> u32 {
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
                let (a, b) = (self.starts[m as usize], self.starts[m as usize + 1]);
                for &q in &self.parents[a as usize..b as usize] {
                    if scratch.seen[q as usize] != epoch {
                        scratch.seen[q as usize] = epoch;
                        scratch.stack.push(q);
                    }
                }
            }
            count
        }

        fn count_pid(&self, p: Pid, scratch: &mut Scratch) -> u32 {
            self.count(self.index[p as usize], scratch)
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
    pub(super) fn follow(state: &State, start: Pid, mode: Mode) -> Run {
        let source = &state.cands;
        let mut grid = *source;
        let mut run = Run::new();
        let y = !mode.nishio;
        let mut pending_on = std::collections::VecDeque::new();
        let mut pending_off = std::collections::VecDeque::new();
        let root = run.push(start, &[], true);
        if pon(start) {
            pending_on.push_back(root);
        } else {
            pending_off.push_back(root);
        }
        let mut offs = Vec::with_capacity(32);
        let mut ons = Vec::with_capacity(4);
        let mut parents: Vec<u32> = Vec::with_capacity(16);
        loop {
            if let Some(p) = pending_on.pop_front() {
                let pp = run.pids[p as usize];
                on_to_off(&grid, pcell(pp), pdigit(pp), y, &mut offs);
                for &(q, _) in &offs {
                    if run.has(q ^ 1) {
                        let n = run.push(q, &[p], false);
                        run.absurd = Some((run.index[(q ^ 1) as usize], n));
                        return run;
                    }
                    if !run.has(q) {
                        let n = run.push(q, &[p], true);
                        pending_off.push_back(n);
                    }
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                let pp = run.pids[p as usize];
                let (cell, d) = (pcell(pp), pdigit(pp));
                off_to_on(&grid, cell, d, y, true, &mut ons);
                if mode.dynamic {
                    grid[cell] &= !(1 << d);
                }
                for &(q, cause) in &ons {
                    parents.clear();
                    parents.push(p);
                    if mode.dynamic {
                        hidden_parents(source, &grid, q, cause, &run, &mut parents);
                    }
                    if run.has(q ^ 1) {
                        let n = run.push(q, &parents, false);
                        run.absurd = Some((n, run.index[(q ^ 1) as usize]));
                        return run;
                    }
                    if !run.has(q) {
                        let n = run.push(q, &parents, true);
                        pending_on.push_back(n);
                    }
                }
                continue;
            }
            if mode.level > 0 && advanced::more(state, mode, &grid, &mut run, &mut pending_off) {
                continue;
            }
            return run;
        }
    }

    /// The "off" potentials that let `q` get on beside its first parent: the values its cell
    /// lost, or the places its region lost, during the run. `grid` has the current parent
    /// removed already; SE looks before removing it, so the parent is skipped.
    fn hidden_parents(
        source: &[u16; 81],
        grid: &[u16; 81],
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
                for &o in &REGION_CELLS[r as usize] {
                    let o = o as usize;
                    if source[o] >> d & 1 == 1 && grid[o] >> d & 1 == 0 {
                        let off = pid(o, d, false);
                        if off != first && run.has(off) {
                            parents.push(run.index[off as usize]);
                        }
                    }
                }
            }
        }
    }

    /// Runs from each "on" potential, computed once per grid.
    struct Cache<'a> {
        state: &'a State,
        mode: Mode,
        on: Vec<Option<Run>>,
    }

    impl Cache<'_> {
        fn on(&mut self, cand: usize) -> &Run {
            if self.on[cand].is_none() {
                self.on[cand] = Some(follow(self.state, (cand * 2 + 1) as Pid, self.mode));
            }
            self.on[cand].as_ref().expect("just computed")
        }
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
            _ => [
                "Dynamic Contradiction Forcing Chains (+ Forcing Chains)",
                "Dynamic Double Forcing Chains (+ Forcing Chains)",
                "Dynamic Cell Forcing Chains (+ Forcing Chains)",
                "Dynamic Region Forcing Chains (+ Forcing Chains)",
            ],
        }
    }

    pub(super) fn hints(state: &State, mode: Mode) -> Vec<Candidate> {
        let cands = &state.cands;
        let names = names(mode);
        let mut cache = Cache {
            state,
            mode,
            on: (0..729).map(|_| None).collect(),
        };
        let mut scratch = Scratch::default();
        let mut found = Vec::new();
        let worth = |p: Pid| !pon(p) || cands[pcell(p)].count_ones() > 1;
        let add = |found: &mut Vec<Candidate>, complexity: u32, key: u8, name, target| {
            if worth(target) {
                found.push(Candidate {
                    difficulty: mode.base + length_difficulty(complexity),
                    complexity,
                    sort_key: key,
                    technique: name,
                    target,
                    cycle_elims: Vec::new(),
                    chain: Vec::new(),
                });
            }
        };
        let multiple = !mode.nishio;
        for (cell, &mask) in cands.iter().enumerate() {
            let card = mask.count_ones();
            if state.values[cell] != 0 || !(card > 2 || (card > 1 && mode.dynamic)) {
                continue;
            }
            let double = card >= 3 && !mode.nishio && mode.dynamic;
            let contradiction = mode.dynamic || mode.nishio;
            let digits: Vec<usize> = (0..9).filter(|&d| mask >> d & 1 == 1).collect();
            for &d in &digits {
                let cand = cell * 9 + d;
                let p_on = pid(cell, d, true);
                let on_run = cache.on(cand);
                if contradiction {
                    if let Some((a, b)) = on_run.absurd {
                        let c = on_run.count(a, scratch.hint()) + on_run.count(b, &mut scratch);
                        add(&mut found, c, 7, names[0], p_on ^ 1);
                    }
                }
                if contradiction || double {
                    let off_run = follow(state, p_on ^ 1, mode);
                    let on_run = cache.on(cand);
                    if contradiction {
                        if let Some((a, b)) = off_run.absurd {
                            let c =
                                off_run.count(a, scratch.hint()) + off_run.count(b, &mut scratch);
                            add(&mut found, c, 7, names[0], p_on);
                        }
                    }
                    if double {
                        for on in [true, false] {
                            let common: Vec<Pid> =
                                on_run.members(on).filter(|&q| off_run.has(q)).collect();
                            for q in common {
                                let c = on_run.count_pid(q, scratch.hint())
                                    + off_run.count_pid(q, &mut scratch);
                                add(&mut found, c, 1, names[1], q);
                            }
                        }
                    }
                }
                if multiple {
                    region_chains(state, &mut cache, &mut scratch, cell, d, &mut |c, q| {
                        add(&mut found, c, 6, names[3], q);
                    });
                }
            }
            if multiple {
                // Cell forcing chains: what every value of the cell implies.
                for &d in &digits {
                    cache.on(cell * 9 + d);
                }
                let first = cell * 9 + digits[0];
                for on in [true, false] {
                    let common: Vec<Pid> = cache.on[first]
                        .as_ref()
                        .expect("computed")
                        .members(on)
                        .filter(|&q| {
                            digits[1..]
                                .iter()
                                .all(|&d| cache.on[cell * 9 + d].as_ref().expect("computed").has(q))
                        })
                        .collect();
                    for q in common {
                        scratch.hint();
                        let c = digits
                            .iter()
                            .map(|&d| {
                                cache.on[cell * 9 + d]
                                    .as_ref()
                                    .expect("computed")
                                    .count_pid(q, &mut scratch)
                            })
                            .sum();
                        add(&mut found, c, 5, names[2], q);
                    }
                }
            }
        }
        found
    }

    /// Region forcing chains on the digit `d` of `cell`, for each region where `cell` is the
    /// digit's first place (so each region and digit is seen once).
    fn region_chains(
        state: &State,
        cache: &mut Cache<'_>,
        scratch: &mut Scratch,
        cell: usize,
        d: usize,
        add: &mut dyn FnMut(u32, Pid),
    ) {
        let cands = &state.cands;
        for &r in &CELL_REGIONS[cell] {
            let places: Vec<usize> = REGION_CELLS[r as usize]
                .iter()
                .map(|&o| o as usize)
                .filter(|&o| cands[o] >> d & 1 == 1)
                .collect();
            if places.len() < 2 || places[0] != cell {
                continue;
            }
            for &o in &places {
                cache.on(o * 9 + d);
            }
            let run = |o: usize| cache.on[o * 9 + d].as_ref().expect("computed");
            for on in [true, false] {
                let common: Vec<Pid> = run(cell)
                    .members(on)
                    .filter(|&q| places[1..].iter().all(|&o| run(o).has(q)))
                    .collect();
                for q in common {
                    scratch.hint();
                    let c = places.iter().map(|&o| run(o).count_pid(q, scratch)).sum();
                    add(c, q);
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
    use super::multiple::Run;
    use super::{
        pcell, pdigit, pid, pon, sort, unary, Candidate, Cause, Mode, Pid, State, PEERS,
        REGION_CELLS,
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

    fn peer_mask(cell: usize) -> u128 {
        PEERS[cell].iter().fold(0u128, |m, &o| m | 1 << o)
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

    fn positions(grid: &[u16; 81], region: usize, d: usize) -> u16 {
        let mut m = 0;
        for (i, &c) in REGION_CELLS[region].iter().enumerate() {
            if grid[c as usize] >> d & 1 == 1 {
                m |= 1 << i;
            }
        }
        m
    }

    fn empty_cells(state: &State, region: usize) -> usize {
        REGION_CELLS[region]
            .iter()
            .filter(|&&c| state.values[c as usize] == 0)
            .count()
    }

    fn locking(state: &State, grid: &[u16; 81], found: &mut Found) {
        for kind in 0..3 {
            for d in 0..9 {
                for region in kind * 9..kind * 9 + 9 {
                    let pos = positions(grid, region, d);
                    if !(2..=6).contains(&pos.count_ones()) {
                        continue;
                    }
                    let cells = &REGION_CELLS[region];
                    let mut victims = !0u128;
                    for (i, &c) in cells.iter().enumerate() {
                        if pos >> i & 1 == 1 {
                            victims &= peer_mask(c as usize) & !(1u128 << c);
                        }
                    }
                    let removable: Vec<(usize, u16)> = (0..81)
                        .filter(|&c| victims >> c & 1 == 1 && grid[c] >> d & 1 == 1)
                        .map(|c| (c, 1 << d))
                        .collect();
                    if removable.is_empty() {
                        continue;
                    }
                    let parents: Vec<Pid> = cells
                        .iter()
                        .enumerate()
                        .filter(|&(i, &c)| {
                            pos >> i & 1 == 0 && state.cands[c as usize] >> d & 1 == 1
                        })
                        .map(|(_, &c)| pid(c as usize, d, false))
                        .collect();
                    emit(found, removable, &parents);
                }
            }
        }
    }

    fn hidden_pairs(state: &State, grid: &[u16; 81], found: &mut Found) {
        for region in BLOCKS_COLUMNS_ROWS {
            if empty_cells(state, region) <= 4 {
                continue;
            }
            let cells = &REGION_CELLS[region];
            for (a, b) in pairs() {
                let (pa, pb) = (positions(grid, region, a), positions(grid, region, b));
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

    fn naked_pairs(state: &State, grid: &[u16; 81], found: &mut Found) {
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
                            victims &= peer_mask(c);
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

    fn x_wings(state: &State, grid: &[u16; 81], found: &mut Found) {
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
                    let (pi, pj) = (positions(grid, base + i, d), positions(grid, base + j, d));
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
                        let rest = positions(grid, cover + k, d) & !bases;
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

    /// The cycles and forcing chains of the run's grid, each resting on the candidates its
    /// links needed gone: the values a cell lost, or the places a region lost, for each link
    /// (both directions of a cycle).
    fn chains(state: &State, grid: &[u16; 81], found: &mut Found) {
        let inner = State {
            values: state.values,
            cands: *grid,
        };
        let mut hints = unary::hints(&inner, true);
        sort(&mut hints);
        let mut seen: Vec<Vec<u16>> = Vec::new();
        for c in &hints {
            let removed = removable(grid, c);
            if removed.is_empty() || seen.contains(&removed) {
                continue;
            }
            seen.push(removed.clone());
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
    ) -> bool {
        let mut found: Found = Vec::new();
        let finders: [fn(&State, &[u16; 81], &mut Found); 4] =
            [locking, hidden_pairs, naked_pairs, x_wings];
        for finder in finders {
            finder(state, grid, &mut found);
            if !found.is_empty() {
                break;
            }
        }
        if found.is_empty() && mode.level >= 2 {
            chains(state, grid, &mut found);
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
            let n = run.push(p, &parents, true);
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
