//! The variant engine's constraints as propagators over candidate masks.
//!
//! A [`Board`] is one level of the variant engine's state: a candidate mask per cell (a placed
//! cell keeps just its digit's bit) and the digits placed. Rules that forbid equal digits on
//! pairs of cells are not propagators: they are the layout's peers, struck when a digit is
//! placed. Every other constraint is one [`Propagator`]: it reads the masks of its cells and
//! narrows them (never widening), or reports that no completion exists; [`Propagator::holds`]
//! checks it on a complete grid. Each propagator is sound (it removes only digits no
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
    #[allow(dead_code)]
    pub fn narrow(&mut self, cell: usize, keep: u64) -> Option<bool> {
        let m = self.cand[cell];
        let left = m & keep;
        if left == 0 {
            return None;
        }
        self.cand[cell] = left;
        Some(left != m)
    }
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
}

impl Propagator {
    /// Narrows its cells' masks: `None` when no completion exists, else whether anything went
    /// (or was placed).
    #[inline]
    pub fn propagate(&self, board: &mut Board<'_>) -> Option<bool> {
        match self {
            Propagator::Cage(cage) => cage.propagate(board),
        }
    }

    /// Whether a complete grid meets it.
    pub fn holds(&self, value: &[u8]) -> bool {
        match self {
            Propagator::Cage(cage) => cage.holds(value),
        }
    }
}

/// A killer cage with a total: the digit sets that add up to it (its cells are a group of the
/// layout, so they are distinct already).
#[derive(Clone, Debug)]
pub(crate) struct Cage {
    pub cells: Vec<u16>,
    pub total: u32,
    pub table: CageTable,
}

impl Cage {
    pub fn new(cells: Vec<u16>, total: u32, n: usize) -> Self {
        let table = CageTable::new(cells.len(), total, n);
        Cage {
            cells,
            total,
            table,
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
        let allowed = self
            .table
            .allowed(self.total, placed, sum, open_cells, avail)?;
        let mut progress = false;
        for &c in &self.cells {
            let c = c as usize;
            if b.value[c] == 0 {
                let m = b.cand[c] & allowed.any;
                if m == 0 {
                    return None;
                }
                if m != b.cand[c] {
                    b.cand[c] = m;
                    progress = true;
                }
            }
        }
        // A digit every remaining set needs, with one open cell left for it.
        let mut needed = allowed.needed;
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
