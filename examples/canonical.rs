//! Canonical-form speed and search size over a file of puzzles:
//! `cargo run --release --example canonical FILE [N] [--solved]`. `--solved` canonicalises each
//! puzzle's solution instead (solved grids tie far more, the hard case). Prints grids per second
//! (one thread, best of 3 passes) and search nodes per grid, which does not depend on the load.
use std::time::Instant;
use sudoku_rs::core::grid::text;
use sudoku_rs::core::make::canonical::canonical_counted;
use sudoku_rs::core::{Solver, Unbounded};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read_to_string(&args[1]).expect("readable file");
    let limit: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let solved = args.iter().any(|a| a == "--solved");
    let mut grids = Vec::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()).take(limit) {
        let grid = text::parse(line, None).expect("a puzzle");
        grids.push(if solved {
            Solver::new(grid.shape())
                .solve(&grid, &mut Unbounded)
                .expect("a solvable puzzle")
        } else {
            grid
        });
    }
    let mut best = f64::INFINITY;
    let mut nodes = 0u64;
    let mut most = 0u64;
    for _ in 0..3 {
        let start = Instant::now();
        nodes = 0;
        for grid in &grids {
            let (_, _, n) = canonical_counted(grid).expect("a valid grid of a supported size");
            nodes += n;
            most = most.max(n);
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{} grids: {:.0} grids/s, {:.0} nodes/grid (most {most})",
        grids.len(),
        grids.len() as f64 / best,
        nodes as f64 / grids.len() as f64
    );
}
