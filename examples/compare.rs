//! Ours against the `sudoku` crate (JCZSolve-style, 9x9 only) on the same puzzles, one table:
//!
//!     cargo run --release --example compare
//!     cargo run --release --example compare -- --sets puzzles6_forum_hardest_1106 --rounds 9
//!     cargo run --release --example compare -- --limit 0 --tsv rates.tsv
//!
//! Options: `--sets NAME...` (default: the tdoku sets, gen_easy35, gen_16x16), `--limit N`
//! puzzles per set from the top of the file (0: all; default 2000 for 9x9 and 200 for bigger
//! grids, which take far longer each), `--rounds R` (default 5),
//! `--data DIR` (default `$SUDOKU_RS_DATA` or `../shared/data`), `--clock cpu|wall` (default
//! cpu), `--tsv PATH` (also write the rates as tab-separated values, for `benches/bench.py
//! --compare`).
//!
//! Single thread. Every cell is the fastest pass over the set's puzzles in R rounds (a round
//! repeats passes for 0.1 s), and each round measures all four cells of every set in turn,
//! ours and theirs alternating first. Passes are timed by the thread's CPU clock, which does
//! not count the time other processes hold the core: on a shared machine wall-clock passes are
//! interrupted more the longer they are, which would favour the faster solver's short passes.
//! `--clock wall` times them by the wall clock instead, as `benches/bench.py` does. Before timing, both solvers count
//! every puzzle to 2 and must agree (and each solution must solve its puzzle); any
//! disagreement is printed and the exit status is 1. The guesses columns are our search
//! statistics per puzzle, to explain a change in speed.

use std::hint::black_box;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sudoku_rs::core::{Grid, Solver, Unbounded};

#[path = "../benches/common/mod.rs"]
mod common;
use common::PuzzleSet;

/// Puzzles per set without `--limit`: 9x9, bigger grids.
const DEFAULT_LIMITS: (usize, usize) = (2000, 200);

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
        read() - start
    }
}

/// The wall clock, as time since the first call.
fn since_start() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

#[cfg(unix)]
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid place for the result; Linux and macOS have this clock.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread CPU clock is unavailable");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu_time() -> Duration {
    unreachable!("--clock cpu is refused where there is no thread CPU clock")
}

struct Args {
    sets: Vec<String>,
    /// Puzzles per set: of 9x9 grids, of bigger grids.
    limits: (usize, usize),
    rounds: usize,
    data: PathBuf,
    clock: Clock,
    tsv: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        sets: Vec::new(),
        limits: DEFAULT_LIMITS,
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
        args.sets = common::DEFAULT_SETS.map(String::from).to_vec();
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

/// Best rates (puzzles/s) of one set: ours solve, ours count2, theirs solve, theirs count2.
#[derive(Default)]
struct Row {
    best: [f64; 4],
    guesses_solve: f64,
    guesses_count2: f64,
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

/// Both solvers on every puzzle of the set: counts must agree and solutions must solve. Prints
/// each disagreement; returns how many there were, with our mean guesses per puzzle.
fn check(set: &PuzzleSet, solver: &mut Solver) -> (usize, f64, f64) {
    let mut out = vec![0u8; set.shape.cell_count()];
    let (mut bad, mut guesses_solve, mut guesses_count2) = (0, 0u64, 0u64);
    let mut report = |line: usize, what: String| {
        bad += 1;
        eprintln!("DISAGREEMENT {}:{}: {what}", set.name, line + 1);
    };
    for (i, puzzle) in set.puzzles().enumerate() {
        let ours = common::ours_count(solver, puzzle, 2);
        guesses_count2 += solver.stats().guesses;
        let found = matches!(
            solver.solve_into(puzzle, &mut out, &mut Unbounded),
            Ok(true)
        );
        guesses_solve += solver.stats().guesses;
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
    (bad, guesses_solve as f64 / n, guesses_count2 as f64 / n)
}

/// Times the four cells of one set once, updating the best rates; `theirs_first` alternates
/// which solver goes first in each pair.
fn measure(set: &PuzzleSet, solver: &mut Solver, row: &mut Row, clock: Clock, theirs_first: bool) {
    let n = set.len();
    let mut out = vec![0u8; set.shape.cell_count()];
    for op in 0..2 {
        let mut order = [false, true]; // false: ours
        if theirs_first {
            order.reverse();
        }
        for theirs in order {
            let value = match (op, theirs) {
                (_, true) if !set.has_theirs() => continue,
                (0, false) => rate(clock, n, || {
                    black_box(common::ours_solve(solver, black_box(set), &mut out));
                }),
                (_, false) => rate(clock, n, || {
                    black_box(common::ours_count2(solver, black_box(set)));
                }),
                (0, true) => rate(clock, n, || {
                    black_box(common::theirs_solve(black_box(set)));
                }),
                (_, true) => rate(clock, n, || {
                    black_box(common::theirs_count2(black_box(set)));
                }),
            };
            let cell = &mut row.best[op + 2 * usize::from(theirs)];
            *cell = cell.max(value);
        }
    }
}

fn rate_text(value: f64) -> String {
    if value > 0.0 {
        group_thousands(value.round() as u64)
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
            Ok(Some(set)) => sets.push(set),
            Ok(None) => eprintln!("skipping {name}: not found in {}", args.data.display()),
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(2);
            }
        }
    }
    let mut solvers: Vec<Solver> = sets.iter().map(|s| Solver::new(s.shape)).collect();
    let mut rows: Vec<Row> = sets.iter().map(|_| Row::default()).collect();

    let progress = std::io::stderr().is_terminal();
    let mut disagreements = 0;
    for ((set, solver), row) in sets.iter().zip(&mut solvers).zip(&mut rows) {
        let (bad, solve, count2) = check(set, solver);
        disagreements += bad;
        row.guesses_solve = solve;
        row.guesses_count2 = count2;
    }
    for round in 0..args.rounds {
        if progress {
            eprint!("\rround {}/{}", round + 1, args.rounds);
        }
        for ((set, solver), row) in sets.iter().zip(&mut solvers).zip(&mut rows) {
            measure(set, solver, row, args.clock, round % 2 == 1);
        }
    }
    if progress {
        eprintln!();
    }

    println!(
        "single thread, puzzles/s by {}, best of {} rounds over the first puzzles of each set; \
         ours/sudoku: ratio of rates (above 1: ours is faster); guesses: ours per puzzle",
        match args.clock {
            Clock::Cpu => "thread CPU time",
            Clock::Wall => "wall-clock time",
        },
        args.rounds,
    );
    println!(
        "{:32} {:>7} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7} {:>8} {:>8}",
        "set",
        "puzzles",
        "ours solve",
        "ours cnt2",
        "sdk solve",
        "sdk cnt2",
        "solve",
        "cnt2",
        "guesses",
        "(cnt2)"
    );
    for (set, row) in sets.iter().zip(&rows) {
        let [ours_solve, ours_count2, theirs_solve, theirs_count2] = row.best;
        println!(
            "{:32} {:>7} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7} {:>8.2} {:>8.2}",
            set.name,
            group_thousands(set.len() as u64),
            rate_text(ours_solve),
            rate_text(ours_count2),
            rate_text(theirs_solve),
            rate_text(theirs_count2),
            ratio_text(ours_solve, theirs_solve),
            ratio_text(ours_count2, theirs_count2),
            row.guesses_solve,
            row.guesses_count2,
        );
    }
    if let Some(path) = &args.tsv {
        if let Err(err) = write_tsv(path, &sets, &rows) {
            eprintln!("{}: {err}", path.display());
            return ExitCode::from(2);
        }
    }
    if disagreements > 0 {
        eprintln!(
            "!!! {disagreements} DISAGREEMENTS between ours and the sudoku crate (listed above)"
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The table as tab-separated values, a header line first; a rate with no measurement is empty.
fn write_tsv(path: &PathBuf, sets: &[PuzzleSet], rows: &[Row]) -> std::io::Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        file,
        "set\tpuzzles\tours_solve\tours_count2\ttheirs_solve\ttheirs_count2\t\
         guesses_solve\tguesses_count2"
    )?;
    for (set, row) in sets.iter().zip(rows) {
        let rates: Vec<String> = row
            .best
            .iter()
            .map(|&r| {
                if r > 0.0 {
                    format!("{r:.1}")
                } else {
                    String::new()
                }
            })
            .collect();
        writeln!(
            file,
            "{}\t{}\t{}\t{:.3}\t{:.3}",
            set.name,
            set.len(),
            rates.join("\t"),
            row.guesses_solve,
            row.guesses_count2
        )?;
    }
    file.flush()
}
