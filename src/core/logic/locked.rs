//! Locked candidates: pointing (a box's places for a digit in one line) and claiming (a line's
//! places for a digit in one box). Boxes may be rectangular: a box is `rows x cols` cells.

use super::engine::Context;
use super::step::{elimination_cells, Step, Technique, UnitRef};

/// Fills the step's eliminations: `digit` from the cells of unit `target` that are not in unit
/// `keep` and still have it. Returns whether there were any.
fn eliminate_outside(
    ctx: &Context<'_>,
    step: &mut Step,
    target: usize,
    keep: usize,
    digit: u8,
) -> bool {
    let cands = ctx.cands;
    let layout = cands.layout();
    for &cell in layout.unit(target) {
        let cell = cell as usize;
        if cands.has(cell, digit) && !layout.units_of(cell).contains(&(keep as u16)) {
            let (r, c) = ctx.rc(cell);
            step.eliminations.push((r, c, digit));
        }
    }
    !step.eliminations.is_empty()
}

/// The cells of unit `u` where `digit` is a candidate.
fn pattern_cells(ctx: &Context<'_>, step: &mut Step, u: usize, digit: u8) {
    let places = ctx.cands.places(u, digit);
    for (k, &cell) in ctx.cands.layout().unit(u).iter().enumerate() {
        if places >> k & 1 != 0 {
            step.cells.push(ctx.rc(cell as usize));
        }
    }
}

/// A digit whose places in a box all lie in one row or column leaves the rest of that line.
pub fn pointing(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let shape = cands.shape();
    let (br, bc) = (shape.rows(), shape.cols());
    let box_row = |k: usize| ((1u64 << bc) - 1) << (k * bc);
    // Positions k, k+bc, k+2bc, ...: one column of the box.
    let box_col = |k: usize| (0..br).fold(0u64, |m, i| m | 1 << (i * bc + k));
    for b in 2 * n..3 * n {
        for digit in 1..=n as u8 {
            let places = cands.places(b, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let first = cands.layout().unit(b)[places.trailing_zeros() as usize] as usize;
            let [row, col, _] = cands.layout().units_of(first).map(usize::from);
            let p = places.trailing_zeros() as usize;
            let line = if places & !box_row(p / bc) == 0 {
                row
            } else if places & !box_col(p % bc) == 0 {
                col
            } else {
                continue;
            };
            let mut step = Step::new(Technique::Pointing);
            if !eliminate_outside(ctx, &mut step, line, b, digit) {
                continue;
            }
            pattern_cells(ctx, &mut step, b, digit);
            let (bk, bi) = ctx.unit_ref(b);
            let (lk, li) = ctx.unit_ref(line);
            step.units = vec![(bk, bi), (lk, li)];
            step.digits = 1 << (digit - 1);
            step.text = ctx.say(format_args!(
                "Pointing: in {}, {digit} can only go in {}, so {digit} is removed from {}",
                UnitRef(bk, bi),
                UnitRef(lk, li),
                elimination_cells(&step.eliminations)
            ));
            return Some(step);
        }
    }
    None
}

/// A digit whose places in a row or column all lie in one box leaves the rest of the box.
pub fn claiming(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let shape = cands.shape();
    for line in 0..2 * n {
        // Along a row the boxes are `cols` wide; along a column `rows` tall.
        let width = if line < n { shape.cols() } else { shape.rows() };
        for digit in 1..=n as u8 {
            let places = cands.places(line, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let p = places.trailing_zeros() as usize;
            let segment = ((1u64 << width) - 1) << (p / width * width);
            if places & !segment != 0 {
                continue;
            }
            let first = cands.layout().unit(line)[p] as usize;
            let b = cands.layout().box_of(first);
            let mut step = Step::new(Technique::Claiming);
            if !eliminate_outside(ctx, &mut step, b, line, digit) {
                continue;
            }
            pattern_cells(ctx, &mut step, line, digit);
            let (lk, li) = ctx.unit_ref(line);
            let (bk, bi) = ctx.unit_ref(b);
            step.units = vec![(lk, li), (bk, bi)];
            step.digits = 1 << (digit - 1);
            step.text = ctx.say(format_args!(
                "Claiming: in {}, {digit} can only go in {}, so {digit} is removed from {}",
                UnitRef(lk, li),
                UnitRef(bk, bi),
                elimination_cells(&step.eliminations)
            ));
            return Some(step);
        }
    }
    None
}
