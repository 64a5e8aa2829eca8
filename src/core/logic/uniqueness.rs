//! Uniqueness techniques: unique rectangles (types 1 to 4) and BUG+1. They are sound only for
//! a puzzle with exactly one solution, so a finder that has found a pattern asks the engine
//! (`Context::unique`, which counts the solutions on first use) and returns nothing unless
//! the puzzle has one; every sentence says so.
//! They work on every size and box shape.
//!
//! Deadly pattern: four empty cells at the corners of a rectangle spanning two rows, two
//! columns and two boxes, all holding only {a, b}. Swapping a and b would give a second
//! solution, so in a unique puzzle the pattern cannot happen: some corner takes another digit.
//! - Type 1: three corners are {a, b}; the fourth is not a or b.
//! - Type 2: two corners are {a, b}, the two others {a, b, z} and share a line: one of them is
//!   z, so z leaves the cells seeing both.
//! - Type 3: two corners are {a, b}, the two others share a unit; their extra digits act as one
//!   cell and form a naked subset with other cells of the unit.
//! - Type 4: two corners are {a, b}, the two others share a unit where a can go only in them:
//!   one of them is a, so neither may be b.
//!
//! BUG+1 (bivalue universal grave): every empty cell has two candidates but one, which has
//! three, and every digit has two places in every unit but one digit in that cell's units.
//! Without that digit the grid would be a deadly pattern, so the cell holds it.

use super::engine::Context;
use super::links::{add_unit, cell_name, cell_names, eliminate_seeing, finish};
use super::step::{bits, digit_list, elimination_cells, Step, Technique, UnitRef};
use super::subsets::first_combo;

/// One rectangle: corners `[(r1,c1), (r1,c2), (r2,c1), (r2,c2)]` as cells, and the pair.
struct Rect {
    corners: [usize; 4],
    pair: u64,
}

/// Calls `f` with every rectangle of empty cells over two boxes and every pair of digits all
/// four corners share, in row-major order; returns the first `Some`.
fn rectangles(ctx: &Context<'_>, mut f: impl FnMut(&Rect) -> Option<Step>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                let (a, c) = (r1 * n + c1, r2 * n + c1);
                let (ma, mc) = (cands.mask(a), cands.mask(c));
                if (ma & mc).count_ones() < 2 {
                    continue;
                }
                for c2 in c1 + 1..n {
                    let (b, d) = (r1 * n + c2, r2 * n + c2);
                    let common = ma & mc & cands.mask(b) & cands.mask(d);
                    if common.count_ones() < 2 {
                        continue;
                    }
                    let mut boxes = [a, b, c, d].map(|x| layout.box_of(x));
                    boxes.sort_unstable();
                    let distinct = 1 + boxes.windows(2).filter(|w| w[0] != w[1]).count();
                    if distinct != 2 {
                        continue;
                    }
                    let digits: Vec<usize> = bits(common).collect();
                    for (i, &x) in digits.iter().enumerate() {
                        for &y in &digits[i + 1..] {
                            let rect = Rect {
                                corners: [a, b, c, d],
                                pair: 1 << x | 1 << y,
                            };
                            if let Some(step) = f(&rect) {
                                // Asked only now: the count costs a solver run.
                                return ctx.unique().then_some(step);
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

const TITLES: [&str; 4] = [
    "Unique rectangle type 1",
    "Unique rectangle type 2",
    "Unique rectangle type 3",
    "Unique rectangle type 4",
];

/// The opening of every rectangle sentence.
fn opening(ctx: &Context<'_>, kind: usize, rect: &Rect) -> String {
    format!(
        "{} (the puzzle has one solution, so no deadly pattern): {} would otherwise all be {}",
        TITLES[kind - 1],
        cell_names(ctx, &rect.corners),
        digit_list(rect.pair).replace(" and ", " or ")
    )
}

/// The corners that are exactly the pair, and the others (the "roof"), when there are two of
/// each and the roof shares a row or column.
fn floor_and_roof(ctx: &Context<'_>, rect: &Rect) -> Option<[usize; 2]> {
    let cands = ctx.cands;
    let roof: Vec<usize> = rect
        .corners
        .iter()
        .copied()
        .filter(|&x| cands.mask(x) != rect.pair)
        .collect();
    if roof.len() != 2 {
        return None;
    }
    let n = ctx.n();
    let (p, q) = (roof[0], roof[1]);
    (p / n == q / n || p % n == q % n).then_some([p, q])
}

/// The units (row or column, and the box when they share it) both roof cells lie in.
fn shared_units(ctx: &Context<'_>, roof: [usize; 2]) -> Vec<usize> {
    let layout = ctx.cands.layout();
    let (a, b) = (layout.units_of(roof[0]), layout.units_of(roof[1]));
    (0..3)
        .filter(|&k| a[k] == b[k])
        .map(|k| a[k] as usize)
        .collect()
}

pub fn unique_rectangle_1(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    rectangles(ctx, |rect| {
        let odd: Vec<usize> = rect
            .corners
            .iter()
            .copied()
            .filter(|&x| cands.mask(x) != rect.pair)
            .collect();
        let [cell] = odd[..] else { return None };
        let mut step = Step::new(Technique::UniqueRectangle1);
        let (r, c) = ctx.rc(cell);
        for d in bits(rect.pair) {
            step.eliminations.push((r, c, d as u8 + 1));
        }
        finish(ctx, &mut step, &rect.corners, rect.pair);
        step.text = ctx.say(format_args!(
            "{}; only {} has other candidates, so it is neither: {} removed from it",
            opening(ctx, 1, rect),
            cell_name(ctx, cell),
            digit_list(rect.pair)
        ));
        Some(step)
    })
}

pub fn unique_rectangle_2(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    rectangles(ctx, |rect| {
        let roof = floor_and_roof(ctx, rect)?;
        let (mp, mq) = (cands.mask(roof[0]), cands.mask(roof[1]));
        let extra = mp & !rect.pair;
        if mp != mq || extra.count_ones() != 1 {
            return None;
        }
        let z = extra.trailing_zeros() as u8 + 1;
        let mut step = Step::new(Technique::UniqueRectangle2);
        if eliminate_seeing(ctx, &mut step, z, &roof) == 0 {
            return None;
        }
        finish(ctx, &mut step, &rect.corners, rect.pair | extra);
        step.text = ctx.say(format_args!(
            "{}; so {} or {} is {z}, and {z} is removed from {}",
            opening(ctx, 2, rect),
            cell_name(ctx, roof[0]),
            cell_name(ctx, roof[1]),
            elimination_cells(&step.eliminations)
        ));
        Some(step)
    })
}

pub fn unique_rectangle_3(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    rectangles(ctx, |rect| {
        let roof = floor_and_roof(ctx, rect)?;
        let extra = (cands.mask(roof[0]) | cands.mask(roof[1])) & !rect.pair;
        if extra.count_ones() < 2 {
            return None; // one extra digit is type 2
        }
        for u in shared_units(ctx, roof) {
            let others: Vec<usize> = layout
                .unit(u)
                .iter()
                .map(|&x| x as usize)
                .filter(|&x| cands.mask(x) != 0 && !roof.contains(&x))
                .collect();
            let masks: Vec<u64> = others.iter().map(|&x| cands.mask(x)).collect();
            for k in 1..others.len() {
                let size = k + 1;
                if extra.count_ones() as usize > size {
                    continue;
                }
                let found = first_combo(
                    &masks,
                    k,
                    &|union, _| (union | extra).count_ones() as usize <= size,
                    &mut |chosen, union| {
                        let digits = union | extra;
                        if digits.count_ones() as usize != size {
                            return None;
                        }
                        let mut step = Step::new(Technique::UniqueRectangle3);
                        for (i, &x) in others.iter().enumerate() {
                            if chosen.contains(&i) {
                                continue;
                            }
                            let (r, c) = ctx.rc(x);
                            for d in bits(cands.mask(x) & digits) {
                                step.eliminations.push((r, c, d as u8 + 1));
                            }
                        }
                        if step.eliminations.is_empty() {
                            return None;
                        }
                        let subset: Vec<usize> = chosen.iter().map(|&i| others[i]).collect();
                        let mut cells = rect.corners.to_vec();
                        cells.extend(&subset);
                        finish(ctx, &mut step, &cells, rect.pair | digits);
                        add_unit(ctx, &mut step, u);
                        let (uk, ui) = ctx.unit_ref(u);
                        step.text = ctx.say(format_args!(
                            "{}; so {} or {} holds one of {}, which with {} make a naked subset \
                             of {} in {}: they are removed from {}",
                            opening(ctx, 3, rect),
                            cell_name(ctx, roof[0]),
                            cell_name(ctx, roof[1]),
                            digit_list(extra).replace(" and ", " or "),
                            cell_names(ctx, &subset),
                            digit_list(digits),
                            UnitRef(uk, ui),
                            elimination_cells(&step.eliminations)
                        ));
                        Some(step)
                    },
                );
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    })
}

pub fn unique_rectangle_4(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    rectangles(ctx, |rect| {
        let roof = floor_and_roof(ctx, rect)?;
        for u in shared_units(ctx, roof) {
            let unit = layout.unit(u);
            for locked in bits(rect.pair) {
                let places = cands.places(u, locked as u8 + 1);
                let only_roof = bits(places).all(|p| roof.contains(&(unit[p] as usize)));
                if !only_roof {
                    continue;
                }
                let other = (rect.pair & !(1 << locked)).trailing_zeros() as u8 + 1;
                let mut step = Step::new(Technique::UniqueRectangle4);
                for &x in &roof {
                    let (r, c) = ctx.rc(x);
                    step.eliminations.push((r, c, other));
                }
                finish(ctx, &mut step, &rect.corners, rect.pair);
                add_unit(ctx, &mut step, u);
                let (uk, ui) = ctx.unit_ref(u);
                step.text = ctx.say(format_args!(
                    "{}; in {}, {} can only go in {} or {}, so neither may be {other}: {other} is \
                     removed from both",
                    opening(ctx, 4, rect),
                    UnitRef(uk, ui),
                    locked + 1,
                    cell_name(ctx, roof[0]),
                    cell_name(ctx, roof[1]),
                ));
                return Some(step);
            }
        }
        None
    })
}

pub fn bug_plus_one(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    let mut three = None;
    for cell in 0..n * n {
        match cands.mask(cell).count_ones() {
            0 | 2 => {}
            3 if three.is_none() => three = Some(cell),
            _ => return None,
        }
    }
    let cell = three?;
    let units = layout.units_of(cell);
    // The digit with three places in the cell's row (and column and box).
    let digit = bits(cands.mask(cell)).map(|d| d as u8 + 1).find(|&d| {
        units
            .iter()
            .all(|&u| cands.places(u as usize, d).count_ones() == 3)
    })?;
    // Every other unit and digit: zero or two places.
    for u in 0..3 * n {
        for d in 1..=n as u8 {
            let count = cands.places(u, d).count_ones();
            let expect_three = d == digit && units.contains(&(u as u16));
            if !(count == 0 || count == 2 || (expect_three && count == 3)) {
                return None;
            }
        }
    }
    if !ctx.unique() {
        return None;
    }
    let mut step = Step::new(Technique::BugPlusOne);
    let (r, c) = ctx.rc(cell);
    step.placements.push((r, c, digit));
    finish(ctx, &mut step, &[cell], cands.mask(cell));
    step.text = ctx.say(format_args!(
        "BUG+1 (the puzzle has one solution, so no deadly pattern): every empty cell but {} has \
         two candidates and every digit two places per unit, but {digit} has three in {}'s row, \
         column and box; without {digit} there the grid would have two solutions, so {} is \
         {digit}",
        cell_name(ctx, cell),
        cell_name(ctx, cell),
        cell_name(ctx, cell)
    ));
    Some(step)
}
