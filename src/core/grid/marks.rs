//! Pencil marks as a puzzle's own constraint: one candidate mask per cell (bit `d-1` for digit
//! `d`), their text form, and the checks every entry point applies to them.
//!
//! The text form is SukakuExplainer's: per cell, row-major, `n` characters, where place `k`
//! holds digit `k+1`'s character if it is a candidate and `.` or `0` if not (729 characters
//! for a 9x9 grid); whitespace is layout. A puzzle given only as such marks is a *sukaku*; the
//! grid text reader ([`super::text::parse_with_marks`]) recognises one by its length.
//!
//! Marks and a grid go together: a filled cell's marks are empty or include its digit, an
//! empty cell's marks keep at least one digit that no filled peer holds. The search engines
//! start from [`restrict`]'s masks; the logic engine from the same marks, through
//! `Candidates::from_marks`.

use crate::core::error::{Error, Result};
use crate::core::grid::shape::BoxShape;
use crate::core::grid::text::{char_of_value, value_of_char, MAX_TEXT_VALUE};
use crate::core::grid::Grid;

/// `r4c6`: the usual 1-based name of a cell.
pub fn cell_name(cell: usize, n: usize) -> String {
    format!("r{}c{}", cell / n + 1, cell % n + 1)
}

/// The full mask of `n` digits.
#[inline]
fn full(n: usize) -> u64 {
    u64::MAX >> (64 - n)
}

fn check_text_size(n: usize) -> Result<()> {
    if n > MAX_TEXT_VALUE as usize {
        return Err(Error::Candidates(format!(
            "a {n}x{n} grid's candidates cannot be written as text: digit characters end at \
             'Z' = {MAX_TEXT_VALUE}; use a bool array"
        )));
    }
    Ok(())
}

/// Marks as text: per cell, `n` characters, the digit's character where it is a candidate and
/// `.` where it is not (729 characters for 9x9). Sides up to 35.
pub fn format_marks(n: usize, marks: &[u64]) -> Result<String> {
    check_text_size(n)?;
    let mut out = String::with_capacity(n * n * n);
    for &m in marks {
        for d in 0..n {
            out.push(if m >> d & 1 != 0 {
                char_of_value(d as u8 + 1)
            } else {
                '.'
            });
        }
    }
    Ok(out)
}

/// Reads marks text (see [`format_marks`]): `n*n*n` characters, whitespace ignored; in each
/// cell's run of `n`, the character at place `k` is `.` or `0` (not a candidate) or digit
/// `k+1`'s own character. Returns the side and one mask per cell.
pub fn parse_marks(text: &str) -> Result<(usize, Vec<u64>)> {
    let count = text.chars().filter(|c| !c.is_whitespace()).count();
    let n = (1..=MAX_TEXT_VALUE as usize)
        .find(|&n| n * n * n == count)
        .ok_or_else(|| {
            Error::Candidates(format!(
                "candidates text of {count} characters: expected n*n*n (729 for 9x9), n \
                 characters per cell"
            ))
        })?;
    Ok((n, read_runs(text, n, "candidates text")?))
}

/// The masks of `n*n` runs of `n` characters (whitespace skipped; the caller has counted
/// them), or an error naming the first character out of place, introduced by `what`.
fn read_runs(text: &str, n: usize, what: &str) -> Result<Vec<u64>> {
    let mut masks = vec![0u64; n * n];
    for (i, ch) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let (cell, k) = (i / n, i % n);
        match value_of_char(ch) {
            Some(0) => {}
            Some(v) if v as usize == k + 1 => masks[cell] |= 1 << k,
            _ => {
                return Err(Error::Candidates(format!(
                    "{what}: character {i} is {ch:?}, but place {} of {}'s run must be '.', \
                     '0' or {:?}",
                    k + 1,
                    cell_name(cell, n),
                    char_of_value(k as u8 + 1)
                )))
            }
        }
    }
    Ok(masks)
}

/// The side whose pencil marks a text of `count` cell characters would be, under the box the
/// caller asked for: `count` is `n*n*n` and `n` has that box (or, with none asked, a square
/// one). A 4x4's 64 characters are an 8x8 grid's count too: they are marks only under
/// `box=(2, 2)`.
pub fn marks_side(count: usize, requested_box: Option<(usize, usize)>) -> Option<usize> {
    let n = (4..=MAX_TEXT_VALUE as usize).find(|&n| n * n * n == count)?;
    if n == 4 && requested_box.is_none() {
        return None;
    }
    BoxShape::for_size(n, requested_box).ok().map(|_| n)
}

/// A text of pencil marks as a puzzle (a sukaku): its box shape and one mask per cell, or an
/// error that says what such a text needs. `n` is [`marks_side`]'s.
pub fn parse_sukaku(
    text: &str,
    n: usize,
    requested_box: Option<(usize, usize)>,
) -> Result<(BoxShape, Vec<u64>)> {
    let shape = BoxShape::for_size(n, requested_box)?;
    let what = format!(
        "a string of {} characters is read as the pencil marks of a {n}x{n} grid (a sukaku: \
         cell c, row-major, owns characters {n}c to {n}c+{}, the one at {n}c+d-1 digit d's \
         if d is a candidate, '.' or '0' if not)",
        n * n * n,
        n - 1
    );
    let masks = read_runs(text, n, &what)?;
    Ok((shape, masks))
}

/// Whether `text` is drawn as a bordered grid of candidate lists (SukakuExplainer's
/// multi-line pencil marks, HoDoKu's and the forums' too): it has a `|`, which no grid text or
/// marks line holds, and a cell of more than one character (a bordered grid of digits and
/// dots, one character a cell, is a drawing of a grid, not marks).
pub fn is_bordered(text: &str) -> bool {
    text.contains('|') && bordered_tokens(text).any(|t| t.chars().nth(1).is_some())
}

/// The cell tokens of a bordered grid in reading order: every line with a letter or digit is
/// a row of cells separated by whitespace, `|` and `:`; the others (`+---+` rules, blank
/// lines) are borders.
fn bordered_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| line.chars().any(char::is_alphanumeric))
        .flat_map(|line| {
            line.split(|c: char| c.is_whitespace() || c == '|' || c == ':')
                .filter(|t| !t.is_empty())
        })
}

/// Reads a bordered pencil-mark grid, as SukakuExplainer writes one:
///
/// ```text
/// +----------------+----------------+----------------+
/// | 1245 25   127  | ...
/// ```
///
/// one token per cell (row-major), its candidates' digit characters (a given or a solved cell
/// is its one digit), cells separated by whitespace, `|` or `:`, rule lines skipped. The cell
/// count is n*n for a side `n` with a box (`requested_box`, or a square one). Returns the
/// box shape and one mask per cell, or an error naming the first token out of place.
pub fn parse_bordered(
    text: &str,
    requested_box: Option<(usize, usize)>,
) -> Result<(BoxShape, Vec<u64>)> {
    let count = bordered_tokens(text).count();
    let n = (1..=MAX_TEXT_VALUE as usize)
        .find(|&n| n * n == count)
        .ok_or_else(|| {
            Error::Candidates(format!(
                "a bordered pencil-mark grid of {count} cells: expected n*n cells (81 for \
                 9x9), each its candidates' digits, separated by spaces and '|'"
            ))
        })?;
    let shape = BoxShape::for_size(n, requested_box)?;
    let mut masks = Vec::with_capacity(n * n);
    for (cell, token) in bordered_tokens(text).enumerate() {
        let mut mask = 0u64;
        for ch in token.chars() {
            match value_of_char(ch) {
                Some(v) if v >= 1 && v as usize <= n => mask |= 1 << (v - 1),
                _ => {
                    return Err(Error::Candidates(format!(
                        "a bordered pencil-mark grid: {}'s candidates are {token:?}, but a \
                         cell's candidates are digits 1..{} ('{}' at most)",
                        cell_name(cell, n),
                        n,
                        char_of_value(n as u8)
                    )))
                }
            }
        }
        masks.push(mask);
    }
    Ok((shape, masks))
}

/// Writes marks as SukakuExplainer's bordered multi-line grid (see [`parse_bordered`]): every
/// cell its candidates' characters, padded to the widest cell, boxes ruled with `+---+` and
/// `|`. Sides up to 35. A cell without candidates is written blank, which the reader does not
/// take back.
pub fn format_bordered(shape: BoxShape, marks: &[u64]) -> Result<String> {
    let n = shape.size();
    check_text_size(n)?;
    let width = marks
        .iter()
        .map(|m| m.count_ones() as usize)
        .max()
        .unwrap_or(1)
        .max(1);
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut rule = String::from("+");
    for _ in 0..n / cols {
        rule.push_str(&"-".repeat(cols * (width + 1) + 1));
        rule.push('+');
    }
    let mut out = String::new();
    for r in 0..n {
        if r % rows == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push('|');
        for c in 0..n {
            let m = marks.get(r * n + c).copied().unwrap_or(0);
            let digits: String = (0..n)
                .filter(|d| m >> d & 1 != 0)
                .map(|d| char_of_value(d as u8 + 1))
                .collect();
            out.push(' ');
            out.push_str(&digits);
            out.push_str(&" ".repeat(width - digits.len()));
            if c % cols == cols - 1 {
                out.push_str(" |");
            }
        }
        out.push('\n');
    }
    out.push_str(&rule);
    Ok(out)
}

/// Checks `marks` (one mask per cell) against `grid` and returns the candidates they leave:
/// per empty cell its marks less the digits its filled peers hold, 0 for a filled cell. A
/// filled cell's marks must be empty or include its digit; an empty cell's must keep a
/// candidate. The errors name the cell.
pub fn restrict(grid: &Grid, marks: &[u64]) -> Result<Vec<u64>> {
    let shape = grid.shape();
    let n = shape.size();
    if marks.len() != n * n {
        return Err(Error::Candidates(format!(
            "a {n}x{n} grid needs {} cells of candidates, got {}",
            n * n,
            marks.len()
        )));
    }
    // Digits used per row, column and box.
    let mut used = vec![0u64; 3 * n];
    for (cell, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            let (r, c) = (cell / n, cell % n);
            let bit = 1u64 << (v - 1);
            used[r] |= bit;
            used[n + c] |= bit;
            used[2 * n + shape.box_index(r, c)] |= bit;
        }
    }
    let mut out = vec![0u64; n * n];
    for (cell, (&m, slot)) in marks.iter().zip(&mut out).enumerate() {
        if m & !full(n) != 0 {
            return Err(Error::Candidates(format!(
                "{} has a candidate above {n}",
                cell_name(cell, n)
            )));
        }
        let v = grid.cells()[cell];
        if v != 0 {
            if m != 0 && m & (1 << (v - 1)) == 0 {
                return Err(Error::Candidates(format!(
                    "{} holds {v} but its candidates do not include {v}",
                    cell_name(cell, n)
                )));
            }
            continue;
        }
        if m == 0 {
            return Err(Error::Candidates(format!(
                "{} is empty and has no candidates",
                cell_name(cell, n)
            )));
        }
        let (r, c) = (cell / n, cell % n);
        *slot = m & !(used[r] | used[n + c] | used[2 * n + shape.box_index(r, c)]);
        if *slot == 0 {
            return Err(Error::Candidates(format!(
                "{} has no candidates left: every digit it is marked with is already in its \
                 row, column or box",
                cell_name(cell, n)
            )));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;

    #[test]
    fn marks_sides_follow_the_count_and_the_box() {
        assert_eq!(marks_side(729, None), Some(9));
        assert_eq!(marks_side(729, Some((3, 3))), Some(9));
        assert_eq!(marks_side(729, Some((3, 9))), None);
        assert_eq!(marks_side(728, None), None);
        assert_eq!(marks_side(64, None), None);
        assert_eq!(marks_side(64, Some((2, 2))), Some(4));
        assert_eq!(marks_side(216, None), None);
        assert_eq!(marks_side(216, Some((2, 3))), Some(6));
        assert_eq!(marks_side(4096, None), Some(16));
        assert_eq!(marks_side(0, None), None);
    }

    #[test]
    fn restrict_drops_what_givens_hold_and_names_bad_cells() {
        let mut cells = vec![0u8; 81];
        cells[0] = 4;
        let grid = Grid::new(BoxShape::CLASSIC, cells).unwrap();
        let mut marks = vec![full(9); 81];
        let out = restrict(&grid, &marks).unwrap();
        assert_eq!(out[0], 0);
        assert_eq!(out[1], full(9) & !(1 << 3));
        assert_eq!(out[80], full(9));
        marks[1] = 1 << 3;
        let err = restrict(&grid, &marks).unwrap_err().to_string();
        assert!(err.contains("r1c2 has no candidates left"), "{err}");
        marks[1] = 0;
        let err = restrict(&grid, &marks).unwrap_err().to_string();
        assert!(err.contains("r1c2 is empty"), "{err}");
        marks[1] = full(9);
        marks[0] = 1;
        let err = restrict(&grid, &marks).unwrap_err().to_string();
        assert!(err.contains("r1c1 holds 4"), "{err}");
        marks[0] = 1 << 9;
        assert!(restrict(&grid, &marks).is_err());
        assert!(restrict(&grid, &marks[1..]).is_err());
        let blank = parse(&".".repeat(81), None).unwrap();
        assert!(restrict(&blank, &vec![full(9); 81]).is_ok());
    }

    #[test]
    fn bordered_grids_read_and_write_as_sukakuexplainer_draws_them() {
        let mut marks = vec![full(9); 81];
        marks[0] = 0b1011;
        marks[1] = 1 << 8;
        marks[80] = 0b110;
        let text = format_bordered(BoxShape::CLASSIC, &marks).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 13);
        assert!(lines[0].starts_with("+-----") && lines[0].ends_with('+'));
        assert!(
            lines[1].starts_with("| 124       9         123456789"),
            "{}",
            lines[1]
        );
        assert!(is_bordered(&text));
        assert_eq!(
            parse_bordered(&text, None).unwrap(),
            (BoxShape::CLASSIC, marks.clone())
        );
        // HoDoKu's corners and ':' rules, and tabs, read the same.
        let hodoku = text
            .replace('+', ".")
            .replace(" |\n", " :\n")
            .replace(' ', "\t");
        assert_eq!(parse_bordered(&hodoku, None).unwrap().1, marks);
        // A 6x6 under its box; cells out of place are named.
        let six = format_bordered(BoxShape::new(2, 3).unwrap(), &[0b111; 36]).unwrap();
        assert!(parse_bordered(&six, None).is_err());
        assert_eq!(
            parse_bordered(&six, Some((2, 3))).unwrap().1,
            vec![0b111; 36]
        );
        let err = parse_bordered(&text.replacen("124", "1.4", 1), None).unwrap_err();
        assert!(
            err.to_string().contains("r1c1's candidates are \"1.4\""),
            "{err}"
        );
        let err = parse_bordered(&text.replacen("124", "1A4", 1), None).unwrap_err();
        assert!(err.to_string().contains("r1c1"), "{err}");
        let err = parse_bordered("| 12 | 3 |", None).unwrap_err();
        assert!(err.to_string().contains("of 2 cells"), "{err}");
        // A drawing of a grid, one character a cell, is not marks.
        assert!(!is_bordered("5 3 . | . 7 .\n------+------"));
        assert!(!is_bordered(&"123456789".repeat(81)));
    }

    #[test]
    fn sukaku_text_names_the_character_out_of_place() {
        let mut text = "123456789".repeat(81);
        let (shape, masks) = parse_sukaku(&text, 9, None).unwrap();
        assert_eq!(shape, BoxShape::CLASSIC);
        assert!(masks.iter().all(|&m| m == full(9)));
        text.replace_range(10..11, "5");
        let err = parse_sukaku(&text, 9, None).unwrap_err().to_string();
        assert!(err.contains("character 10 is '5'"), "{err}");
        assert!(err.contains("r1c2"), "{err}");
        assert!(err.contains("729 characters"), "{err}");
    }
}
