//! Forcing chains: the last resort, so that every puzzle with one solution gets a complete
//! logical trace without a blind guess. For every size and box shape.
//!
//! Each candidate is assumed true in turn and its consequences followed by singles (naked and
//! hidden, repeated until nothing changes: a "dynamic" chain, or net). Then:
//! - Contradiction (Nishio): the assumption empties a cell or leaves a digit no place in a
//!   unit, so the candidate is false.
//! - Cell forcing: every candidate of one cell leads to the same placement or removal, so it
//!   holds whatever the cell is.
//! - Unit forcing: every place of a digit in a unit leads to it.
//!
//! [`nested_forcing_chain`] does the same with a stronger follow-up: inside an assumption,
//! every candidate whose own assumption fails by singles is removed too (one level of nesting),
//! for the puzzles where plain chains find nothing (most of the forum's hardest). It is tried
//! only on puzzles known to have one solution, up to 16x16.
//!
//! Both are bounded: one follow-up per candidate (per candidate pair for the nested kind), each
//! a fixed point of cheap bitmask updates. Candidates are tried cells with fewest candidates
//! first, row-major among equals, and the first contradiction is the step; cell and unit
//! forcing are looked for only when no assumption fails.

mod net;
mod net9;

use super::engine::Context;
use super::links::{add_unit, cell_name, finish};
use super::step::{bits, digit_list, Step, Technique, UnitRef};
use crate::core::BoxShape;
use net::{Clash, Net, Probe, Tables};
use net9::Probe9;

/// The current marks as probe masks: a placed cell holds its digit's bit and is done.
fn base_of(ctx: &Context<'_>) -> (Vec<u64>, Vec<bool>) {
    let cands = ctx.cands;
    let cells = ctx.n() * ctx.n();
    let mut masks = vec![0u64; cells];
    let mut done = vec![false; cells];
    for cell in 0..cells {
        match cands.value(cell) {
            0 => masks[cell] = cands.mask(cell),
            v => {
                masks[cell] = 1 << (v - 1);
                done[cell] = true;
            }
        }
    }
    (masks, done)
}

/// What following one assumption gives.
enum Outcome {
    Clash(Clash),
    /// The masks at the fixed point.
    Masks(Vec<u64>),
}

/// The follow-up of every assumption: plain singles, or singles with one level of nested
/// contradictions.
struct Prober<N> {
    probe: N,
    inner: N,
    nested: bool,
}

impl<N: Net> Prober<N> {
    fn run(&mut self, base: &[u64], done: &[bool], cell: usize, digit: u8) -> Outcome {
        self.probe.load(base, done);
        if let Err(clash) = self.probe.assume(cell, digit) {
            return Outcome::Clash(clash);
        }
        if self.nested {
            // Remove every candidate whose own assumption fails by singles, until none does.
            // The end does not depend on the order: a candidate that fails keeps failing as
            // more candidates go.
            let cells = base.len();
            loop {
                let mut changed = false;
                for c in 0..cells {
                    let open = self.probe.open(c);
                    if open.count_ones() < 2 {
                        continue;
                    }
                    for d in bits(open) {
                        if self.probe.open(c) >> d & 1 == 0 {
                            continue; // gone with an earlier removal
                        }
                        self.inner.copy_from(&self.probe);
                        if self.inner.assume(c, d as u8 + 1).is_err() {
                            if let Err(clash) = self.probe.remove(c, d as u8 + 1) {
                                return Outcome::Clash(clash);
                            }
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        Outcome::Masks(self.probe.masks())
    }
}

/// What several branches (all the candidates of a cell, or all the places of a digit in a
/// unit) agree on: placements and removals relative to the current marks.
fn agreement(ctx: &Context<'_>, base: &[u64], branches: &[Vec<u64>]) -> Step {
    let cands = ctx.cands;
    let mut union = vec![0u64; base.len()];
    for masks in branches {
        for (u, &m) in union.iter_mut().zip(masks) {
            *u |= m;
        }
    }
    let mut step = Step::new(Technique::ForcingChain);
    for (cell, (&u, &b)) in union.iter().zip(base).enumerate() {
        if cands.value(cell) != 0 || u == b {
            continue;
        }
        let (r, c) = ctx.rc(cell);
        if u.count_ones() == 1 {
            step.placements.push((r, c, u.trailing_zeros() as u8 + 1));
        } else {
            for d in bits(b & !u) {
                step.eliminations.push((r, c, d as u8 + 1));
            }
        }
    }
    step
}

fn clash_text(ctx: &Context<'_>, clash: Clash) -> String {
    match clash {
        Clash::Cell(cell) => format!("{} would have no candidate left", cell_name(ctx, cell)),
        Clash::Unit(u, d) => {
            let (k, i) = ctx.unit_ref(u);
            format!("{d} would have no place left in {}", UnitRef(k, i))
        }
    }
}

fn results_text(ctx: &Context<'_>, step: &Step) -> String {
    let mut parts: Vec<String> = step
        .placements
        .iter()
        .map(|&(r, c, d)| format!("r{}c{} is {d}", r + 1, c + 1))
        .collect();
    let mut last: Option<(usize, usize)> = None;
    let mut removed = 0u64;
    let flush = |parts: &mut Vec<String>, at: Option<(usize, usize)>, removed: u64| {
        if let Some((r, c)) = at {
            parts.push(format!(
                "r{}c{} is not {}",
                r + 1,
                c + 1,
                digit_list(removed).replace(" and ", " or ")
            ));
        }
    };
    for &(r, c, d) in &step.eliminations {
        if last != Some((r, c)) {
            flush(&mut parts, last, removed);
            last = Some((r, c));
            removed = 0;
        }
        removed |= 1 << (d - 1);
    }
    flush(&mut parts, last, removed);
    let _ = ctx;
    super::step::and_list(parts)
}

fn find(ctx: &Context<'_>, nested: bool) -> Option<Step> {
    if ctx.cands.shape() == BoxShape::CLASSIC {
        return find_with(
            ctx,
            Prober {
                probe: Probe9::new(),
                inner: Probe9::new(),
                nested,
            },
        );
    }
    let tables = Tables::new(ctx.cands.layout());
    find_with(
        ctx,
        Prober {
            probe: Probe::new(&tables),
            inner: Probe::new(&tables),
            nested,
        },
    )
}

fn find_with<N: Net>(ctx: &Context<'_>, mut prober: Prober<N>) -> Option<Step> {
    let cands = ctx.cands;
    let n = ctx.n();
    let cells = n * n;
    let nested = prober.nested;
    let (base, done) = base_of(ctx);
    let technique = if nested {
        Technique::NestedForcingChain
    } else {
        Technique::ForcingChain
    };
    let title = if nested {
        "Nested forcing chain"
    } else {
        "Forcing chain"
    };
    let follow = if nested {
        "singles and the contradictions singles find"
    } else {
        "singles"
    };
    // Every assumption once; outcomes kept for the cell and unit passes (up to 16x16, where
    // that is at most a few megabytes; larger grids follow each assumption again).
    let keep = n <= 16;
    let mut outcomes: Vec<Option<Vec<u64>>> = (0..cells * n).map(|_| None).collect();
    // Cells with fewer candidates first (bivalue cells give the simplest chains), row-major
    // among equals; the first contradiction is the step.
    let mut order: Vec<usize> = (0..cells).filter(|&c| cands.value(c) == 0).collect();
    order.sort_by_key(|&c| (cands.mask(c).count_ones(), c));
    let mut first_clash: Option<(usize, u8, Clash)> = None;
    'scan: for &cell in &order {
        for d in bits(cands.mask(cell)) {
            let digit = d as u8 + 1;
            match prober.run(&base, &done, cell, digit) {
                Outcome::Clash(clash) => {
                    first_clash = Some((cell, digit, clash));
                    break 'scan;
                }
                Outcome::Masks(m) if keep => outcomes[cell * n + d] = Some(m),
                Outcome::Masks(_) => {}
            }
        }
    }
    if let Some((cell, digit, clash)) = first_clash {
        let mut step = Step::new(technique);
        let (r, c) = ctx.rc(cell);
        step.eliminations.push((r, c, digit));
        let mut involved = vec![cell];
        match clash {
            Clash::Cell(x) => involved.push(x),
            Clash::Unit(u, _) => add_unit(ctx, &mut step, u),
        }
        finish(ctx, &mut step, &involved, 1 << (digit - 1));
        step.text = ctx.say(format_args!(
            "{title} (contradiction): if {} were {digit}, then by {follow} {}; so {} is not \
             {digit}",
            cell_name(ctx, cell),
            clash_text(ctx, clash),
            cell_name(ctx, cell)
        ));
        return Some(step);
    }
    let mut masks_of = |cell: usize, d: usize| -> Vec<u64> {
        if let Some(m) = &outcomes[cell * n + d] {
            return m.clone();
        }
        match prober.run(&base, &done, cell, d as u8 + 1) {
            Outcome::Masks(m) => m,
            // No assumption clashed in the first pass, and the same follow-up gives the same.
            Outcome::Clash(_) => base.clone(),
        }
    };
    // Cell forcing.
    for cell in 0..cells {
        let m = cands.mask(cell);
        if m.count_ones() < 2 {
            continue;
        }
        let branches: Vec<Vec<u64>> = bits(m).map(|d| masks_of(cell, d)).collect();
        let mut step = agreement(ctx, &base, &branches);
        if step.placements.is_empty() && step.eliminations.is_empty() {
            continue;
        }
        step.technique = technique;
        finish(ctx, &mut step, &[cell], m);
        step.text = ctx.say(format_args!(
            "{title} (cell): {} is {}; each way, by {follow}, {}",
            cell_name(ctx, cell),
            digit_list(m).replace(" and ", " or "),
            results_text(ctx, &step)
        ));
        return Some(step);
    }
    // Unit forcing.
    for u in 0..3 * n {
        for digit in 1..=n as u8 {
            let places = cands.places(u, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let unit = cands.layout().unit(u);
            let where_: Vec<usize> = bits(places).map(|p| unit[p] as usize).collect();
            let branches: Vec<Vec<u64>> = where_
                .iter()
                .map(|&cell| masks_of(cell, digit as usize - 1))
                .collect();
            let mut step = agreement(ctx, &base, &branches);
            if step.placements.is_empty() && step.eliminations.is_empty() {
                continue;
            }
            step.technique = technique;
            finish(ctx, &mut step, &where_, 1 << (digit - 1));
            add_unit(ctx, &mut step, u);
            let (k, i) = ctx.unit_ref(u);
            step.text = ctx.say(format_args!(
                "{title} (unit): {digit} in {} goes in {}; each way, by {follow}, {}",
                UnitRef(k, i),
                super::links::cell_names(ctx, &where_).replace(" and ", " or "),
                results_text(ctx, &step)
            ));
            return Some(step);
        }
    }
    None
}

pub fn forcing_chain(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, false)
}

/// Tried only on puzzles known to have one solution (where it is there to finish the trace;
/// with several solutions no logic can) and up to 16x16: its cost grows with the square of the
/// number of candidates.
pub fn nested_forcing_chain(ctx: &Context<'_>) -> Option<Step> {
    if ctx.n() > 16 || !ctx.unique() {
        return None;
    }
    find(ctx, true)
}
