//! The Sudoku Explainer (SE 1.2.1) rating: ER, EP and ED, the scale the puzzle community sorts
//! puzzles by. SE solves by repeatedly applying the first hint of the first technique, in its
//! fixed order, that finds one; ER is the hardest difficulty on the way, EP the hardest up to
//! the first step that places a digit, ED the difficulty of the first step.
//!
//! - [`basic`]: every SE technique that is not a chain, in SE's scan order.
//! - [`chains`]: SE's chaining techniques, by family.
//! - This file: the grid as SE sees it ([`State`]), the technique order and the rating loop.

mod basic;
mod chains;

use crate::core::error::{Error, Result};
use crate::core::search::{nine, Control, SearchStats};
use crate::core::{BoxShape, Grid};
use basic::Scope;

/// The grid as SE sees it between steps: values (0 = empty) and, for every empty cell, its
/// candidates (bit d-1 for digit d); a filled cell's mask is 0.
#[derive(Clone)]
pub(crate) struct State {
    pub values: [u8; 81],
    pub cands: [u16; 81],
}

/// One SE hint: its difficulty in tenths (65 = 6.5), what it places and removes
/// (cell 0..81 row-major, digit 1..9).
pub(crate) struct Hint {
    pub tenths: u16,
    // Names the step for tests and for reading a rating's path while debugging.
    #[allow(dead_code)]
    pub technique: &'static str,
    pub placements: Vec<(u8, u8)>,
    pub eliminations: Vec<(u8, u8)>,
}

/// The cells of every region: `REGIONS[type][index][position]`, types 0 block, 1 row,
/// 2 column (SE's numbering), blocks numbered row-major and their cells row-major.
pub(crate) const REGIONS: [[[u8; 9]; 9]; 3] = regions();
/// The region index of every cell, per region type.
pub(crate) const CELL_REGION: [[u8; 3]; 81] = cell_regions();
/// [`REGIONS`] as one list of 27 (blocks 0..9, rows 9..18, columns 18..27), for the chains,
/// which number a region by that one index.
pub(crate) const REGION_CELLS: [[u8; 9]; 27] = flat_regions();
/// [`CELL_REGION`] in the numbering of [`REGION_CELLS`].
pub(crate) const CELL_REGIONS: [[u8; 3]; 81] = flat_cell_regions();
/// The 20 peers of every cell, ascending.
pub(crate) const PEERS: [[u8; 20]; 81] = peers();
/// The peers of every cell as a cell set (bit `cell`).
pub(crate) const PEER_SETS: [u128; 81] = peer_sets();

const fn regions() -> [[[u8; 9]; 9]; 3] {
    let mut out = [[[0u8; 9]; 9]; 3];
    let mut i = 0;
    while i < 9 {
        let mut p = 0;
        while p < 9 {
            out[0][i][p] = (9 * ((i / 3) * 3 + p / 3) + (i % 3) * 3 + p % 3) as u8;
            out[1][i][p] = (9 * i + p) as u8;
            out[2][i][p] = (9 * p + i) as u8;
            p += 1;
        }
        i += 1;
    }
    out
}

const fn cell_regions() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, k) = (c / 9, c % 9);
        out[c] = [((r / 3) * 3 + k / 3) as u8, r as u8, k as u8];
        c += 1;
    }
    out
}

const fn flat_regions() -> [[u8; 9]; 27] {
    let mut out = [[0u8; 9]; 27];
    let mut r = 0;
    while r < 27 {
        out[r] = REGIONS[r / 9][r % 9];
        r += 1;
    }
    out
}

const fn flat_cell_regions() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let mut t = 0;
        while t < 3 {
            out[c][t] = (9 * t) as u8 + CELL_REGION[c][t];
            t += 1;
        }
        c += 1;
    }
    out
}

const fn peers() -> [[u8; 20]; 81] {
    let regions = cell_regions();
    let mut out = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            let same = regions[c][0] == regions[o][0]
                || regions[c][1] == regions[o][1]
                || regions[c][2] == regions[o][2];
            if o != c && same {
                out[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    out
}

const fn peer_sets() -> [u128; 81] {
    let mut out = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut i = 0;
        while i < 20 {
            out[c] |= 1u128 << PEERS[c][i];
            i += 1;
        }
        c += 1;
    }
    out
}

impl State {
    /// The start of a classic grid: givens placed, every other cell's candidates the digits
    /// no peer holds.
    #[cfg(test)]
    pub(crate) fn from_values(values: &[u8]) -> State {
        State::from_givens(values).0
    }

    /// [`State::from_values`], and whether two givens of one region hold the same digit: the
    /// candidates come from each region's placed digits, read once, instead of placing the
    /// givens one by one over their peers, and the same masks tell a conflict apart for free.
    fn from_givens(values: &[u8]) -> (State, bool) {
        let mut s = State {
            values: [0; 81],
            cands: [0; 81],
        };
        let mut placed = [0u16; 27];
        let mut conflict = 0u16;
        for (c, &v) in values.iter().enumerate().take(81) {
            let bit = (1u16 << v) >> 1;
            for &r in &CELL_REGIONS[c] {
                conflict |= placed[r as usize] & bit;
                placed[r as usize] |= bit;
            }
            s.values[c] = v;
        }
        for (c, cands) in s.cands.iter_mut().enumerate() {
            let [a, b, d] = CELL_REGIONS[c];
            let seen = placed[a as usize] | placed[b as usize] | placed[d as usize];
            *cands = if s.values[c] == 0 { !seen & 0x1ff } else { 0 };
        }
        (s, conflict != 0)
    }

    /// The start of a puzzle with pencil marks, as SukakuExplainer reads one: the givens
    /// placed, every empty cell's candidates its marks (as
    /// [`crate::core::grid::marks::restrict`] leaves them), then every cell marked with one
    /// digit that no other cell it sees is marked with taken as given. A cell whose one
    /// candidate a peer shares stays a cell to solve: SE finds it as a single, and rates it.
    pub(crate) fn from_marks(values: &[u8], marks: &[u64]) -> State {
        let mut s = State {
            values: [0; 81],
            cands: [0; 81],
        };
        for (c, (&v, &m)) in values.iter().zip(marks).enumerate().take(81) {
            s.values[c] = v;
            s.cands[c] = if v == 0 { m as u16 & 0x1ff } else { 0 };
        }
        for (c, peers) in PEERS.iter().enumerate() {
            let m = s.cands[c];
            if m.count_ones() == 1 && peers.iter().all(|&p| s.cands[p as usize] & m == 0) {
                s.values[c] = m.trailing_zeros() as u8 + 1;
                s.cands[c] = 0;
            }
        }
        s
    }

    /// Whether `cell` still has candidate `d`.
    pub(crate) fn has(&self, cell: usize, d: u8) -> bool {
        self.cands[cell] >> (d - 1) & 1 == 1
    }

    #[cfg(test)]
    fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
}

/// What SE's techniques other than chains ask of a state most: each region's positions of
/// each digit and its empty cells. The rating loop keeps them up to date as it places and
/// removes candidates ([`Tables::place`], [`Tables::remove`]) instead of rebuilding them.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    /// `pos[t][index][d - 1]`: the positions of digit `d` in every region.
    pos: [[[u16; 9]; 9]; 3],
    /// The empty cells of every region.
    empty: [[u8; 9]; 3],
    /// The digits placed in every region (bit d-1 for digit d).
    placed: [[u16; 9]; 3],
    /// The digits with one position in every region, as of the last [`Tables::refresh`].
    ones: [[u16; 9]; 3],
    /// The regions whose positions changed since then: bit `9 * t + index`.
    dirty: u32,
    /// The regions with a digit in [`Tables::ones`], as bits like [`Tables::dirty`]'s.
    with_ones: u32,
    /// The regions with one empty cell, as bits like [`Tables::dirty`]'s.
    one_empty: u32,
    /// The regions and digits whose candidates changed since the last [`Tables::take_touched`].
    touched: Scope,
}

/// The regions of every cell as bits of [`Tables::dirty`].
const CELL_DIRTY: [u32; 81] = cell_dirty();

const fn cell_dirty() -> [u32; 81] {
    let regions = cell_regions();
    let mut out = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        out[c] = 1 << regions[c][0] | 1 << (9 + regions[c][1]) | 1 << (18 + regions[c][2]);
        c += 1;
    }
    out
}

/// The position of every cell in its region of each type.
const POSITION: [[u8; 3]; 81] = positions_in_regions();

const fn positions_in_regions() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (r, k) = (c / 9, c % 9);
        out[c] = [((r % 3) * 3 + k % 3) as u8, k as u8, r as u8];
        c += 1;
    }
    out
}

/// `PLACE_KEEP[cell][9 * t + index]`: the positions of region `index` of type `t` that keep a
/// digit placed in `cell` as a candidate (the cells that are neither `cell` nor its peers).
const PLACE_KEEP: [[u16; 27]; 81] = place_keep();

const fn place_keep() -> [[u16; 27]; 81] {
    let regions = regions();
    let cell_regions = cell_regions();
    let mut out = [[0u16; 27]; 81];
    let mut c = 0;
    while c < 81 {
        let mut t = 0;
        while t < 3 {
            let mut i = 0;
            while i < 9 {
                let mut keep = 0u16;
                let mut p = 0;
                while p < 9 {
                    let o = regions[t][i][p] as usize;
                    let seen = o == c
                        || cell_regions[c][0] == cell_regions[o][0]
                        || cell_regions[c][1] == cell_regions[o][1]
                        || cell_regions[c][2] == cell_regions[o][2];
                    if !seen {
                        keep |= 1 << p;
                    }
                    p += 1;
                }
                out[c][9 * t + i] = keep;
                i += 1;
            }
            t += 1;
        }
        c += 1;
    }
    out
}

impl Tables {
    #[inline(always)]
    pub(crate) fn of(state: &State) -> Tables {
        let mut pos = [[[0u16; 9]; 9]; 3];
        let mut empty = [[0u8; 9]; 3];
        let mut placed = [[0u16; 9]; 3];
        // Every digit of every cell without a branch: which candidates a cell has is data the
        // processor cannot predict, and this runs once per rating.
        for (c, (&m, &v)) in state.cands.iter().zip(&state.values).enumerate() {
            for t in 0..3 {
                let (index, p) = (CELL_REGION[c][t] as usize, POSITION[c][t]);
                let out = &mut pos[t][index];
                for (d, out) in out.iter_mut().enumerate() {
                    *out |= (m >> d & 1) << p;
                }
                empty[t][index] += u8::from(v == 0);
                placed[t][index] |= (1u16 << v) >> 1;
            }
        }
        let mut one_empty = 0;
        for (id, &e) in empty.iter().flatten().enumerate() {
            one_empty |= u32::from(e == 1) << id;
        }
        Tables {
            pos,
            empty,
            placed,
            ones: [[0; 9]; 3],
            dirty: (1 << 27) - 1,
            touched: Scope::ALL,
            with_ones: 0,
            one_empty,
        }
    }

    /// Brings [`Tables::ones`] up to date: only the regions that changed since the last call,
    /// as a step of singles touches a few regions and the singles are looked for after each.
    #[inline(always)]
    fn refresh(&mut self) {
        let mut dirty = std::mem::take(&mut self.dirty);
        while dirty != 0 {
            let i = dirty.trailing_zeros() as usize;
            let ones = basic::single_digits(&self.pos[i / 9][i % 9]);
            self.ones[i / 9][i % 9] = ones;
            self.with_ones = self.with_ones & !(1 << i) | u32::from(ones != 0) << i;
            dirty &= dirty - 1;
        }
    }

    /// The same positions and empty cells as `other` (the placed digits may differ where a
    /// puzzle with no solution placed one digit twice in a region).
    fn same_as(&self, other: &Tables) -> bool {
        self.pos == other.pos && self.empty == other.empty
    }

    /// Whether every cell is filled.
    fn solved(&self) -> bool {
        self.empty[1].iter().all(|&e| e == 0)
    }

    /// Whether `state` is plainly broken, as only a puzzle with no solution leaves one: an
    /// empty cell without candidates, or a region with a digit neither placed nor possible.
    fn broken(&self, state: &State) -> bool {
        let no_candidates = state
            .values
            .iter()
            .zip(&state.cands)
            .any(|(&v, &m)| v == 0 && m == 0);
        no_candidates
            || self.pos.iter().zip(&self.placed).any(|(regions, placed)| {
                regions.iter().zip(placed).any(|(pos, &placed)| {
                    let possible = pos
                        .iter()
                        .enumerate()
                        .fold(0u16, |m, (d, &p)| m | u16::from(p != 0) << d);
                    possible | placed != 0x1ff
                })
            })
    }

    /// Removes candidate `d` of `cell` from `state`, and from the tables.
    #[inline]
    fn remove(&mut self, state: &mut State, cell: usize, d: u8) {
        // Without a branch: whether the cell had the candidate is a coin toss the processor
        // would mispredict, and clearing a position that is not there changes nothing.
        let had = u32::from(state.cands[cell] >> (d - 1)) & 1;
        state.cands[cell] &= !(1 << (d - 1));
        let regions = CELL_DIRTY[cell] & had.wrapping_neg();
        self.dirty |= regions;
        self.touched.regions |= regions;
        self.touched.digits |= (had as u16) << (d - 1);
        for ((pos, &r), &p) in self
            .pos
            .iter_mut()
            .zip(&CELL_REGION[cell])
            .zip(&POSITION[cell])
        {
            pos[r as usize][d as usize - 1] &= !(1 << p);
        }
    }

    /// Places `d` in `cell` and removes it from the peers' candidates, keeping the tables up
    /// to date.
    #[inline(always)]
    fn place(&mut self, state: &mut State, cell: usize, d: u8) {
        // Without a branch on which candidates the cell and its peers hold (data the processor
        // cannot predict): every digit's position of the cell is cleared in its three regions,
        // and digit `d`'s positions in all 27 regions are masked with what the placement
        // leaves of them, a region marked changed where a position went.
        let had = u32::from(state.cands[cell] != 0);
        let mut touched = CELL_DIRTY[cell] & had.wrapping_neg();
        self.touched.digits |= state.cands[cell] | 1 << (d - 1);
        state.cands[cell] = 0;
        for ((pos, &r), &p) in self
            .pos
            .iter_mut()
            .zip(&CELL_REGION[cell])
            .zip(&POSITION[cell])
        {
            for positions in &mut pos[r as usize] {
                *positions &= !(1 << p);
            }
        }
        let di = d as usize - 1;
        let keep = &PLACE_KEEP[cell];
        for (id, &keep) in keep.iter().enumerate() {
            let positions = &mut self.pos[id / 9][id % 9][di];
            let old = *positions;
            *positions = old & keep;
            touched |= u32::from(old != *positions) << id;
        }
        self.dirty |= touched;
        self.touched.regions |= touched;
        for &p in &PEERS[cell] {
            state.cands[p as usize] &= !(1 << di);
        }
        state.values[cell] = d;
        for (t, ((empty, placed), &r)) in self
            .empty
            .iter_mut()
            .zip(&mut self.placed)
            .zip(&CELL_REGION[cell])
            .enumerate()
        {
            empty[r as usize] -= 1;
            placed[r as usize] |= 1 << di;
            let id = 9 * t + r as usize;
            self.one_empty = self.one_empty & !(1 << id) | u32::from(empty[r as usize] == 1) << id;
        }
    }

    /// The regions and digits whose candidates changed since the last call.
    fn take_touched(&mut self) -> Scope {
        std::mem::replace(&mut self.touched, Scope::NONE)
    }

    /// Applies a hint to `state`: its eliminations, then its placements.
    #[inline(always)]
    fn apply(&mut self, state: &mut State, hint: &Hint) {
        for &(c, d) in &hint.eliminations {
            self.remove(state, c as usize, d);
        }
        for &(c, d) in &hint.placements {
            if state.values[c as usize] == 0 {
                self.place(state, c as usize, d);
            }
        }
    }
}

/// A state and its [`Tables`]: what SE's techniques other than chains read.
pub(crate) struct View<'a> {
    pub state: &'a State,
    tables: &'a Tables,
}

impl View<'_> {
    /// The positions (bit p for position p) of candidate `d` in region `index` of type `t`.
    pub(crate) fn positions(&self, t: usize, index: usize, d: u8) -> u16 {
        self.tables.pos[t][index][d as usize - 1]
    }

    /// The positions of every digit in region `index` of type `t` (digit d at d - 1).
    pub(crate) fn region_positions(&self, t: usize, index: usize) -> &[u16; 9] {
        &self.tables.pos[t][index]
    }

    /// The digits with one position in region `index` of type `t` (bit d-1 for digit d), as
    /// of the last [`Tables::refresh`].
    pub(crate) fn single_digits(&self, t: usize, index: usize) -> u16 {
        self.tables.ones[t][index]
    }

    /// The regions with a digit of one position (as of the last [`Tables::refresh`]) and
    /// the regions with one empty cell: bit `9 * t + index` for region `index` of type `t`.
    pub(crate) fn single_regions(&self) -> (u32, u32) {
        (self.tables.with_ones, self.tables.one_empty)
    }

    /// The empty cells of a region.
    pub(crate) fn empty_count(&self, t: usize, index: usize) -> u32 {
        u32::from(self.tables.empty[t][index])
    }
}

impl std::ops::Deref for View<'_> {
    type Target = State;

    fn deref(&self) -> &State {
        self.state
    }
}

/// One of SE's techniques other than chains, with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Basic {
    HiddenSingle,
    /// Pointing and claiming; `true`: only the direct ones.
    Locking(bool),
    /// Hidden sets of a degree; `true`: only the direct ones.
    HiddenSet(u32, bool),
    NakedSingle,
    NakedSet(u32),
    Fish(u32),
    /// XY-wing, or with `true` XYZ-wing.
    XyWing(bool),
    UniqueLoops,
    Bug,
    AlignedPair,
    AlignedTriple,
}

impl Basic {
    /// The technique's first hint in SE's scan order. Inlined into each of [`Isa`]'s two
    /// compilations of the rating loop, with every technique, so that each is built for the
    /// processor's instructions where it has them.
    #[inline(always)]
    fn find(self, view: &View<'_>) -> Option<Hint> {
        self.find_in(view, Scope::ALL)
    }

    /// [`Basic::find`] looking only at `scope` (see [`Scope`]); the singles and the
    /// uniqueness and exclusion techniques look at the whole state.
    #[inline(always)]
    fn find_in(self, view: &View<'_>, scope: Scope) -> Option<Hint> {
        match self {
            Basic::HiddenSingle => basic::hidden_single(view),
            Basic::Locking(direct) => basic::locking(view, direct, scope),
            Basic::HiddenSet(degree, direct) => basic::hidden_set(view, degree, direct, scope),
            Basic::NakedSingle => basic::naked_single(view),
            Basic::NakedSet(degree) => basic::naked_set(view, degree, scope),
            Basic::Fish(degree) => basic::fish(view, degree, scope),
            Basic::XyWing(xyz) => basic::xy_wing(view, xyz, scope),
            Basic::UniqueLoops => basic::unique_loops(view),
            Basic::Bug => basic::bug(view),
            Basic::AlignedPair => basic::aligned_pair_exclusion(view),
            Basic::AlignedTriple => basic::aligned_triple_exclusion(view),
        }
    }
}

/// One entry of SE's technique order.
enum Producer {
    /// A technique of [`basic`]: its first hint in SE's scan order.
    Basic(Basic),
    /// A chain family: SE sorts a family's hints and applies the first.
    Chain(chains::Family),
}

/// SE 1.2.1's technique order (SukakuExplainer's default order with SE 1.2.1's technique set):
/// the first that finds a hint gives the step, whatever its difficulty.
const ORDER: &[Producer] = &[
    Producer::Basic(Basic::HiddenSingle),
    Producer::Basic(Basic::Locking(true)),
    Producer::Basic(Basic::HiddenSet(2, true)),
    Producer::Basic(Basic::NakedSingle),
    Producer::Basic(Basic::HiddenSet(3, true)),
    Producer::Basic(Basic::Locking(false)),
    Producer::Basic(Basic::NakedSet(2)),
    Producer::Basic(Basic::Fish(2)),
    Producer::Basic(Basic::HiddenSet(2, false)),
    Producer::Basic(Basic::NakedSet(3)),
    Producer::Basic(Basic::Fish(3)),
    Producer::Basic(Basic::HiddenSet(3, false)),
    Producer::Basic(Basic::XyWing(false)),
    Producer::Basic(Basic::XyWing(true)),
    Producer::Basic(Basic::UniqueLoops),
    Producer::Basic(Basic::NakedSet(4)),
    Producer::Basic(Basic::Fish(4)),
    Producer::Basic(Basic::HiddenSet(4, false)),
    Producer::Basic(Basic::Bug),
    Producer::Basic(Basic::AlignedPair),
    Producer::Chain(chains::Family::Cycles),
    Producer::Basic(Basic::AlignedTriple),
    Producer::Chain(chains::Family::Nishio),
    Producer::Chain(chains::Family::Multiple),
    Producer::Chain(chains::Family::Dynamic),
    Producer::Chain(chains::Family::DynamicPlus),
    Producer::Chain(chains::Family::NestedForcingChains),
    Producer::Chain(chains::Family::NestedMultipleForcingChains),
    Producer::Chain(chains::Family::NestedDynamicForcingChains(0)),
    Producer::Chain(chains::Family::NestedDynamicForcingChains(1)),
    Producer::Chain(chains::Family::NestedDynamicForcingChains(2)),
];

/// The step SE takes next, trying its techniques from `ORDER[from]` on, or `None` when they are
/// stuck. The chain searches ask `control` as they go (one step of them can take seconds).
#[inline(always)]
fn next_hint(
    view: &View<'_>,
    from: usize,
    to: usize,
    scratch: &mut Vec<Hint>,
    control: &mut dyn Control,
) -> Result<Option<Hint>> {
    for producer in &ORDER[from..to] {
        match producer {
            Producer::Basic(technique) => {
                if let Some(h) = technique.find(view) {
                    return Ok(Some(h));
                }
            }
            Producer::Chain(family) => {
                scratch.clear();
                chains::hints(view.state, *family, scratch, control)?;
                // The family's hints come sorted as SE sorts them: the first is SE's step.
                if !scratch.is_empty() {
                    return Ok(Some(scratch.swap_remove(0)));
                }
            }
        }
    }
    Ok(None)
}

/// The least difficulty each technique of [`ORDER`] before [`FIRST_UNIQUENESS`] gives; the
/// difficulties grow with the order.
const LEAST_TENTHS: [u16; FIRST_UNIQUENESS] =
    [10, 17, 20, 23, 25, 26, 30, 32, 34, 36, 38, 40, 42, 44];

/// From which difficulty on each technique of [`LEAST_TENTHS`] finds nothing where the others
/// no harder than that find nothing, so that the loop below need not look: a naked single
/// where the singles are placed all at once, a direct pointing or claiming where pointing and
/// claiming are found (the hidden single it leaves is found after them), a direct hidden pair
/// or triple where hidden pairs or triples are (or, in a region of few empty cells where SE
/// looks for no hidden set, the naked set of the region's other cells).
const SUBSUMED_FROM: [u16; FIRST_UNIQUENESS] = [
    u16::MAX,
    28,
    34,
    23,
    40,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
    u16::MAX,
];

/// Whether applying `hint` to `state` changes it.
fn changes(state: &State, hint: &Hint) -> bool {
    hint.eliminations
        .iter()
        .any(|&(c, d)| state.has(c as usize, d))
        || hint
            .placements
            .iter()
            .any(|&(c, _)| state.values[c as usize] == 0)
}

/// Brings `state` to the point where none of SE's techniques that hold in every solution
/// (those of [`ORDER`] before [`FIRST_UNIQUENESS`]) finds a hint, raising `er` to the hardest
/// difficulty SE's path meets on the way; SE reaches for its later techniques exactly there.
///
/// Why any order of those steps ends at SE's state with SE's ER: each of those techniques has
/// one difficulty (pointing and claiming, and the kinds of singles, counted apart), they come in
/// SE's order with growing difficulty, and each is monotone: a hint found in a state is, in
/// any state with fewer candidates that still holds the solution, found again, already applied,
/// or reached by easier techniques of the list (a pair whose cell lost a candidate is a single,
/// a fish or set SE skips in a region with few empty cells is the complementary smaller one,
/// an XYZ-wing whose pivot lost a digit is an XY-wing or a naked pair). So the techniques up
/// to any one close a state to one fixed point whatever the order, SE's path stops at that of
/// the whole list, and the hardest technique SE uses on the way is the first whose prefix of
/// the list already reaches it. This loop applies freely every technique no harder than the
/// hardest used so far (`er`), and takes a harder one only where a full sweep of the easier
/// ones changed nothing, as SE does, so it meets the same hardest one.
///
/// `stale` holds, per technique, the part of the state that changed since it last found
/// nothing (see [`Scope`]); it looks only there.
#[inline(always)]
fn settle(
    state: &mut State,
    tables: &mut Tables,
    er: &mut u16,
    singles: &mut Vec<(u8, u8)>,
    stale: &mut [Scope; FIRST_UNIQUENESS],
) {
    'sweep: loop {
        let mut changed = false;
        // Singles first, and after every other step: the cheapest, and they shrink what the
        // other techniques scan.
        let (mut producer, mut resume) = (0, 1);
        while producer < FIRST_UNIQUENESS {
            if producer == 0 {
                tables.refresh();
                singles.clear();
                let view = View { state, tables };
                // Every kind of single no harder than the ER so far is free: all at once.
                match basic::singles(&view, singles, *er) {
                    Some(tenths) if tenths <= *er || !changed => {
                        *er = (*er).max(tenths);
                        for &(c, d) in singles.iter() {
                            if state.values[c as usize] == 0 {
                                tables.place(state, c as usize, d);
                            }
                        }
                        changed = true;
                        continue;
                    }
                    Some(_) => continue 'sweep,
                    None => {}
                }
                if *er >= 23 {
                    // Naked singles are as free as hidden ones here: all at once.
                    let mut any = false;
                    for c in 0..81 {
                        let m = state.cands[c];
                        if state.values[c] == 0 && m.count_ones() == 1 {
                            tables.place(state, c, m.trailing_zeros() as u8 + 1);
                            any = true;
                        }
                    }
                    if any {
                        changed = true;
                        continue;
                    }
                }
                if tables.solved() {
                    return;
                }
                producer = resume;
                continue;
            }
            if changed && LEAST_TENTHS[producer] > *er {
                continue 'sweep;
            }
            if *er >= SUBSUMED_FROM[producer] {
                producer += 1;
                continue;
            }
            let Producer::Basic(technique) = &ORDER[producer] else {
                unreachable!("the techniques before the first uniqueness one are basic");
            };
            let touched = tables.take_touched();
            for scope in stale.iter_mut() {
                scope.regions |= touched.regions;
                scope.digits |= touched.digits;
            }
            if stale[producer] == Scope::NONE {
                producer += 1;
                continue;
            }
            tables.refresh();
            let hint = technique.find_in(&View { state, tables }, stale[producer]);
            match hint {
                Some(h) if changes(state, &h) => {
                    if h.tenths > *er && changed {
                        // Harder than anything used so far: the easier ones sweep first.
                        continue 'sweep;
                    }
                    *er = (*er).max(h.tenths);
                    tables.apply(state, &h);
                    changed = true;
                    // The singles it leaves, then this technique again: the ones before it
                    // are looked at again in the next sweep.
                    resume = producer;
                    producer = 0;
                }
                _ => {
                    stale[producer] = Scope::NONE;
                    producer += 1;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// A caller's control of any kind seen as a `dyn Control`, for the chain searches.
struct Asked<'a, C: ?Sized>(&'a mut C);

impl<C: Control + ?Sized> Control for Asked<'_, C> {
    fn proceed(&mut self, stats: &SearchStats) -> bool {
        self.0.proceed(stats)
    }
}

/// ER, EP and ED in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    pub er: u16,
    pub ep: u16,
    pub ed: u16,
}

/// What SE makes of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Solved to the end: the rating.
    Rated(Rating),
    /// SE's techniques get stuck (serate prints 20.0); the rating so far.
    Stuck(Rating),
    /// Several solutions: SE does not rate it.
    NotUnique,
}

/// Rates a classic 9x9 puzzle the way SE 1.2.1 does. Invalid givens and puzzles without a
/// solution are errors; `control` is asked before every step and may stop the rating
/// ([`Error::Interrupted`]).
pub fn rate(grid: &Grid, control: &mut (impl Control + ?Sized)) -> Result<Outcome> {
    rate_marked(grid, None, control)
}

/// [`rate`] of a puzzle with pencil `marks` (a sukaku when the grid is blank), the way
/// SukakuExplainer rates its 729-character form: one candidate mask per cell as
/// [`crate::core::grid::marks::restrict`] returns them (the solution keeps to them), a
/// given's mask 0. A cell marked with one digit no other cell it sees is marked with counts as
/// given, unrated, as SukakuExplainer reads it (see [`State::from_marks`]).
pub fn rate_marked(
    grid: &Grid,
    marks: Option<&[u64]>,
    control: &mut (impl Control + ?Sized),
) -> Result<Outcome> {
    if grid.shape() != BoxShape::CLASSIC {
        return Err(Error::BoxShape(
            "the Sudoku Explainer rating is for classic 9x9 grids with 3x3 boxes".into(),
        ));
    }
    let start = match marks {
        Some(marks) => {
            grid.check()?;
            State::from_marks(grid.cells(), marks)
        }
        None => {
            let (start, conflict) = State::from_givens(grid.cells());
            if conflict {
                // The check names the two givens.
                grid.check()?;
            }
            start
        }
    };
    let mut count = Unknown { grid, marks };
    rate_from(&start, control, Some(&mut count))
}

/// A puzzle whose number of solutions is not counted yet.
struct Unknown<'a> {
    grid: &'a Grid,
    marks: Option<&'a [u64]>,
}

impl Unknown<'_> {
    /// Counts the solutions up to 2: `Some` outcome when the puzzle is not rated (several
    /// solutions), `None` when it has one, an error when none.
    fn count(&self, control: &mut (impl Control + ?Sized)) -> Result<Option<Outcome>> {
        // The 9x9 engine directly, as `Solver::count_marked` runs it for this shape: a solver's
        // generic engine would be built for nothing.
        let mut stats = SearchStats::default();
        match nine::count(self.grid.cells(), self.marks, control, None, &mut stats, 2)? {
            0 => Err(Error::NoSolution),
            1 => Ok(None),
            _ => Ok(Some(Outcome::NotUnique)),
        }
    }
}

/// The first technique of [`ORDER`] that assumes the puzzle has one solution (SE's
/// uniqueness techniques); every technique before it only draws conclusions that hold in every
/// solution.
const FIRST_UNIQUENESS: usize = 14;

/// Whether every row, column and block of a full grid holds each digit once.
fn is_solution(values: &[u8; 81]) -> bool {
    REGIONS.iter().flatten().all(|cells| {
        cells
            .iter()
            .fold(0u16, |seen, &c| seen | 1 << values[c as usize])
            == 0x3fe
    })
}

/// ER is the hardest step; ED the first step's difficulty; EP the hardest up to the first
/// step that places a digit.
#[inline(always)]
fn record(rating: &mut Rating, first: &mut bool, placed: &mut bool, tenths: u16, places: bool) {
    rating.er = rating.er.max(tenths);
    if !*placed {
        if *first {
            rating.ed = rating.er;
            *first = false;
        }
        if places {
            rating.ep = rating.er;
            *placed = true;
        }
    }
}

/// [`rate_loop`], built for the processor's popcount and bit instructions where it has them
/// (as the 9x9 solver's search is): the techniques count and pick bits all the time.
fn rate_from(
    start: &State,
    control: &mut (impl Control + ?Sized),
    unknown: Option<&mut Unknown<'_>>,
) -> Result<Outcome> {
    #[cfg(target_arch = "x86_64")]
    if nine::modern() {
        // SAFETY: `modern()` found every feature `modern_rate` is built for.
        return unsafe { modern_rate(start, control, unknown) };
    }
    rate_loop(start, control, unknown)
}

/// [`rate_loop`] with everything it inlines built for the features [`nine::modern`] checks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn modern_rate(
    start: &State,
    control: &mut (impl Control + ?Sized),
    unknown: Option<&mut Unknown<'_>>,
) -> Result<Outcome> {
    rate_loop(start, control, unknown)
}

/// Rates from `start`; with `unknown`, a puzzle whose solutions are not counted yet. Its
/// rating runs uncounted while every step is one that holds in every solution (singles up
/// to SE's first uniqueness technique): a path of such steps that fills the grid with a
/// solution proves it the only one, so most puzzles are never counted. The count runs before
/// the first uniqueness technique or chain is tried, and whenever a step finds the state
/// broken (a puzzle with no solution), and the rating goes on from where it is: every step
/// so far holds in the one solution.
#[inline(always)]
fn rate_loop(
    start: &State,
    control: &mut (impl Control + ?Sized),
    mut unknown: Option<&mut Unknown<'_>>,
) -> Result<Outcome> {
    let mut state = start.clone();
    let _spare = chains::SpareRuns::hold();
    let mut tables = Tables::of(&state);
    let mut rating = Rating {
        er: 0,
        ep: 0,
        ed: 0,
    };
    let (mut first, mut placed) = (true, false);
    let mut scratch = Vec::new();
    let mut singles = Vec::new();
    let mut stale = [Scope::ALL; FIRST_UNIQUENESS];
    let mut stats = SearchStats::default();
    // Asked before the first step and after each step of another technique, not between two
    // steps of singles: those are at most 81 and each costs less than reading the clock the
    // batch's control does when asked.
    let mut poll = true;
    while !tables.solved() {
        stats.nodes += 1;
        if poll && !control.proceed(&stats) {
            return Err(Error::Interrupted);
        }
        poll = true;
        debug_assert!(tables.same_as(&Tables::of(&state)));
        tables.refresh();
        if placed {
            // EP and ED are known: only ER and the states where SE reaches past its
            // techniques that hold in every solution matter from here on.
            if unknown.is_some() && tables.broken(&state) {
                if let Some(unknown) = unknown.take() {
                    if let Some(outcome) = unknown.count(control)? {
                        return Ok(outcome);
                    }
                }
            }
            settle(
                &mut state,
                &mut tables,
                &mut rating.er,
                &mut singles,
                &mut stale,
            );
            if tables.solved() {
                break;
            }
            if unknown.is_some() && tables.broken(&state) {
                // Counted below: a broken state is one only a puzzle with no solution leaves.
                poll = false;
                continue;
            }
            if let Some(unknown) = unknown.take() {
                if let Some(outcome) = unknown.count(control)? {
                    return Ok(outcome);
                }
            }
            let view = View {
                state: &state,
                tables: &tables,
            };
            let asked = &mut Asked(&mut *control);
            let Some(hint) = next_hint(&view, FIRST_UNIQUENESS, ORDER.len(), &mut scratch, asked)?
            else {
                return Ok(Outcome::Stuck(rating));
            };
            rating.er = rating.er.max(hint.tenths);
            tables.apply(&mut state, &hint);
            continue;
        }
        let view = View {
            state: &state,
            tables: &tables,
        };
        singles.clear();
        // SE's first technique, hidden singles, one easiest kind at a time: every single of the
        // easiest kind present is placed in one go, which rates as SE's one at a time does.
        // Each single places the solution's digit (the state always holds the one solution),
        // and placing solution digits leaves every other single in place until its cell is
        // filled, the same kind or easier (its region still has its digit in one cell, and
        // fewer empty cells). So for every kind K, the singles of kind K or easier reachable
        // from a state S close to one state C_K(S) in any order, and SE, taking the easiest
        // single each time, stays at kind K or easier exactly until C_K(S); its hardest single
        // from S is the easiest K whose C_K(S) has no single left. This loop also stays at
        // kind K or easier until C_K(S) (it takes a harder kind only where none of K or easier
        // is left), takes a harder one there exactly when C_K(S) still has a single, and ends
        // at the same state as SE once no single is left. Its first kind is SE's first step
        // and every single places a digit, so ER, EP and ED come out as SE's.
        if let Some(tenths) = basic::singles(&view, &mut singles, 0) {
            record(&mut rating, &mut first, &mut placed, tenths, true);
            for &(c, d) in &singles {
                if state.values[c as usize] == 0 {
                    tables.place(&mut state, c as usize, d);
                }
            }
            poll = false;
            continue;
        }
        // ORDER[0] is hidden singles, just found empty. Uncounted, only the techniques that
        // hold in every solution are tried, and only on a state that is not broken.
        let mut from = 1;
        let mut hint = None;
        if unknown.is_some() && !tables.broken(&state) {
            let asked = &mut Asked(&mut *control);
            hint = next_hint(&view, 1, FIRST_UNIQUENESS, &mut scratch, asked)?;
            from = FIRST_UNIQUENESS;
        }
        if hint.is_none() {
            if let Some(unknown) = unknown.take() {
                if let Some(outcome) = unknown.count(control)? {
                    return Ok(outcome);
                }
            }
            let asked = &mut Asked(&mut *control);
            hint = next_hint(&view, from, ORDER.len(), &mut scratch, asked)?;
        }
        let Some(hint) = hint else {
            return Ok(Outcome::Stuck(rating));
        };
        record(
            &mut rating,
            &mut first,
            &mut placed,
            hint.tenths,
            !hint.placements.is_empty(),
        );
        tables.apply(&mut state, &hint);
    }
    if let Some(unknown) = unknown {
        // Filled by steps that hold in every solution: the only solution if it is one. If it
        // is not, the count says why (none, or several); one solution cannot lead here, but
        // would be rated again from the start, counted.
        if !is_solution(&state.values) {
            return match unknown.count(control)? {
                Some(outcome) => Ok(outcome),
                None => rate_from(start, control, None),
            };
        }
    }
    Ok(Outcome::Rated(rating))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_uniqueness_technique_is_where_the_order_says() {
        let at = ORDER
            .iter()
            .position(|p| matches!(p, Producer::Basic(Basic::UniqueLoops)));
        assert_eq!(at, Some(FIRST_UNIQUENESS));
    }

    #[test]
    fn the_order_tries_every_chain_family_in_ses_order() {
        let families: Vec<chains::Family> = ORDER
            .iter()
            .filter_map(|p| match p {
                Producer::Chain(f) => Some(*f),
                Producer::Basic(_) => None,
            })
            .collect();
        assert_eq!(families, chains::Family::ALL);
    }
    use crate::core::search::Unbounded;

    fn rated(puzzle: &str) -> Outcome {
        let cells: Vec<u8> = puzzle
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let grid = Grid::new(BoxShape::CLASSIC, cells).unwrap();
        rate(&grid, &mut Unbounded).unwrap()
    }

    /// The rating runs uncounted as long as its steps hold in every solution; puzzles with no
    /// solution or several must still come out as the count says, whatever state the steps
    /// reach first (a wrong given lets singles fill a grid that breaks a rule).
    #[test]
    fn puzzles_without_one_solution_are_told_apart_as_the_count_does() {
        let easy = [
            "9..1...4661.2...5...2.3..1.847.....339.8..1.21.5.6..9.2.169.7..5.....4.94.....63.",
            "..87.23...734..52..29....4...4.....8...3..7.675.9....449..7...2.816.5.7.36..9.48.",
            ".2..4.1.74.....593.......62134.8..79.56.34..89...173.....7.3....75...8..3..1.8.56",
        ];
        let mut seen = [0usize; 3];
        for puzzle in easy {
            let cells: Vec<u8> = puzzle
                .bytes()
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect();
            let mut variants = Vec::new();
            for c in 0..81 {
                if cells[c] != 0 {
                    let mut fewer = cells.clone();
                    fewer[c] = 0;
                    variants.push(fewer);
                    continue;
                }
                for d in 1..=9u8 {
                    let mut more = cells.clone();
                    more[c] = d;
                    variants.push(more);
                }
            }
            for v in variants {
                let grid = Grid::new(BoxShape::CLASSIC, v.clone()).unwrap();
                if grid.check().is_err() {
                    continue;
                }
                let mut stats = SearchStats::default();
                let count = nine::count(&v, None, &mut Unbounded, None, &mut stats, 2).unwrap();
                let got = rate(&grid, &mut Unbounded);
                match count {
                    0 => assert!(matches!(got, Err(Error::NoSolution)), "{v:?}"),
                    1 => assert!(matches!(got, Ok(Outcome::Rated(_))), "{v:?}"),
                    _ => assert!(matches!(got, Ok(Outcome::NotUnique)), "{v:?}"),
                }
                seen[count.min(2) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn singles_only_puzzles_rate_as_serate_does() {
        // serate (SE 1.2.1's technique set): 1.2/1.0/1.0 and 1.2/1.2/1.2.
        let a = "9..1...4661.2...5...2.3..1.847.....339.8..1.21.5.6..9.2.169.7..5.....4.94.....63.";
        let b = "..87.23...734..52..29....4...4.....8...3..7.675.9....449..7...2.816.5.7.36..9.48.";
        assert_eq!(
            rated(a),
            Outcome::Rated(Rating {
                er: 12,
                ep: 10,
                ed: 10
            })
        );
        assert_eq!(
            rated(b),
            Outcome::Rated(Rating {
                er: 12,
                ep: 12,
                ed: 12
            })
        );
    }
}

/// SE's path from `state`, one hint a step as the rating takes them: `step` sees each state and
/// the hint applied to it, or `None` where no technique finds one (the walk then stops). The
/// debugging and checking aids below and in the chain tests print it.
#[cfg(test)]
pub(crate) fn walk_path(mut state: State, mut step: impl FnMut(&State, Option<&Hint>)) {
    use crate::core::search::Unbounded;
    let mut scratch = Vec::new();
    while !state.solved() {
        let tables = Tables::of(&state);
        let view = View {
            state: &state,
            tables: &tables,
        };
        let hint = next_hint(&view, 0, ORDER.len(), &mut scratch, &mut Unbounded).unwrap();
        step(&state, hint.as_ref());
        let Some(h) = hint else {
            break;
        };
        Tables::of(&state).apply(&mut state, &h);
    }
}

/// Prints SE's path for the puzzle in `SE_PUZZLE`: `cargo test se_path -- --ignored --nocapture`.
#[cfg(test)]
#[test]
#[ignore = "a debugging aid: reads SE_PUZZLE"]
fn se_path() {
    let puzzle = std::env::var("SE_PUZZLE").unwrap_or_default();
    let values: Vec<u8> = puzzle
        .bytes()
        .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    walk_path(State::from_values(&values), |state, hint| {
        let Some(h) = hint else {
            println!("stuck");
            return;
        };
        let cell = |&(c, d): &(u8, u8)| format!("r{}c{}={}", c / 9 + 1, c % 9 + 1, d);
        let p: Vec<String> = h.placements.iter().map(cell).collect();
        let e: Vec<String> = h.eliminations.iter().map(cell).collect();
        println!("{} {} place {:?} remove {:?}", h.technique, h.tenths, p, e);
        if std::env::var("SE_CANDS").is_ok() {
            for r in 0..9 {
                let row: Vec<String> = (0..9)
                    .map(|k| {
                        let c = 9 * r + k;
                        if state.values[c] != 0 {
                            format!("[{}]", state.values[c])
                        } else {
                            (1..=9u8)
                                .filter(|&d| state.has(c, d))
                                .map(|d| (b'0' + d) as char)
                                .collect()
                        }
                    })
                    .collect();
                println!("  {}", row.join(" "));
            }
        }
    });
}

/// Rates every puzzle of `tests/data/se_reference.txt` (or the file in `SE_REFERENCE`) with ER
/// at least `SE_MIN` tenths and prints the ones that differ from serate's ER/EP/ED:
/// `cargo test --release se_reference -- --ignored --nocapture`.
#[cfg(test)]
#[test]
#[ignore = "slow: the whole reference sample"]
fn se_reference() {
    use crate::core::search::Unbounded;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = std::env::var("SE_REFERENCE").map_or_else(
        |_| root.join("tests/data/se_reference.txt"),
        std::path::PathBuf::from,
    );
    let min: u16 = std::env::var("SE_MIN")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    let text = std::fs::read_to_string(path).expect("reference file");
    let (mut same, mut total) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut words = line.split_whitespace();
        let (Some(puzzle), Some(rating)) = (words.next(), words.next()) else {
            continue;
        };
        let want: Vec<u16> = rating
            .split('/')
            .map(|r| (r.parse::<f64>().unwrap_or(0.0) * 10.0).round() as u16)
            .collect();
        if want.len() != 3 || want[0] < min {
            continue;
        }
        let cells: Vec<u8> = puzzle
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let t = std::time::Instant::now();
        let got = rate(
            &Grid::new(BoxShape::CLASSIC, cells).expect("a classic grid"),
            &mut Unbounded,
        );
        let secs = t.elapsed().as_secs_f64();
        let got = match got {
            Ok(Outcome::Rated(r)) => vec![r.er, r.ep, r.ed],
            _ => vec![0, 0, 0],
        };
        total += 1;
        if got == want {
            same += 1;
            println!("ok   {puzzle} {want:?} {secs:.2}s");
        } else {
            println!("DIFF {puzzle} serate {want:?} here {got:?} {secs:.2}s");
        }
    }
    println!("{same} of {total} agree");
}
