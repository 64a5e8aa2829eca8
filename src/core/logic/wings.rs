//! Wings: XY-wing, XYZ-wing, W-wing. They work on every size and box shape.
//!
//! - XY-wing: a pivot with candidates {x, y} sees a pincer {x, z} and a pincer {y, z}. Whatever
//!   the pivot is, one pincer is z, so z leaves every cell seeing both pincers.
//! - XYZ-wing: the pivot is {x, y, z}; then the pivot itself may be z too, so z leaves the cells
//!   seeing the pivot and both pincers.
//! - W-wing: two cells {x, y} that do not see each other, and a strong link on x whose ends
//!   see one cell each. If neither cell were y both would be x, and the link would lose x at
//!   both ends; so one of them is y, and y leaves every cell seeing both.

use super::engine::Context;
use super::links::{add_unit, cell_name, eliminate_seeing, finish, strong_links};
use super::step::{bits, elimination_cells, Step, Technique, UnitRef};

/// Empty cells with exactly `k` candidates, row-major.
fn cells_with_count(ctx: &Context<'_>, k: u32) -> Vec<usize> {
    let cands = ctx.cands;
    (0..ctx.n() * ctx.n())
        .filter(|&cell| cands.mask(cell).count_ones() == k)
        .collect()
}

/// XY-wing (`pivot_size` 2) or XYZ-wing (3).
fn wing(ctx: &Context<'_>, pivot_size: u32) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let pairs = cells_with_count(ctx, 2);
    let pivots = if pivot_size == 2 {
        pairs.clone()
    } else {
        cells_with_count(ctx, 3)
    };
    for &pivot in &pivots {
        let pm = cands.mask(pivot);
        // Pincers: bivalue cells seeing the pivot that share exactly one digit with a bivalue
        // pivot (XY), or whose two digits are both the pivot's (XYZ).
        let pincers: Vec<usize> = pairs
            .iter()
            .copied()
            .filter(|&c| c != pivot && layout.sees(c, pivot))
            .filter(|&c| {
                let common = (cands.mask(c) & pm).count_ones();
                if pivot_size == 2 {
                    common == 1
                } else {
                    common == 2
                }
            })
            .collect();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (am, bm) = (cands.mask(a), cands.mask(b));
                if am == bm {
                    continue;
                }
                let z = am & bm;
                if z.count_ones() != 1 {
                    continue;
                }
                let ok = if pivot_size == 2 {
                    z & pm == 0 && (am | bm) & !z == pm
                } else {
                    am | bm == pm
                };
                if !ok {
                    continue;
                }
                let digit = z.trailing_zeros() as u8 + 1;
                let technique = if pivot_size == 2 {
                    Technique::XyWing
                } else {
                    Technique::XyzWing
                };
                let mut step = Step::new(technique);
                let seen: &[usize] = if pivot_size == 2 {
                    &[a, b]
                } else {
                    &[pivot, a, b]
                };
                if eliminate_seeing(ctx, &mut step, digit, seen) == 0 {
                    continue;
                }
                finish(ctx, &mut step, &[pivot, a, b], pm | z);
                let letters = |m: u64| bits(m).map(|d| (d + 1).to_string()).collect::<String>();
                step.text = ctx.say(format_args!(
                    "{}: pivot {} ({}) with pincers {} ({}) and {} ({}): one pincer is {digit}, so \
                     {digit} is removed from {}",
                    if pivot_size == 2 {
                        "XY-wing"
                    } else {
                        "XYZ-wing"
                    },
                    cell_name(ctx, pivot),
                    letters(pm),
                    cell_name(ctx, a),
                    letters(am),
                    cell_name(ctx, b),
                    letters(bm),
                    elimination_cells(&step.eliminations)
                ));
                return Some(step);
            }
        }
    }
    None
}

pub fn xy_wing(ctx: &Context<'_>) -> Option<Step> {
    wing(ctx, 2)
}

pub fn xyz_wing(ctx: &Context<'_>) -> Option<Step> {
    wing(ctx, 3)
}

pub fn w_wing(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    let pairs = cells_with_count(ctx, 2);
    let links: Vec<_> = (1..=n as u8).map(|d| strong_links(ctx, d)).collect();
    for (i, &a) in pairs.iter().enumerate() {
        let m = cands.mask(a);
        for &b in &pairs[i + 1..] {
            if cands.mask(b) != m || layout.sees(a, b) {
                continue;
            }
            for x in bits(m) {
                let y = (m & !(1 << x)).trailing_zeros() as u8 + 1;
                let x = x as u8 + 1;
                for link in &links[x as usize - 1] {
                    for (p, q) in [(link.a, link.b), (link.b, link.a)] {
                        if [a, b].contains(&p) || [a, b].contains(&q) {
                            continue;
                        }
                        if !layout.sees(p, a) || !layout.sees(q, b) {
                            continue;
                        }
                        let mut step = Step::new(Technique::WWing);
                        if eliminate_seeing(ctx, &mut step, y, &[a, b]) == 0 {
                            continue;
                        }
                        finish(ctx, &mut step, &[a, b, p, q], m);
                        add_unit(ctx, &mut step, link.unit);
                        let (uk, ui) = ctx.unit_ref(link.unit);
                        step.text = ctx.say(format_args!(
                            "W-wing: {} and {} both hold only {x} and {y}, and {x} in {} is in {} \
                             or {}, which see one each: one of the two cells is {y}, so {y} is \
                             removed from {}",
                            cell_name(ctx, a),
                            cell_name(ctx, b),
                            UnitRef(uk, ui),
                            cell_name(ctx, p),
                            cell_name(ctx, q),
                            elimination_cells(&step.eliminations)
                        ));
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}
