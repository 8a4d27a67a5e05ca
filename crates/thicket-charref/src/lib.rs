#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

mod generated;
pub mod numeric;

/// One key of the named-reference table: a complete name, a prefix of a longer name, or both.
///
/// Keys are written without the leading `&` and include the trailing `;` where the name has one
/// (`"amp;"`, and the legacy `"amp"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedEntry {
    /// The replacement text when the key is itself a complete name (one or two code points).
    pub value: Option<&'static str>,
    /// True when some longer name starts with this key.
    pub has_longer: bool,
}

/// Number of complete names in the WHATWG table.
pub const NAMED_REFERENCE_COUNT: usize = generated::NAME_COUNT;

/// Looks up a name or name prefix (without the `&`).
///
/// `None` means no name starts with `key`, so a longest-match scan can stop.
#[inline]
pub fn named(key: &str) -> Option<&'static NamedEntry> {
    generated::ENTITIES.get(key)
}

/// Iterates over the complete names and their replacement text, in no particular order.
pub fn named_references() -> impl Iterator<Item = (&'static str, &'static str)> {
    generated::ENTITIES
        .entries()
        .filter_map(|(k, e)| e.value.map(|v| (*k, v)))
}

/// The result of [`longest_match`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongestMatch {
    /// The longest complete name is the first `len` bytes of the input.
    Found {
        /// Length in bytes of the matched name, including its `;` if it has one.
        len: usize,
        /// The replacement text.
        value: &'static str,
    },
    /// No name matches the start of the input.
    None,
    /// The input ended while a longer name could still match; feed more input (or call again
    /// with `at_end = true` once the input is complete).
    NeedMore,
}

/// Finds the longest WHATWG name at the start of `input` (the text after `&`).
///
/// With `at_end = false` the input may continue beyond what is given: if it ends while a longer
/// name is still possible, the answer is [`LongestMatch::NeedMore`]. With `at_end = true` the
/// input is complete and the answer is final. Runs in time proportional to the longest name
/// (33 bytes), whatever the input length.
pub fn longest_match(input: &str, at_end: bool) -> LongestMatch {
    let mut best = LongestMatch::None;
    for (i, _) in input.char_indices() {
        // Names are ASCII, so a non-ASCII character ends the scan below via the failed lookup.
        let end = i + input[i..].chars().next().map_or(0, char::len_utf8);
        match named(&input[..end]) {
            Some(entry) => {
                if let Some(value) = entry.value {
                    best = LongestMatch::Found { len: end, value };
                }
                if !entry.has_longer {
                    return best;
                }
            }
            None => return best,
        }
    }
    if at_end {
        best
    } else {
        // The whole input is a prefix of some longer name.
        LongestMatch::NeedMore
    }
}

/// The five predefined XML entities (`lt`, `gt`, `amp`, `apos`, `quot`), by name without `&`
/// and `;`.
#[inline]
pub fn xml_predefined(name: &str) -> Option<char> {
    predefined(name.as_bytes())
}

/// The one table of the five predefined entities.
#[inline(always)]
fn predefined(name: &[u8]) -> Option<char> {
    match name {
        b"lt" => Some('<'),
        b"gt" => Some('>'),
        b"amp" => Some('&'),
        b"apos" => Some('\''),
        b"quot" => Some('"'),
        _ => None,
    }
}

/// The reference to one of the five predefined XML entities at the start of `input`
/// (`&lt;`, `&gt;`, `&amp;`, `&apos;` or `&quot;`, with its `&` and `;`): its length in bytes
/// and the character it stands for. For a scanner that meets `&` in bytes.
///
/// ```
/// use thicket_charref::xml_predefined_reference;
/// assert_eq!(xml_predefined_reference(b"&amp; more"), Some((5, '&')));
/// assert_eq!(xml_predefined_reference(b"&amp more"), None);
/// assert_eq!(xml_predefined_reference(b"&nbsp;"), None);
/// ```
#[inline(always)]
pub fn xml_predefined_reference(input: &[u8]) -> Option<(usize, char)> {
    if input.first() != Some(&b'&') {
        return None;
    }
    // The names are two to four bytes long.
    let semi = match input.get(3..).unwrap_or_default() {
        [b';', ..] => 3,
        [_, b';', ..] => 4,
        [_, _, b';', ..] => 5,
        _ => return None,
    };
    predefined(&input[1..semi]).map(|c| (semi + 1, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_match_prefers_longest_and_waits_at_chunk_end() {
        assert_eq!(
            longest_match("amp;x", false),
            LongestMatch::Found { len: 4, value: "&" }
        );
        assert_eq!(
            longest_match("ampx", false),
            LongestMatch::Found { len: 3, value: "&" }
        );
        assert_eq!(longest_match("am", false), LongestMatch::NeedMore);
        assert_eq!(longest_match("am", true), LongestMatch::None);
        assert_eq!(longest_match("amq", false), LongestMatch::None);
        assert_eq!(longest_match("", false), LongestMatch::NeedMore);
        assert_eq!(longest_match("", true), LongestMatch::None);
        assert_eq!(longest_match("é", false), LongestMatch::None);
        assert_eq!(
            longest_match("notin", false),
            LongestMatch::NeedMore,
            "`&notin` could still become `&notin;`"
        );
        assert_eq!(
            longest_match("notin", true),
            LongestMatch::Found {
                len: 3, value: "¬"
            }
        );
    }

    #[test]
    fn predefined() {
        assert_eq!(xml_predefined("apos"), Some('\''));
        assert_eq!(xml_predefined("nbsp"), None);
        for (text, expected) in [
            ("&lt;", Some((4, '<'))),
            ("&gt;x", Some((4, '>'))),
            ("&apos;", Some((6, '\''))),
            ("&quot;", Some((6, '"'))),
            ("&quot", None),
            ("&lt", None),
            ("&;", None),
            ("&l;", None),
            ("&ltx;", None),
            ("lt;", None),
        ] {
            assert_eq!(
                xml_predefined_reference(text.as_bytes()),
                expected,
                "{text}"
            );
        }
    }
}
