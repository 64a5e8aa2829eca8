//! f-puzzles JSON and the [`Rules`] model, both ways.
//!
//! Every key is either modelled (it becomes part of the rules), kept (it has no rule meaning:
//! metadata, cosmetics, solver options), or refused with an error naming the key and its
//! cells: a constraint dropped silently would give wrong answers.

use crate::core::error::{Cell, Error, Result};
use crate::core::grid::shape::suggest_box;
use crate::core::rules::IndexerKind;
use crate::core::rules::{
    Arrow, Cage, ClonePair, Direction, LineClue, LineKind, LittleKiller, Outside, Pair, PencilMark,
    Quadruple, Rules, Spec, Whisper, NO_REGION, V_SUM, X_SUM,
};

use super::json::Json;
use super::Puzzle;

/// f-puzzles' largest grid.
pub const MAX_SIZE: usize = 16;

/// Keys without rule meaning, kept and written back as they came (`fogofwar`, the cells fog of
/// war lights at the start, only changes what a player sees).
const KEPT: [&str; 7] = [
    "fogofwar",
    "metadata",
    "highlightConflicts",
    "successMessage",
    "disabledlogic",
    "truecandidatesoptions",
    "solution",
];

/// Cosmetic elements: kept, except the copies f-puzzles writes of constraints for SudokuPad
/// (tagged `fromConstraint`), which are made again on export.
const COSMETIC: [&str; 5] = ["text", "line", "rectangle", "circle", "cage"];

fn link(msg: String) -> Error {
    Error::Link(msg)
}

fn rules_error(msg: String) -> Error {
    Error::Rules(msg)
}

/// `R3C5` (counted from 1, any case) as (row, col) counted from 1.
fn cell_name(text: &str) -> Option<(i64, i64)> {
    let upper = text.trim().to_ascii_uppercase();
    let rest = upper.strip_prefix('R')?;
    let (r, c) = rest.split_once('C')?;
    let (r, c) = (r.parse::<i64>().ok()?, c.parse::<i64>().ok()?);
    (r.abs() < 1000 && c.abs() < 1000).then_some((r, c))
}

/// The name f-puzzles gives a cell or an outside place (row, col counted from 0).
fn name_of(row: i64, col: i64) -> String {
    format!("R{}C{}", row + 1, col + 1)
}

struct Reader {
    n: usize,
}

impl Reader {
    fn cell(&self, json: &Json, what: &str) -> Result<Cell> {
        let text = json.as_str().ok_or_else(|| {
            link(format!(
                "{what}: a cell is written \"R1C1\", got {}",
                json.kind()
            ))
        })?;
        let (r, c) = cell_name(text)
            .ok_or_else(|| link(format!("{what}: {text:?} is not a cell (\"R1C1\")")))?;
        let n = self.n as i64;
        if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
            return Err(rules_error(format!(
                "{what} names cell {text}, outside the {n}x{n} grid"
            )));
        }
        Ok(Cell {
            row: (r - 1) as usize,
            col: (c - 1) as usize,
        })
    }

    fn cells(&self, json: Option<&Json>, what: &str) -> Result<Vec<Cell>> {
        let Some(json) = json else {
            return Err(link(format!("{what} has no cells")));
        };
        let items = json
            .as_array()
            .ok_or_else(|| link(format!("{what}: cells are a list, got {}", json.kind())))?;
        items.iter().map(|c| self.cell(c, what)).collect()
    }

    /// A place just outside the grid (row or column 0 or n+1 in f-puzzles' counting).
    fn outside(&self, json: Option<&Json>, what: &str) -> Result<Outside> {
        let text = json
            .and_then(Json::as_str)
            .ok_or_else(|| link(format!("{what} has no clue cell")))?;
        let (r, c) = cell_name(text)
            .ok_or_else(|| link(format!("{what}: {text:?} is not a cell (\"R0C1\")")))?;
        let n = self.n as i64;
        let inside = (1..=n).contains(&r) && (1..=n).contains(&c);
        if inside || !(0..=n + 1).contains(&r) || !(0..=n + 1).contains(&c) {
            return Err(rules_error(format!(
                "{what} stands at {text}, which is not just outside the {n}x{n} grid"
            )));
        }
        Ok(Outside {
            row: (r - 1) as i32,
            col: (c - 1) as i32,
        })
    }

    /// Each line of `lines` (a list of lists of cells).
    fn lines(&self, entry: &Json, what: &str) -> Result<Vec<Vec<Cell>>> {
        let Some(lines) = entry.get("lines") else {
            return Err(link(format!("{what} has no lines")));
        };
        let lines = lines
            .as_array()
            .ok_or_else(|| link(format!("{what}: lines are a list, got {}", lines.kind())))?;
        lines.iter().map(|l| self.cells(Some(l), what)).collect()
    }
}

/// A whole number written as a number or a numeric string; `None` for blank.
fn number(json: Option<&Json>, what: &str) -> Result<Option<i64>> {
    match json {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Json::String(s)) => s.trim().parse::<i64>().map(Some).map_err(|_| {
            rules_error(format!(
                "{what} has value {s:?}, which is not a whole number"
            ))
        }),
        Some(Json::Number(x)) if x.fract() == 0.0 && x.abs() < 1e12 => Ok(Some(*x as i64)),
        Some(other) => Err(rules_error(format!(
            "{what} has value {}, which is not a whole number",
            other.write()
        ))),
    }
}

fn non_negative(value: i64, what: &str) -> Result<u32> {
    u32::try_from(value).map_err(|_| rules_error(format!("{what} has value {value}, below 0")))
}

fn is_true(json: &Json) -> bool {
    !json.is_blank()
}

fn entries<'a>(json: &'a Json, key: &str) -> Result<&'a [Json]> {
    json.as_array().ok_or_else(|| {
        link(format!(
            "the f-puzzles key '{key}' holds {}, where a list of entries belongs",
            json.kind()
        ))
    })
}

/// Every cell name found anywhere in `json`, for the message refusing a key.
fn named_cells(json: &Json, out: &mut Vec<String>) {
    match json {
        Json::String(s) if cell_name(s).is_some() && !out.contains(s) => out.push(s.clone()),
        Json::Array(items) => items.iter().for_each(|i| named_cells(i, out)),
        Json::Object(items) => items.iter().for_each(|(_, v)| named_cells(v, out)),
        _ => {}
    }
}

fn refuse(key: &str, value: &Json) -> Error {
    let mut cells = Vec::new();
    named_cells(value, &mut cells);
    let count = value.as_array().map_or(1, <[Json]>::len);
    let shown: Vec<&str> = cells.iter().take(12).map(String::as_str).collect();
    let more = if cells.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    let place = if cells.is_empty() {
        String::new()
    } else {
        format!(" on cells {}{more}", shown.join(", "))
    };
    rules_error(format!(
        "the f-puzzles constraint '{key}' ({count} {}{place}) is not modelled by sudoku_rs; \
         the puzzle is refused rather than solved without it",
        if count == 1 { "entry" } else { "entries" }
    ))
}

/// The box index f-puzzles gives a cell when no region is written.
fn default_region(n: usize, (rows, cols): (usize, usize), row: usize, col: usize) -> i64 {
    ((row / rows) * (n / cols) + col / cols) as i64
}

/// The four windows of windoku, as extra regions, in f-puzzles' order.
fn windows() -> Vec<Vec<Cell>> {
    [(1, 1), (1, 5), (5, 1), (5, 5)]
        .iter()
        .map(|&(r0, c0)| {
            (0..9)
                .map(|i| Cell {
                    row: r0 + i / 3,
                    col: c0 + i % 3,
                })
                .collect()
        })
        .collect()
}

fn digits_of(json: Option<&Json>, n: usize, what: &str) -> Result<Vec<u8>> {
    let Some(json) = json.filter(|j| !j.is_blank()) else {
        return Ok(Vec::new());
    };
    let items = json
        .as_array()
        .ok_or_else(|| link(format!("{what} is {}, not a list of digits", json.kind())))?;
    items
        .iter()
        .map(|d| {
            let v = number(Some(d), what)?.unwrap_or(0);
            if !(1..=n as i64).contains(&v) {
                return Err(rules_error(format!(
                    "{what} lists {v}, but a {n}x{n} grid holds 1 to {n}"
                )));
            }
            Ok(v as u8)
        })
        .collect()
}

/// Reads f-puzzles JSON (already parsed).
pub fn from_json(data: &Json) -> Result<Puzzle> {
    let Json::Object(items) = data else {
        return Err(link(format!(
            "f-puzzles data is a JSON object; this is {}",
            data.kind()
        )));
    };
    let size = number(data.get("size"), "the size")
        .map_err(|_| link("the f-puzzles 'size' is not a whole number".into()))?
        .ok_or_else(|| link("the f-puzzles data has no 'size'".into()))?;
    if !(3..=MAX_SIZE as i64).contains(&size) {
        return Err(link(format!(
            "the f-puzzles size is {size}; f-puzzles grids are 3 to {MAX_SIZE}"
        )));
    }
    let n = size as usize;
    // A prime side has no boxes: f-puzzles' default regions are then the rows.
    let boxes = suggest_box(n).unwrap_or((1, n));
    let reader = Reader { n };
    let mut spec = Spec::default();
    let mut givens = vec![0u8; n * n];
    let mut labels: Vec<Vec<Option<i64>>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Some(default_region(n, boxes, r, c)))
                .collect()
        })
        .collect();
    let mut jigsaw = false;

    // The grid: givens, regions, given pencil marks, old links' per-cell parity and extremes.
    let grid = data
        .get("grid")
        .ok_or_else(|| link("the f-puzzles data has no 'grid'".into()))?;
    let rows = grid.as_array().ok_or_else(|| {
        link(format!(
            "the f-puzzles 'grid' is {}, not a list",
            grid.kind()
        ))
    })?;
    if rows.len() != n {
        return Err(link(format!(
            "the f-puzzles grid has {} rows, but its size is {n}",
            rows.len()
        )));
    }
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .filter(|cells| cells.len() == n)
            .ok_or_else(|| link(format!("row {r} of the f-puzzles grid is not {n} cells")))?;
        for (c, cell) in cells.iter().enumerate() {
            let here = Cell { row: r, col: c };
            if matches!(cell, Json::Null) {
                continue;
            }
            if !matches!(cell, Json::Object(_)) {
                return Err(link(format!(
                    "cell {here} of the f-puzzles grid is {}, not an object",
                    cell.kind()
                )));
            }
            let given = cell.get("given").is_some_and(is_true);
            if given {
                let what = format!("the given at cell {here}");
                let v = number(cell.get("value"), &what)
                    .map_err(|_| link(format!("{what} is not a digit")))?
                    .unwrap_or(0);
                if !(0..=n as i64).contains(&v) {
                    return Err(Error::Value {
                        cell: here,
                        found: v.to_string(),
                        expected: format!("1..{n}"),
                    });
                }
                givens[r * n + c] = v as u8;
            }
            match cell.get("region") {
                None => {}
                Some(Json::Null) => {
                    jigsaw = true;
                    labels[r][c] = None;
                }
                Some(region) => {
                    let id =
                        number(Some(region), &format!("the region of cell {here}"))?.unwrap_or(-1);
                    if !(0..n as i64).contains(&id) {
                        return Err(rules_error(format!(
                            "cell {here} is in region {id}, but a {n}x{n} grid has regions 0 \
                             to {}",
                            n - 1
                        )));
                    }
                    if Some(id) != labels[r][c] {
                        jigsaw = true;
                    }
                    labels[r][c] = Some(id);
                }
            }
            let marks = digits_of(
                cell.get("givenPencilMarks"),
                n,
                &format!("the given pencil marks of cell {here}"),
            )?;
            if !marks.is_empty() {
                spec.pencil_marks.push(PencilMark {
                    cell: here,
                    digits: marks,
                });
            }
            if let Some(parity) = cell.get("parity").filter(|p| !p.is_blank()) {
                match parity.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("odd" | "o") => spec.odd_cells.push(here),
                    Some("even" | "e") => spec.even_cells.push(here),
                    _ => {
                        return Err(rules_error(format!(
                            "cell {here} has parity {}; odd or even is meant",
                            parity.write()
                        )))
                    }
                }
            }
            if let Some(extreme) = cell.get("extreme").filter(|p| !p.is_blank()) {
                match extreme.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("minimum" | "min") => spec.minimum_cells.push(here),
                    Some("maximum" | "max") => spec.maximum_cells.push(here),
                    _ => {
                        return Err(rules_error(format!(
                            "cell {here} has extreme {}; minimum or maximum is meant",
                            extreme.write()
                        )))
                    }
                }
            }
        }
    }
    if jigsaw {
        spec.regions = Some(labels);
    }

    let mut puzzle_kept: Vec<(String, Json)> = Vec::new();
    let mut title = None;
    let mut author = None;
    let mut rules_text = None;
    let mut solution = None;
    for (key, value) in items {
        let key = key.as_str();
        let what = |i: usize| format!("{key} {i}");
        match key {
            "size" | "grid" => {}
            "title" | "author" | "ruleset" => {
                let text = match value {
                    Json::Null => None,
                    Json::String(s) => Some(s.clone()),
                    other => {
                        return Err(link(format!(
                            "the f-puzzles '{key}' is {}, not text",
                            other.kind()
                        )))
                    }
                };
                match key {
                    "title" => title = text,
                    "author" => author = text,
                    _ => rules_text = text,
                }
            }
            "solution" => {
                solution = read_solution(value, n)?;
            }
            k if KEPT.contains(&k) => puzzle_kept.push((key.to_string(), value.clone())),
            // SudokuPad's fog-of-war lights, kept when a SudokuPad puzzle is written as
            // f-puzzles data.
            "triggereffect" => {
                super::sudokupad::check_fog_triggers(value)?;
                puzzle_kept.push((key.to_string(), value.clone()));
            }
            k if COSMETIC.contains(&k) => {
                // Fog of war (cosmetic cages labelled FOW or FOGLIGHT) only hides cells from a
                // player until they are earned: it leaves the solutions as they are, so it is
                // kept like any other cosmetic, not refused.
                let own: Vec<Json> = entries(value, key)?
                    .iter()
                    // Older extensions tagged their copies `isNewConstraint`.
                    .filter(|e| {
                        e.get("fromConstraint").is_none() && e.get("isNewConstraint").is_none()
                    })
                    .cloned()
                    .collect();
                if !own.is_empty() {
                    puzzle_kept.push((key.to_string(), Json::Array(own)));
                }
            }
            "diagonal+" => spec.anti_diagonal |= is_true(value),
            "diagonal-" => spec.main_diagonal |= is_true(value),
            "antiknight" => spec.anti_knight |= is_true(value),
            "antiking" => spec.anti_king |= is_true(value),
            "nonconsecutive" => spec.non_consecutive |= is_true(value),
            "disjointgroups" => spec.disjoint_groups |= is_true(value),
            "negative" => {
                if value.is_blank() {
                    continue;
                }
                for kind in entries(value, key)? {
                    match kind.as_str() {
                        Some("xv") => spec.negative_xv = true,
                        Some("ratio") => spec.negative_ratio = true,
                        _ => {
                            return Err(rules_error(format!(
                                "the f-puzzles 'negative' lists {}; sudoku_rs models \"xv\" \
                                 and \"ratio\"",
                                kind.write()
                            )))
                        }
                    }
                }
            }
            "killercage" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let total = number(e.get("value"), &what(i))?
                        .map(|v| non_negative(v, &what(i)))
                        .transpose()?;
                    spec.cages.push(Cage {
                        total,
                        cells: reader.cells(e.get("cells"), &what(i))?,
                    });
                }
            }
            "extraregion" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    spec.extra_regions
                        .push(reader.cells(e.get("cells"), &what(i))?);
                }
            }
            "littlekillersum" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    // A clue without a total says nothing.
                    let Some(total) = number(e.get("value"), &what(i))? else {
                        continue;
                    };
                    let code = e.get("direction").and_then(Json::as_str).unwrap_or("");
                    let direction = Direction::from_code(code).ok_or_else(|| {
                        rules_error(format!(
                            "{} has direction {code:?}; UR, UL, DR or DL is meant",
                            what(i)
                        ))
                    })?;
                    spec.little_killers.push(LittleKiller {
                        total: non_negative(total, &what(i))?,
                        clue: reader.outside(e.get("cell"), &what(i))?,
                        direction,
                    });
                }
            }
            "thermometer" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    spec.thermometers.extend(reader.lines(e, &what(i))?);
                }
            }
            "arrow" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let circle = reader.cells(e.get("cells"), &what(i))?;
                    for line in reader.lines(e, &what(i))? {
                        spec.arrows.push(Arrow {
                            circle: circle.clone(),
                            shaft: line.into_iter().skip(1).collect(),
                        });
                    }
                }
            }
            "xv" | "difference" | "ratio" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let cells = reader.cells(e.get("cells"), &what(i))?;
                    let [a, b] = cells[..] else {
                        return Err(rules_error(format!(
                            "{} joins {} cells; it joins two",
                            what(i),
                            cells.len()
                        )));
                    };
                    let raw = e.get("value");
                    let value = match key {
                        "xv" => match raw.and_then(Json::as_str).map(str::to_ascii_uppercase) {
                            Some(ref s) if s == "X" => X_SUM,
                            Some(ref s) if s == "V" => V_SUM,
                            _ => {
                                return Err(rules_error(format!(
                                    "{} is {}; an XV mark is \"X\" or \"V\"",
                                    what(i),
                                    raw.map_or("missing".into(), Json::write)
                                )))
                            }
                        },
                        "difference" => {
                            non_negative(number(raw, &what(i))?.unwrap_or(1), &what(i))?
                        }
                        _ => non_negative(number(raw, &what(i))?.unwrap_or(2), &what(i))?,
                    };
                    let pair = Pair {
                        cells: [a, b],
                        value,
                    };
                    match key {
                        "xv" => spec.xv.push(pair),
                        "difference" => spec.differences.push(pair),
                        _ => spec.ratios.push(pair),
                    }
                }
            }
            "sandwichsum" | "xsum" | "skyscraper" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let Some(v) = number(e.get("value"), &what(i))? else {
                        continue;
                    };
                    let clue = LineClue {
                        value: non_negative(v, &what(i))?,
                        clue: reader.outside(e.get("cell"), &what(i))?,
                    };
                    match key {
                        "sandwichsum" => spec.sandwiches.push(clue),
                        "xsum" => spec.x_sums.push(clue),
                        _ => spec.skyscrapers.push(clue),
                    }
                }
            }
            "whispers" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let difference = number(e.get("value"), &what(i))?
                        .map(|v| non_negative(v, &what(i)))
                        .transpose()?;
                    for cells in reader.lines(e, &what(i))? {
                        spec.whispers.push(Whisper { cells, difference });
                    }
                }
            }
            "renban" | "palindrome" | "betweenline" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let lines = reader.lines(e, &what(i))?;
                    match key {
                        "renban" => spec.renbans.extend(lines),
                        "palindrome" => spec.palindromes.extend(lines),
                        _ => spec.between_lines.extend(lines),
                    }
                }
            }
            k if LineKind::ALL.iter().any(|l| l.fpuzzles_key() == k) => {
                let kind = LineKind::ALL
                    .into_iter()
                    .find(|l| l.fpuzzles_key() == k)
                    .expect("matched above");
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    // A lockout line's ends differ by half the side, rounded down; a link
                    // asking for another difference is not the rule modelled.
                    let least = i64::from(LineKind::lockout_difference(n));
                    if kind == LineKind::Lockout {
                        if let Some(v) = number(e.get("value"), &what(i))?.filter(|&v| v != least) {
                            return Err(rules_error(format!(
                                "{} has difference {v}; sudoku_rs models lockout lines whose                                  ends differ by at least {least} on a {n}x{n} grid (half the                                  side, rounded down)",
                                what(i)
                            )));
                        }
                    }
                    spec.lines[kind as usize].extend(reader.lines(e, &what(i))?);
                }
            }
            k if IndexerKind::ALL.iter().any(|x| x.fpuzzles_key() == k) => {
                let kind = IndexerKind::ALL
                    .into_iter()
                    .find(|x| x.fpuzzles_key() == k)
                    .expect("matched above");
                let cells = &mut spec.indexers[kind as usize];
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    for cell in reader.cells(e.get("cells"), &what(i))? {
                        // Entries may mark a cell twice; it indexes once.
                        if !cells.contains(&cell) {
                            cells.push(cell);
                        }
                    }
                }
            }
            "odd" | "even" | "minimum" | "maximum" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let cell = reader.cell(e.get("cell").unwrap_or(&Json::Null), &what(i))?;
                    match key {
                        "odd" => spec.odd_cells.push(cell),
                        "even" => spec.even_cells.push(cell),
                        "minimum" => spec.minimum_cells.push(cell),
                        _ => spec.maximum_cells.push(cell),
                    }
                }
            }
            "quadruple" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    let cells = reader.cells(e.get("cells"), &what(i))?;
                    let corner = Cell {
                        row: cells.iter().map(|c| c.row).min().unwrap_or(0),
                        col: cells.iter().map(|c| c.col).min().unwrap_or(0),
                    };
                    let quad = Quadruple {
                        corner,
                        digits: digits_of(e.get("values"), n, &what(i))?,
                    };
                    let mut expected = quad.cells().to_vec();
                    let mut got = cells.clone();
                    expected.sort_by_key(|c| (c.row, c.col));
                    got.sort_by_key(|c| (c.row, c.col));
                    if got != expected {
                        return Err(rules_error(format!(
                            "{} is on cells that are not a 2x2 square",
                            what(i)
                        )));
                    }
                    spec.quadruples.push(quad);
                }
            }
            "clone" => {
                for (i, e) in entries(value, key)?.iter().enumerate() {
                    spec.clones.push(ClonePair {
                        cells: reader.cells(e.get("cells"), &what(i))?,
                        clone_cells: reader.cells(e.get("cloneCells"), &what(i))?,
                    });
                }
            }
            _ if value.is_blank() => {}
            _ => return Err(refuse(key, value)),
        }
    }
    if n == 9 && spec.extra_regions.len() >= 4 {
        let w = windows();
        if spec.extra_regions[..4] == w[..] {
            spec.extra_regions.drain(..4);
            spec.windows = true;
        }
    }
    let rules = Rules::new(spec)?;
    let mut puzzle = Puzzle {
        size: n,
        givens,
        rules,
        title,
        author,
        rules_text,
        solution,
        kept: puzzle_kept,
    };
    puzzle.check()?;
    puzzle.kept.retain(|(k, _)| k != "solution");
    Ok(puzzle)
}

/// The stated solution: `n*n` digits (`"."`, `0` or null where open), or none.
fn read_solution(value: &Json, n: usize) -> Result<Option<Vec<u8>>> {
    let cells: Vec<u8> = match value {
        Json::Null => return Ok(None),
        Json::Array(items) if items.is_empty() => return Ok(None),
        Json::Array(items) => items
            .iter()
            .map(|v| match v {
                Json::String(s) if s == "." || s.is_empty() => Ok(0),
                other => Ok(number(Some(other), "the solution")?
                    .unwrap_or(0)
                    .clamp(0, 255) as u8),
            })
            .collect::<Result<_>>()?,
        Json::String(s) if s.is_empty() => return Ok(None),
        Json::String(s) => s
            .chars()
            .map(|ch| ch.to_digit(36).map_or(0, |d| d as u8))
            .collect(),
        other => {
            return Err(link(format!(
                "the stated solution is {}, not a list of digits",
                other.kind()
            )))
        }
    };
    if cells.len() != n * n || cells.iter().any(|&v| usize::from(v) > n) {
        return Err(link(format!(
            "the stated solution has {} entries, or digits past {n}: it is not a {n}x{n} grid",
            cells.len()
        )));
    }
    Ok(Some(cells))
}

/// The name the f-puzzles extensions tag their drawings of a line kind with, and its colour.
fn extension_look(kind: LineKind) -> (&'static str, &'static str) {
    match kind {
        LineKind::Zipper => ("Zipper Line", "#CDB1EC"),
        LineKind::RegionSum => ("Region Sum Line", "#2ECBFF"),
        LineKind::Entropic => ("Entropic Line", "#FFCCAA"),
        LineKind::Modular => ("Modular Line", "#33BBBB"),
        LineKind::SlowThermo => ("Slow Thermometer", "#6495ED"),
        LineKind::DoubleArrow => ("Double Arrow", "#C54B8B"),
        LineKind::Lockout => ("Lockout", "#006CBA"),
        LineKind::Nabner => ("Nabner", "#C9C883"),
    }
}

fn s(text: &str) -> Json {
    Json::String(text.to_string())
}

fn num(v: impl Into<f64>) -> Json {
    Json::Number(v.into())
}

fn cell_json(c: Cell) -> Json {
    s(&name_of(c.row as i64, c.col as i64))
}

fn cells_json(cells: &[Cell]) -> Json {
    Json::Array(cells.iter().copied().map(cell_json).collect())
}

fn obj(items: Vec<(&str, Json)>) -> Json {
    Json::Object(items.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn outside_json(o: Outside) -> Json {
    s(&name_of(i64::from(o.row), i64::from(o.col)))
}

/// The puzzle as f-puzzles JSON: what [`from_json`] reads back into the same puzzle.
pub fn to_json(puzzle: &Puzzle) -> Json {
    let n = puzzle.size;
    let rules = &puzzle.rules;
    let boxes = suggest_box(n).unwrap_or((1, n));
    let mut out: Vec<(String, Json)> = vec![("size".into(), num(n as f64))];
    for (key, value) in [
        ("title", &puzzle.title),
        ("author", &puzzle.author),
        ("ruleset", &puzzle.rules_text),
    ] {
        if let Some(text) = value {
            out.push((key.into(), s(text)));
        }
    }
    let marks = |row: usize, col: usize| {
        rules
            .pencil_marks()
            .iter()
            .find(|m| m.cell == Cell { row, col })
            .map(|m| Json::Array(m.digits.iter().map(|&d| num(d)).collect()))
    };
    let grid: Vec<Json> = (0..n)
        .map(|r| {
            Json::Array(
                (0..n)
                    .map(|c| {
                        let mut cell: Vec<(&str, Json)> = Vec::new();
                        let v = puzzle.givens[r * n + c];
                        if v != 0 {
                            cell.push(("value", num(v)));
                            cell.push(("given", Json::Bool(true)));
                        }
                        if let Some(ids) = rules.regions() {
                            let id = ids[r * n + c];
                            if id == NO_REGION {
                                cell.push(("region", Json::Null));
                            } else if i64::from(id) != default_region(n, boxes, r, c) {
                                cell.push(("region", num(id)));
                            }
                        }
                        if let Some(m) = marks(r, c) {
                            cell.push(("givenPencilMarks", m));
                        }
                        obj(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    out.push(("grid".into(), Json::Array(grid)));
    let mut put = |key: &str, value: Json| out.push((key.to_string(), value));
    for (key, on) in [
        ("diagonal+", rules.anti_diagonal()),
        ("diagonal-", rules.main_diagonal()),
        ("antiknight", rules.anti_knight()),
        ("antiking", rules.anti_king()),
        ("disjointgroups", rules.disjoint_groups()),
        ("nonconsecutive", rules.non_consecutive()),
    ] {
        if on {
            put(key, Json::Bool(true));
        }
    }
    let mut negative = Vec::new();
    if rules.negative_xv() {
        negative.push(s("xv"));
    }
    if rules.negative_ratio() {
        negative.push(s("ratio"));
    }
    if !negative.is_empty() {
        put("negative", Json::Array(negative));
    }
    let list = |items: Vec<Json>| Json::Array(items);
    let mut extra: Vec<Json> = Vec::new();
    if rules.windows() {
        extra.extend(
            windows()
                .iter()
                .map(|w| obj(vec![("cells", cells_json(w))])),
        );
    }
    extra.extend(
        rules
            .extra_regions()
            .iter()
            .map(|r| obj(vec![("cells", cells_json(r))])),
    );
    if !extra.is_empty() {
        put("extraregion", list(extra));
    }
    if !rules.cages().is_empty() {
        put(
            "killercage",
            list(
                rules
                    .cages()
                    .iter()
                    .map(|c| {
                        let mut e = vec![("cells", cells_json(&c.cells))];
                        if let Some(t) = c.total {
                            e.push(("value", s(&t.to_string())));
                        }
                        obj(e)
                    })
                    .collect(),
            ),
        );
    }
    if !rules.little_killers().is_empty() {
        put(
            "littlekillersum",
            list(
                rules
                    .little_killers()
                    .iter()
                    .map(|k| {
                        obj(vec![
                            ("cell", outside_json(k.clue)),
                            ("cells", cells_json(&k.cells(n))),
                            ("direction", s(k.direction.code())),
                            ("value", s(&k.total.to_string())),
                        ])
                    })
                    .collect(),
            ),
        );
    }
    let lines_entry = |line: &[Cell]| obj(vec![("lines", list(vec![cells_json(line)]))]);
    if !rules.thermometers().is_empty() {
        put(
            "thermometer",
            list(
                rules
                    .thermometers()
                    .iter()
                    .map(|l| lines_entry(l))
                    .collect(),
            ),
        );
    }
    if !rules.arrows().is_empty() {
        put(
            "arrow",
            list(
                rules
                    .arrows()
                    .iter()
                    .map(|a| {
                        // A line starts in the circle cell next to the shaft's first cell.
                        let start = a
                            .shaft
                            .first()
                            .and_then(|t| {
                                a.circle.iter().copied().find(|c| {
                                    c.row.abs_diff(t.row) <= 1 && c.col.abs_diff(t.col) <= 1
                                })
                            })
                            .unwrap_or(a.circle[0]);
                        let mut line = vec![start];
                        line.extend(&a.shaft);
                        obj(vec![
                            ("cells", cells_json(&a.circle)),
                            ("lines", list(vec![cells_json(&line)])),
                        ])
                    })
                    .collect(),
            ),
        );
    }
    let pair_entries = |pairs: &[Pair], value: &dyn Fn(u32) -> Option<Json>| {
        list(
            pairs
                .iter()
                .map(|p| {
                    let mut e = vec![("cells", cells_json(&p.cells))];
                    if let Some(v) = value(p.value) {
                        e.push(("value", v));
                    }
                    obj(e)
                })
                .collect(),
        )
    };
    if !rules.xv().is_empty() {
        put(
            "xv",
            pair_entries(rules.xv(), &|v| Some(s(if v == X_SUM { "X" } else { "V" }))),
        );
    }
    if !rules.differences().is_empty() {
        put(
            "difference",
            pair_entries(rules.differences(), &|v| {
                (v != 1).then(|| s(&v.to_string()))
            }),
        );
    }
    if !rules.ratios().is_empty() {
        put(
            "ratio",
            pair_entries(rules.ratios(), &|v| (v != 2).then(|| s(&v.to_string()))),
        );
    }
    let clue_entries = |clues: &[LineClue]| {
        list(
            clues
                .iter()
                .map(|c| {
                    obj(vec![
                        ("cell", outside_json(c.clue)),
                        ("value", s(&c.value.to_string())),
                    ])
                })
                .collect(),
        )
    };
    if !rules.sandwiches().is_empty() {
        put("sandwichsum", clue_entries(rules.sandwiches()));
    }
    if !rules.whispers().is_empty() {
        put(
            "whispers",
            list(
                rules
                    .whispers()
                    .iter()
                    .map(|w| {
                        let mut e = vec![("lines", list(vec![cells_json(&w.cells)]))];
                        if let Some(d) = w.difference {
                            e.push(("value", s(&d.to_string())));
                        }
                        obj(e)
                    })
                    .collect(),
            ),
        );
    }
    for (key, lines) in [
        ("renban", rules.renbans()),
        ("palindrome", rules.palindromes()),
        ("betweenline", rules.between_lines()),
    ] {
        if !lines.is_empty() {
            put(key, list(lines.iter().map(|l| lines_entry(l)).collect()));
        }
    }
    for kind in LineKind::ALL {
        let lines = rules.lines(kind);
        if !lines.is_empty() {
            put(
                kind.fpuzzles_key(),
                list(lines.iter().map(|l| lines_entry(l)).collect()),
            );
        }
    }
    for kind in IndexerKind::ALL {
        let cells = rules.indexers(kind);
        if !cells.is_empty() {
            put(
                kind.fpuzzles_key(),
                list(vec![obj(vec![("cells", cells_json(cells))])]),
            );
        }
    }
    for (key, cells) in [
        ("odd", rules.odd_cells()),
        ("even", rules.even_cells()),
        ("minimum", rules.minimum_cells()),
        ("maximum", rules.maximum_cells()),
    ] {
        if !cells.is_empty() {
            put(
                key,
                list(
                    cells
                        .iter()
                        .map(|&c| obj(vec![("cell", cell_json(c))]))
                        .collect(),
                ),
            );
        }
    }
    if !rules.quadruples().is_empty() {
        put(
            "quadruple",
            list(
                rules
                    .quadruples()
                    .iter()
                    .map(|q| {
                        obj(vec![
                            ("cells", cells_json(&q.cells())),
                            ("values", list(q.digits.iter().map(|&d| num(d)).collect())),
                        ])
                    })
                    .collect(),
            ),
        );
    }
    if !rules.clones().is_empty() {
        put(
            "clone",
            list(
                rules
                    .clones()
                    .iter()
                    .map(|c| {
                        obj(vec![
                            ("cells", cells_json(&c.cells)),
                            ("cloneCells", cells_json(&c.clone_cells)),
                        ])
                    })
                    .collect(),
            ),
        );
    }
    if !rules.x_sums().is_empty() {
        put("xsum", clue_entries(rules.x_sums()));
    }
    if !rules.skyscrapers().is_empty() {
        put("skyscraper", clue_entries(rules.skyscrapers()));
    }
    // Kept keys as they came; the cosmetic lists get the copies SudokuPad draws of the
    // constraints f-puzzles itself does not know (the extension's renban and whispers lines,
    // X-sum and skyscraper clues), tagged so a reader drops them again.
    let mut kept = puzzle.kept.clone();
    let mut copies: Vec<(&str, Json)> = Vec::new();
    for (lines, colour, name) in [
        (rules.renbans().to_vec(), "#F067F0", "Renban"),
        (
            rules.whispers().iter().map(|w| w.cells.clone()).collect(),
            "#67F067",
            "Whispers",
        ),
    ] {
        for line in lines {
            copies.push((
                "line",
                obj(vec![
                    ("lines", list(vec![cells_json(&line)])),
                    ("outlineC", s(colour)),
                    ("width", num(0.4)),
                    ("fromConstraint", s(name)),
                ]),
            ));
        }
    }
    // The line kinds f-puzzles knows only through its extensions, drawn as the extensions
    // draw them: a coloured line, with circles on a double arrow's ends and a slow
    // thermometer's bulb.
    for kind in LineKind::ALL {
        let (name, colour) = extension_look(kind);
        for line in rules.lines(kind) {
            copies.push((
                "line",
                obj(vec![
                    ("lines", list(vec![cells_json(line)])),
                    ("outlineC", s(colour)),
                    ("width", num(0.25)),
                    ("fromConstraint", s(name)),
                ]),
            ));
            let ends: &[Cell] = match kind {
                LineKind::DoubleArrow => &[line[0], line[line.len() - 1]],
                LineKind::SlowThermo => &line[..1],
                _ => &[],
            };
            for &end in ends {
                copies.push((
                    "circle",
                    obj(vec![
                        ("cells", list(vec![cell_json(end)])),
                        ("baseC", s("#FFFFFF")),
                        ("outlineC", s(colour)),
                        ("width", num(0.85)),
                        ("height", num(0.85)),
                        ("fromConstraint", s(name)),
                    ]),
                ));
            }
        }
    }
    for (kind, name, colour) in [
        (IndexerKind::Row, "Row Indexer", "#7CC77C"),
        (IndexerKind::Column, "Column Indexer", "#C77C7C"),
        (IndexerKind::Box, "Box Indexer", "#7C7CC7"),
    ] {
        let cells = rules.indexers(kind);
        if !cells.is_empty() {
            copies.push((
                "cage",
                obj(vec![
                    ("cells", cells_json(cells)),
                    ("outlineC", s(colour)),
                    ("fontC", s("#000000")),
                    ("fromConstraint", s(name)),
                ]),
            ));
        }
    }
    for (clues, name) in [
        (rules.x_sums(), "X-Sum"),
        (rules.skyscrapers(), "Skyscraper"),
    ] {
        for clue in clues {
            copies.push((
                "text",
                obj(vec![
                    ("cells", list(vec![outside_json(clue.clue)])),
                    ("value", s(&clue.value.to_string())),
                    ("fontC", s("#000000")),
                    ("size", num(0.7)),
                    ("fromConstraint", s(name)),
                ]),
            ));
        }
    }
    for (key, entry) in copies {
        match kept.iter_mut().find(|(k, _)| k == key) {
            Some((_, Json::Array(items))) => items.push(entry),
            _ => kept.push((key.to_string(), list(vec![entry]))),
        }
    }
    out.extend(kept);
    if let Some(solution) = &puzzle.solution {
        out.push((
            "solution".into(),
            list(
                solution
                    .iter()
                    .map(|&v| if v == 0 { s(".") } else { num(v) })
                    .collect(),
            ),
        ));
    }
    Json::Object(out)
}
