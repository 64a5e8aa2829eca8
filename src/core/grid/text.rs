//! The text form of a grid: n*n cell characters, `.` or `0` blank, `1`-`9` then `A`.. for 10 and
//! up. Whitespace anywhere is layout, not cells, so a pasted multi-line grid parses, and
//! [`render_like`] writes a solution back in the same layout.

use crate::core::error::{Error, Result};
use crate::core::grid::marks::{is_bordered, marks_side, parse_bordered, parse_sukaku};
use crate::core::grid::shape::{isqrt, BoxShape};
use crate::core::grid::{cell_at, Grid};

/// The largest value a character can hold (`Z` = 35).
pub const MAX_TEXT_VALUE: u8 = 35;

/// The value of a cell character: `Some(0)` for a blank, `None` if it is no cell character.
pub fn value_of_char(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// The character of a value; `.` for a blank. [`CHARS`] and [`CELL_STRS`] are this, tabled.
pub const fn char_of_value(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

/// How many values a cell character can hold, blank included.
const TEXT_VALUES: usize = MAX_TEXT_VALUE as usize + 1;

/// The character byte of each value a cell character can hold ([`char_of_value`]'s), for the
/// byte-writing paths.
const CHARS: &[u8; TEXT_VALUES] = &{
    let mut chars = [0u8; TEXT_VALUES];
    let mut v = 0;
    while v < TEXT_VALUES {
        chars[v] = char_of_value(v as u8) as u8;
        v += 1;
    }
    chars
};

/// The one-character string of each value a cell character can hold (`.` for a blank), for
/// callers that hand out many.
pub const CELL_STRS: [&str; TEXT_VALUES] = {
    let mut strs = [""; TEXT_VALUES];
    let mut v = 0;
    while v < TEXT_VALUES {
        strs[v] = match std::str::from_utf8(std::slice::from_ref(&CHARS[v])) {
            Ok(s) => s,
            Err(_) => panic!("cell characters are ASCII"),
        };
        v += 1;
    }
    strs
};

/// What a cell character may be, for messages.
pub fn expected_chars(n: usize) -> String {
    let last = char_of_value(n as u8);
    if n <= 9 {
        format!("'.', '0' or '1'..'{last}'")
    } else {
        format!("'.', '0', '1'..'9' or 'A'..'{last}'")
    }
}

/// [`CELL_OF_BYTE`]'s mark for whitespace (`char::is_whitespace` in ASCII: tab..carriage
/// return and space).
const SPACE: u8 = 0xFE;
/// [`CELL_OF_BYTE`]'s mark for a byte that is no cell character (or not ASCII).
const NOT_A_CELL: u8 = 0xFF;

/// Each byte's cell value (as [`value_of_char`]), or [`SPACE`] or [`NOT_A_CELL`].
static CELL_OF_BYTE: [u8; 256] = {
    let mut table = [NOT_A_CELL; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'\t'..=b'\r' | b' ' => SPACE,
            b'.' | b'0' => 0,
            c @ b'1'..=b'9' => c - b'0',
            c @ b'A'..=b'Z' => c - b'A' + 10,
            c @ b'a'..=b'z' => c - b'a' + 10,
            _ => NOT_A_CELL,
        };
        b += 1;
    }
    table
};

/// Parses a grid from text. The side is the square root of the number of cell characters.
pub fn parse(text: &str, requested_box: Option<(usize, usize)>) -> Result<Grid> {
    parse_ascii(text.as_bytes(), requested_box).map_or_else(|| parse_chars(text, requested_box), Ok)
}

/// The common case in one pass over the bytes, without decoding characters: well-formed ASCII
/// text. `None` for anything else (non-ASCII, a bad character or size), which
/// [`parse_chars`] then parses or names exactly.
fn parse_ascii(bytes: &[u8], requested_box: Option<(usize, usize)>) -> Option<Grid> {
    if bytes.len() == 81 {
        if let Some(grid) = parse_line81(bytes, requested_box) {
            return Some(grid);
        }
    }
    // Every byte is written and only cells advance the end: no branch per byte.
    let mut cells = vec![0u8; bytes.len()];
    let mut end = 0;
    for &b in bytes {
        let v = CELL_OF_BYTE[b as usize];
        cells[end] = v;
        end += usize::from(v != SPACE);
    }
    cells.truncate(end);
    let n = isqrt(end);
    if end == 0 || n * n != end || n > MAX_TEXT_VALUE as usize {
        return None;
    }
    // Not-a-cell bytes are above any value: one check covers them and values past the side.
    if cells.iter().any(|&v| v as usize > n) {
        return None;
    }
    Grid::new(BoxShape::for_size(n, requested_box).ok()?, cells).ok()
}

/// The most common text, 81 cell characters of a 9x9 grid and nothing else, by arithmetic
/// the compiler turns into vector operations: `.` and `0` are blanks, `1`..`9` values. `None`
/// for anything else (whitespace, letters), which the general reading takes.
fn parse_line81(bytes: &[u8], requested_box: Option<(usize, usize)>) -> Option<Grid> {
    let mut cells = vec![0u8; 81];
    let mut bad = 0u8;
    for (cell, &b) in cells.iter_mut().zip(bytes) {
        let digit = b.wrapping_sub(b'0');
        let blank = b == b'.';
        bad |= u8::from(digit > 9 && !blank);
        *cell = if blank { 0 } else { digit };
    }
    if bad != 0 {
        return None;
    }
    Grid::new(BoxShape::for_size(9, requested_box).ok()?, cells).ok()
}

fn parse_chars(text: &str, requested_box: Option<(usize, usize)>) -> Result<Grid> {
    if is_bordered(text) {
        return Err(bordered_not_a_grid(text, requested_box));
    }
    let count = text.chars().filter(|c| !c.is_whitespace()).count();
    let n = isqrt(count);
    let shape = if count == 0 || n * n != count {
        Err(Error::Shape(format!(
            "a string of {count} cells is not a square grid: expected n*n cell characters \
             (81 for 9x9), whitespace ignored"
        )))
    } else if n > MAX_TEXT_VALUE as usize {
        Err(Error::Shape(format!(
            "a {n}x{n} grid cannot be written as text: cell characters end at 'Z' = \
             {MAX_TEXT_VALUE}; pass a list of rows or a numpy array"
        )))
    } else {
        BoxShape::for_size(n, requested_box)
    };
    let shape = match shape {
        Ok(shape) => shape,
        // No grid has this many cells, but pencil marks do: say so, or say what is wrong
        // with them as marks.
        Err(err) => match marks_side(count, requested_box) {
            Some(side) => return Err(not_a_grid(text, side, requested_box)),
            None => return Err(err),
        },
    };
    let mut cells = Vec::with_capacity(count);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match value_of_char(c) {
            Some(v) if (v as usize) <= n => cells.push(v),
            _ => {
                return Err(Error::Value {
                    cell: cell_at(cells.len(), n),
                    found: format!("{c:?}"),
                    expected: expected_chars(n),
                })
            }
        }
    }
    Grid::new(shape, cells)
}

/// Parses a puzzle from text: a grid, as [`parse`], or, when the text has as many cell
/// characters as the pencil marks of a grid (729 for 9x9: see [`marks_side`]) and is no grid,
/// those marks as a puzzle of their own (a sukaku): a blank grid and one mask per cell.
pub fn parse_with_marks(
    text: &str,
    requested_box: Option<(usize, usize)>,
) -> Result<(Grid, Option<Vec<u64>>)> {
    let err = match parse(text, requested_box) {
        Ok(grid) => return Ok((grid, None)),
        Err(err) => err,
    };
    if !matches!(
        err,
        Error::Shape(_) | Error::BoxShape(_) | Error::Candidates(_)
    ) && !is_bordered(text)
    {
        return Err(err);
    }
    let (shape, masks) = if is_bordered(text) {
        parse_bordered(text, requested_box)?
    } else {
        let count = text.chars().filter(|c| !c.is_whitespace()).count();
        let Some(n) = marks_side(count, requested_box) else {
            return Err(err);
        };
        parse_sukaku(text, n, requested_box)?
    };
    let blank = Grid::new(shape, vec![0; shape.cell_count()])?;
    Ok((blank, Some(masks)))
}

/// Why a text of pencil marks of a grid of side `n` is not read as a grid: a well-formed one
/// is a puzzle only the calls that take marks read; anything else, what is wrong with it.
fn not_a_grid(text: &str, n: usize, requested_box: Option<(usize, usize)>) -> Error {
    match parse_sukaku(text, n, requested_box) {
        Ok(_) => Error::Shape(format!(
            "a string of {} characters is the pencil marks of a {n}x{n} grid (a sukaku), not \
             a grid: {MARKS_CALLS} take it; this call takes grids only",
            n * n * n
        )),
        Err(err) => err,
    }
}

/// The calls that read a sukaku, for messages.
const MARKS_CALLS: &str = "solve, count_solutions, is_unique, hint, explain, grade and se_rate";

/// Why a bordered text is not read as a grid: a well-formed bordered pencil-mark grid is a
/// puzzle only the calls that take marks read; anything else, what is wrong with it as one.
fn bordered_not_a_grid(text: &str, requested_box: Option<(usize, usize)>) -> Error {
    match parse_bordered(text, requested_box) {
        Ok((shape, _)) => Error::Shape(format!(
            "a bordered grid of candidate lists is the pencil marks of a {0}x{0} grid (a \
             sukaku), not a grid: {MARKS_CALLS} take it; this call takes grids only",
            shape.size()
        )),
        Err(err) => err,
    }
}

/// The cells as one line of n*n characters, `.` for blanks.
pub fn to_line(cells: &[u8]) -> String {
    let mut out = vec![0u8; cells.len()];
    if write_line(cells, &mut out) {
        return String::from_utf8(out).expect("cell characters are ASCII");
    }
    cells.iter().map(|&v| char_of_value(v)).collect()
}

/// Writes the cells' characters into `out` (as long as `cells`), byte for byte; `false`
/// (with `out` half written) when a value has no cell character (above [`MAX_TEXT_VALUE`]).
pub fn write_line(cells: &[u8], out: &mut [u8]) -> bool {
    for (byte, &v) in out.iter_mut().zip(cells) {
        match CHARS.get(v as usize) {
            Some(&c) => *byte = c,
            None => return false,
        }
    }
    true
}

/// Writes `cells` in the layout of `template`: each non-whitespace character of the template is
/// replaced, in order, by the next cell's character; whitespace stays where it was.
pub fn render_like(template: &str, cells: &[u8]) -> String {
    // Cell characters are ASCII: never more bytes than the template.
    let mut out = String::with_capacity(template.len());
    let mut values = cells.iter();
    if template.is_ascii() {
        let bytes = template.as_bytes();
        let spaces = bytes.iter().any(|&b| CELL_OF_BYTE[b as usize] == SPACE);
        if !spaces && bytes.len() == cells.len() {
            return to_line(cells); // one line of cells: no layout to follow
        }
        for b in template.bytes() {
            out.push(if CELL_OF_BYTE[b as usize] == SPACE {
                b as char
            } else {
                values.next().map_or(b as char, |&v| char_of_value(v))
            });
        }
        return out;
    }
    out.extend(template.chars().map(|c| {
        if c.is_whitespace() {
            c
        } else {
            values.next().map_or(c, |&v| char_of_value(v))
        }
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_81_reads_as_the_general_reading_does() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let zeros = line.replace('.', "0");
        let general = |t: &str| {
            let spaced: String = t.chars().flat_map(|c| [c, ' ']).collect();
            parse(&spaced, None)
        };
        for text in [line, zeros.as_str()] {
            assert_eq!(parse(text, None).unwrap(), general(text).unwrap());
        }
        // Not for the quick reading: letters, other bytes, a box that does not fit.
        for bad in ["A", "a", "-", "/", ":", "\0"] {
            let text = format!("{bad}{}", &line[bad.len()..]);
            assert_eq!(
                parse(&text, None).map_err(|e| e.to_string()),
                general(&text).map_err(|e| e.to_string()),
                "{text}"
            );
        }
        assert!(parse(line, Some((2, 3))).is_err());
        assert_eq!(
            parse(line, Some((3, 3))).unwrap(),
            parse(line, None).unwrap()
        );
    }

    #[test]
    fn pencil_marks_are_told_from_grids_by_their_length() {
        let full = "123456789".repeat(81);
        let (grid, marks) = parse_with_marks(&full, None).unwrap();
        assert_eq!(grid.shape(), BoxShape::CLASSIC);
        assert_eq!(grid.clue_count(), 0);
        assert_eq!(marks.unwrap(), vec![0x1FF; 81]);
        // Laid out on lines, with zeros for blanks, under box=(3, 3): the same marks.
        let lines: Vec<String> = full
            .replace('5', "0")
            .as_bytes()
            .chunks(81)
            .map(|l| String::from_utf8(l.to_vec()).unwrap())
            .collect();
        let (_, marks) = parse_with_marks(&lines.join("\n"), Some((3, 3))).unwrap();
        assert_eq!(marks.unwrap(), vec![0x1FF & !(1 << 4); 81]);
        // A grid stays a grid; 729 cells under a box of side 27 are a 27x27 grid.
        let (grid, marks) = parse_with_marks(&".".repeat(81), None).unwrap();
        assert!(marks.is_none() && grid.size() == 9);
        let (grid, marks) = parse_with_marks(&".".repeat(729), Some((3, 9))).unwrap();
        assert!(marks.is_none() && grid.size() == 27);
        // Calls that take grids only say what the text is.
        let err = parse(&full, None).unwrap_err().to_string();
        assert!(
            err.contains("pencil marks of a 9x9 grid (a sukaku)"),
            "{err}"
        );
        // A text of that length that is no marks either says what marks need.
        for bad in [
            "5".repeat(729),
            format!("{}A{}", &full[..700], &full[701..]),
        ] {
            let err = parse_with_marks(&bad, None).unwrap_err();
            assert!(matches!(err, Error::Candidates(_)), "{err:?}");
            let msg = err.to_string();
            assert!(
                msg.contains("729 characters") && msg.contains("sukaku"),
                "{msg}"
            );
            assert_eq!(parse(&bad, None).unwrap_err(), err);
        }
        // Other lengths keep their own messages.
        let err = parse_with_marks(&"1".repeat(730), None).unwrap_err();
        assert!(err.to_string().contains("730 cells"), "{err}");
        let err = parse_with_marks(&"x".repeat(81), None).unwrap_err();
        assert!(matches!(err, Error::Value { .. }), "{err}");
    }

    #[test]
    fn bordered_pencil_marks_are_a_sukaku_too() {
        use crate::core::grid::marks::format_bordered;
        let mut masks = vec![0x1FF; 81];
        masks[3] = 0b101;
        let drawn = format_bordered(BoxShape::CLASSIC, &masks).unwrap();
        let (grid, marks) = parse_with_marks(&drawn, None).unwrap();
        assert_eq!(grid.clue_count(), 0);
        assert_eq!(marks.unwrap(), masks);
        let err = parse(&drawn, None).unwrap_err().to_string();
        assert!(
            err.contains("bordered grid of candidate lists") && err.contains("se_rate"),
            "{err}"
        );
        // A malformed one says what is wrong with it as marks, to both readers.
        let bad = drawn.replacen("13", "1x", 1);
        let err = parse_with_marks(&bad, None).unwrap_err();
        assert!(err.to_string().contains("r1c4"), "{err}");
        assert_eq!(parse(&bad, None).unwrap_err(), err);
        // A drawing of a grid, one character a cell, keeps the grid reader's message.
        let err = parse_with_marks("5 3 . | . 7 .", None).unwrap_err();
        assert!(matches!(err, Error::Shape(_)), "{err}");
    }

    #[test]
    fn characters_round_trip() {
        for v in 0..=MAX_TEXT_VALUE {
            assert_eq!(value_of_char(char_of_value(v)), Some(v));
        }
        assert_eq!(value_of_char('0'), Some(0));
        for (v, s) in CELL_STRS.iter().enumerate() {
            assert_eq!(*s, char_of_value(v as u8).to_string());
        }
        assert_eq!(CHARS, b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        assert_eq!(value_of_char('g'), Some(16));
        assert_eq!(value_of_char('-'), None);
    }

    #[test]
    fn parses_with_whitespace_and_keeps_layout() {
        let text = "1.3.\n..1.\n.1..\n...1\n";
        let grid = parse(text, None).unwrap();
        assert_eq!(grid.size(), 4);
        assert_eq!(grid.get(0, 2), 3);
        let out = render_like(text, grid.cells());
        assert_eq!(out, text);
    }

    #[test]
    fn the_ascii_fast_path_agrees_with_the_character_parser() {
        let sudoku =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let mut texts = vec![
            sudoku.to_string(),
            sudoku.replace('.', "0"),
            format!(" {}\t\x0b\x0c\r\n", sudoku),
            sudoku.replace('5', "\u{a0}5"), // non-ASCII whitespace: the character parser's
            sudoku.replace('5', "\x1c"),    // not whitespace to either
            sudoku.replace('5', "A"),
            sudoku.replace('5', "é"),
            "1.3.\n..1.\n.1..\n...1\n".to_string(),
            "g".repeat(256),
            ".".repeat(36),
            ".".repeat(80),
            ".".repeat(37 * 37),
            String::new(),
            "  \n".to_string(),
        ];
        texts.push(texts[0].to_lowercase().replace('9', "z"));
        for text in &texts {
            for requested in [None, Some((2, 3)), Some((3, 3))] {
                assert_eq!(
                    parse(text, requested),
                    parse_chars(text, requested),
                    "{text:?} {requested:?}"
                );
            }
            if let Ok(grid) = parse(text, None) {
                let by_chars: String = text
                    .chars()
                    .scan(grid.cells().iter(), |values, c| {
                        Some(if c.is_whitespace() {
                            c
                        } else {
                            values.next().map_or(c, |&v| char_of_value(v))
                        })
                    })
                    .collect();
                assert_eq!(render_like(text, grid.cells()), by_chars, "{text:?}");
            }
        }
    }

    #[test]
    fn names_bad_characters_and_lengths() {
        let err = parse(&"x".repeat(81), None).unwrap_err().to_string();
        assert!(
            err.starts_with("invalid value 'x' at row 0, column 0"),
            "{err}"
        );
        let mut line = ".".repeat(81);
        line.replace_range(40..41, "A");
        let err = parse(&line, None).unwrap_err().to_string();
        assert!(err.contains("'A' at row 4, column 4"), "{err}");
        let err = parse(&".".repeat(80), None).unwrap_err().to_string();
        assert!(err.contains("80 cells"), "{err}");
        assert!(matches!(parse("", None), Err(Error::Shape(_))));
        assert!(matches!(
            parse(&".".repeat(36), None),
            Err(Error::BoxShape(_))
        ));
        assert_eq!(parse(&".".repeat(36), Some((2, 3))).unwrap().size(), 6);
    }
}
