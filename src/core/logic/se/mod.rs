//! The Sudoku Explainer (SE 1.2.1) rating: ER, EP and ED, the scale the puzzle community sorts
//! puzzles by. SE solves by repeatedly applying the easiest hint its technique set finds; ER is
//! the hardest difficulty on the way, EP the hardest before the first placement, ED the
//! hardest before the first elimination.

// The entry points that read these land next; until then nothing outside uses them.
#![allow(dead_code)]

mod chains;

/// The grid as SE sees it between steps: values (0 = empty) and, for every empty cell, its
/// candidates (bit d-1 for digit d); a filled cell's mask is 0.
#[derive(Clone)]
pub(crate) struct State {
    pub values: [u8; 81],
    pub cands: [u16; 81],
}

/// One SE hint: its difficulty in tenths (65 = 6.5), what it places and removes
/// (cell 0..81 row-major, digit 1..9).
pub(crate) struct Hint {
    pub tenths: u16,
    pub technique: &'static str,
    pub placements: Vec<(u8, u8)>,
    pub eliminations: Vec<(u8, u8)>,
}

/// The chain families in SE's order, each tried only when every cheaper technique finds
/// nothing.
const CHAIN_FAMILIES: [chains::Family; 1] = [chains::Family::Cycles];

/// Every chain hint of the SE families, cheapest family first, until one family finds some.
pub(crate) fn chain_hints(state: &State, out: &mut Vec<Hint>) {
    for family in CHAIN_FAMILIES {
        chains::hints(state, family, out);
        if !out.is_empty() {
            return;
        }
    }
}
