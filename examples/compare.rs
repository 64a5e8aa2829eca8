//! Our engines beside the old 9x9 engine and the `sudoku` crate (JCZSolve-style, 9x9 only) on
//! the same puzzles, one table:
//!
//!     cargo run --release --example compare
//!     cargo run --release --example compare -- --sets puzzles6_forum_hardest_1106 --rounds 9
//!     cargo run --release --example compare -- --limit 0 --tsv rates.tsv
//!
//! The old engine ("base" in the table) is a verbatim copy of the 9x9 engine at main 636dee6, a
//! module of this example (`compare/old_nine.rs`) that uses only the crate's public API, so a
//! speed-up is measured side by side in one process rather than against a figure from another
//! day. It is 9x9 only: bigger grids are timed for ours alone.
//!
//! Options: `--sets NAME...` (default: the tdoku sets, gen_easy35, gen_16x16, gen_25x25),
//! `--limit N` puzzles per set from the top of the file (0: all; default 2000 for 9x9, 200 for
//! 16x16 and 40 for 25x25 and bigger, which take far longer each), `--rounds R` (default 5),
//! `--data DIR` (default `$SUDOKU_RS_DATA` or `../shared/data`), `--clock cpu|wall` (default
//! cpu), `--tsv PATH` (also write the rates as tab-separated values, for `benches/bench.py
//! --compare`).
//!
//! Single thread. Every cell is the fastest pass over the set's puzzles in R rounds (a round
//! repeats passes for 0.1 s), and each round measures every cell of every set in turn, the
//! three solvers taking turns to go first. Passes are timed by the thread's CPU clock, which does
//! not count the time other processes hold the core: on a shared machine wall-clock passes are
//! interrupted more the longer they are, which would favour the faster solver's short passes.
//! `--clock wall` times them by the wall clock instead, as `benches/bench.py` does. Before
//! timing, all solvers count every puzzle to 2 and must agree (and each solution must solve its
//! puzzle, and ours must be the old engine's on a unique puzzle); any disagreement is printed and
//! the exit status is 1. The guesses columns are the search statistics per puzzle of ours and
//! the old engine, to explain a change in speed.
//!
//! Grids other than 9x9 (the generic engine) are timed puzzle by puzzle, once per round with the
//! checking pass as one more round, and each puzzle keeps its fastest time; their rate is the
//! puzzles over the sum of those times. A second table gives the distribution of the time one
//! puzzle takes: median, 90th and 99th percentile (nearest rank), the worst and the mean. Big
//! grids have heavy-tailed search times, so the worst puzzle matters as much as the rate.

use std::hint::black_box;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sudoku_rs::core::{BoxShape, Error, Grid, Solver, Unbounded};

mod clock;
#[path = "../benches/common/mod.rs"]
mod common;
#[path = "compare/old_nine.rs"]
mod old_nine;
use common::PuzzleSet;
use old_nine::OldNine;

/// Puzzles per set without `--limit`: 9x9, bigger grids.
const DEFAULT_LIMITS: (usize, usize) = (2000, 200);

/// Puzzles per set of 25x25 or bigger grids without `--limit`: each can take a second.
const DEFAULT_HUGE_LIMIT: usize = 40;

/// Sets run by default beside the shared benchmark sets: the generic engine's heavy tail.
const EXTRA_SETS: [&str; 1] = ["gen_25x25"];

/// A measurement repeats passes over the set until this much time has passed and keeps the
/// fastest, so a fast set gets several chances at a pass that no other process interrupted.
const MIN_TIME: Duration = Duration::from_millis(100);

/// How a pass is timed.
#[derive(Clone, Copy, PartialEq)]
enum Clock {
    /// The calling thread's CPU time (Unix only).
    Cpu,
    Wall,
}

impl Clock {
    /// How long `f` took by this clock.
    fn time(self, f: impl FnOnce()) -> Duration {
        let read = match self {
            Clock::Cpu => thread_cpu_time,
            Clock::Wall => since_start,
        };
        let start = read();
        f();
        // Both clocks are monotonic; saturating only keeps the type's promise.
        read().saturating_sub(start)
    }
}

/// The wall clock, as time since the first call.
fn since_start() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

fn thread_cpu_time() -> Duration {
    clock::thread_cpu_time().expect("--clock cpu is refused where there is no thread CPU clock")
}

struct Args {
    sets: Vec<String>,
    /// Puzzles per set: of 9x9 grids, of bigger grids.
    limits: (usize, usize),
    /// Puzzles per set of 25x25 and bigger grids.
    huge_limit: usize,
    rounds: usize,
    data: PathBuf,
    clock: Clock,
    tsv: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        sets: Vec::new(),
        limits: DEFAULT_LIMITS,
        huge_limit: DEFAULT_HUGE_LIMIT,
        rounds: 5,
        data: common::data_dir(),
        clock: if cfg!(unix) { Clock::Cpu } else { Clock::Wall },
        tsv: None,
    };
    let mut it = std::env::args().skip(1).peekable();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--sets" => {
                while let Some(name) = it.next_if(|a| !a.starts_with("--")) {
                    args.sets.push(name);
                }
            }
            "--limit" => {
                let limit = count(&flag, &value(&mut it, &flag)?)?;
                args.limits = (limit, limit);
                args.huge_limit = limit;
            }
            "--rounds" => args.rounds = count(&flag, &value(&mut it, &flag)?)?.max(1),
            "--data" => args.data = value(&mut it, &flag)?.into(),
            "--tsv" => args.tsv = Some(value(&mut it, &flag)?.into()),
            "--clock" => {
                args.clock = match value(&mut it, &flag)?.as_str() {
                    "cpu" if cfg!(unix) => Clock::Cpu,
                    "cpu" => return Err("--clock cpu needs a Unix thread CPU clock".into()),
                    "wall" => Clock::Wall,
                    other => return Err(format!("--clock is cpu or wall, not {other:?}")),
                }
            }
            "-h" | "--help" => {
                return Err("usage: compare [--sets NAME...] [--limit N] [--rounds R] \
                            [--data DIR] [--clock cpu|wall] [--tsv PATH]"
                    .into())
            }
            _ => return Err(format!("unknown argument {flag:?}; try --help")),
        }
    }
    if args.sets.is_empty() {
        args.sets = common::DEFAULT_SETS
            .iter()
            .chain(&EXTRA_SETS)
            .map(|&name| name.to_owned())
            .collect();
    }
    Ok(args)
}

fn value(it: &mut impl Iterator<Item = String>, flag: &str) -> Result<String, String> {
    it.next().ok_or(format!("{flag} needs a value"))
}

fn count(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} expects a count, got {value:?}"))
}

/// A 9x9 solver the comparison times through the same calls: ours (a [`Solver`]) or the old
/// engine.
trait Engine {
    /// The first solution of `puzzle` into `out`; whether there was one.
    fn solve(&mut self, puzzle: &[u8], out: &mut [u8]) -> bool;
    /// The solutions of `puzzle` up to `limit`, with conflicting givens counted as 0 solutions,
    /// as the `sudoku` crate counts them.
    fn count(&mut self, puzzle: &[u8], limit: u64) -> u64;
    /// The guesses of the last call.
    fn guesses(&self) -> u64;

    /// One timed pass solving every puzzle of the set; how many had a solution.
    fn solve_pass(&mut self, set: &PuzzleSet, out: &mut [u8]) -> usize {
        set.puzzles().filter(|p| self.solve(p, out)).count()
    }

    /// One timed pass counting every puzzle of the set to 2; the sum of the counts.
    fn count2_pass(&mut self, set: &PuzzleSet) -> u64 {
        set.puzzles().map(|p| self.count(p, 2)).sum()
    }
}

impl Engine for Solver {
    fn solve(&mut self, puzzle: &[u8], out: &mut [u8]) -> bool {
        matches!(self.solve_into(puzzle, out, &mut Unbounded), Ok(true))
    }

    fn count(&mut self, puzzle: &[u8], limit: u64) -> u64 {
        common::ours_count(self, puzzle, limit)
    }

    fn guesses(&self) -> u64 {
        self.stats().guesses
    }

    /// The criterion bench's pass (`benches/common`), so both time the same calls.
    fn solve_pass(&mut self, set: &PuzzleSet, out: &mut [u8]) -> usize {
        common::ours_solve(self, set, out)
    }

    fn count2_pass(&mut self, set: &PuzzleSet) -> u64 {
        common::ours_count2(self, set)
    }
}

impl Engine for OldNine {
    fn solve(&mut self, puzzle: &[u8], out: &mut [u8]) -> bool {
        matches!(self.solve_into(puzzle, out), Ok(true))
    }

    fn count(&mut self, puzzle: &[u8], limit: u64) -> u64 {
        match OldNine::count(self, puzzle, limit) {
            Ok(count) => count,
            Err(Error::Conflict { .. }) => 0,
            Err(err) => panic!("counting failed: {err}"),
        }
    }

    fn guesses(&self) -> u64 {
        self.stats().guesses
    }
}

/// The solvers under test, in table order.
const OURS: usize = 0;
const OLD: usize = 1;
const SUDOKU: usize = 2;

/// Best rates (puzzles/s) of one set, `best[solver][op]` with op 0 solve, 1 count to 2; with
/// guesses per puzzle of ours and the old engine, `guesses[solver][op]`, and on sets timed puzzle
/// by puzzle each puzzle's fastest time, `fastest[solver][op][puzzle]`.
#[derive(Default)]
struct Row {
    best: [[f64; 2]; 3],
    guesses: [[f64; 2]; 2],
    fastest: [[Vec<Duration>; 2]; 2],
}

/// Our solver and, on 9x9, the old engine, for one set.
struct Engines {
    ours: Solver,
    old: Option<OldNine>,
}

/// Whether a set is timed puzzle by puzzle: grids the generic engine solves.
fn per_puzzle(set: &PuzzleSet) -> bool {
    set.shape != BoxShape::CLASSIC
}

/// One pass of `solver` over the set, timing each puzzle and keeping its fastest time in
/// `fastest` (the checking pass counts as a first round); returns puzzles/s over the sum of
/// each puzzle's fastest time so far.
fn timed_pass(
    clock: Clock,
    solver: &mut impl Engine,
    set: &PuzzleSet,
    op: usize,
    fastest: &mut Vec<Duration>,
) -> f64 {
    let mut out = vec![0u8; set.shape.cell_count()];
    fastest.resize(set.len(), Duration::MAX);
    for (puzzle, best) in set.puzzles().zip(fastest.iter_mut()) {
        let took = clock.time(|| {
            if op == 0 {
                black_box(solver.solve(black_box(puzzle), &mut out));
            } else {
                black_box(solver.count(black_box(puzzle), 2));
            }
        });
        *best = (*best).min(took);
    }
    set.len() as f64 / fastest.iter().sum::<Duration>().as_secs_f64()
}

/// Puzzles/s of the fastest run of `pass` (one pass over `n` puzzles), run until `MIN_TIME`
/// has passed. The fastest, not the mean, because on a shared machine the other processes only
/// ever add time; `benches/bench.py` takes the fastest of its runs too.
fn rate(clock: Clock, n: usize, mut pass: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut fastest = Duration::MAX;
    loop {
        fastest = fastest.min(clock.time(&mut pass));
        if start.elapsed() >= MIN_TIME {
            return n as f64 / fastest.as_secs_f64();
        }
    }
}

/// Whether `answer` solves `puzzle` (keeps its clues, breaks no rule).
fn solves(set: &PuzzleSet, puzzle: &[u8], answer: &[u8]) -> bool {
    let grid = |cells: &[u8]| Grid::new(set.shape, cells.to_vec()).expect("cells in range");
    grid(puzzle).is_solved_by(&grid(answer))
}

/// What one solver did on one puzzle while checking: its count to 2, whether solve found a
/// solution, and per op (0 solve, 1 count to 2) the guesses and the time it took.
struct Checked {
    count: u64,
    found: bool,
    guesses: [u64; 2],
    took: [Duration; 2],
}

/// An engine's count to 2 and first solution of one puzzle, with the guesses and time each
/// took.
fn count_and_solve(
    clock: Clock,
    solver: &mut impl Engine,
    puzzle: &[u8],
    out: &mut [u8],
) -> Checked {
    let mut count = 0;
    let count_took = clock.time(|| count = solver.count(puzzle, 2));
    let count_guesses = solver.guesses();
    let mut found = false;
    let solve_took = clock.time(|| found = solver.solve(puzzle, out));
    Checked {
        count,
        found,
        guesses: [solver.guesses(), count_guesses],
        took: [solve_took, count_took],
    }
}

/// Keeps each puzzle's fastest time of `checked` in `fastest` (per op).
fn keep_fastest(fastest: &mut [Vec<Duration>; 2], puzzle: usize, total: usize, checked: &Checked) {
    for (op, times) in fastest.iter_mut().enumerate() {
        times.resize(total, Duration::MAX);
        times[puzzle] = times[puzzle].min(checked.took[op]);
    }
}

/// All solvers on every puzzle of the set: counts must agree and solutions must solve (and on
/// a unique puzzle be the same). Prints each disagreement; returns how many there were, and
/// fills in the guesses per puzzle of `row`.
fn check(set: &PuzzleSet, engines: &mut Engines, row: &mut Row, clock: Clock) -> usize {
    let mut out = vec![0u8; set.shape.cell_count()];
    let mut base_out = vec![0u8; set.shape.cell_count()];
    let mut bad = 0;
    let mut guesses = [[0u64; 2]; 2];
    let mut report = |line: usize, what: String| {
        bad += 1;
        eprintln!("DISAGREEMENT {}:{}: {what}", set.name, line + 1);
    };
    for (i, puzzle) in set.puzzles().enumerate() {
        let checked = count_and_solve(clock, &mut engines.ours, puzzle, &mut out);
        let (ours, found) = (checked.count, checked.found);
        for (total, spent) in guesses[OURS].iter_mut().zip(checked.guesses) {
            *total += spent;
        }
        if per_puzzle(set) {
            keep_fastest(&mut row.fastest[OURS], i, set.len(), &checked);
        }
        if let Some(old) = &mut engines.old {
            let checked = count_and_solve(clock, old, puzzle, &mut base_out);
            let (base, base_found) = (checked.count, checked.found);
            for (total, spent) in guesses[OLD].iter_mut().zip(checked.guesses) {
                *total += spent;
            }
            if per_puzzle(set) {
                keep_fastest(&mut row.fastest[OLD], i, set.len(), &checked);
            }
            if base != ours || base_found != found {
                report(i, format!("count to 2: ours {ours}, the old engine {base}"));
            } else if ours == 1 && out != base_out {
                report(i, "a unique puzzle with two different solutions".into());
            }
        }
        if found != (ours > 0) {
            report(
                i,
                format!("our solve found={found} but our count is {ours}"),
            );
        }
        if found && !solves(set, puzzle, &out) {
            report(i, "our solution does not solve the puzzle".into());
        }
        let Some(sudoku) = set.theirs.get(i) else {
            continue;
        };
        let theirs = sudoku.solutions_count_up_to(2) as u64;
        if theirs != ours {
            report(
                i,
                format!("count to 2: ours {ours}, the sudoku crate {theirs}"),
            );
        }
        match sudoku.some_solution() {
            Some(solution) if !solves(set, puzzle, &solution.to_bytes()) => {
                report(
                    i,
                    "the sudoku crate's solution does not solve the puzzle".into(),
                );
            }
            Some(solution) if ours == 1 && found && solution.to_bytes()[..] != out[..] => {
                report(i, "a unique puzzle with two different solutions".into());
            }
            None if ours > 0 => report(i, "the sudoku crate found no solution".into()),
            _ => {}
        }
    }
    let n = set.len() as f64;
    row.guesses = guesses.map(|g| g.map(|x| x as f64 / n));
    bad
}

/// Times every cell of one set once, updating the best rates; `round` rotates which solver
/// goes first.
fn measure(set: &PuzzleSet, engines: &mut Engines, row: &mut Row, clock: Clock, round: usize) {
    let n = set.len();
    for op in 0..2 {
        for k in 0..3 {
            let who = (k + round) % 3;
            let value = match who {
                OURS => engine_rate(clock, &mut engines.ours, set, op, &mut row.fastest[who][op]),
                OLD => match engines.old.as_mut() {
                    Some(old) => engine_rate(clock, old, set, op, &mut row.fastest[who][op]),
                    None => continue,
                },
                SUDOKU if !set.has_theirs() => continue,
                SUDOKU if op == 0 => rate(clock, n, || {
                    black_box(common::theirs_solve(black_box(set)));
                }),
                SUDOKU => rate(clock, n, || {
                    black_box(common::theirs_count2(black_box(set)));
                }),
                _ => unreachable!("three solvers"),
            };
            let cell = &mut row.best[who][op];
            *cell = cell.max(value);
        }
    }
}

/// Puzzles/s of `solver` on one op over the set: puzzle by puzzle on the sets timed so, else
/// the fastest of whole passes.
fn engine_rate(
    clock: Clock,
    solver: &mut impl Engine,
    set: &PuzzleSet,
    op: usize,
    fastest: &mut Vec<Duration>,
) -> f64 {
    if per_puzzle(set) {
        return timed_pass(clock, solver, set, op, fastest);
    }
    let n = set.len();
    let mut out = vec![0u8; set.shape.cell_count()];
    if op == 0 {
        rate(clock, n, || {
            black_box(solver.solve_pass(black_box(set), &mut out));
        })
    } else {
        rate(clock, n, || {
            black_box(solver.count2_pass(black_box(set)));
        })
    }
}

fn rate_text(value: f64) -> String {
    if value >= 100.0 {
        group_thousands(value.round() as u64)
    } else if value > 0.0 {
        // Big grids run a few puzzles a second: whole numbers would hide the difference.
        format!("{value:.2}")
    } else {
        "-".into()
    }
}

fn group_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ratio_text(ours: f64, theirs: f64) -> String {
    if theirs > 0.0 {
        format!("{:.2}x", ours / theirs)
    } else {
        "-".into()
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let mut sets = Vec::new();
    for name in &args.sets {
        let (nine, bigger) = args.limits;
        match PuzzleSet::load_sized(&args.data, name, nine, bigger) {
            Ok(Some(mut set)) => {
                if set.shape.size() >= 25 && args.huge_limit > 0 {
                    let keep = args.huge_limit.min(set.len()) * set.shape.cell_count();
                    set.cells.truncate(keep);
                }
                sets.push(set);
            }
            Ok(None) => eprintln!("skipping {name}: not found in {}", args.data.display()),
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(2);
            }
        }
    }
    let mut solvers: Vec<Engines> = sets
        .iter()
        .map(|s| Engines {
            ours: Solver::new(s.shape),
            old: (s.shape == BoxShape::CLASSIC).then(OldNine::default),
        })
        .collect();
    let mut rows: Vec<Row> = sets.iter().map(|_| Row::default()).collect();

    let progress = std::io::stderr().is_terminal();
    let mut disagreements = 0;
    for ((set, solver), row) in sets.iter().zip(&mut solvers).zip(&mut rows) {
        disagreements += check(set, solver, row, args.clock);
    }
    for round in 0..args.rounds {
        if progress {
            eprint!("\rround {}/{}", round + 1, args.rounds);
        }
        for ((set, solver), row) in sets.iter().zip(&mut solvers).zip(&mut rows) {
            measure(set, solver, row, args.clock, round);
        }
    }
    if progress {
        eprintln!();
    }

    println!(
        "single thread, puzzles/s by {}, best of {} rounds over the first puzzles of each set; \
         ours: this build's engine, base: the old 9x9 engine (main at 636dee6), sdk: the sudoku crate; \
         x/y: ratio of rates (above 1: x is faster); guesses: per puzzle, ours and base",
        match args.clock {
            Clock::Cpu => "thread CPU time",
            Clock::Wall => "wall-clock time",
        },
        args.rounds,
    );
    println!(
        "{:32} {:>7} | {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} | {:>9} {:>9} | {:>9} {:>9} | {:>7} {:>7}",
        "set",
        "puzzles",
        "ours solv",
        "base solv",
        "sdk solv",
        "ours cnt2",
        "base cnt2",
        "sdk cnt2",
        "solve o/b",
        "cnt2 o/b",
        "solve o/s",
        "cnt2 o/s",
        "guesses",
        "(base)"
    );
    for (set, row) in sets.iter().zip(&rows) {
        let [ours, base, sdk] = row.best;
        println!(
            "{:32} {:>7} | {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} | {:>9} {:>9} | {:>9} {:>9} | {:>7.2} {:>7}",
            set.name,
            group_thousands(set.len() as u64),
            rate_text(ours[0]),
            rate_text(base[0]),
            rate_text(sdk[0]),
            rate_text(ours[1]),
            rate_text(base[1]),
            rate_text(sdk[1]),
            ratio_text(ours[0], base[0]),
            ratio_text(ours[1], base[1]),
            ratio_text(ours[0], sdk[0]),
            ratio_text(ours[1], sdk[1]),
            row.guesses[OURS][1],
            if base[1] > 0.0 {
                format!("{:.2}", row.guesses[OLD][1])
            } else {
                "-".into()
            },
        );
    }
    print_tails(&sets, &rows, args.clock);
    if let Some(path) = &args.tsv {
        if let Err(err) = write_tsv(path, &sets, &rows) {
            eprintln!("{}: {err}", path.display());
            return ExitCode::from(2);
        }
    }
    if disagreements > 0 {
        eprintln!("!!! {disagreements} DISAGREEMENTS between the solvers (listed above)");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The distribution of the time per puzzle on the sets timed puzzle by puzzle.
fn print_tails(sets: &[PuzzleSet], rows: &[Row], clock: Clock) {
    if !sets.iter().any(per_puzzle) {
        return;
    }
    println!(
        "\ntime per puzzle in ms by {}, each puzzle's fastest of the rounds: median, 90th and \
         99th percentile (nearest rank), worst, mean",
        match clock {
            Clock::Cpu => "thread CPU time",
            Clock::Wall => "wall-clock time",
        }
    );
    println!(
        "{:32} {:>7} {:>6} {:>6} | {:>9} {:>9} {:>9} {:>9} {:>9}",
        "set", "puzzles", "op", "engine", "p50", "p90", "p99", "worst", "mean"
    );
    for (set, row) in sets.iter().zip(rows) {
        if !per_puzzle(set) {
            continue;
        }
        for op in [1, 0] {
            for who in [OURS, OLD] {
                let mut times = row.fastest[who][op].clone();
                if times.is_empty() {
                    continue;
                }
                times.sort();
                let rank = |p: f64| {
                    let k = (p * times.len() as f64).ceil() as usize;
                    times[k.clamp(1, times.len()) - 1]
                };
                let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e3);
                let mean = times.iter().sum::<Duration>() / times.len() as u32;
                println!(
                    "{:32} {:>7} {:>6} {:>6} | {:>9} {:>9} {:>9} {:>9} {:>9}",
                    set.name,
                    group_thousands(set.len() as u64),
                    ["solve", "cnt2"][op],
                    ["ours", "base"][who],
                    ms(rank(0.5)),
                    ms(rank(0.9)),
                    ms(rank(0.99)),
                    ms(times[times.len() - 1]),
                    ms(mean),
                );
            }
        }
    }
}

/// The table as tab-separated values, a header line first; a rate with no measurement is empty.
fn write_tsv(path: &PathBuf, sets: &[PuzzleSet], rows: &[Row]) -> std::io::Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        file,
        "set\tpuzzles\tours_solve\tours_count2\ttheirs_solve\ttheirs_count2\t\
         guesses_solve\tguesses_count2\told_solve\told_count2\t\
         old_guesses_solve\told_guesses_count2"
    )?;
    for (set, row) in sets.iter().zip(rows) {
        let rate = |r: f64| {
            if r > 0.0 {
                format!("{r:.1}")
            } else {
                String::new()
            }
        };
        let [ours, base, sdk] = row.best;
        let [guesses, base_guesses] = row.guesses;
        writeln!(
            file,
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{}\t{}\t{:.3}\t{:.3}",
            set.name,
            set.len(),
            rate(ours[0]),
            rate(ours[1]),
            rate(sdk[0]),
            rate(sdk[1]),
            guesses[0],
            guesses[1],
            rate(base[0]),
            rate(base[1]),
            base_guesses[0],
            base_guesses[1],
        )?;
    }
    file.flush()
}
