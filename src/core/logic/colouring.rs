//! Simple colouring (single-digit colouring), for every size and box shape.
//!
//! The strong links of one digit join cells into clusters; colour each cluster's cells in
//! two alternating colours. In a cluster one colour holds the digit everywhere and the other
//! nowhere. Colour wrap: two cells of one colour see each other, so that colour is the false
//! one and the digit leaves all its cells. Colour trap: a cell outside the cluster that sees
//! both colours cannot hold the digit.

use super::engine::Context;
use super::links::{add_unit, cell_names, finish, strong_links, Link};
use super::step::{elimination_cells, Step, Technique};

/// One cluster: its cells with their colours (0 or 1), and its links.
struct Cluster {
    cells: Vec<(usize, u8)>,
    links: Vec<usize>,
}

/// The clusters of `links` (two or more links each), in the order their first link comes.
fn clusters(links: &[Link]) -> Vec<Cluster> {
    let mut used = vec![false; links.len()];
    let mut out = Vec::new();
    for start in 0..links.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        let mut cluster = Cluster {
            cells: vec![(links[start].a, 0), (links[start].b, 1)],
            links: vec![start],
        };
        let mut grew = true;
        while grew {
            grew = false;
            for (k, link) in links.iter().enumerate() {
                if used[k] {
                    continue;
                }
                let colour_of = |cell: usize| {
                    cluster
                        .cells
                        .iter()
                        .find(|&&(c, _)| c == cell)
                        .map(|&(_, col)| col)
                };
                let (ca, cb) = (colour_of(link.a), colour_of(link.b));
                match (ca, cb) {
                    (Some(col), None) => cluster.cells.push((link.b, 1 - col)),
                    (None, Some(col)) => cluster.cells.push((link.a, 1 - col)),
                    (Some(_), Some(_)) => {}
                    (None, None) => continue,
                }
                used[k] = true;
                cluster.links.push(k);
                grew = true;
            }
        }
        if cluster.links.len() >= 2 {
            out.push(cluster);
        }
    }
    out
}

pub fn simple_colouring(ctx: &Context<'_>) -> Option<Step> {
    let cands = ctx.cands;
    let layout = cands.layout();
    let n = ctx.n();
    for digit in 1..=n as u8 {
        let links = strong_links(ctx, digit);
        for cluster in clusters(&links) {
            let colour = |c: u8| -> Vec<usize> {
                cluster
                    .cells
                    .iter()
                    .filter(|&&(_, col)| col == c)
                    .map(|&(cell, _)| cell)
                    .collect()
            };
            let sides = [colour(0), colour(1)];
            let all: Vec<usize> = cluster.cells.iter().map(|&(c, _)| c).collect();
            let mut step = Step::new(Technique::SimpleColouring);
            // Colour wrap.
            let mut text = String::new();
            for side in &sides {
                let clash = side
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| side[i + 1..].iter().any(|&b| layout.sees(a, b)));
                if clash {
                    for &cell in side {
                        let (r, c) = ctx.rc(cell);
                        step.eliminations.push((r, c, digit));
                    }
                    if ctx.text {
                        text =
                            format!(
                            "Simple colouring (colour wrap) on {digit}: the strong links colour \
                             {} one colour and {} the other; two cells of the first colour see \
                             each other, so that colour is false and {digit} is removed from {}",
                            cell_names(ctx, side),
                            cell_names(ctx, if std::ptr::eq(side, &sides[0]) {
                                &sides[1]
                            } else {
                                &sides[0]
                            }),
                            cell_names(ctx, side)
                        );
                    }
                    break;
                }
            }
            // Colour trap.
            if step.eliminations.is_empty() {
                for cell in 0..n * n {
                    if !cands.has(cell, digit) || all.contains(&cell) {
                        continue;
                    }
                    let sees = |side: &[usize]| side.iter().any(|&s| layout.sees(cell, s));
                    if sees(&sides[0]) && sees(&sides[1]) {
                        let (r, c) = ctx.rc(cell);
                        step.eliminations.push((r, c, digit));
                    }
                }
                if step.eliminations.is_empty() {
                    continue;
                }
                if ctx.text {
                    text = format!(
                        "Simple colouring (colour trap) on {digit}: the strong links colour {} \
                         one colour and {} the other, so one colour holds {digit}; {digit} is \
                         removed from {}, which see both colours",
                        cell_names(ctx, &sides[0]),
                        cell_names(ctx, &sides[1]),
                        elimination_cells(&step.eliminations)
                    );
                }
            }
            finish(ctx, &mut step, &all, 1 << (digit - 1));
            for &k in &cluster.links {
                add_unit(ctx, &mut step, links[k].unit);
            }
            step.text = text;
            return Some(step);
        }
    }
    None
}
