//! The text form of a grid: n*n cell characters, `.` or `0` blank, `1`-`9` then `A`.. for 10 and
//! up. Whitespace anywhere is layout, not cells, so a pasted multi-line grid parses, and
//! [`render_like`] writes a solution back in the same layout.

use crate::core::error::{Error, Result};
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

/// The character of a value; `.` for a blank.
pub fn char_of_value(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

/// What a cell character may be, for messages.
pub fn expected_chars(n: usize) -> String {
    let last = char_of_value(n as u8);
    if n <= 9 {
        format!("'.', '0' or '1'..'{last}'")
    } else {
        format!("'.', '0', '1'..'9' or 'A'..'{last}'")
    }
}

/// Parses a grid from text. The side is the square root of the number of cell characters.
pub fn parse(text: &str, requested_box: Option<(usize, usize)>) -> Result<Grid> {
    let count = text.chars().filter(|c| !c.is_whitespace()).count();
    let n = isqrt(count);
    if count == 0 || n * n != count {
        return Err(Error::Shape(format!(
            "a string of {count} cells is not a square grid: expected n*n cell characters \
             (81 for 9x9), whitespace ignored"
        )));
    }
    if n > MAX_TEXT_VALUE as usize {
        return Err(Error::Shape(format!(
            "a {n}x{n} grid cannot be written as text: cell characters end at 'Z' = \
             {MAX_TEXT_VALUE}; pass a list of rows or a numpy array"
        )));
    }
    let shape = BoxShape::for_size(n, requested_box)?;
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

/// The cells as one line of n*n characters, `.` for blanks.
pub fn to_line(cells: &[u8]) -> String {
    cells.iter().map(|&v| char_of_value(v)).collect()
}

/// Writes `cells` in the layout of `template`: each non-whitespace character of the template is
/// replaced, in order, by the next cell's character; whitespace stays where it was.
pub fn render_like(template: &str, cells: &[u8]) -> String {
    let mut values = cells.iter();
    template
        .chars()
        .map(|c| {
            if c.is_whitespace() {
                c
            } else {
                values.next().map_or(c, |&v| char_of_value(v))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_round_trip() {
        for v in 0..=MAX_TEXT_VALUE {
            assert_eq!(value_of_char(char_of_value(v)), Some(v));
        }
        assert_eq!(value_of_char('0'), Some(0));
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
