//! The 2012 MicroXML grammar's character and name classes, for validity diagnostics.

/// MicroXML `nameStartChar`.
pub fn is_name_start_char(c: char) -> bool {
    matches!(c,
        'A'..='Z' | 'a'..='z' | '_'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// MicroXML `nameChar`.
pub fn is_name_char(c: char) -> bool {
    is_name_start_char(c)
        || matches!(c, '0'..='9' | '-' | '.' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// True when `name` is a MicroXML `name`.
pub fn is_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_ascii() {
        // Fast path: ASCII names, the common case.
        return b
            .first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
    }
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// True for characters MicroXML's `char` excludes: controls other than tab, LF and CR, DEL and
/// the C1 controls, and noncharacters. (Surrogates cannot occur in a `char`.)
pub fn is_forbidden_char(c: char) -> bool {
    let c = c as u32;
    (c < 0x20 && !matches!(c, 0x09 | 0x0A | 0x0D))
        || (0x7F..=0x9F).contains(&c)
        || thicket_charref::numeric::is_noncharacter(c)
}

/// True for what a character reference may stand for in MicroXML: `char`, where `s` is only tab,
/// LF and space (so CR and the other controls are excluded).
pub fn is_referable(c: char) -> bool {
    !is_forbidden_char(c) && c != '\r'
}

/// MicroXML `s`: tab, LF, space (CR is gone after newline normalization).
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
        assert!(is_forbidden_char('\u{C}'));
        assert!(is_forbidden_char('\u{7F}'));
        assert!(is_forbidden_char('\u{10FFFF}'));
        assert!(!is_forbidden_char('\u{10FFFD}'));
        assert!(!is_referable('\r'));
        assert!(is_referable('\t'));
    }
}
