//! Fish: X-wing, swordfish, jellyfish, and their finned variants (sashimi included).
//!
//! Basic fish of size `k`: a digit's places in `k` base lines (rows, or columns) lie in only
//! `k` cover lines (columns, or rows). Each base line holds the digit once, in a different
//! cover line, so the `k` cover lines get theirs from the base lines: the digit leaves the
//! rest of every cover line.
//!
//! Finned: some base candidates (the fins) lie outside the cover lines, all in one box. Either
//! a fin is the digit (then it is in that box) or the fish holds; so the digit leaves the cells
//! that lie in a cover line and in the fins' box (outside the base lines): they see every fin.

use super::engine::Context;
use super::step::{and_list, bits, elimination_cells, CellRef, Step, Technique, UnitRef};
use super::subsets::first_combo;
use crate::core::Unit;

/// One orientation: base lines are rows (positions are columns) or columns.
#[derive(Clone, Copy)]
struct Lines {
    rows: bool,
    n: usize,
}

impl Lines {
    /// The unit index of base line `l`.
    fn base(self, l: usize) -> usize {
        if self.rows {
            l
        } else {
            self.n + l
        }
    }

    /// The unit index of the cover line at position `p`.
    fn cover(self, p: usize) -> usize {
        if self.rows {
            self.n + p
        } else {
            p
        }
    }

    fn cell(self, l: usize, p: usize) -> usize {
        if self.rows {
            l * self.n + p
        } else {
            p * self.n + l
        }
    }

    fn names(self) -> (&'static str, &'static str) {
        if self.rows {
            ("rows", "columns")
        } else {
            ("columns", "rows")
        }
    }
}

const BASIC: [Technique; 3] = [Technique::XWing, Technique::Swordfish, Technique::Jellyfish];
const FINNED: [Technique; 3] = [
    Technique::FinnedXWing,
    Technique::FinnedSwordfish,
    Technique::FinnedJellyfish,
];
const TITLES: [&str; 3] = ["X-wing", "Swordfish", "Jellyfish"];
const FINNED_TITLES: [&str; 3] = ["Finned X-wing", "Finned swordfish", "Finned jellyfish"];

fn orientations(n: usize) -> [Lines; 2] {
    [Lines { rows: true, n }, Lines { rows: false, n }]
}

/// Fills the parts every fish step shares: the base cells, the units, the digit.
fn describe_pattern(
    ctx: &Context<'_>,
    step: &mut Step,
    lines: Lines,
    base_lines: &[usize],
    covers: u64,
    digit: u8,
) {
    for &l in base_lines {
        for p in bits(ctx.cands.places(lines.base(l), digit)) {
            step.cells.push(ctx.rc(lines.cell(l, p)));
        }
    }
    step.cells.sort_unstable();
    step.units
        .extend(base_lines.iter().map(|&l| ctx.unit_ref(lines.base(l))));
    step.units
        .extend(bits(covers).map(|p| ctx.unit_ref(lines.cover(p))));
    step.digits = 1 << (digit - 1);
}

fn line_list(indices: impl Iterator<Item = usize>) -> String {
    and_list(indices.map(|i| i + 1))
}

fn basic(ctx: &Context<'_>, k: usize) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let mut masks = [0u64; 64];
    for digit in 1..=n as u8 {
        for lines in orientations(n) {
            // Slot i is line i; lines outside 2..=k places get an empty mask, never chosen.
            let mut slots = [0usize; 64];
            let mut m = 0;
            for l in 0..n {
                let p = cands.places(lines.base(l), digit);
                if (2..=k).contains(&(p.count_ones() as usize)) {
                    slots[m] = l;
                    masks[m] = p;
                    m += 1;
                }
            }
            let found = first_combo(
                &masks[..m],
                k,
                &|union, _| union.count_ones() as usize <= k,
                &mut |chosen, covers| {
                    if covers.count_ones() as usize != k {
                        return None;
                    }
                    let base = chosen.iter().fold(0u64, |b, &i| b | 1 << slots[i]);
                    let mut step = Step::new(BASIC[k - 2]);
                    for p in bits(covers) {
                        for l in bits(!base & super::candidates::full_mask(n)) {
                            let cell = lines.cell(l, p);
                            if cands.has(cell, digit) {
                                let (r, c) = ctx.rc(cell);
                                step.eliminations.push((r, c, digit));
                            }
                        }
                    }
                    if step.eliminations.is_empty() {
                        return None;
                    }
                    step.eliminations.sort_unstable();
                    let chosen_lines: Vec<usize> = chosen.iter().map(|&i| slots[i]).collect();
                    describe_pattern(ctx, &mut step, lines, &chosen_lines, covers, digit);
                    let (base_name, cover_name) = lines.names();
                    step.text = ctx.say(format_args!(
                        "{}: {digit} in {base_name} {} can only go in {cover_name} {}, so {digit} \
                         is removed from the rest of those {cover_name}: {}",
                        TITLES[k - 2],
                        line_list(chosen_lines.iter().copied()),
                        line_list(bits(covers)),
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
}

fn finned(ctx: &Context<'_>, k: usize) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let shape = cands.shape();
    let mut masks = [0u64; 64];
    for digit in 1..=n as u8 {
        for lines in orientations(n) {
            // Along the positions a box spans `width`; across the lines it spans `depth`.
            let (width, depth) = if lines.rows {
                (shape.cols(), shape.rows())
            } else {
                (shape.rows(), shape.cols())
            };
            let group = |g: usize| ((1u64 << width) - 1) << (g * width);
            let groups = n / width;
            // A union with every position but `k` in one box-wide group can still take fins.
            let feasible =
                |union: u64| (0..groups).any(|g| (union & !group(g)).count_ones() as usize <= k);
            let mut slots = [0usize; 64];
            let mut m = 0;
            for l in 0..n {
                let p = cands.places(lines.base(l), digit);
                let count = p.count_ones() as usize;
                if count >= 1 && count <= k + width {
                    slots[m] = l;
                    masks[m] = p;
                    m += 1;
                }
            }
            let found = first_combo(
                &masks[..m],
                k,
                &|union, _| feasible(union),
                &mut |chosen, union| {
                    let base = chosen.iter().fold(0u64, |b, &i| b | 1 << slots[i]);
                    for g in 0..groups {
                        let outside = union & !group(g);
                        if outside.count_ones() as usize > k {
                            continue;
                        }
                        let inside: Vec<u64> = bits(union & group(g)).map(|p| 1 << p).collect();
                        let need = k - outside.count_ones() as usize;
                        let try_covers = &mut |covers: u64| {
                            finned_step(
                                ctx, lines, chosen, &slots, &masks, base, covers, g, width, depth,
                                digit, k,
                            )
                        };
                        let step = if need == 0 {
                            try_covers(outside)
                        } else {
                            first_combo(&inside, need, &|_, _| true, &mut |_, picked| {
                                try_covers(outside | picked)
                            })
                        };
                        if step.is_some() {
                            return step;
                        }
                    }
                    None
                },
            );
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// The finned fish with these base lines and cover positions, if its fins lie in one box of
/// position group `g` and it removes something.
#[allow(clippy::too_many_arguments)]
fn finned_step(
    ctx: &Context<'_>,
    lines: Lines,
    chosen: &[usize],
    slots: &[usize; 64],
    masks: &[u64; 64],
    base: u64,
    covers: u64,
    g: usize,
    width: usize,
    depth: usize,
    digit: u8,
    k: usize,
) -> Option<Step> {
    let cands = ctx.cands;
    let mut band = None;
    let mut fins = Vec::new();
    for &i in chosen {
        let line = slots[i];
        if masks[i] & covers == 0 {
            return None; // a base line with only fins is no fish
        }
        let extra = masks[i] & !covers;
        if extra == 0 {
            continue;
        }
        if *band.get_or_insert(line / depth) != line / depth {
            return None; // fins in two boxes
        }
        fins.extend(bits(extra).map(|p| lines.cell(line, p)));
    }
    let band = band?; // no fin: a basic fish
    let group = ((1u64 << width) - 1) << (g * width);
    let mut step = Step::new(FINNED[k - 2]);
    for p in bits(covers & group) {
        for l in band * depth..(band + 1) * depth {
            let cell = lines.cell(l, p);
            if base >> l & 1 == 0 && cands.has(cell, digit) {
                let (r, c) = ctx.rc(cell);
                step.eliminations.push((r, c, digit));
            }
        }
    }
    if step.eliminations.is_empty() {
        return None;
    }
    step.eliminations.sort_unstable();
    let chosen_lines: Vec<usize> = chosen.iter().map(|&i| slots[i]).collect();
    describe_pattern(ctx, &mut step, lines, &chosen_lines, covers, digit);
    let fin_box = ctx.cands.layout().box_of(fins[0]);
    let (bk, bi) = ctx.unit_ref(fin_box);
    step.units.push((bk, bi));
    let (base_name, cover_name) = lines.names();
    step.text = ctx.say(format_args!(
        "{}: {digit} in {base_name} {} can only go in {cover_name} {}, apart from the \
         fin{} {} in {}, so {digit} is removed from {}",
        FINNED_TITLES[k - 2],
        line_list(chosen_lines.iter().copied()),
        line_list(bits(covers)),
        if fins.len() == 1 { "" } else { "s" },
        and_list(fins.iter().map(|&cell| {
            let (r, c) = ctx.rc(cell);
            CellRef(r, c)
        })),
        UnitRef(Unit::Box, bi),
        elimination_cells(&step.eliminations)
    ));
    Some(step)
}

pub fn x_wing(ctx: &Context<'_>) -> Option<Step> {
    basic(ctx, 2)
}

pub fn swordfish(ctx: &Context<'_>) -> Option<Step> {
    basic(ctx, 3)
}

pub fn jellyfish(ctx: &Context<'_>) -> Option<Step> {
    basic(ctx, 4)
}

pub fn finned_x_wing(ctx: &Context<'_>) -> Option<Step> {
    finned(ctx, 2)
}

pub fn finned_swordfish(ctx: &Context<'_>) -> Option<Step> {
    finned(ctx, 3)
}

pub fn finned_jellyfish(ctx: &Context<'_>) -> Option<Step> {
    finned(ctx, 4)
}
