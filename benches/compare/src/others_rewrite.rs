//! The rewriters thicket-rewrite is compared with (issue 16): lol_html for HTML, a quick-xml
//! reader-to-writer loop for XML, doing the same work as `thicket/rewrite.rs`.

use std::cell::RefCell;

/// lol_html: `rel="nofollow"` on every `a[href]`, output to a `Vec<u8>`, honouring a
/// `<meta charset>` (`with_adjust_charset_on_meta_tag`) as thicket-rewrite fed bytes sniffs
/// one: the same work on a document that declares a legacy encoding (html5gum-6D30.html says
/// iso-8859-1), where lol_html told UTF-8 reads text and writes inserted text in the wrong
/// encoding. [`lol_nofollow_utf8`] is lol_html told UTF-8 (its default), the counterpart of
/// thicket-rewrite fed a `&str` (no sniffing either).
///
/// The output goes to a `Vec<u8>` kept from run to run (`crate::output`), as thicket-rewrite's
/// does.
pub fn lol_nofollow(_text: &str, bytes: &[u8]) -> Option<usize> {
    let room = bytes.len() + bytes.len() / 8;
    crate::output::with_output(room, |out| lol_nofollow_into(bytes, true, out))
}

/// [`lol_nofollow`] told UTF-8: no `<meta charset>` looked at.
pub fn lol_nofollow_utf8(_text: &str, bytes: &[u8]) -> Option<usize> {
    let room = bytes.len() + bytes.len() / 8;
    crate::output::with_output(room, |out| lol_nofollow_into(bytes, false, out))
}

/// The output of [`lol_nofollow`] (also used by `--check-rewrite`).
pub fn lol_nofollow_output(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    lol_nofollow_into(bytes, true, &mut out)?;
    Some(out)
}

/// [`lol_nofollow`]'s work, appending to `out`; answers the output's length.
fn lol_nofollow_into(bytes: &[u8], meta: bool, out: &mut Vec<u8>) -> Option<usize> {
    use lol_html::{HtmlRewriter, Settings, element};
    {
        let mut rw = HtmlRewriter::new(
            Settings::new()
                .with_adjust_charset_on_meta_tag(meta)
                .append_element_content_handler(element!("a[href]", |a| {
                    a.set_attribute("rel", "nofollow")?;
                    Ok(())
                })),
            |c: &[u8]| out.extend_from_slice(c),
        );
        rw.write(bytes).ok()?;
        rw.end().ok()?;
    }
    Some(out.len())
}

/// lol_html: the text of every `h1, h2, h3` (an element handler and a text handler on the
/// selector; lol_html has no read-only mode, so its output goes to a sink that drops it).
pub fn lol_headings(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(lol_headings_text(bytes)?.len())
}

/// [`lol_headings`] told UTF-8: no `<meta charset>` looked at.
pub fn lol_headings_utf8(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(lol_headings_with(bytes, false)?.len())
}

/// The text [`lol_headings`] collects (also used by `--check-rewrite`).
pub fn lol_headings_text(bytes: &[u8]) -> Option<String> {
    lol_headings_with(bytes, true)
}

fn lol_headings_with(bytes: &[u8], meta: bool) -> Option<String> {
    use lol_html::{HtmlRewriter, Settings, element, text};
    let text = RefCell::new(String::new());
    let count = RefCell::new(0usize);
    {
        let mut rw = HtmlRewriter::new(
            Settings::new()
                .with_adjust_charset_on_meta_tag(meta)
                .append_element_content_handler(element!("h1, h2, h3", |_h| {
                    *count.borrow_mut() += 1;
                    Ok(())
                }))
                .append_element_content_handler(text!("h1, h2, h3", |t| {
                    text.borrow_mut().push_str(t.as_str());
                    Ok(())
                })),
            |_: &[u8]| {},
        );
        rw.write(bytes).ok()?;
        rw.end().ok()?;
    }
    std::hint::black_box(count.into_inner());
    Some(text.into_inner())
}

/// quick-xml: a reader-to-writer loop that adds `data-seen="1"` to every start or empty tag
/// with an `id` attribute and writes every other event back as read.
pub fn quick_xml_set_attribute(text: &str, _bytes: &[u8]) -> Option<usize> {
    Some(quick_xml_set_attribute_output(text)?.len())
}

/// The output of [`quick_xml_set_attribute`] (also used by `--check-rewrite`).
pub fn quick_xml_set_attribute_output(text: &str) -> Option<Vec<u8>> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(text.len() + text.len() / 8));
    loop {
        let event = reader.read_event().ok()?;
        match event {
            Event::Start(e) if has_id(&e)? => {
                let mut e = e.into_owned();
                e.push_attribute(("data-seen", "1"));
                writer.write_event(Event::Start(e)).ok()?;
            }
            Event::Empty(e) if has_id(&e)? => {
                let mut e = e.into_owned();
                e.push_attribute(("data-seen", "1"));
                writer.write_event(Event::Empty(e)).ok()?;
            }
            Event::Eof => break,
            e => writer.write_event(e).ok()?,
        }
    }
    Some(writer.into_inner())
}

fn has_id(e: &quick_xml::events::BytesStart<'_>) -> Option<bool> {
    for a in e.attributes() {
        if a.ok()?.key.into_inner() == "id" {
            return Some(true);
        }
    }
    Some(false)
}
