//! A small JSON reader and writer for puzzle payloads: objects keep their key order (a puzzle
//! written back lists its keys as it came), nesting is capped so a hostile payload cannot
//! exhaust the stack, and every error names its position.

use crate::core::error::{Error, Result};

/// Deeper nesting than any puzzle has (a grid is three levels, a line's cells four).
pub const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Keys in the order they came; a repeated key keeps its last value, as JavaScript does.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value under `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(items) => items.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "a list",
            Json::Object(_) => "an object",
        }
    }

    /// Whether the value is "empty" as f-puzzles writes absent things: null, false, "", [].
    pub fn is_blank(&self) -> bool {
        match self {
            Json::Null | Json::Bool(false) => true,
            Json::String(s) => s.is_empty(),
            Json::Array(a) => a.is_empty(),
            _ => false,
        }
    }

    /// Compact JSON text, as JavaScript's `JSON.stringify` writes it.
    pub fn write(&self) -> String {
        let mut out = String::new();
        self.write_into(&mut out);
        out
    }

    fn write_into(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(x) => write_number(*x, out),
            Json::String(s) => write_string(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_into(out);
                }
                out.push(']');
            }
            Json::Object(items) => {
                out.push('{');
                for (i, (key, value)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write_into(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_number(x: f64, out: &mut String) {
    use std::fmt::Write;
    if !x.is_finite() {
        out.push_str("null");
    } else if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 {
        let _ = write!(out, "{}", x as i64);
    } else {
        let _ = write!(out, "{x}");
    }
}

fn write_string(s: &str, out: &mut String) {
    use std::fmt::Write;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Reads one JSON value filling all of `text` (surrounding white space allowed).
pub fn parse(text: &str) -> Result<Json> {
    let mut p = Parser {
        bytes: text.as_bytes(),
        text,
        at: 0,
    };
    p.space();
    let value = p.value(0)?;
    p.space();
    if p.at < p.bytes.len() {
        return Err(p.error("more text after the end of the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        Error::Link(format!(
            "the puzzle's JSON is malformed at character {}: {what}",
            self.at
        ))
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json> {
        if depth > MAX_DEPTH {
            return Err(self.error(&format!("nested more than {MAX_DEPTH} deep")));
        }
        match self.bytes.get(self.at) {
            None => Err(self.error("the text ends where a value should be")),
            Some(b'{') => {
                self.at += 1;
                let mut items: Vec<(String, Json)> = Vec::new();
                self.space();
                if self.eat("}") {
                    return Ok(Json::Object(items));
                }
                loop {
                    self.space();
                    if self.bytes.get(self.at) != Some(&b'"') {
                        return Err(self.error("expected a key in double quotes"));
                    }
                    let key = self.string()?;
                    self.space();
                    if !self.eat(":") {
                        return Err(self.error("expected ':' after a key"));
                    }
                    self.space();
                    let value = self.value(depth + 1)?;
                    match items.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = value,
                        None => items.push((key, value)),
                    }
                    self.space();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("}") {
                        return Ok(Json::Object(items));
                    }
                    return Err(self.error("expected ',' or '}' in an object"));
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.space();
                if self.eat("]") {
                    return Ok(Json::Array(items));
                }
                loop {
                    self.space();
                    items.push(self.value(depth + 1)?);
                    self.space();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        return Ok(Json::Array(items));
                    }
                    return Err(self.error("expected ',' or ']' in a list"));
                }
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => {
                let c = self.text[self.at..].chars().next().unwrap_or('?');
                Err(self.error(&format!("unexpected {c:?}")))
            }
        }
    }

    fn number(&mut self) -> Result<Json> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
        }
        let literal = &self.text[start..self.at];
        match literal.parse::<f64>() {
            Ok(x) if x.is_finite() && !literal.ends_with('.') && !literal.starts_with("-.") => {
                Ok(Json::Number(x))
            }
            _ => {
                self.at = start;
                Err(self.error(&format!("{literal:?} is not a number")))
            }
        }
    }

    fn hex4(&mut self) -> Result<u16> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("\\u must be followed by four hex digits"))?;
        self.at += 4;
        Ok(u16::from_str_radix(digits, 16).expect("checked hex"))
    }

    /// A string at `self.at` (which holds its opening quote).
    fn string(&mut self) -> Result<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run_start = self.at;
            while let Some(&b) = self.bytes.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[run_start..self.at]);
            match self.bytes.get(self.at) {
                None => return Err(self.error("a string is not closed")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let Some(&escape) = self.bytes.get(self.at) else {
                        return Err(self.error("a string is not closed"));
                    };
                    self.at += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let high = self.hex4()?;
                            let mut units = vec![high];
                            if (0xd800..0xdc00).contains(&high)
                                && self.bytes[self.at..].starts_with(b"\\u")
                            {
                                let save = self.at;
                                self.at += 2;
                                let low = self.hex4()?;
                                if (0xdc00..0xe000).contains(&low) {
                                    units.push(low);
                                } else {
                                    self.at = save;
                                }
                            }
                            out.push_str(&String::from_utf16_lossy(&units));
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.error("an unknown escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.error("a control character inside a string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes() {
        let text =
            r#"{"a":[1,2.5,-3,true,false,null],"b":{"c":"d\"\\\n\u00e9\ud83e\udde9"},"a":7}"#;
        let value = parse(text).unwrap();
        assert_eq!(value.get("a"), Some(&Json::Number(7.0)));
        assert_eq!(
            value.get("b").unwrap().get("c").unwrap().as_str(),
            Some("d\"\\\né🧩")
        );
        assert_eq!(parse(&value.write()).unwrap(), value);
        assert_eq!(
            parse(" [ 1 , { } , [ ] , \"x\" ] ").unwrap().write(),
            r#"[1,{},[],"x"]"#
        );
    }

    #[test]
    fn malformed_text_is_an_error() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "tru",
            "1 2",
            "\"abc",
            "\"\\x\"",
            "01x",
            "-",
            "1.",
            "{1:2}",
            "\"\\u12\"",
        ] {
            let err = parse(bad).unwrap_err().to_string();
            assert!(err.contains("malformed"), "{bad:?}: {err}");
        }
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(parse(&deep).unwrap_err().to_string().contains("nested"));
    }
}
