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

/// Finned fish, searched fin box by fin box: with the fins' box fixed, a base line outside the
/// box's lines must lie wholly in the cover lines, and one through the box must outside the
/// box; those required positions must fit in `k` cover lines, which prunes like a basic fish.
fn finned(ctx: &Context<'_>, k: usize) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let shape = cands.shape();
    let mut all = [0u64; 64];
    let mut required = [0u64; 64];
    let mut slots = [0usize; 64];
    for digit in 1..=n as u8 {
        for lines in orientations(n) {
            // Along the positions a box spans `width`; across the lines it spans `depth`.
            let (width, depth) = if lines.rows {
                (shape.cols(), shape.rows())
            } else {
                (shape.rows(), shape.cols())
            };
            for (l, slot) in all.iter_mut().enumerate().take(n) {
                *slot = cands.places(lines.base(l), digit);
            }
            for band in 0..n / depth {
                let band_lines = band * depth..(band + 1) * depth;
                for g in 0..n / width {
                    let group = ((1u64 << width) - 1) << (g * width);
                    if band_lines.clone().all(|l| all[l] & group == 0) {
                        continue; // no candidate in the box: no fin
                    }
                    let mut m = 0;
                    for (l, &places) in all[..n].iter().enumerate() {
                        let req = if band_lines.contains(&l) {
                            places & !group
                        } else {
                            places
                        };
                        if places != 0 && req.count_ones() as usize <= k {
                            slots[m] = l;
                            required[m] = req;
                            m += 1;
                        }
                    }
                    let found = first_combo(
                        &required[..m],
                        k,
                        &|union, _| union.count_ones() as usize <= k,
                        &mut |chosen, must| {
                            let mut base = [0usize; 8];
                            for (slot, &i) in base.iter_mut().zip(chosen) {
                                *slot = slots[i];
                            }
                            let base = &base[..k];
                            let union = base.iter().fold(0u64, |u, &l| u | all[l]);
                            // The remaining covers come from the box's positions.
                            let mut extra = [0u64; 64];
                            let mut e = 0;
                            for p in bits(union & group & !must) {
                                extra[e] = 1 << p;
                                e += 1;
                            }
                            let need = k - must.count_ones() as usize;
                            let fish = FinnedFish {
                                lines,
                                base,
                                all: &all,
                                band: band_lines.clone(),
                                group,
                                digit,
                                k,
                            };
                            if need == 0 {
                                fish.step(ctx, must)
                            } else {
                                first_combo(&extra[..e], need, &|_, _| true, &mut |_, picked| {
                                    fish.step(ctx, must | picked)
                                })
                            }
                        },
                    );
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
    }
    None
}

/// A finned fish candidate: base lines and the fin box (its lines and its group of positions).
struct FinnedFish<'a> {
    lines: Lines,
    base: &'a [usize],
    /// Every line's positions for the digit.
    all: &'a [u64; 64],
    band: std::ops::Range<usize>,
    group: u64,
    digit: u8,
    k: usize,
}

impl FinnedFish<'_> {
    /// The step with these cover positions, if every base line touches a cover, there is a fin,
    /// and something is removed.
    fn step(&self, ctx: &Context<'_>, covers: u64) -> Option<Step> {
        let (lines, digit) = (self.lines, self.digit);
        let mut fins = [0usize; 64];
        let mut f = 0;
        for &l in self.base {
            if self.all[l] & covers == 0 {
                return None; // a base line with only fins is no fish
            }
            for p in bits(self.all[l] & !covers) {
                fins[f] = lines.cell(l, p);
                f += 1;
            }
        }
        if f == 0 {
            return None; // no fin: a basic fish
        }
        let mut step = Step::new(FINNED[self.k - 2]);
        for p in bits(covers & self.group) {
            for l in self.band.clone() {
                let cell = lines.cell(l, p);
                if !self.base.contains(&l) && ctx.cands.has(cell, digit) {
                    let (r, c) = ctx.rc(cell);
                    step.eliminations.push((r, c, digit));
                }
            }
        }
        if step.eliminations.is_empty() {
            return None;
        }
        step.eliminations.sort_unstable();
        let mut base_lines = self.base.to_vec();
        base_lines.sort_unstable();
        describe_pattern(ctx, &mut step, lines, &base_lines, covers, digit);
        let fins = &mut fins[..f];
        fins.sort_unstable();
        let (bk, bi) = ctx.unit_ref(ctx.cands.layout().box_of(fins[0]));
        step.units.push((bk, bi));
        let (base_name, cover_name) = lines.names();
        step.text = ctx.say(format_args!(
            "{}: {digit} in {base_name} {} can only go in {cover_name} {}, apart from the \
             fin{} {} in {}, so {digit} is removed from {}",
            FINNED_TITLES[self.k - 2],
            line_list(base_lines.iter().copied()),
            line_list(bits(covers)),
            if f == 1 { "" } else { "s" },
            and_list(fins.iter().map(|&cell| {
                let (r, c) = ctx.rc(cell);
                CellRef(r, c)
            })),
            UnitRef(bk, bi),
            elimination_cells(&step.eliminations)
        ));
        Some(step)
    }
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
