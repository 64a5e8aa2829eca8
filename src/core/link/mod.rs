//! Puzzles as they are published: f-puzzles and SudokuPad links, read into a grid with its
//! rules and metadata ([`Puzzle`]) and written back.
//!
//! - `lz`: LZ-string's base64 form, the payload of every link;
//! - `json`: a small JSON reader and writer that keeps key order and caps nesting;
//! - `url`: the link forms, and the short links refused because they need the network;
//! - `fpuzzles`: f-puzzles JSON to and from the [`Rules`] model, refusing what it cannot model;
//! - `sudokupad`: SudokuPad's own `scl`/`ctc` payloads, where their elements map onto the model.
//!
//! This sits above `grid/` and `rules/` (it builds grids and rules) and below `search/` and
//! `make/`, which never look at links.

pub mod fpuzzles;
pub mod json;
pub mod lz;
pub mod sudokupad;
pub mod url;

use crate::core::error::{Error, Result};
use crate::core::grid::shape::{suggest_box, BoxShape};
use crate::core::rules::Rules;

use json::Json;

/// f-puzzles' default box for a side: the most square one, rows no taller than wide (6: 2x3),
/// or the rows themselves (`1 x n`) on a prime side.
pub fn default_box(n: usize) -> (usize, usize) {
    suggest_box(n).unwrap_or((1, n))
}

/// A grid with its rules and what was published with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The side of the grid.
    pub size: usize,
    /// The givens, row-major, 0 for an empty cell.
    pub givens: Vec<u8>,
    pub rules: Rules,
    pub title: Option<String>,
    pub author: Option<String>,
    /// The rules as the setter wrote them.
    pub rules_text: Option<String>,
    /// The solution the payload states, row-major (0 where it leaves a cell open). Kept for
    /// the caller; never used to answer.
    pub solution: Option<Vec<u8>>,
    /// f-puzzles keys without rule meaning (cosmetics, options, messages), written back as
    /// they came.
    pub kept: Vec<(String, Json)>,
}

impl Puzzle {
    /// A puzzle of `givens` (row-major, side `size`) under `rules`, checked: the grid's shape,
    /// the values, and that the rules fit it.
    pub fn new(size: usize, givens: Vec<u8>, rules: Rules) -> Result<Puzzle> {
        let puzzle = Puzzle {
            size,
            givens,
            rules,
            title: None,
            author: None,
            rules_text: None,
            solution: None,
            kept: Vec::new(),
        };
        puzzle.check()?;
        Ok(puzzle)
    }

    /// The box shape the grid is read with: f-puzzles' default boxes (rows no taller than
    /// wide, the rows themselves on a prime side), any where jigsaw regions replace them.
    pub fn shape(&self) -> Result<BoxShape> {
        let boxes = match self.rules.box_for(None)? {
            Some(boxes) => Some(boxes),
            None if self.rules.replaces_boxes() => None,
            None => Some(default_box(self.size)),
        };
        BoxShape::for_size(self.size, boxes)
    }

    /// Checks sizes and values: what every puzzle built here meets.
    pub fn check(&self) -> Result<()> {
        let n = self.size;
        if !(3..=fpuzzles::MAX_SIZE).contains(&n) {
            return Err(Error::Link(format!(
                "a Puzzle's side is 3 to {}, what f-puzzles and SudokuPad links hold, not {n}",
                fpuzzles::MAX_SIZE
            )));
        }
        if self.givens.len() != n * n {
            return Err(Error::Shape(format!(
                "a {n}x{n} puzzle has {} cells, not {}",
                n * n,
                self.givens.len()
            )));
        }
        if let Some(i) = self.givens.iter().position(|&v| usize::from(v) > n) {
            return Err(Error::Link(format!(
                "cell ({}, {}) holds {}, but a {n}x{n} grid holds 1 to {n}",
                i / n,
                i % n,
                self.givens[i]
            )));
        }
        if let Some(solution) = &self.solution {
            if solution.len() != n * n || solution.iter().any(|&v| usize::from(v) > n) {
                return Err(Error::Link(format!(
                    "the stated solution is not a {n}x{n} grid of 1 to {n}"
                )));
            }
        }
        let shape = self.shape()?;
        self.rules.check_shape(shape)
    }

    /// Reads a link: f-puzzles (`?load=`), SudokuPad carrying an f-puzzles payload, or
    /// SudokuPad's own `scl`/`ctc` payload; a bare `fpuzzles...`/`scl...` id too.
    pub fn from_url(link: &str) -> Result<Puzzle> {
        match url::parse_link(link)? {
            url::Payload::FPuzzles(payload) => Puzzle::from_fpuzzles_payload(&payload),
            url::Payload::SudokuPad(payload) => sudokupad::from_payload(&payload),
        }
    }

    /// Reads f-puzzles data given as text: its JSON, its LZ-string payload, or a link.
    pub fn from_fpuzzles_text(text: &str) -> Result<Puzzle> {
        let trimmed = text.trim();
        if trimmed.starts_with('{') || trimmed.starts_with('[') || trimmed.starts_with('"') {
            return fpuzzles::from_json(&json::parse(trimmed)?);
        }
        if trimmed.contains("://") || trimmed.starts_with("fpuz") || trimmed.starts_with("scl") {
            return Puzzle::from_url(trimmed);
        }
        Puzzle::from_fpuzzles_payload(trimmed)
    }

    /// Reads an f-puzzles LZ-string payload.
    pub fn from_fpuzzles_payload(payload: &str) -> Result<Puzzle> {
        fpuzzles::from_json(&decode_payload(payload)?)
    }

    /// The puzzle as f-puzzles JSON.
    pub fn to_fpuzzles(&self) -> Json {
        fpuzzles::to_json(self)
    }

    /// The f-puzzles payload: LZ-string base64 of the JSON.
    pub fn to_fpuzzles_payload(&self) -> String {
        let text = self.to_fpuzzles().write();
        lz::compress_base64(&text.encode_utf16().collect::<Vec<_>>())
    }

    /// A link that opens the puzzle on `site`.
    pub fn to_url(&self, site: Site) -> String {
        let payload = self.to_fpuzzles_payload();
        match site {
            Site::FPuzzles => format!("https://f-puzzles.com/?load={payload}"),
            Site::SudokuPad => format!("https://sudokupad.app/fpuzzles{payload}"),
        }
    }
}

/// Where a link opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    FPuzzles,
    SudokuPad,
}

impl Site {
    pub fn from_name(name: &str) -> Result<Site> {
        match name.to_ascii_lowercase().as_str() {
            "f-puzzles" | "fpuzzles" => Ok(Site::FPuzzles),
            "sudokupad" => Ok(Site::SudokuPad),
            _ => Err(Error::Link(format!(
                "site must be 'f-puzzles' or 'sudokupad', got {name:?}"
            ))),
        }
    }
}

/// An LZ-string payload decoded into JSON (lone surrogates, which no text holds, become
/// U+FFFD).
pub fn decode_payload(payload: &str) -> Result<Json> {
    let units = lz::decompress_base64(payload)?;
    if units.is_empty() {
        return Err(Error::Link("the payload decodes to nothing".into()));
    }
    let text = String::from_utf16_lossy(&units);
    json::parse(&text).map_err(|err| match err {
        Error::Link(msg) => Error::Link(format!("the payload decodes, but not to a puzzle: {msg}")),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published puzzles of `tests/data/published_links.json`: each payload, decoded and
    /// encoded again, is the same text (the encoder is LZ-string's, unit for unit); each
    /// puzzle is read or refused by name, and what is read round-trips.
    #[test]
    fn published_links() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/published_links.json"
        );
        let corpus = json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut read = 0;
        for entry in corpus.get("puzzles").unwrap().as_array().unwrap() {
            let link = entry.get("link").unwrap().as_str().unwrap();
            let title = entry.get("title").unwrap().as_str().unwrap();
            let payload = link.split_once("?load=").unwrap().1;
            let units = lz::decompress_base64(payload).unwrap();
            assert_eq!(lz::compress_base64(&units), payload, "{title}");
            match Puzzle::from_url(link) {
                Ok(puzzle) => {
                    assert!(
                        puzzle.title.as_deref().is_none_or(|t| t == title),
                        "{title}"
                    );
                    let again = Puzzle::from_url(&puzzle.to_url(Site::SudokuPad)).unwrap();
                    assert_eq!(again, puzzle, "{title}");
                    read += 1;
                }
                Err(Error::Rules(msg)) => assert!(msg.contains("is not modelled"), "{msg}"),
                Err(other) => panic!("{title}: {other}"),
            }
        }
        assert!(read >= 30, "{read}");
    }

    #[test]
    fn puzzles_check_their_shape() {
        assert!(Puzzle::new(4, vec![0; 15], Rules::default()).is_err());
        assert!(Puzzle::new(4, vec![5; 16], Rules::default()).is_err());
        assert!(Puzzle::new(2, vec![0; 4], Rules::default()).is_err());
        let p = Puzzle::new(4, vec![0; 16], Rules::default()).unwrap();
        assert_eq!(Puzzle::from_url(&p.to_url(Site::FPuzzles)), Ok(p));
        // A prime side reads with its rows as boxes, another side with f-puzzles' default box.
        let seven = Puzzle::new(7, vec![0; 49], Rules::default()).unwrap();
        assert!(seven.shape().unwrap().rows_as_boxes());
        let six = Puzzle::new(6, vec![0; 36], Rules::default()).unwrap();
        assert_eq!(
            (six.shape().unwrap().rows(), six.shape().unwrap().cols()),
            (2, 3)
        );
    }
}
