//! The classic grid's [`Net`]: one 81-bit board per digit, so a naked-single pass is nine
//! word operations and a hidden-single look at a unit is one mask and one count. Forcing
//! chains follow every candidate's assumption (and, nested, every candidate inside each), so
//! this is where most of their time goes.

use std::sync::OnceLock;

use super::net::{Clash, Net};

/// The 81 cells.
const ALL: u128 = (1 << 81) - 1;

struct Tables9 {
    /// Per cell, its 20 peers.
    peers: [u128; 81],
    /// Per unit (rows, columns, boxes), its cells.
    units: [u128; 27],
    /// Per cell, its three units as bits of a 27-bit mask.
    cell_units: [u32; 81],
}

fn tables() -> &'static Tables9 {
    static TABLES: OnceLock<Tables9> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut units = [0u128; 27];
        let mut cell_units = [0u32; 81];
        for (cell, mine) in cell_units.iter_mut().enumerate() {
            let (r, c) = (cell / 9, cell % 9);
            let b = (r / 3) * 3 + c / 3;
            for u in [r, 9 + c, 18 + b] {
                units[u] |= 1 << cell;
                *mine |= 1 << u;
            }
        }
        let mut peers = [0u128; 81];
        for (cell, p) in peers.iter_mut().enumerate() {
            let mut us = cell_units[cell];
            while us != 0 {
                *p |= units[us.trailing_zeros() as usize];
                us &= us - 1;
            }
            *p &= !(1 << cell);
        }
        Tables9 {
            peers,
            units,
            cell_units,
        }
    })
}

/// Candidates as one board per digit.
#[derive(Clone)]
pub struct Probe9 {
    t: &'static Tables9,
    /// `boards[d]`: the cells where digit `d+1` is a candidate (a decided cell keeps its own).
    boards: [u128; 9],
    /// Cells whose digit is known and gone from their peers.
    solved: u128,
    /// Each board as its hidden singles were last looked at: only units where it changed since
    /// are looked at again.
    seen: [u128; 9],
}

impl Probe9 {
    pub fn new() -> Probe9 {
        Probe9 {
            t: tables(),
            boards: [0; 9],
            solved: 0,
            seen: [0; 9],
        }
    }

    fn propagate(&mut self) -> Result<(), Clash> {
        let t = self.t;
        loop {
            // Naked singles, until there are none.
            loop {
                let (mut once, mut twice) = (0u128, 0u128);
                for &b in &self.boards {
                    twice |= once & b;
                    once |= b;
                }
                let empty = ALL & !once;
                if empty != 0 {
                    return Err(Clash::Cell(empty.trailing_zeros() as usize));
                }
                let mut singles = once & !twice & !self.solved;
                if singles == 0 {
                    break;
                }
                while singles != 0 {
                    let cell = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let bit = 1u128 << cell;
                    // An earlier single of this pass may have taken the cell's last digit.
                    let Some(d) = (0..9).find(|&d| self.boards[d] & bit != 0) else {
                        return Err(Clash::Cell(cell));
                    };
                    self.solved |= bit;
                    self.boards[d] &= !t.peers[cell];
                }
            }
            // Hidden singles, and digits with no place, in the units where a board changed.
            let mut placed = false;
            for d in 0..9 {
                let b = self.boards[d];
                let mut changed = b ^ self.seen[d];
                if changed == 0 {
                    continue;
                }
                self.seen[d] = b;
                let mut units = 0u32;
                while changed != 0 {
                    units |= t.cell_units[changed.trailing_zeros() as usize];
                    changed &= changed - 1;
                }
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    let x = b & t.units[u];
                    if x == 0 {
                        return Err(Clash::Unit(u, d as u8 + 1));
                    }
                    if x & (x - 1) == 0 && x & self.solved == 0 {
                        for (e, other) in self.boards.iter_mut().enumerate() {
                            if e != d {
                                *other &= !x;
                            }
                        }
                        placed = true;
                    }
                }
            }
            if !placed {
                return Ok(());
            }
        }
    }
}

impl Net for Probe9 {
    fn load(&mut self, base: &[u64], done: &[bool]) {
        self.boards = [0; 9];
        self.solved = 0;
        for (cell, (&m, &d)) in base.iter().zip(done).enumerate() {
            let bit = 1u128 << cell;
            let mut m = m;
            while m != 0 {
                self.boards[m.trailing_zeros() as usize] |= bit;
                m &= m - 1;
            }
            if d {
                self.solved |= bit;
            }
        }
        // The current marks have no singles left to find (the singles techniques come first);
        // looking again starts from what an assumption changes.
        self.seen = self.boards;
    }

    fn copy_from(&mut self, other: &Self) {
        self.clone_from(other);
    }

    fn assume(&mut self, cell: usize, digit: u8) -> Result<(), Clash> {
        let keep = !(1u128 << cell);
        for (e, b) in self.boards.iter_mut().enumerate() {
            if e + 1 != digit as usize {
                *b &= keep;
            }
        }
        self.propagate()
    }

    fn remove(&mut self, cell: usize, digit: u8) -> Result<(), Clash> {
        self.boards[digit as usize - 1] &= !(1u128 << cell);
        self.propagate()
    }

    fn open(&self, cell: usize) -> u64 {
        if self.solved >> cell & 1 != 0 {
            return 0;
        }
        self.boards
            .iter()
            .enumerate()
            .fold(0, |m, (d, &b)| m | ((b >> cell) as u64 & 1) << d)
    }

    fn masks(&self) -> Vec<u64> {
        let mut out = vec![0u64; 81];
        for (d, &b) in self.boards.iter().enumerate() {
            let mut b = b;
            while b != 0 {
                out[b.trailing_zeros() as usize] |= 1 << d;
                b &= b - 1;
            }
        }
        out
    }
}
