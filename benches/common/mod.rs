//! The benchmark sets and the two solvers under test, shared by the criterion bench
//! (`benches/sets.rs`) and the comparison runner (`examples/compare.rs`), so both time exactly
//! the same puzzles through exactly the same calls.
//!
//! "Ours" is the core's public API (`Solver::solve_into`, `Solver::count`); "theirs" is the
//! `sudoku` crate, a JCZSolve-style 9x9 solver, linked only into these dev targets (it is
//! AGPL, so it is a dev-dependency and never part of the library or the wheel).

use std::path::{Path, PathBuf};

use sudoku::Sudoku;
use sudoku_rs::core::grid::lines;
use sudoku_rs::core::{BoxShape, Error, Solver, Unbounded};

/// The default sets, in table order: the public tdoku sets, an easy generated set, and one
/// generic size. Files live in `../shared/data` (see its README).
pub const DEFAULT_SETS: [&str; 7] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "gen_easy35",
    "gen_16x16",
];

/// Overrides the data directory.
pub const DATA_ENV: &str = "SUDOKU_RS_DATA";

/// `$SUDOKU_RS_DATA`, else `../shared/data` beside the repository.
pub fn data_dir() -> PathBuf {
    match std::env::var_os(DATA_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// The first puzzles of one set file, parsed once, in both solvers' input forms.
pub struct PuzzleSet {
    pub name: String,
    pub shape: BoxShape,
    /// Row-major cells, `shape.cell_count()` per puzzle, 0 = blank.
    pub cells: Vec<u8>,
    /// The same puzzles for the `sudoku` crate; empty unless the grids are 9x9.
    pub theirs: Vec<Sudoku>,
}

impl PuzzleSet {
    /// Reads the first `limit` puzzles (0: all) of `dir/name`. `Ok(None)` when the file does not
    /// exist, so a missing set is skipped rather than fatal; a malformed line is an error.
    pub fn load(dir: &Path, name: &str, limit: usize) -> Result<Option<Self>, String> {
        let path = dir.join(name);
        let data = match std::fs::read(&path) {
            Ok(data) => data,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(format!("{}: {err}", path.display())),
        };
        let data = first_lines(&data, limit);
        let parsed = lines::parse(data, 0, 1, 0, None);
        if let Some((index, message)) = parsed.bad.first() {
            let line = parsed.line_numbers[*index];
            return Err(format!("{}:{line}: {message}", path.display()));
        }
        if parsed.count() == 0 {
            return Err(format!("{}: no puzzles", path.display()));
        }
        let shape = BoxShape::for_size(parsed.size, None).map_err(|e| e.to_string())?;
        let theirs = if parsed.size == 9 {
            parsed
                .cells
                .chunks(81)
                .map(|p| Sudoku::from_bytes_slice(p).expect("values 0..=9 were checked"))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Some(PuzzleSet {
            name: name.to_owned(),
            shape,
            cells: parsed.cells,
            theirs,
        }))
    }

    /// [`PuzzleSet::load`] taking the first `nine` puzzles of a 9x9 set and the first `bigger`
    /// of a set of bigger grids, which take far longer each (0: all).
    pub fn load_sized(
        dir: &Path,
        name: &str,
        nine: usize,
        bigger: usize,
    ) -> Result<Option<Self>, String> {
        match Self::load(dir, name, nine)? {
            Some(set) if set.shape.size() > 9 && bigger != nine => Self::load(dir, name, bigger),
            loaded => Ok(loaded),
        }
    }

    pub fn len(&self) -> usize {
        self.cells.len() / self.shape.cell_count()
    }

    pub fn puzzles(&self) -> std::slice::Chunks<'_, u8> {
        self.cells.chunks(self.shape.cell_count())
    }

    /// Whether the `sudoku` crate can run this set (it solves 9x9 only).
    pub fn has_theirs(&self) -> bool {
        !self.theirs.is_empty()
    }
}

/// The prefix of `data` holding its first `limit` lines (all of it for 0).
fn first_lines(data: &[u8], limit: usize) -> &[u8] {
    if limit == 0 {
        return data;
    }
    match data
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(limit - 1)
    {
        Some((end, _)) => &data[..end],
        None => data,
    }
}

/// Our first solution of every puzzle, as one pass of a benchmark. Returns how many had one,
/// so the work cannot be optimised away.
pub fn ours_solve(solver: &mut Solver, set: &PuzzleSet, out: &mut [u8]) -> usize {
    set.puzzles()
        .filter(|p| matches!(solver.solve_into(p, out, &mut Unbounded), Ok(true)))
        .count()
}

/// Our count-to-2 of every puzzle (a uniqueness check); returns the sum of the counts.
pub fn ours_count2(solver: &mut Solver, set: &PuzzleSet) -> u64 {
    set.puzzles().map(|p| ours_count(solver, p, 2)).sum()
}

/// Our count up to `limit`, with puzzles whose givens conflict counted as 0 solutions, as the
/// `sudoku` crate counts them.
pub fn ours_count(solver: &mut Solver, puzzle: &[u8], limit: u64) -> u64 {
    match solver.count(puzzle, Some(limit), &mut Unbounded) {
        Ok(count) => count,
        Err(Error::Conflict { .. }) => 0,
        Err(err) => panic!("counting failed: {err}"),
    }
}

/// The `sudoku` crate's first solution of every puzzle (`some_solution`, which stops at the
/// first one, like ours); returns how many had one.
pub fn theirs_solve(set: &PuzzleSet) -> usize {
    set.theirs
        .iter()
        .filter(|s| s.some_solution().is_some())
        .count()
}

/// The `sudoku` crate's count-to-2 of every puzzle; returns the sum of the counts.
pub fn theirs_count2(set: &PuzzleSet) -> u64 {
    set.theirs
        .iter()
        .map(|s| s.solutions_count_up_to(2) as u64)
        .sum()
}
