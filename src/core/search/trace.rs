//! Search traces: what the search did, told to a [`Tracer`] as it happens, and [`Tokens`], the
//! tracer that writes it down as a sequence of token ids for sequence models.
//!
//! The vocabulary is fixed for every grid size, so one model's embedding serves them all and a
//! token fits a byte:
//!
//! | id | token | followed by |
//! |---|---|---|
//! | 0 | `PAD` | (padding of a batch) |
//! | 1 | `PLACE` | row, column, digit: a digit propagation forced (a naked or hidden single; on 9x9 also after locked candidates, told once the propagation settles, in row-major order) |
//! | 2 | `GUESS` | row, column, digit: the state is saved, then the digit is tried |
//! | 3 | `BACKTRACK` | back to the state saved by the latest guess not yet backtracked |
//! | 4 | `DEAD_END` | propagation found a contradiction |
//! | 5 | `SOLVED` | the grid is full: the last token of a solved trace |
//! | 6 | `NO_SOLUTION` | every guess failed: the last token |
//! | 7 | `ELIMINATE` | row, column, digit: a candidate a logical step removes, or that the 9x9 engine's search rules out after a backtrack (its branch is a digit, then its negation) |
//! | 16 + t | technique t | a logical step of the technique at index t of the table |
//! | 64 + r | row r | |
//! | 128 + c | column c | |
//! | 191 + d | digit d | |

use crate::core::logic::Technique;

/// The token ids (see the module's table).
pub const PAD: u8 = 0;
pub const PLACE: u8 = 1;
pub const GUESS: u8 = 2;
pub const BACKTRACK: u8 = 3;
pub const DEAD_END: u8 = 4;
pub const SOLVED: u8 = 5;
pub const NO_SOLUTION: u8 = 6;
pub const ELIMINATE: u8 = 7;
/// Technique t (its index in the technique table) is `TECHNIQUE + t`.
pub const TECHNIQUE: u8 = 16;
/// Row r (from 0) is `ROW + r`.
pub const ROW: u8 = 64;
/// Column c (from 0) is `COLUMN + c`.
pub const COLUMN: u8 = 128;
/// Digit d (from 1) is `DIGIT + d - 1`.
pub const DIGIT: u8 = 192;
/// Every named token id, by name (Python's `TRACE_<name>`).
pub const NAMES: [(&str, u8); 12] = [
    ("PAD", PAD),
    ("PLACE", PLACE),
    ("GUESS", GUESS),
    ("BACKTRACK", BACKTRACK),
    ("DEAD_END", DEAD_END),
    ("SOLVED", SOLVED),
    ("NO_SOLUTION", NO_SOLUTION),
    ("ELIMINATE", ELIMINATE),
    ("TECHNIQUE", TECHNIQUE),
    ("ROW", ROW),
    ("COLUMN", COLUMN),
    ("DIGIT", DIGIT),
];
/// Every id is below this: an embedding of this many rows covers every grid size.
pub const VOCABULARY_SIZE: usize = 256;

// Techniques fit between their base and the rows; the largest grid's digits fit a byte.
const _: () = assert!(Technique::ALL.len() <= (ROW - TECHNIQUE) as usize);

/// What a search tells as it goes. Every method has an empty default, so the search with
/// [`NoTrace`] compiles to the untraced search.
pub trait Tracer {
    /// Whether anything listens: `false` only for [`NoTrace`], so that what an engine computes
    /// just to tell the tracer (the 9x9 engine's filled cells) compiles away with it.
    const ON: bool = true;
    /// Propagation put `digit` (from 1) in `cell` (row-major).
    #[inline(always)]
    fn place(&mut self, _cell: usize, _digit: u8) {}
    /// The search saved its state and tries `digit` in `cell`.
    #[inline(always)]
    fn guess(&mut self, _cell: usize, _digit: u8) {}
    /// The search went back `levels` guesses (0: none).
    #[inline(always)]
    fn backtrack(&mut self, _levels: usize) {}
    /// Propagation found a contradiction.
    #[inline(always)]
    fn dead_end(&mut self) {}
    /// The grid is full.
    #[inline(always)]
    fn solved(&mut self) {}
    /// After a backtrack, the search goes on without `digit` in `cell` (the 9x9 engine's
    /// branch is a digit, then its negation).
    #[inline(always)]
    fn eliminate(&mut self, _cell: usize, _digit: u8) {}
}

/// Tells nothing: the search as it runs untraced.
#[derive(Debug)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
}

/// A tracer lent to a search.
impl<T: Tracer + ?Sized> Tracer for &mut T {
    const ON: bool = T::ON;
    #[inline(always)]
    fn place(&mut self, cell: usize, digit: u8) {
        (**self).place(cell, digit);
    }
    #[inline(always)]
    fn guess(&mut self, cell: usize, digit: u8) {
        (**self).guess(cell, digit);
    }
    #[inline(always)]
    fn backtrack(&mut self, levels: usize) {
        (**self).backtrack(levels);
    }
    #[inline(always)]
    fn dead_end(&mut self) {
        (**self).dead_end();
    }
    #[inline(always)]
    fn solved(&mut self) {
        (**self).solved();
    }
    #[inline(always)]
    fn eliminate(&mut self, cell: usize, digit: u8) {
        (**self).eliminate(cell, digit);
    }
}

/// A trace as token ids (see the module's table), for a grid of side `n`.
#[derive(Debug)]
pub struct Tokens {
    n: usize,
    pub ids: Vec<u8>,
    /// An allocation failed: `ids` is incomplete.
    pub overflow: bool,
}

impl Tokens {
    pub fn new(n: usize) -> Self {
        assert!(n <= 64, "the vocabulary holds grids up to 64x64");
        Tokens {
            n,
            ids: Vec::new(),
            overflow: false,
        }
    }

    /// Appends `ids`; an allocation that fails marks the trace overflowed instead of aborting.
    #[inline]
    pub fn push(&mut self, ids: &[u8]) {
        if self.overflow || self.ids.try_reserve(ids.len()).is_err() {
            self.overflow = true;
            return;
        }
        self.ids.extend_from_slice(ids);
    }

    /// `kind` then the row, column and digit of `cell`.
    #[inline]
    pub fn push_cell(&mut self, kind: u8, cell: usize, digit: u8) {
        let (r, c) = (cell / self.n, cell % self.n);
        self.push(&[kind, ROW + r as u8, COLUMN + c as u8, DIGIT + digit - 1]);
    }

    /// Ends the trace of a search that found no solution.
    pub fn no_solution(&mut self) {
        self.push(&[NO_SOLUTION]);
    }
}

impl Tracer for Tokens {
    fn place(&mut self, cell: usize, digit: u8) {
        self.push_cell(PLACE, cell, digit);
    }

    fn guess(&mut self, cell: usize, digit: u8) {
        self.push_cell(GUESS, cell, digit);
    }

    fn backtrack(&mut self, levels: usize) {
        for _ in 0..levels {
            self.push(&[BACKTRACK]);
        }
    }

    fn dead_end(&mut self) {
        self.push(&[DEAD_END]);
    }

    fn solved(&mut self) {
        self.push(&[SOLVED]);
    }

    fn eliminate(&mut self, cell: usize, digit: u8) {
        self.push_cell(ELIMINATE, cell, digit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{BoxShape, Solver, Unbounded};

    /// Replays `ids` on `cells`: guesses save the grid, backtracks restore it; the final grid.
    fn replay(n: usize, cells: &[u8], ids: &[u8]) -> Vec<u8> {
        let (mut grid, mut saved) = (cells.to_vec(), Vec::new());
        let mut i = 0;
        while i < ids.len() {
            match ids[i] {
                PLACE | GUESS => {
                    if ids[i] == GUESS {
                        saved.push(grid.clone());
                    }
                    let (r, c) = (
                        usize::from(ids[i + 1] - ROW),
                        usize::from(ids[i + 2] - COLUMN),
                    );
                    assert_eq!(grid[r * n + c], 0);
                    grid[r * n + c] = ids[i + 3] - DIGIT + 1;
                    i += 4;
                }
                BACKTRACK => {
                    grid = saved.pop().expect("a guess is open");
                    i += 1;
                }
                _ => i += 1,
            }
        }
        grid
    }

    /// Both engines' traces of a hard 9x9 replay to its solution; only the 9x9 engine's
    /// eliminates after a backtrack.
    #[test]
    fn a_trace_replays_to_the_solution() {
        let puzzle = crate::core::grid::text::parse(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            None,
        )
        .unwrap();
        for (mut solver, nine) in [
            (Solver::new(BoxShape::CLASSIC), true),
            (Solver::generic(BoxShape::CLASSIC), false),
        ] {
            let mut tokens = Tokens::new(9);
            assert!(solver
                .trace(puzzle.cells(), &mut tokens, &mut Unbounded)
                .unwrap());
            assert_eq!(tokens.ids.last(), Some(&SOLVED));
            assert!(tokens.ids.contains(&BACKTRACK));
            assert_eq!(tokens.ids.contains(&ELIMINATE), nine);
            let solution = solver.solve(&puzzle, &mut Unbounded).unwrap();
            assert_eq!(replay(9, puzzle.cells(), &tokens.ids), solution.cells());
        }
    }

    /// The 9x9 engine's trace stops at the solution `solve` returns, also when there are
    /// several; with none, every guess is backtracked.
    #[test]
    fn the_nine_trace_ends_where_solve_does() {
        let two = crate::core::grid::text::parse(
            ".6......77......3..9....4....47..2......1.6....5.89....4...27......6...2..73..18.",
            None,
        )
        .unwrap();
        let mut solver = Solver::new(BoxShape::CLASSIC);
        let mut tokens = Tokens::new(9);
        assert!(solver
            .trace(two.cells(), &mut tokens, &mut Unbounded)
            .unwrap());
        let first = solver.solve(&two, &mut Unbounded).unwrap();
        assert_eq!(replay(9, two.cells(), &tokens.ids), first.cells());
        let mut none = vec![0u8; 81];
        none[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        none[17] = 9;
        let mut tokens = Tokens::new(9);
        assert!(!solver.trace(&none, &mut tokens, &mut Unbounded).unwrap());
        let count = |t: u8| tokens.ids.iter().filter(|&&x| x == t).count();
        assert_eq!(count(GUESS), count(BACKTRACK));
        assert_eq!(replay(9, &none, &tokens.ids), none);
    }
}
