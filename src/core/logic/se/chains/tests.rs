//! Every chain hint agrees with the unique solution, over the sample sets.

use super::*;
use crate::core::grid::text::parse;
use crate::core::logic::se::PEERS;
use crate::core::search::{Control, SearchStats};
use crate::core::test_samples::puzzles;
use crate::core::{BoxShape, Error, Solver, Unbounded};

fn state_of(line: &str) -> State {
    let mut s = State {
        values: [0; 81],
        cands: [0x1ff; 81],
    };
    for (i, ch) in line.bytes().take(81).enumerate() {
        if ch.is_ascii_digit() && ch != b'0' {
            place(&mut s, i, ch - b'0');
        }
    }
    s
}

fn place(s: &mut State, cell: usize, digit: u8) {
    s.values[cell] = digit;
    s.cands[cell] = 0;
    for &o in &PEERS[cell] {
        s.cands[o as usize] &= !(1 << (digit - 1));
    }
}

/// A naked or hidden single, if any.
fn single(s: &State) -> Option<(usize, u8)> {
    for cell in 0..81 {
        if s.values[cell] == 0 && s.cands[cell].count_ones() == 1 {
            return Some((cell, s.cands[cell].trailing_zeros() as u8 + 1));
        }
    }
    for region in &REGION_CELLS {
        for d in 0..9 {
            let places: Vec<u8> = region
                .iter()
                .copied()
                .filter(|&c| s.cands[c as usize] >> d & 1 == 1)
                .collect();
            if places.len() == 1 {
                return Some((places[0] as usize, d as u8 + 1));
            }
        }
    }
    None
}

/// The first six top1465 puzzles' states at the givens and then three times thinned: each
/// round removes every fifth candidate the solution rules out, so links get stronger round by
/// round. Each comes with its puzzle line and its round (0 = the givens).
fn thinned_states() -> Vec<(String, usize, State)> {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let mut out = Vec::new();
    for line in puzzles("puzzles3_magictour_top1465", 0).iter().take(6) {
        let grid = parse(line, None).unwrap();
        let solution = solver.solutions(&grid, 2, &mut Unbounded).unwrap();
        let solution = solution[0].cells();
        let mut s = state_of(line);
        for round in 0..4 {
            out.push((line.clone(), round, s.clone()));
            let mut k = round;
            for (cands, &value) in s.cands.iter_mut().zip(solution) {
                for d in 0..9u8 {
                    if *cands >> d & 1 == 1 && value != d + 1 {
                        k += 1;
                        if k % 5 == 0 {
                            *cands &= !(1 << d);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Forcing chains followed a level at a time (outside nested chains) have the complexity the
/// breadth-first search finds, or none where it finds none, for every assumption, on the givens
/// and on grids with more and more of the candidates the solution rules out removed.
#[test]
fn forcing_chains_by_levels_match_the_search() {
    let mut found = 0;
    for (line, round, s) in thinned_states() {
        let (differ, n) = unary::forcing_both_ways(&s, &[u32::MAX, 4, 7, 12]);
        assert!(differ.is_empty(), "{line} round {round}: {differ:?}");
        found += n;
    }
    assert!(found > 100, "{found}");
}

/// A Nishio run the screen lets go meets no contradiction: for every assumption, on the givens
/// and on grids with more and more of the candidates the solution rules out removed.
#[test]
fn nishio_runs_skipped_meet_no_contradiction() {
    let (mut skipped, mut broken) = (0, 0);
    for (line, round, s) in thinned_states() {
        let planes = planes(&s.cands);
        for cell in 0..81 {
            for (d, &plane) in planes.iter().enumerate() {
                if s.cands[cell] >> d & 1 == 0 {
                    continue;
                }
                for on in [true, false] {
                    let start = pid(cell, d, on);
                    let mut unbounded = Unbounded;
                    let mut budget = Budget::new(&mut unbounded);
                    let run = multiple::follow(&s, start, Mode::NISHIO, &mut budget);
                    let breaks = run.reached().is_none();
                    broken += usize::from(breaks);
                    if !multiple::nishio_may_break(plane, cell, on) {
                        assert!(!breaks, "{line} round {round}: {cell} {d} {on}");
                        skipped += 1;
                    }
                    run.recycle();
                }
            }
        }
    }
    assert!(skipped > 1000 && broken > 100, "{skipped} {broken}");
}

/// The families up to dynamic (+): the nested ones are too slow for every sample puzzle.
const FAMILIES: [Family; 5] = [
    Family::Cycles,
    Family::Nishio,
    Family::Multiple,
    Family::Dynamic,
    Family::DynamicPlus,
];

/// Solves with singles and the chain families, checking every hint of the family used
/// against the solution; returns the hardest difficulty used (0 when stuck).
fn check(line: &str, solution: &[u8], fired: &mut [usize; 5]) -> u16 {
    let mut s = state_of(line);
    let mut hardest = 0;
    'steps: while s.values.contains(&0) {
        if let Some((cell, d)) = single(&s) {
            assert_eq!(solution[cell], d, "{line}");
            place(&mut s, cell, d);
            continue;
        }
        for (k, &family) in FAMILIES.iter().enumerate() {
            let mut out = Vec::new();
            hints_all(&s, family, &mut out, &mut Unbounded).unwrap();
            if out.is_empty() {
                continue;
            }
            for h in &out {
                assert!(!h.eliminations.is_empty(), "{}", h.technique);
                for &(cell, d) in &h.placements {
                    assert_eq!(solution[cell as usize], d, "{} in {line}", h.technique);
                }
                for &(cell, d) in &h.eliminations {
                    assert_ne!(solution[cell as usize], d, "{} in {line}", h.technique);
                    assert!(
                        s.cands[cell as usize] >> (d - 1) & 1 == 1,
                        "{}",
                        h.technique
                    );
                }
            }
            for w in out.windows(2) {
                assert!(w[0].tenths <= w[1].tenths);
            }
            fired[k] += 1;
            let h = &out[0];
            hardest = hardest.max(h.tenths);
            for &(cell, d) in &h.eliminations {
                s.cands[cell as usize] &= !(1 << (d - 1));
            }
            for &(cell, d) in &h.placements {
                place(&mut s, cell as usize, d);
            }
            continue 'steps;
        }
        return 0;
    }
    hardest
}

#[test]
fn every_chain_hint_agrees_with_the_solution() {
    let mut solver = Solver::new(BoxShape::CLASSIC);
    let mut fired = [0usize; 5];
    let mut solved = 0;
    let sets = [
        ("puzzles3_magictour_top1465", 40),
        ("puzzles6_forum_hardest_1106", 0),
        ("gen_easy35", 0),
    ];
    for (name, extra) in sets {
        for line in puzzles(name, extra) {
            let grid = parse(&line, None).unwrap();
            let found = solver.solutions(&grid, 2, &mut Unbounded).unwrap();
            assert_eq!(found.len(), 1);
            if check(&line, found[0].cells(), &mut fired) > 0 {
                solved += 1;
            }
        }
    }
    assert!(fired.iter().take(4).all(|&n| n > 0), "{fired:?}");
    assert!(solved > 0);
}

#[test]
fn length_increments_follow_se_steps() {
    let steps: Vec<f64> = [4, 6, 7, 8, 9, 10, 14, 15, 19, 26, 27, 35]
        .iter()
        .map(|&c| (length_difficulty(c) * 10.0).round())
        .collect();
    assert_eq!(
        steps,
        [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0]
    );
}

/// The state of a 729-character pencil-mark line as serate prints it (a cell with one
/// candidate is a placed value: serate applies singles before any chain).
fn state_of_marks(marks: &str) -> State {
    let b = marks.as_bytes();
    let mut s = State {
        values: [0; 81],
        cands: [0; 81],
    };
    for cell in 0..81 {
        for d in 0..9 {
            if b[cell * 9 + d] != b'.' && b[cell * 9 + d] != b'0' {
                s.cands[cell] |= 1 << d;
            }
        }
        if s.cands[cell].count_ones() == 1 {
            s.values[cell] = s.cands[cell].trailing_zeros() as u8 + 1;
            s.cands[cell] = 0;
        }
    }
    s
}

/// Compares each chain step of a serate log (`--before="BEFORE %m" --after="STEP %r %s"`,
/// file in `SE_STEPS`) with the first hint of the first family that has one.
#[test]
#[ignore = "needs a serate log"]
fn chain_steps_match_a_serate_log() {
    let Ok(path) = std::env::var("SE_STEPS") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut before = String::new();
    let (mut same, mut total) = (0, 0);
    let mut time_by_family = [0.0f64; Family::ALL.len()];
    let mut steps_by_family = [0usize; Family::ALL.len()];
    for line in text.lines() {
        if let Some(m) = line.strip_prefix("BEFORE ") {
            before = m.to_string();
            continue;
        }
        let Some(step) = line.strip_prefix("STEP ") else {
            continue;
        };
        let (rating, name) = step.split_once(' ').unwrap();
        let chain = ["Chain", "Cycle", "Turbot", "Generalized X-Wing"];
        if !chain.iter().any(|k| name.contains(k)) {
            continue;
        }
        let want: u16 = (rating.parse::<f64>().unwrap() * 10.0).round() as u16;
        let s = state_of_marks(&before);
        let t = std::time::Instant::now();
        let mut got = None;
        let mut used = Family::ALL.len() - 1;
        for (k, family) in Family::ALL.into_iter().enumerate() {
            let mut out = Vec::new();
            hints(&s, family, &mut out, &mut Unbounded).unwrap();
            if let Some(h) = out.first() {
                got = Some((h.tenths, h.technique, out.len()));
                used = k;
                break;
            }
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        time_by_family[used] += ms;
        steps_by_family[used] += 1;
        total += 1;
        if got.map(|g| g.0) == Some(want) {
            same += 1;
        } else {
            println!("{before}\n  serate {rating} {name}\n  ours {got:?} ({ms:.1} ms)");
        }
    }
    println!("{same} of {total} chain steps agree");
    for k in 0..Family::ALL.len() {
        println!(
            "{:?}: {} steps, {:.1} ms",
            Family::ALL[k],
            steps_by_family[k],
            time_by_family[k]
        );
    }
}

/// Prints the run from one assumption: `SE_STATE` (729 characters), `SE_PID` (`r8c1.3+` for
/// r8c1 = 3, `-` for its negation), `SE_LEVEL` (the nesting level):
/// `cargo test --release se_run -- --ignored --nocapture`.
#[test]
#[ignore = "a debugging aid: reads SE_STATE"]
fn se_run() {
    let marks = std::env::var("SE_STATE").unwrap_or_default();
    let b = marks.as_bytes();
    let mut s = State {
        values: [0; 81],
        cands: [0; 81],
    };
    for c in 0..81 {
        for d in 0..9 {
            if b[9 * c + d] != b'.' && b[9 * c + d] != b'0' {
                s.cands[c] |= 1 << d;
            }
        }
        if s.cands[c].count_ones() == 1 {
            s.values[c] = s.cands[c].trailing_zeros() as u8 + 1;
            s.cands[c] = 0;
        }
    }
    let p = std::env::var("SE_PID").unwrap_or_default();
    let p = p.as_bytes();
    let cell = (p[1] - b'1') as usize * 9 + (p[3] - b'1') as usize;
    let start = pid(cell, (p[5] - b'1') as usize, p[6] == b'+');
    let level: u8 = std::env::var("SE_LEVEL")
        .ok()
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mode = if level == 0 {
        Mode::DYNAMIC
    } else {
        Mode::nested(level, 0)
    };
    multiple::follow(&s, start, mode, &mut Budget::new(&mut Unbounded)).dump();
}

/// Stops once `until` has passed, as a time limit does.
struct StopAt {
    until: std::time::Instant,
    asked: usize,
}

impl Control for StopAt {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        self.asked += 1;
        std::time::Instant::now() < self.until
    }
}

#[test]
fn a_nested_step_stops_soon_after_the_time_limit() {
    use crate::core::logic::se::rate;
    use std::time::{Duration, Instant};
    // ER 11.1 (serate): its second step is a nested forcing chain that takes seconds.
    let line = "98.7.......7.65.........7..7...4..3..3...7..2..56..9..2......1...89..5.......1..4";
    let grid = parse(line, None).unwrap();
    let start = Instant::now();
    let mut control = StopAt {
        until: start + Duration::from_millis(50),
        asked: 0,
    };
    let rated = rate(&grid, &mut control);
    let took = start.elapsed();
    assert!(matches!(rated, Err(Error::Interrupted)), "{rated:?}");
    // Asked inside the step, not only between steps (the puzzle has a few quick steps first).
    assert!(control.asked > 5, "{}", control.asked);
    assert!(took < Duration::from_millis(500), "{took:?}");
}

#[test]
fn a_family_asked_to_stop_pushes_nothing() {
    struct Never;
    impl Control for Never {
        fn proceed(&mut self, _: &SearchStats) -> bool {
            false
        }
    }
    let s = state_of(
        "98.7.......7.65.........7..7...4..3..3...7..2..56..9..2......1...89..5.......1..4",
    );
    // From the dynamic chains on, a family's search outlasts the first question.
    for family in &Family::ALL[3..] {
        let mut out = Vec::new();
        let got = hints(&s, *family, &mut out, &mut Never);
        assert!(matches!(got, Err(Error::Interrupted)), "{family:?}");
        assert!(out.is_empty());
    }
}

/// The grid before a step serate rates 9.9 (a nested forcing chain) in an ER 11+ puzzle, nine
/// rows of pencil marks (`state_of_marks`).
const NESTED_STATE: [&str; 9] = [
    "........9.......8.1234.6.........7..123.......234.....1234.6....2.456...1.3.56...",
    "1.34.....12.4...........7..1234...8......6.......5....1234...8..2.4...891.3....89",
    "1.3456...12.456...1234.6...1234...8.123....89.234...89......7...2.4.6.8.1.3..6.8.",
    "......7..12...6..912...6..912..5..8....4......2.....891....6.8...3......1...56.8.",
    "1..4.6.8...3......1..4.6..91...5..8.1...5..89......7..1..4.6.8....456.8..2.......",
    "1..4...8.12.4.........5.........6...123....8..23....8.........9...4..78.1.....78.",
    ".2..........4567.9..34.6..9..345..8...3.5.78...34.6.8...3..6.8.1..........3..6789",
    "1.34.6...1..4.67.........8.........9.23...7...234.6.......5.....2...67....3..67..",
    "..3.56.......567.9..3..6..9.23.5..8..23.5.78.1.........23..6.8..2...6789...4.....",
];

/// Whether every potential a run reached holds in `solution` (and it met no contradiction).
fn run_holds(run: &multiple::Run, solution: &[u8]) -> bool {
    run.reached().is_some_and(|reached| {
        reached
            .iter()
            .all(|&p| (solution[pcell(p)] == pdigit(p) as u8 + 1) == pon(p))
    })
}

/// The nested levels' soundness where it is decided: every conclusion of a chain step is
/// either a potential reached from an assumption, or the negation of an assumption whose
/// consequences meet both ways, so the steps are sound when a run from an assumption that
/// holds in the solution reaches only potentials that hold (and no contradiction). Checked
/// from the state before a nested step, for 10.0 (+ cell and region forcing chains inside)
/// and 10.5 (+ dynamic forcing chains nested 0, 1 and 2 deep), with the runs' conclusions of
/// inner chains counted so the nesting is known to have been used.
#[test]
fn nested_runs_from_true_assumptions_reach_only_true_potentials() {
    let s = state_of_marks(&NESTED_STATE.concat());
    let marks: Vec<u64> = (0..81)
        .map(|c| match s.values[c] {
            0 => u64::from(s.cands[c]),
            v => 1 << (v - 1),
        })
        .collect();
    let grid = crate::core::Grid::new(BoxShape::CLASSIC, s.values.to_vec()).unwrap();
    let found = Solver::new(BoxShape::CLASSIC)
        .solutions_marked(&grid, Some(&marks), 2, &mut Unbounded)
        .unwrap();
    assert_eq!(found.len(), 1);
    let solution = found[0].cells();
    let empty: Vec<usize> = (0..81).filter(|&c| s.values[c] == 0).collect();
    // Each level's starts spread over the grid; the deeper levels cost more a run (the
    // deepest seconds at the tests' optimisation level), so they take fewer.
    for (mode, stride, count) in [
        (Mode::nested(3, 0), 3, usize::MAX),
        (Mode::nested(4, 0), 5, usize::MAX),
        (Mode::nested(4, 1), 23, usize::MAX),
        (Mode::nested(4, 2), 23, 1),
    ] {
        let mut inner = 0;
        for &cell in empty.iter().step_by(stride) {
            let d = solution[cell] as usize - 1;
            let wrong = (s.cands[cell] & !(1 << d)).trailing_zeros() as usize;
            for start in [pid(cell, d, true), pid(cell, wrong, false)]
                .into_iter()
                .take(count)
            {
                let run = multiple::follow(&s, start, mode, &mut Budget::new(&mut Unbounded));
                assert!(
                    run_holds(&run, solution),
                    "level {} from {start}",
                    mode.level
                );
                inner += run.inner_conclusions();
                run.recycle();
            }
            if count == 1 {
                break;
            }
        }
        assert!(inner > 0, "level {} inner {}", mode.level, mode.inner);
    }
}

/// Prints SE's step log (technique, difficulty, placements and eliminations of every step,
/// each family tried in SE's order) of every puzzle in the file `SE_LOG` (81-character grids
/// or 729-character sukaku, first word of a line): two builds' logs compared line by line
/// tell whether a change to the searches changed any step:
/// `SE_LOG=puzzles.txt cargo test --release se_step_log -- --ignored --nocapture > log.txt`.
#[test]
#[ignore = "a checking aid: reads SE_LOG"]
fn se_step_log() {
    use super::super::walk_path;
    let Ok(path) = std::env::var("SE_LOG") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let _spare = SpareRuns::hold();
    for line in text.lines() {
        let Some(puzzle) = line.split_whitespace().next() else {
            continue;
        };
        let state = match puzzle.len() {
            81 => state_of(puzzle),
            729 => state_of_marks(puzzle),
            _ => continue,
        };
        println!("PUZZLE {puzzle}");
        walk_path(state, |_, hint| match hint {
            Some(h) => println!(
                "{} {} {:?} {:?}",
                h.technique, h.tenths, h.placements, h.eliminations
            ),
            None => println!("stuck"),
        });
    }
}
