//! The HTML standard's ASCII classes (Infra), as the tokenizer uses them.

use crate::ascii::{self, ALPHA, DIGIT, HEX, HTML_SPACE};

/// ASCII upper alpha or ASCII lower alpha.
#[inline]
pub fn is_ascii_alpha(b: u8) -> bool {
    ascii::is(b, ALPHA)
}

/// ASCII digit or ASCII alpha.
#[inline]
pub fn is_ascii_alphanumeric(b: u8) -> bool {
    ascii::is(b, ALPHA | DIGIT)
}

/// ASCII digit.
#[inline]
pub fn is_ascii_digit(b: u8) -> bool {
    ascii::is(b, DIGIT)
}

/// ASCII hex digit: `0-9`, `A-F`, `a-f`.
#[inline]
pub fn is_ascii_hex_digit(b: u8) -> bool {
    ascii::is(b, HEX)
}

/// ASCII whitespace: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE.
#[inline]
pub fn is_ascii_whitespace(b: u8) -> bool {
    ascii::is(b, HTML_SPACE)
}

/// The same classes for a `char` (false for every non-ASCII character).
#[inline]
pub fn is_ascii_whitespace_char(c: char) -> bool {
    c.is_ascii() && is_ascii_whitespace(c as u8)
}
