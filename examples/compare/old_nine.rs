//! The classic 9x9 engine as it was at main 636dee6 (2026-11-22), before the speed work that
//! followed, kept verbatim so that `examples/compare.rs` times today's engine beside it in one
//! process rather than against a figure from another day. It is part of that example only and
//! reaches the library through its public API alone (the stop hook, the statistics, the error
//! type, the conflict finder); its tests were those of `nine.rs` then, and the comparison's
//! agreement pass checks it against the current engine on every puzzle it times.
//!
//! The differences from the original are outside the engine: `POLL_INTERVAL` is copied here,
//! and [`OldNine`] wraps `search` in the calls the comparison makes of a `Solver`.
//!
//! What follows is that engine's own description.
//!
//! The classic 9x9 engine: per-digit band bitboards.
//!
//! The generic engine keeps one candidate mask per cell and rescans units; on 9x9 that spends
//! most of its time rediscovering what did not change. Here the state is, for each digit, three
//! 27-bit words, one per band (three rows of nine cells), holding the cells where that digit can
//! still go, including the cell where it is placed. Everything a propagation step needs is a
//! handful of word operations on that:
//!
//! * a digit's band must hold it once in each of its three rows and once in each of its three
//!   boxes: a 512-entry table, indexed by which (row, box) segments are non-empty, keeps only the
//!   segments that lie on some such arrangement. That one lookup finds locked candidates
//!   (pointing and claiming between rows and boxes) and dead bands; the same table does columns
//!   and boxes, on the three bands by three columns of each stack;
//! * a row or box of the band with one place left is a hidden single;
//! * a column (three bands of one digit) with one place left is a hidden single, and with none
//!   a dead end;
//! * bit-sliced counts over the nine digits of a band give the naked singles, the empty cells
//!   and the two-candidate cells to guess on.
//!
//! Only digit-bands that changed since they were last reduced are reduced again (one vector
//! compare finds them). Guesses go to a cell with two candidates when there is one. A guess
//! copies the 232-byte state onto the stack; nothing is allocated per puzzle.
//!
//! Solutions come out in a fixed order, so `solve` is deterministic and is `solutions`' first;
//! that order is this engine's, not the generic one's (on a puzzle with several solutions the
//! two engines may find a different one first).

// A copy of an engine as it was, kept as it was: the crate's stricter lints do not apply to it.
#![allow(clippy::pedantic)]

use sudoku_rs::core::grid::find_conflict;
use sudoku_rs::core::{BoxShape, Control, Error, Flow, Result, SearchStats, Unbounded};

/// How many search nodes pass between calls of [`Control::proceed`] (the library's value then).
const POLL_INTERVAL: u64 = 1024;

/// The old engine behind the calls the comparison makes of a `Solver`: first solution, count up
/// to a limit, and the statistics of the last call.
#[derive(Debug, Default)]
pub struct OldNine {
    stats: SearchStats,
}

impl OldNine {
    /// The first solution of `cells` (81 values, 0 blank) into `out`: `Ok(false)` when there is
    /// none.
    pub fn solve_into(&mut self, cells: &[u8], out: &mut [u8]) -> Result<bool> {
        let mut found = false;
        search(cells, &mut Unbounded, None, &mut self.stats, |solution| {
            out.copy_from_slice(solution);
            found = true;
            Flow::Stop
        })?;
        Ok(found)
    }

    /// The number of solutions of `cells`, counting up to `limit`.
    pub fn count(&mut self, cells: &[u8], limit: u64) -> Result<u64> {
        let mut count = 0;
        if limit == 0 {
            return Ok(0);
        }
        search(cells, &mut Unbounded, None, &mut self.stats, |_| {
            count += 1;
            if count >= limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })?;
        Ok(count)
    }

    /// What the last call's search did.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// One bit in each of the band's three rows, at the same column.
const STRIDE: u32 = 1 | 1 << 9 | 1 << 18;

const ROWS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
const BOXES: [u32; 3] = [0o7 * STRIDE, 0o70 * STRIDE, 0o700 * STRIDE];

/// Within a band, the other cells of a cell's row, box and column.
const PEERS: [u32; 27] = {
    let mut peers = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (row, col) = (p / 9, p % 9);
        peers[p] = (ROWS[row] | BOXES[col / 3] | (STRIDE << col)) & !(1 << p);
        p += 1;
    }
    peers
};

/// A 3x3 pattern of segments, bit `3 * i + j` for segment (i, j), where the digit must fill
/// exactly one segment in each i and one in each j: rows and boxes of a band, or bands and
/// columns of a stack. Indexed by the segments that are non-empty, the entry keeps those that
/// lie on some complete arrangement (one of the six ways to pair each i with a different j whose
/// three segments are all non-empty). Zero means no arrangement: a dead end. This one lookup is
/// locked candidates (pointing and claiming) for the 3x3 block it describes.
const ARRANGEABLE: [u16; 512] = {
    const ARRANGEMENTS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut present = 0;
    while present < 512 {
        let mut a = 0;
        while a < 6 {
            let js = ARRANGEMENTS[a];
            let arrangement = 1 << js[0] | 1 << (3 + js[1]) | 1 << (6 + js[2]);
            if present & arrangement == arrangement {
                table[present] |= arrangement as u16;
            }
            a += 1;
        }
        present += 1;
    }
    table
};

/// The band cells of each set of (row, box) segments (bit `3 * row + box`).
const SEGMENT_CELLS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut segments = 0;
    while segments < 512 {
        let mut k = 0;
        while k < 9 {
            if segments & (1 << k) != 0 {
                table[segments] |= ROWS[k / 3] & BOXES[k % 3];
            }
            k += 1;
        }
        segments += 1;
    }
    table
};

/// For one row's nine bits: bits 0-2 say which of its three segments are non-empty, bits 16-18
/// which hold exactly one cell. Three lookups describe a whole band (see [`shape`]).
const ROW_SHAPE: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut row: u32 = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            let segment = (row >> (3 * k)) & 0o7;
            if segment != 0 {
                table[row as usize] |= 1 << k;
            }
            if segment.count_ones() == 1 {
                table[row as usize] |= 1 << (16 + k);
            }
            k += 1;
        }
        row += 1;
    }
    table
};

/// Of a set of (row, box) segments, those that are the only one in their row or in their box:
/// where a single cell in the segment is a hidden single.
const LONE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut segments: u32 = 0;
    while segments < 512 {
        let mut k = 0;
        while k < 9 {
            let row = (segments >> (3 * (k / 3))) & 0o7;
            let column = (segments >> (k % 3)) & 0o111;
            if segments & (1 << k) != 0 && (row.count_ones() == 1 || column.count_ones() == 1) {
                table[segments as usize] |= 1 << k;
            }
            k += 1;
        }
        segments += 1;
    }
    table
};

/// A band word's (row, box) segments: which are non-empty (low nine bits, bit
/// `3 * row + box`) and which hold exactly one cell (the same, shifted up by 16).
#[inline(always)]
fn shape(a: u32) -> u32 {
    ROW_SHAPE[(a & 0x1FF) as usize]
        | ROW_SHAPE[((a >> 9) & 0x1FF) as usize] << 3
        | ROW_SHAPE[(a >> 18) as usize] << 6
}

/// Which columns of each band hold a place: bit `9 * band + column`.
#[inline(always)]
fn columns(cand: &[u32; 3]) -> u32 {
    let fold = |a: u32| (a | a >> 9 | a >> 18) & 0x1FF;
    fold(cand[0]) | fold(cand[1]) << 9 | fold(cand[2]) << 18
}

/// The 3x3 (band, column) pattern of one stack out of a [`columns`] word, bit `3 * band + k`
/// for column `3 * stack + k`.
#[inline(always)]
fn gather_stack(columns: u32, stack: usize) -> u32 {
    let s = 3 * stack;
    (columns >> s) & 0o7 | (columns >> (9 + s) & 0o7) << 3 | (columns >> (18 + s) & 0o7) << 6
}

/// The inverse of [`gather_stack`].
#[inline(always)]
fn scatter_stack(pattern: u32, stack: usize) -> u32 {
    let s = 3 * stack;
    (pattern & 0o7) << s | (pattern >> 3 & 0o7) << (9 + s) | (pattern >> 6 & 0o7) << (18 + s)
}

/// The search state: candidates per digit and band, what is unsolved, and what changed.
#[derive(Clone, Copy)]
struct State {
    /// `cand[d][b]`: cells of band `b` where digit `d + 1` can go or is placed.
    cand: [[u32; 3]; 9],
    /// Per band, the cells with no digit placed yet.
    unsolved: [u32; 3],
    /// `cand` as it was when each digit-band was last reduced.
    reduced: [[u32; 3]; 9],
    /// Bit d: digit d + 1 changed since its stacks were last reduced.
    stacks_due: u16,
    /// Bit d: digit d + 1 changed since its columns were last checked for singles.
    columns_due: u16,
}

impl State {
    fn empty() -> Self {
        State {
            cand: [[BAND; 3]; 9],
            unsolved: [BAND; 3],
            reduced: [[0; 3]; 9],
            stacks_due: 0x1FF,
            columns_due: 0x1FF,
        }
    }

    /// The state with the givens placed (`cells`: 81 values in 0..=9), or `None` when two equal
    /// givens share a unit. Same as placing them one by one, in a single pass: each given rules
    /// its digit out of its peers, and every given cell is out for the other digits.
    fn with_givens(cells: &[u8]) -> Option<Self> {
        let mut ruled_out = [[0u32; 3]; 9];
        let mut given = [[0u32; 3]; 9];
        let mut filled = [0u32; 3];
        for (b, band) in cells.chunks_exact(27).enumerate() {
            let (o1, o2) = OTHER_BANDS[b];
            for (p, &v) in band.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let d = v as usize - 1;
                let bit = 1u32 << p;
                if ruled_out[d][b] & bit != 0 {
                    return None;
                }
                let column = STRIDE << (p % 9);
                ruled_out[d][b] |= PEERS[p];
                ruled_out[d][o1] |= column;
                ruled_out[d][o2] |= column;
                given[d][b] |= bit;
                filled[b] |= bit;
            }
        }
        let mut state = State::empty();
        for d in 0..9 {
            for b in 0..3 {
                state.cand[d][b] = (BAND & !ruled_out[d][b] & !filled[b]) | given[d][b];
            }
        }
        state.unsolved = filled.map(|f| BAND & !f);
        Some(state)
    }

    /// Puts digit `d + 1` in cell `p` of band `b`. `false` if it cannot go there.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: u32) -> bool {
        let bit = 1u32 << p;
        if self.cand[d][b] & bit == 0 {
            return false;
        }
        if self.unsolved[b] & bit == 0 {
            return true; // already placed: other digits leave a placed cell at once
        }
        self.unsolved[b] ^= bit;
        self.cand[d][b] &= !PEERS[p as usize];
        let column = STRIDE << (p % 9);
        let (o1, o2) = OTHER_BANDS[b];
        self.cand[d][o1] &= !column;
        self.cand[d][o2] &= !column;
        for cand in self.cand.iter_mut() {
            cand[b] &= !bit;
        }
        self.cand[d][b] |= bit;
        true
    }

    /// Reduces every changed digit-band once (locked candidates between rows and boxes), then
    /// places the hidden singles in rows and boxes that turned up. The reductions come first
    /// and the placements after, so whether a band had a single is a mask bit, not a branch per
    /// band (that branch mispredicted a third of the time). `false` on a dead end.
    #[inline(always)]
    fn reduce_bands(&mut self, changed: u32) -> bool {
        let mut singles = [0u32; 27];
        let mut pending = 0u32;
        let mut rest = changed;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (d, b) = (i / 3, i % 3);
            let a = self.cand[d][b];
            let shape = shape(a);
            let keep = ARRANGEABLE[(shape & 0x1FF) as usize] as u32;
            if keep == 0 {
                return false;
            }
            let a = a & SEGMENT_CELLS[keep as usize];
            self.cand[d][b] = a;
            self.reduced[d][b] = a;
            // One cell left in a segment that is alone in its row or box: a hidden single.
            let lone = LONE[keep as usize] as u32 & (shape >> 16);
            singles[i] = a & SEGMENT_CELLS[lone as usize] & self.unsolved[b];
            pending |= ((singles[i] != 0) as u32) << i;
            self.stacks_due |= 1 << d;
            self.columns_due |= 1 << d;
        }
        while pending != 0 {
            let i = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let mut new = singles[i];
            while new != 0 {
                if !self.place(i / 3, i % 3, new.trailing_zeros()) {
                    return false;
                }
                new &= new - 1;
            }
        }
        true
    }

    /// Locked candidates between columns and boxes: within each stack, a digit must take one
    /// column in each band and a different column in each. `None` on a dead end, else
    /// whether anything was eliminated.
    fn reduce_stacks(&mut self) -> Option<bool> {
        let mut changed = false;
        while self.stacks_due != 0 {
            let d = self.stacks_due.trailing_zeros() as usize;
            self.stacks_due &= self.stacks_due - 1;
            let columns = columns(&self.cand[d]);
            for stack in 0..3 {
                let present = gather_stack(columns, stack);
                let keep = ARRANGEABLE[present as usize] as u32;
                if keep == 0 {
                    return None;
                }
                if keep != present {
                    let drop = scatter_stack(present & !keep, stack);
                    for b in 0..3 {
                        self.cand[d][b] &= !(((drop >> (9 * b)) & 0x1FF) * STRIDE);
                    }
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// Hidden singles in columns; `None` on a digit with no place in some column.
    fn column_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        while self.columns_due != 0 {
            let d = self.columns_due.trailing_zeros() as usize;
            self.columns_due &= self.columns_due - 1;
            let mut once = 0u32;
            let mut twice = 0u32;
            for b in 0..3 {
                let a = self.cand[d][b];
                for row in [a & 0x1FF, (a >> 9) & 0x1FF, a >> 18] {
                    twice |= once & row;
                    once |= row;
                }
            }
            if once != 0x1FF {
                return None;
            }
            let single = (once & !twice) * STRIDE;
            for b in 0..3 {
                let mut new = self.cand[d][b] & single & self.unsolved[b];
                while new != 0 {
                    if !self.place(d, b, new.trailing_zeros()) {
                        return None;
                    }
                    placed = true;
                    new &= new - 1;
                }
            }
        }
        Some(placed)
    }

    /// Naked singles; `None` on a cell with no candidate.
    fn naked_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        for b in 0..3 {
            let (mut once, mut twice) = (0u32, 0u32);
            for d in 0..9 {
                let a = self.cand[d][b];
                twice |= once & a;
                once |= a;
            }
            let unsolved = self.unsolved[b];
            if unsolved & !once != 0 {
                return None;
            }
            let mut new = unsolved & !twice;
            while new != 0 {
                let p = new.trailing_zeros();
                let d = (0..9).find(|&d| self.cand[d][b] & (1 << p) != 0)?;
                if !self.place(d, b, p) {
                    return None;
                }
                placed = true;
                new &= new - 1;
            }
        }
        Some(placed)
    }

    /// Applies every rule to a fixed point; `false` on a contradiction. The cheap rules run
    /// first and the costlier ones only once those are exhausted.
    fn propagate(&mut self) -> bool {
        loop {
            let changed = self.changed();
            if changed != 0 {
                if !self.reduce_bands(changed) {
                    return false;
                }
                continue;
            }
            match self.reduce_stacks() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.is_solved() {
                return true;
            }
            match self.naked_singles() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.column_singles() {
                None => return false,
                Some(true) => continue,
                // Triads (a row or column within a box holds exactly three digits) cut fewer
                // guesses than they cost in time, so the engine stops here (figures:
                // benches/results/2026-11-22-engine-choices.md).
                Some(false) => return true,
            }
        }
    }

    /// The digit-bands changed since they were last reduced: bit `3 * d + b`.
    #[inline(always)]
    fn changed(&self) -> u32 {
        changed_lanes(self.cand.as_flattened(), self.reduced.as_flattened())
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The unsolved cell to guess on: a cell with two candidates if there is one (the lowest
    /// digit that has such a cell, then its first cell), else the first with the fewest.
    /// Returns (band, cell in band).
    fn branch_cell(&self) -> (usize, u32) {
        let pairs: [u32; 3] = std::array::from_fn(|b| {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for cand in &self.cand {
                thrice |= twice & cand[b];
                twice |= once & cand[b];
                once |= cand[b];
            }
            self.unsolved[b] & !thrice
        });
        if pairs != [0; 3] {
            for cand in &self.cand {
                for (b, (&a, &pair)) in cand.iter().zip(&pairs).enumerate() {
                    if a & pair != 0 {
                        return (b, (a & pair).trailing_zeros());
                    }
                }
            }
        }
        let mut best = (0usize, 0u32, u32::MAX);
        for b in 0..3 {
            let mut open = self.unsolved[b];
            while open != 0 {
                let p = open.trailing_zeros();
                let count = self.digits_at(b, p).count_ones();
                if count < best.2 {
                    best = (b, p, count);
                }
                open &= open - 1;
            }
        }
        (best.0, best.1)
    }

    /// The candidates of cell `p` of band `b`, as a 9-bit digit mask.
    #[inline(always)]
    fn digits_at(&self, b: usize, p: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[d][b] >> p) & 1) << d;
        }
        digits
    }

    fn write(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut cells = self.cand[d][b];
                while cells != 0 {
                    out[27 * b + cells.trailing_zeros() as usize] = d as u8 + 1;
                    cells &= cells - 1;
                }
            }
        }
    }
}

/// Bit i set where `a[i] != b[i]`, for 27 lanes. SSE2 is part of every x86_64, so this needs
/// no run-time detection: seven 4-lane compares instead of 27 scalar ones. It runs once per
/// propagation round, a visible share of the time on easy puzzles (figures:
/// benches/results/2026-11-22-engine-choices.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn changed_lanes(a: &[u32], b: &[u32]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps,
    };
    assert!(a.len() == 27 && b.len() == 27);
    // Four lanes from `start`: a bit per equal lane.
    let equal = |start: usize| {
        // SAFETY: start + 4 <= 27, checked by the callers below; loadu has no alignment need.
        unsafe {
            let x = _mm_loadu_si128(a.as_ptr().add(start) as *const __m128i);
            let y = _mm_loadu_si128(b.as_ptr().add(start) as *const __m128i);
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, y))) as u32
        }
    };
    let mut same = 0;
    for k in 0..6 {
        same |= equal(4 * k) << (4 * k);
    }
    same |= equal(23) << 23; // lanes 23..27; lane 23 is counted twice, harmlessly
    !same & ((1 << 27) - 1)
}

/// The portable form of the x86_64 [`changed_lanes`].
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn changed_lanes(a: &[u32], b: &[u32]) -> u32 {
    let mut mask = 0;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        mask |= ((x != y) as u32) << i;
    }
    mask
}

const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// Why a search stopped early.
enum Stop {
    Visitor,
    Interrupted,
    GuessLimit,
}

/// One depth-first search over a 9x9 puzzle.
struct Search<'a, C: Control + ?Sized, V: FnMut(&[u8]) -> Flow> {
    stats: SearchStats,
    /// The most guesses allowed (`u64::MAX`: no limit).
    max_guesses: u64,
    control: &'a mut C,
    visit: V,
    solution: [u8; 81],
}

impl<C: Control + ?Sized, V: FnMut(&[u8]) -> Flow> Search<'_, C, V> {
    /// Propagates `state` and searches below it.
    fn node(&mut self, mut state: State) -> std::result::Result<(), Stop> {
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 && !self.control.proceed(&self.stats) {
            return Err(Stop::Interrupted);
        }
        if !state.propagate() {
            self.stats.dead_ends += 1;
            return Ok(());
        }
        if state.is_solved() {
            state.write(&mut self.solution);
            return match (self.visit)(&self.solution) {
                Flow::Continue => Ok(()),
                Flow::Stop => Err(Stop::Visitor),
            };
        }
        let (b, p) = state.branch_cell();
        let mut digits = state.digits_at(b, p);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if self.stats.guesses >= self.max_guesses {
                return Err(Stop::GuessLimit);
            }
            self.stats.guesses += 1;
            let mut child = state;
            if child.place(d, b, p) {
                self.node(child)?;
            } else {
                self.stats.dead_ends += 1;
            }
        }
        Ok(())
    }
}

/// Searches a 9x9 puzzle with 3x3 boxes (`cells`: 81 values in 0..=9, 0 blank), calling
/// `visit` on each solution in a fixed order until it says `Stop`. Conflicting givens are an
/// `Error::Conflict` naming both cells; a search that would need more than `max_guesses`
/// guesses is an `Error::GuessLimit`; `stats` receives what the search did.
pub fn search(
    cells: &[u8],
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    visit: impl FnMut(&[u8]) -> Flow,
) -> Result<()> {
    assert_eq!(cells.len(), 81, "the 9x9 engine takes 81 cells");
    let Some(state) = State::with_givens(cells) else {
        return Err(find_conflict(BoxShape::CLASSIC, cells)
            .expect("a given in a peer's cell repeats a digit in a unit"));
    };
    let mut search = Search {
        stats: SearchStats::default(),
        max_guesses: max_guesses.unwrap_or(u64::MAX),
        control,
        visit,
        solution: [0; 81],
    };
    let outcome = search.node(state);
    *stats = search.stats;
    match outcome {
        Err(Stop::Interrupted) => Err(Error::Interrupted),
        Err(Stop::GuessLimit) => Err(Error::GuessLimit {
            max_guesses: search.max_guesses,
        }),
        Ok(()) | Err(Stop::Visitor) => Ok(()),
    }
}
