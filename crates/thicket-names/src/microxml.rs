//! "Error recovery for MicroXML", lexical tokens: `NAME_START_CHAR`, `NAME_CHAR`, `S`.

use crate::ascii::{self, MICRO_NAME, MICRO_NAME_START};

/// `NAME_START_CHAR ::= [A-Za-z_:$] | [#x80-#x10FFFF]`
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    if c.is_ascii() {
        ascii::is(c as u8, MICRO_NAME_START)
    } else {
        true
    }
}

/// `NAME_CHAR ::= NAME_START_CHAR | [0-9] | "-" | "."`
#[inline]
pub fn is_name_char(c: char) -> bool {
    if c.is_ascii() {
        ascii::is(c as u8, MICRO_NAME)
    } else {
        true
    }
}

/// `S ::= #x9 | #xA | #xC | #x20`
#[inline]
pub fn is_s(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{C}' | ' ')
}

/// `NAME ::= NAME_START_CHAR NAME_CHAR*`
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}
