//! Search statistics and thread CPU time of the variant engine, counting each puzzle of a file
//! to 2 (the uniqueness check the generator makes), or with `--solve` solving it:
//!
//!     cargo run --release --example variant_stats -- [--solve] RULE FILE [CAGES]
//!     cargo run --release --example variant_stats -- RULE COUNT     # generate COUNT 9x9 puzzles
//!
//! RULE is one of `x`, `anti-knight`, `x-anti-knight`, `non-consecutive`, `killer` (then CAGES
//! is a file with one cage a line: the total, then row and column of each cell, counted from
//! 0). CPU time rather than wall time, so a shared machine's load does not move the figures.

use std::sync::Arc;

use sudoku_rs::core::grid::text;
use sudoku_rs::core::make::generate::{self, Options, Symmetry};
use sudoku_rs::core::rules::{Cage, Spec};
use sudoku_rs::core::{BoxShape, Cell, Rules, Solver, Unbounded};

mod clock;

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let solve = args.get(1).is_some_and(|a| a == "--solve");
    if solve {
        args.remove(1);
    }
    let usage = "usage: variant_stats [--solve] RULE FILE [CAGES]";
    let (Some(rule), Some(file)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let mut spec = Spec::default();
    match rule.as_str() {
        "x" => spec.diagonals = true,
        "anti-knight" => spec.anti_knight = true,
        "x-anti-knight" => {
            spec.diagonals = true;
            spec.anti_knight = true;
        }
        "non-consecutive" => spec.non_consecutive = true,
        "killer" => {
            let cages = std::fs::read_to_string(args.get(3).expect(usage)).expect("a cage file");
            for line in cages.lines() {
                let nums: Vec<usize> = line
                    .split_whitespace()
                    .map(|s| s.parse().expect("numbers"))
                    .collect();
                spec.cages.push(Cage {
                    total: Some(nums[0] as u32),
                    cells: nums[1..]
                        .chunks(2)
                        .map(|p| Cell {
                            row: p[0],
                            col: p[1],
                        })
                        .collect(),
                });
            }
        }
        other => panic!("unknown rule {other}; {usage}"),
    }
    let rules = Arc::new(Rules::new(spec).expect("valid rules"));
    if let Ok(count) = file.parse::<u64>() {
        return generate(rule, rules, count);
    }
    let data = std::fs::read_to_string(file).expect("a puzzle file");
    let (mut nodes, mut seconds, mut puzzles) = (0u64, 0f64, 0usize);
    let (mut most, mut guesses) = (0u64, 0u64);
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let grid = text::parse(line, None).expect("a puzzle");
        let mut solver = Solver::with_rules(grid.shape(), rules.clone()).expect("rules fit");
        let start = cpu_seconds();
        if solve {
            let solution = solver.solve(&grid, &mut Unbounded).expect("a solution");
            assert!(grid.is_solved_by(&solution));
        } else {
            solver
                .count(grid.cells(), Some(2), &mut Unbounded)
                .expect("a valid puzzle");
        }
        seconds += cpu_seconds() - start;
        nodes += solver.stats().nodes;
        guesses += solver.stats().guesses;
        most = most.max(solver.stats().nodes);
        puzzles += 1;
    }
    println!(
        "{rule}: {puzzles} puzzles, {nodes} nodes (most {most}), {guesses} guesses, {:.1} ms CPU, \
         {:.1} puzzles/s ({})",
        seconds * 1e3,
        puzzles as f64 / seconds,
        if solve { "solve" } else { "count to 2" }
    );
}

/// Generates 9x9 puzzles under `rules` with seeds `0..count`, reporting the CPU time.
fn generate(rule: &str, rules: Arc<Rules>, count: u64) {
    let shape = BoxShape::CLASSIC;
    let options = Options {
        clues: None,
        symmetry: Symmetry::None,
        minimal: false,
    };
    let mut solver = Solver::with_rules(shape, rules).expect("rules fit");
    let start = cpu_seconds();
    for seed in 0..count {
        generate::generate(shape, &options, seed, &mut solver, &mut Unbounded).expect("a puzzle");
    }
    let seconds = cpu_seconds() - start;
    println!(
        "{rule}: generated {count} puzzles, {:.1} ms CPU, {:.2} puzzles/s",
        seconds * 1e3,
        count as f64 / seconds
    );
}

/// The calling thread's CPU time in seconds.
fn cpu_seconds() -> f64 {
    clock::thread_cpu_time()
        .expect("a thread CPU clock")
        .as_secs_f64()
}
