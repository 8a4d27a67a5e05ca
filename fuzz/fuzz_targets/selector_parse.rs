#![no_main]
//! thicket-rewrite selectors: arbitrary selector text never panics or overflows the stack (the
//! text is as untrusted as a document); a selector that parses prints (`to_css`) as text that
//! parses to the same selector, and both select the same elements of the document that follows
//! the first NUL byte, in HTML and in XML5.

use libfuzzer_sys::fuzz_target;
use thicket_rewrite::{Dialect, SelectorList, select};

fuzz_target!(|data: &[u8]| {
    let Ok(data) = std::str::from_utf8(data) else {
        return;
    };
    let (text, doc) = data.split_once('\0').unwrap_or((data, "<p id=a class='b c'><a href=x>y</a></p>"));
    let Ok(list) = SelectorList::parse(text) else {
        return;
    };
    let css = list.to_css();
    let again = SelectorList::parse(&css).unwrap_or_else(|e| panic!("{css:?} does not parse: {e}"));
    assert_eq!(again.to_css(), css, "printing is a fixed point");
    for dialect in [Dialect::Html, Dialect::Xml5] {
        let first = select(doc, dialect, text);
        let second = select(doc, dialect, &css);
        match (first, second) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text:?} and {css:?} select alike"),
            (Err(a), Err(b)) => assert_eq!(a.code, b.code),
            (a, b) => panic!("{text:?}: {a:?}, {css:?}: {b:?}"),
        }
    }
});
