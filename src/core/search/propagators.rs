//! The variant engine's constraints as propagators over candidate masks.
//!
//! A [`Board`] is one level of the variant engine's state: a candidate mask per cell (a placed
//! cell keeps just its digit's bit) and the digits placed. Rules that forbid equal digits on
//! pairs of cells are not propagators: they are the layout's peers, struck when a digit is
//! placed. Relations between two cells (dots, XV, whispers, the negative constraints, ...) are
//! [`Pairs`], which the engine turns into [`Arcs`] from each cell to its partners. Every other
//! constraint is one [`Propagator`]: it reads the masks of its cells ([`Propagator::cells`])
//! and narrows them (never widening), or reports that no completion exists;
//! [`Propagator::holds`] checks it on a complete grid. Each is sound (it removes only digits no
//! completion of its own cells can use), so the search stays exact however weak one is.

use super::cage_sets::CageTable;
use crate::core::rules::layout::{Layout, MAX_BITSET_CELLS};

/// One level of the variant engine's state, as the propagators see it.
pub(crate) struct Board<'a> {
    pub layout: &'a Layout,
    pub full: u64,
    pub cand: &'a mut [u64],
    pub value: &'a mut [u8],
    pub open: &'a mut usize,
}

impl Board<'_> {
    /// Places digit `bit` in `cell` and strikes what it rules out; `false` when the digit is no
    /// longer a candidate there.
    #[inline]
    pub fn place(&mut self, cell: usize, bit: u64) -> bool {
        place(
            self.layout,
            self.full,
            self.cand,
            self.value,
            self.open,
            cell,
            bit,
        )
    }

    /// Keeps only the digits of `keep` in `cell`: `None` when none is left, else whether any
    /// went.
    #[inline]
    pub fn narrow(&mut self, cell: usize, keep: u64) -> Option<bool> {
        narrow(self.cand, cell, keep)
    }

    /// Keeps only the digits of `keep[k]` in `cells[k]`, for each `k`: `None` when a cell is
    /// left with none, else whether any went.
    #[inline]
    pub fn narrow_each(&mut self, cells: &[u16], keep: &[u64]) -> Option<bool> {
        let mut changed = false;
        for (&c, &k) in cells.iter().zip(keep) {
            changed |= self.narrow(c as usize, k)?;
        }
        Some(changed)
    }
}

/// See [`Board::narrow`].
#[inline]
fn narrow(cand: &mut [u64], cell: usize, keep: u64) -> Option<bool> {
    let m = cand[cell];
    let left = m & keep;
    if left == 0 {
        return None;
    }
    cand[cell] = left;
    Some(left != m)
}

/// See [`Board::place`].
#[inline]
pub(crate) fn place(
    layout: &Layout,
    full: u64,
    cand: &mut [u64],
    value: &mut [u8],
    open: &mut usize,
    cell: usize,
    bit: u64,
) -> bool {
    if cand[cell] & bit == 0 || value[cell] != 0 {
        return false;
    }
    value[cell] = bit.trailing_zeros() as u8 + 1;
    cand[cell] = bit;
    *open -= 1;
    for &p in layout.peers(cell) {
        cand[p as usize] &= !bit;
    }
    if let Some(orthogonal) = &layout.orthogonal {
        let adjacent = ((bit << 1) | (bit >> 1)) & full;
        for &p in &orthogonal[cell] {
            if value[p as usize] == 0 {
                cand[p as usize] &= !adjacent;
            }
        }
    }
    true
}

/// A constraint over some cells' candidate masks.
#[derive(Clone, Debug)]
pub(crate) enum Propagator {
    Cage(Cage),
    Sum(Sum),
    Thermo(Thermo),
    Renban(Renban),
    Between(Between),
    Sandwich(Sandwich),
    XSum(XSum),
    Skyscraper(Skyscraper),
    Quadruple(Quadruple),
    Line(super::line_propagators::LinePropagator),
}

impl Propagator {
    /// Narrows its cells' masks: `None` when no completion exists, else whether anything went
    /// (or was placed).
    #[inline]
    pub fn propagate(&self, board: &mut Board<'_>) -> Option<bool> {
        match self {
            Propagator::Cage(p) => p.propagate(board),
            Propagator::Sum(p) => p.propagate(board),
            Propagator::Thermo(p) => p.propagate(board),
            Propagator::Renban(p) => p.propagate(board),
            Propagator::Between(p) => p.propagate(board),
            Propagator::Sandwich(p) => p.propagate(board),
            Propagator::XSum(p) => p.propagate(board),
            Propagator::Skyscraper(p) => p.propagate(board),
            Propagator::Quadruple(p) => p.propagate(board),
            Propagator::Line(p) => p.propagate(board),
        }
    }

    /// The cells it reads: it needs to run again only when one of them changed.
    pub fn cells(&self) -> Vec<u16> {
        match self {
            Propagator::Cage(p) => p.cells.clone(),
            Propagator::Sum(p) => p.terms.iter().map(|&(c, _)| c).collect(),
            Propagator::Thermo(p) => p.cells.clone(),
            Propagator::Renban(p) => p.cells.clone(),
            Propagator::Between(p) => [p.ends.0, p.ends.1]
                .into_iter()
                .chain(p.inner.iter().copied())
                .collect(),
            Propagator::Sandwich(p) => p.line.clone(),
            Propagator::XSum(p) => p.line.clone(),
            Propagator::Skyscraper(p) => p.line.clone(),
            Propagator::Quadruple(p) => p.cells.clone(),
            Propagator::Line(p) => p.cells(),
        }
    }

    /// Whether a complete grid meets it.
    pub fn holds(&self, value: &[u8]) -> bool {
        match self {
            Propagator::Cage(p) => p.holds(value),
            Propagator::Sum(p) => p.holds(value),
            Propagator::Thermo(p) => p.holds(value),
            Propagator::Renban(p) => p.holds(value),
            Propagator::Between(p) => p.holds(value),
            Propagator::Sandwich(p) => p.holds(value),
            Propagator::XSum(p) => p.holds(value),
            Propagator::Skyscraper(p) => p.holds(value),
            Propagator::Quadruple(p) => p.holds(value),
            Propagator::Line(p) => p.holds(value),
        }
    }
}

/// Cages of up to this many cells with links (other constraints between two of their cells)
/// are filled exactly: each digit set is kept only when its digits can be given to the cells
/// one each, within their candidates and the links, and each cell keeps the digits some such
/// filling gives it. Cages without links keep the cheaper union test: measured on plain killer
/// puzzles, the exact filling costs more than it saves.
pub(crate) const EXACT_CAGE: usize = 4;

/// A killer cage with a total: the digit sets that add up to it (its cells are a group of the
/// layout, so they are distinct already).
#[derive(Clone, Debug)]
pub(crate) struct Cage {
    pub cells: Vec<u16>,
    pub total: u32,
    pub table: CageTable,
    /// Other constraints between two of its cells, as (first, second, table) with positions
    /// in `cells`, first < second, and `table[d]` the digits the second may hold beside digit
    /// `d + 1` in the first: read by the exact filling of small cages.
    pub links: Vec<(u8, u8, Vec<u64>)>,
}

impl Cage {
    pub fn new(cells: Vec<u16>, total: u32, n: usize) -> Self {
        let table = CageTable::new(cells.len(), total, n);
        Cage {
            cells,
            total,
            table,
            links: Vec::new(),
        }
    }

    /// Adds the constraint `table` between `cells[a]` and `cells[b]` (see [`Cage::links`]),
    /// with `table[d]` the digits `cells[b]` may hold beside digit `d + 1` in `cells[a]` and
    /// `back` the same the other way.
    pub fn link(&mut self, a: usize, b: usize, table: &[u64], back: &[u64]) {
        if a < b {
            self.links.push((a as u8, b as u8, table.to_vec()));
        } else if b < a {
            self.links.push((b as u8, a as u8, back.to_vec()));
        }
    }

    /// Whether the digits placed in its cells of `value` (0: open) could still add up: no
    /// more than the total, and exactly it once all are placed.
    pub fn clues_fit(&self, value: &[u8]) -> bool {
        let sum: u32 = self
            .cells
            .iter()
            .map(|&c| u32::from(value[c as usize]))
            .sum();
        let open = self.cells.iter().any(|&c| value[c as usize] == 0);
        sum == self.total || open && sum < self.total
    }

    fn holds(&self, value: &[u8]) -> bool {
        self.cells
            .iter()
            .map(|&c| u32::from(value[c as usize]))
            .sum::<u32>()
            == self.total
    }

    /// The digit sets each cage can still hold narrow its open cells, and a digit every set
    /// needs goes where it can: placed when one cell is left for it, else struck from the cells
    /// that see all its homes.
    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let (mut placed, mut sum, mut open_cells, mut avail) = (0u64, 0u32, 0u32, 0u64);
        for &c in &self.cells {
            let c = c as usize;
            if b.value[c] != 0 {
                placed |= b.cand[c];
                sum += u32::from(b.value[c]);
            } else {
                open_cells += 1;
                avail |= b.cand[c];
            }
        }
        if open_cells == 0 {
            return (sum == self.total).then_some(false);
        }
        let mut progress = false;
        let mut needed = match self.table.sets() {
            Some(sets) if !self.links.is_empty() => {
                if sum > self.total {
                    return None;
                }
                let mut masks = [0u64; EXACT_CAGE];
                for (m, &c) in masks.iter_mut().zip(&self.cells) {
                    *m = b.cand[c as usize];
                }
                let (sup, needed) = self.fill(sets, &masks[..self.cells.len()], placed, avail)?;
                for (&c, &keep) in self.cells.iter().zip(&sup) {
                    if b.value[c as usize] == 0 {
                        progress |= b.narrow(c as usize, keep)?;
                    }
                }
                needed
            }
            _ => {
                let allowed = self
                    .table
                    .allowed(self.total, placed, sum, open_cells, avail)?;
                for &c in &self.cells {
                    let c = c as usize;
                    if b.value[c] == 0 {
                        progress |= b.narrow(c, allowed.any)?;
                    }
                }
                allowed.needed
            }
        };
        // A digit every remaining set needs, with one open cell left for it.
        while needed != 0 {
            let bit = needed & needed.wrapping_neg();
            needed ^= bit;
            let Some(homes) = homes(&self.cells, b.cand, b.value, bit) else {
                continue;
            };
            match homes.cells() {
                // No open cell can take it any more (a neighbour placed above went on a
                // non-consecutive rule or took its last home).
                [] => return None,
                &[cell] => {
                    if !b.place(cell as usize, bit) {
                        return None;
                    }
                    progress = true;
                }
                cells => {
                    progress |= strike_common(b.layout, b.full, b.cand, b.value, cells, bit)?;
                }
            }
        }
        Some(progress)
    }
}

impl Cage {
    /// The exact filling of a small cage with candidate masks `masks` (a placed cell's is its
    /// digit): per cell, the digits some filling gives it, and the digits every set with a
    /// filling leaves to the open cells; `None` when no set has one.
    fn fill(
        &self,
        sets: &[u64],
        masks: &[u64],
        placed: u64,
        avail: u64,
    ) -> Option<([u64; EXACT_CAGE], u64)> {
        let mut sup = [0u64; EXACT_CAGE];
        let mut needed = u64::MAX;
        let mut chosen = [0u64; EXACT_CAGE];
        for &set in sets {
            let rest = set & !placed;
            if set & placed != placed || rest & !avail != 0 {
                continue;
            }
            if self.assign(masks, 0, set, &mut chosen, &mut sup) {
                needed &= rest;
            }
        }
        (needed != u64::MAX).then_some((sup, needed))
    }

    /// Gives cells `i..` the digits of `left`, one each, within their masks and the links to
    /// the cells before: adds every complete filling's digits to `sup`, and whether there was
    /// one.
    fn assign(
        &self,
        masks: &[u64],
        i: usize,
        left: u64,
        chosen: &mut [u64; EXACT_CAGE],
        sup: &mut [u64; EXACT_CAGE],
    ) -> bool {
        if i == masks.len() {
            for (s, &c) in sup.iter_mut().zip(&chosen[..i]) {
                *s |= c;
            }
            return true;
        }
        let mut options = masks[i] & left;
        for (a, b, table) in &self.links {
            if *b as usize == i {
                options &= table[chosen[*a as usize].trailing_zeros() as usize];
            }
        }
        let mut any = false;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            chosen[i] = bit;
            any |= self.assign(masks, i + 1, left & !bit, chosen, sup);
        }
        any
    }
}

/// The open cells of a group that may hold `bit`, when there are at most four.
pub(crate) struct Homes {
    cells: [u16; 4],
    len: usize,
}

impl Homes {
    pub fn cells(&self) -> &[u16] {
        &self.cells[..self.len]
    }
}

#[inline]
fn homes(group: &[u16], cand: &[u64], value: &[u8], bit: u64) -> Option<Homes> {
    let mut homes = Homes {
        cells: [0; 4],
        len: 0,
    };
    for &c in group {
        if value[c as usize] == 0 && cand[c as usize] & bit != 0 {
            if homes.len == 4 {
                return None;
            }
            homes.cells[homes.len] = c;
            homes.len += 1;
        }
    }
    Some(homes)
}

/// `bit` must go in one of `homes` (one or more open cells): strikes it from every cell that
/// is a peer of all of them and, under non-consecutive, strikes its neighbouring digits from
/// every cell orthogonally next to all of them. `Some(whether anything was struck)`, `None`
/// when a cell lost its last candidate.
pub(crate) fn strike_common(
    layout: &Layout,
    full: u64,
    cand: &mut [u64],
    value: &[u8],
    homes: &[u16],
    bit: u64,
) -> Option<bool> {
    let mut struck = false;
    if let Some(first) = layout.peer_bits(homes[0] as usize) {
        let words = first.len();
        let mut common = [0u64; MAX_BITSET_CELLS / 64];
        common[..words].copy_from_slice(first);
        for &h in &homes[1..] {
            let bits = layout
                .peer_bits(h as usize)
                .expect("every cell has peer bits");
            for (c, b) in common[..words].iter_mut().zip(bits) {
                *c &= b;
            }
        }
        for (i, &word) in common[..words].iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let c = i * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if value[c] == 0 && cand[c] & bit != 0 {
                    cand[c] &= !bit;
                    if cand[c] == 0 {
                        return None;
                    }
                    struck = true;
                }
            }
        }
    }
    struck |= strike_adjacent(layout, full, cand, value, homes, bit, |_, _| {})?;
    Some(struck)
}

/// Under non-consecutive, `bit` must go in one of `homes`: a cell orthogonally next to every
/// home holding a digit next to `bit` would leave it no home, so those digits go from such
/// cells; `struck(cell, digits)` hears of each strike. `Some(whether anything was struck)`,
/// `None` when a cell lost its last candidate; `Some(false)` without the rule.
pub(crate) fn strike_adjacent(
    layout: &Layout,
    full: u64,
    cand: &mut [u64],
    value: &[u8],
    homes: &[u16],
    bit: u64,
    mut struck: impl FnMut(usize, u64),
) -> Option<bool> {
    let Some(orthogonal) = &layout.orthogonal else {
        return Some(false);
    };
    let adjacent = ((bit << 1) | (bit >> 1)) & full;
    let mut any = false;
    for &c in &orthogonal[homes[0] as usize] {
        let cu = c as usize;
        if value[cu] != 0 || cand[cu] & adjacent == 0 || homes.contains(&c) {
            continue;
        }
        if homes.iter().all(|h| orthogonal[cu].contains(h)) {
            let gone = cand[cu] & adjacent;
            cand[cu] &= !adjacent;
            if cand[cu] == 0 {
                return None;
            }
            struck(cu, gone);
            any = true;
        }
    }
    Some(any)
}

/// The lowest and highest digit bits of a non-empty mask, as digits (from 1).
#[inline]
pub(super) fn bounds(m: u64) -> (i64, i64) {
    (
        i64::from(m.trailing_zeros()) + 1,
        64 - i64::from(m.leading_zeros()),
    )
}

/// The digits `lo..=hi` (clamped to 1..=64) as a mask; 0 when the range is empty.
#[inline]
pub(super) fn range_mask(lo: i64, hi: i64) -> u64 {
    let (lo, hi) = (lo.max(1), hi.min(64));
    if lo > hi {
        return 0;
    }
    let width = hi - lo + 1;
    let ones = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    ones << (lo - 1)
}

/// `sum(weight * digit) == total` over its terms, by bounds: each term keeps the digits that
/// the others' least and greatest contributions leave room for. Arrows (the circle's cells
/// weighted -1, -10, ... as the number they read), little killers and sums along lines.
#[derive(Clone, Debug)]
pub(crate) struct Sum {
    pub terms: Vec<(u16, i64)>,
    pub total: i64,
}

impl Sum {
    fn holds(&self, value: &[u8]) -> bool {
        let sum: i64 = self
            .terms
            .iter()
            .map(|&(c, w)| w * i64::from(value[c as usize]))
            .sum();
        sum == self.total
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let mut progress = false;
        loop {
            let (mut least, mut most) = (0i64, 0i64);
            for &(c, w) in &self.terms {
                let (lo, hi) = bounds(b.cand[c as usize]);
                if w > 0 {
                    least += w * lo;
                    most += w * hi;
                } else {
                    least += w * hi;
                    most += w * lo;
                }
            }
            if self.total < least || self.total > most {
                return None;
            }
            let mut changed = false;
            for &(c, w) in &self.terms {
                let c = c as usize;
                let (lo, hi) = bounds(b.cand[c]);
                let (mine_least, mine_most) = if w > 0 {
                    (w * lo, w * hi)
                } else {
                    (w * hi, w * lo)
                };
                // This term's contribution lies in [total - others' most, total - others' least].
                let from = self.total - (most - mine_most);
                let to = self.total - (least - mine_least);
                let (dlo, dhi) = if w > 0 {
                    (
                        from.div_euclid(w) + i64::from(from.rem_euclid(w) != 0),
                        to.div_euclid(w),
                    )
                } else {
                    let w = -w;
                    // -w * d in [from, to]  <=>  d in [-to / w, -from / w]
                    let (a, z) = (-to, -from);
                    (
                        a.div_euclid(w) + i64::from(a.rem_euclid(w) != 0),
                        z.div_euclid(w),
                    )
                };
                changed |= b.narrow(c, range_mask(dlo, dhi))?;
            }
            if !changed {
                return Some(progress | self.exact(b)?);
            }
            progress = true;
        }
    }

    /// Narrows each term to the digits some whole filling gives it (within the masks, with
    /// peers among the terms distinct), when the terms are few and their masks narrow enough
    /// to try every filling: the bounds alone miss that three cells of one row add up to at
    /// least 6. `None` when no filling exists.
    fn exact(&self, b: &mut Board<'_>) -> Option<bool> {
        let k = self.terms.len();
        if k > EXACT_SUM {
            return Some(false);
        }
        let mut masks = [0u64; EXACT_SUM];
        let mut fillings = 1u32;
        for (m, &(c, _)) in masks.iter_mut().zip(&self.terms) {
            *m = b.cand[c as usize];
            fillings *= m.count_ones();
            if fillings > EXACT_SUM_FILLINGS {
                return Some(false);
            }
        }
        if fillings == 1 {
            return Some(false);
        }
        // Per term, the earlier terms it may not repeat a digit of, and the least and greatest
        // that the terms after it add.
        let mut apart = [0u8; EXACT_SUM];
        let mut rest = [(0i64, 0i64); EXACT_SUM + 1];
        for i in (0..k).rev() {
            let (c, w) = self.terms[i];
            for (j, &(other, _)) in self.terms[..i].iter().enumerate() {
                let peer = match b.layout.peer_bits(c as usize) {
                    Some(bits) => bits[other as usize / 64] >> (other % 64) & 1 == 1,
                    None => b.layout.peers(c as usize).binary_search(&other).is_ok(),
                };
                if peer {
                    apart[i] |= 1 << j;
                }
            }
            let (lo, hi) = bounds(masks[i]);
            let (least, most) = if w > 0 {
                (w * lo, w * hi)
            } else {
                (w * hi, w * lo)
            };
            rest[i] = (rest[i + 1].0 + least, rest[i + 1].1 + most);
        }
        let mut sup = [0u64; EXACT_SUM];
        let mut chosen = [0u64; EXACT_SUM];
        let search = SumFillings {
            terms: &self.terms,
            masks: &masks[..k],
            apart: &apart,
            rest: &rest,
            total: self.total,
        };
        if !search.assign(0, 0, &mut chosen, &mut sup) {
            return None;
        }
        let mut changed = false;
        for (&(c, _), &keep) in self.terms.iter().zip(&sup) {
            changed |= b.narrow(c as usize, keep)?;
        }
        Some(changed)
    }
}

/// A [`Sum`] of at most this many terms is also filled exactly.
const EXACT_SUM: usize = 6;
/// ... when its masks allow at most this many fillings (the product of their sizes).
const EXACT_SUM_FILLINGS: u32 = 1024;

/// The fillings of a small [`Sum`]'s terms (see [`Sum::exact`]).
struct SumFillings<'a> {
    terms: &'a [(u16, i64)],
    masks: &'a [u64],
    apart: &'a [u8; EXACT_SUM],
    rest: &'a [(i64, i64); EXACT_SUM + 1],
    total: i64,
}

impl SumFillings<'_> {
    /// Gives terms `i..` digits within their masks, apart from their peers among the terms
    /// before, so that the whole adds up to the total (`sum` is what the terms before add):
    /// adds every filling's digits to `sup`, and whether there was one.
    fn assign(
        &self,
        i: usize,
        sum: i64,
        chosen: &mut [u64; EXACT_SUM],
        sup: &mut [u64; EXACT_SUM],
    ) -> bool {
        if i == self.masks.len() {
            if sum != self.total {
                return false;
            }
            for (s, &c) in sup.iter_mut().zip(&chosen[..i]) {
                *s |= c;
            }
            return true;
        }
        let mut options = self.masks[i];
        let mut apart = self.apart[i];
        while apart != 0 {
            options &= !chosen[apart.trailing_zeros() as usize];
            apart &= apart - 1;
        }
        let w = self.terms[i].1;
        let (least, most) = self.rest[i + 1];
        let mut any = false;
        while options != 0 {
            let bit = options & options.wrapping_neg();
            options ^= bit;
            let s = sum + w * (i64::from(bit.trailing_zeros()) + 1);
            if s + least > self.total || s + most < self.total {
                continue;
            }
            chosen[i] = bit;
            any |= self.assign(i + 1, s, chosen, sup);
        }
        any
    }
}

/// Digits strictly increasing from the bulb: each cell above the least its predecessor may
/// hold, below the greatest its successor may hold.
#[derive(Clone, Debug)]
pub(crate) struct Thermo {
    pub cells: Vec<u16>,
}

impl Thermo {
    fn holds(&self, value: &[u8]) -> bool {
        self.cells
            .windows(2)
            .all(|w| value[w[0] as usize] < value[w[1] as usize])
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let mut changed = false;
        let cells = &self.cells;
        for i in 1..cells.len() {
            // Above the predecessor's lowest digit.
            let low = b.cand[cells[i - 1] as usize].trailing_zeros();
            let keep = if low >= 63 { 0 } else { u64::MAX << (low + 1) };
            changed |= b.narrow(cells[i] as usize, keep)?;
        }
        for i in (0..cells.len() - 1).rev() {
            let above = b.cand[cells[i + 1] as usize];
            // Below the successor's highest digit.
            let top = above.ilog2();
            let keep = (1u64 << top) - 1;
            changed |= b.narrow(cells[i] as usize, keep)?;
        }
        Some(changed)
    }
}

/// A relation between two cells' digits as tables: `ab[d]` holds the digits the second cell
/// may take when the first holds digit `d + 1`, and `ba` the other way.
#[derive(Clone, Debug)]
pub(crate) struct Relation {
    ab: Vec<u64>,
    ba: Vec<u64>,
}

impl Relation {
    /// The relation `ok(a, b)` between digits of `1..=n`.
    pub fn new(n: usize, ok: impl Fn(u32, u32) -> bool) -> Self {
        let mut ab = vec![0u64; n];
        let mut ba = vec![0u64; n];
        for a in 1..=n as u32 {
            for b in 1..=n as u32 {
                if ok(a, b) {
                    ab[a as usize - 1] |= 1 << (b - 1);
                    ba[b as usize - 1] |= 1 << (a - 1);
                }
            }
        }
        Relation { ab, ba }
    }

    /// The digits some digit of `m` supports (other than itself when `apart`).
    #[inline]
    fn support(table: &[u64], mut m: u64, apart: bool) -> u64 {
        let mut s = 0;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            let own = if apart { m & m.wrapping_neg() } else { 0 };
            s |= table[d] & !own;
            m &= m - 1;
        }
        s
    }

    fn holds(&self, a: u8, b: u8) -> bool {
        a != 0 && b != 0 && self.ab[a as usize - 1] >> (b - 1) & 1 == 1
    }

    /// Both tables: `ab` (per digit of the first cell, the second's digits) and `ba`.
    pub fn tables(&self) -> (&[u64], &[u64]) {
        (&self.ab, &self.ba)
    }
}

/// One relation on many pairs of cells (every Kropki dot of one kind, the cells next to each
/// other along every whisper, the negative constraints' undotted pairs, ...).
#[derive(Clone, Debug)]
pub(crate) struct Pairs {
    pub cells: Vec<(u16, u16)>,
    pub relation: Relation,
}

impl Pairs {
    pub fn holds(&self, value: &[u8]) -> bool {
        self.cells
            .iter()
            .all(|&(a, b)| self.relation.holds(value[a as usize], value[b as usize]))
    }
}

/// An arc of a pair relation: the partner, whether the two are peers, and where the table of
/// the partner's digits (per digit of this cell) starts in [`Arcs::tables`].
#[derive(Clone, Copy, Debug)]
struct Arc {
    other: u16,
    apart: bool,
    table: u32,
}

/// Every pair relation as arcs from each cell to its partners, so a changed cell narrows just
/// its own partners: each keeps the digits some digit of the cell supports.
#[derive(Clone, Debug, Default)]
pub(crate) struct Arcs {
    /// Cell `c`'s arcs are `list[start[c]..start[c + 1]]`.
    list: Vec<Arc>,
    start: Vec<u32>,
    /// The relations' tables, `n` masks each (see [`Relation`]).
    tables: Vec<u64>,
}

impl Arcs {
    /// The arcs of `pairs` both ways on `layout`'s grid.
    pub fn new(layout: &Layout, pairs: &[Pairs]) -> Self {
        let nc = layout.n * layout.n;
        let mut tables = Vec::new();
        let mut per_cell: Vec<Vec<Arc>> = vec![Vec::new(); nc];
        for p in pairs {
            let ab = tables.len() as u32;
            tables.extend(&p.relation.ab);
            let ba = tables.len() as u32;
            tables.extend(&p.relation.ba);
            for &(x, y) in &p.cells {
                let apart = layout.peers(x as usize).binary_search(&y).is_ok();
                per_cell[x as usize].push(Arc {
                    other: y,
                    apart,
                    table: ab,
                });
                per_cell[y as usize].push(Arc {
                    other: x,
                    apart,
                    table: ba,
                });
            }
        }
        let mut list = Vec::new();
        let mut start = Vec::with_capacity(nc + 1);
        for arcs in per_cell {
            start.push(list.len() as u32);
            list.extend(arcs);
        }
        start.push(list.len() as u32);
        Arcs {
            list,
            start,
            tables,
        }
    }

    /// Narrows the partners of `cell` to the digits some digit of its mask supports: `None`
    /// when one is left with none, else whether any digit went.
    #[inline(always)]
    pub fn narrow_from(&self, cell: usize, cand: &mut [u64]) -> Option<bool> {
        let arcs = &self.list[self.start[cell] as usize..self.start[cell + 1] as usize];
        let m = cand[cell];
        let mut changed = false;
        for arc in arcs {
            // Peers never share a digit: a digit supports only other digits across the pair,
            // which proves an equality between peers impossible at once.
            let keep = Relation::support(&self.tables[arc.table as usize..], m, arc.apart);
            changed |= narrow(cand, arc.other as usize, keep)?;
        }
        Some(changed)
    }

    /// How many arcs `cell` has.
    pub fn degree(&self, cell: usize) -> usize {
        (self.start[cell + 1] - self.start[cell]) as usize
    }

    /// Whether some cell has an arc.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The digits of `x` that rule digit `bit` out of `home`: `x` itself holding anything else,
    /// a peer holding `bit`, an arc partner holding a digit its relation forbids beside `bit`.
    #[inline]
    fn rules_out(&self, layout: &Layout, full: u64, x: usize, home: usize, bit: u64) -> u64 {
        if x == home {
            return full & !bit;
        }
        let d = bit.trailing_zeros() as usize;
        let mut kill = 0;
        for arc in &self.list[self.start[home] as usize..self.start[home + 1] as usize] {
            if arc.other as usize == x {
                kill |= !self.tables[arc.table as usize + d];
            }
        }
        let peer = match layout.peer_bits(x) {
            Some(bits) => bits[home / 64] >> (home % 64) & 1 == 1,
            None => layout.peers(x).binary_search(&(home as u16)).is_ok(),
        };
        if peer {
            kill |= bit;
        }
        kill & full
    }

    /// Pointing through the pair relations, for a digit left with two homes (three when
    /// `three` is set) in a full group: a cell that would rule it out of every home by taking
    /// digit e (being one home and holding another digit, or an arc partner whose relation
    /// forbids the digit beside e, or a peer when e is the digit) loses e. The cells tried are
    /// the homes and the first home's arc partners (a cell ruling out every home rules out the
    /// first). Only the digits of `dirty[g]` in group `g` are looked at (those whose homes
    /// there changed: the conclusion depends on the homes alone), and `dirty` is cleared.
    /// `None` on a cell left with no candidate, else whether any went.
    ///
    /// Three homes pay only where arcs join every orthogonal pair (the negative constraints):
    /// measured on the published corpus, elsewhere they cost more than the smaller tree saves.
    #[inline(always)]
    pub fn point(
        &self,
        layout: &Layout,
        full: u64,
        cand: &mut [u64],
        value: &[u8],
        dirty: &mut [u64],
        three: bool,
    ) -> Option<bool> {
        let mut changed = false;
        for (group, dirty) in layout.full_groups.iter().zip(dirty.iter_mut()) {
            let dirty = std::mem::take(dirty);
            if dirty == 0 {
                continue;
            }
            // Each digit's open homes counted to four at once, bit-sliced.
            let (mut one, mut two, mut three_up, mut four) = (0u64, 0u64, 0u64, 0u64);
            for &c in &group.cells {
                if value[c as usize] == 0 {
                    let m = cand[c as usize];
                    four |= three_up & m;
                    three_up |= two & m;
                    two |= one & m;
                    one |= m;
                }
            }
            let mut digits = dirty & two & !if three { four } else { three_up };
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits ^= bit;
                let mut homes = [0u16; 3];
                let mut k = 0usize;
                for &c in &group.cells {
                    if cand[c as usize] & bit != 0 && value[c as usize] == 0 {
                        homes[k] = c;
                        k += 1;
                        if k == homes.len() {
                            break;
                        }
                    }
                }
                // Strikes made in this group may have left fewer.
                if k < 2 {
                    continue;
                }
                let homes = &homes[..k];
                let first = homes[0] as usize;
                let partners =
                    &self.list[self.start[first] as usize..self.start[first + 1] as usize];
                let tried = homes.iter().map(|&h| h as usize);
                for x in tried.chain(partners.iter().map(|a| a.other as usize)) {
                    if value[x] != 0 {
                        continue;
                    }
                    let mut gone = cand[x];
                    for &h in homes {
                        gone &= self.rules_out(layout, full, x, h as usize, bit);
                        if gone == 0 {
                            break;
                        }
                    }
                    if gone != 0 {
                        changed = true;
                        cand[x] &= !gone;
                        if cand[x] == 0 {
                            return None;
                        }
                    }
                }
            }
        }
        Some(changed)
    }
}

/// A set of distinct consecutive digits in any order: every cell keeps the digits of the
/// windows of `len` consecutive digits that each cell can still meet (distinctness is checked
/// on the complete grid).
#[derive(Clone, Debug)]
pub(crate) struct Renban {
    pub cells: Vec<u16>,
}

impl Renban {
    fn holds(&self, value: &[u8]) -> bool {
        let mut seen = 0u64;
        for &c in &self.cells {
            seen |= 1 << (value[c as usize] - 1);
        }
        let (lo, hi) = bounds(seen);
        seen.count_ones() as usize == self.cells.len() && (hi - lo + 1) as usize == self.cells.len()
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let k = self.cells.len() as u32;
        let n = b.full.count_ones();
        if k > n {
            return None;
        }
        let window = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
        let mut allowed = 0u64;
        for s in 0..=(n - k) {
            let w = window << s;
            if self.cells.iter().all(|&c| b.cand[c as usize] & w != 0) {
                allowed |= w;
            }
        }
        if allowed == 0 {
            return None;
        }
        let mut changed = false;
        for &c in &self.cells {
            changed |= b.narrow(c as usize, allowed)?;
        }
        Some(changed)
    }
}

/// The cells between two ends hold digits strictly between the ends' digits.
#[derive(Clone, Debug)]
pub(crate) struct Between {
    pub ends: (u16, u16),
    pub inner: Vec<u16>,
}

impl Between {
    fn holds(&self, value: &[u8]) -> bool {
        let (a, z) = (value[self.ends.0 as usize], value[self.ends.1 as usize]);
        let (lo, hi) = (a.min(z), a.max(z));
        self.inner
            .iter()
            .all(|&c| (lo + 1..hi).contains(&value[c as usize]))
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        if self.inner.is_empty() {
            return Some(false);
        }
        let (ea, ez) = (self.ends.0 as usize, self.ends.1 as usize);
        let (alo, ahi) = bounds(b.cand[ea]);
        let (zlo, zhi) = bounds(b.cand[ez]);
        // An inner digit v needs one end below it and the other above.
        let inner_keep = range_mask(alo + 1, zhi - 1) | range_mask(zlo + 1, ahi - 1);
        let mut changed = false;
        // The inner digits' least is at most `floor`, their greatest at least `ceiling`.
        let (mut floor, mut ceiling) = (i64::MAX, i64::MIN);
        for &c in &self.inner {
            changed |= b.narrow(c as usize, inner_keep)?;
            let (lo, hi) = bounds(b.cand[c as usize]);
            floor = floor.min(hi);
            ceiling = ceiling.max(lo);
        }
        // An end is below every inner digit with the other end above them all, or the reverse.
        let below = range_mask(1, floor - 1);
        let above = range_mask(ceiling + 1, 64);
        let a_keep = (if b.cand[ez] & above != 0 { below } else { 0 })
            | (if b.cand[ez] & below != 0 { above } else { 0 });
        changed |= b.narrow(ea, a_keep)?;
        let z_keep = (if b.cand[ea] & above != 0 { below } else { 0 })
            | (if b.cand[ea] & below != 0 { above } else { 0 });
        changed |= b.narrow(ez, z_keep)?;
        Some(changed)
    }
}

/// Bounds of each cell of a line with some digits left out, and their prefix sums, so any run's
/// least and greatest sum is two subtractions.
struct LineBounds {
    lo: [i64; 65],
    hi: [i64; 65],
}

impl LineBounds {
    /// `None` when some cell keeps no digit outside `without`... such runs are ruled out by the
    /// caller through `empty`.
    fn new(cand: &[u64], line: &[u16], without: u64, empty: &mut u64) -> Self {
        let mut lb = LineBounds {
            lo: [0; 65],
            hi: [0; 65],
        };
        *empty = 0;
        for (i, &c) in line.iter().enumerate() {
            let m = cand[c as usize] & !without;
            let (lo, hi) = if m == 0 {
                *empty |= 1 << i;
                (0, 0)
            } else {
                bounds(m)
            };
            lb.lo[i + 1] = lb.lo[i] + lo;
            lb.hi[i + 1] = lb.hi[i] + hi;
        }
        lb
    }

    /// Least and greatest sums of cells `from..to`.
    #[inline]
    fn run(&self, from: usize, to: usize) -> (i64, i64) {
        (self.lo[to] - self.lo[from], self.hi[to] - self.hi[from])
    }
}

/// Narrowing for cells `from..to` of `line` to sum to `total`, added into `allowed` (per
/// position), the digits of `without` left out; `false` when they cannot.
fn run_sum(
    cand: &[u64],
    line: &[u16],
    lb: &LineBounds,
    (from, to): (usize, usize),
    total: i64,
    without: u64,
    allowed: &mut [u64],
) -> bool {
    let (least, most) = lb.run(from, to);
    if total < least || total > most {
        return false;
    }
    for k in from..to {
        let (lo, hi) = (lb.lo[k + 1] - lb.lo[k], lb.hi[k + 1] - lb.hi[k]);
        let keep = range_mask(total - (most - hi), total - (least - lo));
        let m = cand[line[k] as usize] & !without & keep;
        if m == 0 {
            return false;
        }
        allowed[k] |= m;
    }
    true
}

/// The digits strictly between the 1 and the `n` of a row or column add up to the total.
#[derive(Clone, Debug)]
pub(crate) struct Sandwich {
    pub line: Vec<u16>,
    pub total: i64,
}

impl Sandwich {
    fn holds(&self, value: &[u8]) -> bool {
        let n = self.line.len() as u8;
        let digits: Vec<u8> = self.line.iter().map(|&c| value[c as usize]).collect();
        let (Some(a), Some(z)) = (
            digits.iter().position(|&d| d == 1),
            digits.iter().position(|&d| d == n),
        ) else {
            return false;
        };
        let (a, z) = (a.min(z), a.max(z));
        digits[a + 1..z].iter().map(|&d| i64::from(d)).sum::<i64>() == self.total
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let line = &self.line;
        let len = line.len();
        let one = 1u64;
        let top = 1u64 << (len - 1);
        let crusts = one | top;
        let mut empty = 0u64;
        let lb = LineBounds::new(b.cand, line, crusts, &mut empty);
        let mut allowed = [0u64; 64];
        let mut any = false;
        for i in 0..len {
            let ci = b.cand[line[i] as usize] & crusts;
            if ci == 0 {
                continue;
            }
            for j in i + 1..len {
                let cj = b.cand[line[j] as usize] & crusts;
                if cj == 0 {
                    continue;
                }
                // The crusts one way round or the other.
                let pairs = [(one, top), (top, one)];
                let mut fits = 0u64;
                let mut fits_j = 0u64;
                for (x, y) in pairs {
                    if ci & x != 0 && cj & y != 0 {
                        fits |= x;
                        fits_j |= y;
                    }
                }
                if fits == 0 {
                    continue;
                }
                // Every other cell must take a digit that is not a crust.
                let others = ((1u64 << len) - 1) & !(1u64 << i) & !(1u64 << j);
                if empty & others != 0 {
                    continue;
                }
                let mut here = [0u64; 64];
                if !run_sum(b.cand, line, &lb, (i + 1, j), self.total, crusts, &mut here) {
                    continue;
                }
                any = true;
                allowed[i] |= fits;
                allowed[j] |= fits_j;
                for k in (i + 1)..j {
                    allowed[k] |= here[k];
                }
                for k in (0..i).chain(j + 1..len) {
                    allowed[k] |= b.cand[line[k] as usize] & !crusts;
                }
            }
        }
        if !any {
            return None;
        }
        b.narrow_each(line, &allowed)
    }
}

/// From a clue outside the grid: the first `x` digits of the line add up to the total, where
/// `x` is the first digit.
#[derive(Clone, Debug)]
pub(crate) struct XSum {
    pub line: Vec<u16>,
    pub total: i64,
}

impl XSum {
    fn holds(&self, value: &[u8]) -> bool {
        let x = value[self.line[0] as usize] as usize;
        x <= self.line.len()
            && self.line[..x]
                .iter()
                .map(|&c| i64::from(value[c as usize]))
                .sum::<i64>()
                == self.total
    }

    #[inline]
    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let line = &self.line;
        let len = line.len();
        let mut empty = 0u64;
        let lb = LineBounds::new(b.cand, line, 0, &mut empty);
        let mut allowed = [0u64; 64];
        let mut first = b.cand[line[0] as usize];
        let mut xs = first;
        while xs != 0 {
            let bit = xs & xs.wrapping_neg();
            xs ^= bit;
            let x = bit.trailing_zeros() as usize + 1;
            let mut here = [0u64; 64];
            if x > len
                || !run_sum(
                    b.cand,
                    line,
                    &lb,
                    (1, x),
                    self.total - x as i64,
                    0,
                    &mut here,
                )
            {
                first &= !bit;
                continue;
            }
            for k in 1..x {
                allowed[k] |= here[k];
            }
            for k in x.max(1)..len {
                allowed[k] |= b.cand[line[k] as usize];
            }
        }
        allowed[0] = first;
        b.narrow_each(line, &allowed)
    }
}

/// From a clue outside the grid: as many digits are seen along the line as the clue says, a
/// digit being seen when it is greater than every digit before it. Each digit of each cell is
/// kept when some path of digits through the line's candidates, with that digit there, sees
/// the right number (the line's distinctness left to its group).
#[derive(Clone, Debug)]
pub(crate) struct Skyscraper {
    pub line: Vec<u16>,
    pub clue: u32,
}

impl Skyscraper {
    fn holds(&self, value: &[u8]) -> bool {
        let (mut top, mut seen) = (0u8, 0u32);
        for &c in &self.line {
            if value[c as usize] > top {
                top = value[c as usize];
                seen += 1;
            }
        }
        seen == self.clue
    }

    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let line = &self.line;
        let len = line.len();
        let n = b.full.count_ones() as usize;
        // back[i][m]: the counts seen before cell i, with m the highest digit so far, from
        // which the rest of the line can end on the clue.
        let mut back = vec![0u128; (len + 1) * (n + 1)];
        back[len * (n + 1)..].fill(1u128 << self.clue);
        for i in (0..len).rev() {
            let m_cand = b.cand[line[i] as usize];
            for m in 0..=n {
                let mut acc = 0u128;
                let mut ds = m_cand;
                while ds != 0 {
                    let d = ds.trailing_zeros() as usize + 1;
                    ds &= ds - 1;
                    acc |= if d > m {
                        back[(i + 1) * (n + 1) + d] >> 1
                    } else {
                        back[(i + 1) * (n + 1) + m]
                    };
                }
                back[i * (n + 1) + m] = acc;
            }
        }
        if back[0] & 1 == 0 {
            return None;
        }
        // Forward: fwd[m] the counts reachable before cell i with m highest so far.
        let mut fwd = vec![0u128; n + 1];
        fwd[0] = 1;
        let mut changed = false;
        for (i, &c) in line.iter().enumerate() {
            let mut keep = 0u64;
            let mut next = vec![0u128; n + 1];
            let mut ds = b.cand[c as usize];
            while ds != 0 {
                let d = ds.trailing_zeros() as usize + 1;
                ds &= ds - 1;
                for (m, &before) in fwd.iter().enumerate() {
                    if before == 0 {
                        continue;
                    }
                    let (to, counts) = if d > m { (d, before << 1) } else { (m, before) };
                    if counts & back[(i + 1) * (n + 1) + to] != 0 {
                        keep |= 1 << (d - 1);
                        next[to] |= counts;
                    }
                }
            }
            changed |= b.narrow(c as usize, keep)?;
            fwd = next;
        }
        Some(changed)
    }
}

/// Four cells (a 2x2 block) that hold at least these digits, a digit listed twice at least
/// twice.
#[derive(Clone, Debug)]
pub(crate) struct Quadruple {
    pub cells: Vec<u16>,
    /// (digit bit, how many times it is listed)
    pub digits: Vec<(u64, usize)>,
    /// Listed digits, counted with repeats.
    pub listed: usize,
}

impl Quadruple {
    /// Whether `times` of the cells that may hold `bit` are pairwise not peers (a digit
    /// listed twice needs two cells that may both hold it).
    fn room(&self, layout: &Layout, cand: &[u64], bit: u64, times: usize) -> bool {
        let homes: Vec<u16> = self
            .cells
            .iter()
            .copied()
            .filter(|&c| cand[c as usize] & bit != 0)
            .collect();
        let k = homes.len();
        (0u32..1 << k).any(|set| {
            set.count_ones() as usize == times
                && (0..k).all(|i| {
                    set >> i & 1 == 0
                        || (i + 1..k).all(|j| {
                            set >> j & 1 == 0
                                || layout
                                    .peers(homes[i] as usize)
                                    .binary_search(&homes[j])
                                    .is_err()
                        })
                })
        })
    }

    fn holds(&self, value: &[u8]) -> bool {
        self.digits.iter().all(|&(bit, times)| {
            self.cells
                .iter()
                .filter(|&&c| value[c as usize] != 0 && 1u64 << (value[c as usize] - 1) == bit)
                .count()
                >= times
        })
    }

    fn propagate(&self, b: &mut Board<'_>) -> Option<bool> {
        let mut changed = false;
        let mut union = 0u64;
        for &(bit, times) in &self.digits {
            union |= bit;
            let homes = self
                .cells
                .iter()
                .filter(|&&c| b.cand[c as usize] & bit != 0)
                .count();
            if homes < times {
                return None;
            }
            if times >= 2 && !self.room(b.layout, b.cand, bit, times) {
                return None;
            }
            if homes == times {
                for &c in &self.cells {
                    if b.cand[c as usize] & bit != 0 {
                        changed |= b.narrow(c as usize, bit)?;
                    }
                }
            }
        }
        if self.listed == self.cells.len() {
            for &c in &self.cells {
                changed |= b.narrow(c as usize, union)?;
            }
        }
        Some(changed)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::core::grid::shape::BoxShape;
    use crate::core::make::random::Rng;
    use crate::core::rules::{Rules, Spec};
    use crate::core::search::control::{Attempt, Flow, Unbounded};
    use crate::core::search::variant::Variant;

    /// Every completion of `cells` under classic rules, by plain backtracking.
    fn classic_completions(shape: BoxShape, cells: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let n = shape.size();
        let Some(blank) = cells.iter().position(|&v| v == 0) else {
            out.push(cells.clone());
            return;
        };
        let (r, c) = (blank / n, blank % n);
        for v in 1..=n as u8 {
            let clash = (0..n).any(|k| {
                cells[r * n + k] == v
                    || cells[k * n + c] == v
                    || cells.iter().enumerate().any(|(i, &w)| {
                        w == v && shape.box_index(i / n, i % n) == shape.box_index(r, c)
                    })
            });
            if !clash {
                cells[blank] = v;
                classic_completions(shape, cells, out);
            }
        }
        cells[blank] = 0;
    }

    /// A random classic solution: the shifted pattern with its digits relabelled and rows
    /// swapped within bands.
    fn random_solution(shape: BoxShape, rng: &mut Rng) -> Vec<u8> {
        let n = shape.size();
        let base = crate::core::make::pattern(shape).cells().to_vec();
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut digits);
        let mut rows: Vec<usize> = Vec::new();
        let br = shape.rows();
        let mut bands: Vec<usize> = (0..n / br).collect();
        rng.shuffle(&mut bands);
        for band in bands {
            let mut inner: Vec<usize> = (0..br).map(|k| band * br + k).collect();
            rng.shuffle(&mut inner);
            rows.extend(inner);
        }
        let mut out = vec![0u8; n * n];
        for (r, &from) in rows.iter().enumerate() {
            for c in 0..n {
                out[r * n + c] = digits[base[from * n + c] as usize - 1];
            }
        }
        out
    }

    fn engine_count(
        shape: BoxShape,
        props: Vec<Propagator>,
        pairs: Vec<Pairs>,
        cells: &[u8],
    ) -> (u64, Vec<Vec<u8>>) {
        let rules = Arc::new(
            Rules::new(Spec {
                // Any rule at all sends the search to the variant engine; diagonals of a
                // tiny grid would constrain it, so an empty extra region of one cell does.
                extra_regions: vec![vec![crate::core::error::Cell { row: 0, col: 0 }]],
                ..Spec::default()
            })
            .unwrap(),
        );
        let mut v = Variant::with_propagators(shape, rules, props, pairs).unwrap();
        let mut found = Vec::new();
        v.search(cells, &mut Unbounded, Attempt::only(None), |s| {
            found.push(s.to_vec());
            Flow::Continue
        })
        .unwrap();
        (found.len() as u64, found)
    }

    /// Random constraints of every kind, each drawn to hold on `sol` most of the time: the
    /// propagators returned, the pair relations into `relations`.
    fn draw(
        shape: BoxShape,
        sol: &[u8],
        rng: &mut Rng,
        relations: &mut Vec<Pairs>,
    ) -> Vec<Propagator> {
        let n = shape.size();
        let at = |r: usize, c: usize| (r * n + c) as u16;
        let mut props = Vec::new();
        let pick = |rng: &mut Rng, k: usize| rng.below(k as u64) as usize;
        let honest = pick(rng, 4) != 0;
        let fudge = |rng: &mut Rng, v: i64| {
            if honest {
                v
            } else {
                v + rng.below(3) as i64 - 1
            }
        };
        // A random orthogonal path of up to `len` cells.
        let path = |rng: &mut Rng, len: usize| {
            let mut cells = vec![at(
                rng.below(n as u64) as usize,
                rng.below(n as u64) as usize,
            )];
            for _ in 1..len {
                let last = *cells.last().unwrap() as usize;
                let (r, c) = (last / n, last % n);
                let steps: Vec<(usize, usize)> = crate::core::rules::layout::neighbours(
                    n,
                    r,
                    c,
                    &[(0, 1), (1, 0), (0, -1), (-1, 0)],
                )
                .filter(|&(r2, c2)| !cells.contains(&at(r2, c2)))
                .collect();
                if steps.is_empty() {
                    break;
                }
                let (r2, c2) = steps[rng.below(steps.len() as u64) as usize];
                cells.push(at(r2, c2));
            }
            cells
        };
        match pick(rng, 9) {
            0 => {
                // An arrow: circle first.
                let cells = path(rng, 3);
                let total: i64 = cells[1..].iter().map(|&c| i64::from(sol[c as usize])).sum();
                let mut terms: Vec<(u16, i64)> = cells[1..].iter().map(|&c| (c, 1)).collect();
                terms.push((cells[0], -1));
                let _ = total;
                props.push(Propagator::Sum(Sum {
                    terms,
                    total: fudge(rng, 0),
                }));
            }
            1 => {
                let mut cells = path(rng, 4);
                cells.sort_by_key(|&c| sol[c as usize]);
                if !honest {
                    cells.reverse();
                }
                props.push(Propagator::Thermo(Thermo { cells }));
            }
            2 => {
                // Kropki, XV, whispers, min: one relation over a few true pairs.
                let kind = pick(rng, 4);
                let rel = match kind {
                    0 => Relation::new(n, |a, b| a.abs_diff(b) == 1),
                    1 => Relation::new(n, |a, b| a == 2 * b || b == 2 * a),
                    2 => Relation::new(n, |a, b| a + b == 5),
                    _ => Relation::new(n, |a, b| a.abs_diff(b) >= (n as u32).div_ceil(2)),
                };
                let mut pairs = Vec::new();
                for _ in 0..6 {
                    let p = path(rng, 2);
                    if p.len() == 2
                        && (!honest || rel.holds(sol[p[0] as usize], sol[p[1] as usize]))
                    {
                        pairs.push((p[0], p[1]));
                    }
                }
                relations.push(Pairs {
                    cells: pairs,
                    relation: rel,
                });
            }
            3 => {
                let cells = path(rng, 3);
                props.push(Propagator::Renban(Renban { cells }));
            }
            4 => {
                let cells = path(rng, 4);
                if cells.len() >= 2 {
                    props.push(Propagator::Between(Between {
                        ends: (cells[0], *cells.last().unwrap()),
                        inner: cells[1..cells.len() - 1].to_vec(),
                    }));
                }
            }
            5..=7 => {
                let r = pick(rng, n);
                let mut line: Vec<u16> = if pick(rng, 2) == 0 {
                    (0..n).map(|c| at(r, c)).collect()
                } else {
                    (0..n).map(|c| at(c, r)).collect()
                };
                if pick(rng, 2) == 0 {
                    line.reverse();
                }
                let digits: Vec<u8> = line.iter().map(|&c| sol[c as usize]).collect();
                match pick(rng, 3) {
                    0 => {
                        let a = digits.iter().position(|&d| d == 1).unwrap();
                        let z = digits.iter().position(|&d| d == n as u8).unwrap();
                        let (a, z) = (a.min(z), a.max(z));
                        let total = digits[a + 1..z].iter().map(|&d| i64::from(d)).sum();
                        props.push(Propagator::Sandwich(Sandwich {
                            line,
                            total: fudge(rng, total),
                        }));
                    }
                    1 => {
                        let x = digits[0] as usize;
                        let total = digits[..x].iter().map(|&d| i64::from(d)).sum();
                        props.push(Propagator::XSum(XSum {
                            line,
                            total: fudge(rng, total),
                        }));
                    }
                    _ => {
                        let (mut top, mut seen) = (0, 0i64);
                        for &d in &digits {
                            if d > top {
                                top = d;
                                seen += 1;
                            }
                        }
                        props.push(Propagator::Skyscraper(Skyscraper {
                            line,
                            clue: fudge(rng, seen).clamp(1, n as i64) as u32,
                        }));
                    }
                }
            }
            _ => {
                let (r, c) = (pick(rng, n - 1), pick(rng, n - 1));
                let cells = vec![at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)];
                let k = 1 + pick(rng, 4);
                let mut digits: Vec<(u64, usize)> = Vec::new();
                for &cell in &cells[..k] {
                    let bit = if honest {
                        1u64 << (sol[cell as usize] - 1)
                    } else {
                        1u64 << pick(rng, n)
                    };
                    match digits.iter_mut().find(|(b, _)| *b == bit) {
                        Some(entry) => entry.1 += 1,
                        None => digits.push((bit, 1)),
                    }
                }
                props.push(Propagator::Quadruple(Quadruple {
                    cells,
                    digits,
                    listed: k,
                }));
            }
        }
        props
    }

    #[test]
    fn counts_match_brute_force_on_4x4_and_6x6() {
        let mut rng = Rng::new(7);
        let four = BoxShape::new(2, 2).unwrap();
        let mut all4 = Vec::new();
        classic_completions(four, &mut vec![0; 16], &mut all4);
        assert_eq!(all4.len(), 288);
        for round in 0..1500 {
            let (shape, sol) = if round % 4 == 3 {
                let six = BoxShape::new(2, 3).unwrap();
                (six, random_solution(six, &mut rng))
            } else {
                (four, all4[rng.below(288) as usize].clone())
            };
            let n = shape.size();
            let mut pairs = Vec::new();
            let mut props = draw(shape, &sol, &mut rng, &mut pairs);
            props.extend(draw(shape, &sol, &mut rng, &mut pairs));
            // Givens: none on 4x4, enough on 6x6 that brute force stays small.
            let mut cells = vec![0u8; n * n];
            if n == 6 {
                for _ in 0..18 {
                    let c = rng.below(36) as usize;
                    cells[c] = sol[c];
                }
            }
            let mut pool = Vec::new();
            if n == 4 {
                pool = all4.clone();
            } else {
                classic_completions(shape, &mut cells.clone(), &mut pool);
            }
            let want: Vec<Vec<u8>> = pool
                .into_iter()
                .filter(|g| props.iter().all(|p| p.holds(g)) && pairs.iter().all(|p| p.holds(g)))
                .collect();
            let (got, found) = engine_count(shape, props.clone(), pairs.clone(), &cells);
            assert_eq!(got, want.len() as u64, "round {round}: {props:?} {pairs:?}");
            let mut found = found;
            found.sort();
            let mut want = want;
            want.sort();
            assert_eq!(found, want, "round {round}");
        }
    }
}
