//! MicroXML (W3C MicroXML Community Group, 2012), the grammar validity is checked against:
//! `nameStartChar`, `nameChar`, `name`, the characters it forbids, and `s`.
//!
//! Its name classes are those of XML 1.0 without `:` ([`crate::xml10`]); its characters are every
//! code point but the controls other than tab, LF and CR, DEL, the C1 controls, surrogates and
//! noncharacters.

use crate::microxml::{BYTES, STRICT_NAME_CHAR, STRICT_NAME_START};
use crate::xml10;

/// MicroXML `nameStartChar`: an XML 1.0 `NameStartChar` other than `:`.
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    c != ':' && xml10::is_name_start_char(c)
}

/// MicroXML `nameChar`: an XML 1.0 `NameChar` other than `:`.
#[inline]
pub fn is_name_char(c: char) -> bool {
    c != ':' && xml10::is_name_char(c)
}

/// True when `name` is a MicroXML `name`.
pub fn is_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_ascii() {
        // ASCII names, the common case: one table probe per byte.
        return b
            .first()
            .is_some_and(|&c| BYTES[c as usize] & STRICT_NAME_START != 0)
            && b.iter().all(|&c| BYTES[c as usize] & STRICT_NAME_CHAR != 0);
    }
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// True for characters MicroXML's `char` excludes: controls other than tab, LF and CR, DEL and
/// the C1 controls, and noncharacters. (Surrogates cannot occur in a `char`.)
#[inline]
pub fn is_forbidden_char(c: char) -> bool {
    let c = c as u32;
    (c < 0x20 && !matches!(c, 0x09 | 0x0A | 0x0D))
        || (0x7F..=0x9F).contains(&c)
        || crate::unicode::is_noncharacter(c)
}

/// True for the bytes of UTF-8 text that may begin a character [`is_forbidden_char`] forbids:
/// the ASCII ones themselves, and the lead bytes of the C1 controls (`C2`) and of the
/// noncharacters (`EF`, `F0`..=`F4`). Every other byte is, or belongs to, an allowed character.
pub static FORBIDDEN_LEADS: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b < 0x80 {
            !((b >= 0x20 && b < 0x7F) || b == b'\t' || b == b'\n' || b == b'\r')
        } else {
            matches!(b, 0xC2 | 0xEF | 0xF0..=0xF4)
        };
        i += 1;
    }
    t
};

/// True for what a character reference may stand for in MicroXML: a `char` other than CR (its
/// `s` is tab, LF and space only, so a reference to CR is not allowed).
#[inline]
pub fn is_referable(c: char) -> bool {
    !is_forbidden_char(c) && c != '\r'
}

/// MicroXML `s`: tab, LF, space (CR is gone after newline normalization).
#[inline]
pub fn is_s(c: char) -> bool {
    matches!(c, '\t' | '\n' | ' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_name("doc"));
        assert!(is_name("_-."));
        assert!(!is_name("x$"));
        assert!(!is_name("a:b"));
        assert!(!is_name("\u{300}"));
        assert!(is_name("\u{2FF}"));
        assert!(!is_name(""));
        assert!(is_forbidden_char('\u{C}'));
        assert!(is_forbidden_char('\u{7F}'));
        assert!(is_forbidden_char('\u{10FFFF}'));
        assert!(!is_forbidden_char('\u{10FFFD}'));
        assert!(!is_referable('\r'));
        assert!(is_referable('\t'));
    }

    #[test]
    fn forbidden_leads_cover_every_forbidden_character() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut buf = [0u8; 4];
            let lead = c.encode_utf8(&mut buf).as_bytes()[0];
            if is_forbidden_char(c) {
                assert!(FORBIDDEN_LEADS[lead as usize], "{c:?}");
            }
            if c.is_ascii() {
                assert_eq!(
                    FORBIDDEN_LEADS[lead as usize],
                    is_forbidden_char(c),
                    "{c:?}"
                );
            }
        }
    }
}
