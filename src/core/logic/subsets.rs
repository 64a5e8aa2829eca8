//! Naked and hidden subsets (pairs, triples, quads) in one unit.
//!
//! Naked: `k` empty cells whose candidates together are `k` digits; those digits leave the
//! unit's other cells. Hidden: `k` digits whose places in a unit together are `k` cells; those
//! cells lose every other digit.

use super::candidates::full_mask;
use super::engine::Context;
use super::singles::scan_order;
use super::step::{and_list, digit_list, elimination_cells, CellRef, Step, Technique, UnitRef};

/// Calls `visit` with every choice of `k` items (indices ascending, the first choices varying
/// slowest) whose masks' union passes `keep` at every depth, and returns the first `Some` it
/// gives. `k` is at most 8.
pub fn first_combo<T>(
    masks: &[u64],
    k: usize,
    keep: &dyn Fn(u64, usize) -> bool,
    visit: &mut dyn FnMut(&[usize], u64) -> Option<T>,
) -> Option<T> {
    if k == 0 || k > 8 || masks.len() < k {
        return None;
    }
    let mut walk = Combos {
        masks,
        k,
        keep,
        visit,
        chosen: [0; 8],
    };
    walk.go(0, 0, 0)
}

struct Combos<'a, T> {
    masks: &'a [u64],
    k: usize,
    keep: &'a dyn Fn(u64, usize) -> bool,
    visit: &'a mut dyn FnMut(&[usize], u64) -> Option<T>,
    chosen: [usize; 8],
}

impl<T> Combos<'_, T> {
    fn go(&mut self, from: usize, depth: usize, union: u64) -> Option<T> {
        if depth == self.k {
            return (self.visit)(&self.chosen[..self.k], union);
        }
        for i in from..self.masks.len() - (self.k - depth - 1) {
            let u = union | self.masks[i];
            if !(self.keep)(u, depth + 1) {
                continue;
            }
            self.chosen[depth] = i;
            if let Some(found) = self.go(i + 1, depth + 1, u) {
                return Some(found);
            }
        }
        None
    }
}

const NAKED: [Technique; 3] = [
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::NakedQuad,
];
const HIDDEN: [Technique; 3] = [
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::HiddenQuad,
];

fn naked(ctx: &Context<'_>, k: usize) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let mut cells = [0usize; 64];
    let mut masks = [0u64; 64];
    for u in scan_order(n) {
        let unit = cands.layout().unit(u);
        // Empty cells that could be part of a subset of size k.
        let mut m = 0;
        let mut empty = 0;
        for &cell in unit {
            let mask = cands.mask(cell as usize);
            if mask != 0 {
                empty += 1;
                if (2..=k).contains(&(mask.count_ones() as usize)) {
                    cells[m] = cell as usize;
                    masks[m] = mask;
                    m += 1;
                }
            }
        }
        if empty <= k {
            continue; // nothing outside the subset to remove from
        }
        let found = first_combo(
            &masks[..m],
            k,
            &|union, _| union.count_ones() as usize <= k,
            &mut |chosen, digits| {
                if digits.count_ones() as usize != k {
                    return None;
                }
                let mut step = Step::new(NAKED[k - 2]);
                for &cell in unit {
                    let cell = cell as usize;
                    if chosen.iter().any(|&i| cells[i] == cell) {
                        continue;
                    }
                    let hit = cands.mask(cell) & digits;
                    let (r, c) = ctx.rc(cell);
                    for d in super::step::bits(hit) {
                        step.eliminations.push((r, c, d as u8 + 1));
                    }
                }
                if step.eliminations.is_empty() {
                    return None;
                }
                step.cells = chosen.iter().map(|&i| ctx.rc(cells[i])).collect();
                step.digits = digits;
                Some(step)
            },
        );
        if let Some(mut step) = found {
            let (kind, index) = ctx.unit_ref(u);
            step.units.push((kind, index));
            step.text = ctx.say(format_args!(
                "{}: {} hold only {} in {}, so they are removed from {}",
                title(step.technique),
                and_list(step.cells.iter().map(|&(r, c)| CellRef(r, c))),
                digit_list(step.digits),
                UnitRef(kind, index),
                elimination_cells(&step.eliminations)
            ));
            return Some(step);
        }
    }
    None
}

fn hidden(ctx: &Context<'_>, k: usize) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let mut digits = [0u8; 64];
    let mut places = [0u64; 64];
    for u in scan_order(n) {
        let unit = cands.layout().unit(u);
        let open = full_mask(n) & !cands.placed_in(u);
        if open.count_ones() as usize <= k {
            continue; // the k digits would fill the unit: no other digit to remove
        }
        let mut m = 0;
        for d in super::step::bits(open) {
            let p = cands.places(u, d as u8 + 1);
            if (2..=k).contains(&(p.count_ones() as usize)) {
                digits[m] = d as u8 + 1;
                places[m] = p;
                m += 1;
            }
        }
        let found = first_combo(
            &places[..m],
            k,
            &|union, _| union.count_ones() as usize <= k,
            &mut |chosen, positions| {
                if positions.count_ones() as usize != k {
                    return None;
                }
                let keep = chosen
                    .iter()
                    .fold(0u64, |acc, &i| acc | 1 << (digits[i] - 1));
                let mut step = Step::new(HIDDEN[k - 2]);
                for p in super::step::bits(positions) {
                    let cell = unit[p] as usize;
                    let (r, c) = ctx.rc(cell);
                    step.cells.push((r, c));
                    for d in super::step::bits(cands.mask(cell) & !keep) {
                        step.eliminations.push((r, c, d as u8 + 1));
                    }
                }
                if step.eliminations.is_empty() {
                    return None;
                }
                step.digits = keep;
                Some(step)
            },
        );
        if let Some(mut step) = found {
            let (kind, index) = ctx.unit_ref(u);
            step.units.push((kind, index));
            step.text = ctx.say(format_args!(
                "{}: in {}, {} can only go in {}, so the other candidates are removed from \
                 those cells: {}",
                title(step.technique),
                UnitRef(kind, index),
                digit_list(step.digits),
                and_list(step.cells.iter().map(|&(r, c)| CellRef(r, c))),
                elimination_cells(&step.eliminations)
            ));
            return Some(step);
        }
    }
    None
}

/// "Naked pair", "Hidden triple", ...
fn title(t: Technique) -> &'static str {
    match t {
        Technique::NakedPair => "Naked pair",
        Technique::NakedTriple => "Naked triple",
        Technique::NakedQuad => "Naked quad",
        Technique::HiddenPair => "Hidden pair",
        Technique::HiddenTriple => "Hidden triple",
        Technique::HiddenQuad => "Hidden quad",
        _ => t.name(),
    }
}

pub fn naked_pair(ctx: &Context<'_>) -> Option<Step> {
    naked(ctx, 2)
}

pub fn naked_triple(ctx: &Context<'_>) -> Option<Step> {
    naked(ctx, 3)
}

pub fn naked_quad(ctx: &Context<'_>) -> Option<Step> {
    naked(ctx, 4)
}

pub fn hidden_pair(ctx: &Context<'_>) -> Option<Step> {
    hidden(ctx, 2)
}

pub fn hidden_triple(ctx: &Context<'_>) -> Option<Step> {
    hidden(ctx, 3)
}

pub fn hidden_quad(ctx: &Context<'_>) -> Option<Step> {
    hidden(ctx, 4)
}
