//! A cheap, reproducible difficulty rating: how much guessing a fixed, plain search needs.
//!
//! The procedure is defined here and nowhere else, so ratings never change when the fast
//! [`Solver`](crate::core::Solver) is optimised: fill naked singles (a cell with one candidate) and
//! hidden singles (a digit with one place in a row, column or box) to a fixed point; if cells
//! remain, branch on the first cell (row-major) with the fewest candidates, trying digits low
//! to high; repeat, counting solutions up to 2. For a puzzle with one solution the whole tree
//! is searched, so the counts measure the puzzle, not the luck of the digit order.

use crate::core::error::{Error, Result};
use crate::core::grid::shape::Geometry;
use crate::core::grid::Grid;
use crate::core::search::{Control, SearchStats};

/// Polls the control every this many nodes.
const POLL_INTERVAL: u64 = 1024;

/// The coarse label of a rating, from [`Difficulty::of`]. The codes (`as u8`) are part of the
/// batch API: 0 easy, 1 medium, 2 hard, 3 extreme (and 4 for an invalid row in a batch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Extreme,
}

/// The largest guess count rated medium, then hard; above that is extreme. Calibrated on the
/// public sets in ../shared/data (see the README, "Making and rating puzzles").
pub const MEDIUM_MAX_GUESSES: u64 = 10;
pub const HARD_MAX_GUESSES: u64 = 100;

impl Difficulty {
    pub const LABELS: [&'static str; 4] = ["easy", "medium", "hard", "extreme"];

    /// Easy: singles alone solve it. Otherwise by guesses: medium up to
    /// [`MEDIUM_MAX_GUESSES`], hard up to [`HARD_MAX_GUESSES`], extreme above.
    pub fn of(singles_only: bool, guesses: u64) -> Self {
        if singles_only {
            Difficulty::Easy
        } else if guesses <= MEDIUM_MAX_GUESSES {
            Difficulty::Medium
        } else if guesses <= HARD_MAX_GUESSES {
            Difficulty::Hard
        } else {
            Difficulty::Extreme
        }
    }

    pub fn label(self) -> &'static str {
        Self::LABELS[self as usize]
    }
}

/// What the rating search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// Digits tried in a branching cell (each one a guess).
    pub guesses: u64,
    /// Guesses (or the start) that singles proved wrong.
    pub backtracks: u64,
    /// Singles alone solve the puzzle (no guess at all).
    pub singles_only: bool,
    /// The puzzle has exactly one solution.
    pub unique: bool,
    pub difficulty: Difficulty,
}

/// Rates a puzzle. Conflicting clues are [`Error::Conflict`], no solution [`Error::NoSolution`],
/// a stop from `control` [`Error::Interrupted`].
pub fn rate(grid: &Grid, control: &mut (impl Control + ?Sized)) -> Result<Rating> {
    grid.check()?;
    let geo = Geometry::new(grid.shape());
    let mut search = Rater {
        geo: &geo,
        full: u64::MAX >> (64 - geo.size),
        stats: SearchStats::default(),
    };
    let solutions = search.count(grid.cells().to_vec(), control)?;
    if solutions == 0 {
        return Err(Error::NoSolution);
    }
    let stats = search.stats;
    let singles_only = stats.guesses == 0;
    Ok(Rating {
        guesses: stats.guesses,
        backtracks: stats.dead_ends,
        singles_only,
        unique: solutions == 1,
        difficulty: Difficulty::of(singles_only, stats.guesses),
    })
}

/// The outcome of propagating singles.
enum Step {
    Contradiction,
    Solved,
    Branch(usize, u64),
}

struct Rater<'a> {
    geo: &'a Geometry,
    full: u64,
    stats: SearchStats,
}

impl Rater<'_> {
    /// Counts solutions up to 2, depth first, one state copy per guess.
    fn count(&mut self, start: Vec<u8>, control: &mut (impl Control + ?Sized)) -> Result<u64> {
        let mut found = 0;
        let mut stack = vec![start];
        while let Some(mut cells) = stack.pop() {
            self.stats.nodes += 1;
            if self.stats.nodes % POLL_INTERVAL == 0 && !control.proceed(&self.stats) {
                return Err(Error::Interrupted);
            }
            match self.propagate(&mut cells) {
                Step::Contradiction => self.stats.dead_ends += 1,
                Step::Solved => {
                    found += 1;
                    if found == 2 {
                        break;
                    }
                }
                Step::Branch(cell, cand) => {
                    // Pushed high to low so the lowest digit is tried first.
                    for d in (0..self.geo.size).rev().filter(|d| cand >> d & 1 == 1) {
                        let mut child = cells.clone();
                        child[cell] = d as u8 + 1;
                        stack.push(child);
                    }
                    self.stats.guesses += u64::from(cand.count_ones());
                }
            }
        }
        // Guesses count the digits actually tried: children left on the stack were not.
        self.stats.guesses -= stack.len() as u64;
        Ok(found)
    }

    /// The digits each unit uses.
    fn used(&self, cells: &[u8]) -> Vec<u64> {
        let mut used = vec![0u64; 3 * self.geo.size];
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                for &u in &self.geo.cell_units[cell] {
                    used[u as usize] |= 1 << (v - 1);
                }
            }
        }
        used
    }

    /// Fills singles to a fixed point. The state never has a clash: the start is checked, and
    /// every guess and single is a candidate of its cell.
    fn propagate(&self, cells: &mut [u8]) -> Step {
        let geo = self.geo;
        let mut used = self.used(cells);
        let cand = |used: &[u64], cell: usize| {
            let [a, b, c] = geo.cell_units[cell].map(usize::from);
            self.full & !(used[a] | used[b] | used[c])
        };
        let place = |cells: &mut [u8], used: &mut [u64], cell: usize, bit: u64| {
            cells[cell] = bit.trailing_zeros() as u8 + 1;
            for &u in &geo.cell_units[cell] {
                used[u as usize] |= bit;
            }
        };
        loop {
            let mut progress = false;
            for cell in 0..geo.cells {
                if cells[cell] != 0 {
                    continue;
                }
                let c = cand(&used, cell);
                if c == 0 {
                    return Step::Contradiction;
                }
                if c & (c - 1) == 0 {
                    place(cells, &mut used, cell, c);
                    progress = true;
                }
            }
            for u in 0..3 * geo.size {
                let mut missing = self.full & !used[u];
                while missing != 0 {
                    let bit = missing & missing.wrapping_neg();
                    missing ^= bit;
                    let mut places = geo
                        .unit(u)
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| cells[c] == 0 && cand(&used, c) & bit != 0);
                    match (places.next(), places.next()) {
                        (None, _) => return Step::Contradiction,
                        (Some(cell), None) => {
                            place(cells, &mut used, cell, bit);
                            progress = true;
                        }
                        _ => {}
                    }
                }
            }
            if !progress {
                break;
            }
        }
        // The first cell with the fewest candidates (two or more after the loop), or solved.
        let best = (0..geo.cells)
            .filter(|&cell| cells[cell] == 0)
            .map(|cell| (cell, cand(&used, cell)))
            .min_by_key(|&(_, c)| c.count_ones());
        match best {
            Some((cell, c)) => Step::Branch(cell, c),
            None => Step::Solved,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;
    use crate::core::Unbounded;

    fn rating(line: &str) -> Result<Rating> {
        rate(&parse(line, None).unwrap(), &mut Unbounded)
    }

    #[test]
    fn singles_puzzles_are_easy() {
        let r = rating(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        assert_eq!(
            r,
            Rating {
                guesses: 0,
                backtracks: 0,
                singles_only: true,
                unique: true,
                difficulty: Difficulty::Easy
            }
        );
    }

    #[test]
    fn hard_puzzles_need_guesses_and_are_stable() {
        // "AI Escargot": needs branching whatever the order.
        let line =
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
        let r = rating(line).unwrap();
        assert!(!r.singles_only && r.unique);
        assert!(r.guesses > 0 && r.backtracks > 0, "{r:?}");
        assert_ne!(r.difficulty, Difficulty::Easy);
        assert_eq!(rating(line).unwrap(), r);
    }

    #[test]
    fn non_unique_puzzles_say_so() {
        let r = rating(&".".repeat(81)).unwrap();
        assert!(!r.unique && !r.singles_only);
    }

    #[test]
    fn bad_puzzles_are_errors() {
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        assert!(matches!(rating(&line), Err(Error::Conflict { .. })));
        let mut line = String::from("12345678.");
        line.push_str("........9");
        line.push_str(&".".repeat(63));
        assert_eq!(rating(&line), Err(Error::NoSolution));
    }

    #[test]
    fn labels_follow_the_thresholds() {
        assert_eq!(Difficulty::of(true, 0), Difficulty::Easy);
        assert_eq!(Difficulty::of(false, 1), Difficulty::Medium);
        assert_eq!(
            Difficulty::of(false, MEDIUM_MAX_GUESSES + 1),
            Difficulty::Hard
        );
        assert_eq!(
            Difficulty::of(false, HARD_MAX_GUESSES + 1),
            Difficulty::Extreme
        );
        assert_eq!(Difficulty::Extreme.label(), "extreme");
    }
}
