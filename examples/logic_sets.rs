//! Logical solving over whole puzzle sets: soundness and coverage.
//!
//! `cargo run --release --example logic_sets -- [--every K] [--offset I] [--limit N] [FILE...]`
//!
//! For every puzzle of a file (any size; each line is one puzzle) it counts the solutions (up to
//! two) and, for each puzzle with one solution, runs `explain` with every technique once and
//! checks that run: every placement is the solution's digit, every elimination removes a
//! candidate that is not, eliminations are sorted, and no step is empty. A step that fails is
//! printed (`UNSOUND`) and counted; the run goes on. A puzzle with one solution that the logic
//! leaves unsolved is printed too (`UNSOLVED`). Puzzles with several solutions are explained
//! as well (no uniqueness technique applies to them) and their steps checked against the first
//! solution found: a sound step holds in every solution, so this is a check too, only a weaker
//! one; they are never solved by logic and are counted apart.
//!
//! Per file it prints: puzzles read, how many have one solution, unsound steps, the share solved,
//! the share whose hardest technique is of each level and the share solved with techniques up to
//! each level (the coverage of each tier), steps per technique, the time of the logic (explain,
//! sentences included, one thread) and of the whole file, and a digest of every step's technique,
//! placements and eliminations, so two builds can be checked for the same traces. Long files
//! print a progress line every 5,000 puzzles (stderr).
//!
//! Default files: every set in ../shared/data. `--every K` takes every K-th line from line
//! `--offset I` (0 by default: a spread-out sample, or one share of a file split over several
//! processes), `--limit N` at most N lines.

use std::time::Instant;

use sudoku_rs::core::grid::text;
use sudoku_rs::core::logic::{
    self, Candidates, Explanation, Level, Solutions, Step, Technique, Techniques,
};
use sudoku_rs::core::{Grid, Solver, Unbounded};

mod clock;

const DEFAULT_SETS: [&str; 10] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "gen_easy35",
    "gen_minimal",
    "gen_invalid",
    "gen_16x16",
    "gen_25x25",
];

const PROGRESS_EVERY: u64 = 5000;

struct Options {
    every: usize,
    offset: usize,
    limit: usize,
}

fn main() {
    let mut opts = Options {
        every: 1,
        offset: 0,
        limit: usize::MAX,
    };
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |flag: &str| -> usize {
            args.next()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{flag} takes a number"))
        };
        match a.as_str() {
            "--every" => opts.every = number("--every").max(1),
            "--offset" => opts.offset = number("--offset"),
            "--limit" => opts.limit = number("--limit"),
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
    let mut total = Tally::default();
    for file in &files {
        let data = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let name = file.rsplit('/').next().unwrap_or(file);
        let tally = run_set(name, &data, &opts);
        tally.print(name);
        total.add(&tally);
    }
    if files.len() > 1 {
        total.print("all files");
    }
}

/// What one file (or all of them) gave.
#[derive(Default)]
struct Tally {
    read: u64,
    no_solution: u64,
    several: u64,
    unique: u64,
    solved: u64,
    /// Steps of the puzzles with one solution, and how many were wrong.
    steps: u64,
    unsound: u64,
    /// The same for the puzzles with several solutions.
    several_steps: u64,
    several_unsound: u64,
    /// Per level: puzzles solved whose hardest technique has that level.
    levels: [u64; Level::ALL.len()],
    fired: Vec<u64>,
    logic_secs: f64,
    /// The same in CPU time (this thread's clock), which a busy machine does not inflate.
    logic_cpu: f64,
    file_secs: f64,
    file_cpu: f64,
    slowest: (f64, usize),
    digest: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.read += other.read;
        self.no_solution += other.no_solution;
        self.several += other.several;
        self.unique += other.unique;
        self.solved += other.solved;
        self.steps += other.steps;
        self.unsound += other.unsound;
        self.several_steps += other.several_steps;
        self.several_unsound += other.several_unsound;
        for (a, b) in self.levels.iter_mut().zip(&other.levels) {
            *a += b;
        }
        self.fired.resize(Technique::ALL.len(), 0);
        for (a, b) in self.fired.iter_mut().zip(&other.fired) {
            *a += b;
        }
        self.logic_secs += other.logic_secs;
        self.logic_cpu += other.logic_cpu;
        self.file_secs += other.file_secs;
        self.file_cpu += other.file_cpu;
        if other.slowest.0 > self.slowest.0 {
            self.slowest = other.slowest;
        }
        self.digest = fold(self.digest, other.digest);
    }

    fn print(&self, name: &str) {
        let share = |k: u64| 100.0 * k as f64 / self.unique.max(1) as f64;
        println!(
            "\n{name}: {} puzzles read: {} with one solution, {} with several, {} with none",
            self.read, self.unique, self.several, self.no_solution
        );
        println!(
            "  {} unsound steps of {}; {} solved by logic ({:.2}%)",
            self.unsound,
            self.steps,
            self.solved,
            share(self.solved)
        );
        if self.several > 0 {
            println!(
                "  several solutions: {} unsound steps of {} (checked against one solution)",
                self.several_unsound, self.several_steps
            );
        }
        let per_level: Vec<String> = Level::ALL
            .iter()
            .zip(&self.levels)
            .map(|(l, &k)| format!("{} {:.2}%", l.label(), share(k)))
            .collect();
        println!("  hardest technique's level: {}", per_level.join(", "));
        let mut up_to = 0;
        let tiers: Vec<String> = Level::ALL
            .iter()
            .zip(&self.levels)
            .map(|(l, &k)| {
                up_to += k;
                format!("{} {:.2}%", l.label(), share(up_to))
            })
            .collect();
        println!("  solved with techniques up to: {}", tiers.join(", "));
        println!(
            "  logic (explain, one thread): {:.1} s wall, {:.1} s CPU, {:.0} puzzles/s of CPU, \
             slowest {:.1} ms wall (line {}); whole file {:.1} s wall, {:.1} s CPU",
            self.logic_secs,
            self.logic_cpu,
            self.unique as f64 / self.logic_cpu.max(1e-9),
            1e3 * self.slowest.0,
            self.slowest.1,
            self.file_secs,
            self.file_cpu
        );
        let used: Vec<String> = Technique::ALL
            .iter()
            .zip(&self.fired)
            .filter(|(_, &k)| k > 0)
            .map(|(t, k)| format!("{} {k}", t.name()))
            .collect();
        println!("  steps: {}", used.join(", "));
        println!("  trace digest: {:016x}", self.digest);
    }
}

/// FNV-1a over 64-bit words: a digest of the traces that does not depend on the build.
fn fold(hash: u64, word: u64) -> u64 {
    word.to_le_bytes().iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn step_digest(mut hash: u64, step: &Step) -> u64 {
    hash = fold(hash, step.technique.index() as u64);
    for &(r, c, d) in step.placements.iter().chain(&step.eliminations) {
        hash = fold(hash, (r as u64) << 16 | (c as u64) << 8 | u64::from(d));
    }
    fold(hash, u64::MAX)
}

/// This thread's CPU time in seconds; 0 where there is no thread CPU clock.
fn cpu_secs() -> f64 {
    clock::thread_cpu_time().map_or(0.0, |t| t.as_secs_f64())
}

fn run_set(name: &str, data: &str, opts: &Options) -> Tally {
    let began = Instant::now();
    let began_cpu = cpu_secs();
    let mut tally = Tally {
        fired: vec![0; Technique::ALL.len()],
        digest: 0xcbf2_9ce4_8422_2325,
        ..Tally::default()
    };
    let mut solver: Option<Solver> = None;
    let lines = data
        .lines()
        .enumerate()
        .skip(opts.offset)
        .step_by(opts.every)
        .take(opts.limit);
    for (index, line) in lines {
        tally.read += 1;
        if tally.read % PROGRESS_EVERY == 0 {
            eprintln!(
                "  {name}: {} read, {} unique, {} unsound, {} solved, {:.0} s wall, {:.0} s CPU",
                tally.read,
                tally.unique,
                tally.unsound + tally.several_unsound,
                tally.solved,
                began.elapsed().as_secs_f64(),
                cpu_secs() - began_cpu
            );
        }
        let grid = text::parse(line, None)
            .unwrap_or_else(|e| panic!("{name} line {index}: not a puzzle: {e}"));
        let solver = match &mut solver {
            Some(s) if s.shape() == grid.shape() => s,
            _ => solver.insert(Solver::new(grid.shape())),
        };
        let found = match grid.check() {
            Ok(()) => solver.solutions(&grid, 2, &mut Unbounded).expect("counted"),
            Err(_) => Vec::new(), // conflicting clues: no solution
        };
        match found.len() {
            0 => tally.no_solution += 1,
            1 => check_puzzle(name, index, &grid, &found, solver, &mut tally),
            _ => {
                tally.several += 1;
                check_puzzle(name, index, &grid, &found, solver, &mut tally);
            }
        }
    }
    tally.file_secs = began.elapsed().as_secs_f64();
    tally.file_cpu = cpu_secs() - began_cpu;
    tally
}

fn check_puzzle(
    name: &str,
    index: usize,
    grid: &Grid,
    found: &[Grid],
    solver: &mut Solver,
    tally: &mut Tally,
) {
    let unique = found.len() == 1;
    let solution = found[0].cells();
    let began = Instant::now();
    let began_cpu = cpu_secs();
    let mut start = logic::start(grid, None, solver, &mut Unbounded).expect("a valid grid");
    if !unique {
        // Known already: counting again (seconds on a 25x25) is not what is timed here.
        start.solutions = Some(Solutions::Many);
    }
    let explanation: Explanation =
        logic::explain(start, Techniques::all(), solver, &mut Unbounded).expect("explained");
    let secs = began.elapsed().as_secs_f64();
    let cpu = cpu_secs() - began_cpu;

    let n = grid.size();
    let mut cands = Candidates::from_grid(grid);
    let mut hash = fold(0, index as u64);
    let (mut steps, mut wrong) = (0, 0);
    for step in &explanation.steps {
        if let Some(why) = unsound(&cands, solution, step) {
            wrong += 1;
            let kind = if unique { "" } else { " (several solutions)" };
            println!("  UNSOUND {name} line {index}{kind}: {why}: {}", step.text);
        }
        logic::apply(&mut cands, step);
        if unique {
            tally.fired[step.technique.index()] += 1;
        }
        steps += 1;
        hash = step_digest(hash, step);
    }
    tally.digest = fold(tally.digest, hash);
    if !unique {
        tally.several_steps += steps;
        tally.several_unsound += wrong;
        return;
    }
    tally.unique += 1;
    tally.steps += steps;
    tally.unsound += wrong;
    tally.logic_secs += secs;
    tally.logic_cpu += cpu;
    if secs > tally.slowest.0 {
        tally.slowest = (secs, index);
    }
    if explanation.solved() && cands.values() == solution {
        tally.solved += 1;
        let level = explanation
            .grade
            .level
            .expect("a solved unique puzzle has a level");
        tally.levels[level as usize] += 1;
    } else {
        let (r, c) = (0..n * n)
            .find(|&x| cands.value(x) == 0)
            .map_or((0, 0), |x| (x / n, x % n));
        println!(
            "  UNSOLVED {name} line {index} (first empty cell r{}c{}): {}",
            r + 1,
            c + 1,
            grid_text(grid)
        );
    }
}

/// Why a step is wrong, if it is: checked against the solution and the candidates before it.
fn unsound(cands: &Candidates, solution: &[u8], step: &Step) -> Option<String> {
    let n = cands.size();
    if step.placements.is_empty() && step.eliminations.is_empty() {
        return Some("an empty step".into());
    }
    for &(r, c, d) in &step.placements {
        if solution[r * n + c] != d {
            return Some(format!("places {d} at r{}c{}", r + 1, c + 1));
        }
    }
    if step.eliminations.windows(2).any(|w| w[0] >= w[1]) {
        return Some("eliminations not sorted".into());
    }
    for &(r, c, d) in &step.eliminations {
        if solution[r * n + c] == d {
            return Some(format!(
                "removes the solution's {d} at r{}c{}",
                r + 1,
                c + 1
            ));
        }
        if !cands.has(r * n + c, d) {
            return Some(format!(
                "removes {d} at r{}c{}, not a candidate",
                r + 1,
                c + 1
            ));
        }
    }
    None
}

fn grid_text(grid: &Grid) -> String {
    grid.cells()
        .iter()
        .map(|&v| text::char_of_value(v))
        .collect()
}
