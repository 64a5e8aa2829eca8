//! Soundness over the sample sets: every placement and elimination of every step, of every
//! technique, agrees with the puzzle's unique solution from the [`Solver`].

use super::*;
use crate::core::grid::text::parse;
use crate::core::make::generate::{generate, Options, Symmetry};
use crate::core::test_samples::puzzles;
use crate::core::{BoxShape, Grid, Solver, Unbounded};

/// Runs the allowed techniques to the end, checking each step against `solution`; returns how
/// often each technique fired and whether the grid got solved.
fn check_trace(
    grid: &Grid,
    solution: &[u8],
    unique: bool,
    techniques: Techniques,
    fired: &mut [usize],
) -> bool {
    let n = grid.size();
    let mut cands = Candidates::from_grid(grid);
    while let Some(step) = hint(&cands, techniques, true, &|| unique) {
        assert!(techniques.contains(step.technique));
        assert!(!step.text.is_empty(), "{step:?}");
        assert!(
            !step.placements.is_empty() || !step.eliminations.is_empty(),
            "{step:?}"
        );
        for &(r, c, d) in &step.placements {
            assert_eq!(
                solution[r * n + c],
                d,
                "{}: wrong placement in {grid:?}",
                step.text
            );
        }
        let mut sorted = step.eliminations.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, step.eliminations, "{}", step.text);
        for &(r, c, d) in &step.eliminations {
            assert_ne!(
                solution[r * n + c],
                d,
                "{}: eliminates the solution in {grid:?}",
                step.text
            );
            assert!(cands.has(r * n + c, d), "{}: not a candidate", step.text);
        }
        fired[step.technique.index()] += 1;
        assert!(apply(&mut cands, &step));
    }
    cands.is_solved()
}

fn singles() -> Techniques {
    Techniques::none()
        .with(Technique::FullHouse)
        .with(Technique::HiddenSingle)
        .with(Technique::NakedSingle)
}

/// Every technique alone with singles, and all together, on one puzzle. Uniqueness
/// techniques run only when the puzzle has one solution (as the engine does); steps of a puzzle
/// with several are checked against the first solution (every sound step agrees with all).
/// Returns whether all the techniques together solved it.
fn check_puzzle(grid: &Grid, solver: &mut Solver, fired: &mut [usize]) -> bool {
    let found = solver.solutions(grid, 2, &mut Unbounded).unwrap();
    let unique = found.len() == 1;
    let solution = found[0].cells();
    let solved = check_trace(grid, solution, unique, Techniques::all(), fired);
    for &t in Technique::ALL {
        check_trace(grid, solution, unique, singles().with(t), fired);
    }
    solved
}

/// Puzzles where a technique fires that the first lines of the sample sets never need
/// (found with `examples/logic_sets.rs`): BUG+1 is gen_minimal line 99.
const SHOWCASE: [(Technique, &str); 1] = [(
    Technique::BugPlusOne,
    "....582......4...8..2..........3.....3.9.4.6.9.8...7.1.21.754...63......57...1...",
)];

#[test]
fn every_step_agrees_with_the_solution_on_9x9_samples() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let mut fired = vec![0usize; Technique::ALL.len()];
    for set in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+",
        "puzzles6_forum_hardest_1106",
        "gen_easy35",
        "gen_minimal",
    ] {
        for line in puzzles(set, 20) {
            let grid = parse(&line, None).unwrap();
            // Every puzzle with one solution gets a complete logical trace.
            assert!(
                check_puzzle(&grid, &mut solver, &mut fired),
                "unsolved: {line}"
            );
        }
    }
    for (t, line) in SHOWCASE {
        let before = fired[t.index()];
        let grid = parse(line, None).unwrap();
        assert!(check_puzzle(&grid, &mut solver, &mut fired));
        assert!(
            fired[t.index()] > before,
            "{} did not fire on {line}",
            t.name()
        );
    }
    for (t, &count) in Technique::ALL.iter().zip(&fired) {
        assert!(count > 0, "{} never fired on the samples", t.name());
    }
}

#[test]
fn every_step_agrees_with_the_solution_on_other_shapes() {
    let mut fired = vec![0usize; Technique::ALL.len()];
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 4), (4, 3)] {
        let shape = BoxShape::new(rows, cols).unwrap();
        let mut solver = Solver::new(shape);
        let options = Options {
            clues: None,
            symmetry: Symmetry::None,
            minimal: false,
        };
        for seed in 0..12 {
            let cells = generate(shape, &options, seed, &mut solver, &mut Unbounded).unwrap();
            let grid = Grid::new(shape, cells).unwrap();
            check_puzzle(&grid, &mut solver, &mut fired);
        }
    }
    let shape = BoxShape::new(4, 4).unwrap();
    let mut solver = Solver::new(shape);
    for line in puzzles("gen_16x16", 0) {
        let grid = parse(&line, None).unwrap();
        check_puzzle(&grid, &mut solver, &mut fired);
    }
    let used = fired.iter().filter(|&&c| c > 0).count();
    assert!(used >= 6, "only {used} techniques fired: {fired:?}");
}

/// The same puzzle gives the same trace every time, with or without sentences (grading skips
/// them), and the grade agrees with the explanation.
#[test]
fn traces_are_deterministic() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    for set in ["puzzles3_magictour_top1465", "puzzles6_forum_hardest_1106"] {
        for line in puzzles(set, 0).iter().take(4) {
            let grid = parse(line, None).unwrap();
            let run = |solver: &mut Solver| {
                let s = start(&grid, None, solver, &mut Unbounded).unwrap();
                explain(s, Techniques::all(), solver, &mut Unbounded).unwrap()
            };
            let (a, b) = (run(&mut solver), run(&mut solver));
            assert!(a.solved(), "{line}");
            assert_eq!(a.steps, b.steps);
            let s = start(&grid, None, &mut solver, &mut Unbounded).unwrap();
            let graded = grade(s, Techniques::all(), &mut solver, &mut Unbounded).unwrap();
            assert_eq!(graded, a.grade);
            let mut cands = Candidates::from_grid(&grid);
            for step in &a.steps {
                let silent = hint(&cands, Techniques::all(), false, &|| true).unwrap();
                assert_eq!(silent.technique, step.technique);
                assert_eq!(silent.placements, step.placements);
                assert_eq!(silent.eliminations, step.eliminations);
                apply(&mut cands, step);
            }
        }
    }
}

/// Uniqueness techniques stay silent unless the puzzle is known to have one solution.
#[test]
fn uniqueness_needs_a_unique_puzzle() {
    let grid = parse(SHOWCASE[0].1, None).unwrap();
    let uniqueness = [
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::BugPlusOne,
    ];
    let mut cands = Candidates::from_grid(&grid);
    let mut seen = false;
    while let Some(step) = hint(&cands, Techniques::all(), true, &|| true) {
        if uniqueness.contains(&step.technique) {
            seen = true;
            assert!(step.text.contains("one solution"), "{}", step.text);
            let mut allowed = Techniques::none();
            for t in uniqueness {
                allowed = allowed.with(t);
            }
            assert_eq!(hint(&cands, allowed, true, &|| false), None);
        }
        apply(&mut cands, &step);
    }
    assert!(seen);
}

#[test]
fn explain_solves_and_grades() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let easy = parse(&puzzles("gen_easy35", 0)[0], None).unwrap();
    let start = start(&easy, None, &mut solver, &mut Unbounded).unwrap();
    let explanation = explain(start, Techniques::all(), &mut solver, &mut Unbounded).unwrap();
    assert!(explanation.solved());
    assert!(explanation.remaining().is_empty());
    let grade = &explanation.grade;
    assert_eq!(grade.solutions, Solutions::One);
    assert_eq!(grade.label(), "easy");
    let score: u64 = explanation
        .steps
        .iter()
        .map(|s| u64::from(s.weight()))
        .sum();
    assert_eq!(grade.score, score);
    assert_eq!(
        explanation.steps.len(),
        easy.cells().iter().filter(|&&v| v == 0).count()
    );
    let again = grade::grade_of(&easy, &mut solver);
    assert_eq!(&again, grade);
}

#[test]
fn the_solver_is_asked_only_when_the_logic_gets_stuck() {
    let easy = parse(&puzzles("gen_easy35", 0)[0], None).unwrap();
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let s = start(&easy, None, &mut solver, &mut Unbounded).unwrap();
    let graded = grade(s, Techniques::all(), &mut solver, &mut Unbounded).unwrap();
    assert_eq!(graded.solutions, Solutions::One);
    assert_eq!(solver.stats().nodes, 0, "an easy puzzle needs no search");
    let s = start(&easy, None, &mut solver, &mut Unbounded).unwrap();
    let stuck = grade(s, Techniques::none(), &mut solver, &mut Unbounded).unwrap();
    assert_eq!(stuck.label(), "unsolved");
    assert!(solver.stats().nodes > 0);
}

#[test]
fn stuck_and_not_unique_puzzles_say_so() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let hard = parse(&puzzles("puzzles6_forum_hardest_1106", 0)[0], None).unwrap();
    let s = start(&hard, None, &mut solver, &mut Unbounded).unwrap();
    let explanation = explain(s, singles(), &mut solver, &mut Unbounded).unwrap();
    assert!(!explanation.solved());
    assert!(!explanation.remaining().is_empty());
    assert_eq!(explanation.grade.label(), "unsolved");
    assert_eq!(explanation.grade.level, None);

    let serg = parse(&puzzles("puzzles7_serg_benchmark", 0)[0], None).unwrap();
    let grade = grade::grade_of(&serg, &mut solver);
    assert_eq!(grade.solutions, Solutions::Many);
    assert_eq!(grade.label(), "not unique");
    assert!(!grade.solved);

    let mut cells = vec![0u8; 81];
    cells[..8].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
    cells[9 * 4 + 8] = 9; // r5c9 = 9: r1c9 must be 9 and cannot be
    let none = Grid::new(BoxShape::CLASSIC, cells).unwrap();
    let grade = grade::grade_of(&none, &mut solver);
    assert_eq!(grade.label(), "no solution");
}

#[test]
fn marks_that_rule_out_the_solution_are_an_error() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let grid = parse(&puzzles("puzzles3_magictour_top1465", 0)[0], None).unwrap();
    let solution = solver.solve(&grid, &mut Unbounded).unwrap();
    let mut marks = Candidates::from_grid(&grid).masks().to_vec();
    let cell = grid.cells().iter().position(|&v| v == 0).unwrap();
    let wrong = solution.cells()[cell];
    marks[cell] &= !(1 << (wrong - 1));
    let err = start(&grid, Some(&marks), &mut solver, &mut Unbounded)
        .err()
        .unwrap();
    assert!(err.to_string().contains("r1c2"), "{err}");
    // Fewer marks than the givens allow, all true: fine, and the hint uses them.
    let mut marks = Candidates::from_grid(&grid).masks().to_vec();
    marks[cell] = 1 << (wrong - 1);
    let s = start(&grid, Some(&marks), &mut solver, &mut Unbounded).unwrap();
    let naked = Techniques::none().with(Technique::NakedSingle);
    let step = hint(&s.candidates, naked, true, &|| true).unwrap();
    assert_eq!(step.technique, Technique::NakedSingle);
    assert_eq!(step.placements, vec![(0, 1, wrong)]);
}

mod grade {
    use super::*;

    pub fn grade_of(grid: &Grid, solver: &mut Solver) -> Grade {
        let s = start(grid, None, solver, &mut Unbounded).unwrap();
        grade(s, Techniques::all(), solver, &mut Unbounded).unwrap()
    }
}
