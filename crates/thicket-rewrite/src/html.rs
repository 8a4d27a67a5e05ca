//! The HTML driver: what the HTML tokenizer builds for the handlers (its lazy mode), and each
//! token handed to the core.

use crate::core::{Core, Event, Handlers, Src, reuse_attrs};
use crate::handlers::UnitKind;
use crate::selector::Attr;

/// What the HTML tokenizer builds for `handlers` (its lazy mode; everything else is only
/// delimited): text, comment, doctype and processing instruction content when a handler for it
/// exists, and attributes where a selector may read them or a handler may see them: on the tags
/// named by a compound that is a selector's subject or has `#id`, `.class`, `[attr]` or `:not`
/// conditions, on every tag when such a compound has no type name.
pub(crate) fn html_lazy(handlers: &Handlers<'_>) -> thicket_html::Lazy {
    use crate::selector::Simple;
    let mut all = false;
    let mut names = Vec::new();
    let scoped = handlers.text_settings.scoped.iter().map(|(l, _)| l);
    let lists = handlers.elements.iter().map(|(l, _)| l).chain(scoped);
    let selectors = lists.flat_map(|l| &l.selectors);
    for selector in selectors {
        let subject = selector.compounds.len().saturating_sub(1);
        for (k, compound) in selector.compounds.iter().enumerate() {
            let conditions = compound.simples.iter().any(|s| {
                matches!(
                    s,
                    Simple::Id(_) | Simple::Class(_) | Simple::Attr { .. } | Simple::Not(_)
                )
            });
            if k != subject && !conditions {
                continue;
            }
            match compound.simples.iter().find_map(|s| match s {
                Simple::Type(name) => Some(name),
                _ => None,
            }) {
                // (Once a name: `h1, h2, h3` of an element and a text handler give each twice.)
                Some(name) if names.iter().any(|n: &String| n.eq_ignore_ascii_case(name)) => {}
                Some(name) => names.push(name.to_ascii_lowercase()),
                None => all = true,
            }
        }
    }
    // Strict mode reads text (whitespace or not, directly in a table) and `<input type>`.
    let strict = handlers.modes.strictness != crate::modes::Strictness::Guess;
    if strict {
        names.push("input".to_owned());
    }
    thicket_html::Lazy {
        text: handlers.text.is_some() || strict,
        comments: handlers.comment.is_some(),
        doctypes: handlers.doctype.is_some(),
        processing_instructions: handlers.pi.is_some(),
        attributes: if all {
            thicket_html::AttributesOf::All
        } else if names.is_empty() {
            thicket_html::AttributesOf::None
        } else {
            thicket_html::AttributesOf::Tags(names)
        },
    }
}

/// Hands `token` to the core, which reads source (output written through, a tag rebuilt, a
/// unit's source, captures) from the tokenizer's buffer `input` (no copy of its own: see
/// [`retain_from`](thicket_html::Tokenizer::retain_from) in `Rewriter::compact`).
pub(crate) fn html_event(
    core: &mut Core<'_>,
    token: thicket_html::Token<'_>,
    input: &thicket_input::cursor::Cursor<'_>,
) {
    let src = Src::new(input.text(), input.base());
    use std::borrow::Cow;
    use thicket_html::Token;
    match token {
        Token::StartTag(tag) if tag.attributes.capacity() == 0 => {
            core.process_in(
                src,
                Event::Start {
                    name: &tag.name,
                    local: &tag.name,
                    attributes: &[],
                    self_closing: tag.self_closing,
                    span: tag.span,
                },
            );
            // A borrowed name and no attribute list own nothing (a tag's other fields are
            // `Copy`): no drop to run, about 13 instructions a tag.
            if let Cow::Borrowed(_) = tag.name {
                std::mem::forget(tag);
            }
        }
        Token::EndTag(tag) if tag.attributes.capacity() == 0 => {
            core.process_in(
                src,
                Event::End {
                    name: Some(&tag.name),
                    span: tag.span,
                },
            );
            if let Cow::Borrowed(_) = tag.name {
                std::mem::forget(tag);
            }
        }
        Token::StartTag(tag) => {
            let mut attributes = reuse_attrs(std::mem::take(&mut core.attrs));
            attributes.extend(tag.attributes.iter().map(|a| Attr {
                name: &a.name,
                value: &a.value,
                span: a.span,
            }));
            core.process_in(
                src,
                Event::Start {
                    name: &tag.name,
                    local: &tag.name,
                    attributes: &attributes,
                    self_closing: tag.self_closing,
                    span: tag.span,
                },
            );
            core.attrs = reuse_attrs(attributes);
        }
        Token::EndTag(tag) => core.process_in(
            src,
            Event::End {
                name: Some(&tag.name),
                span: tag.span,
            },
        ),
        Token::Text { text, span } => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Text(&text),
                span,
            },
        ),
        Token::Comment { data, span } => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Comment(&data),
                span,
            },
        ),
        Token::ProcessingInstruction { target, data, span } => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::ProcessingInstruction(&target, &data),
                span,
            },
        ),
        Token::Doctype(d) => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Doctype(d.name.as_deref()),
                span: d.span,
            },
        ),
        Token::Discarded { span } => core.process_in(src, Event::Dropped { span }),
        Token::Eof { span } => core.process_in(src, Event::Eof { span }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewriter::Settings;
    use thicket_html::AttributesOf;

    /// What the HTML tokenizer builds for element handlers on `selectors`.
    fn attributes_for(selectors: &[&str]) -> AttributesOf {
        let mut settings = Settings::new();
        for s in selectors {
            settings = settings.on_element(s, |_| {}).expect("a valid selector");
        }
        html_lazy(&settings.handlers).attributes
    }

    fn tags(names: &[&str]) -> AttributesOf {
        AttributesOf::tags(names)
    }

    #[test]
    fn attributes_on_the_subjects_type() {
        assert_eq!(attributes_for(&["a[href]"]), tags(&["a"]));
        assert_eq!(attributes_for(&["h1, h2, H3"]), tags(&["h1", "h2", "h3"]));
        // Only the subject's: `div` has no condition on its attributes.
        assert_eq!(attributes_for(&["div > p a"]), tags(&["a"]));
        assert_eq!(attributes_for(&["li:nth-of-type(2)"]), tags(&["li"]));
    }

    #[test]
    fn attributes_where_a_compound_tests_them() {
        assert_eq!(attributes_for(&["div.x a"]), tags(&["div", "a"]));
        assert_eq!(attributes_for(&["ul#m + li"]), tags(&["ul", "li"]));
        assert_eq!(attributes_for(&["p:not(.x) ~ b"]), tags(&["p", "b"]));
    }

    #[test]
    fn attributes_everywhere_without_a_type_name() {
        for s in [
            "[id]",
            ".c",
            "*",
            "#x a",
            ":not(p)",
            ":first-child",
            "div > *",
        ] {
            assert_eq!(attributes_for(&[s]), AttributesOf::All, "{s}");
        }
        assert_eq!(attributes_for(&["a", "[lang]"]), AttributesOf::All);
    }

    #[test]
    fn content_only_for_the_handlers_that_exist() {
        let none = html_lazy(&Settings::new().handlers);
        assert!(!none.text && !none.comments && !none.doctypes && !none.processing_instructions);
        assert_eq!(none.attributes, AttributesOf::None);
        let s = Settings::new().on_text(|_| {}).on_comment(|_| {});
        let some = html_lazy(&s.handlers);
        assert!(some.text && some.comments && !some.doctypes && !some.processing_instructions);
        let s = Settings::new()
            .on_doctype(|_| {})
            .on_processing_instruction(|_| {});
        let rest = html_lazy(&s.handlers);
        assert!(!rest.text && rest.doctypes && rest.processing_instructions);
    }

    #[test]
    fn strict_mode_reads_text_and_input_types() {
        for settings in [
            Settings::new().strict(true),
            Settings::new().report_ambiguities(true),
        ] {
            let lazy = html_lazy(&settings.handlers);
            assert!(lazy.text);
            assert_eq!(
                lazy.attributes,
                AttributesOf::Tags(vec!["input".to_owned()])
            );
        }
    }
}
