//! Seeded puzzles for a logical target: a technique level (`level=`) or a set of techniques
//! (`techniques=`, e.g. singles and pairs only).
//!
//! One attempt fills a complete grid and visits the clue orbits in a shuffled order, as
//! [`generate`](super::generate::generate) does, but blanks an orbit only when the allowed
//! techniques still solve the puzzle. Every technique is sound, so a puzzle they solve has one
//! solution, and no search is needed to check it. For a level the allowed techniques are those
//! up to that level, and an attempt counts only when its puzzle needs that level (its hardest
//! technique has it); otherwise the next attempt starts from a new grid.
//!
//! The random stream is the plain generator's (same filler, same shuffle), but the puzzles
//! differ from it (another test decides which clue goes), so this path has a seed contract of
//! its own: the same seed and options give the same puzzle.

use crate::core::grid::shape::Geometry;
use crate::core::logic::{self, Candidates, Level, Technique, Techniques};
use crate::core::make::generate::{check_options, fill, Options, MAX_ATTEMPTS};
use crate::core::make::random::Rng;
use crate::core::{BoxShape, Control, Error, Grid, Result, SearchStats};

/// What the logical solution of a generated puzzle may use and must need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The techniques the solution may use (all by default).
    pub techniques: Techniques,
    /// The level the puzzle must have: its hardest technique's.
    pub level: Option<Level>,
}

impl Target {
    /// The techniques digging may rely on: the allowed ones up to the level.
    fn allowed(&self) -> Techniques {
        Technique::ALL
            .iter()
            .filter(|&&t| self.techniques.contains(t))
            .filter(|&&t| self.level.map_or(true, |level| t.level() <= level))
            .fold(Techniques::none(), |set, &t| set.with(t))
    }
}

/// Refuses targets no puzzle can meet, at once and saying why.
pub fn check_target(options: &Options, target: &Target) -> Result<()> {
    if options.minimal {
        return Err(Error::Generate(
            "minimal=True cannot be combined with level= or techniques=: minimal means no \
             clue can go with the solution staying unique, a logical target keeps clues the \
             techniques need"
                .to_string(),
        ));
    }
    let allowed = target.allowed();
    let places = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::NakedSingle,
    ];
    if !places.iter().any(|&t| allowed.contains(t)) {
        return Err(Error::Generate(
            "the techniques must include a single (full_house, hidden_single or naked_single): \
             the others only remove candidates, so no digit could ever be placed"
                .to_string(),
        ));
    }
    if let Some(level) = target.level {
        let at_level: Vec<Technique> = Technique::ALL
            .iter()
            .copied()
            .filter(|&t| allowed.contains(t) && t.level() == level)
            .collect();
        if at_level.is_empty() {
            return Err(Error::Generate(format!(
                "no allowed technique has level '{}', so no puzzle can need it",
                level.label()
            )));
        }
        // Digging never uses these (see `solve`), so a level only they reach is never needed.
        if at_level.iter().all(|t| t.needs_unique()) {
            let names: Vec<&str> = at_level.iter().map(|t| t.name()).collect();
            return Err(Error::Generate(format!(
                "the allowed '{}' techniques ({}) run only on puzzles known to have one \
                 solution, which a puzzle being dug is not yet known to have, so generating \
                 never uses them and no puzzle can need '{}' this way; allow another '{}' \
                 technique",
                level.label(),
                names.join(", "),
                level.label(),
                level.label()
            )));
        }
    }
    Ok(())
}

/// A puzzle the allowed techniques solve (needing the target level, if one is set), the same
/// for the same `seed`, options and target. Errors: [`Error::Generate`] for targets no puzzle
/// meets or when [`MAX_ATTEMPTS`] attempts all miss, [`Error::Interrupted`] when `control`
/// says stop.
pub fn generate(
    shape: BoxShape,
    options: &Options,
    target: &Target,
    seed: u64,
    control: &mut (impl Control + ?Sized),
) -> Result<Vec<u8>> {
    check_options(shape, options)?;
    check_target(options, target)?;
    let geo = Geometry::new(shape);
    let allowed = target.allowed();
    let mut rng = Rng::new(seed);
    let orbits = options.symmetry.orbits(geo.size);
    let mut tries = 0u64;
    for _ in 0..MAX_ATTEMPTS {
        let mut puzzle = fill(&geo, &mut rng);
        let mut order = orbits.clone();
        rng.shuffle(&mut order);
        let want = options.clues.unwrap_or(0);
        let mut clues = puzzle.len();
        for orbit in &order {
            if clues == want {
                break;
            }
            if clues - orbit.len() < want {
                continue;
            }
            tries += 1;
            if tries % POLL_EVERY == 0 && !control.proceed(&SearchStats::default()) {
                return Err(Error::Interrupted);
            }
            let values: Vec<u8> = orbit.iter().map(|&c| puzzle[c]).collect();
            for &cell in orbit {
                puzzle[cell] = 0;
            }
            if solve(shape, &puzzle, allowed).is_some() {
                clues -= orbit.len();
            } else {
                for (&cell, &v) in orbit.iter().zip(&values) {
                    puzzle[cell] = v;
                }
            }
        }
        if options.clues.is_some_and(|want| clues != want) {
            continue;
        }
        let level = solve(shape, &puzzle, allowed).expect("the dig kept it solvable");
        if target.level.map_or(true, |want| level == want) {
            return Ok(puzzle);
        }
    }
    let n = geo.size;
    let what = match target.level {
        Some(level) => format!("a '{}' puzzle", level.label()),
        None => "a puzzle for these techniques".to_string(),
    };
    let clues = options
        .clues
        .map_or(String::new(), |c| format!(" with {c} clues"));
    Err(Error::Generate(format!(
        "could not make {what}{clues} on a {n}x{n} grid with symmetry='{}' after {MAX_ATTEMPTS} \
         attempts; allow more techniques, another level or more clues",
        options.symmetry.name()
    )))
}

/// Removals between polls of the control (a removal is one logical solve).
const POLL_EVERY: u64 = 16;

/// The level of the logical solution with `allowed` techniques, or `None` when they get stuck.
/// No technique that needs a unique puzzle ([`Technique::needs_unique`]) runs: the puzzle being
/// dug is not yet known to be unique (that is what solving it by logic shows), and counting its
/// solutions at every removal would cost a search each. [`check_target`] refuses the levels
/// only those techniques reach.
fn solve(shape: BoxShape, puzzle: &[u8], allowed: Techniques) -> Option<Level> {
    let grid = Grid::new(shape, puzzle.to_vec()).expect("a dug grid is well formed");
    let mut cands = Candidates::from_grid(&grid);
    let mut hardest: Option<Technique> = None;
    while let Some(step) = logic::hint(&cands, allowed, false, &|| false) {
        if !logic::apply(&mut cands, &step) {
            break;
        }
        let t = step.technique;
        if hardest.map_or(true, |h| t.weight() > h.weight()) {
            hardest = Some(t);
        }
    }
    cands
        .is_solved()
        .then(|| hardest.map_or(Level::Easy, Technique::level))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::make::generate::Symmetry;
    use crate::core::Unbounded;

    fn options() -> Options {
        Options {
            clues: None,
            symmetry: Symmetry::None,
            minimal: false,
        }
    }

    #[test]
    fn levels_are_met_and_seeded() {
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            let target = Target {
                techniques: Techniques::all(),
                level: Some(level),
            };
            let a = generate(BoxShape::CLASSIC, &options(), &target, 7, &mut Unbounded).unwrap();
            let b = generate(BoxShape::CLASSIC, &options(), &target, 7, &mut Unbounded).unwrap();
            assert_eq!(a, b);
            assert_eq!(solve(BoxShape::CLASSIC, &a, Techniques::all()), Some(level));
        }
    }

    #[test]
    fn impossible_targets_fail_at_once() {
        let only_fish = Target {
            techniques: Techniques::none().with(Technique::XWing),
            level: None,
        };
        assert!(matches!(
            generate(BoxShape::CLASSIC, &options(), &only_fish, 1, &mut Unbounded),
            Err(Error::Generate(_))
        ));
        let singles = Techniques::none().with(Technique::HiddenSingle);
        let hard_with_singles = Target {
            techniques: singles,
            level: Some(Level::Hard),
        };
        assert!(matches!(
            check_target(&options(), &hard_with_singles),
            Err(Error::Generate(_))
        ));
        // A level reached only by uniqueness techniques fails at once, naming them.
        let hard_by_uniqueness = Target {
            techniques: singles.with(Technique::UniqueRectangle1),
            level: Some(Level::Hard),
        };
        let err = generate(
            BoxShape::CLASSIC,
            &options(),
            &hard_by_uniqueness,
            1,
            &mut Unbounded,
        )
        .unwrap_err();
        assert!(err.to_string().contains("unique_rectangle_1"), "{err}");
        let extreme_nested = Target {
            techniques: singles.with(Technique::NestedForcingChain),
            level: Some(Level::Extreme),
        };
        assert!(check_target(&options(), &extreme_nested).is_err());
        // With another technique of the level it is allowed.
        let hard_ok = Target {
            techniques: hard_by_uniqueness.techniques.with(Technique::XWing),
            level: Some(Level::Hard),
        };
        assert!(check_target(&options(), &hard_ok).is_ok());
    }
}
