//! ALS-XZ, for every size and box shape.
//!
//! An almost locked set (ALS) is `k` empty cells of one unit holding `k + 1` digits together:
//! take any one digit away and the rest is locked. Two disjoint ALSs A and B with a restricted
//! common digit x (every x of A sees every x of B, so at most one of them holds x): one of
//! them is then locked without x. For any other common digit z, A or B holds z, so z leaves
//! every cell that sees all the z cells of both.

use std::collections::HashSet;

use super::engine::Context;
use super::links::{cell_names, finish};
use super::step::{bits, digit_list, elimination_cells, Step, Technique, UnitRef};

/// The largest ALS looked for, in cells.
const MAX_CELLS: usize = 5;

struct Als {
    unit: usize,
    cells: Vec<usize>,
    digits: u64,
}

/// Every ALS, unit by unit (rows, columns, boxes), smallest first within a unit; a set of cells
/// found in two units is kept once.
fn all_als(ctx: &Context<'_>) -> Vec<Als> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    let mut out: Vec<Als> = Vec::new();
    let mut known: HashSet<Vec<usize>> = HashSet::new();
    for u in 0..3 * n {
        let empty: Vec<usize> = layout
            .unit(u)
            .iter()
            .map(|&x| x as usize)
            .filter(|&x| cands.mask(x) != 0)
            .collect();
        let m = empty.len();
        // Subsets by bitmask over the unit's empty cells (at most 2^m; MAX_CELLS bounds it).
        let mut found: Vec<(u32, u64)> = Vec::new();
        let limit = MAX_CELLS.min(m.saturating_sub(1));
        let mut stack: Vec<(usize, u64, u64, u32)> = vec![(0, 0, 0, 0)];
        while let Some((from, set, digits, size)) = stack.pop() {
            if size > 0 && digits.count_ones() == size + 1 {
                found.push((size, set));
            }
            if size as usize == limit {
                continue;
            }
            for i in (from..m).rev() {
                let d = digits | cands.mask(empty[i]);
                if d.count_ones() as usize <= limit + 1 {
                    stack.push((i + 1, set | 1 << i, d, size + 1));
                }
            }
        }
        found.sort_by_key(|&(size, set)| (size, set.reverse_bits()));
        for (_, set) in found {
            let cells: Vec<usize> = bits(set).map(|i| empty[i]).collect();
            if !known.insert(cells.clone()) {
                continue;
            }
            let digits = cells.iter().fold(0, |m, &x| m | cands.mask(x));
            out.push(Als {
                unit: u,
                cells,
                digits,
            });
        }
    }
    out
}

/// Cell sets as rows of `words` bit words in one flat arena (any grid size).
struct Sets {
    words: usize,
    data: Vec<u64>,
}

impl Sets {
    fn new(words: usize, rows: usize) -> Sets {
        Sets {
            words,
            data: vec![0; words * rows],
        }
    }

    fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.words..(i + 1) * self.words]
    }

    fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.words..(i + 1) * self.words]
    }
}

fn set_bit(row: &mut [u64], cell: usize) {
    row[cell / 64] |= 1 << (cell % 64);
}

fn cells_of(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter()
        .enumerate()
        .flat_map(|(w, &word)| bits(word).map(move |b| w * 64 + b))
}

pub fn als_xz(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    let cells = n * n;
    let words = cells.div_ceil(64);
    let sets = all_als(ctx);
    // Per cell its peers; per digit the cells holding it.
    let mut peers = Sets::new(words, cells);
    for cell in 0..cells {
        for u in layout.units_of(cell) {
            for &other in layout.unit(u as usize) {
                if other as usize != cell {
                    set_bit(peers.row_mut(cell), other as usize);
                }
            }
        }
    }
    let mut holders = Sets::new(words, n);
    for cell in 0..cells {
        for d in bits(cands.mask(cell)) {
            set_bit(holders.row_mut(d), cell);
        }
    }
    // Per ALS: its cells; per ALS and digit: the cells holding it, and the cells seeing all of
    // those.
    let mut members = Sets::new(words, sets.len());
    let mut with = Sets::new(words, sets.len() * n);
    let mut seeing = Sets::new(words, sets.len() * n);
    for (i, als) in sets.iter().enumerate() {
        for &cell in &als.cells {
            set_bit(members.row_mut(i), cell);
        }
        for d in bits(als.digits) {
            let row = i * n + d;
            seeing.row_mut(row).fill(u64::MAX);
            for &cell in &als.cells {
                if cands.mask(cell) >> d & 1 != 0 {
                    set_bit(with.row_mut(row), cell);
                    for w in 0..words {
                        seeing.data[row * words + w] &= peers.data[cell * words + w];
                    }
                }
            }
        }
    }
    let mut best: Option<(usize, Step)> = None;
    let mut removed = vec![0u64; words];
    for (i, a) in sets.iter().enumerate() {
        for (j, b) in sets.iter().enumerate().skip(i + 1) {
            let common = a.digits & b.digits;
            if common.count_ones() < 2 {
                continue;
            }
            let size = a.cells.len() + b.cells.len();
            if best.as_ref().is_some_and(|(s, _)| *s <= size) {
                continue;
            }
            if members
                .row(i)
                .iter()
                .zip(members.row(j))
                .any(|(x, y)| x & y != 0)
            {
                continue;
            }
            for x in bits(common) {
                // Restricted: every x of B sees every x of A.
                let restricted = with
                    .row(j * n + x)
                    .iter()
                    .zip(seeing.row(i * n + x))
                    .all(|(bx, sa)| bx & !sa == 0);
                if !restricted {
                    continue;
                }
                let mut step = Step::new(Technique::AlsXz);
                for z in bits(common & !(1 << x)) {
                    let (sa, sb) = (seeing.row(i * n + z), seeing.row(j * n + z));
                    for (w, out) in removed.iter_mut().enumerate() {
                        *out = sa[w] & sb[w] & holders.row(z)[w];
                    }
                    for cell in cells_of(&removed) {
                        let (r, c) = ctx.rc(cell);
                        step.eliminations.push((r, c, z as u8 + 1));
                    }
                }
                if step.eliminations.is_empty() {
                    continue;
                }
                let x = x as u8 + 1;
                let mut cells = a.cells.clone();
                cells.extend(&b.cells);
                finish(ctx, &mut step, &cells, a.digits | b.digits);
                let (ua, ub) = (ctx.unit_ref(a.unit), ctx.unit_ref(b.unit));
                step.units = vec![ua, ub];
                if ctx.text {
                    let removed = step
                        .eliminations
                        .iter()
                        .fold(0u64, |m, &(_, _, d)| m | 1 << (d - 1));
                    step.text = format!(
                        "ALS-XZ: {} in {} hold {} and {} in {} hold {}; {x} is a restricted \
                         common digit (every {x} of one set sees every {x} of the other), so one set is locked \
                         without it, and {} leaves {}",
                        cell_names(ctx, &a.cells),
                        UnitRef(ua.0, ua.1),
                        digit_list(a.digits),
                        cell_names(ctx, &b.cells),
                        UnitRef(ub.0, ub.1),
                        digit_list(b.digits),
                        digit_list(removed),
                        elimination_cells(&step.eliminations)
                    );
                }
                best = Some((size, step));
                break;
            }
        }
    }
    best.map(|(_, step)| step)
}
