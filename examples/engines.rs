//! Checks the 9x9 engine against the generic one on a file of puzzles and times both:
//! `cargo run --release --example engines FILE [N] [ENGINE]` (ENGINE `9x9` or `generic` runs
//! only that one, e.g. under `valgrind --tool=callgrind` to count instructions). Every puzzle's count (up to 2) and, for
//! unique puzzles, its solution must agree; guesses per puzzle explain the speed.
use std::time::Instant;
use sudoku_rs::core::grid::text;
use sudoku_rs::core::{Solver, Unbounded};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read_to_string(&args[1]).expect("readable file");
    let limit: usize = args
        .get(2)
        .map_or(usize::MAX, |s| s.parse().expect("a count"));
    let grids: Vec<_> = data
        .lines()
        .filter_map(|line| text::parse(line.trim(), None).ok())
        .take(limit)
        .collect();
    let shape = grids[0].shape();
    let mut engines = [
        ("9x9", Solver::new(shape)),
        ("generic", Solver::generic(shape)),
    ];
    let only = args.get(3);
    let mut results = Vec::new();
    for (name, solver) in &mut engines {
        if only.is_some_and(|only| only != name) {
            continue;
        }
        let (mut counts, mut solutions, mut guesses, mut solve_guesses) =
            (Vec::new(), Vec::new(), 0, 0);
        let start = Instant::now();
        for grid in &grids {
            counts.push(solver.count(grid.cells(), Some(2), &mut Unbounded).unwrap());
            guesses += solver.stats().guesses;
        }
        let count_time = start.elapsed().as_secs_f64();
        let start = Instant::now();
        for grid in &grids {
            solutions.push(solver.solve(grid, &mut Unbounded).ok());
            solve_guesses += solver.stats().guesses;
        }
        let solve_time = start.elapsed().as_secs_f64();
        let n = grids.len() as f64;
        println!(
            "{name:8} count2 {:9.0}/s  solve {:9.0}/s  guesses/puzzle: count2 {:7.1} solve {:7.1}",
            n / count_time,
            n / solve_time,
            guesses as f64 / n,
            solve_guesses as f64 / n
        );
        results.push((counts, solutions));
    }
    if results.len() < 2 {
        return;
    }
    let (a, b) = (&results[0], &results[1]);
    let mut disagree = 0;
    let rows = a.0.iter().zip(&a.1).zip(b.0.iter().zip(&b.1));
    for (i, ((count, solution), (other_count, other_solution))) in rows.enumerate() {
        if count != other_count || (*count == 1 && solution != other_solution) {
            disagree += 1;
            if disagree <= 5 {
                println!(
                    "DISAGREE on puzzle {}: counts {count} vs {other_count}",
                    i + 1
                );
            }
        }
        if let Some(s) = solution {
            assert!(
                s.is_complete() && grids[i].is_solved_by(s),
                "bad solution {}",
                i + 1
            );
        }
    }
    println!("{} puzzles, {disagree} disagreements", grids.len());
}
