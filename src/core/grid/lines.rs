//! The dataset format: one puzzle per line (81 characters for 9x9, `.` or `0` blank), or a CSV
//! whose header names its columns (Kaggle's `quizzes,solutions`, `puzzle,solution`). Parsing
//! works on bytes, a chunk of lines at a time, so a file of any size streams in flat memory.
//! A reader that keeps pencil marks ([`parse_marked`]) also takes a line of a grid's marks (a
//! sukaku: 729 characters for 9x9, SukakuExplainer's format).

use crate::core::error::Error;
use crate::core::grid::marks::{marks_side, restrict};
use crate::core::grid::shape::isqrt;
use crate::core::grid::text;
use crate::core::grid::Grid;

/// Puzzles parsed from a chunk of lines.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The grid side, once a puzzle has been seen (0 before).
    pub size: usize,
    /// `size*size` cells per puzzle, row-major; a bad line's puzzle is all zeros.
    pub cells: Vec<u8>,
    /// 1-based line numbers of each puzzle (blank lines and the header are skipped).
    pub line_numbers: Vec<usize>,
    /// Indices (into the puzzles) of malformed lines, with what is wrong.
    pub bad: Vec<(usize, String)>,
    /// With [`parse_marked`]: indices (into the puzzles) of the sukaku lines, each with its
    /// marks text as the line holds it (its puzzle's cells are blank). Checked as a single
    /// call checks marks, so the solvers that read the text again take it.
    pub marked: Vec<(usize, String)>,
}

impl Parsed {
    pub fn count(&self) -> usize {
        self.line_numbers.len()
    }
}

/// Whether `line` is a CSV header rather than a puzzle: it has a comma and its first field is a
/// short word with a letter, such as `quizzes` or `Puzzle` (a puzzle with letters is 16x16 or
/// bigger, so never that short).
pub fn is_header(line: &str) -> bool {
    line.contains(',')
        && line.split(',').next().is_some_and(|f| {
            let f = f.trim().trim_matches('"');
            f.len() < 40 && f.chars().any(|c| c.is_ascii_alphabetic())
        })
}

/// Parses `data` (whole lines) taking field `column` of comma-separated lines (0 for plain
/// lines). `first_line` is the 1-based number of data's first line, for messages; `size` is the
/// grid side if already known (0 lets the first good puzzle decide; bad lines before it are
/// sized by it). When `first_line` is 1, a UTF-8 byte-order mark is ignored and a header line
/// (see [`is_header`]) before the first puzzle is skipped. Every puzzle must be square and of one size, with a
/// square box (9x9, 16x16, 25x25 ...) unless `box_shape` is given.
pub fn parse(
    data: &[u8],
    column: usize,
    first_line: usize,
    size: usize,
    box_shape: Option<(usize, usize)>,
) -> Parsed {
    parse_lines(data, column, first_line, size, box_shape, false)
}

/// [`parse`], also taking a line of pencil marks of a grid of the file's size (a sukaku, see
/// [`text::parse_with_marks`]) as a puzzle: listed in [`Parsed::marked`], its row blank. So
/// a file may mix grids and sukaku lines of one size.
pub fn parse_marked(
    data: &[u8],
    column: usize,
    first_line: usize,
    size: usize,
    box_shape: Option<(usize, usize)>,
) -> Parsed {
    parse_lines(data, column, first_line, size, box_shape, true)
}

fn parse_lines(
    data: &[u8],
    column: usize,
    first_line: usize,
    size: usize,
    box_shape: Option<(usize, usize)>,
    marks: bool,
) -> Parsed {
    let mut parsed = Parsed {
        size,
        ..Parsed::default()
    };
    let data = match data.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) if first_line == 1 => rest,
        _ => data,
    };
    let mut header_allowed = first_line == 1;
    for (k, raw) in data.split(|&b| b == b'\n').enumerate() {
        let number = first_line + k;
        // Fast path for the common case, a plain line of the known size: bytes straight to
        // cells. Anything else (CSV, whitespace, a bad character) takes the general path.
        if column == 0 && !header_allowed && parsed.size != 0 {
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            let start = parsed.cells.len();
            if line.len() == parsed.size * parsed.size
                && push_plain(line, parsed.size, &mut parsed.cells)
            {
                parsed.line_numbers.push(number);
                continue;
            }
            parsed.cells.truncate(start);
        }
        let line = String::from_utf8_lossy(raw);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if std::mem::take(&mut header_allowed) && is_header(line) {
            continue;
        }
        let field = line
            .split(',')
            .nth(column)
            .map(|f| f.trim().trim_matches('"'));
        let index = parsed.count();
        let result = match field {
            None => Err(format!("no column {column} in this line")),
            Some(f) => match sukaku_side(f, parsed.size, box_shape) {
                Some(_) if marks => parse_sukaku_line(f, box_shape).map(|(grid, marked)| {
                    if marked {
                        parsed.marked.push((index, f.to_string()));
                    }
                    grid
                }),
                Some(n) => match parse_sukaku_line(f, box_shape) {
                    Ok((grid, false)) => Ok(grid),
                    Ok(_) => Err(not_taken(n)),
                    Err(err) => Err(err),
                },
                None => parse_one(f, parsed.size, box_shape).map_err(|e| e.to_string()),
            },
        };
        parsed.line_numbers.push(number);
        match result {
            Ok(grid) => {
                if parsed.size == 0 {
                    // Bad lines before the first good one get their blank rows now.
                    parsed.size = grid.size();
                    parsed.cells.resize(index * grid.cells().len(), 0);
                }
                parsed.cells.extend_from_slice(grid.cells());
            }
            Err(message) => {
                let nc = parsed.size * parsed.size;
                parsed.cells.resize(parsed.cells.len() + nc, 0);
                parsed.bad.push((index, message));
            }
        }
    }
    parsed
}

/// The side of the grid whose pencil marks `field` would be (see [`marks_side`]), when that
/// is the file's size (or no size is known yet).
fn sukaku_side(field: &str, size: usize, box_shape: Option<(usize, usize)>) -> Option<usize> {
    let n = marks_side(field.chars().count(), box_shape)?;
    (size == 0 || size == n).then_some(n)
}

/// A sukaku line's blank grid, its marks checked as every solver checks them, and whether
/// it was read as marks (rather than as a grid that happens to have as many characters).
fn parse_sukaku_line(
    field: &str,
    box_shape: Option<(usize, usize)>,
) -> Result<(Grid, bool), String> {
    match text::parse_with_marks(field, box_shape) {
        Ok((grid, Some(masks))) => match restrict(&grid, &masks) {
            Ok(_) => Ok((grid, true)),
            Err(err) => Err(err.to_string()),
        },
        Ok((grid, None)) => Ok((grid, false)),
        Err(err) => Err(err.to_string()),
    }
}

/// Why a reader of cells does not take a line of pencil marks.
fn not_taken(n: usize) -> String {
    format!(
        "a line of {} characters is the pencil marks of a {n}x{n} grid (a sukaku), which this \
         reader does not keep: read_puzzles(path, candidates=True) keeps such lines as puzzle \
         strings, which solve_batch, count_solutions_batch and se_rate_batch take, and the \
         command line's solve, count, check and rate read them under classic rules",
        n * n * n
    )
}

/// Appends the cells of a plain line; `false` (leaving junk to truncate) at any character that
/// is not a cell character of a grid of side `size`.
fn push_plain(line: &[u8], size: usize, cells: &mut Vec<u8>) -> bool {
    for &b in line {
        match text::value_of_char(b as char) {
            Some(v) if (v as usize) <= size && b.is_ascii() => cells.push(v),
            _ => return false,
        }
    }
    true
}

fn parse_one(field: &str, size: usize, box_shape: Option<(usize, usize)>) -> Result<Grid, Error> {
    let count = field.chars().count();
    if size != 0 && count != size * size {
        return Err(Error::Shape(format!(
            "expected {} cells like the lines before, got {count}",
            size * size
        )));
    }
    if field.chars().any(char::is_whitespace) || isqrt(count) * isqrt(count) != count {
        return Err(Error::Shape(format!(
            "a line of {count} characters is not a puzzle: expected n*n cell characters \
             (81 for 9x9)"
        )));
    }
    text::parse(field, box_shape)
}

/// Writes puzzles as lines of n*n characters, `blank` for an empty cell, so a blank puzzle is
/// a line of blanks: [`parse`] skips empty lines, and every puzzle must read back as one row.
/// A row flagged in `gaps` (one flag per puzzle, or none at all) becomes an empty line instead:
/// the CLI's mark for "no solution" or a skipped bad line, keeping its output lines aligned with
/// its input. With `size` 0 (a chunk in which no line was a puzzle) there is nothing to write.
pub fn format(cells: &[u8], size: usize, blank: u8, gaps: &[bool]) -> Vec<u8> {
    let mut out = vec![0; formatted_len(cells, size, gaps)];
    format_into(cells, size, blank, gaps, &mut out);
    out
}

/// The length of what [`format`] writes.
pub fn formatted_len(cells: &[u8], size: usize, gaps: &[bool]) -> usize {
    let nc = size * size;
    if nc == 0 {
        return 0;
    }
    let rows = cells.len() / nc;
    let skipped = gaps.iter().take(rows).filter(|&&g| g).count();
    (rows - skipped) * nc + rows
}

/// [`format`] into `out`, which holds exactly [`formatted_len`] bytes (a caller that must not
/// abort when memory runs out allocates it fallibly).
pub fn format_into(cells: &[u8], size: usize, blank: u8, gaps: &[bool], out: &mut [u8]) {
    let nc = size * size;
    if nc == 0 {
        return;
    }
    let mut at = 0;
    for (k, puzzle) in cells.chunks(nc).enumerate() {
        if !gaps.get(k).copied().unwrap_or(false) {
            for (slot, &v) in out[at..at + puzzle.len()].iter_mut().zip(puzzle) {
                *slot = if v == 0 {
                    blank
                } else {
                    text::char_of_value(v) as u8
                };
            }
            at += puzzle.len();
        }
        out[at] = b'\n';
        at += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEET: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn reads_lines_and_kaggle_csv() {
        let data = format!("{LEET}\n\n{}\n", LEET.replace('.', "0"));
        let parsed = parse(data.as_bytes(), 0, 1, 0, None);
        assert_eq!((parsed.count(), parsed.size), (2, 9));
        assert_eq!(parsed.line_numbers, vec![1, 3]);
        assert_eq!(parsed.cells[..81], parsed.cells[81..]);

        let csv = format!(
            "quizzes,solutions\r\n{},{}\r\n",
            LEET.replace('.', "0"),
            "1".repeat(81)
        );
        let puzzles = parse(csv.as_bytes(), 0, 1, 0, None);
        assert_eq!((puzzles.count(), puzzles.line_numbers[0]), (1, 2));
        assert!(puzzles.bad.is_empty());
        let solutions = parse(csv.as_bytes(), 1, 1, 0, None);
        assert_eq!(solutions.cells, vec![1; 81]);
    }

    /// LEET's pencil marks as a sukaku line: a given keeps only its digit, a blank all nine.
    fn leet_marks(blank: char) -> String {
        LEET.chars()
            .flat_map(|c| {
                (1..=9u32).map(move |d| match c.to_digit(10) {
                    Some(v) if v != d => blank,
                    _ => char::from_digit(d, 10).unwrap(),
                })
            })
            .collect()
    }

    #[test]
    fn sukaku_lines_kept_only_by_the_marks_reader() {
        let sukaku = leet_marks('.');
        let data = format!("{sukaku}\n{LEET}\n{}\n", leet_marks('0'));
        let parsed = parse_marked(data.as_bytes(), 0, 1, 0, None);
        assert!(parsed.bad.is_empty(), "{:?}", parsed.bad);
        assert_eq!((parsed.count(), parsed.size), (3, 9));
        let rows: Vec<usize> = parsed.marked.iter().map(|(i, _)| *i).collect();
        assert_eq!(rows, vec![0, 2]);
        assert_eq!(parsed.marked[0].1, sukaku);
        assert!(parsed.cells[..81].iter().all(|&v| v == 0));
        // A CSV field too, and after the size is known.
        let csv = format!("puzzle,x\n{LEET},1\n{sukaku},2\n");
        let parsed = parse_marked(csv.as_bytes(), 0, 1, 0, None);
        assert!(parsed.bad.is_empty());
        assert_eq!(parsed.marked.len(), 1);
        assert_eq!(parsed.marked[0].0, 1);

        // The cells reader names what the line is and who reads it.
        let parsed = parse(data.as_bytes(), 0, 1, 0, None);
        assert_eq!(parsed.bad.len(), 2);
        assert!(parsed.bad[0]
            .1
            .contains("pencil marks of a 9x9 grid (a sukaku)"));
        assert!(parsed.marked.is_empty());

        // Marks that leave a cell nothing, or a bad character, name the cell or say why.
        let mut empty = sukaku.clone();
        empty.replace_range(18..27, ".........");
        let bad = format!("{LEET}\n{empty}\n{}x\n", &sukaku[..728]);
        let parsed = parse_marked(bad.as_bytes(), 0, 1, 0, None);
        assert_eq!(parsed.bad.len(), 2);
        assert!(parsed.bad[0].1.contains("r1c3"), "{}", parsed.bad[0].1);
        assert!(parsed.marked.is_empty());
        // A 16x16 sukaku is not a line of a 9x9 file.
        let big = format!("{LEET}\n{}\n", ".".repeat(4096));
        let parsed = parse_marked(big.as_bytes(), 0, 1, 0, None);
        assert!(
            parsed.bad[0].1.contains("expected 81 cells"),
            "{}",
            parsed.bad[0].1
        );
    }

    #[test]
    fn names_the_line_of_a_bad_puzzle() {
        let data = format!("{LEET}\n{}x\n{}\n", &LEET[..80], &LEET[..40]);
        let parsed = parse(data.as_bytes(), 0, 1, 0, None);
        assert_eq!(parsed.count(), 3);
        assert_eq!(parsed.bad.len(), 2);
        assert_eq!(parsed.bad[0].0, 1);
        assert!(
            parsed.bad[0].1.contains("'x' at row 8, column 8"),
            "{}",
            parsed.bad[0].1
        );
        assert!(parsed.bad[1].1.contains("got 40"), "{}", parsed.bad[1].1);
        assert_eq!(parsed.cells.len(), 3 * 81);
    }

    #[test]
    fn a_bad_first_line_does_not_fix_the_size() {
        let line16 = ".".repeat(256);
        let data = format!("\u{feff}Puzzle,Solution\nx,y\n{line16},z\n");
        let parsed = parse(data.as_bytes(), 0, 1, 0, None);
        assert_eq!((parsed.count(), parsed.size, parsed.bad.len()), (2, 16, 1));
        assert_eq!(parsed.line_numbers, vec![2, 3]);
        assert_eq!(parsed.cells.len(), 2 * 256);
    }

    #[test]
    fn formats_one_line_per_puzzle() {
        let mut cells = vec![0u8; 2 * 16];
        cells[0] = 1;
        cells[15] = 4;
        let written = format(&cells, 4, b'.', &[]);
        assert_eq!(written, b"1..............4\n................\n".to_vec());
        assert_eq!(
            format(&cells, 4, b'0', &[false, true]),
            b"1000000000000004\n\n".to_vec()
        );
    }

    #[test]
    fn a_blank_puzzle_reads_back_as_a_row() {
        let cells = vec![0u8; 3 * 81];
        let parsed = parse(&format(&cells, 9, b'.', &[]), 0, 1, 0, None);
        assert_eq!((parsed.count(), parsed.bad.len()), (3, 0));
        assert_eq!(parsed.cells, cells);
    }
}
