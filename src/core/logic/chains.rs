//! Chains: X-chains, XY-chains and alternating inference chains (AIC), for every size and box
//! shape.
//!
//! A chain alternates strong links (of two candidates at least one is true: a conjugate pair in
//! a unit, or the two digits of a bivalue cell) and weak links (at most one is true: one digit
//! in two cells that see each other, or two digits of one cell). Starting and ending with a
//! strong link, it shows: if the first candidate is false the last is true. So one of the two
//! ends is true, and every candidate weakly linked to both ends is false.
//!
//! - X-chain: one digit, strong links are conjugate pairs.
//! - XY-chain: bivalue cells only, each cell's two digits the strong link, and both ends the
//!   same digit.
//! - AIC: any strong and weak links, ends of any digit.
//!
//! The search is a breadth-first walk from every candidate, so the shortest chain that removes
//! something is found first (ties: the first start in row-major, digit order). Chains are
//! bounded at [`MAX_NODES`] candidates.

use std::fmt::Write;

use super::engine::Context;
use super::links::finish;
use super::step::{elimination_cells, Step, Technique};

/// The longest chain looked for, in candidates (an even number: it starts and ends with a
/// strong link).
const MAX_NODES: usize = 16;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    X,
    Xy,
    Aic,
}

/// The candidate graph of the current marks: node `cell * n + digit - 1`.
struct Graph<'a> {
    ctx: &'a Context<'a>,
    n: usize,
    mode: Mode,
    /// Per node, its strong partners.
    strong: Vec<Vec<u32>>,
}

impl<'a> Graph<'a> {
    fn build(ctx: &'a Context<'a>, mode: Mode, only: Option<u8>) -> Graph<'a> {
        let cands = ctx.cands;
        let n = ctx.n();
        let mut strong: Vec<Vec<u32>> = vec![Vec::new(); n * n * n];
        if mode != Mode::Xy {
            for digit in 1..=n as u8 {
                if only.is_some_and(|o| o != digit) {
                    continue;
                }
                for u in 0..3 * n {
                    let Some((a, b)) = cands.pair_in(u, digit) else {
                        continue;
                    };
                    let (na, nb) = (a * n + digit as usize - 1, b * n + digit as usize - 1);
                    if !strong[na].contains(&(nb as u32)) {
                        strong[na].push(nb as u32);
                        strong[nb].push(na as u32);
                    }
                }
            }
        }
        if mode != Mode::X {
            for cell in 0..n * n {
                let m = cands.mask(cell);
                if m.count_ones() != 2 {
                    continue;
                }
                let a = cell * n + m.trailing_zeros() as usize;
                let b = cell * n + 63 - m.leading_zeros() as usize;
                strong[a].push(b as u32);
                strong[b].push(a as u32);
            }
        }
        Graph {
            ctx,
            n,
            mode,
            strong,
        }
    }

    fn cell(&self, node: usize) -> usize {
        node / self.n
    }

    fn digit(&self, node: usize) -> u8 {
        (node % self.n) as u8 + 1
    }

    /// Calls `f` with every node weakly linked to `node` that the mode allows.
    fn weak(&self, node: usize, mut f: impl FnMut(usize)) {
        let cands = self.ctx.cands;
        let layout = cands.layout();
        let (cell, digit) = (self.cell(node), self.digit(node));
        if self.mode == Mode::Aic {
            let mut rest = cands.mask(cell) & !(1 << (digit - 1));
            while rest != 0 {
                f(cell * self.n + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
        for u in layout.units_of(cell) {
            let unit = layout.unit(u as usize);
            let mut places = cands.places(u as usize, digit);
            while places != 0 {
                let other = unit[places.trailing_zeros() as usize] as usize;
                places &= places - 1;
                if other == cell {
                    continue;
                }
                if self.mode == Mode::Xy && cands.mask(other).count_ones() != 2 {
                    continue;
                }
                f(other * self.n + digit as usize - 1);
            }
        }
    }

    /// Whether two distinct candidates cannot both be true.
    fn weakly_linked(&self, a: usize, b: usize) -> bool {
        let (ca, cb) = (self.cell(a), self.cell(b));
        a != b
            && if ca == cb {
                true
            } else {
                self.digit(a) == self.digit(b) && self.ctx.cands.layout().sees(ca, cb)
            }
    }
}

/// A found chain: its nodes from the start (assumed false) to the end (then true), and what it
/// removes.
struct Chain {
    nodes: Vec<usize>,
    eliminations: Vec<usize>,
}

/// The shortest chain from `start` (bounded by `limit` nodes) that removes something.
fn from_start(
    graph: &Graph<'_>,
    start: usize,
    limit: usize,
    seen: &mut [u32],
    stamp: u32,
) -> Option<Chain> {
    // State = node * 2 + on. `seen` holds `stamp` for visited states; `prev` the state before.
    let mut prev: Vec<(u32, u32)> = Vec::new(); // (state, parent index in `prev`)
    let mut frontier: Vec<u32> = vec![0];
    prev.push(((start * 2) as u32, u32::MAX));
    seen[start * 2] = stamp;
    // Candidates weakly linked to the start: what an end must also be weakly linked to.
    let mut start_weak = Vec::new();
    if graph.mode == Mode::Aic {
        graph.weak(start, |o| start_weak.push(o));
    } else {
        // X and XY chains remove the start's digit from cells seeing both ends.
        let ctx = graph.ctx;
        let layout = ctx.cands.layout();
        let (cell, digit) = (graph.cell(start), graph.digit(start));
        for u in layout.units_of(cell) {
            let unit = layout.unit(u as usize);
            let mut places = ctx.cands.places(u as usize, digit);
            while places != 0 {
                let other = unit[places.trailing_zeros() as usize] as usize;
                places &= places - 1;
                if other != cell {
                    start_weak.push(other * graph.n + digit as usize - 1);
                }
            }
        }
    }
    start_weak.sort_unstable();
    start_weak.dedup();
    if start_weak.is_empty() {
        return None;
    }
    let mut depth = 1;
    while !frontier.is_empty() && depth < limit {
        let mut next = Vec::new();
        for &i in &frontier {
            let state = prev[i as usize].0 as usize;
            let (node, on) = (state / 2, state % 2 == 1);
            let mut visit = |other: usize, on_next: bool, next: &mut Vec<u32>| {
                let s = other * 2 + usize::from(on_next);
                if seen[s] != stamp {
                    seen[s] = stamp;
                    prev.push((s as u32, i));
                    next.push(prev.len() as u32 - 1);
                }
            };
            if on {
                graph.weak(node, |o| visit(o, false, &mut next));
            } else {
                for &o in &graph.strong[node] {
                    visit(o as usize, true, &mut next);
                }
            }
        }
        // Ends: nodes just reached by a strong link.
        if depth % 2 == 1 {
            for &i in &next {
                let end = prev[i as usize].0 as usize / 2;
                if end == start {
                    continue;
                }
                if graph.mode != Mode::Aic && graph.digit(end) != graph.digit(start) {
                    continue;
                }
                if graph.mode != Mode::Aic && graph.cell(end) == graph.cell(start) {
                    continue;
                }
                let eliminations: Vec<usize> = start_weak
                    .iter()
                    .copied()
                    .filter(|&x| x != end && graph.weakly_linked(x, end))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let mut nodes = Vec::new();
                let mut k = i;
                while k != u32::MAX {
                    nodes.push(prev[k as usize].0 as usize / 2);
                    k = prev[k as usize].1;
                }
                nodes.reverse();
                return Some(Chain {
                    nodes,
                    eliminations,
                });
            }
        }
        frontier = next;
        depth += 1;
    }
    None
}

fn find(ctx: &Context<'_>, mode: Mode) -> Option<Step> {
    let n = ctx.n();
    let cands = ctx.cands;
    let digits: Vec<Option<u8>> = if mode == Mode::X {
        (1..=n as u8).map(Some).collect()
    } else {
        vec![None]
    };
    let mut best: Option<Chain> = None;
    let mut seen = vec![0u32; n * n * n * 2];
    let mut stamp = 0;
    for only in digits {
        let graph = Graph::build(ctx, mode, only);
        for cell in 0..n * n {
            let mut m = cands.mask(cell);
            if mode == Mode::Xy && m.count_ones() != 2 {
                continue;
            }
            if let Some(d) = only {
                m &= 1 << (d - 1);
            }
            while m != 0 {
                let start = cell * n + m.trailing_zeros() as usize;
                m &= m - 1;
                if graph.strong[start].is_empty() {
                    continue;
                }
                let limit = best.as_ref().map_or(MAX_NODES, |b| b.nodes.len() - 1);
                stamp += 1;
                if let Some(chain) = from_start(&graph, start, limit, &mut seen, stamp) {
                    best = Some(chain);
                }
            }
        }
        if best.is_some() && mode == Mode::X {
            break; // the lowest digit with a chain: people work one digit at a time
        }
    }
    let chain = best?;
    let technique = match mode {
        Mode::X => Technique::XChain,
        Mode::Xy => Technique::XyChain,
        Mode::Aic => Technique::Aic,
    };
    let mut step = Step::new(technique);
    for &x in &chain.eliminations {
        let (r, c) = ctx.rc(x / n);
        step.eliminations.push((r, c, (x % n) as u8 + 1));
    }
    let cells: Vec<usize> = chain.nodes.iter().map(|&x| x / n).collect();
    let digits = chain.nodes.iter().fold(0u64, |m, &x| m | 1 << (x % n));
    finish(ctx, &mut step, &cells, digits);
    if ctx.text {
        // Eureka notation: (5)r1c2=(5)r1c7-(5)r3c8=...
        let mut notation = String::new();
        for (i, &x) in chain.nodes.iter().enumerate() {
            if i > 0 {
                notation.push(if i % 2 == 1 { '=' } else { '-' });
            }
            let (r, c) = ctx.rc(x / n);
            // Writing to a String cannot fail.
            let _ = write!(notation, "({})r{}c{}", x % n + 1, r + 1, c + 1);
        }
        let title = match mode {
            Mode::X => "X-chain",
            Mode::Xy => "XY-chain",
            Mode::Aic => "Alternating inference chain",
        };
        let (first, last) = (chain.nodes[0], chain.nodes[chain.nodes.len() - 1]);
        let (fr, fc) = ctx.rc(first / n);
        let (lr, lc) = ctx.rc(last / n);
        step.text = format!(
            "{title}: {notation} (= one of the two is true, - not both), so r{}c{} is {} or \
             r{}c{} is {}, and {} {} removed: {}",
            fr + 1,
            fc + 1,
            first % n + 1,
            lr + 1,
            lc + 1,
            last % n + 1,
            crate::core::logic::step::digit_list(
                chain
                    .eliminations
                    .iter()
                    .fold(0u64, |m, &x| m | 1 << (x % n))
            ),
            if step.eliminations.len() == 1 {
                "is"
            } else {
                "are"
            },
            elimination_cells(&step.eliminations)
        );
    }
    Some(step)
}

pub fn x_chain(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Mode::X)
}

pub fn xy_chain(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Mode::Xy)
}

pub fn aic(ctx: &Context<'_>) -> Option<Step> {
    find(ctx, Mode::Aic)
}
