//! Logical steps as token ids, in the search traces' vocabulary (`search::trace`), and the
//! grid and pencil marks after each step, for models that learn from the steps.

use super::{apply, Candidates, Step};
use crate::core::grid::Grid;
use crate::core::search::trace::{Tokens, ELIMINATE, PLACE, TECHNIQUE};

/// Appends the tokens of each step to `tokens` and its token count to `lengths`: the
/// technique (`TECHNIQUE` + its index in the table), then `PLACE` row column digit for each
/// placement, then `ELIMINATE` row column digit for each removed candidate.
pub fn step_tokens(n: usize, steps: &[Step], tokens: &mut Tokens, lengths: &mut Vec<u32>) {
    for step in steps {
        let before = tokens.ids.len();
        tokens.push(&[TECHNIQUE + step.technique.index() as u8]);
        for &(r, c, d) in &step.placements {
            tokens.push_cell(PLACE, r * n + c, d);
        }
        for &(r, c, d) in &step.eliminations {
            tokens.push_cell(ELIMINATE, r * n + c, d);
        }
        lengths.push((tokens.ids.len() - before) as u32);
    }
}

/// Appends, for each step, the grid after it (`n*n` values, 0 blank) to `grids` and its
/// pencil marks (`n*n*n` flags, `[cell * n + d - 1]`, a filled cell marked at its digit only)
/// to `marks`: the steps replayed from the candidates of `puzzle`'s givens, where an
/// explanation starts.
pub fn states_after(puzzle: &Grid, steps: &[Step], grids: &mut Vec<u8>, marks: &mut Vec<bool>) {
    let mut candidates = Candidates::from_grid(puzzle);
    for step in steps {
        apply(&mut candidates, step);
        grids.extend_from_slice(candidates.values());
        marks.extend(candidates.to_bools());
    }
}
