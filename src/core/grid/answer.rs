//! Reading a language model's reply to a puzzle: a grid (with or without `|`, `-`, `+`
//! separators, or on one line) or a list of moves (`r3c6: 5`, `R3C6=5`), found inside the last
//! `<answer>` block or code fence when there is one. Every pass is linear in the reply's length,
//! so a long reply of noise is refused as fast as it is read.

use std::fmt;

use crate::core::error::{Error, Result};
use crate::core::grid::shape::{BoxShape, MAX_SIZE};

/// One placement read from a reply: `row` and `col` from 0, `digit` from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub row: u8,
    pub col: u8,
    pub digit: u8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}={}", self.row + 1, self.col + 1, self.digit)
    }
}

/// What a reply holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `n*n` row-major cells, 0 = blank.
    Grid(Vec<u8>),
    /// Placements in the order the reply gives them.
    Moves(Vec<Move>),
}

fn unreadable(message: String) -> Error {
    Error::Answer(message)
}

/// Reads the reply `text` to a puzzle of side `n` (any size a box shape exists for).
///
/// The text read is the content of the last `<answer>…</answer>` block (tags in any case; an
/// unclosed last block runs to the end), else the whole reply; within it, the last code fence's
/// content is tried first. A grid is a run of lines holding only cells, whitespace and
/// separators (`| - + , ; : = [ ] ( ) { } * # ' "` and box-drawing characters) with exactly
/// `n*n` cells; the last such run wins. Cells are the digits and `0`/`.` for a blank, one
/// character each up to 9x9; on bigger grids, numbers (`0` blank) apart from each other, or
/// `.`. Up to 9x9 a run of `n*n` cell characters anywhere (the one-line form) is a grid too.
/// Without a grid, moves `r<row>c<col>` followed by `:`, `=`, `->` or spaces and a digit
/// (rows, columns and digits from 1, any case) are read, in order.
pub fn parse_answer(text: &str, n: usize) -> Result<Reply> {
    check_size(n)?;
    if text.trim().is_empty() {
        return Err(unreadable("the reply is empty".into()));
    }
    let region = match answer_block(text) {
        Some(block) if block.trim().is_empty() => {
            return Err(unreadable("the last <answer> block is empty".into()))
        }
        Some(block) => block,
        None => text,
    };
    if let Some(fenced) = last_fence(region) {
        if let Ok(reply) = read_region(fenced, n) {
            return Ok(reply);
        }
    }
    read_region(region, n)
}

/// `n` is the side of some grid: one of its box shapes is valid.
pub fn check_size(n: usize) -> Result<()> {
    let fits = (1..=n.min(MAX_SIZE)).any(|r| n % r == 0 && BoxShape::new(r, n / r).is_ok());
    if fits {
        return Ok(());
    }
    Err(Error::Shape(format!(
        "no grid has side {n}: size is the side of a grid with boxes, 4, 6, 9, 16, ... up to \
         {MAX_SIZE}"
    )))
}

/// ASCII-case-insensitive: the last start of `needle` in `hay` at or after `from`.
fn rfind_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if hay.len() < needle.len() {
        return None;
    }
    (0..=hay.len() - needle.len())
        .rev()
        .find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if hay.len() < needle.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// The content of the last `<answer>` block, if the text has one.
fn answer_block(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let open = rfind_ci(bytes, b"<answer>")?;
    let start = open + b"<answer>".len();
    let end = find_ci(&bytes[start..], b"</answer>").map_or(bytes.len(), |k| start + k);
    // Both ends sit next to ASCII tags (or the text's end): char boundaries.
    Some(&text[start..end])
}

/// The content of the last code fence (```), its info string (`text`, `python`) left out; an
/// unclosed last fence runs to the end.
fn last_fence(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut marks = Vec::new();
    let mut i = 0;
    while i + 3 <= bytes.len() {
        if &bytes[i..i + 3] == b"```" {
            marks.push(i);
            i += 3;
        } else {
            i += 1;
        }
    }
    if marks.is_empty() {
        return None;
    }
    // Fences pair up in order: the last opening one is the last at an even position.
    let last_open = (marks.len() - 1) & !1;
    let mut start = marks[last_open] + 3;
    let end = marks.get(last_open + 1).copied().unwrap_or(bytes.len());
    let line_end = bytes[start..end]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(end, |k| start + k);
    let info = &bytes[start..line_end];
    if info.iter().any(u8::is_ascii_alphabetic)
        && info
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"_+-. \t\r".contains(b))
    {
        start = line_end;
    }
    Some(&text[start..end])
}

/// A grid if the region has one, else moves, else why neither.
fn read_region(region: &str, n: usize) -> Result<Reply> {
    let nc = n * n;
    let lines = grid_lines(region, n);
    if let Some((start, end)) = lines.found {
        return Ok(Reply::Grid(cells_of(&region[start..end], n)));
    }
    if n <= 9 {
        if let Some(cells) = one_line(region, n) {
            return Ok(Reply::Grid(cells));
        }
    }
    let moves = moves(region, n)?;
    if !moves.is_empty() {
        return Ok(Reply::Moves(moves));
    }
    Err(unreadable(if lines.most_cells > 0 {
        format!(
            "no {n}x{n} grid or moves found: the largest grid-like block has {} cells, a \
             {n}x{n} answer has {nc}",
            lines.most_cells
        )
    } else {
        format!("no {n}x{n} grid of {nc} cells and no moves such as r1c1=5 found in the reply")
    }))
}

/// Layout characters a grid line may hold besides cells.
fn is_layout(c: char) -> bool {
    c.is_whitespace() || "|-+,;:=[](){}*#'\"`".contains(c) || ('\u{2500}'..='\u{257f}').contains(&c)
}

/// What a line is, for a grid.
enum LineKind {
    /// Only whitespace.
    Blank,
    /// Cells and layout, this many cells (0 for a separator line such as `------+------`).
    Cells(usize),
    /// Anything else: prose, which ends a grid.
    Other,
}

fn digit_value(c: char) -> Option<u8> {
    c.to_digit(10).map(|d| d as u8)
}

/// Calls `cell` with each cell value of a grid line, in order; `false` if the line is not one.
fn line_cells(line: &str, n: usize, mut cell: impl FnMut(u8)) -> bool {
    if n <= 9 {
        for c in line.chars() {
            match c {
                '.' => cell(0),
                _ => match digit_value(c) {
                    Some(v) if usize::from(v) <= n => cell(v),
                    Some(_) => return false,
                    None if is_layout(c) => {}
                    None => return false,
                },
            }
        }
        return true;
    }
    let mut number: Option<u32> = None;
    for c in line.chars() {
        if let Some(d) = c.to_digit(10) {
            let value = number.unwrap_or(0) * 10 + d;
            if value as usize > n {
                return false;
            }
            number = Some(value);
            continue;
        }
        if let Some(v) = number.take() {
            cell(v as u8);
        }
        match c {
            '.' => cell(0),
            _ if is_layout(c) => {}
            _ => return false,
        }
    }
    if let Some(v) = number {
        cell(v as u8);
    }
    true
}

fn classify(line: &str, n: usize) -> LineKind {
    if line.trim().is_empty() {
        return LineKind::Blank;
    }
    let mut count = 0;
    if line_cells(line, n, |_| count += 1) {
        LineKind::Cells(count)
    } else {
        LineKind::Other
    }
}

struct GridLines {
    /// Byte range of the last run of grid lines holding exactly n*n cells.
    found: Option<(usize, usize)>,
    /// The most cells of any run, for the message when none fits.
    most_cells: usize,
}

/// Runs of grid lines: split at prose lines, and also at blank lines (so two grids apart by a
/// blank line, a puzzle and then its solution, are two runs). The last run of n*n cells wins.
fn grid_lines(region: &str, n: usize) -> GridLines {
    let nc = n * n;
    let mut out = GridLines {
        found: None,
        most_cells: 0,
    };
    // (start byte, end byte, cells) of the open run of each kind.
    let mut wide: Option<(usize, usize, usize)> = None;
    let mut narrow: Option<(usize, usize, usize)> = None;
    let close = |run: &mut Option<(usize, usize, usize)>, out: &mut GridLines| {
        if let Some((start, end, cells)) = run.take() {
            out.most_cells = out.most_cells.max(cells);
            if cells == nc && out.found.map_or(true, |(_, e)| end >= e) {
                out.found = Some((start, end));
            }
        }
    };
    let mut offset = 0;
    for line in region.split_inclusive('\n') {
        let (start, end) = (offset, offset + line.len());
        offset = end;
        match classify(line, n) {
            LineKind::Other => {
                close(&mut wide, &mut out);
                close(&mut narrow, &mut out);
            }
            LineKind::Blank => close(&mut narrow, &mut out),
            LineKind::Cells(count) => {
                for run in [&mut wide, &mut narrow] {
                    match run {
                        Some((_, e, cells)) => {
                            *e = end;
                            *cells += count;
                        }
                        None => *run = Some((start, end, count)),
                    }
                }
            }
        }
    }
    close(&mut wide, &mut out);
    close(&mut narrow, &mut out);
    out
}

/// The cells of a run found by [`grid_lines`].
fn cells_of(run: &str, n: usize) -> Vec<u8> {
    let mut cells = Vec::with_capacity(n * n);
    for line in run.split_inclusive('\n') {
        line_cells(line, n, |v| cells.push(v));
    }
    cells
}

/// Up to 9x9: the last run of exactly n*n cell characters (`1`-`n`, `0`, `.`) anywhere, the
/// one-line form inside a sentence; a full stop right after it is the sentence's.
fn one_line(region: &str, n: usize) -> Option<Vec<u8>> {
    let nc = n * n;
    let bytes = region.as_bytes();
    let is_cell = |b: u8| b == b'.' || (b.is_ascii_digit() && usize::from(b - b'0') <= n);
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        if !is_cell(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_cell(bytes[i]) {
            i += 1;
        }
        // A digit past n right after the run makes it a longer number, not a grid.
        if i < bytes.len() && bytes[i].is_ascii_digit() {
            continue;
        }
        let len = i - start;
        if len == nc || (len == nc + 1 && bytes[i - 1] == b'.') {
            found = Some(start);
        }
    }
    found.map(|start| {
        bytes[start..start + nc]
            .iter()
            .map(|&b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    })
}

/// A number of one or two digits at `bytes[*i..]`, not followed by a third.
fn small_number(bytes: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    while *i < bytes.len() && bytes[*i].is_ascii_digit() && *i - start < 3 {
        *i += 1;
    }
    let len = *i - start;
    if len == 0 || len > 2 {
        return None;
    }
    std::str::from_utf8(&bytes[start..*i]).ok()?.parse().ok()
}

fn skip_spaces(bytes: &[u8], i: &mut usize) -> usize {
    let start = *i;
    while *i < bytes.len() && (bytes[*i] == b' ' || bytes[*i] == b'\t') {
        *i += 1;
    }
    *i - start
}

/// The move starting at `bytes[at]` (an `r` or `R`), as (row, col, digit) from 1.
fn move_at(bytes: &[u8], at: usize) -> Option<(usize, usize, usize)> {
    let mut i = at + 1;
    let row = small_number(bytes, &mut i)?;
    skip_spaces(bytes, &mut i);
    if i < bytes.len() && bytes[i] == b',' {
        i += 1;
        skip_spaces(bytes, &mut i);
    }
    if !matches!(bytes.get(i), Some(b'c' | b'C')) {
        return None;
    }
    i += 1;
    let col = small_number(bytes, &mut i)?;
    let spaces = skip_spaces(bytes, &mut i);
    let separator = match bytes.get(i..) {
        Some([b':' | b'=', ..]) => 1,
        Some([b'-', b'>', ..]) => 2,
        _ => 0,
    };
    if separator == 0 && spaces == 0 {
        return None;
    }
    i += separator;
    skip_spaces(bytes, &mut i);
    let digit = small_number(bytes, &mut i)?;
    Some((row, col, digit))
}

/// Every move in the region, in order; a move outside the grid is an error naming it.
fn moves(region: &str, n: usize) -> Result<Vec<Move>> {
    let bytes = region.as_bytes();
    let mut out = Vec::new();
    for at in 0..bytes.len() {
        if !matches!(bytes[at], b'r' | b'R') {
            continue;
        }
        if at > 0 && bytes[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let Some((row, col, digit)) = move_at(bytes, at) else {
            continue;
        };
        if !(1..=n).contains(&row) || !(1..=n).contains(&col) || !(1..=n).contains(&digit) {
            return Err(unreadable(format!(
                "the move r{row}c{col}={digit} is outside a {n}x{n} grid (rows, columns and \
                 digits go from 1 to {n})"
            )));
        }
        out.push(Move {
            row: (row - 1) as u8,
            col: (col - 1) as u8,
            digit: digit as u8,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(line: &str) -> Vec<u8> {
        line.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    fn boxed(line: &str) -> String {
        let mut out = String::new();
        for (r, row) in line.as_bytes().chunks(9).enumerate() {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for (c, &b) in row.iter().enumerate() {
                if c == 3 || c == 6 {
                    out.push_str("| ");
                }
                out.push(b as char);
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }

    #[test]
    fn reads_grids_in_every_layout() {
        let want = Reply::Grid(cells(SOLUTION));
        assert_eq!(parse_answer(SOLUTION, 9), Ok(want.clone()));
        assert_eq!(parse_answer(&boxed(SOLUTION), 9), Ok(want.clone()));
        let prose = format!("Let me think.\nSo the grid is:\n{}\nDone.", boxed(SOLUTION));
        assert_eq!(parse_answer(&prose, 9), Ok(want.clone()));
        let sentence = format!("The answer is {SOLUTION}.");
        assert_eq!(parse_answer(&sentence, 9), Ok(want.clone()));
        let fenced = format!("Here:\n```text\n{}```\nthanks", boxed(SOLUTION));
        assert_eq!(parse_answer(&fenced, 9), Ok(want.clone()));
        let tagged = format!(
            "<answer>{}</answer> no wait <ANSWER>\n{}\n</Answer>",
            "1".repeat(81),
            boxed(SOLUTION)
        );
        assert_eq!(parse_answer(&tagged, 9), Ok(want.clone()));
        let partial = format!("{}.", &SOLUTION[..80]);
        assert_eq!(parse_answer(&partial, 9), Ok(Reply::Grid(cells(&partial))));
    }

    #[test]
    fn the_last_of_two_grids_wins() {
        let puzzle = SOLUTION.replace('5', ".");
        let text = format!("{}\n\n{}", boxed(&puzzle), boxed(SOLUTION));
        assert_eq!(parse_answer(&text, 9), Ok(Reply::Grid(cells(SOLUTION))));
    }

    #[test]
    fn reads_moves() {
        let text = "I place r3c6: 5 and then R3C7=1, also r10c10 -> 12";
        let want = vec![
            Move {
                row: 2,
                col: 5,
                digit: 5,
            },
            Move {
                row: 2,
                col: 6,
                digit: 1,
            },
            Move {
                row: 9,
                col: 9,
                digit: 12,
            },
        ];
        assert_eq!(parse_answer(text, 16), Ok(Reply::Moves(want)));
        let err = parse_answer(text, 9).unwrap_err().to_string();
        assert!(err.contains("r10c10=12"), "{err}");
    }

    #[test]
    fn reads_big_grids_as_numbers() {
        let n = 16;
        let row: Vec<String> = (1..=n).map(|v| format!("{v:>2}")).collect();
        let text: String = (0..n).map(|_| row.join(" ") + "\n").collect();
        let Ok(Reply::Grid(got)) = parse_answer(&text, n) else {
            panic!()
        };
        assert_eq!(got.len(), 256);
        assert_eq!(&got[..16], &(1..=16).collect::<Vec<u8>>()[..]);
    }

    #[test]
    fn says_why_it_cannot_read() {
        let short = parse_answer(&SOLUTION[..80], 9).unwrap_err().to_string();
        assert!(short.contains("80 cells"), "{short}");
        let none = parse_answer("I do not know", 9).unwrap_err().to_string();
        assert!(none.contains("no 9x9 grid"), "{none}");
        let empty = parse_answer("<answer> </answer>", 9)
            .unwrap_err()
            .to_string();
        assert!(empty.contains("empty"), "{empty}");
        assert!(parse_answer("", 9).is_err());
        assert!(parse_answer(SOLUTION, 7).is_err());
    }
}
