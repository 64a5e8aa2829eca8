//! Rates every puzzle of the given files (the first word of each line: 81 characters, or 729
//! for a pencil-mark puzzle as SukakuExplainer writes one) and
//! prints one line per puzzle: the puzzle and its ER/EP/ED in tenths, or what became of it.
//! Two builds' outputs compared line by line show whether a change keeps every rating.
//!
//! `cargo run --release --example se_dump -- [--limit-ms N] [--max N] FILE...`
//!
//! `--limit-ms` stops a rating after that many milliseconds (printed as `interrupted`);
//! `--max` rates at most that many puzzles per file.

use std::time::{Duration, Instant};

use sudoku_rs::core::grid::marks;
use sudoku_rs::core::logic::se::{self, Outcome};
use sudoku_rs::core::search::{Control, SearchStats};
use sudoku_rs::core::{BoxShape, Grid};

struct Deadline(Instant);

impl Control for Deadline {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        Instant::now() < self.0
    }
}

fn main() {
    let mut limit = Duration::from_secs(3600);
    let mut max = usize::MAX;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--limit-ms" => {
                let ms: u64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--limit-ms N");
                limit = Duration::from_millis(ms);
            }
            "--max" => max = args.next().and_then(|v| v.parse().ok()).expect("--max N"),
            _ => files.push(arg),
        }
    }
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a puzzle file");
        for puzzle in text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.len() == 81 || w.len() == 729)
            .take(max)
        {
            let t = Instant::now();
            let got = if puzzle.len() == 729 {
                let Ok((_, masks)) = marks::parse_sukaku(puzzle, 9, None) else {
                    println!("{puzzle} bad");
                    continue;
                };
                let grid = Grid::new(BoxShape::CLASSIC, vec![0; 81]).expect("a blank grid");
                let Ok(restricted) = marks::restrict(&grid, &masks) else {
                    println!("{puzzle} bad");
                    continue;
                };
                se::rate_marked(&grid, Some(&restricted), &mut Deadline(t + limit))
            } else {
                let cells: Vec<u8> = puzzle
                    .bytes()
                    .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                    .collect();
                let Ok(grid) = Grid::new(BoxShape::CLASSIC, cells) else {
                    println!("{puzzle} bad");
                    continue;
                };
                se::rate(&grid, &mut Deadline(t + limit))
            };
            let us = t.elapsed().as_micros();
            match got {
                Ok(Outcome::Rated(r)) => println!("{puzzle} {} {} {} {us}", r.er, r.ep, r.ed),
                Ok(Outcome::Stuck(r)) => println!("{puzzle} stuck {} {} {} {us}", r.er, r.ep, r.ed),
                Ok(Outcome::NotUnique) => println!("{puzzle} not_unique - - {us}"),
                Err(e) => println!(
                    "{puzzle} error:{} - - {us}",
                    format!("{e:?}").split(['(', ' ']).next().unwrap_or("")
                ),
            }
        }
    }
}
