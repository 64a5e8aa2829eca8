//! Sudoku Explainer ratings of the reference samples, timed per ER band, and checked against
//! the ratings serate printed for them.
//!
//! `cargo run --release --example se_times -- [--min-er X] [--max-er X] [--repeat N] [--list] [FILE...]`
//!
//! Default files: `tests/data/se_reference.txt` and `tests/data/se_sukaku_reference.txt`
//! (a 729-character puzzle is a sukaku). Only the puzzles serate rated from `--min-er` (0 by
//! default) to below `--max-er` (10.0 by default) are rated. Each puzzle is rated `--repeat` times (the best time counts); per band
//! it prints the puzzles, the ones whose ER/EP/ED differ from serate's and the mean time per
//! puzzle; `--list` also prints every puzzle's rating and time.

use std::time::Instant;

use sudoku_rs::core::grid::marks;
use sudoku_rs::core::logic::se::{self, Outcome};
use sudoku_rs::core::search::Unbounded;
use sudoku_rs::core::{BoxShape, Grid};

const BANDS: [(u16, u16); 7] = [
    (10, 20),
    (20, 40),
    (40, 62),
    (62, 75),
    (75, 90),
    (90, 100),
    (100, 120),
];

fn rate(puzzle: &str) -> Option<[u16; 3]> {
    let rated = if puzzle.len() == 729 {
        let (_, masks) = marks::parse_sukaku(puzzle, 9, None).ok()?;
        let grid = Grid::new(BoxShape::CLASSIC, vec![0; 81]).ok()?;
        let restricted = marks::restrict(&grid, &masks).ok()?;
        se::rate_marked(&grid, Some(&restricted), &mut Unbounded)
    } else {
        let cells: Vec<u8> = puzzle
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        let grid = Grid::new(BoxShape::CLASSIC, cells).ok()?;
        se::rate(&grid, &mut Unbounded)
    };
    match rated.ok()? {
        Outcome::Rated(r) => Some([r.er, r.ep, r.ed]),
        _ => None,
    }
}

fn main() {
    let mut min_er = 0u16;
    let mut max_er = 100u16;
    let mut repeat = 1usize;
    let mut list = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--min-er" => {
                let x: f64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--min-er X");
                min_er = (x * 10.0).round() as u16;
            }
            "--max-er" => {
                let x: f64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--max-er X");
                max_er = (x * 10.0).round() as u16;
            }
            "--repeat" => {
                repeat = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--repeat N");
            }
            "--list" => list = true,
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        let root = env!("CARGO_MANIFEST_DIR");
        files.push(format!("{root}/tests/data/se_reference.txt"));
        files.push(format!("{root}/tests/data/se_sukaku_reference.txt"));
    }
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a reference file");
        // Per band: puzzles, differences, seconds.
        let mut bands = [(0usize, 0usize, 0f64); BANDS.len()];
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let mut words = line.split_whitespace();
            let (Some(puzzle), Some(rating)) = (words.next(), words.next()) else {
                continue;
            };
            let want: Vec<u16> = rating
                .split('/')
                .map(|r| (r.parse::<f64>().unwrap_or(0.0) * 10.0).round() as u16)
                .collect();
            if want.len() != 3 || want[0] < min_er || want[0] >= max_er {
                continue;
            }
            let mut best = f64::INFINITY;
            let mut got = None;
            for _ in 0..repeat {
                let t = Instant::now();
                got = rate(puzzle);
                best = best.min(t.elapsed().as_secs_f64());
            }
            let same = got.is_some_and(|g| g[..] == want[..]);
            if list || !same {
                println!(
                    "{} {puzzle:.81} serate {want:?} here {got:?} {:.1} us",
                    if same { "ok  " } else { "DIFF" },
                    best * 1e6
                );
            }
            if let Some(b) = BANDS
                .iter()
                .position(|&(lo, hi)| want[0] >= lo && want[0] < hi)
            {
                bands[b].0 += 1;
                bands[b].1 += usize::from(!same);
                bands[b].2 += best;
            }
        }
        println!("{file}");
        for (&(lo, hi), &(n, diff, secs)) in BANDS.iter().zip(&bands) {
            if n > 0 {
                println!(
                    "  ER {:.1}-{:.1}: {n:4} puzzles, {diff} differ, {:10.1} us/puzzle",
                    f64::from(lo) / 10.0,
                    f64::from(hi) / 10.0,
                    secs / n as f64 * 1e6
                );
            }
        }
    }
}
