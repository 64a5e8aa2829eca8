//! The published corpus (tests/data/published_links.json) counted to 2, each puzzle's search
//! nodes and thread CPU time, slowest last:
//!
//!     cargo run --release --example corpus_stats [-- ROUNDS [TITLE]]
//!
//! A puzzle whose constraints are not all modelled is left out (its link is refused). With
//! TITLE, only the puzzles whose title contains it, for profiling one.

use std::sync::Arc;

use sudoku_rs::core::link::{json, Puzzle};
use sudoku_rs::core::{Solver, Unbounded};

mod clock;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).map_or(3, |a| a.parse().expect("a round count"));
    let only = args.get(2).cloned().unwrap_or_default();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/published_links.json"
    );
    let text = std::fs::read_to_string(path).expect("the corpus");
    let corpus = json::parse(&text).expect("JSON");
    let mut rows = Vec::new();
    for entry in corpus
        .get("puzzles")
        .and_then(json::Json::as_array)
        .expect("puzzles")
    {
        let title = entry
            .get("title")
            .and_then(json::Json::as_str)
            .unwrap_or("?");
        if !title.contains(&only) {
            continue;
        }
        let link = entry
            .get("link")
            .and_then(json::Json::as_str)
            .expect("a link");
        let Ok(puzzle) = Puzzle::from_url(link) else {
            continue;
        };
        let shape = puzzle.shape().expect("a shape");
        let rules = Arc::new(puzzle.rules.clone());
        let mut best = f64::MAX;
        let (mut count, mut nodes) = (0, 0);
        for _ in 0..rounds {
            let start = clock::thread_cpu_time().expect("a CPU clock");
            let mut solver = Solver::with_rules(shape, rules.clone()).expect("rules fit");
            count = solver
                .count(&puzzle.givens, Some(2), &mut Unbounded)
                .expect("a valid puzzle");
            let seconds = clock::thread_cpu_time()
                .expect("a CPU clock")
                .saturating_sub(start)
                .as_secs_f64();
            best = best.min(seconds);
            nodes = solver.stats().nodes;
        }
        rows.push((best, nodes, count, puzzle.size, title.to_string()));
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (seconds, nodes, count, size, title) in &rows {
        println!(
            "{:9.3} ms {nodes:8} nodes  count {count}  {size}x{size}  {title}",
            seconds * 1e3
        );
    }
}
