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
//!   (pointing and claiming between rows and boxes) and dead bands; the same rule does columns
//!   and boxes, on the three bands by three columns of each stack, by arithmetic on one word
//!   for the three stacks;
//! * a row or box of the band with one place left is a hidden single;
//! * a column with one place left needs no rule of its own: the stack's rule confines the
//!   digit's box there to that column, which leaves one place in the box, a hidden single; a
//!   column with none is a stack with no arrangement, a dead end. Near the end of a search
//!   (few cells open) the stack rule is left out: it seldom finds anything there, and the
//!   search guesses instead;
//! * bit-sliced counts over the nine digits of a band give the naked singles, the empty cells
//!   and the two-candidate cells to guess on.
//!
//! Only digit-bands that changed since they were last reduced are reduced again: a guess,
//! the naked singles and the stack pass name the ones they touched, and a band pass places
//! its hidden singles together in one vector pass that finds the words they changed.
//!
//! Branching (see `Search::node`): on a cell (one with two candidates when there is one),
//! binary: a digit, then its negation in the same state. A guess is one side of a branch
//! point; the first copies the state onto the stack, the negation reuses it; nothing is
//! allocated per puzzle. (Branching on how a digit sits in a band or stack, tdoku's coarser
//! decision, is not used: the cell choice does as well on the hard sets;
//! benches/results/2026-11-24-nine-engine-late.md.)
//!
//! Solutions come out in a fixed order, so `solve` is deterministic and is `solutions`' first;
//! that order is this engine's, not the generic one's (on a puzzle with several solutions the
//! two engines may find a different one first).
//!
//! On x86-64 the search is compiled twice: for any x86-64 (what the wheels target), and with
//! POPCNT, BMI and AVX2, which most CPUs in use have; the second is chosen at run time where
//! the CPU allows it (see [`Isa`]). Both visit the same nodes in the same order.

use super::control::{Control, Flow, SearchStats, POLL_INTERVAL};
use super::trace::{NoTrace, Tracer};
use crate::core::error::{Error, Result};
use crate::core::grid::find_conflict;
use crate::core::grid::shape::BoxShape;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// One bit in each of the band's three rows, at the same column.
const STRIDE: u32 = 1 | 1 << 9 | 1 << 18;

const ROWS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
const BOXES: [u32; 3] = [0o7 * STRIDE, 0o70 * STRIDE, 0o700 * STRIDE];

/// For a digit-band index `3 * d + b` (the bit order of the change masks), d; [`BAND_OF`]: b.
/// A lookup is cheaper than the division on the hot path.
const DIGIT_OF: [u8; 27] = {
    let mut table = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = (i / 3) as u8;
        i += 1;
    }
    table
};
const BAND_OF: [u8; 27] = {
    let mut table = [0u8; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = (i % 3) as u8;
        i += 1;
    }
    table
};

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

/// The column (0..9) of each cell of a band.
const COLUMN_OF: [u8; 27] = {
    let mut table = [0u8; 27];
    let mut p = 0;
    while p < 27 {
        table[p] = (p % 9) as u8;
        p += 1;
    }
    table
};

/// Per band, the cells of `cells` (81 values, 0 blank) that hold a given.
#[inline(always)]
fn filled_cells(cells: &[u8]) -> [u32; 3] {
    let mut filled = [0u32; 3];
    for (b, band) in cells.chunks_exact(27).enumerate() {
        for (p, &v) in band.iter().enumerate() {
            filled[b] |= u32::from(v != 0) << p;
        }
    }
    filled
}

/// A 3x3 pattern of segments, bit `3 * i + j` for segment (i, j), where the digit must fill
/// exactly one segment in each i and one in each j: rows and boxes of a band, or bands and
/// columns of a stack. Indexed by the segments that are non-empty, the entry keeps those that
/// lie on some complete arrangement (one of the six ways to pair each i with a different j whose
/// three segments are all non-empty). Zero means no arrangement: a dead end. This one lookup is
/// locked candidates (pointing and claiming) for the 3x3 block it describes.
const ARRANGEABLE: [u16; 512] = {
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

/// The six ways to pair rows with boxes (or bands with columns) one to one: entry `i` is the
/// box of row `i`.
const ARRANGEMENTS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

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

/// A digit-band's reduction in one lookup, indexed by its non-empty (row, box) segments: the
/// cells of the [`ARRANGEABLE`] segments (low 32 bits; zero on a dead end) and the cells of
/// those that are [`LONE`] (high 32 bits).
const BAND_REDUCTION: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut present = 0;
    while present < 512 {
        let keep = ARRANGEABLE[present] as usize;
        let lone = LONE[keep] as usize;
        table[present] = SEGMENT_CELLS[keep] as u64 | (SEGMENT_CELLS[lone] as u64) << 32;
        present += 1;
    }
    table
};

/// For row `k` of a band (its nine bits as the index): which of its segments are non-empty,
/// at bits `3 * k..3 * k + 3`, and the cells of its segments that hold exactly one, at bits
/// `32 + 9 * k..`. The three rows' entries OR together into [`band_shape`], no shifts needed.
const ROW_SHAPES: [[u64; 512]; 3] = {
    let mut tables = [[0u64; 512]; 3];
    let mut k = 0;
    while k < 3 {
        let mut row = 0;
        while row < 512 {
            let mut j = 0;
            while j < 3 {
                let segment = (row >> (3 * j)) & 0o7;
                if segment != 0 {
                    tables[k][row] |= 1 << (3 * k + j);
                }
                if segment.count_ones() == 1 {
                    tables[k][row] |= (segment as u64) << (32 + 9 * k + 3 * j);
                }
                j += 1;
            }
            row += 1;
        }
        k += 1;
    }
    tables
};

/// A band word's non-empty (row, box) segments (low nine bits, bit `3 * row + box`) and, from
/// bit 32, its cells that are alone in their segment.
#[inline(always)]
fn band_shape(a: u32) -> u64 {
    ROW_SHAPES[0][(a & 0x1FF) as usize]
        | ROW_SHAPES[1][((a >> 9) & 0x1FF) as usize]
        | ROW_SHAPES[2][((a >> 18) & 0x1FF) as usize]
}

/// The columns (bit c) of a band word's cells.
#[inline(always)]
fn band_columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1FF
}

/// A digit's columns per band, band `b` at bits `9 * b..` (bit `9 * b + c` for column `c`): a
/// 3x3 grid of triples, one row per band and one triple per stack.
#[inline(always)]
fn stack_patterns(cand: &[u32; 3]) -> u32 {
    band_columns(cand[0]) | band_columns(cand[1]) << 9 | band_columns(cand[2]) << 18
}

/// [`ARRANGEABLE`] for the three stacks of a [`stack_patterns`] word at once, by arithmetic:
/// a (band, column) bit lies on an arrangement of its stack when it is set and the other two
/// bands hold the stack's other two columns, one each, in either pairing. Rotating each
/// triple lines up a stack's other columns, rotating the word by 9 or 18 bits lines up the
/// other bands, so a dozen shifts and masks do the three stacks at once, with no table and no
/// transpose: the transposes a table needs cost more than the arithmetic
/// (benches/results/2026-11-25-nine-engine-2.md). A stack with no arrangement keeps nothing.
#[inline(always)]
fn stacks_arrangeable(patterns: u32) -> u32 {
    const LOW_TWO: u32 = 0o333_333_333;
    const HIGH_TWO: u32 = 0o666_666_666;
    // Each column takes the bit of the next column of its stack, or the one after.
    let next = (patterns >> 1) & LOW_TWO | (patterns << 2) & !LOW_TWO & BAND;
    let after = (patterns >> 2) & !HIGH_TWO & BAND | (patterns << 1) & HIGH_TWO;
    // Each band takes the word of the next band, or the one after.
    let band_next = |x: u32| (x >> 9 | x << 18) & BAND;
    let band_after = |x: u32| (x >> 18 | x << 9) & BAND;
    patterns & (band_next(next) & band_after(after) | band_next(after) & band_after(next))
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
    /// Bit `3 * d + b`: digit-band (d, b) changed since the digit's stacks were last reduced.
    stacks_due: u32,
}

impl State {
    fn empty() -> Self {
        State {
            cand: [[BAND; 3]; 9],
            unsolved: [BAND; 3],
            reduced: [[0; 3]; 9],
            stacks_due: BAND,
        }
    }

    /// The state with the givens placed (`cells`: 81 values in 0..=9), or `None` when two equal
    /// givens share a unit. Same as placing them one by one, in a single pass: each given rules
    /// its digit out of its peers, and every given cell is out for the other digits.
    ///
    /// The loop visits only the given cells, found first as one mask per band: a test per cell
    /// for blank or not would mispredict about once in two cells, as much time as the rest of
    /// the set-up.
    #[inline(always)]
    fn with_givens(cells: &[u8]) -> Option<Self> {
        let filled = filled_cells(cells);
        let mut ruled_out = [[0u32; 3]; 9];
        let mut given = [[0u32; 3]; 9];
        // Per digit, the columns (bit c) that hold one of its givens.
        let mut columns = [0u32; 9];
        for (b, band) in cells.chunks_exact(27).enumerate() {
            let mut rest = filled[b];
            while rest != 0 {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let d = band[p] as usize - 1;
                let bit = 1u32 << p;
                let column = 1u32 << COLUMN_OF[p];
                if ruled_out[d][b] & bit | columns[d] & column != 0 {
                    return None;
                }
                ruled_out[d][b] |= PEERS[p];
                columns[d] |= column;
                given[d][b] |= bit;
            }
        }
        let mut state = State::empty();
        for d in 0..9 {
            let column_cells = columns[d] * STRIDE;
            for b in 0..3 {
                state.cand[d][b] =
                    (BAND & !(ruled_out[d][b] | column_cells | filled[b])) | given[d][b];
            }
        }
        state.unsolved = filled.map(|f| BAND & !f);
        Some(state)
    }

    /// Keeps, of each digit's unsolved places, the cells whose mask in `marks` (one per cell,
    /// bit `d` for digit `d + 1`) holds it: a puzzle given as pencil marks. Cells already
    /// solved keep their digit whatever their mask.
    fn restrict(&mut self, marks: &[u64]) {
        for (b, band) in marks.chunks_exact(27).enumerate() {
            let mut keep = [0u32; 9];
            for (p, &m) in band.iter().enumerate() {
                for (d, keep) in keep.iter_mut().enumerate() {
                    *keep |= ((m >> d) as u32 & 1) << p;
                }
            }
            for (cand, keep) in self.cand.iter_mut().zip(keep) {
                cand[b] &= keep | !self.unsolved[b];
            }
        }
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

    /// The digit-bands that putting digit `d + 1` in cell `p` of band `b` (see [`State::place`])
    /// will change, asked before it: the band's word of each of the cell's `digits` (which
    /// include `d`), and the digit's other bands where the cell's column still holds it. Those
    /// are often solved already, and naming all three bands reduced them for nothing.
    #[inline(always)]
    fn placing_changes(&self, digits: u32, d: usize, b: usize, p: u32) -> u32 {
        let column = STRIDE << (p % 9);
        let (o1, o2) = OTHER_BANDS[b];
        spread_digits(digits) << b
            | u32::from(self.cand[d][o1] & column != 0) << (3 * d + o1)
            | u32::from(self.cand[d][o2] & column != 0) << (3 * d + o2)
    }

    /// Digit-band `i` (bit `3 * d + b`) reduced: its digit, its band, the cells it keeps, and
    /// its hidden singles among the unsolved cells; `None` when no arrangement is left.
    #[inline(always)]
    fn reduce_one(&self, i: usize) -> Option<(usize, usize, u32, u32)> {
        let (d, b) = (DIGIT_OF[i] as usize, BAND_OF[i] as usize);
        let a = self.cand.as_flattened()[i];
        let shape = band_shape(a);
        let reduction = BAND_REDUCTION[(shape & 0x1FF) as usize];
        if reduction as u32 == 0 {
            return None;
        }
        let a = a & reduction as u32;
        // One cell left in a segment that is alone in its row or box: a hidden single. Every
        // arrangement left goes through that segment, so it is also alone in its box or row:
        // the reduction has cleared its row, box and column within the band.
        let cells = a & (reduction >> 32) as u32 & (shape >> 32) as u32 & self.unsolved[b];
        Some((d, b, a, cells))
    }

    /// Reduces every changed digit-band once (locked candidates between rows and boxes) and
    /// places the hidden singles in rows and boxes that turn up. `None` on a dead end, else
    /// the digit-bands whose words its placements changed (0 when it placed none): with every
    /// other digit-band as its reduction left it, they are what the next pass must reduce.
    ///
    /// The reductions write only their own digit-band, so they overlap in the pipeline, and
    /// no branch depends on whether a digit-band had a single (such branches mispredict): the
    /// singles are placed at the end, in one vector pass over all 27 digit-bands
    /// ([`place_lanes`]) that clears their cells from the other digits and their columns from
    /// the digit's other bands (within its band, the reduction has already cleared a single's
    /// row, box and column), and that tells which words it changed. Placing each single as
    /// soon as its digit-band was reduced, so that the reductions after it in the same pass
    /// see it, saves a few passes but costs a branch on every reduction and then a compare
    /// that reads back words just stored one by one, which waits for the stores; that costs
    /// more than the passes save (benches/results/2026-11-26-nine-engine.md).
    #[inline(always)]
    fn reduce_bands(&mut self, changed: u32) -> Option<u32> {
        let mut singles = [0u32; 27];
        let mut placed = [0u32; 3];
        // Per digit, the columns of its singles (bit c).
        let mut columns = [0u32; 9];
        // Two digits on one cell, or a digit twice in a column.
        let mut clash = 0u32;
        let mut rest = changed;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (d, b, a, cells) = self.reduce_one(i)?;
            self.cand.as_flattened_mut()[i] = a;
            self.reduced.as_flattened_mut()[i] = a;
            let column = band_columns(cells);
            clash |= placed[b] & cells | columns[d] & column;
            placed[b] |= cells;
            columns[d] |= column;
            singles[i] = cells;
        }
        self.stacks_due |= changed;
        // Read back word by word, as they were stored: left to itself the compiler loads two
        // of the three words in one 8-byte load, which cannot take its value from two pending
        // 4-byte stores and waits until they reach the cache; an array compare, one wide load,
        // waits the same way (benches/results/2026-11-26-nine-engine-2.md, "vol").
        // SAFETY: volatile reads of an initialized local array, in bounds.
        let placed: [u32; 3] = unsafe {
            [
                std::ptr::read_volatile(&placed[0]),
                std::ptr::read_volatile(&placed[1]),
                std::ptr::read_volatile(&placed[2]),
            ]
        };
        if placed[0] | placed[1] | placed[2] == 0 {
            return Some(0);
        }
        for (unsolved, placed) in self.unsolved.iter_mut().zip(placed) {
            *unsolved &= !placed;
        }
        let mut cleared = [0u32; 27];
        for d in 0..9 {
            let column = columns[d] * STRIDE;
            for b in 0..3 {
                cleared[3 * d + b] = placed[b] | column;
            }
        }
        // Every word equals its reduced copy here, so the words the placement changes are
        // those that differ from it after.
        let moved = place_lanes(self.cand.as_flattened_mut(), &cleared, &singles);
        debug_assert_eq!(moved, self.changed(), "a change not named");
        (clash == 0).then_some(moved)
    }

    /// Locked candidates between columns and boxes: within each stack, a digit must take one
    /// column in each band and a different column in each. `None` on a dead end, else the
    /// digit-bands that lost candidates.
    #[inline(always)]
    fn reduce_stacks(&mut self) -> Option<u32> {
        let mut changed = 0;
        while self.stacks_due != 0 {
            let d = DIGIT_OF[self.stacks_due.trailing_zeros() as usize] as usize;
            self.stacks_due &= !(0o7 << (3 * d));
            let present = stack_patterns(&self.cand[d]);
            let keep = stacks_arrangeable(present);
            // One test for the three stacks: nearly always nothing to drop.
            if keep != present {
                // Band 0's row of each stack: empty when the stack has no arrangement.
                let row = keep | keep >> 1 | keep >> 2;
                if row & 0o111 != 0o111 {
                    return None;
                }
                let drop = present & !keep;
                for (b, cand) in self.cand[d].iter_mut().enumerate() {
                    let columns = drop >> (9 * b) & 0x1FF;
                    *cand &= !(columns * STRIDE);
                    changed |= u32::from(columns != 0) << (3 * d + b);
                }
            }
        }
        Some(changed)
    }

    /// Naked singles: the digit-bands they may have changed (0 when none was placed), `None` on
    /// a cell with no candidate. The three bands are counted side by side, so one test tells
    /// whether there is anything to place. `givens`: this is the givens' propagation, whose
    /// batch passes have just stored all 27 words one by one; there the plain count is the
    /// faster, as [`digit_counts`]' wide loads would wait for those stores
    /// (benches/results/2026-11-24-nine-engine-late.md). `thrice` receives the same count's cells
    /// with three or more candidates: when the propagation settles, this was its last count, so
    /// the cell choice reads them instead of counting again.
    #[inline(always)]
    fn naked_singles(&mut self, givens: bool, thrice: &mut [u32; 3]) -> Option<u32> {
        let [once, twice, three] = if givens {
            digit_counts_scalar(&self.cand)
        } else {
            digit_counts(&self.cand)
        };
        *thrice = three;
        let mut empty = 0;
        let mut singles = [0u32; 3];
        for b in 0..3 {
            empty |= self.unsolved[b] & !once[b];
            singles[b] = self.unsolved[b] & !twice[b];
        }
        if empty != 0 {
            return None;
        }
        if singles == [0; 3] {
            return Some(0);
        }
        let mut changed = 0;
        for (b, mut new) in singles.into_iter().enumerate() {
            while new != 0 {
                let p = new.trailing_zeros();
                // Placing an earlier single may have emptied this cell.
                let digits = self.digits_at(b, p);
                if digits == 0 {
                    return None;
                }
                let d = digits.trailing_zeros() as usize;
                changed |= self.placing_changes(digits, d, b, p);
                if !self.place(d, b, p) {
                    return None;
                }
                new &= new - 1;
            }
        }
        Some(changed)
    }

    /// Applies every rule to a fixed point; `false` on a contradiction. The cheap rules run
    /// first and the costlier ones only once those are exhausted: naked singles (one scan of
    /// 27 words) before the stacks' locked candidates (three folds and a dozen shifts per
    /// changed digit), the faster order on the 9x9 sets
    /// (benches/results/2026-11-23-nine-engine-2.md).
    ///
    /// `changed` holds (at least) the digit-bands changed since they were last reduced, as
    /// [`State::changed`] would find them: the caller knows which it touched, and the compare
    /// it saves reads back words just stored one by one, which waits for the stores.
    /// `givens`: this is the propagation of the givens, where naked singles are counted and
    /// their changes found otherwise (see [`State::naked_singles`] and below). A run-time flag,
    /// not a const parameter: two compiled copies of this function timed slower from their
    /// code layout alone (benches/results/2026-11-24-nine-engine.md).
    ///
    /// The stack rule runs only while [`STACKS_MIN_OPEN`] or more cells are open.
    ///
    /// `thrice`: on `true` for an unsolved state, the cells with three or more candidates, per
    /// band: the last naked-single count found nothing to place and the stack pass after it
    /// (if it ran) nothing to drop, so that count is the settled state's, and the cell choice
    /// reads it instead of counting again (benches/results/2026-11-25-nine-engine-2.md).
    #[inline(always)]
    fn propagate(&mut self, mut changed: u32, givens: bool, thrice: &mut [u32; 3]) -> bool {
        loop {
            if changed != 0 {
                changed = match self.reduce_bands(changed) {
                    None => return false,
                    Some(moved) => moved,
                };
                continue;
            }
            if self.is_solved() {
                return true;
            }
            // Every digit-band is reduced here, so what the next two rules change is all that
            // needs reducing again, and they name it: the compare, whose wide loads wait for
            // the words just stored, is not needed. What a placement names can be a superset
            // (the placed digit's own word in the band may not change; see
            // [`State::placing_changes`]), and the band pass reduces all of it. From the
            // givens, where many naked singles are placed at once, the compare stays: naming
            // them there gains nothing (benches/results/2026-11-26-nine-engine.md, "nored").
            match self.naked_singles(givens, thrice) {
                None => return false,
                Some(0) => {}
                Some(placed) => {
                    debug_assert_eq!(self.changed() & !placed, 0, "a change not named");
                    changed = if givens { self.changed() } else { placed };
                    continue;
                }
            }
            if self.open_cells() < STACKS_MIN_OPEN {
                return true;
            }
            match self.reduce_stacks() {
                None => return false,
                Some(dropped) if dropped != 0 => {
                    debug_assert_eq!(self.changed() & !dropped, 0, "a change not named");
                    changed = dropped;
                }
                // No rule for hidden singles in columns: with the bands and stacks reduced,
                // a column with one place left is already a hidden single of its box (see the
                // module notes), so such a pass never placed anything. Triads (a row or column
                // within a box holds exactly three digits) cut fewer guesses than they cost in
                // time, so the engine stops here (figures:
                // benches/results/2026-11-22-engine-choices.md, and bit-sliced over the nine
                // digits: benches/results/2026-11-23-nine-engine-2.md and, with arrangement
                // branching from the first node, which gives tdoku's tree:
                // benches/results/2026-11-24-nine-engine.md).
                Some(_) => return true,
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

    /// The cells with no digit placed yet.
    #[inline(always)]
    fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    /// The unsolved cell to guess on: a cell with two candidates if there is one, else the
    /// first with the fewest. Of the two-candidate cells, with `weighed`, the one with the
    /// most unsolved peers (the first on a tie): its guess reaches furthest, and the tree is
    /// smaller (benches/results/2026-11-24-nine-engine.md); else the first cell of the lowest
    /// digit that has one, which is cheaper to find. The weighing is branch-light, as it runs
    /// at every cell branch: one loop per band, a running maximum of (peers, position) keys.
    /// `thrice`: per band, the cells with three or more candidates, as [`State::propagate`]
    /// counted them. Returns (band, cell in band).
    #[inline(always)]
    fn branch_cell(&self, thrice: [u32; 3], weighed: bool) -> (usize, u32) {
        let mut pairs = [0u32; 3];
        for b in 0..3 {
            pairs[b] = self.unsolved[b] & !thrice[b];
        }
        if pairs != [0; 3] && !weighed {
            for cand in &self.cand {
                for (b, (&a, &pair)) in cand.iter().zip(&pairs).enumerate() {
                    if a & pair != 0 {
                        return (b, (a & pair).trailing_zeros());
                    }
                }
            }
        }
        if pairs != [0; 3] {
            // Keys: peers above, then 255 less the cell's index (32 * band + cell), so the
            // greatest key is the first cell with the most peers.
            let mut best = 0u32;
            for (b, &pair) in pairs.iter().enumerate() {
                let (o1, o2) = OTHER_BANDS[b];
                let (mine, above, below) = (self.unsolved[b], self.unsolved[o1], self.unsolved[o2]);
                let mut open = pair;
                while open != 0 {
                    let p = open.trailing_zeros();
                    open &= open - 1;
                    // The other bands' column cells, the second set moved up one bit: the two
                    // sets fall on distinct bits, so one count covers both.
                    let column = STRIDE << (p % 9);
                    let peers = (mine & PEERS[p as usize]).count_ones()
                        + ((above & column) | (below & column) << 1).count_ones();
                    best = best.max(peers << 8 | (255 - (32 * b as u32 + p)));
                }
            }
            let index = 255 - (best & 0xFF);
            return ((index >> 5) as usize, index & 31);
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

    /// Writes the solved grid. Branch-free: a cell's digit is read as four bit-planes (the
    /// digits with bit k of their value set), eight cells at a time by table; looping over
    /// each digit-band's cells instead mispredicted on every one of the 27 loops' ends.
    fn write(&self, out: &mut [u8; 81]) {
        for (b, cells) in out.chunks_exact_mut(27).enumerate() {
            let c = |d: usize| self.cand[d][b];
            let planes = [
                c(0) | c(2) | c(4) | c(6) | c(8),
                c(1) | c(2) | c(5) | c(6),
                c(3) | c(4) | c(5) | c(6),
                c(7) | c(8),
            ];
            for start in [0, 8, 16, 24] {
                let mut bytes = 0u64;
                for (k, plane) in planes.iter().enumerate() {
                    bytes |= SPREAD[(plane >> start & 0xFF) as usize] << k;
                }
                let n = (27 - start).min(8);
                cells[start..start + n].copy_from_slice(&bytes.to_le_bytes()[..n]);
            }
        }
    }
}

/// For eight bits, eight bytes: byte j is bit j.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut j = 0;
        while j < 8 {
            table[x] |= ((x >> j) as u64 & 1) << (8 * j);
            j += 1;
        }
        x += 1;
    }
    table
};

/// Bit i set where `a[i] != b[i]`, for 27 lanes. SSE2 is part of every x86_64, so this needs
/// no run-time detection: seven 4-lane compares instead of 27 scalar ones (figures:
/// benches/results/2026-11-22-engine-choices.md). Band passes name their changes as they
/// place ([`place_lanes`]), so this runs only after the givens' naked singles and in debug
/// checks.
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

/// `words[i] = words[i] & !cleared[i] | added[i]` for the 27 digit-bands, and the lanes that
/// changed (bit i). On x86_64 four lanes at a time in SSE2 (part of every x86_64): the change
/// is a compare of each vector with itself before, where a compare after the stores would
/// read back words just stored, and wait for them.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn place_lanes(words: &mut [u32], cleared: &[u32; 27], added: &[u32; 27]) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128,
        _mm_movemask_ps, _mm_or_si128, _mm_storeu_si128,
    };
    assert!(words.len() == 27);
    let mut same = 0;
    for k in 0..6 {
        let start = 4 * k;
        // SAFETY: lanes start..start + 4 lie within the 27 of each array; loadu and storeu
        // have no alignment need.
        same |= unsafe {
            let word = _mm_loadu_si128(words.as_ptr().add(start) as *const __m128i);
            let clear = _mm_loadu_si128(cleared.as_ptr().add(start) as *const __m128i);
            let add = _mm_loadu_si128(added.as_ptr().add(start) as *const __m128i);
            let new = _mm_or_si128(_mm_andnot_si128(clear, word), add);
            _mm_storeu_si128(words.as_mut_ptr().add(start) as *mut __m128i, new);
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(new, word))) as u32
        } << start;
    }
    for i in 24..27 {
        let new = words[i] & !cleared[i] | added[i];
        same |= u32::from(new == words[i]) << i;
        words[i] = new;
    }
    !same & BAND
}

/// The portable form of the x86_64 [`place_lanes`].
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn place_lanes(words: &mut [u32], cleared: &[u32; 27], added: &[u32; 27]) -> u32 {
    let mut moved = 0;
    for (i, word) in words.iter_mut().enumerate() {
        let new = *word & !cleared[i] | added[i];
        moved |= u32::from(new != *word) << i;
        *word = new;
    }
    moved
}

/// Per band, the cells where at least one, two and three digits can go: bit-sliced counts over
/// the nine digits, saturating at three. On x86_64 a digit's three bands are one SSE2 vector
/// (SSE2 is part of every x86_64): nine loads and five operations a digit, against about
/// twice that in general registers (benches/results/2026-11-24-nine-engine-late.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn digit_counts(cand: &[[u32; 3]; 9]) -> [[u32; 3]; 3] {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_srli_si128,
        _mm_storeu_si128,
    };
    let flat = cand.as_flattened();
    // Words `i..i + 4`; the fourth lane (the next digit's first band) is left out at the end.
    let load = |i: usize| {
        assert!(i + 4 <= flat.len());
        // SAFETY: in bounds, just checked; loadu has no alignment need.
        unsafe { _mm_loadu_si128(flat.as_ptr().add(i) as *const __m128i) }
    };
    // SAFETY: SSE2 is part of every x86_64 target.
    unsafe {
        let (mut once, mut twice, mut thrice) = (load(0), _mm_setzero_si128(), _mm_setzero_si128());
        let mut add = |c: __m128i| {
            thrice = _mm_or_si128(thrice, _mm_and_si128(twice, c));
            twice = _mm_or_si128(twice, _mm_and_si128(once, c));
            once = _mm_or_si128(once, c);
        };
        for d in 1..8 {
            add(load(3 * d));
        }
        // The last digit's words end the array: read from one word earlier and shift down.
        add(_mm_srli_si128(load(23), 4));
        let lanes = |x: __m128i| {
            let mut out = [0u32; 4];
            _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, x);
            [out[0], out[1], out[2]]
        };
        [lanes(once), lanes(twice), lanes(thrice)]
    }
}

/// The portable form of the x86_64 [`digit_counts`].
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn digit_counts(cand: &[[u32; 3]; 9]) -> [[u32; 3]; 3] {
    digit_counts_scalar(cand)
}

/// [`digit_counts`] in general registers, as plain loops: `array::from_fn` is compiled out of
/// line, without the search copy's instruction set.
#[inline(always)]
fn digit_counts_scalar(cand: &[[u32; 3]; 9]) -> [[u32; 3]; 3] {
    let (mut once, mut twice, mut thrice) = ([0u32; 3], [0u32; 3], [0u32; 3]);
    for cand in cand {
        for b in 0..3 {
            thrice[b] |= twice[b] & cand[b];
            twice[b] |= once[b] & cand[b];
            once[b] |= cand[b];
        }
    }
    [once, twice, thrice]
}

/// For a set of digits (bit d), the digit-band bits `3 * d` (shift by the band for the others).
#[inline(always)]
fn spread_digits(digits: u32) -> u32 {
    // Each step doubles the gaps: bit d moves to 3 * d (the masks keep the moved copies).
    let x = (digits | digits << 16) & 0x0300_00FF;
    let x = (x | x << 8) & 0x0300_F00F;
    let x = (x | x << 4) & 0x030C_30C3;
    (x | x << 2) & 0x0924_9249
}

/// The fewest open cells for which propagation runs the stack rule (locked candidates between
/// columns and boxes). With fewer open it seldom drops anything, and puzzles with several
/// solutions are cheaper to finish by guessing than by running it. The hard sets guess a
/// little more without it, and a higher threshold makes them slower
/// (benches/results/2026-11-26-nine-engine-3.md).
const STACKS_MIN_OPEN: u32 = 35;

/// Nodes that branch on the first two-candidate cell of the lowest digit before the search
/// weighs the cells by their unsolved peers (see [`State::branch_cell`]). Most easy and
/// many-solution puzzles are done by then, and the weighing costs at each branch more than
/// it saves in their small trees; on the harder sets it cuts the tree from there on
/// (benches/results/2026-11-24-nine-engine-late.md).
const PLAIN_CELLS: u64 = 8;

const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// Why a search stopped early.
#[derive(Debug)]
enum Stop {
    Visitor,
    Interrupted,
    GuessLimit,
}

/// What a search does with each solved state.
trait Found {
    fn found(&mut self, state: &State) -> Flow;
}

/// Writes each solution out for a visitor.
struct Visit<V: FnMut(&[u8]) -> Flow> {
    visit: V,
    solution: [u8; 81],
}

impl<V: FnMut(&[u8]) -> Flow> Found for Visit<V> {
    #[inline(always)]
    fn found(&mut self, state: &State) -> Flow {
        state.write(&mut self.solution);
        (self.visit)(&self.solution)
    }
}

/// Counts solutions up to a limit without writing them out (a count to 2 of a puzzle with
/// several solutions would write two).
struct Count {
    count: u64,
    limit: u64,
}

impl Found for Count {
    #[inline(always)]
    fn found(&mut self, _: &State) -> Flow {
        self.count += 1;
        if self.count >= self.limit {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}

/// Writes the first solution into a caller's buffer and stops: no copy in between.
struct First<'a> {
    out: &'a mut [u8; 81],
    found: bool,
}

impl Found for First<'_> {
    #[inline(always)]
    fn found(&mut self, state: &State) -> Flow {
        state.write(self.out);
        self.found = true;
        Flow::Stop
    }
}

/// One depth-first search over a 9x9 puzzle.
struct Search<'a, C: Control + ?Sized, F: Found, T: Tracer> {
    stats: SearchStats,
    /// The most guesses allowed (`u64::MAX`: no limit).
    max_guesses: u64,
    control: &'a mut C,
    found: F,
    /// Told what the search does ([`NoTrace`], a type of no size, everywhere but
    /// [`trace`]: every `T::ON` block compiles away).
    tracer: T,
}

impl<C: Control + ?Sized, F: Found, T: Tracer> Search<'_, C, F, T> {
    /// Propagates `state` and searches below it.
    ///
    /// Each node branches on a cell (see [`State::branch_cell`]), binary: its lowest digit,
    /// then (once every solution with it has been visited) the negation, which removes that
    /// digit from the cell in this same state and propagates again before the next choice, so
    /// what the first side taught strengthens the second and needs no copy.
    ///
    /// `changed`: the digit-bands of `state` changed since they were last reduced (see
    /// [`State::propagate`]).
    ///
    /// Traced, a propagation tells the cells it filled (in row-major order, once it has
    /// settled: its own order is by digit-band), then a dead end or the solved grid; a branch
    /// tells its guess, its backtrack when the guess is refuted, and the negation as an
    /// elimination.
    #[inline(always)]
    fn node<I: Isa>(
        &mut self,
        state: &mut State,
        mut changed: u32,
    ) -> std::result::Result<(), Stop> {
        self.count_node()?;
        // The cells open before the propagation, to tell which it filled (traced only).
        let mut open = if T::ON { state.unsolved } else { [0; 3] };
        loop {
            // The first node is the givens' propagation.
            let mut thrice = [0; 3];
            if !state.propagate(changed, self.stats.nodes == 1, &mut thrice) {
                self.stats.dead_ends += 1;
                if T::ON {
                    self.tracer.dead_end();
                }
                return Ok(());
            }
            if T::ON {
                self.tell_placed(state, open);
            }
            if state.is_solved() {
                if T::ON {
                    self.tracer.solved();
                }
                return match self.found.found(state) {
                    Flow::Continue => Ok(()),
                    Flow::Stop => Err(Stop::Visitor),
                };
            }
            let (b, p) = state.branch_cell(thrice, self.stats.nodes > PLAIN_CELLS);
            let digits = state.digits_at(b, p);
            let d = digits.trailing_zeros() as usize;
            self.guess()?;
            let placing = state.placing_changes(digits, d, b, p);
            let mut child = *state;
            let placed = child.place(d, b, p);
            debug_assert!(placed, "a candidate of an unsolved cell after propagation");
            if T::ON {
                self.tracer.guess(27 * b + p as usize, d as u8 + 1);
            }
            I::node(self, &mut child, placing)?;
            self.guess()?;
            if T::ON {
                self.tracer.backtrack(1);
                self.tracer.eliminate(27 * b + p as usize, d as u8 + 1);
                open = state.unsolved;
            }
            state.cand[d][b] &= !(1 << p);
            changed = 1 << (3 * d + b);
            // Usually one digit is left (a two-candidate cell): placing it here saves the
            // propagation round that would find it as a naked single. The child searched a
            // copy, so the cell's digits are still `digits`.
            let rest = digits & !(1 << d);
            if rest != 0 && rest & (rest - 1) == 0 {
                let r = rest.trailing_zeros() as usize;
                changed |= state.placing_changes(rest, r, b, p);
                state.place(r, b, p);
            }
            self.count_node()?;
        }
    }

    /// Tells the tracer the cells filled since `open` (per band, the cells then open), each
    /// with its digit.
    fn tell_placed(&mut self, state: &State, open: [u32; 3]) {
        for (b, (&open, &unsolved)) in open.iter().zip(&state.unsolved).enumerate() {
            let mut filled = open & !unsolved;
            while filled != 0 {
                let p = filled.trailing_zeros();
                filled &= filled - 1;
                let digit = state.digits_at(b, p).trailing_zeros() as u8 + 1;
                self.tracer.place(27 * b + p as usize, digit);
            }
        }
    }

    /// Counts a state about to be propagated, polling `control` every [`POLL_INTERVAL`].
    #[inline(always)]
    fn count_node(&mut self) -> std::result::Result<(), Stop> {
        self.stats.nodes += 1;
        if self.stats.nodes % POLL_INTERVAL == 0 && !self.control.proceed(&self.stats) {
            return Err(Stop::Interrupted);
        }
        Ok(())
    }

    /// Counts one side of a branch as a guess, or stops at the budget.
    #[inline(always)]
    fn guess(&mut self) -> std::result::Result<(), Stop> {
        if self.stats.guesses >= self.max_guesses {
            return Err(Stop::GuessLimit);
        }
        self.stats.guesses += 1;
        Ok(())
    }
}

/// Which instruction set a copy of the search is compiled for. A function's target features
/// reach only what is inlined into it, so everything a node runs is `#[inline(always)]` into
/// [`Search::node`], and the recursion goes through this trait to stay in its own copy. The
/// copy with POPCNT, BMI and AVX2 is the faster on the hard sets
/// (benches/results/2026-11-26-nine-engine.md, 2026-11-25-nine-engine-2.md).
trait Isa {
    fn node<C: Control + ?Sized, F: Found, T: Tracer>(
        search: &mut Search<'_, C, F, T>,
        state: &mut State,
        changed: u32,
    ) -> std::result::Result<(), Stop>;
}

/// Plain x86-64 (or another target's baseline).
struct Baseline;

impl Isa for Baseline {
    fn node<C: Control + ?Sized, F: Found, T: Tracer>(
        search: &mut Search<'_, C, F, T>,
        state: &mut State,
        changed: u32,
    ) -> std::result::Result<(), Stop> {
        search.node::<Self>(state, changed)
    }
}

/// x86-64 with POPCNT, BMI1/2, LZCNT and AVX2 (x86-64-v3 less FMA and MOVBE).
#[cfg(target_arch = "x86_64")]
struct Modern;

#[cfg(target_arch = "x86_64")]
impl Isa for Modern {
    #[inline(always)]
    fn node<C: Control + ?Sized, F: Found, T: Tracer>(
        search: &mut Search<'_, C, F, T>,
        state: &mut State,
        changed: u32,
    ) -> std::result::Result<(), Stop> {
        // SAFETY: `Modern` is chosen only where `modern()` found the features.
        unsafe { modern_node(search, state, changed) }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn modern_node<C: Control + ?Sized, F: Found, T: Tracer>(
    search: &mut Search<'_, C, F, T>,
    state: &mut State,
    changed: u32,
) -> std::result::Result<(), Stop> {
    search.node::<Modern>(state, changed)
}

/// Sets the givens (and the pencil marks, if any) and searches below them; `None` when two
/// givens conflict.
#[inline(always)]
fn start<I: Isa, C: Control + ?Sized, F: Found, T: Tracer>(
    cells: &[u8],
    marks: Option<&[u64]>,
    search: &mut Search<'_, C, F, T>,
) -> Option<std::result::Result<(), Stop>> {
    let mut state = State::with_givens(cells)?;
    if let Some(marks) = marks {
        state.restrict(marks);
    }
    // Nothing is reduced yet: every digit-band is due (a compare would wait for the words
    // just stored). An empty one is a dead end its reduction finds.
    Some(I::node(search, &mut state, BAND))
}

/// [`start`] compiled for [`Modern`], without marks: a classic search pays nothing for them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn modern_start<C: Control + ?Sized, F: Found, T: Tracer>(
    cells: &[u8],
    search: &mut Search<'_, C, F, T>,
) -> Option<std::result::Result<(), Stop>> {
    start::<Modern, C, F, T>(cells, None, search)
}

/// [`start`] compiled for [`Modern`], with pencil marks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
unsafe fn modern_start_marked<C: Control + ?Sized, F: Found, T: Tracer>(
    cells: &[u8],
    marks: &[u64],
    search: &mut Search<'_, C, F, T>,
) -> Option<std::result::Result<(), Stop>> {
    start::<Modern, C, F, T>(cells, Some(marks), search)
}

/// Whether this CPU has what [`Modern`] is compiled for (the standard library caches it) and
/// the bench-only `plain-isa` feature is off. It must test every feature that `modern_node`
/// and the `modern_start` functions enable: running one on a CPU without one is undefined
/// behaviour.
#[cfg(target_arch = "x86_64")]
pub(crate) fn modern() -> bool {
    !cfg!(feature = "plain-isa")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("avx2")
}

/// Searches a 9x9 puzzle with 3x3 boxes (`cells`: 81 values in 0..=9, 0 blank; `marks`, when
/// given, one candidate mask per cell that the solutions must keep to), calling
/// `visit` on each solution in a fixed order until it says `Stop`. Conflicting givens are an
/// `Error::Conflict` naming both cells; a search that would need more than `max_guesses`
/// guesses is an `Error::GuessLimit`; `stats` receives what the search did.
pub fn search(
    cells: &[u8],
    marks: Option<&[u64]>,
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    visit: impl FnMut(&[u8]) -> Flow,
) -> Result<()> {
    let found = Visit {
        visit,
        solution: [0; 81],
    };
    run(cells, marks, control, max_guesses, stats, found, NoTrace).map(|_| ())
}

/// The number of solutions of `cells`, up to `limit` (at least 1), as [`search`] would visit
/// them, without writing any out. Errors and `stats` as for [`search`].
pub fn count(
    cells: &[u8],
    marks: Option<&[u64]>,
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    limit: u64,
) -> Result<u64> {
    let found = Count { count: 0, limit };
    run(cells, marks, control, max_guesses, stats, found, NoTrace).map(|found| found.count)
}

/// Writes the first solution of `cells` (the first [`search`] would visit) into `out`;
/// `Ok(false)` when there is none. Errors and `stats` as for [`search`].
pub fn solve_into(
    cells: &[u8],
    marks: Option<&[u64]>,
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    out: &mut [u8; 81],
) -> Result<bool> {
    let found = First { out, found: false };
    run(cells, marks, control, max_guesses, stats, found, NoTrace).map(|found| found.found)
}

/// [`solve_into`] told to `tracer` as it goes (see [`Search::node`] for what it tells): the
/// search up to the first solution, `Ok(false)` when there is none (the tracer has then been
/// told every backtrack back to the givens). Errors and `stats` as for [`search`].
pub fn trace(
    cells: &[u8],
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    tracer: &mut impl Tracer,
) -> Result<bool> {
    let mut out = [0u8; 81];
    let found = First {
        out: &mut out,
        found: false,
    };
    run(cells, None, control, max_guesses, stats, found, tracer).map(|found| found.found)
}

/// The search behind [`search`], [`count`], [`solve_into`] and [`trace`]; returns `found` as
/// the search left it.
fn run<F: Found, T: Tracer>(
    cells: &[u8],
    marks: Option<&[u64]>,
    control: &mut (impl Control + ?Sized),
    max_guesses: Option<u64>,
    stats: &mut SearchStats,
    found: F,
    tracer: T,
) -> Result<F> {
    assert_eq!(cells.len(), 81, "the 9x9 engine takes 81 cells");
    assert!(marks.map_or(true, |m| m.len() == 81), "one mask per cell");
    let mut search = Search {
        stats: SearchStats::default(),
        max_guesses: max_guesses.unwrap_or(u64::MAX),
        control,
        found,
        tracer,
    };
    #[cfg(target_arch = "x86_64")]
    let outcome = match marks {
        // SAFETY: the CPU has what `modern_start` is compiled for.
        None if modern() => unsafe { modern_start(cells, &mut search) },
        // SAFETY: as for `modern_start`.
        Some(marks) if modern() => unsafe { modern_start_marked(cells, marks, &mut search) },
        _ => start::<Baseline, _, _, _>(cells, marks, &mut search),
    };
    #[cfg(not(target_arch = "x86_64"))]
    let outcome = start::<Baseline, _, _, _>(cells, marks, &mut search);
    let Some(outcome) = outcome else {
        return Err(find_conflict(BoxShape::CLASSIC, cells)
            .expect("a given in a peer's cell repeats a digit in a unit"));
    };
    *stats = search.stats;
    match outcome {
        Err(Stop::Interrupted) => Err(Error::Interrupted),
        Err(Stop::GuessLimit) => Err(Error::GuessLimit {
            max_guesses: search.max_guesses,
        }),
        Ok(()) | Err(Stop::Visitor) => Ok(search.found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text;
    use crate::core::search::{Solver, Unbounded};

    /// A band word's segments by a plain scan of its nine: which are non-empty (low nine bits)
    /// and which hold exactly one cell (the same, shifted up by 16).
    fn shape_naive(a: u32) -> u32 {
        let mut out = 0;
        for (i, row) in ROWS.iter().enumerate() {
            for (j, bx) in BOXES.iter().enumerate() {
                let cells = (a & row & bx).count_ones();
                if cells >= 1 {
                    out |= 1 << (3 * i + j);
                }
                if cells == 1 {
                    out |= 1 << (16 + 3 * i + j);
                }
            }
        }
        out
    }

    #[test]
    fn band_shapes_match_a_plain_scan() {
        let mut next = xorshift(0x9E37_79B9);
        for _ in 0..100_000 {
            let x = next();
            let a = x & BAND & (x >> 3 | x.rotate_left(7));
            let singles = SEGMENT_CELLS[(shape_naive(a) >> 16) as usize] & a;
            let expected = (shape_naive(a) & 0x1FF) as u64 | (singles as u64) << 32;
            assert_eq!(band_shape(a), expected, "{a:#x}");
        }
        assert_eq!(band_shape(BAND) & 0x1FF, 511);
        assert_eq!(band_shape(0), 0);
    }

    #[test]
    fn stack_patterns_match_a_plain_scan() {
        let mut next = xorshift(0x2545_F491);
        for _ in 0..100_000 {
            let cand: [u32; 3] = std::array::from_fn(|_| next() & BAND);
            let mut plain = 0;
            for (band, &word) in cand.iter().enumerate() {
                for column in 0..9 {
                    let present = u32::from(word & STRIDE << column != 0);
                    plain |= present << (9 * band + column);
                }
            }
            assert_eq!(stack_patterns(&cand), plain, "{cand:x?}");
        }
    }

    #[test]
    fn stacks_arrangeable_is_the_table_per_stack() {
        // Stack `s` of a patterns word as the table's index: bit `3 * band + k`.
        let stack = |patterns: u32, s: u32| {
            (0..3).fold(0, |m, band| {
                m | (patterns >> (9 * band + 3 * s) & 0o7) << (3 * band)
            })
        };
        let mut next = xorshift(0x68E3_1DA4);
        for i in 0..200_000u32 {
            // Every 9-bit pattern in each stack position, then random words.
            let patterns = if i < 512 * 3 {
                let m = i % 512;
                (m & 0o7 | (m >> 3 & 0o7) << 9 | (m >> 6) << 18) << (3 * (i / 512))
            } else {
                next() & BAND
            };
            let keep = stacks_arrangeable(patterns);
            for s in 0..3 {
                let expected = ARRANGEABLE[stack(patterns, s) as usize] as u32;
                assert_eq!(stack(keep, s), expected, "{patterns:#o}, stack {s}");
            }
        }
    }

    #[test]
    fn spread_digits_puts_digit_d_at_bit_3d() {
        for digits in 0..512u32 {
            let plain = (0..9).fold(0, |m, d| m | (digits >> d & 1) << (3 * d));
            assert_eq!(spread_digits(digits), plain, "{digits:#b}");
        }
    }

    /// A reproducible sequence of pseudo-random words (xorshift32) from a non-zero seed.
    fn xorshift(mut x: u32) -> impl FnMut() -> u32 {
        move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }
    }

    #[test]
    fn digit_counts_match_a_count_per_cell() {
        // Candidate words, sparse and dense.
        let mut next = xorshift(0x9E37_79B9);
        for round in 0..2000 {
            let mut cand = [[0u32; 3]; 9];
            for word in cand.as_flattened_mut() {
                let mut w = next() & BAND;
                for _ in 0..round % 4 {
                    w &= next();
                }
                *word = w;
            }
            let counts = digit_counts(&cand);
            assert_eq!(counts, digit_counts_scalar(&cand));
            for b in 0..3 {
                for p in 0..27 {
                    let n = (0..9).filter(|&d| cand[d][b] >> p & 1 == 1).count();
                    for (k, count) in counts.iter().enumerate() {
                        assert_eq!(count[b] >> p & 1 == 1, n > k, "band {b}, cell {p}");
                    }
                }
            }
        }
    }

    #[test]
    fn changed_lanes_finds_every_difference() {
        let a: Vec<u32> = (0..27).map(|i| i * 7 + 1).collect();
        assert_eq!(changed_lanes(&a, &a), 0);
        for i in 0..27 {
            let mut b = a.clone();
            b[i] ^= 1 << (i % 27);
            assert_eq!(changed_lanes(&a, &b), 1 << i);
        }
        let zeros = vec![0u32; 27];
        assert_eq!(changed_lanes(&a, &zeros), (1 << 27) - 1);
    }

    #[test]
    fn lone_segments() {
        // Row 0 only in box 0, everything else present: segment 0 is alone in its row.
        assert_eq!(LONE[511 & !0b110], 1);
        // A diagonal arrangement: each segment is alone in its row and its box.
        assert_eq!(LONE[0b100_010_001], 0b100_010_001);
        assert_eq!(LONE[511], 0);
    }

    #[test]
    fn segment_table_keeps_only_arrangeable_segments() {
        // Everything present: everything stays.
        assert_eq!(ARRANGEABLE[511], 511);
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        assert_eq!(ARRANGEABLE[511 & !0b110], 0b110_110_001);
        // Two rows confined to the same single box: impossible.
        assert_eq!(ARRANGEABLE[0b111_001_001], 0);
        assert_eq!(SEGMENT_CELLS[511], BAND);
    }

    /// The hardest samples take the longest searches: still one solution, the generic
    /// engine's, and one node per guess.
    #[test]
    fn hard_puzzles_agree_with_the_generic_engine() {
        let mut generic = Solver::generic(BoxShape::CLASSIC);
        for line in include_str!("../../../tests/data/puzzles6_forum_hardest_1106").lines() {
            let grid = text::parse(line, None).unwrap();
            let mut stats = SearchStats::default();
            let mut found = Vec::new();
            search(grid.cells(), None, &mut Unbounded, None, &mut stats, |s| {
                found.push(s.to_vec());
                Flow::Continue
            })
            .unwrap();
            assert_eq!(stats.nodes, stats.guesses + 1, "{line}");
            assert!(stats.dead_ends < stats.nodes, "{line}");
            let theirs = generic.solve(&grid, &mut Unbounded).unwrap();
            assert_eq!(found, [theirs.cells().to_vec()], "{line}");
        }
    }

    fn count(line: &str, limit: u64) -> (u64, [u8; 81]) {
        let cells: Vec<u8> = line
            .bytes()
            .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
            .collect();
        let mut n = 0;
        let mut first = [0u8; 81];
        let mut stats = SearchStats::default();
        search(&cells, None, &mut Unbounded, None, &mut stats, |s| {
            if n == 0 {
                first.copy_from_slice(s);
            }
            n += 1;
            if n >= limit {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })
        .unwrap();
        (n, first)
    }

    #[test]
    fn solves_and_counts() {
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let (n, first) = count(puzzle, 2);
        assert_eq!(n, 1);
        let text: String = first.iter().map(|v| (b'0' + v) as char).collect();
        assert_eq!(
            text,
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
        // An empty grid has many solutions; the count stops at the limit.
        assert_eq!(count(&".".repeat(81), 1000).0, 1000);
    }

    /// Every 9x9 sample in tests/data: the same counts (up to 1000, so serg's multi-solution
    /// puzzles are compared on many solutions) and, for each puzzle, the same set of solutions
    /// as the generic engine; unsolvable and conflicting ones (gen_invalid) included.
    #[test]
    fn agrees_with_the_generic_engine() {
        let samples = [
            include_str!("../../../tests/data/puzzles2_17_clue"),
            include_str!("../../../tests/data/puzzles3_magictour_top1465"),
            include_str!("../../../tests/data/puzzles5_forum_hardest_1905_11+"),
            include_str!("../../../tests/data/puzzles6_forum_hardest_1106"),
            include_str!("../../../tests/data/puzzles7_serg_benchmark"),
            include_str!("../../../tests/data/gen_easy35"),
            include_str!("../../../tests/data/gen_minimal"),
            include_str!("../../../tests/data/gen_invalid"),
        ];
        let mut nine = Solver::new(BoxShape::CLASSIC);
        let mut generic = Solver::generic(BoxShape::CLASSIC);
        let mut checked = 0;
        for line in samples.iter().flat_map(|s| s.lines()) {
            let Ok(grid) = text::parse(line, None) else {
                continue;
            };
            let cells = grid.cells();
            let a = nine.count(cells, Some(1000), &mut Unbounded);
            let b = generic.count(cells, Some(1000), &mut Unbounded);
            assert_eq!(a, b, "{line}");
            if let Ok(count) = a {
                let mut mine = nine.solutions(&grid, 50, &mut Unbounded).unwrap();
                let mut theirs = generic.solutions(&grid, 50, &mut Unbounded).unwrap();
                assert_eq!(mine.len() as u64, count.min(50), "{line}");
                if count <= 50 {
                    mine.sort_by(|x, y| x.cells().cmp(y.cells()));
                    theirs.sort_by(|x, y| x.cells().cmp(y.cells()));
                    assert_eq!(mine, theirs, "{line}");
                }
                assert!(mine.iter().all(|s| grid.is_solved_by(s)), "{line}");
            }
            checked += 1;
        }
        assert!(checked >= 200, "only {checked} sample puzzles");
    }

    /// The search compiled for newer CPUs ([`Modern`]) visits the same solutions in the same
    /// order, with the same statistics, as the plain build that every CPU can run.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn both_builds_search_alike() {
        if !modern() {
            return;
        }
        fn trace(
            cells: &[u8],
            modern: bool,
        ) -> (
            Option<std::result::Result<(), Stop>>,
            Vec<Vec<u8>>,
            SearchStats,
        ) {
            let mut seen: Vec<Vec<u8>> = Vec::new();
            let mut search = Search {
                stats: SearchStats::default(),
                max_guesses: 10_000,
                control: &mut Unbounded,
                found: Visit {
                    visit: |s: &[u8]| {
                        seen.push(s.to_vec());
                        if seen.len() < 100 {
                            Flow::Continue
                        } else {
                            Flow::Stop
                        }
                    },
                    solution: [0; 81],
                },
                tracer: NoTrace,
            };
            let outcome = if modern {
                // SAFETY: `modern()` said the CPU has the features.
                unsafe { modern_start(cells, &mut search) }
            } else {
                start::<Baseline, _, _, _>(cells, None, &mut search)
            };
            let stats = search.stats;
            (outcome, seen, stats)
        }
        let samples = [
            include_str!("../../../tests/data/puzzles5_forum_hardest_1905_11+"),
            include_str!("../../../tests/data/puzzles7_serg_benchmark"),
            include_str!("../../../tests/data/gen_minimal"),
            include_str!("../../../tests/data/gen_invalid"),
        ];
        let mut checked = 0;
        for line in samples.iter().flat_map(|s| s.lines()) {
            let Ok(grid) = text::parse(line, None) else {
                continue;
            };
            let (a, b) = (trace(grid.cells(), false), trace(grid.cells(), true));
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{line}");
            checked += 1;
        }
        assert!(checked >= 100, "only {checked} sample puzzles");
    }

    /// [`State::with_givens`] against placing the givens one at a time, on random grids with
    /// few to many givens: `None` exactly when some unit repeats a digit, else the same state.
    #[test]
    fn givens_set_up_as_if_placed_one_by_one() {
        let mut next = xorshift(0x1234_5678);
        let mut conflicts = 0;
        for round in 0..20_000 {
            let density = 2 + round % 30;
            let cells: Vec<u8> = (0..81)
                .map(|_| {
                    let r = next();
                    if r % 100 < density {
                        (r >> 8) as u8 % 9 + 1
                    } else {
                        0
                    }
                })
                .collect();
            let conflict = find_conflict(BoxShape::CLASSIC, &cells).is_some();
            let Some(state) = State::with_givens(&cells) else {
                assert!(conflict, "{cells:?}");
                conflicts += 1;
                continue;
            };
            assert!(!conflict, "{cells:?}");
            let mut placed = State::empty();
            for (i, &v) in cells.iter().enumerate() {
                if v != 0 {
                    assert!(placed.place(v as usize - 1, i / 27, (i % 27) as u32));
                }
            }
            assert_eq!(state.cand, placed.cand, "{cells:?}");
            assert_eq!(state.unsolved, placed.unsolved, "{cells:?}");
        }
        assert!(
            conflicts > 1000 && conflicts < 19_000,
            "{conflicts} conflicts"
        );
    }

    #[test]
    fn conflicting_givens_name_both_cells() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[80] = 5;
        cells[8] = 5;
        let err = search(
            &cells,
            None,
            &mut Unbounded,
            None,
            &mut SearchStats::default(),
            |_| Flow::Continue,
        )
        .unwrap_err();
        assert!(matches!(err, Error::Conflict { .. }), "{err:?}");
    }
}
