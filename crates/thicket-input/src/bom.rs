//! Byte order mark sniffing with the LeafXML rules.
//!
//! The LeafXML specification ("Character encoding") decides the encoding from the first bytes:
//! `FE FF` is UTF-16 BE, `FF FE` is UTF-16 LE, `EF BB BF` is UTF-8 with a BOM, and anything else is
//! UTF-8 without a BOM. These are also the three BOMs of the Encoding Standard's "BOM sniff", so
//! the WHATWG and XML sniffers in this crate use the same function.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// One of the three Unicode encodings a byte order mark can announce.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Utf {
    /// UTF-8.
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
}

impl Utf {
    /// The `encoding_rs` encoding with the same name.
    pub fn encoding(self) -> &'static Encoding {
        match self {
            Utf::Utf8 => UTF_8,
            Utf::Utf16Le => UTF_16LE,
            Utf::Utf16Be => UTF_16BE,
        }
    }

    /// The byte order mark of this encoding.
    pub fn bom(self) -> &'static [u8] {
        match self {
            Utf::Utf8 => b"\xEF\xBB\xBF",
            Utf::Utf16Le => b"\xFF\xFE",
            Utf::Utf16Be => b"\xFE\xFF",
        }
    }

    /// The `Utf` for `encoding`, if it is UTF-8 or one of the two UTF-16 encodings.
    pub fn from_encoding(encoding: &'static Encoding) -> Option<Utf> {
        if encoding == UTF_8 {
            Some(Utf::Utf8)
        } else if encoding == UTF_16LE {
            Some(Utf::Utf16Le)
        } else if encoding == UTF_16BE {
            Some(Utf::Utf16Be)
        } else {
            None
        }
    }
}

/// Recognizes a byte order mark at the start of `bytes`: `EF BB BF` (UTF-8), `FE FF` (UTF-16 BE)
/// or `FF FE` (UTF-16 LE). Returns the encoding and the length of the BOM in bytes, or `None` when
/// the bytes start with none of them (LeafXML then reads UTF-8 without a BOM).
///
/// ```
/// use thicket_input::bom::{sniff_bom, Utf};
/// assert_eq!(sniff_bom(b"\xFF\xFE<\0"), Some((Utf::Utf16Le, 2)));
/// assert_eq!(sniff_bom(b"<a/>"), None);
/// ```
pub fn sniff_bom(bytes: &[u8]) -> Option<(Utf, usize)> {
    match bytes {
        [0xEF, 0xBB, 0xBF, ..] => Some((Utf::Utf8, 3)),
        [0xFE, 0xFF, ..] => Some((Utf::Utf16Be, 2)),
        [0xFF, 0xFE, ..] => Some((Utf::Utf16Le, 2)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signature_of_the_leafxml_table() {
        assert_eq!(sniff_bom(b"\xFE\xFF\0<"), Some((Utf::Utf16Be, 2)));
        assert_eq!(sniff_bom(b"\xFF\xFE<\0"), Some((Utf::Utf16Le, 2)));
        assert_eq!(sniff_bom(b"\xEF\xBB\xBF<"), Some((Utf::Utf8, 3)));
        // A BOM alone, with nothing after it, still counts.
        assert_eq!(sniff_bom(b"\xFE\xFF"), Some((Utf::Utf16Be, 2)));
        assert_eq!(sniff_bom(b"\xEF\xBB\xBF"), Some((Utf::Utf8, 3)));
    }

    #[test]
    fn anything_else_is_utf8_without_bom() {
        assert_eq!(sniff_bom(b""), None);
        assert_eq!(sniff_bom(b"\xEF\xBB"), None); // truncated UTF-8 BOM
        assert_eq!(sniff_bom(b"\xEF\xBB\xBE"), None);
        assert_eq!(sniff_bom(b"\xFE"), None);
        assert_eq!(sniff_bom(b"\xFF"), None);
        assert_eq!(sniff_bom(b"\x00<\x00?"), None); // no BOM: LeafXML does not guess UTF-16
        assert_eq!(sniff_bom(b"<?xml"), None);
    }

    #[test]
    fn bom_and_encoding_round_trip() {
        for utf in [Utf::Utf8, Utf::Utf16Le, Utf::Utf16Be] {
            assert_eq!(sniff_bom(utf.bom()), Some((utf, utf.bom().len())));
            assert_eq!(Utf::from_encoding(utf.encoding()), Some(utf));
        }
        assert_eq!(Utf::from_encoding(encoding_rs::WINDOWS_1252), None);
    }
}
