//! Code point classes the specifications take from Unicode and the Infra standard
//! (<https://infra.spec.whatwg.org/#code-points>): noncharacters, surrogates, controls. Every
//! dialect and thicket-charref's numeric rules use these; they are defined nowhere else.

/// True for Unicode noncharacters: U+FDD0..=U+FDEF and every code point whose low 16 bits are
/// FFFE or FFFF.
///
/// ```
/// use thicket_names::unicode::is_noncharacter;
/// assert!(is_noncharacter(0xFFFE) && is_noncharacter(0x10FFFF) && is_noncharacter(0xFDD0));
/// assert!(!is_noncharacter(0xFFFD) && !is_noncharacter(0x11FFFF));
/// ```
#[inline]
pub const fn is_noncharacter(code: u32) -> bool {
    (code >= 0xFDD0 && code <= 0xFDEF) || (code & 0xFFFE == 0xFFFE && code <= 0x10_FFFF)
}

/// True for surrogates, U+D800..=U+DFFF.
#[inline]
pub const fn is_surrogate(code: u32) -> bool {
    code >= 0xD800 && code <= 0xDFFF
}

/// True for C0 controls (U+0000..=U+001F) and U+007F..=U+009F, as the Infra standard defines
/// "control".
#[inline]
pub const fn is_control(code: u32) -> bool {
    code <= 0x1F || (code >= 0x7F && code <= 0x9F)
}
