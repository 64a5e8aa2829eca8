//! Logical solving over whole puzzle sets: soundness, coverage and grading speed.
//!
//! `cargo run --release --example logic_sets -- [--limit N] [--every K] [FILE...]`
//!
//! For every puzzle with one solution (others are counted and skipped), it
//! 1. times `start` + `grade` (the logical solution, no sentences; the solver runs only if a
//!    uniqueness technique or a stuck run needs the count), one thread;
//! 2. runs the trace again step by step, checking every placement and elimination against the
//!    solution (it panics on the first wrong step), and counts what fired.
//!
//! It prints, per set: how many puzzles ended solved, the share whose hardest technique is of
//! each level, grading speed (puzzles/s and the slowest puzzle), and how often each technique
//! fired. Default files: the unique-solution sets of ../shared/data. `--every K` takes every
//! K-th puzzle (a spread-out sample), `--limit N` at most N of them.

use std::time::Instant;

use sudoku_rs::core::grid::text;
use sudoku_rs::core::logic::{self, Candidates, Level, Technique, Techniques};
use sudoku_rs::core::{Solver, Unbounded};

const DEFAULT_SETS: [&str; 6] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "gen_easy35",
    "gen_minimal",
];

fn main() {
    let mut limit = usize::MAX;
    let mut every = 1usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--limit" => limit = args.next().and_then(|s| s.parse().ok()).expect("--limit N"),
            "--every" => every = args.next().and_then(|s| s.parse().ok()).expect("--every K"),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        let root = env!("CARGO_MANIFEST_DIR");
        files = DEFAULT_SETS
            .iter()
            .map(|s| format!("{root}/../shared/data/{s}"))
            .collect();
    }
    let mut total_fired = vec![0u64; Technique::ALL.len()];
    for file in &files {
        let data = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        run_set(file, &data, every, limit, &mut total_fired);
    }
    println!("\nsteps per technique, all sets:");
    for (t, &c) in Technique::ALL.iter().zip(&total_fired) {
        println!("  {:<22} {c}", t.name());
    }
}

fn run_set(file: &str, data: &str, every: usize, limit: usize, total_fired: &mut [u64]) {
    let name = file.rsplit('/').next().unwrap_or(file);
    let mut fired = vec![0u64; Technique::ALL.len()];
    let mut hardest = vec![0u64; Technique::ALL.len()];
    let mut first: Vec<Option<usize>> = vec![None; Technique::ALL.len()];
    let mut levels = [0u64; Level::ALL.len()];
    let (mut unique, mut skipped, mut solved, mut steps) = (0u64, 0u64, 0u64, 0u64);
    let mut grade_secs = 0f64;
    let mut slowest = (0f64, 0usize);
    let mut solver: Option<Solver> = None;
    for (index, line) in data.lines().enumerate().step_by(every).take(limit) {
        let grid = text::parse(line, None).expect("a puzzle");
        let solver = match &mut solver {
            Some(s) if s.shape() == grid.shape() => s,
            _ => solver.insert(Solver::new(grid.shape())),
        };
        let found = solver.solutions(&grid, 2, &mut Unbounded).expect("solved");
        if found.len() != 1 {
            skipped += 1;
            continue;
        }
        let begin = Instant::now();
        let start = logic::start(&grid, None, solver, &mut Unbounded).expect("a valid grid");
        let grade = logic::grade(start, Techniques::all(), solver, &mut Unbounded).expect("graded");
        let secs = begin.elapsed().as_secs_f64();
        grade_secs += secs;
        if secs > slowest.0 {
            slowest = (secs, index);
        }
        unique += 1;

        // The checked trace.
        let solution = &found[0];
        let n = grid.size();
        let mut cands = Candidates::from_grid(&grid);
        let mut top: Option<Technique> = None;
        while let Some(step) = logic::hint(&cands, Techniques::all(), true, &|| true) {
            for &(r, c, d) in &step.placements {
                assert_eq!(
                    solution.cells()[r * n + c],
                    d,
                    "{name} #{index}: wrong placement: {}",
                    step.text
                );
            }
            for &(r, c, d) in &step.eliminations {
                assert_ne!(
                    solution.cells()[r * n + c],
                    d,
                    "{name} #{index}: removes the solution: {}",
                    step.text
                );
            }
            assert!(
                logic::apply(&mut cands, &step),
                "{name} #{index}: no progress"
            );
            let t = step.technique;
            fired[t.index()] += 1;
            first[t.index()].get_or_insert(index);
            steps += 1;
            if top.map_or(true, |h| t.weight() > h.weight()) {
                top = Some(t);
            }
        }
        assert_eq!(
            top, grade.hardest,
            "{name} #{index}: trace and grade differ"
        );
        if cands.is_solved() {
            solved += 1;
            let level = top.map_or(Level::Easy, Technique::level);
            levels[level as usize] += 1;
        } else {
            println!("  UNSOLVED {name} #{index}: {line}");
        }
        if let Some(t) = top {
            hardest[t.index()] += 1;
        }
    }
    println!(
        "\n{name}: {unique} puzzles with one solution ({skipped} others skipped), {solved} solved \
         by logic ({:.2}%), {steps} steps",
        100.0 * solved as f64 / unique.max(1) as f64
    );
    let shares: Vec<String> = Level::ALL
        .iter()
        .zip(&levels)
        .map(|(l, &c)| {
            format!(
                "{} {:.2}%",
                l.label(),
                100.0 * c as f64 / unique.max(1) as f64
            )
        })
        .collect();
    println!("  hardest level: {}", shares.join(", "));
    println!(
        "  grade: {:.0} puzzles/s ({:.3} ms mean, slowest {:.1} ms at #{}), one thread",
        unique as f64 / grade_secs.max(1e-9),
        1e3 * grade_secs / unique.max(1) as f64,
        1e3 * slowest.0,
        slowest.1
    );
    println!("  technique: steps (puzzles where it is the hardest) [first puzzle using it]");
    for (t, (&f, &h)) in Technique::ALL.iter().zip(fired.iter().zip(&hardest)) {
        if f > 0 {
            println!(
                "    {:<22} {f} ({h}) [#{}]",
                t.name(),
                first[t.index()].unwrap_or(0)
            );
        }
    }
    for (a, b) in total_fired.iter_mut().zip(&fired) {
        *a += b;
    }
}
