//! Prints search statistics for each puzzle of a file: `cargo run --release --example stats FILE [N]`.
use std::time::Instant;
use sudoku_rs::core::grid::text;
use sudoku_rs::core::{Solver, Unbounded};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read_to_string(&args[1]).expect("readable file");
    let limit: usize = args
        .get(2)
        .map_or(usize::MAX, |s| s.parse().expect("a count"));
    for line in data.lines().take(limit) {
        let grid = text::parse(line, None).expect("a puzzle");
        let mut solver = Solver::new(grid.shape());
        let start = Instant::now();
        let solved = solver.solve(&grid, &mut Unbounded).is_ok();
        let stats = solver.stats();
        println!(
            "solved={solved} nodes={} guesses={} dead_ends={} {:.1} ms",
            stats.nodes,
            stats.guesses,
            stats.dead_ends,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
