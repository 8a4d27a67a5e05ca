//! The XML5 driver: what the XML5 tokenizer builds for the handlers (its lazy mode), and each
//! token or plain tag handed to the core.

use crate::core::{Core, Event, Handlers, Src, reuse_attrs};
use crate::handlers::UnitKind;
use crate::selector::Attr;

/// What the XML5 tokenizer builds for `handlers` (its lazy mode): text, comment, doctype and
/// processing instruction content when a handler for it exists (text also while the core
/// switches it on: scoped text handlers, captures), and the attributes of every tag when an
/// element or scoped text handler exists (selectors may test them, and namespace-qualified
/// selectors read every tag's `xmlns` declarations), of none otherwise.
pub(crate) fn xml5_lazy(handlers: &Handlers<'_>) -> thicket_xml5::Lazy {
    let selectors = !handlers.elements.is_empty() || !handlers.text_settings.scoped.is_empty();
    // Text as the core wants it from the start (`text_always`); it switches it later.
    let strict = handlers.modes.strictness != crate::modes::Strictness::Guess;
    thicket_xml5::Lazy {
        text: handlers.text.is_some() || strict,
        comments: handlers.comment.is_some(),
        doctypes: handlers.doctype.is_some(),
        processing_instructions: handlers.pi.is_some(),
        attributes: if selectors {
            thicket_xml5::AttributesOf::All
        } else {
            thicket_xml5::AttributesOf::None
        },
    }
}

/// The local name of an XML5 qualified name: after the last `:` (a byte loop: names are short,
/// and `rsplit_once` goes through a reverse char search costing more than the name).
#[inline(always)]
pub(crate) fn xml5_local(name: &str) -> &str {
    match name.bytes().rposition(|b| b == b':') {
        Some(i) => &name[i + 1..],
        None => name,
    }
}

/// A plain XML5 tag, from the ranges of the tokenizer's buffer. `src` is the core's own source
/// (moved out of it for the whole pump: `Rewriter::pump`).
pub(crate) fn xml5_plain_tag(core: &mut Core<'_>, src: Src<'_>, tag: thicket_xml5::PlainTag<'_>) {
    let (name, span) = (tag.name(), tag.span());
    if tag.is_end() {
        core.process_in(
            src,
            Event::End {
                name: Some(name),
                span,
            },
        );
        return;
    }
    let (local, self_closing) = (xml5_local(name), tag.is_empty_element());
    let attributes = tag.attributes();
    if attributes.len() == 0 {
        // No list to fill.
        core.process_in(
            src,
            Event::Start {
                name,
                local,
                attributes: &[],
                self_closing,
                span,
            },
        );
        return;
    }
    let mut attrs = reuse_attrs(std::mem::take(&mut core.attrs));
    attrs.extend(attributes.map(|a| Attr {
        name: a.name,
        value: a.value,
        span: a.span,
    }));
    core.process_in(
        src,
        Event::Start {
            name,
            local,
            attributes: &attrs,
            self_closing,
            span,
        },
    );
    core.attrs = reuse_attrs(attrs);
}

pub(crate) fn xml5_event(
    core: &mut Core<'_>,
    src: Src<'_>,
    token: thicket_xml5::Token<'_>,
) -> Option<thicket_xml5::SpareAttributes> {
    use thicket_xml5::TokenKind;
    let span = token.span;
    let self_closing = matches!(token.kind, TokenKind::EmptyTag { .. });
    match token.kind {
        TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
            let mut attrs = reuse_attrs(std::mem::take(&mut core.attrs));
            attrs.extend(attributes.iter().map(|a| Attr {
                name: &a.name,
                value: &a.value,
                span: a.span,
            }));
            core.process_in(
                src,
                Event::Start {
                    name: &name,
                    local: xml5_local(&name),
                    attributes: &attrs,
                    self_closing,
                    span,
                },
            );
            core.attrs = reuse_attrs(attrs);
            return Some(attributes.into());
        }
        TokenKind::EndTag { name } => core.process_in(
            src,
            Event::End {
                name: Some(&name),
                span,
            },
        ),
        TokenKind::ShortEndTag => core.process_in(src, Event::End { name: None, span }),
        TokenKind::Text(text) => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Text(&text),
                span,
            },
        ),
        TokenKind::Comment(data) => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Comment(&data),
                span,
            },
        ),
        TokenKind::Pi { target, data } => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::ProcessingInstruction(&target, &data),
                span,
            },
        ),
        TokenKind::Doctype { name, .. } => core.process_in(
            src,
            Event::Unit {
                kind: UnitKind::Doctype(name.as_deref()),
                span,
            },
        ),
        TokenKind::XmlDeclaration { .. } => core.process_in(src, Event::Other { span }),
        TokenKind::Discarded => core.process_in(src, Event::Dropped { span }),
        TokenKind::Eof => core.process_in(src, Event::Eof { span }),
    }
    None
}

#[cfg(test)]
mod xml5_tests {
    use super::*;
    use crate::rewriter::Settings;
    use thicket_xml5::AttributesOf;

    #[test]
    fn xml5_builds_what_the_handlers_read() {
        let none = xml5_lazy(&Settings::new().handlers);
        assert!(!none.text && !none.comments && !none.doctypes && !none.processing_instructions);
        assert_eq!(none.attributes, AttributesOf::None);
        let id = Settings::new()
            .on_element("[id]", |_| {})
            .expect("a selector");
        let id = xml5_lazy(&id.handlers);
        assert!(!id.text && !id.comments);
        assert_eq!(id.attributes, AttributesOf::All);
        let s = Settings::new()
            .on_text(|_| {})
            .on_processing_instruction(|_| {});
        let some = xml5_lazy(&s.handlers);
        assert!(some.text && some.processing_instructions && !some.comments);
    }
}
