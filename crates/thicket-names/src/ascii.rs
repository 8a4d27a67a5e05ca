//! A 256-entry table of ASCII character classes, shared by every module.

/// ASCII upper or lower alpha.
pub const ALPHA: u8 = 1 << 0;
/// ASCII digit `0-9`.
pub const DIGIT: u8 = 1 << 1;
/// ASCII hex digit `0-9a-fA-F`.
pub const HEX: u8 = 1 << 2;
/// HTML ASCII whitespace: TAB, LF, FF, CR, SPACE.
pub const HTML_SPACE: u8 = 1 << 3;
/// XML 1.0 NameStartChar among ASCII: `:`, `A-Z`, `_`, `a-z`.
pub const XML_NAME_START: u8 = 1 << 4;
/// XML 1.0 NameChar among ASCII: NameStartChar, `-`, `.`, `0-9`.
pub const XML_NAME: u8 = 1 << 5;
/// MicroXML error recovery NAME_START_CHAR among ASCII: `A-Za-z_:$`.
pub const MICRO_NAME_START: u8 = 1 << 6;
/// MicroXML error recovery NAME_CHAR among ASCII: NAME_START_CHAR, `0-9`, `-`, `.`.
pub const MICRO_NAME: u8 = 1 << 7;

const fn build() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        let mut f = 0;
        let alpha = b.is_ascii_alphabetic();
        let digit = b.is_ascii_digit();
        if alpha {
            f |= ALPHA;
        }
        if digit {
            f |= DIGIT;
        }
        if b.is_ascii_hexdigit() {
            f |= HEX;
        }
        if crate::html::is_whitespace_byte(b) {
            f |= HTML_SPACE;
        }
        if alpha || b == b':' || b == b'_' {
            f |= XML_NAME_START | XML_NAME;
        }
        if digit || b == b'-' || b == b'.' {
            f |= XML_NAME | MICRO_NAME;
        }
        if alpha || b == b':' || b == b'_' || b == b'$' {
            f |= MICRO_NAME_START | MICRO_NAME;
        }
        t[i] = f;
        i += 1;
    }
    t
}

/// Class bits for every byte; bytes 0x80..=0xFF have no bits (they are not ASCII).
pub static TABLE: [u8; 256] = build();

/// True when byte `b` has any of the class bits in `class`.
#[inline(always)]
pub fn is(b: u8, class: u8) -> bool {
    TABLE[b as usize] & class != 0
}
