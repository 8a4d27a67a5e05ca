//! Snapshots of event dumps: one event per line, `line start..end kind`, or the error.

use thicket_leafxml::Reader;

fn dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut reader = Reader::from_bytes(bytes);
    loop {
        match reader.next_event() {
            Ok(Some(e)) => {
                out.push_str(&format!(
                    "{} {}..{} {}\n",
                    e.line, e.span.start, e.span.end, e.kind
                ));
            }
            Ok(None) => break,
            Err(e) => {
                out.push_str(&format!(
                    "error[{}] {}:{} @{}\n",
                    e.code, e.line, e.column, e.byte_offset
                ));
                break;
            }
        }
    }
    out
}

#[test]
fn namespaces() {
    insta::assert_snapshot!(dump(
        br#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE feed>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en">
  <title type="text">r/rust</title>
  <media:thumbnail url="https://x.invalid/a.png?w=1&amp;h=2"/>
  <entry xmlns="urn:other" media:id=" 4  2 "><id>1</id></entry>
</feed>
"#
    ));
}

#[test]
fn mixed_content() {
    insta::assert_snapshot!(dump(
        "<doc>\r\n  Caf\u{65}\u{301} &amp; <![CDATA[<raw> & ]]]]><!-- gone -->text\u{2028}<b\r\n   k = 'v'/>tail</doc>\n"
            .as_bytes()
    ));
}

#[test]
fn utf16_input() {
    let text = "<a>\n  <é x=\"漢\"/>\n</a>";
    let bytes: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    insta::assert_snapshot!(dump(&bytes));
}

#[test]
fn errors() {
    let cases: [&[u8]; 6] = [
        b"<a>\n  <b>\n</a>",
        b"<a b='1' b='2'/>",
        b"<a>&#x84;</a>",
        b"<!DOCTYPE a [ ]><a/>",
        b"<p:a xmlns:p='u'></p:a>\n<b/>",
        b"<a>\xC3\x28</a>",
    ];
    let all: String = cases.iter().map(|c| dump(c)).collect();
    insta::assert_snapshot!(all);
}
