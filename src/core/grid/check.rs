//! Checking an answer against its puzzle, for bulk grading of model output.

use crate::core::grid::find_conflict;
use crate::core::grid::shape::BoxShape;

/// How an answer relates to its puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The answer is a complete grid with no two equal digits in a row, column or box.
    pub valid: bool,
    /// Every clue of the puzzle is in the answer, in its place.
    pub keeps_clues: bool,
}

/// Judges `answer` against `puzzle`: both `n*n` row-major cells of `shape`, 0 = blank, values
/// at most n (the batch reader guarantees it).
pub fn check_answer(shape: BoxShape, puzzle: &[u8], answer: &[u8]) -> Verdict {
    Verdict {
        valid: answer.iter().all(|&v| v != 0) && find_conflict(shape, answer).is_none(),
        keeps_clues: puzzle
            .iter()
            .zip(answer)
            .all(|(&clue, &value)| clue == 0 || clue == value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn verdict(puzzle: &str, answer: &str) -> Verdict {
        let p = parse(puzzle, None).unwrap();
        let a = parse(answer, None).unwrap();
        check_answer(p.shape(), p.cells(), a.cells())
    }

    #[test]
    fn the_solution_passes() {
        let v = verdict(PUZZLE, SOLUTION);
        assert!(v.valid && v.keeps_clues);
    }

    #[test]
    fn flags_blanks_clashes_and_changed_clues() {
        // A blank where the puzzle has none either: not valid, clues kept.
        let blank = format!("{}.{}", &SOLUTION[..2], &SOLUTION[3..]);
        assert_eq!(
            verdict(PUZZLE, &blank),
            Verdict {
                valid: false,
                keeps_clues: true
            }
        );
        // The first clue changed from 5 to 6: a clash in row 0, and a clue lost.
        let changed = format!("6{}", &SOLUTION[1..]);
        assert_eq!(verdict(PUZZLE, &changed), Verdict::default());
        // Swapping two digits everywhere keeps a valid grid but loses clues.
        let swapped: String = SOLUTION
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                other => other,
            })
            .collect();
        assert_eq!(
            verdict(PUZZLE, &swapped),
            Verdict {
                valid: true,
                keeps_clues: false
            }
        );
    }
}
