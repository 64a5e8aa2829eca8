//! The bodies of the fuzz targets in `fuzz/` (cargo-fuzz, libFuzzer): each takes arbitrary
//! bytes, drives one entry point of the core with them, and panics when a property a user relies
//! on breaks (a solution that does not solve, a count that contradicts the solve, a panic inside
//! the core). They live here, not in `fuzz/`, so that `cargo test` replays the saved corpus
//! through exactly the same code without cargo-fuzz (see the tests below).

use crate::core::error::{Cell, Error};
use crate::core::grid::answer::{self, Reply};
use crate::core::grid::lines;
use crate::core::grid::marks;
use crate::core::grid::shape::BoxShape;
use crate::core::grid::text;
use crate::core::grid::Grid;
use crate::core::link::{fpuzzles, lz, sudokupad, Puzzle, Site};
use crate::core::rules::{
    conflicting_cells, find_conflict, Arrow, Cage, ClonePair, Direction, IndexerKind, Layout,
    LineClue, LineKind, LittleKiller, Outside, Pair, PencilMark, Quadruple, Rules, Spec, Whisper,
};
use crate::core::search::{Solver, Unbounded};
use crate::core::Result;
use std::sync::Arc;

/// The guess budget of every fuzzed search: enough to solve most small inputs, small enough
/// that a near-empty 64x64 grid cannot stall the fuzzer.
pub const FUZZ_GUESSES: u64 = 64;

/// A box request from one byte: `None`, or rows and columns of 0..=7 each (invalid ones too).
fn box_from(byte: u8) -> Option<(usize, usize)> {
    (byte != 0).then_some((usize::from(byte & 7), usize::from((byte >> 3) & 7)))
}

fn out_of_guesses<T>(result: &Result<T>) -> bool {
    matches!(result, Err(Error::GuessLimit { .. }))
}

/// Solves, counts and lists the solutions of `grid` under the fuzz budget and checks that the
/// three agree with each other and with the grid.
fn search_consistently(grid: &Grid) {
    let mut solver = Solver::new(grid.shape());
    solver.set_max_guesses(Some(FUZZ_GUESSES));
    let conflict = grid.check().err();
    let solved = solver.solve(grid, &mut Unbounded);
    let counted = solver.count(grid.cells(), Some(2), &mut Unbounded);
    let listed = solver.solutions(grid, 2, &mut Unbounded);
    if let Some(err) = conflict {
        assert_eq!(
            solved.as_ref().err(),
            Some(&err),
            "a conflict is found by solve"
        );
        assert_eq!(counted.as_ref().err(), Some(&err), "and by count");
        return;
    }
    match &solved {
        Ok(solution) => {
            assert!(grid.is_solved_by(solution), "the solution solves the grid");
            assert!(out_of_guesses(&counted) || matches!(counted, Ok(1 | 2)));
            if let Ok(list) = &listed {
                assert_eq!(list.first(), Some(solution), "solutions start with solve's");
                assert!(list.iter().all(|s| grid.is_solved_by(s)));
                assert_eq!(Ok(list.len() as u64), counted, "count and solutions agree");
            }
        }
        Err(Error::NoSolution) => {
            assert!(out_of_guesses(&counted) || counted == Ok(0));
            assert!(out_of_guesses(&listed) || listed.as_ref().is_ok_and(Vec::is_empty));
        }
        Err(Error::GuessLimit { max_guesses }) => assert_eq!(*max_guesses, FUZZ_GUESSES),
        Err(other) => panic!("a well-formed grid gave {other:?}"),
    }
}

/// Target `text_search`: the first byte picks the box, the rest is grid text.
pub fn text_search(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let requested = box_from(first);
    let text = String::from_utf8_lossy(rest);
    let Ok(grid) = text::parse(&text, requested) else {
        return;
    };
    let n = grid.size();
    assert_eq!(grid.cells().len(), n * n);
    assert!(grid.cells().iter().all(|&v| usize::from(v) <= n));
    // Rendering into the input's own layout and parsing again gives the same grid.
    let again = text::parse(&text::render_like(&text, grid.cells()), requested);
    assert_eq!(again.as_ref(), Ok(&grid), "render_like round trip");
    search_consistently(&grid);
}

/// Target `grid_bytes`: two bytes pick a box shape (valid or not), the rest are cell values,
/// some of them too big, and maybe too few or too many of them.
pub fn grid_bytes(data: &[u8]) {
    let [rows, cols, rest @ ..] = data else {
        return;
    };
    let Ok(shape) = BoxShape::new(usize::from(rows % 9), usize::from(cols % 9)) else {
        return;
    };
    let n = shape.size();
    let modulus = n as u16 + 2;
    let cells: Vec<u8> = rest
        .iter()
        .map(|&b| (u16::from(b) % modulus) as u8)
        .take(shape.cell_count() + 1)
        .collect();
    let fits = cells.len() == shape.cell_count() && cells.iter().all(|&v| usize::from(v) <= n);
    match Grid::new(shape, cells) {
        Ok(grid) => {
            assert!(fits, "Grid::new accepted a bad grid");
            search_consistently(&grid);
        }
        Err(err) => {
            assert!(!fits, "Grid::new refused a good grid: {err}");
            assert!(!err.to_string().is_empty());
        }
    }
}

/// Target `lines`: the first byte picks the CSV column and the box, the rest is a file chunk.
pub fn lines(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let column = usize::from(first & 3);
    let parsed = lines::parse(rest, column, 1, 0, box_from(first >> 2));
    let count = parsed.count();
    let nc = parsed.size * parsed.size;
    assert_eq!(parsed.cells.len(), count * nc, "whole puzzles");
    assert!(parsed.line_numbers.windows(2).all(|w| w[0] < w[1]));
    assert!(parsed.bad.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(parsed
        .bad
        .iter()
        .all(|(i, msg)| *i < count && !msg.is_empty()));
    assert!(parsed.cells.iter().all(|&v| usize::from(v) <= parsed.size));
    // Size 0: no line was a puzzle, so there is nothing to write and no cell count to cut
    // rows by (fuzz/regressions/lines/format-size-0).
    let written = lines::format(&parsed.cells, parsed.size, b'.', &[]);
    let expected_lines = if parsed.size > 0 { count } else { 0 };
    assert_eq!(
        written.iter().filter(|&&b| b == b'\n').count(),
        expected_lines
    );
    // What is written reads back row for row, a bad line's blank row included.
    if parsed.size > 0 {
        let again = lines::parse(&written, 0, 1, parsed.size, box_from(first >> 2));
        assert!(again.bad.is_empty(), "{:?}", again.bad.first());
        assert_eq!(again.cells, parsed.cells);
    }
    // The reader that keeps pencil marks reads the same lines; a line it takes as a sukaku
    // is one the cells reader refused, its row blank, its text marks a solver takes.
    let marked = lines::parse_marked(rest, column, 1, 0, box_from(first >> 2));
    assert_eq!(marked.line_numbers, parsed.line_numbers);
    assert!(parsed.marked.is_empty());
    let nc = marked.size * marked.size;
    for (i, text) in &marked.marked {
        assert!(marked.bad.iter().all(|(b, _)| b != i));
        assert!(parsed.bad.iter().any(|(b, _)| b == i));
        assert!(marked.cells[i * nc..(i + 1) * nc].iter().all(|&v| v == 0));
        let (grid, marks) = text::parse_with_marks(text, box_from(first >> 2)).expect("a sukaku");
        assert_eq!(grid.size(), marked.size);
        marks::restrict(&grid, &marks.expect("read as marks")).expect("marks a solver takes");
    }
}

/// Target `answer`: the first byte picks the size (4, 6, 9, 16 or 25), the rest is a reply.
/// The parser never panics; what it reads fits the size; a grid it reads, written out again
/// as one line of cells (or numbers), reads back the same; an error has a message.
pub fn answer(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let n = [4, 6, 9, 16, 25][usize::from(first) % 5];
    let text = String::from_utf8_lossy(rest);
    match answer::parse_answer(&text, n) {
        Ok(Reply::Grid(cells)) => {
            assert_eq!(cells.len(), n * n);
            assert!(cells.iter().all(|&v| usize::from(v) <= n));
            let line: Vec<String> = cells
                .iter()
                .map(|&v| if v == 0 { ".".into() } else { v.to_string() })
                .collect();
            let again = answer::parse_answer(&line.join(if n <= 9 { "" } else { " " }), n);
            assert_eq!(
                again,
                Ok(Reply::Grid(cells)),
                "a grid written out reads back"
            );
        }
        Ok(Reply::Moves(moves)) => {
            assert!(!moves.is_empty());
            assert!(moves.iter().all(|m| {
                usize::from(m.row) < n
                    && usize::from(m.col) < n
                    && (1..=n).contains(&usize::from(m.digit))
            }));
            let written: Vec<String> = moves.iter().map(ToString::to_string).collect();
            let again = answer::parse_answer(&written.join("\n"), n);
            assert_eq!(
                again,
                Ok(Reply::Moves(moves)),
                "moves written out read back"
            );
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
}

/// Target `lz`: the bytes as a payload (LZ-string base64, or anything) and as UTF-16 units.
/// The decoder never panics and never passes its cap; what it decodes encodes back to a payload
/// that decodes the same; any units survive encoding and decoding.
pub fn lz(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // A small cap: a few bytes can ask for any length, and the cap is what is being tested.
    match lz::decompress_capped(&text, 1 << 12) {
        Ok(units) => {
            assert!(units.len() <= 1 << 12);
            let again = lz::compress_base64(&units);
            assert_eq!(lz::decompress_base64(&again).as_ref(), Ok(&units));
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
    let units: Vec<u16> = data
        .chunks(2)
        .map(|p| u16::from_le_bytes([p[0], *p.get(1).unwrap_or(&0)]))
        .collect();
    let packed = lz::compress_base64(&units);
    assert_eq!(lz::decompress_base64(&packed), Ok(units), "round trip");
}

/// A puzzle read from anything is well formed and survives writing and reading back, as
/// f-puzzles JSON and as a link.
fn round_trips(puzzle: &Puzzle) {
    assert_eq!(puzzle.check(), Ok(()));
    let json = puzzle.to_fpuzzles();
    let again = fpuzzles::from_json(&json).expect("a written puzzle reads back");
    assert_eq!(&again, puzzle, "f-puzzles JSON round trip");
    let text = json.write();
    assert_eq!(
        Puzzle::from_fpuzzles_text(&text).as_ref(),
        Ok(puzzle),
        "JSON text round trip"
    );
    let link = puzzle.to_url(Site::FPuzzles);
    assert_eq!(
        Puzzle::from_url(&link).as_ref(),
        Ok(puzzle),
        "link round trip"
    );
}

/// Target `fpuzzles`: the bytes as f-puzzles JSON text. The reader never panics; an error has
/// a message; a puzzle it reads round-trips.
pub fn fpuzzles(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match Puzzle::from_fpuzzles_text(&text) {
        Ok(puzzle) => round_trips(&puzzle),
        Err(err) => assert!(!err.to_string().is_empty()),
    }
}

/// Target `links`: the bytes as a link or a SudokuPad text (zipped JSON). Neither reader
/// panics; a puzzle read round-trips as f-puzzles data.
pub fn links(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let read = if first & 1 == 0 {
        Puzzle::from_url(&text)
    } else {
        sudokupad::from_text(&text)
    };
    match read {
        Ok(puzzle) => round_trips(&puzzle),
        Err(err) => assert!(!err.to_string().is_empty()),
    }
}

/// Reads fuzz bytes as small numbers; past the end every read is 0, so any input is a spec.
struct Bytes<'a> {
    data: &'a [u8],
    n: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.data.split_first() else {
            return 0;
        };
        self.data = rest;
        b
    }

    /// A number below `m`.
    fn below(&mut self, m: usize) -> usize {
        usize::from(self.byte()) % m
    }

    /// A cell of the grid or one step past its edge.
    fn cell(&mut self) -> Cell {
        let m = self.n + 2;
        Cell {
            row: self.below(m),
            col: self.below(m),
        }
    }

    /// Up to `most` cells, repeats and strays included.
    fn cells(&mut self, most: usize) -> Vec<Cell> {
        let k = self.below(most + 1);
        (0..k).map(|_| self.cell()).collect()
    }

    /// A place around the grid: rows and columns -1..=n+1, so inside and far corners too.
    fn outside(&mut self) -> Outside {
        let m = self.n + 3;
        Outside {
            row: self.below(m) as i32 - 1,
            col: self.below(m) as i32 - 1,
        }
    }

    /// A value: mostly small (what the rules mean), sometimes anything.
    fn value(&mut self) -> u32 {
        let b = self.byte();
        if b & 0x80 == 0 {
            u32::from(b)
        } else {
            u32::from(b) << (b & 15)
        }
    }

    /// Up to four digits of 0..=n+1.
    fn digits(&mut self) -> Vec<u8> {
        let k = self.below(5);
        (0..k).map(|_| self.below(self.n + 2) as u8).collect()
    }

    fn line_clue(&mut self) -> LineClue {
        LineClue {
            value: self.value(),
            clue: self.outside(),
        }
    }

    fn pair(&mut self) -> Pair {
        // Mostly orthogonal neighbours, as a mark sits between; sometimes any two cells.
        let a = self.cell();
        let b = match self.below(5) {
            0 => Cell {
                row: a.row + 1,
                ..a
            },
            1 => Cell {
                col: a.col + 1,
                ..a
            },
            2 => Cell {
                row: a.row.saturating_sub(1),
                ..a
            },
            3 => Cell {
                col: a.col.saturating_sub(1),
                ..a
            },
            _ => self.cell(),
        };
        Pair {
            cells: [a, b],
            value: self.value(),
        }
    }
}

/// Jigsaw regions of side `n`: the boxes of `shape` (or their transpose), with labels swapped
/// between a few cells (a swap keeps every region's size, so most stay valid; the checks decide).
fn fuzz_regions(bytes: &mut Bytes<'_>, shape: BoxShape) -> Vec<Vec<Option<i64>>> {
    let n = shape.size();
    let (rows, cols) = match bytes.byte() & 1 {
        0 => (shape.rows(), shape.cols()),
        _ => (shape.cols(), shape.rows()),
    };
    let mut labels: Vec<Vec<Option<i64>>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Some(((r / rows) * (n / cols) + c / cols) as i64))
                .collect()
        })
        .collect();
    for _ in 0..bytes.below(4) {
        let (a, b) = (bytes.below(n * n), bytes.below(n * n));
        let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
        let t = labels[ra][ca];
        labels[ra][ca] = labels[rb][cb];
        labels[rb][cb] = t;
    }
    if bytes.byte() == 0xff {
        labels.pop();
    }
    labels
}

/// A spec of every constraint kind from fuzz bytes, for a grid of side `n`.
fn fuzz_spec(bytes: &mut Bytes<'_>, shape: BoxShape) -> Spec {
    let flags = u16::from_le_bytes([bytes.byte(), bytes.byte()]);
    let on = |bit: u16| flags & (1 << bit) != 0;
    let mut spec = Spec {
        diagonals: on(0),
        main_diagonal: on(1),
        anti_diagonal: on(2),
        windows: on(3),
        anti_knight: on(4),
        anti_king: on(5),
        non_consecutive: on(6),
        disjoint_groups: on(7),
        negative_xv: on(8),
        negative_ratio: on(9),
        ..Spec::default()
    };
    if on(10) {
        spec.regions = Some(fuzz_regions(bytes, shape));
        if bytes.below(8) == 0 {
            // A cell in no region (f-puzzles' `region: null`).
            let at = bytes.below(shape.cell_count());
            if let Some(row) = spec
                .regions
                .as_mut()
                .and_then(|r| r.get_mut(at / shape.size()))
            {
                row[at % shape.size()] = None;
            }
        }
    }
    let count = bytes.below(8);
    for _ in 0..count {
        match bytes.below(28) {
            0 => spec.extra_regions.push(bytes.cells(6)),
            1 | 2 => {
                let total = bytes.value();
                spec.cages.push(Cage {
                    total: (total != 0).then_some(total),
                    cells: bytes.cells(5),
                });
            }
            3 => spec.little_killers.push(LittleKiller {
                total: bytes.value(),
                clue: bytes.outside(),
                direction: Direction::ALL[bytes.below(4)],
            }),
            4 => spec.thermometers.push(bytes.cells(5)),
            5 => spec.arrows.push(Arrow {
                circle: bytes.cells(2),
                shaft: bytes.cells(4),
            }),
            6 => {
                let mut pair = bytes.pair();
                pair.value = [10, 5, pair.value][bytes.below(3)];
                spec.xv.push(pair);
            }
            7 => {
                let mut pair = bytes.pair();
                pair.value = pair
                    .value
                    .min(if bytes.byte() & 1 == 0 { 1 } else { u32::MAX });
                spec.differences.push(pair);
            }
            8 => {
                let mut pair = bytes.pair();
                pair.value = pair
                    .value
                    .min(if bytes.byte() & 1 == 0 { 2 } else { u32::MAX });
                spec.ratios.push(pair);
            }
            9 => spec.sandwiches.push(bytes.line_clue()),
            10 => {
                let difference = bytes.byte();
                spec.whispers.push(Whisper {
                    cells: bytes.cells(5),
                    difference: (difference < 0x80).then_some(u32::from(difference % 20)),
                });
            }
            11 => spec.renbans.push(bytes.cells(5)),
            12 => spec.palindromes.push(bytes.cells(5)),
            13 => spec.between_lines.push(bytes.cells(5)),
            14 => spec.odd_cells.push(bytes.cell()),
            15 => spec.even_cells.push(bytes.cell()),
            16 => spec.minimum_cells.push(bytes.cell()),
            17 => spec.maximum_cells.push(bytes.cell()),
            18 => spec.quadruples.push(Quadruple {
                corner: bytes.cell(),
                digits: bytes.digits(),
            }),
            19 => {
                let cells = bytes.cells(4);
                let clone_cells = if bytes.byte() & 1 == 0 {
                    let (dr, dc) = (bytes.below(4), bytes.below(4));
                    let moved = |c: &Cell| Cell {
                        row: c.row + dr,
                        col: c.col + dc,
                    };
                    cells.iter().map(moved).collect()
                } else {
                    bytes.cells(4)
                };
                spec.clones.push(ClonePair { cells, clone_cells });
            }
            20 => spec.x_sums.push(bytes.line_clue()),
            21 => spec.skyscrapers.push(bytes.line_clue()),
            22 => spec.pencil_marks.push(PencilMark {
                cell: bytes.cell(),
                digits: bytes.digits(),
            }),
            // The kinds the engine solves come up more often, so searches run, not refusals.
            23 => spec.extra_regions.push(bytes.cells(4)),
            24 => {
                let kind = LineKind::ALL[bytes.below(LineKind::ALL.len())];
                spec.lines[kind as usize].push(bytes.cells(6));
            }
            25 => {
                let kind = IndexerKind::ALL[bytes.below(IndexerKind::ALL.len())];
                spec.indexers[kind as usize].push(bytes.cell());
            }
            _ => {
                let total = bytes.value();
                spec.cages.push(Cage {
                    total: Some(total % 40),
                    cells: bytes.cells(3),
                });
            }
        }
    }
    spec
}

/// The guess budget of the `rules` target's searches, by grid (4x4, 6x6, 9x9, 16x16). Each guess
/// of the variant engine propagates every rule over the whole grid, so with [`FUZZ_GUESSES`] a
/// near-empty 9x9 or 16x16 grid cost the fuzzer many times what the model and the checks
/// around it do. The small grids, which a few guesses solve, keep the whole budget and so
/// reach solutions and their checks; the large ones still propagate every rule at the root and
/// branch a little, then stop.
pub const RULES_GUESSES: [u64; 4] = [FUZZ_GUESSES, FUZZ_GUESSES, 8, 2];

/// Target `rules`: the first byte picks the grid (4x4, 6x6, 9x9 or 16x16), the next ones a spec
/// of any constraint kinds (cells just off the grid, odd values and all), the rest a few
/// clues. [`Rules::new`] and every later step refuse with an error, never a panic; under rules
/// that fit, a clue [`conflicting_cells`] flags is a conflict [`find_conflict`] names, a grid
/// with a conflict has no solution, and a solution found keeps the clues, fills the grid and
/// breaks no rule.
pub fn rules(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let size = usize::from(first & 3);
    let (rows, cols) = [(2, 2), (2, 3), (3, 3), (4, 4)][size];
    let shape = BoxShape::new(rows, cols).expect("a valid box");
    let n = shape.size();
    let mut bytes = Bytes { data: rest, n };
    let spec = fuzz_spec(&mut bytes, shape);
    let rules = match Rules::new(spec) {
        Ok(rules) => rules,
        Err(err) => {
            assert!(matches!(err, Error::Rules(_)), "{err:?}");
            assert!(!err.to_string().is_empty());
            return;
        }
    };
    let mut cells = vec![0u8; n * n];
    for _ in 0..bytes.below(2 * n) {
        let i = bytes.below(n * n);
        cells[i] = bytes.below(n + 1) as u8;
    }
    let layout = match Layout::new(shape, &rules) {
        Ok(layout) => layout,
        Err(err) => {
            assert!(rules.check_shape(shape).is_err(), "{err}");
            assert!(Solver::with_rules(shape, Arc::new(rules)).is_err());
            return;
        }
    };
    let conflict = find_conflict(shape, &rules, &cells);
    let flagged = conflicting_cells(&layout, &rules, &cells);
    assert_eq!(flagged.len(), n * n);
    if flagged.iter().any(|&f| f) {
        assert!(conflict.is_some(), "a flagged clue is a conflict");
    }
    let rules = Arc::new(rules);
    let mut solver = match Solver::with_rules(shape, rules.clone()) {
        Ok(solver) => solver,
        Err(err) => {
            assert!(matches!(err, Error::Rules(_)), "{err:?}");
            assert!(!err.to_string().is_empty());
            return;
        }
    };
    solver.set_max_guesses(Some(RULES_GUESSES[size]));
    let grid = Grid::new(shape, cells).expect("clues of 0..=n");
    match solver.solve(&grid, &mut Unbounded) {
        Ok(solution) => {
            assert_eq!(conflict, None, "a grid with a conflict was solved");
            let solved = solution.cells();
            assert!(solved.iter().all(|&v| v != 0), "the solution is full");
            assert!(
                grid.cells()
                    .iter()
                    .zip(solved)
                    .all(|(&c, &s)| c == 0 || c == s),
                "the solution keeps the clues"
            );
            assert_eq!(find_conflict(shape, &rules, solved), None);
            assert!(!conflicting_cells(&layout, &rules, solved).contains(&true));
            let counted = solver.count(grid.cells(), Some(2), &mut Unbounded);
            assert!(out_of_guesses(&counted) || matches!(counted, Ok(1 | 2)));
        }
        Err(Error::NoSolution | Error::GuessLimit { .. }) => {}
        Err(err) => assert!(conflict.is_some(), "solve gave {err:?} without a conflict"),
    }
}

/// Searches the pencil-mark puzzle `marks` over `grid` as every entry point does: the marks
/// checked against the grid ([`marks::restrict`]), then solved, counted and listed under the
/// fuzz budget, on the solver for the shape and (for 9x9) the generic engine too. Every
/// solution keeps the grid's givens and every cell's marks, and the three calls and the two
/// engines agree.
fn search_marks_consistently(grid: &Grid, marks: &[u64]) {
    let Ok(allowed) = marks::restrict(grid, marks) else {
        return;
    };
    let n = grid.size();
    let cells = grid.cells();
    let keeps = |s: &Grid| {
        grid.is_solved_by(s)
            && s.cells()
                .iter()
                .zip(marks)
                .zip(cells)
                .all(|((&v, &m), &given)| given != 0 || m >> (v - 1) & 1 == 1)
    };
    let mut counts = Vec::new();
    let mut engines = vec![Solver::new(grid.shape())];
    if n == 9 {
        engines.push(Solver::generic(grid.shape()));
    }
    for solver in &mut engines {
        solver.set_max_guesses(Some(FUZZ_GUESSES));
        let mut out = vec![0; n * n];
        let solved = solver.solve_into_marked(cells, Some(&allowed), &mut out, &mut Unbounded);
        let counted = solver.count_marked(cells, Some(&allowed), Some(2), &mut Unbounded);
        let listed = solver.solutions_marked(grid, Some(&allowed), 2, &mut Unbounded);
        if grid.check().is_err() {
            assert!(
                solved.is_err() && counted.is_err(),
                "a conflict is an error"
            );
            return;
        }
        match solved {
            Ok(true) => {
                let solution = Grid::new(grid.shape(), out).expect("a solution is a grid");
                assert!(keeps(&solution), "the solution keeps the marks");
                assert!(out_of_guesses(&counted) || matches!(counted, Ok(1 | 2)));
                if let Ok(list) = &listed {
                    assert_eq!(
                        list.first(),
                        Some(&solution),
                        "solutions start with solve's"
                    );
                    assert!(list.iter().all(keeps));
                    assert_eq!(Ok(list.len() as u64), counted, "count and solutions agree");
                }
            }
            Ok(false) => {
                assert!(out_of_guesses(&counted) || counted == Ok(0));
                assert!(out_of_guesses(&listed) || listed.as_ref().is_ok_and(Vec::is_empty));
            }
            Err(Error::GuessLimit { .. }) => {}
            Err(other) => panic!("well-formed marks gave {other:?}"),
        }
        counts.push(counted);
    }
    if let [Ok(a), Ok(b)] = counts.as_slice() {
        assert_eq!(a, b, "the 9x9 and generic engines agree");
    }
}

/// Target `marks`: pencil-mark puzzles. A first byte below 128 picks the box and the rest is
/// text, read as the grid reader reads it ([`text::parse_with_marks`]): a sukaku (a marks
/// string, or a bordered grid of candidate lists) must come back as marks that write out in
/// both forms and read back the same, anything else as [`text::parse`] reads it. A first byte from 128 up picks a side (4, 6 or 9) and the rest are the marks
/// themselves, two bytes a cell, over a blank grid.
pub fn marks(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if first >= 128 {
        let (n, shape) = [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))][usize::from(first % 3)];
        let shape = BoxShape::new(shape.0, shape.1).expect("a box");
        let full = (1u64 << n) - 1;
        let mut masks: Vec<u64> = rest
            .chunks(2)
            .map(|pair| (u64::from(pair[0]) | u64::from(*pair.get(1).unwrap_or(&0)) << 8) & full)
            .take(n * n)
            .collect();
        masks.resize(n * n, full);
        let blank = Grid::new(shape, vec![0; n * n]).expect("a blank grid");
        search_marks_consistently(&blank, &masks);
        return;
    }
    let requested = box_from(first);
    let text = String::from_utf8_lossy(rest);
    match text::parse_with_marks(&text, requested) {
        Ok((grid, None)) => assert_eq!(text::parse(&text, requested), Ok(grid)),
        Ok((grid, Some(masks))) => {
            let n = grid.size();
            assert_eq!(grid.clue_count(), 0, "a sukaku has no givens");
            assert_eq!(masks.len(), n * n);
            let err = text::parse(&text, requested).expect_err("marks are no grid");
            assert!(err.to_string().contains("sukaku"), "{err}");
            let written = marks::format_marks(n, &masks).expect("a side that text can write");
            let again = text::parse_with_marks(&written, requested);
            assert_eq!(again, Ok((grid.clone(), Some(masks.clone()))), "round trip");
            let drawn = marks::format_bordered(grid.shape(), &masks).expect("a side text writes");
            if masks.iter().all(|&m| m != 0) && marks::is_bordered(&drawn) {
                let again = text::parse_with_marks(
                    &drawn,
                    Some((grid.shape().rows(), grid.shape().cols())),
                );
                assert_eq!(
                    again,
                    Ok((grid.clone(), Some(masks.clone()))),
                    "bordered round trip"
                );
            }
            search_marks_consistently(&grid, &masks);
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
            assert_eq!(text::parse(&text, requested).err(), Some(err));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Runs `body` over every file of `fuzz/corpus/<target>` (the saved corpus, minimized) and
    /// `fuzz/regressions/<target>` (inputs that break a check when its fix is missing), so CI
    /// replays what the long fuzz runs found without building cargo-fuzz.
    fn replay(target: &str, body: fn(&[u8])) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
        let mut seen = 0;
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                body(&std::fs::read(&path).unwrap());
                seen += 1;
            }
        }
        assert!(seen > 0, "no saved inputs for {target}");
    }

    #[test]
    fn replay_text_search() {
        replay("text_search", super::text_search);
    }

    #[test]
    fn replay_grid_bytes() {
        replay("grid_bytes", super::grid_bytes);
    }

    #[test]
    fn replay_answer() {
        replay("answer", super::answer);
    }

    #[test]
    fn replay_marks() {
        replay("marks", super::marks);
    }

    #[test]
    fn replay_lines() {
        replay("lines", super::lines);
    }

    #[test]
    fn replay_lz() {
        replay("lz", super::lz);
    }

    #[test]
    fn replay_fpuzzles() {
        replay("fpuzzles", super::fpuzzles);
    }

    #[test]
    fn replay_links() {
        replay("links", super::links);
    }

    #[test]
    fn replay_rules() {
        replay("rules", super::rules);
    }
}
