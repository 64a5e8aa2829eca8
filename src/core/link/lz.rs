//! LZ-string's `compressToBase64` and `decompressFromBase64`, the payload of f-puzzles and
//! SudokuPad links. The stream is UTF-16 code units (a title may hold any text, surrogate pairs
//! included), packed into 6-bit base64 digits, each code least significant bit first.
//!
//! The decoder is linear in its output: every code it reads adds at least one unit, and the
//! output is capped ([`MAX_DECODED`]), so a hostile payload (a code that doubles the last
//! entry, over and over) ends with an error instead of exhausting memory. Dictionary entries
//! are kept as ranges of the output, never as copies.

use std::collections::HashMap;

use crate::core::error::{Error, Result};

/// The most UTF-16 units a payload may decode to: far beyond any published puzzle (a
/// 16x16 with every constraint is a few hundred thousand), small enough to hold in memory.
pub const MAX_DECODED: usize = 1 << 22;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn link_error(msg: impl Into<String>) -> Error {
    Error::Link(msg.into())
}

/// The base64 digit of one character. A space stands for `+`: a link that went through a form
/// decoder had its `+` turned into spaces, and a space is never a digit otherwise.
fn digit(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' | b' ' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The base64 text as 6-bit digits, with `=` padding allowed only at the end.
fn digits(text: &str) -> Result<Vec<u8>> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 3 {
        return Err(link_error(
            "the payload ends in more than three '=': it is not LZ-string base64",
        ));
    }
    body.bytes()
        .enumerate()
        .map(|(i, b)| {
            digit(b).ok_or_else(|| {
                let shown = body[i..].chars().next().unwrap_or('?');
                link_error(format!(
                    "the payload has {shown:?} at position {i}, which is not a base64 \
                     character (A-Z, a-z, 0-9, + and /): it is not LZ-string base64, or it \
                     was cut or changed on the way"
                ))
            })
        })
        .collect()
}

/// Reads the bit stream: each base64 digit's bits from the most significant down, past the
/// end zeros (as LZ-string does; the code count check ends the stream there).
struct Bits<'a> {
    digits: &'a [u8],
    index: usize,
    value: u8,
    mask: u8,
}

impl<'a> Bits<'a> {
    fn new(digits: &'a [u8]) -> Self {
        Bits {
            digits,
            index: 1,
            value: digits.first().copied().unwrap_or(0),
            mask: 32,
        }
    }

    /// `count` bits, the first read the least significant.
    fn read(&mut self, count: u32) -> u32 {
        let mut bits = 0;
        for k in 0..count {
            if self.value & self.mask != 0 {
                bits |= 1 << k;
            }
            self.mask >>= 1;
            if self.mask == 0 {
                self.mask = 32;
                self.value = self.digits.get(self.index).copied().unwrap_or(0);
                self.index += 1;
            }
        }
        bits
    }

    /// Whether the reader has gone more than one digit past the end (LZ-string's test).
    fn exhausted(&self) -> bool {
        self.index > self.digits.len()
    }
}

/// Decodes `compressToBase64` output into UTF-16 code units.
pub fn decompress_base64(text: &str) -> Result<Vec<u16>> {
    decompress_capped(text, MAX_DECODED)
}

/// As [`decompress_base64`], refusing a payload that decodes to more than `cap` units.
pub fn decompress_capped(text: &str, cap: usize) -> Result<Vec<u16>> {
    let digits = digits(text)?;
    if digits.is_empty() {
        return Err(link_error("the payload is empty"));
    }
    let truncated = || {
        link_error(
            "the payload's LZ-string stream ends before its end mark: the link was cut short \
             (copy the whole link)",
        )
    };
    let too_long = || {
        link_error(format!(
            "the payload decodes to more than {cap} characters; refused"
        ))
    };
    let mut bits = Bits::new(&digits);
    let mut out: Vec<u16> = Vec::new();
    // Entries 0, 1 and 2 are the codes "8-bit literal", "16-bit literal" and "end"; from 3 on,
    // (start, length) ranges of `out`.
    let mut dict: Vec<(usize, usize)> = vec![(0, 0); 3];
    let first = match bits.read(2) {
        0 => bits.read(8),
        1 => bits.read(16),
        // The end mark first: the empty text.
        _ => return Ok(Vec::new()),
    };
    out.push(first as u16);
    dict.push((0, 1));
    let mut w = (0usize, 1usize);
    let mut num_bits = 3u32;
    let mut enlarge_in = 4u64;
    loop {
        if bits.exhausted() {
            return Err(truncated());
        }
        let code = bits.read(num_bits) as usize;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 }) as u16;
                if out.len() >= cap {
                    return Err(too_long());
                }
                out.push(unit);
                dict.push((out.len() - 1, 1));
                enlarge_in -= 1;
                if enlarge_in == 0 {
                    enlarge_in = 1 << num_bits;
                    num_bits += 1;
                }
                // The literal is already written out; it is this step's entry.
                let entry = (out.len() - 1, 1);
                grow(&mut dict, w, entry, &mut enlarge_in, &mut num_bits, &out);
                w = entry;
                continue;
            }
            2 => return Ok(out),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let start = out.len();
        let entry_len = match code.cmp(&dict.len()) {
            std::cmp::Ordering::Less => dict[code].1,
            std::cmp::Ordering::Equal => w.1 + 1,
            std::cmp::Ordering::Greater => {
                return Err(link_error(format!(
                    "the payload's LZ-string stream is broken: code {code} refers to no entry \
                     (the dictionary has {})",
                    dict.len()
                )))
            }
        };
        if out.len() + entry_len > cap {
            return Err(too_long());
        }
        if code < dict.len() {
            let (s, l) = dict[code];
            out.extend_from_within(s..s + l);
        } else {
            out.extend_from_within(w.0..w.0 + w.1);
            out.push(out[w.0]);
        }
        let entry = (start, entry_len);
        grow(&mut dict, w, entry, &mut enlarge_in, &mut num_bits, &out);
        w = entry;
    }
}

/// Adds `w` followed by the first unit of `entry` to the dictionary, and counts it.
fn grow(
    dict: &mut Vec<(usize, usize)>,
    w: (usize, usize),
    entry: (usize, usize),
    enlarge_in: &mut u64,
    num_bits: &mut u32,
    out: &[u16],
) {
    // `w` is immediately followed in `out` by `entry`, so `w` and entry's first unit are one
    // range.
    debug_assert_eq!(w.0 + w.1, entry.0);
    debug_assert!(entry.0 < out.len());
    dict.push((w.0, w.1 + 1));
    *enlarge_in -= 1;
    if *enlarge_in == 0 {
        *enlarge_in = 1 << *num_bits;
        *num_bits += 1;
    }
}

/// Writes the bit stream as base64 digits, each code least significant bit first.
struct Writer {
    out: Vec<u8>,
    value: u8,
    position: u32,
}

impl Writer {
    fn write(&mut self, mut value: u32, count: u32) {
        for _ in 0..count {
            self.value = (self.value << 1) | (value & 1) as u8;
            value >>= 1;
            if self.position == 5 {
                self.out.push(ALPHABET[usize::from(self.value)]);
                self.value = 0;
                self.position = 0;
            } else {
                self.position += 1;
            }
        }
    }
}

/// LZ-string's `compressToBase64`, unit for unit the text its JavaScript gives.
pub fn compress_base64(units: &[u16]) -> String {
    let mut w = Writer {
        out: Vec::with_capacity(units.len() / 2 + 4),
        value: 0,
        position: 0,
    };
    // The dictionary as a trie: (code of a prefix, next unit) -> code; single units by unit.
    let mut singles: HashMap<u16, u32> = HashMap::new();
    let mut pending: std::collections::HashSet<u16> = std::collections::HashSet::new();
    let mut children: HashMap<(u32, u16), u32> = HashMap::new();
    let mut dict_size = 3u32;
    let mut num_bits = 2u32;
    let mut enlarge_in = 2u64;
    // The current phrase: its code, and its first unit when it is a single unit.
    let mut phrase: Option<(u32, u16, bool)> = None;
    let emit = |w: &mut Writer,
                code: u32,
                unit: u16,
                single: bool,
                pending: &mut std::collections::HashSet<u16>,
                num_bits: &mut u32,
                enlarge_in: &mut u64| {
        if single && pending.remove(&unit) {
            if unit < 256 {
                w.write(0, *num_bits);
                w.write(u32::from(unit), 8);
            } else {
                w.write(1, *num_bits);
                w.write(u32::from(unit), 16);
            }
            *enlarge_in -= 1;
            if *enlarge_in == 0 {
                *enlarge_in = 1 << *num_bits;
                *num_bits += 1;
            }
        } else {
            w.write(code, *num_bits);
        }
        *enlarge_in -= 1;
        if *enlarge_in == 0 {
            *enlarge_in = 1 << *num_bits;
            *num_bits += 1;
        }
    };
    for &c in units {
        let c_code = *singles.entry(c).or_insert_with(|| {
            pending.insert(c);
            dict_size += 1;
            dict_size - 1
        });
        match phrase {
            None => phrase = Some((c_code, c, true)),
            Some((code, first, single)) => {
                if let Some(&next) = children.get(&(code, c)) {
                    phrase = Some((next, first, false));
                } else {
                    emit(
                        &mut w,
                        code,
                        first,
                        single,
                        &mut pending,
                        &mut num_bits,
                        &mut enlarge_in,
                    );
                    children.insert((code, c), dict_size);
                    dict_size += 1;
                    phrase = Some((c_code, c, true));
                }
            }
        }
    }
    if let Some((code, first, single)) = phrase {
        emit(
            &mut w,
            code,
            first,
            single,
            &mut pending,
            &mut num_bits,
            &mut enlarge_in,
        );
    }
    w.write(2, num_bits);
    // Flush: shift the last digit's bits into place.
    loop {
        w.value <<= 1;
        if w.position == 5 {
            w.out.push(ALPHABET[usize::from(w.value & 63)]);
            break;
        }
        w.position += 1;
    }
    let mut text = String::from_utf8(w.out).expect("base64 is ASCII");
    while text.len() % 4 != 0 {
        text.push('=');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn known_outputs_of_the_javascript() {
        // From lz-string 1.5.0's compressToBase64 in node.
        for (text, expected) in [("hello", "BYUwNmD2Q==="), ("", "Q===")] {
            assert_eq!(compress_base64(&units(text)), expected, "{text:?}");
            assert_eq!(decompress_base64(expected).unwrap(), units(text));
        }
    }

    /// Strings encoded by the LZ-string SudokuPad ships (tests/data/lz_reference.json): the
    /// encoder gives the same text, the decoder the same units, surrogates and all.
    #[test]
    fn the_javascript_reference() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lz_reference.json");
        let data = super::super::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let strings = data.get("strings").unwrap().as_array().unwrap();
        assert!(strings.len() >= 20);
        for entry in strings {
            let units: Vec<u16> = entry
                .get("units")
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|u| match u {
                    super::super::json::Json::Number(x) => *x as u16,
                    other => panic!("{other:?}"),
                })
                .collect();
            let expected = entry.get("base64").unwrap().as_str().unwrap();
            assert_eq!(compress_base64(&units), expected);
            assert_eq!(decompress_base64(expected).unwrap(), units);
        }
    }

    #[test]
    fn round_trips() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in [1usize, 2, 3, 7, 50, 300, 4000] {
            for alphabet in [2u64, 5, 300, 65536] {
                let text: Vec<u16> = (0..len).map(|_| (next() % alphabet) as u16).collect();
                let packed = compress_base64(&text);
                assert_eq!(
                    decompress_base64(&packed).unwrap(),
                    text,
                    "{len} {alphabet}"
                );
            }
        }
        let emoji = units("Tiré à part 🧩 « 数独 »");
        assert_eq!(decompress_base64(&compress_base64(&emoji)).unwrap(), emoji);
    }

    #[test]
    fn hostile_payloads_fail_with_a_message() {
        let good = compress_base64(&units(&"abc".repeat(100)));
        for bad in ["", "====", "ab$d", "A===="] {
            assert!(decompress_base64(bad).is_err(), "{bad:?}");
        }
        assert!(decompress_base64(&good[..good.len() / 2]).is_err());
        // A long run of one letter packs small and decodes big: past the cap, refused.
        let long = compress_base64(&vec![b'a' as u16; 100_000]);
        assert!(long.len() < 2000);
        let err = decompress_capped(&long, 50_000).unwrap_err().to_string();
        assert!(err.contains("more than 50000"), "{err}");
        assert_eq!(decompress_capped(&long, 100_000).unwrap().len(), 100_000);
        // Spaces stand for '+'.
        let plus = compress_base64(&units("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"));
        assert_eq!(
            decompress_base64(&plus.replace('+', " ")),
            decompress_base64(&plus)
        );
    }
}
