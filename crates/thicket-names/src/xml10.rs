//! XML 1.0 (Fifth Edition), section 2.3 "Common Syntactic Constructs": `S`, `NameStartChar`
//! and `NameChar`.

use crate::ascii::{self, XML_NAME, XML_NAME_START};

/// `S ::= (#x20 | #x9 | #xD | #xA)+`: one whitespace character.
#[inline]
pub fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// `NameStartChar ::= ":" | [A-Z] | "_" | [a-z] | [#xC0-#xD6] | [#xD8-#xF6] | [#xF8-#x2FF] |
/// [#x370-#x37D] | [#x37F-#x1FFF] | [#x200C-#x200D] | [#x2070-#x218F] | [#x2C00-#x2FEF] |
/// [#x3001-#xD7FF] | [#xF900-#xFDCF] | [#xFDF0-#xFFFD] | [#x10000-#xEFFFF]`
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    if c.is_ascii() {
        return ascii::is(c as u8, XML_NAME_START);
    }
    matches!(c as u32,
        0xC0..=0xD6
        | 0xD8..=0xF6
        | 0xF8..=0x2FF
        | 0x370..=0x37D
        | 0x37F..=0x1FFF
        | 0x200C..=0x200D
        | 0x2070..=0x218F
        | 0x2C00..=0x2FEF
        | 0x3001..=0xD7FF
        | 0xF900..=0xFDCF
        | 0xFDF0..=0xFFFD
        | 0x10000..=0xEFFFF)
}

/// `NameChar ::= NameStartChar | "-" | "." | [0-9] | #xB7 | [#x0300-#x036F] | [#x203F-#x2040]`
#[inline]
pub fn is_name_char(c: char) -> bool {
    if c.is_ascii() {
        return ascii::is(c as u8, XML_NAME);
    }
    is_name_start_char(c) || matches!(c as u32, 0xB7 | 0x300..=0x36F | 0x203F..=0x2040)
}

/// `Name ::= NameStartChar (NameChar)*`
pub fn is_name(s: &str) -> bool {
    // An ASCII name (nearly every one) byte by byte, without decoding characters; a byte
    // outside the ASCII name characters sends the name through the characters.
    if let Some((&first, rest)) = s.as_bytes().split_first()
        && ascii::is(first, XML_NAME_START)
        && rest.iter().all(|&b| ascii::is(b, XML_NAME))
    {
        return true;
    }
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// `NCName`: a `Name` without `:` (Namespaces in XML 1.0).
pub fn is_ncname(s: &str) -> bool {
    is_name(s) && !s.contains(':')
}
