//! Telling the link forms apart: which site, which payload, or why it cannot be read here.

use crate::core::error::{Error, Result};

/// What a link or pasted text carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// An f-puzzles payload: LZ-string base64 of f-puzzles JSON.
    FPuzzles(String),
    /// A SudokuPad `scl`/`ctc` payload: LZ-string base64 of SudokuPad's own (zipped) JSON.
    SudokuPad(String),
}

/// Decodes `%XX` escapes (never `+`: base64 uses it). A `%` not followed by two hex digits is
/// kept as it is.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ASCII hex digits");
            out.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn network(what: &str) -> Error {
    Error::Link(format!(
        "{what} is a short link: the puzzle itself is stored on a server, and reading it needs \
         the network, which sudoku_rs never uses. Open the link in a browser and paste the long \
         form instead: in f-puzzles, the link from 'Export' / 'Copy link' (it has ?load=...); \
         in SudokuPad, the puzzle's data from the menu ('Open in f-puzzles', or the scl... \
         payload)"
    ))
}

/// The SudokuPad puzzle id (`fpuzzles...`, `scl...`, `ctc...`) as a payload.
fn sudokupad_id(id: &str, link: &str) -> Result<Payload> {
    let id = percent_decode(id);
    let id = id.trim();
    for prefix in ["fpuzzles", "fpuz"] {
        if let Some(rest) = id.strip_prefix(prefix) {
            return Ok(Payload::FPuzzles(rest.to_string()));
        }
    }
    for prefix in ["scl", "ctc"] {
        if let Some(rest) = id.strip_prefix(prefix) {
            return Ok(Payload::SudokuPad(rest.to_string()));
        }
    }
    if id.starts_with("scf") {
        return Err(Error::Link(
            "SudokuPad's legacy 'scf' classic format is not read; use the f-puzzles or scl \
             form of the puzzle"
                .into(),
        ));
    }
    if id.is_empty() {
        return Err(Error::Link(format!("{link:?} names no puzzle")));
    }
    Err(network(&format!("{link:?} (a SudokuPad puzzle id)")))
}

/// The value of query parameter `name` in `query` (the text after `?`), raw.
fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

const SUDOKUPAD_HOSTS: [&str; 5] = [
    "sudokupad.app",
    "www.sudokupad.app",
    "beta.sudokupad.app",
    "app.crackingthecryptic.com",
    "www.app.crackingthecryptic.com",
];

/// Reads a link (or a bare `fpuzzles...`/`scl...`/`ctc...` payload) into its payload.
pub fn parse_link(link: &str) -> Result<Payload> {
    let text = link.trim();
    if text.is_empty() {
        return Err(Error::Link("the link is empty".into()));
    }
    let lower = text.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .map(|r| &text[text.len() - r.len()..]);
    let Some(rest) = rest else {
        // Not a URL: a bare SudokuPad id, such as Sudoku-Bench's encoded_puzzle.
        if ["fpuzzles", "fpuz", "scl", "ctc"]
            .iter()
            .any(|p| text.starts_with(p))
        {
            return sudokupad_id(text, link);
        }
        return Err(Error::Link(format!(
            "{:?} is not a puzzle link: expected https://f-puzzles.com/?load=..., a SudokuPad \
             link (https://sudokupad.app/fpuzzles..., .../scl..., ?puzzleid=...), or a bare \
             fpuzzles.../scl.../ctc... payload",
            shorten(text)
        )));
    };
    let (host, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let host = host.to_ascii_lowercase();
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, q.split('#').next().unwrap_or("")),
        None => (path.split('#').next().unwrap_or(""), ""),
    };
    match host.as_str() {
        "f-puzzles.com" | "www.f-puzzles.com" => {
            if let Some(payload) = query_param(query, "load") {
                return Ok(Payload::FPuzzles(percent_decode(payload)));
            }
            if query_param(query, "id").is_some() {
                return Err(network(&format!(
                    "{:?} (an f-puzzles ?id= link)",
                    shorten(text)
                )));
            }
            Err(Error::Link(format!(
                "{:?} is an f-puzzles link without a puzzle (?load=...)",
                shorten(text)
            )))
        }
        h if SUDOKUPAD_HOSTS.contains(&h) => {
            if let Some(id) = query_param(query, "puzzleid") {
                return sudokupad_id(id, text);
            }
            let mut id = path.trim_start_matches('/');
            if h.ends_with("crackingthecryptic.com") {
                id = id
                    .strip_prefix("sudoku")
                    .unwrap_or(id)
                    .trim_start_matches('/');
            }
            sudokupad_id(id, text)
        }
        "tinyurl.com" | "www.tinyurl.com" | "bit.ly" | "tiny.cc" | "is.gd" | "goo.gl" | "t.co"
        | "shorturl.at" => Err(network(&format!("{:?}", shorten(text)))),
        _ => Err(Error::Link(format!(
            "{:?} is not a link sudoku_rs reads: f-puzzles (f-puzzles.com/?load=...) and \
             SudokuPad (sudokupad.app, beta.sudokupad.app, \
             app.crackingthecryptic.com/sudoku) links are",
            shorten(text)
        ))),
    }
}

/// The start of a long text, for a message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_forms() {
        let f = |s: &str| Payload::FPuzzles(s.into());
        let s = |s: &str| Payload::SudokuPad(s.into());
        for (link, expected) in [
            ("https://f-puzzles.com/?load=N4Ig+a/b=", f("N4Ig+a/b=")),
            (
                "http://www.f-puzzles.com/?load=N4Ig%2Ba%2Fb%3D",
                f("N4Ig+a/b="),
            ),
            ("https://sudokupad.app/fpuzzlesN4Ig+a", f("N4Ig+a")),
            ("https://sudokupad.app/fpuzN4Ig+a?setting-x=1", f("N4Ig+a")),
            (
                "https://beta.sudokupad.app/?puzzleid=fpuzzlesN4Ig%2Ba",
                f("N4Ig+a"),
            ),
            (
                "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzlesN4Ig",
                f("N4Ig"),
            ),
            (
                "https://app.crackingthecryptic.com/sudoku/fpuzzlesN4Ig",
                f("N4Ig"),
            ),
            ("https://sudokupad.app/sclN4Ig", s("N4Ig")),
            ("https://sudokupad.app/ctcN4Ig", s("N4Ig")),
            ("sclN4Ig", s("N4Ig")),
            ("  fpuzzlesN4Ig\n", f("N4Ig")),
        ] {
            assert_eq!(parse_link(link), Ok(expected), "{link}");
        }
        for (link, says) in [
            ("https://f-puzzles.com/?id=abc", "network"),
            ("https://sudokupad.app/i9jmywmume", "network"),
            ("https://sudokupad.app/someone/a-puzzle", "network"),
            ("https://tinyurl.com/abc", "network"),
            ("https://example.com/?load=abc", "not a link"),
            ("hello", "not a puzzle link"),
            ("", "empty"),
            ("https://f-puzzles.com/", "without a puzzle"),
        ] {
            let err = parse_link(link).unwrap_err().to_string();
            assert!(err.contains(says), "{link}: {err}");
        }
        assert_eq!(percent_decode("a%2b%zz%4"), "a+%zz%4");
    }
}
