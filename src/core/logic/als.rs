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

/// A set of cells as `W` bit words: 2 words hold a 9x9 grid, so the pair loop below is a few
/// register operations per pair there; larger grids take more words.
type Cells<const W: usize> = [u64; W];

fn set_bit<const W: usize>(set: &mut Cells<W>, cell: usize) {
    set[cell / 64] |= 1 << (cell % 64);
}

fn cells_of<const W: usize>(set: &Cells<W>) -> impl Iterator<Item = usize> + '_ {
    set.iter()
        .enumerate()
        .flat_map(|(w, &word)| bits(word).map(move |b| w * 64 + b))
}

pub fn als_xz(ctx: &Context<'_>) -> Option<Step> {
    let words = (ctx.n() * ctx.n()).div_ceil(64);
    match words {
        0..=2 => find::<2>(ctx),
        3..=4 => find::<4>(ctx),
        5..=10 => find::<10>(ctx),
        11..=16 => find::<16>(ctx),
        17..=36 => find::<36>(ctx),
        _ => find::<64>(ctx),
    }
}

fn find<const W: usize>(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    let cells = n * n;
    let sets = all_als(ctx);
    // Per cell its peers; per digit the cells holding it.
    let mut peers: Vec<Cells<W>> = vec![[0; W]; cells];
    for (cell, row) in peers.iter_mut().enumerate() {
        for u in layout.units_of(cell) {
            for &other in layout.unit(u as usize) {
                if other as usize != cell {
                    set_bit(row, other as usize);
                }
            }
        }
    }
    let mut holders: Vec<Cells<W>> = vec![[0; W]; n];
    for cell in 0..cells {
        for d in bits(cands.mask(cell)) {
            set_bit(&mut holders[d], cell);
        }
    }
    // Per ALS: its cells, digits and size side by side (the pair loop reads only these); per
    // ALS and digit: the cells holding it, and the cells seeing all of those.
    let digits: Vec<u64> = sets.iter().map(|a| a.digits).collect();
    let sizes: Vec<usize> = sets.iter().map(|a| a.cells.len()).collect();
    let mut members: Vec<Cells<W>> = vec![[0; W]; sets.len()];
    let mut with: Vec<Cells<W>> = vec![[0; W]; sets.len() * n];
    let mut seeing: Vec<Cells<W>> = vec![[0; W]; sets.len() * n];
    for (i, als) in sets.iter().enumerate() {
        for &cell in &als.cells {
            set_bit(&mut members[i], cell);
        }
        for d in bits(als.digits) {
            let row = i * n + d;
            seeing[row] = [u64::MAX; W];
            for &cell in &als.cells {
                if cands.mask(cell) >> d & 1 != 0 {
                    set_bit(&mut with[row], cell);
                    for w in 0..W {
                        seeing[row][w] &= peers[cell][w];
                    }
                }
            }
        }
    }
    // Per ALS the digits z that some cell outside it could lose (it sees every z of the set):
    // a pair removes something only through a common digit both sets have there.
    let reach: Vec<u64> = (0..sets.len())
        .map(|i| {
            bits(digits[i])
                .filter(|&z| (0..W).any(|w| seeing[i * n + z][w] & holders[z][w] != 0))
                .fold(0u64, |m, z| m | 1 << z)
        })
        .collect();
    // The pair with the fewest cells; among equals the first found (i, then j, then x).
    let mut best: Option<(usize, Step)> = None;
    for i in 0..sets.len() {
        let best_size = best.as_ref().map_or(usize::MAX, |(s, _)| *s);
        if sizes[i] + 1 >= best_size {
            continue;
        }
        for j in i + 1..sets.len() {
            let common = digits[i] & digits[j];
            if common.count_ones() < 2 || common & reach[i] & reach[j] == 0 {
                continue;
            }
            let size = sizes[i] + sizes[j];
            if best.as_ref().is_some_and(|(s, _)| *s <= size) {
                continue;
            }
            if (0..W).any(|w| members[i][w] & members[j][w] != 0) {
                continue;
            }
            for x in bits(common) {
                // Restricted: every x of B sees every x of A.
                let (bx, sa) = (&with[j * n + x], &seeing[i * n + x]);
                if (0..W).any(|w| bx[w] & !sa[w] != 0) {
                    continue;
                }
                let mut step = Step::new(Technique::AlsXz);
                for z in bits(common & !(1 << x)) {
                    let (sa, sb) = (&seeing[i * n + z], &seeing[j * n + z]);
                    let mut removed: Cells<W> = [0; W];
                    for w in 0..W {
                        removed[w] = sa[w] & sb[w] & holders[z][w];
                    }
                    for cell in cells_of(&removed) {
                        let (r, c) = ctx.rc(cell);
                        step.eliminations.push((r, c, z as u8 + 1));
                    }
                }
                if step.eliminations.is_empty() {
                    continue;
                }
                describe(ctx, &mut step, x as u8 + 1, &sets[i], &sets[j]);
                best = Some((size, step));
                break;
            }
        }
    }
    best.map(|(_, step)| step)
}

/// The cells, digits, units and sentence of a step found for sets `a` and `b` with the
/// restricted common digit `x`.
fn describe(ctx: &Context<'_>, step: &mut Step, x: u8, a: &Als, b: &Als) {
    let mut cells = a.cells.clone();
    cells.extend(&b.cells);
    finish(ctx, step, &cells, a.digits | b.digits);
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
}
