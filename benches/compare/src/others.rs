//! Adapters for the parsers Thicket is compared with. Each does the work its own benchmarks
//! measure, and returns a count so the work is not optimized away.

use std::cell::Cell;

/// html5gum with its default emitter: fully materialized tokens.
pub fn html5gum(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut n = 0usize;
    for token in html5gum::Tokenizer::new(text) {
        match token.ok()? {
            html5gum::Token::StartTag(t) => n += 1 + t.attributes.len(),
            html5gum::Token::String(s) => n += s.len(),
            _ => n += 1,
        }
    }
    Some(n)
}

struct Html5everSink(Cell<usize>);

impl html5ever::tokenizer::TokenSink for Html5everSink {
    type Handle = ();
    fn process_token(
        &self,
        _token: html5ever::tokenizer::Token,
        _line: u64,
    ) -> html5ever::tokenizer::TokenSinkResult<()> {
        self.0.set(self.0.get() + 1);
        html5ever::tokenizer::TokenSinkResult::Continue
    }
}

/// html5ever's tokenizer with a counting sink.
pub fn html5ever(text: &str, _bytes: &[u8]) -> Option<usize> {
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
    let tok = Tokenizer::new(Html5everSink(Cell::new(0)), TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(text));
    let _ = tok.feed(&queue);
    tok.end();
    Some(tok.sink.0.get())
}

/// lol_html with a doctype handler, which forces its full lexer (as lol_html's own benches do).
pub fn lol_html(_text: &str, bytes: &[u8]) -> Option<usize> {
    use lol_html::{HtmlRewriter, Settings, doctype};
    let mut out = 0usize;
    let mut rewriter = HtmlRewriter::new(
        Settings::new().append_document_content_handler(doctype!(|_d| Ok(()))),
        |c: &[u8]| out += c.len(),
    );
    rewriter.write(bytes).ok()?;
    rewriter.end().ok()?;
    Some(out)
}

struct Xml5everSink(Cell<usize>);

impl xml5ever::tokenizer::TokenSink for Xml5everSink {
    type Handle = ();
    fn process_token(
        &self,
        _token: xml5ever::tokenizer::Token,
    ) -> xml5ever::tokenizer::ProcessResult<()> {
        self.0.set(self.0.get() + 1);
        xml5ever::tokenizer::ProcessResult::Continue
    }
}

/// xml5ever's tokenizer with a counting sink.
pub fn xml5ever(text: &str, _bytes: &[u8]) -> Option<usize> {
    use xml5ever::buffer_queue::BufferQueue;
    use xml5ever::tendril::StrTendril;
    use xml5ever::tokenizer::XmlTokenizer;
    let tok = XmlTokenizer::new(Xml5everSink(Cell::new(0)), Default::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(text));
    let _ = tok.feed(&queue);
    tok.end();
    Some(tok.sink.0.get())
}

/// roxmltree: a full tree (DTDs allowed, as the corpus has some).
pub fn roxmltree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, opts).ok()?;
    Some(doc.descendants().count())
}

/// xmlparser: the token stream.
pub fn xmlparser(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut n = 0;
    for token in xmlparser::Tokenizer::from(text) {
        token.ok()?;
        n += 1;
    }
    Some(n)
}

/// quick-xml's NsReader with namespace resolution and unescaping of text and attribute values.
pub fn quick_xml_ns(text: &str, _bytes: &[u8]) -> Option<usize> {
    use quick_xml::XmlVersion;
    use quick_xml::events::Event;
    let mut reader = quick_xml::NsReader::from_str(text);
    let mut n = 0usize;
    loop {
        let (ns, event) = reader.read_resolved_event().ok()?;
        let _ = ns;
        match event {
            Event::Start(e) | Event::Empty(e) => {
                for a in e.attributes() {
                    let a = a.ok()?;
                    let (ns, _) = reader.resolver().resolve_attribute(a.key);
                    let _ = ns;
                    n += a.normalized_value(XmlVersion::Implicit1_0).ok()?.len();
                }
                n += 1;
            }
            Event::Text(t) => n += t.xml_content(XmlVersion::Implicit1_0).len(),
            Event::CData(t) => n += t.len(),
            Event::GeneralRef(r) => {
                n += match r.resolve_char_ref().ok()? {
                    Some(c) => c.len_utf8(),
                    None => quick_xml::escape::resolve_predefined_entity(
                        &r.xml_content(XmlVersion::Implicit1_0),
                    )
                    .map_or(1, str::len),
                }
            }
            Event::Eof => break,
            _ => n += 1,
        }
    }
    Some(n)
}
