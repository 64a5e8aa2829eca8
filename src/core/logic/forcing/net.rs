//! Following an assumption by singles: the [`Net`] a forcing chain propagates through, and
//! [`Probe`], the one for every size and box shape ([`super::net9::Probe9`] is the classic
//! grid's bitboard one).
//!
//! Both compute the same thing: naked and hidden singles applied until nothing changes. Those
//! deductions only ever remove candidates and each stays valid when more are removed, so the
//! end (the candidates left, or whether some cell or unit runs out) does not depend on the
//! order they are applied in; only which clash is met first (and so what a contradiction
//! step's sentence names) may.

use super::super::candidates::full_mask;

/// Why an assumption failed.
#[derive(Clone, Copy, Debug)]
pub enum Clash {
    /// A cell has no candidate left.
    Cell(usize),
    /// A digit (1-based) has no place left in a unit.
    Unit(usize, u8),
}

/// A scratch grid that singles propagate through.
pub trait Net {
    /// Starts from the current marks: per cell its candidates, or its digit's bit when placed
    /// (a placed cell is `done`: its digit is already gone from its peers).
    fn load(&mut self, base: &[u64], done: &[bool]);
    /// Becomes a copy of `other`, a fixed point of singles.
    fn copy_from(&mut self, other: &Self);
    /// Sets `cell` to `digit` and follows singles; `Err` on a contradiction.
    fn assume(&mut self, cell: usize, digit: u8) -> Result<(), Clash>;
    /// Removes `digit` from `cell` and follows singles.
    fn remove(&mut self, cell: usize, digit: u8) -> Result<(), Clash>;
    /// The candidates of a cell not yet decided (0 once its digit is known and propagated).
    fn open(&self, cell: usize) -> u64;
    /// Per cell its candidates (a decided cell: its digit's bit).
    fn masks(&self) -> Vec<u64>;
}

/// The fixed tables of one shape: peers and units as cell lists.
pub struct Tables {
    n: usize,
    peers: Vec<Vec<u16>>,
    units: Vec<Vec<u16>>,
    cell_units: Vec<[u16; 3]>,
}

impl Tables {
    pub fn new(layout: &super::super::candidates::Layout) -> Tables {
        let n = layout.n;
        let units: Vec<Vec<u16>> = (0..3 * n).map(|u| layout.unit(u).to_vec()).collect();
        let peers = (0..n * n)
            .map(|cell| {
                let mut p: Vec<u16> = layout
                    .units_of(cell)
                    .iter()
                    .flat_map(|&u| units[u as usize].iter().copied())
                    .filter(|&x| x as usize != cell)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let cell_units = (0..n * n).map(|cell| layout.units_of(cell)).collect();
        Tables {
            n,
            peers,
            units,
            cell_units,
        }
    }
}

/// Per-cell candidate masks with a queue of decided cells and a list of units to look at
/// for hidden singles: every size and box shape.
pub struct Probe<'t> {
    t: &'t Tables,
    masks: Vec<u64>,
    /// Cells whose digit has been removed from their peers.
    done: Vec<bool>,
    queue: Vec<u16>,
    /// Units whose cells changed since their hidden singles were last looked for.
    dirty: Vec<bool>,
    dirty_list: Vec<u16>,
}

impl<'t> Probe<'t> {
    pub fn new(t: &'t Tables) -> Probe<'t> {
        let cells = t.n * t.n;
        Probe {
            t,
            masks: vec![0; cells],
            done: vec![false; cells],
            queue: Vec::new(),
            dirty: vec![false; 3 * t.n],
            dirty_list: Vec::new(),
        }
    }

    /// Marks the units of `cell` for a hidden-single look.
    #[inline]
    fn touch(&mut self, cell: usize) {
        for u in self.t.cell_units[cell] {
            if !self.dirty[u as usize] {
                self.dirty[u as usize] = true;
                self.dirty_list.push(u);
            }
        }
    }

    fn propagate(&mut self) -> Result<(), Clash> {
        let full = full_mask(self.t.n);
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = cell as usize;
                if self.done[cell] {
                    continue;
                }
                self.done[cell] = true;
                let bit = self.masks[cell];
                let t = self.t;
                for &p in &t.peers[cell] {
                    let p = p as usize;
                    let m = self.masks[p];
                    if m & bit != 0 {
                        let m = m & !bit;
                        self.masks[p] = m;
                        if m == 0 {
                            return Err(Clash::Cell(p));
                        }
                        if m & (m - 1) == 0 {
                            self.queue.push(p as u16);
                        }
                        self.touch(p);
                    }
                }
            }
            // Hidden singles, and digits with no place, in the units that changed.
            let Some(u) = self.dirty_list.pop() else {
                return Ok(());
            };
            let u = u as usize;
            self.dirty[u] = false;
            let unit = &self.t.units[u];
            let (mut once, mut twice) = (0u64, 0u64);
            for &cell in unit {
                let m = self.masks[cell as usize];
                twice |= once & m;
                once |= m;
            }
            if once != full {
                let d = (full & !once).trailing_zeros() as u8 + 1;
                return Err(Clash::Unit(u, d));
            }
            let mut single = once & !twice;
            while single != 0 {
                let bit = single & single.wrapping_neg();
                single &= single - 1;
                for &cell in unit {
                    let cell = cell as usize;
                    if self.masks[cell] & bit != 0 {
                        if self.masks[cell] != bit {
                            self.masks[cell] = bit;
                            self.queue.push(cell as u16);
                            self.touch(cell);
                        }
                        break;
                    }
                }
            }
        }
    }
}

impl Net for Probe<'_> {
    fn load(&mut self, base: &[u64], done: &[bool]) {
        self.masks.copy_from_slice(base);
        self.done.copy_from_slice(done);
        self.queue.clear();
        self.dirty.fill(false);
        self.dirty_list.clear();
    }

    fn copy_from(&mut self, other: &Self) {
        self.load(&other.masks, &other.done);
    }

    fn assume(&mut self, cell: usize, digit: u8) -> Result<(), Clash> {
        self.masks[cell] = 1 << (digit - 1);
        self.queue.push(cell as u16);
        self.touch(cell);
        self.propagate()
    }

    fn remove(&mut self, cell: usize, digit: u8) -> Result<(), Clash> {
        self.masks[cell] &= !(1 << (digit - 1));
        self.touch(cell);
        match self.masks[cell].count_ones() {
            0 => return Err(Clash::Cell(cell)),
            1 => self.queue.push(cell as u16),
            _ => {}
        }
        self.propagate()
    }

    fn open(&self, cell: usize) -> u64 {
        if self.done[cell] {
            0
        } else {
            self.masks[cell]
        }
    }

    fn masks(&self) -> Vec<u64> {
        self.masks.clone()
    }
}
