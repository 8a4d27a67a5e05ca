//! The MicroXML driver: `thicket_microxml`'s streaming tokenizer, its lexical tokens assembled
//! into the rewriter's events (docs/rewrite.md, "MicroXML and LeafXML").
//!
//! The tokenizer lends each token until the next call and hands a start tag out in pieces
//! (`StartTagOpen`, then each `AttributeName` and its value's `Data` pieces, then a close), so
//! the driver copies a tag's name, attribute names and values into buffers kept for the whole
//! rewrite, and hands the core one `Start` event at the close. Token spans tile the input, so
//! the tag's span runs from its `<` to the end of its close (an empty close where recovery
//! closed the tag). Comments, processing instructions and DOCTYPE declarations come as tokens
//! of their own (`Options::markup_tokens`, which the rewriter always turns on), so they are
//! units for their handlers and never inside a text unit's span.

use thicket_input::Span;
use thicket_microxml::Token;

use crate::core::{Core, Event, reuse_attrs};
use crate::handlers::UnitKind;
use crate::selector::Attr;

/// One attribute of the tag being assembled: ranges into [`Driver::strings`].
#[derive(Clone, Copy, Debug)]
struct PendingAttr {
    name: (usize, usize),
    value: (usize, usize),
    /// Where the name starts and where the name (with `=`) ends.
    name_span: Span,
    /// The source of the value's `Data` pieces (empty when it has none).
    value_span: Option<Span>,
}

/// The MicroXML tokenizer and the start tag it is handing out.
pub(crate) struct Driver {
    tokenizer: thicket_microxml::Tokenizer,
    /// `finish` was called: the next pump ends the document.
    finished: bool,
    /// Inside a start tag: where its `<` is.
    tag_start: Option<usize>,
    /// The tag's name, then its attributes' names and values, end to end.
    strings: String,
    name_len: usize,
    attrs: Vec<PendingAttr>,
    /// Whether the tag's `Data` pieces are the last attribute's value (from its name on).
    in_value: bool,
    /// CDATA delimiters and text, so that a text unit holds a CDATA section whole (the
    /// tokenizer joins a section's text with the text around it, and hands the delimiters at
    /// its edges out as discarded input).
    cdata: Cdata,
}

/// A text unit spans the CDATA delimiters around its text: a `<![CDATA[` the tokenizer
/// discards just before text joins the text's unit, and text whose source ends inside a CDATA
/// section is held (copied) until the section's `]]>`. What comes before the open section is
/// handed out at once (a run of sections is never held whole): at most one section is held,
/// and the core's `MemoryLimits::max_buffered` bounds it as any unfinished token.
#[derive(Default)]
struct Cdata {
    /// A discarded `<![CDATA[` (and what the tokenizer discarded with it), not yet written.
    lead: Option<Span>,
    /// Text whose source ends inside a CDATA section.
    held: Option<Held>,
}

/// Text held until the CDATA section its source ends in closes.
struct Held {
    text: String,
    span: Span,
    /// The source before this offset has been scanned for delimiters (the scan state below).
    scanned: usize,
    /// Where the open section starts (its `<![CDATA[`), when the scan ended inside one.
    open: Option<usize>,
}

impl Driver {
    pub(crate) fn new(options: thicket_microxml::Options) -> Driver {
        Driver {
            tokenizer: thicket_microxml::Tokenizer::new(options),
            finished: false,
            tag_start: None,
            strings: String::new(),
            name_len: 0,
            attrs: Vec::new(),
            in_value: false,
            cdata: Cdata::default(),
        }
    }

    /// Hands the tokenizer the next text.
    pub(crate) fn feed(&mut self, text: &str) {
        self.tokenizer.feed(text);
    }

    /// Ends the input.
    pub(crate) fn finish(&mut self) {
        self.tokenizer.finish();
        self.finished = true;
    }

    /// Hands every token the tokenizer has to the core; at the end (after `finish`), the end
    /// of the input as `Eof`.
    pub(crate) fn pump(&mut self, core: &mut Core<'_>) {
        let Driver {
            tokenizer,
            finished,
            tag_start,
            strings,
            name_len,
            attrs,
            in_value,
            cdata,
        } = self;
        loop {
            // The limits the tokenizer reached up to here (see `Core::tokenizer_limits`).
            core.tokenizer_limits(tokenizer.limits_reached(), || {
                tokenizer.take_limits_reached()
            });
            let Some(token) = tokenizer.next_token() else {
                break;
            };
            // Text and the CDATA delimiters around it; anything else first writes what was held.
            match &token {
                Token::Data { text, span } | Token::CharRef { text, span }
                    if tag_start.is_none() =>
                {
                    cdata.text(core, text, *span);
                    continue;
                }
                Token::Discarded { span } if tag_start.is_none() => {
                    if cdata.discarded(core, *span) {
                        continue;
                    }
                }
                _ => cdata.flush(core),
            }
            match token {
                Token::StartTagOpen { name, span } => {
                    *tag_start = Some(span.start);
                    strings.clear();
                    strings.push_str(&name);
                    *name_len = name.len();
                    attrs.clear();
                    *in_value = false;
                }
                Token::AttributeName { name, span } => {
                    let at = strings.len();
                    strings.push_str(&name);
                    attrs.push(PendingAttr {
                        name: (at, strings.len()),
                        value: (strings.len(), strings.len()),
                        name_span: span,
                        value_span: None,
                    });
                    *in_value = true;
                }
                Token::Data { text, span } | Token::CharRef { text, span }
                    if tag_start.is_some() =>
                {
                    // A value's pieces: appended to the last attribute's value.
                    if let Some(a) = attrs.last_mut().filter(|_| *in_value) {
                        strings.push_str(&text);
                        a.value.1 = strings.len();
                        a.value_span = Some(match a.value_span {
                            Some(s) => Span::new(s.start, span.end),
                            None => span,
                        });
                    }
                }
                Token::StartTagClose { span } | Token::EmptyElementTagClose { span } => {
                    let self_closing = matches!(token, Token::EmptyElementTagClose { .. });
                    let start = tag_start.take().unwrap_or(span.start);
                    *in_value = false;
                    let mut list = reuse_attrs(std::mem::take(&mut core.attrs));
                    list.extend(attrs.iter().map(|a| Attr {
                        name: &strings[a.name.0..a.name.1],
                        value: &strings[a.value.0..a.value.1],
                        span: attribute_span(core, a),
                    }));
                    let name = &strings[..*name_len];
                    core.process(Event::Start {
                        name,
                        local: name,
                        attributes: &list,
                        self_closing,
                        span: Span::new(start, span.end),
                    });
                    core.attrs = reuse_attrs(list);
                }
                Token::EndTag { name, span } => core.process(Event::End {
                    name: Some(&name),
                    span,
                }),
                Token::Data { text, span } | Token::CharRef { text, span } => {
                    core.process(Event::Unit {
                        kind: UnitKind::Text(&text),
                        span,
                    })
                }
                Token::Comment { data, span } => core.process(Event::Unit {
                    kind: UnitKind::Comment(&data),
                    span,
                }),
                Token::ProcessingInstruction { span, .. } => {
                    let (target, data) = token.pi_target_and_data().unwrap_or_default();
                    core.process(Event::Unit {
                        kind: UnitKind::ProcessingInstruction(target, data),
                        span,
                    })
                }
                Token::Doctype { name, span } => core.process(Event::Unit {
                    kind: UnitKind::Doctype((!name.is_empty()).then_some(&name)),
                    span,
                }),
                Token::Discarded { span } => {
                    // Inside a tag: whitespace and quotes, part of the tag's span. Outside: a
                    // byte order mark, CDATA delimiters, written through.
                    if tag_start.is_none() {
                        core.process(Event::Dropped { span });
                    }
                }
            }
        }
        if std::mem::take(finished) {
            cdata.flush(core);
            let end = core.base + core.src.len();
            core.process(Event::Eof {
                span: Span::new(end, end),
            });
            core.tokenizer_limits(tokenizer.limits_reached(), || {
                tokenizer.take_limits_reached()
            });
        }
    }
}

impl Cdata {
    /// A text token (outside tags).
    fn text(&mut self, core: &mut Core<'_>, text: &str, span: Span) {
        let mut start = span.start;
        if let Some(lead) = self.lead.take() {
            if lead.end == span.start {
                start = lead.start;
            } else {
                core.process(Event::Dropped { span: lead });
            }
        }
        match &mut self.held {
            Some(h) if h.span.end == start => {
                h.text.push_str(text);
                h.span.end = span.end;
            }
            _ => {
                self.flush(core);
                let whole = Span::new(start, span.end);
                if start == span.start && whole.end - whole.start == text.len() {
                    // The usual text, with no delimiter in its source: handed out as the
                    // tokenizer lent it.
                    core.process(Event::Unit {
                        kind: UnitKind::Text(text),
                        span,
                    });
                    return;
                }
                self.held = Some(Held {
                    text: text.to_owned(),
                    span: whole,
                    scanned: whole.start,
                    open: None,
                });
            }
        }
        self.settle(core);
    }

    /// Discarded input outside tags; true when it was taken as a CDATA delimiter.
    fn discarded(&mut self, core: &mut Core<'_>, span: Span) -> bool {
        let source = source(core, span);
        let (closes, opens) = (source.starts_with("]]>"), source.starts_with("<![CDATA["));
        if closes
            && let Some(h) = &mut self.held
            && h.span.end == span.start
            && h.open.is_some()
        {
            h.span.end = span.end;
            self.settle(core);
            return true;
        }
        self.flush(core);
        if opens {
            self.lead = Some(span);
            return true;
        }
        false
    }

    /// Scans what was added to the held text's source: text outside any section, and
    /// complete sections, are handed out; only an open section's part stays held.
    fn settle(&mut self, core: &mut Core<'_>) {
        let Some(h) = &mut self.held else { return };
        let src = source(core, Span::new(h.scanned, h.span.end)).as_bytes();
        let mut i = 0;
        while i < src.len() {
            match h.open {
                None if src[i..].starts_with(b"<![CDATA[") => {
                    h.open = Some(h.scanned + i);
                    i += 9;
                }
                Some(open) if src[i..].starts_with(b"]]>") => {
                    h.open = None;
                    i += 3;
                    // A section is held as an unfinished token: past `max_buffered` it stops
                    // the rewrite, whether it came in one piece or was held between calls.
                    let end = h.scanned + i;
                    if crate::capture::past(core.memory.max_buffered, end - open) {
                        // The text before the section is written first, as it is when the
                        // section is held between calls.
                        let before = text_len(source(core, Span::new(h.span.start, open)));
                        if open > h.span.start
                            && before <= h.text.len()
                            && h.text.is_char_boundary(before)
                        {
                            core.process(Event::Unit {
                                kind: UnitKind::Text(&h.text[..before]),
                                span: Span::new(h.span.start, open),
                            });
                        }
                        core.fail(crate::Error::new(
                            crate::ErrorCode::BufferLimit,
                            Span::new(open, open),
                        ));
                        self.held = None;
                        return;
                    }
                }
                _ => i += 1,
            }
        }
        h.scanned = h.span.end;
        let Some(open) = h.open else {
            self.flush(core);
            return;
        };
        if open == h.span.start {
            return;
        }
        // Hand out what comes before the open section; hold the rest.
        let before = text_len(source(core, Span::new(h.span.start, open)));
        if before > h.text.len() || !h.text.is_char_boundary(before) {
            // (Not the text the tokenizer gave for that source: keep it all, as a unit.)
            return;
        }
        core.process(Event::Unit {
            kind: UnitKind::Text(&h.text[..before]),
            span: Span::new(h.span.start, open),
        });
        h.text.drain(..before);
        h.span.start = open;
    }

    /// Writes what is held: the text unit, or the delimiter no text followed.
    fn flush(&mut self, core: &mut Core<'_>) {
        if let Some(h) = self.held.take() {
            core.process(Event::Unit {
                kind: UnitKind::Text(&h.text),
                span: h.span,
            });
        }
        if let Some(span) = self.lead.take() {
            core.process(Event::Dropped { span });
        }
    }
}

/// The source of `span` (still held by the core: nothing at or after it was handled).
fn source<'c>(core: &'c Core<'_>, span: Span) -> &'c str {
    let at = |i: usize| i.saturating_sub(core.base).min(core.src.len());
    core.src.get(at(span.start)..at(span.end)).unwrap_or("")
}

/// The length of the text the tokenizer gives for `source`, text and complete CDATA sections
/// (no reference: those are tokens of their own): the source without the sections'
/// delimiters, a CR LF pair as one line feed.
fn text_len(source: &str) -> usize {
    let b = source.as_bytes();
    let (mut n, mut i, mut inside) = (0, 0, false);
    while i < b.len() {
        if !inside && b[i..].starts_with(b"<![CDATA[") {
            inside = true;
            i += 9;
        } else if inside && b[i..].starts_with(b"]]>") {
            inside = false;
            i += 3;
        } else {
            n += usize::from(!(b[i] == b'\r' && b.get(i + 1) == Some(&b'\n')));
            i += 1;
        }
    }
    n
}

/// An attribute's source: its name through its value's closing quote (the tokenizer hands the
/// quotes out as discarded input, so they are found in the source beside the value).
fn attribute_span(core: &Core<'_>, a: &PendingAttr) -> Span {
    let src = core.src.as_bytes();
    let at = |i: usize| i.checked_sub(core.base).and_then(|i| src.get(i)).copied();
    let quoted = |open: usize, close: usize| matches!(at(open), Some(q @ (b'"' | b'\'')) if at(close) == Some(q));
    let end = match a.value_span {
        Some(v) if v.start > 0 && quoted(v.start - 1, v.end) => v.end + 1,
        Some(v) => v.end,
        // An empty quoted value: `x=""`.
        None if quoted(a.name_span.end, a.name_span.end + 1) => a.name_span.end + 2,
        None => a.name_span.end,
    };
    Span::new(a.name_span.start, end)
}
