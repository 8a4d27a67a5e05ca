//! Token-stream and tree snapshots (one token per line), reviewed by reading the .snap files.

use std::fmt::Write as _;

use thicket_microxml::{Options, Token, Tokenizer, parse_with, to_json};

fn dump(text: &str, options: Options) -> String {
    let (tokens, _) = Tokenizer::tokenize(text, options);
    let mut out = String::new();
    for t in &tokens {
        let _ = match t {
            Token::StartTagOpen { name, span } => writeln!(out, "StartTagOpen {name:?} {span}"),
            Token::AttributeName { name, span } => writeln!(out, "AttributeName {name:?} {span}"),
            Token::StartTagClose { span } => writeln!(out, "StartTagClose {span}"),
            Token::EmptyElementTagClose { span } => writeln!(out, "EmptyElementTagClose {span}"),
            Token::EndTag { name, span } => writeln!(out, "EndTag {name:?} {span}"),
            Token::Data { text, span } => writeln!(out, "Data {text:?} {span}"),
            Token::CharRef { text, span } => writeln!(out, "CharRef {text:?} {span}"),
            Token::Comment { data, span } => writeln!(out, "Comment {data:?} {span}"),
            Token::ProcessingInstruction { text, span } => {
                writeln!(out, "ProcessingInstruction {text:?} {span}")
            }
            Token::Doctype { name, span } => writeln!(out, "Doctype {name:?} {span}"),
            Token::Discarded { span } => {
                writeln!(out, "Discarded {:?} {span}", &text[span.start..span.end])
            }
        };
    }
    let parsed = parse_with(text, options);
    for d in &parsed.diagnostics {
        let _ = writeln!(out, "error[{}] {}", d.code, d.span);
    }
    let _ = writeln!(out, "tree {}", to_json(&parsed.document.to_element()));
    for (kind, span) in thicket_testkit::runners::microxml::tree_spans(&parsed.document) {
        let _ = writeln!(out, "{kind} {span} {:?}", &text[span.start..span.end]);
    }
    out
}

macro_rules! snap {
    ($name:ident, $text:expr) => {
        snap!($name, $text, Options::upstream());
    };
    ($name:ident, $text:expr, $options:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(dump($text, $options));
        }
    };
}

snap!(
    valid_document,
    "<doc a='1' b=\"2\">text &lt; &#x41;<e/></doc>"
);
snap!(spec_mode_boolean, "<doc att/>x", Options::spec());
snap!(boolean_attributes, "<doc att1 att2 att3=></doc>");
snap!(unquoted_and_unclosed, "<doc att=val/><p x='1<y>");
snap!(
    angle_in_quoted_value,
    "<doc att=\"val>Forgot<e att2=\"stuff\"/></doc>"
);
snap!(
    markup_declarations,
    "<?xml version='1.0'?><!DOCTYPE d [<!ENTITY e 'v'>]><!-- c --><d><![CDATA[<x>]]></d>"
);
snap!(crlf_and_bom, "\u{FEFF}<d\r\n a='x\r\ny'>1\r\n2\r</d>\r\n");
snap!(tag_matching, "<a><b><c></b>t</x></a>junk");
snap!(references, "<d>&amp;&nbsp;&#x110000;&#65;&#xD;&</d>");
snap!(
    reference_tokens,
    "&#x20;<d>&lt;</d>",
    Options {
        reference_tokens: true,
        ..Options::spec()
    }
);
