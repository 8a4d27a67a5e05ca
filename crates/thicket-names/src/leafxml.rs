//! LeafXML, "Tag assemblies": names, and namespace prefixes (names without `:`).

/// True for a codepoint that may appear anywhere in a LeafXML name.
#[inline]
pub fn is_name_char(c: char) -> bool {
    match c as u32 {
        0x2D | 0x2E | 0x30..=0x39 | 0x3A | 0x5F | 0x41..=0x5A | 0x61..=0x7A | 0xB7 => true,
        0xD7 | 0xF7 | 0x37E => false,
        0xC0..=0x1FFF => true,
        0x200C | 0x200D | 0x203F | 0x2040 => true,
        0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF | 0xF900..=0xFDCF => true,
        cp @ 0xFDF0..=0xEFFFD => cp & 0xFFFE != 0xFFFE,
        _ => false,
    }
}

/// True for a codepoint that may start a LeafXML name: a name codepoint other than `-`, `.`,
/// `0-9`, U+00B7, U+0300..=U+036F, U+203F and U+2040.
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    is_name_char(c)
        && !matches!(c as u32, 0x2D | 0x2E | 0x30..=0x39 | 0xB7 | 0x300..=0x36F | 0x203F | 0x2040)
}

/// A LeafXML name: one or more name codepoints, the first a name start codepoint. (Names may
/// contain `:`; the namespace rules decide what a colon means.)
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// A valid namespace prefix or local part: a name without `:`.
pub fn is_prefix(s: &str) -> bool {
    is_name(s) && !s.contains(':')
}

/// LeafXML whitespace inside tags: HT, LF, SP (after line-break normalization).
#[inline]
pub fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | ' ')
}
