//! Singles: full house, hidden single, naked single.

use super::engine::Context;
use super::step::{CellRef, Step, Technique, UnitRef};

/// Units in the order a person scans them: boxes, then rows, then columns.
pub fn scan_order(n: usize) -> impl Iterator<Item = usize> {
    (2 * n..3 * n).chain(0..2 * n)
}

fn placement(ctx: &Context<'_>, technique: Technique, cell: usize, digit: u8) -> Step {
    let (r, c) = ctx.rc(cell);
    let mut step = Step::new(technique);
    step.placements.push((r, c, digit));
    step.cells.push((r, c));
    step.digits = 1 << (digit - 1);
    step
}

/// The last empty cell of a unit.
pub fn full_house(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    for u in scan_order(n) {
        let missing = super::candidates::full_mask(n) & !cands.placed_in(u);
        if missing.count_ones() != 1 {
            continue;
        }
        let digit = missing.trailing_zeros() as u8 + 1;
        let Some(&cell) = cands
            .layout()
            .unit(u)
            .iter()
            .find(|&&cell| cands.value(cell as usize) == 0)
        else {
            continue;
        };
        let cell = cell as usize;
        if !cands.has(cell, digit) {
            continue; // a contradiction, not a step
        }
        let mut step = placement(ctx, Technique::FullHouse, cell, digit);
        let (kind, index) = ctx.unit_ref(u);
        step.units.push((kind, index));
        let (r, c) = ctx.rc(cell);
        step.text = ctx.say(format_args!(
            "Full house: {} is the last empty cell in {}, so it is {digit}",
            CellRef(r, c),
            UnitRef(kind, index)
        ));
        return Some(step);
    }
    None
}

/// A digit with one place left in a unit.
pub fn hidden_single(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    for u in scan_order(n) {
        for digit in 1..=n as u8 {
            let places = cands.places(u, digit);
            if places.count_ones() != 1 {
                continue;
            }
            let cell = cands.layout().unit(u)[places.trailing_zeros() as usize] as usize;
            let mut step = placement(ctx, Technique::HiddenSingle, cell, digit);
            let (kind, index) = ctx.unit_ref(u);
            step.units.push((kind, index));
            let (r, c) = ctx.rc(cell);
            step.text = ctx.say(format_args!(
                "Hidden single: {digit} in {} can only go in {}",
                UnitRef(kind, index),
                CellRef(r, c)
            ));
            return Some(step);
        }
    }
    None
}

/// A cell with one candidate left.
pub fn naked_single(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let cell = cands.masks().iter().position(|m| m.count_ones() == 1)?;
    let digit = cands.mask(cell).trailing_zeros() as u8 + 1;
    let mut step = placement(ctx, Technique::NakedSingle, cell, digit);
    let (r, c) = ctx.rc(cell);
    step.text = ctx.say(format_args!(
        "Naked single: {} can only be {digit}",
        CellRef(r, c)
    ));
    Some(step)
}
