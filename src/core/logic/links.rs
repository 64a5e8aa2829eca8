//! What the advanced techniques share: strong links (conjugate pairs), the cells that see a
//! set of cells, and the parts of a step every pattern fills the same way.
//!
//! A strong link on a digit is a unit where the digit has exactly two places: one of the two
//! cells holds it. A weak link is two candidates that cannot both be true (the same digit in
//! two cells that see each other, or two digits of one cell).

use super::engine::Context;
use super::step::{and_list, CellRef, Step};

/// A conjugate pair: `digit` has only the two places `a` and `b` in `unit`.
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    pub unit: usize,
}

/// The strong links of `digit`, by unit (rows, columns, boxes); a pair of cells that is a
/// conjugate pair in two units (a row and a box) is listed once, under the first.
pub fn strong_links(ctx: &Context<'_>, digit: u8) -> Vec<Link> {
    let mut out: Vec<Link> = Vec::new();
    for u in 0..3 * ctx.n() {
        let Some((a, b)) = ctx.cands.pair_in(u, digit) else {
            continue;
        };
        if out.iter().any(|l| l.a == a && l.b == b) {
            continue;
        }
        out.push(Link { a, b, unit: u });
    }
    out
}

/// The empty cells holding `digit`, row-major.
pub fn cells_with(ctx: &Context<'_>, digit: u8) -> Vec<usize> {
    let cands = ctx.cands;
    (0..ctx.n() * ctx.n())
        .filter(|&cell| cands.has(cell, digit))
        .collect()
}

/// Eliminations of `digit` from every cell that holds it and sees all of `seen` (and is none
/// of them), appended to `step`; returns how many.
pub fn eliminate_seeing(ctx: &Context<'_>, step: &mut Step, digit: u8, seen: &[usize]) -> usize {
    let cands = ctx.cands;
    let layout = cands.layout();
    let Some(&first) = seen.first() else {
        return 0;
    };
    let before = step.eliminations.len();
    // Every cell seeing all of `seen` is a peer of the first: walk its three units.
    for u in layout.units_of(first) {
        for &cell in layout.unit(u as usize) {
            let cell = cell as usize;
            if !cands.has(cell, digit) || seen.contains(&cell) {
                continue;
            }
            if seen.iter().all(|&s| layout.sees(cell, s)) {
                let (r, c) = ctx.rc(cell);
                if !step.eliminations.contains(&(r, c, digit)) {
                    step.eliminations.push((r, c, digit));
                }
            }
        }
    }
    step.eliminations.len() - before
}

/// `r1c2, r3c4 and r5c6`.
pub fn cell_names(ctx: &Context<'_>, cells: &[usize]) -> String {
    and_list(cells.iter().map(|&cell| {
        let (r, c) = ctx.rc(cell);
        CellRef(r, c)
    }))
}

/// `r1c2`.
pub fn cell_name(ctx: &Context<'_>, cell: usize) -> CellRef {
    let (r, c) = ctx.rc(cell);
    CellRef(r, c)
}

/// Sorts the eliminations and fills the cells (sorted, each once) and digits of a step.
pub fn finish(ctx: &Context<'_>, step: &mut Step, cells: &[usize], digits: u64) {
    step.eliminations.sort_unstable();
    step.eliminations.dedup();
    let mut rc: Vec<(usize, usize)> = cells.iter().map(|&c| ctx.rc(c)).collect();
    rc.sort_unstable();
    rc.dedup();
    step.cells = rc;
    step.digits = digits;
}

/// Adds a unit (by index) to the step's units, once.
pub fn add_unit(ctx: &Context<'_>, step: &mut Step, u: usize) {
    let r = ctx.unit_ref(u);
    if !step.units.contains(&r) {
        step.units.push(r);
    }
}
