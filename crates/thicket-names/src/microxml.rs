//! "Error recovery for MicroXML", lexical tokens: `NAME_START_CHAR`, `NAME_CHAR`, `NAME`, `S`,
//! by character and by input byte.
//!
//! The byte classes ([`BYTES`]) serve a tokenizer that reads UTF-8 bytes: every byte of a
//! non-ASCII character is a `NAME_START_CHAR` byte (all of U+0080..=U+10FFFF is), so a `NAME`
//! is a run of name bytes and never ends inside a character. The same table carries the ASCII
//! part of the MicroXML 2012 name classes ([`crate::microxml2012`]), so that one pass over a
//! name finds its end and whether it can be a MicroXML `name` without decoding it.

use crate::ascii::{self, MICRO_NAME, MICRO_NAME_START, XML_NAME, XML_NAME_START};

/// Byte class: the byte may start a `NAME` (`[A-Za-z_:$]`, or any byte of a non-ASCII
/// character).
pub const NAME_START: u8 = 1 << 0;
/// Byte class: the byte may continue a `NAME` (`NAME_START`, `[0-9]`, `-`, `.`).
pub const NAME_CHAR: u8 = 1 << 1;
/// Byte class: `S` (tab, LF, form feed, space) in input not yet newline-normalized, so CR too
/// (a CR, alone or before an LF, becomes the LF it normalizes to, and LF is `S`).
pub const S: u8 = 1 << 2;
/// Byte class: an ASCII MicroXML 2012 `nameStartChar` (`[A-Za-z_]`).
pub const STRICT_NAME_START: u8 = 1 << 3;
/// Byte class: an ASCII MicroXML 2012 `nameChar` (`[A-Za-z0-9_.-]`).
pub const STRICT_NAME_CHAR: u8 = 1 << 4;

/// The class bits of every byte (see the constants above).
pub static BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut c = 0;
        if b >= 0x80 {
            c |= NAME_START | NAME_CHAR;
        } else {
            let a = ascii::TABLE[i];
            if a & MICRO_NAME_START != 0 {
                c |= NAME_START;
            }
            if a & MICRO_NAME != 0 {
                c |= NAME_CHAR;
            }
            // MicroXML 2012 names are XML 1.0 names without `:`.
            if b != b':' && a & XML_NAME_START != 0 {
                c |= STRICT_NAME_START;
            }
            if b != b':' && a & XML_NAME != 0 {
                c |= STRICT_NAME_CHAR;
            }
            if matches!(b, b'\t' | b'\n' | 0x0C | b' ' | b'\r') {
                c |= S;
            }
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// True when byte `b` has any of the class bits in `class`.
#[inline(always)]
pub fn byte_is(b: u8, class: u8) -> bool {
    BYTES[b as usize] & class != 0
}

/// `NAME_START_CHAR ::= [A-Za-z_:$] | [#x80-#x10FFFF]`
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    !c.is_ascii() || byte_is(c as u8, NAME_START)
}

/// `NAME_CHAR ::= NAME_START_CHAR | [0-9] | "-" | "."`
#[inline]
pub fn is_name_char(c: char) -> bool {
    !c.is_ascii() || byte_is(c as u8, NAME_CHAR)
}

/// `S ::= #x9 | #xA | #xC | #x20`
#[inline]
pub fn is_s(c: char) -> bool {
    c.is_ascii() && c != '\r' && byte_is(c as u8, S)
}

/// `NAME ::= NAME_START_CHAR NAME_CHAR*`
pub fn is_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && name_len(b) == b.len()
}

/// The length in bytes of the `NAME` at the start of `bytes` (UTF-8), 0 when there is none.
#[inline]
pub fn name_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(&b) if byte_is(b, NAME_START) => {
            1 + bytes[1..]
                .iter()
                .take_while(|&&b| byte_is(b, NAME_CHAR))
                .count()
        }
        _ => 0,
    }
}

/// The length of the run of [`S`] bytes (CR included) at the start of `bytes`.
#[inline]
pub fn s_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| byte_is(b, S)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_agree_with_the_characters() {
        for b in 0..=0x7Fu8 {
            let c = b as char;
            assert_eq!(byte_is(b, NAME_START), is_name_start_char(c), "{b}");
            assert_eq!(byte_is(b, NAME_CHAR), is_name_char(c), "{b}");
            assert_eq!(byte_is(b, S), is_s(c) || b == b'\r', "{b}");
            assert_eq!(
                byte_is(b, STRICT_NAME_START),
                crate::microxml2012::is_name_start_char(c),
                "{b}"
            );
            assert_eq!(
                byte_is(b, STRICT_NAME_CHAR),
                crate::microxml2012::is_name_char(c),
                "{b}"
            );
        }
        for b in 0x80..=0xFFu8 {
            assert_eq!(BYTES[b as usize], NAME_START | NAME_CHAR);
        }
        assert_eq!(name_len("é1-x y".as_bytes()), 5);
        assert_eq!(name_len(b"1x"), 0);
        assert_eq!(s_len(b" \r\n\tx"), 4);
        assert!(is_name("$a:b") && !is_name("") && !is_name("a b"));
    }
}
