//! SudokuPad's own payloads (`scl...`, `ctc...`, what Sudoku-Bench's `encoded_puzzle` holds):
//! LZ-string base64 of SudokuPad's JSON, usually "zipped" (bare keys, single quotes, short
//! property names, `t`/`f` for booleans, elided empty objects).
//!
//! SudokuPad's elements are drawings: a line is a thermometer, a renban, a whispers line or a
//! decoration only as the rules text says. What carries meaning by itself maps onto the model:
//! the givens, the regions, the killer cages (a cage with its sum), and the title, author,
//! rules and solution SudokuPad keeps as metadata; fog of war, which only hides cells, is kept.
//! Lines, arrows, overlays and underlays are refused, naming how many there are.

use crate::core::error::{Cell, Error, Result};
use crate::core::grid::shape::suggest_box;
use crate::core::rules::{Cage, Rules, Spec};

use super::json::{self, Json, MAX_DEPTH};
use super::{lz, Puzzle};

/// SudokuPad's short property names and the names they stand for.
const PROPS: [(&str, &str); 24] = [
    ("c", "color"),
    ("ca", "cages"),
    ("ct", "center"),
    ("c1", "borderColor"),
    ("c2", "backgroundColor"),
    ("ce", "cells"),
    ("cs", "cellSize"),
    ("a", "arrows"),
    ("o", "overlays"),
    ("u", "underlays"),
    ("w", "width"),
    ("h", "height"),
    ("v", "value"),
    ("vd", "videos"),
    ("l", "lines"),
    ("r", "rounded"),
    ("re", "regions"),
    ("fs", "fontSize"),
    ("th", "thickness"),
    ("hl", "headLength"),
    ("wp", "wayPoints"),
    ("t", "title"),
    ("te", "text"),
    ("d", "duration"),
];

fn link(msg: String) -> Error {
    Error::Link(msg)
}

/// Reads an `scl`/`ctc` payload (the part after the prefix).
pub fn from_payload(payload: &str) -> Result<Puzzle> {
    let units = lz::decompress_base64(payload)?;
    let text = String::from_utf16_lossy(&units);
    from_text(&text)
}

/// Reads SudokuPad JSON, zipped or not.
pub fn from_text(text: &str) -> Result<Puzzle> {
    let data = match json::parse(text) {
        Ok(data) => data,
        Err(_) => unzip(text)?,
    };
    from_json(&data)
}

/// Parses SudokuPad's zipped JSON and gives the long property names back.
pub fn unzip(text: &str) -> Result<Json> {
    let mut p = Lenient {
        chars: text.chars().collect(),
        at: 0,
    };
    p.space();
    let value = p.value(0, false)?;
    p.space();
    if p.at < p.chars.len() {
        return Err(p.error("more text after the end of the puzzle"));
    }
    Ok(long_names(value))
}

fn long_names(value: Json) -> Json {
    match value {
        Json::Array(items) => Json::Array(items.into_iter().map(long_names).collect()),
        Json::Object(items) => Json::Object(
            items
                .into_iter()
                .map(|(k, v)| {
                    let key = PROPS
                        .iter()
                        .find(|(short, _)| *short == k)
                        .map_or(k, |(_, long)| (*long).to_string());
                    (key, long_names(v))
                })
                .collect(),
        ),
        other => other,
    }
}

struct Lenient {
    chars: Vec<char>,
    at: usize,
}

impl Lenient {
    fn error(&self, what: &str) -> Error {
        link(format!(
            "the SudokuPad puzzle data is malformed at character {}: {what}",
            self.at
        ))
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn token(&mut self) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '#' | '.' | '-' | '+')
        }) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn value(&mut self, depth: usize, after_colon: bool) -> Result<Json> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("nested more than {MAX_DEPTH} deep")));
        }
        self.space();
        match self.peek() {
            None => Err(self.error("the text ends where a value should be")),
            Some('{') => {
                self.at += 1;
                let mut items: Vec<(String, Json)> = Vec::new();
                loop {
                    self.space();
                    match self.peek() {
                        Some('}') => {
                            self.at += 1;
                            return Ok(Json::Object(items));
                        }
                        Some(',') if !items.is_empty() => {
                            self.at += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let key = match self.peek() {
                        Some(q @ ('"' | '\'')) => self.string(q)?,
                        _ => self.token(),
                    };
                    if key.is_empty() {
                        return Err(self.error("expected a key"));
                    }
                    self.space();
                    if self.peek() != Some(':') {
                        return Err(self.error("expected ':' after a key"));
                    }
                    self.at += 1;
                    let value = self.value(depth + 1, true)?;
                    match items.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = value,
                        None => items.push((key, value)),
                    }
                    self.space();
                    match self.peek() {
                        Some(',') => self.at += 1,
                        Some('}') => {}
                        _ => return Err(self.error("expected ',' or '}' in an object")),
                    }
                }
            }
            Some('[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.peek() == Some(']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    self.space();
                    // An elided element is an empty object.
                    if matches!(self.peek(), Some(',' | ']')) {
                        items.push(Json::Object(Vec::new()));
                    } else {
                        items.push(self.value(depth + 1, false)?);
                    }
                    self.space();
                    match self.peek() {
                        Some(',') => {
                            self.at += 1;
                            self.space();
                            if self.peek() == Some(']') {
                                self.at += 1;
                                items.push(Json::Object(Vec::new()));
                                return Ok(Json::Array(items));
                            }
                        }
                        Some(']') => {
                            self.at += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return Err(self.error("expected ',' or ']' in a list")),
                    }
                }
            }
            Some(q @ ('"' | '\'')) => Ok(Json::String(self.string(q)?)),
            Some(_) => {
                let token = self.token();
                if token.is_empty() {
                    return Err(self.error("unexpected character"));
                }
                Ok(match token.as_str() {
                    "true" => Json::Bool(true),
                    "false" => Json::Bool(false),
                    "null" => Json::Null,
                    "t" if after_colon => Json::Bool(true),
                    "f" if after_colon => Json::Bool(false),
                    "#0" => Json::String("#000000".into()),
                    "#F" => Json::String("#FFFFFF".into()),
                    t if after_colon
                        && t.len() == 6
                        && t.bytes().all(|b| b.is_ascii_hexdigit()) =>
                    {
                        Json::String(format!("#{t}"))
                    }
                    t => match t.parse::<f64>() {
                        Ok(x) if x.is_finite() => Json::Number(x),
                        _ => return Err(self.error(&format!("{t:?} is not a value"))),
                    },
                })
            }
        }
    }

    fn string(&mut self, quote: char) -> Result<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("a string is not closed")),
                Some(c) if c == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                Some('\\') => {
                    self.at += 1;
                    let Some(e) = self.peek() else {
                        return Err(self.error("a string is not closed"));
                    };
                    self.at += 1;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' => {
                            let hex: String = self.chars.iter().skip(self.at).take(4).collect();
                            let unit = u16::from_str_radix(&hex, 16)
                                .ok()
                                .filter(|_| hex.len() == 4)
                                .ok_or_else(|| self.error("a bad \\u escape"))?;
                            self.at += 4;
                            out.push_str(&String::from_utf16_lossy(&[unit]));
                        }
                        other => out.push(other),
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }
}

/// A cell as SudokuPad writes it: `[row, col]` from 0, or `"r1c1"` from 1.
fn cell_of(json: &Json, n: usize, what: &str) -> Result<Cell> {
    let (r, c) = match json {
        Json::Array(rc) => match rc.as_slice() {
            [Json::Number(r), Json::Number(c)] if r.fract() == 0.0 && c.fract() == 0.0 => {
                (*r as i64, *c as i64)
            }
            _ => return Err(link(format!("{what}: {} is not a cell", json.write()))),
        },
        Json::String(s) => {
            let lower = s.to_ascii_lowercase();
            let parsed = lower
                .strip_prefix('r')
                .and_then(|rest| rest.split_once('c'))
                .and_then(|(r, c)| Some((r.parse::<i64>().ok()? - 1, c.parse::<i64>().ok()? - 1)));
            parsed.ok_or_else(|| link(format!("{what}: {s:?} is not a cell")))?
        }
        other => return Err(link(format!("{what}: {} is not a cell", other.write()))),
    };
    if r < 0 || c < 0 || r >= n as i64 || c >= n as i64 {
        return Err(Error::Rules(format!(
            "{what} names cell ({r}, {c}), outside the {n}x{n} grid"
        )));
    }
    Ok(Cell {
        row: r as usize,
        col: c as usize,
    })
}

fn digit_of(json: Option<&Json>) -> Option<i64> {
    match json? {
        Json::Number(x) if x.fract() == 0.0 => Some(*x as i64),
        Json::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// SudokuPad JSON (long names) to a puzzle.
pub fn from_json(data: &Json) -> Result<Puzzle> {
    let Json::Object(items) = data else {
        return Err(link(format!(
            "SudokuPad puzzle data is an object; this is {}",
            data.kind()
        )));
    };
    let rows = data
        .get("cells")
        .and_then(Json::as_array)
        .ok_or_else(|| link("the SudokuPad puzzle has no cells".into()))?;
    let n = rows.len();
    if !(4..=super::fpuzzles::MAX_SIZE).contains(&n) || suggest_box(n).is_none() {
        return Err(link(format!(
            "the SudokuPad puzzle is {n} rows; sudoku_rs reads square grids whose side is \
             rows x cols of a box, up to {}",
            super::fpuzzles::MAX_SIZE
        )));
    }
    let mut givens = vec![0u8; n * n];
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .filter(|c| c.len() == n)
            .ok_or_else(|| link(format!("row {r} of the SudokuPad puzzle is not {n} cells")))?;
        for (c, cell) in cells.iter().enumerate() {
            if let Some(v) = digit_of(cell.get("value")) {
                if !(1..=n as i64).contains(&v) {
                    return Err(link(format!(
                        "cell ({r}, {c}) holds {v}, but a {n}x{n} grid holds 1 to {n}"
                    )));
                }
                givens[r * n + c] = v as u8;
            }
        }
    }
    let mut spec = Spec::default();
    let mut puzzle_meta: [Option<String>; 3] = [None, None, None];
    let mut solution: Option<Vec<u8>> = None;
    // The cells fog of war lights at the start; `Some` when the puzzle has fog.
    let mut fog: Option<Vec<Cell>> = None;
    let mut kept: Vec<(String, Json)> = Vec::new();
    let mut meta = |key: &str, value: &str| -> bool {
        let value = value.trim().to_string();
        match key.to_ascii_lowercase().as_str() {
            "title" => puzzle_meta[0] = Some(value),
            "author" => puzzle_meta[1] = Some(value),
            "rules" => puzzle_meta[2] = Some(value),
            "solution" => {
                let digits: Vec<u8> = value
                    .chars()
                    .map(|ch| ch.to_digit(36).map_or(0, |d| d as u8))
                    .collect();
                if digits.len() == n * n && digits.iter().all(|&d| usize::from(d) <= n) {
                    solution = Some(digits);
                }
            }
            _ => return false,
        }
        true
    };
    for (key, value) in items {
        match key.as_str() {
            "cells" | "id" | "cellSize" | "settings" => {}
            "metadata" => {
                if let Json::Object(fields) = value {
                    for (k, v) in fields {
                        match (k.as_str(), v) {
                            ("antiknight", v) => spec.anti_knight |= !v.is_blank(),
                            ("antiking", v) => spec.anti_king |= !v.is_blank(),
                            (_, Json::String(text)) => {
                                meta(k, text);
                            }
                            (_, Json::Bool(true)) => {
                                return Err(Error::Rules(format!(
                                    "the SudokuPad metadata turns on '{k}', which sudoku_rs \
                                     does not model; the puzzle is refused rather than solved \
                                     without it"
                                )))
                            }
                            _ => {}
                        }
                    }
                }
            }
            "global" => {
                for rule in value.as_array().unwrap_or(&[]) {
                    match rule.as_str().unwrap_or("") {
                        "antiknight" => spec.anti_knight = true,
                        "antiking" => spec.anti_king = true,
                        "nonconsecutive" => spec.non_consecutive = true,
                        "disjoint" => spec.disjoint_groups = true,
                        "antixv" => spec.negative_xv = true,
                        "antiratio" => spec.negative_ratio = true,
                        other => {
                            return Err(Error::Rules(format!(
                                "the SudokuPad rule '{other}' (in 'global') is not modelled by \
                                 sudoku_rs; the puzzle is refused rather than solved without it"
                            )))
                        }
                    }
                }
            }
            // Fog of war only decides what a player sees until they earn it; the constraints
            // under it are in the data like any other, so the solutions are those without fog.
            // It is kept (as f-puzzles' `fogofwar`, the cells lit at the start), not refused.
            "foglight" => {
                let cells = match value {
                    Json::Null => &[][..],
                    Json::Array(cells) => cells,
                    other => {
                        return Err(link(format!(
                            "the SudokuPad foglight is {}, not a list of cells",
                            other.kind()
                        )))
                    }
                };
                let lit = fog.get_or_insert_with(Vec::new);
                for cell in cells {
                    lit.push(cell_of(cell, n, "the SudokuPad foglight")?);
                }
            }
            "triggereffect" => {
                check_fog_triggers(value)?;
                if !value.is_blank() {
                    kept.push((key.clone(), value.clone()));
                }
            }
            "regions" => {
                let regions = value
                    .as_array()
                    .ok_or_else(|| link("the SudokuPad regions are not a list".into()))?;
                let mut labels = vec![vec![-1i64; n]; n];
                for (i, region) in regions.iter().enumerate() {
                    let cells = region
                        .as_array()
                        .ok_or_else(|| link(format!("SudokuPad region {i} is not a list")))?;
                    for cell in cells {
                        let cell = cell_of(cell, n, &format!("region {i}"))?;
                        labels[cell.row][cell.col] = i as i64;
                    }
                }
                // A cell no region lists is in none: rows and columns still hold.
                spec.regions = Some(
                    labels
                        .into_iter()
                        .map(|row| row.into_iter().map(|l| (l >= 0).then_some(l)).collect())
                        .collect(),
                );
            }
            "cages" => {
                for (i, cage) in value.as_array().unwrap_or(&[]).iter().enumerate() {
                    let cells = cage.get("cells").and_then(Json::as_array).unwrap_or(&[]);
                    let text = cage.get("value").map(|v| match v {
                        Json::String(s) => s.clone(),
                        other => other.write(),
                    });
                    if cells.is_empty() {
                        if let Some((k, v)) = text.as_deref().and_then(|t| t.split_once(':')) {
                            if meta(k, v) {
                                continue;
                            }
                        }
                        continue;
                    }
                    let what = format!("SudokuPad cage {i}");
                    // A cage labelled FOGLIGHT (or `foglight: cells`) lights its cells at the
                    // start: fog, kept like the foglight key.
                    if text.as_deref().is_some_and(|t| {
                        let t = t.trim().to_ascii_lowercase();
                        t == "foglight" || t.starts_with("foglight:")
                    }) {
                        let lit = fog.get_or_insert_with(Vec::new);
                        for cell in cells {
                            lit.push(cell_of(cell, n, &what)?);
                        }
                        continue;
                    }
                    // The disjoint groups, drawn as cages: the rule itself.
                    if cage.get("type").and_then(Json::as_str) == Some("disjoint") {
                        spec.disjoint_groups = true;
                        continue;
                    }
                    let style = cage.get("style").and_then(Json::as_str).unwrap_or("");
                    if let Some(from) = cage
                        .get("fromConstraint")
                        .and_then(Json::as_str)
                        .or_else(|| style.strip_prefix("fp"))
                    {
                        return Err(Error::Rules(format!(
                            "{what} is drawn for the f-puzzles constraint '{from}', which \
                             sudoku_rs does not model; the puzzle is refused rather than solved \
                             without it"
                        )));
                    }
                    let cells = cells
                        .iter()
                        .map(|c| cell_of(c, n, &what))
                        .collect::<Result<Vec<_>>>()?;
                    let unique = cage.get("unique").is_some_and(|u| !u.is_blank());
                    let label = text.as_deref().map_or("", str::trim);
                    let total =
                        match digit_of(cage.get("sum")) {
                            Some(sum) => Some(u32::try_from(sum).map_err(|_| {
                                Error::Rules(format!("{what} has sum {sum}, below 0"))
                            })?),
                            None if label.is_empty() => None,
                            None => Some(label.parse::<u32>().map_err(|_| {
                                Error::Rules(format!(
                                "{what} is labelled {label:?}, not a sum: its meaning is in the \
                                 rules text, which sudoku_rs does not read"
                            ))
                            })?),
                        };
                    // A cage with neither a sum nor distinct digits is a drawing.
                    if total.is_none() && !unique {
                        continue;
                    }
                    spec.cages.push(Cage { total, cells });
                }
            }
            k @ ("lines" | "arrows" | "overlays" | "underlays") => {
                let count = value.as_array().map_or(0, <[Json]>::len);
                if count > 0 {
                    return Err(Error::Rules(format!(
                        "the SudokuPad puzzle has {count} {k}: SudokuPad draws them, and what \
                         they mean (a thermometer, a renban, a dot, a decoration) is only in the \
                         rules text, so sudoku_rs refuses the puzzle rather than guess; an \
                         f-puzzles link of it keeps the meaning"
                    )));
                }
            }
            _ if value.is_blank() => {}
            k => {
                return Err(Error::Rules(format!(
                    "the SudokuPad element '{k}' is not modelled by sudoku_rs; the puzzle is \
                     refused rather than solved without it"
                )))
            }
        }
    }
    // Regions that are the boxes are classic.
    if let (Some(labels), Some((br, bc))) = (&spec.regions, suggest_box(n)) {
        let boxes = (0..n).all(|r| {
            (0..n).all(|c| {
                let here = labels[r][c];
                let first = labels[(r / br) * br][(c / bc) * bc];
                here == first
            })
        });
        if boxes {
            spec.regions = None;
        }
    }
    let [title, author, rules_text] = puzzle_meta;
    let mut puzzle = Puzzle::new(n, givens, Rules::new(spec)?)?;
    puzzle.title = title;
    puzzle.author = author;
    puzzle.rules_text = rules_text;
    puzzle.solution = solution;
    if let Some(mut lit) = fog {
        lit.sort_by_key(|c| (c.row, c.col));
        lit.dedup();
        let names = lit
            .iter()
            .map(|c| Json::String(format!("R{}C{}", c.row + 1, c.col + 1)))
            .collect();
        puzzle.kept.push(("fogofwar".into(), Json::Array(names)));
    }
    puzzle.kept.extend(kept);
    Ok(puzzle)
}

/// SudokuPad's `triggereffect` entries: a cell's value lighting other cells through fog of war,
/// the only effect SudokuPad has. Any other effect may change the rules, so it is refused.
pub(super) fn check_fog_triggers(value: &Json) -> Result<()> {
    if value.is_blank() {
        return Ok(());
    }
    let entries = value.as_array().ok_or_else(|| {
        link(format!(
            "the triggereffect element is {}, not a list",
            value.kind()
        ))
    })?;
    for (i, entry) in entries.iter().enumerate() {
        let effect = entry
            .get("effect")
            .and_then(|e| e.get("type"))
            .and_then(Json::as_str);
        if effect != Some("foglight") {
            return Err(Error::Rules(format!(
                "triggereffect {i} is {}: only fog-of-war lights ('foglight') are known to \
                 leave the rules as they are, so the puzzle is refused rather than solved without \
                 it",
                effect.map_or_else(|| entry.write(), |e| format!("a '{e}' effect"))
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipped_json_reads() {
        let zipped = "{id:'x',ce:[[{v:1},,{},{}],[,,,],[,,,],[,,,{v:'4'}]],re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],ca:[{ce:[[0,0],[0,1]],v:3,c:FF0000},{v:'title: Tiny \\'one\\''},{v:'author: Me'}],l:[]}";
        let puzzle = from_text(zipped).unwrap();
        assert_eq!(puzzle.size, 4);
        assert_eq!(puzzle.givens[0], 1);
        assert_eq!(puzzle.givens[15], 4);
        assert_eq!(puzzle.title.as_deref(), Some("Tiny 'one'"));
        assert_eq!(puzzle.author.as_deref(), Some("Me"));
        assert!(puzzle.rules.regions().is_none());
        assert_eq!(puzzle.rules.cages().len(), 1);
        let lines = zipped.replace("l:[]", "l:[{wp:[[0.5,0.5],[1.5,1.5]]}]");
        let err = from_text(&lines).unwrap_err().to_string();
        assert!(err.contains("1 lines"), "{err}");
    }

    const FOGGY: &str = "{ce:[[{v:1},,{},{}],[,,,],[,,,],[,,,{v:'4'}]],foglight:[[1,2],[0,0],[1,2]],\
        ca:[{ce:[[3,3]],v:'FOGLIGHT'},{ce:[[0,0],[0,1]],v:3}],\
        triggereffect:[{trigger:{type:'cellvalue',cell:'r1c1'},effect:{type:'foglight',cells:['r2c2']}}]}";

    #[test]
    fn fog_of_war_is_kept_as_fpuzzles_fog() {
        let puzzle = from_text(FOGGY).unwrap();
        assert_eq!(puzzle.givens[0], 1);
        // The FOGLIGHT cage is a light, not a killer cage.
        assert_eq!(puzzle.rules.cages().len(), 1);
        let fog = puzzle.kept.iter().find(|(k, _)| k == "fogofwar").unwrap();
        assert_eq!(fog.1.write(), r#"["R1C1","R2C3","R4C4"]"#);
        assert!(puzzle.kept.iter().any(|(k, _)| k == "triggereffect"));
        // Written as f-puzzles data and read back, it is the same puzzle.
        let again = super::super::fpuzzles::from_json(&super::super::fpuzzles::to_json(&puzzle));
        assert_eq!(again.unwrap(), puzzle);
        // Fog with no cell lit at the start is still fog.
        let dark = from_text("{ce:[[,,,],[,,,],[,,,],[,,,]],foglight:[]}").unwrap();
        assert_eq!(dark.kept, vec![("fogofwar".into(), Json::Array(vec![]))]);
    }

    #[test]
    fn fog_that_is_not_fog_is_refused() {
        for (text, says) in [
            (
                FOGGY.replace("type:'foglight',cells", "type:'setvalue',cells"),
                "'setvalue'",
            ),
            (
                FOGGY.replace("effect:{type:'foglight',cells:['r2c2']}", "x:1"),
                "triggereffect 0",
            ),
            (
                FOGGY.replace("foglight:[[1,2],", "foglight:[[1,9],"),
                "outside the 4x4",
            ),
            (
                FOGGY.replace("foglight:[[1,2],[0,0],[1,2]]", "foglight:7"),
                "not a list",
            ),
        ] {
            let err = from_text(&text).unwrap_err().to_string();
            assert!(err.contains(says), "{says}: {err}");
        }
    }
}
