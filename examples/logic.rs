//! Logical solving speed and coverage, one thread:
//! `cargo run --release --example logic -- N FILE...` (the first N puzzles of each file).
//!
//! Per file: grade and explain speed in puzzles/s (the whole logical run, plus counting
//! solutions up to 2 when the logic gets stuck; explain also writes every sentence), the share solved by each
//! technique level, and how often each technique fired.
use std::time::Instant;

use sudoku_rs::core::grid::text;
use sudoku_rs::core::logic::{self, Level, Technique, Techniques};
use sudoku_rs::core::{Grid, Solver, Unbounded};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .expect("usage: logic N FILE...");
    for path in &args[2..] {
        let data = std::fs::read_to_string(path).expect("readable file");
        let grids: Vec<Grid> = data
            .lines()
            .take(count)
            .map(|line| text::parse(line, None).expect("a puzzle"))
            .collect();
        report(path, &grids);
    }
}

fn report(path: &str, grids: &[Grid]) {
    let mut solver = Solver::new(grids[0].shape());
    let name = path.rsplit('/').next().unwrap_or(path);

    let t = Instant::now();
    let mut grades = Vec::with_capacity(grids.len());
    for grid in grids {
        let start = logic::start(grid, None, &mut solver, &mut Unbounded).expect("valid");
        grades.push(
            logic::grade(start, Techniques::all(), &mut solver, &mut Unbounded).expect("graded"),
        );
    }
    let grade_rate = grids.len() as f64 / t.elapsed().as_secs_f64();

    let t = Instant::now();
    let mut fired = vec![0usize; Technique::ALL.len()];
    let mut steps = 0usize;
    for grid in grids {
        let start = logic::start(grid, None, &mut solver, &mut Unbounded).expect("valid");
        let explanation =
            logic::explain(start, Techniques::all(), &mut solver, &mut Unbounded).unwrap();
        steps += explanation.steps.len();
        for step in &explanation.steps {
            fired[step.technique.index()] += 1;
        }
    }
    let explain_rate = grids.len() as f64 / t.elapsed().as_secs_f64();

    println!(
        "{name}: {} puzzles; grade {grade_rate:.0}/s, explain {explain_rate:.0}/s ({:.1} steps/puzzle)",
        grids.len(),
        steps as f64 / grids.len() as f64
    );
    let mut line = String::from("  levels:");
    for level in Level::ALL {
        let k = grades.iter().filter(|g| g.level == Some(level)).count();
        line += &format!(" {} {:.1}%", level.label(), pct(k, grids.len()));
    }
    for label in ["unsolved", "not unique", "no solution"] {
        let k = grades.iter().filter(|g| g.label() == label).count();
        line += &format!(", {label} {:.1}%", pct(k, grids.len()));
    }
    println!("{line}");
    let used: Vec<String> = Technique::ALL
        .iter()
        .zip(&fired)
        .filter(|(_, &k)| k > 0)
        .map(|(t, k)| format!("{} {k}", t.name()))
        .collect();
    println!("  steps: {}", used.join(", "));
}

fn pct(k: usize, total: usize) -> f64 {
    100.0 * k as f64 / total as f64
}
