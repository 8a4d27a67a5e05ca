//! The HTML standard's ASCII classes (Infra), as the tokenizer uses them, and the byte class of
//! the input stream's checks (controls and noncharacters).

use crate::ascii::{self, ALPHA, DIGIT, HEX, HTML_SPACE};

/// ASCII whitespace as bytes: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE (the
/// one list; [`ascii::TABLE`]'s `HTML_SPACE` bit is built from it). For byte-class tables such
/// as a tokenizer's stop sets.
pub const ASCII_WHITESPACE: &[u8] = b"\t\n\x0C\r ";

/// ASCII upper alpha as bytes, `A` to `Z`, for byte-class tables (a name state stops at them to
/// lowercase them).
pub const ASCII_UPPER_ALPHA: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// ASCII upper alpha or ASCII lower alpha.
#[inline]
pub fn is_ascii_alpha(b: u8) -> bool {
    ascii::is(b, ALPHA)
}

/// ASCII upper alpha: `A-Z`.
#[inline]
pub fn is_ascii_upper_alpha(b: u8) -> bool {
    b.is_ascii_uppercase()
}

/// ASCII lower alpha: `a-z`.
#[inline]
pub fn is_ascii_lower_alpha(b: u8) -> bool {
    b.is_ascii_lowercase()
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

/// [`is_ascii_whitespace`] for a `char` (false for every non-ASCII character).
#[inline]
pub fn is_ascii_whitespace_char(c: char) -> bool {
    c.is_ascii() && is_ascii_whitespace(c as u8)
}

/// [`is_ascii_alpha`] for a `char`.
#[inline]
pub fn is_ascii_alpha_char(c: char) -> bool {
    c.is_ascii() && is_ascii_alpha(c as u8)
}

/// [`is_ascii_upper_alpha`] for a `char`.
#[inline]
pub fn is_ascii_upper_alpha_char(c: char) -> bool {
    c.is_ascii_uppercase()
}

/// [`is_ascii_alphanumeric`] for a `char`.
#[inline]
pub fn is_ascii_alphanumeric_char(c: char) -> bool {
    c.is_ascii() && is_ascii_alphanumeric(c as u8)
}

/// [`is_ascii_digit`] for a `char`.
#[inline]
pub fn is_ascii_digit_char(c: char) -> bool {
    c.is_ascii_digit()
}

/// [`is_ascii_hex_digit`] for a `char`.
#[inline]
pub fn is_ascii_hex_digit_char(c: char) -> bool {
    c.is_ascii_hexdigit()
}

/// Whether a character whose UTF-8 encoding starts with byte `b` may be one the HTML input
/// stream reports ("Preprocessing the input stream"): a control other than ASCII whitespace and
/// U+0000 (`control-character-in-input-stream`: `01`-`08`, `0B`, `0E`-`1F`, DEL, and the C1
/// controls, which start with `C2`) or a noncharacter (`noncharacter-in-input-stream`:
/// U+FDD0-U+FDEF, U+FFFE and U+FFFF start with `EF`, the other planes' with `F0`-`F4`). A
/// prefilter: the character itself decides.
#[inline]
pub const fn may_start_input_stream_error(b: u8) -> bool {
    INPUT_STREAM_ERROR_LEADS[b as usize]
}

/// [`may_start_input_stream_error`] as a table (for byte-class tables such as a tokenizer's
/// stop sets).
pub const INPUT_STREAM_ERROR_LEADS: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = (c < 0x20 && c != 0 && !is_whitespace_byte(c))
            || c == 0x7F
            || c == 0xC2
            || c == 0xEF
            || (c >= 0xF0 && c <= 0xF4);
        b += 1;
    }
    t
};

/// Membership in [`ASCII_WHITESPACE`], for tables built in a `const`.
pub(crate) const fn is_whitespace_byte(b: u8) -> bool {
    let mut i = 0;
    while i < ASCII_WHITESPACE.len() {
        if ASCII_WHITESPACE[i] == b {
            return true;
        }
        i += 1;
    }
    false
}
