//! Inserted text inside HTML's raw-text elements (docs/rewrite.md, "Inserting into raw text").
//!
//! The HTML tokenizer reads the content of `script` (script data), `style`, `xmp`, `iframe`,
//! `noembed`, `noframes` and, with the scripting flag, `noscript` (RAWTEXT) without character
//! references: text there cannot be escaped, and text written as it is may end the element
//! early (`</script`, or a `<!--` that moves script data into its escaped states, or text that
//! completes an end tag with the source around it). So `ContentType::Text` inserted there is
//! refused: the rewrite stops with `raw-text-insertion`, like a strict-mode refusal.
//! `ContentType::Html` is written as given, as everywhere. RCDATA (`title`, `textarea`)
//! decodes references, so text is escaped there as in other content; PLAINTEXT never ends, so
//! text is written there as it is (a reference would not be decoded).

use crate::handlers::{ContentType, push_content};

/// How text inserted into an element's content is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inside {
    /// Escaped (`&amp;`, `&lt;`, `&gt;`): ordinary content and RCDATA.
    Escaped,
    /// Refused: script data and RAWTEXT.
    Refused,
    /// As it is: PLAINTEXT.
    Raw,
}

/// How text is written inside the HTML element `name` (in the HTML namespace) when the
/// tokenizer runs with the scripting flag `scripting`.
pub(crate) fn inside(name: &str, scripting: bool) -> Inside {
    match name {
        "script" | "style" | "xmp" | "iframe" | "noembed" | "noframes" => Inside::Refused,
        "noscript" if scripting => Inside::Refused,
        "plaintext" => Inside::Raw,
        _ => Inside::Escaped,
    }
}

/// Writes `content` onto `out` for a place with rule `inside`; false (nothing written) where
/// text is refused.
pub(crate) fn push_inside(
    out: &mut String,
    content: &str,
    kind: ContentType,
    inside: Inside,
) -> bool {
    match (kind, inside) {
        (ContentType::Text, Inside::Refused) => false,
        (ContentType::Text, Inside::Raw) => {
            out.push_str(content);
            true
        }
        _ => {
            push_content(out, content, kind);
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        let mut s = String::new();
        assert!(!push_inside(
            &mut s,
            "a<b",
            ContentType::Text,
            inside("script", false)
        ));
        assert!(push_inside(
            &mut s,
            "a<b",
            ContentType::Html,
            inside("style", false)
        ));
        assert!(push_inside(
            &mut s,
            "|a<b",
            ContentType::Text,
            inside("title", false)
        ));
        assert!(push_inside(
            &mut s,
            "|a<b",
            ContentType::Text,
            inside("plaintext", false)
        ));
        assert_eq!(s, "a<b|a&lt;b|a<b");
        assert_eq!(inside("noscript", false), Inside::Escaped);
        assert_eq!(inside("noscript", true), Inside::Refused);
    }
}
