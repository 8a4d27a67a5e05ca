//! Snapshots of token streams and trees: the draft README examples and one input per error code.

use std::fmt::Write as _;

use thicket_input::Limits;
use thicket_xml5::{ErrorCode, Event, Options, Parsed, Profile, TokenKind, events, parse_with};

/// One token or diagnostic per line.
fn dump_events(input: &str, options: &Options) -> String {
    let mut out = String::new();
    for e in events(input, options.clone()) {
        match e {
            Event::Diagnostic(d) => {
                let _ = writeln!(out, "error[{}] {}", d.code.as_str(), d.span);
            }
            Event::Token(t) => {
                let what = match &t.kind {
                    TokenKind::StartTag { name, attributes }
                    | TokenKind::EmptyTag { name, attributes } => {
                        let kind = if matches!(t.kind, TokenKind::StartTag { .. }) {
                            "StartTag"
                        } else {
                            "EmptyTag"
                        };
                        let attrs: Vec<String> = attributes
                            .iter()
                            .map(|a| {
                                format!(
                                    " {}={:?} {} (name {}, value {})",
                                    a.name, a.value, a.span, a.name_span, a.value_span
                                )
                            })
                            .collect();
                        format!("{kind} {name:?}{}", attrs.concat())
                    }
                    TokenKind::EndTag { name } => format!("EndTag {name:?}"),
                    TokenKind::ShortEndTag => "ShortEndTag".to_owned(),
                    TokenKind::Text(s) => format!("Text {s:?}"),
                    TokenKind::Comment(s) => format!("Comment {s:?}"),
                    TokenKind::Pi { target, data } => format!("Pi {target:?} {data:?}"),
                    TokenKind::XmlDeclaration {
                        version,
                        encoding,
                        standalone,
                    } => format!("XmlDeclaration {version:?} {encoding:?} {standalone:?}"),
                    TokenKind::Doctype {
                        name,
                        public_id,
                        system_id,
                    } => format!("Doctype {name:?} {public_id:?} {system_id:?}"),
                    TokenKind::Discarded => "Discarded".to_owned(),
                    TokenKind::Eof => "Eof".to_owned(),
                };
                let _ = writeln!(out, "{what} {}", t.span);
            }
        }
    }
    out
}

fn dump_all(input: &str, profile: Profile) -> String {
    dump_with(input, &Options::with_profile(profile))
}

fn dump_with(input: &str, options: &Options) -> String {
    let Parsed {
        document: doc,
        diagnostics,
        omitted_diagnostics,
    } = parse_with(input, options.clone());
    let mut out = format!("input: {input:?}\nprofile: {:?}\n", options.profile);
    if options.limits != Limits::none() {
        let _ = writeln!(out, "limits: {:?}", options.limits);
    }
    out.push_str("\ntokens:\n");
    out.push_str(&dump_events(input, options));
    out.push_str("\ntree:\n");
    out.push_str(&doc.dump());
    out.push_str("\ndiagnostics:\n");
    for d in &diagnostics {
        let _ = writeln!(out, "{} {} {}", d.code.as_str(), d.span, d.code.message());
    }
    if omitted_diagnostics > 0 {
        let _ = writeln!(out, "{omitted_diagnostics} omitted");
    }
    out
}

#[test]
fn draft_readme_examples() {
    insta::assert_snapshot!("bold", dump_all("A <b>bold</b> new world", Profile::Draft));
    insta::assert_snapshot!("tom_and_jerry", dump_all("Tom & Jerry", Profile::Draft));
    insta::assert_snapshot!(
        "tom_and_jerry_in_element",
        dump_all("<p>Tom & Jerry</p>", Profile::Draft)
    );
}

/// An input that produces each code, and the profile it needs.
const EXAMPLES: &[(ErrorCode, Profile, &str)] = {
    use ErrorCode::*;
    use Profile::{Compatibility as C, Draft as D};
    &[
        (AbruptClosingOfEmptyComment, D, "<a><!--></a>"),
        (AbruptClosingXmlDeclaration, D, "<?xml version='1.0?><a/>"),
        (ColonBeforeAttr, D, "<a :b='1'/>"),
        (EofInCdata, D, "<a><![CDATA[x"),
        (EofInComment, D, "<a/><!--x"),
        (EofInDoctype, D, "<!DOCTYPE a"),
        (EofInTag, D, "<a b"),
        (EofInXmlDeclaration, D, "<?xml version"),
        (IncorrectlyOpenedComment, D, "<a><!x></a>"),
        (InvalidXmlDeclaration, D, "<?xml foo?><a/>"),
        (MissingWhitespaceBeforeDoctypeName, D, "<!DOCTYPEa><a/>"),
        (MissingDoctypeName, D, "<!DOCTYPE><a/>"),
        (InvalidFirstCharacterOfTagName, D, "<a>< b</a>"),
        (InvalidFirstCharacterOfEndTagName, D, "<a></ a</a>"),
        (SolidusInEndTag, D, "<a></a/>"),
        (UnexpectedCharacterAfterEndTagName, D, "<a></a b>"),
        (DuplicateAttribute, D, "<a b='1' b='2'/>"),
        (AttributeValueWithoutName, D, "<a/x b>"),
        (MissingPiTarget, D, "<a><? x?></a>"),
        (EofInPi, D, "<a/><?x y"),
        (IncorrectlyClosedComment, D, "<a><!--x--!></a>"),
        (NestedComment, D, "<a><!--<!--x--></a>"),
        (
            InvalidCharacterSequenceAfterDoctypeName,
            C,
            "<!DOCTYPE a x><a/>",
        ),
        (
            MissingWhitespaceAfterDoctypeKeyword,
            C,
            "<!DOCTYPE a PUBLIC'x'><a/>",
        ),
        (
            MissingQuoteBeforeDoctypeIdentifier,
            C,
            "<!DOCTYPE a PUBLIC x><a/>",
        ),
        (AbruptDoctypeIdentifier, C, "<!DOCTYPE a PUBLIC 'x><a/>"),
        (
            MissingWhitespaceBetweenDoctypeIdentifiers,
            C,
            "<!DOCTYPE a PUBLIC 'x''y'><a/>",
        ),
        (
            UnexpectedCharacterAfterDoctypeIdentifier,
            C,
            "<!DOCTYPE a SYSTEM 'x' y><a/>",
        ),
        (MissingSemicolonAfterCharacterReference, D, "<a>&#65</a>"),
        (AbsenceOfDigitsInNumericCharacterReference, D, "<a>&#x;</a>"),
        (NullCharacterReference, D, "<a>&#0;</a>"),
        (
            CharacterReferenceOutsideUnicodeRange,
            D,
            "<a>&#x110000;</a>",
        ),
        (SurrogateCharacterReference, D, "<a>&#xD800;</a>"),
        (NoncharacterCharacterReference, D, "<a>&#xFFFE;</a>"),
        (ControlCharacterReference, D, "<a>&#1;</a>"),
        (UnknownNamedCharacterReference, D, "<a>&bogus;</a>"),
        (
            EqualsSignAfterCharacterReferenceInAttribute,
            C,
            "<a b='&amp=x'/>",
        ),
        (ControlCharacterInInputStream, D, "<a>\u{1}</a>"),
        (NoncharacterInInputStream, D, "<a>\u{FFFF}</a>"),
        (UnexpectedNullCharacter, D, "<a>\0</a>"),
        (TextOutsideRoot, D, "x<a/>"),
        (UnexpectedToken, D, "</b><a/>"),
        (MisplacedDoctype, D, "<a><!DOCTYPE a></a>"),
        (MisplacedXmlDeclaration, D, "<a/><?xml version='1.0'?>"),
        (MismatchedEndTag, D, "<a><b></a>"),
        (EofBeforeRoot, D, ""),
        (EofInElement, D, "<a>"),
        (UnboundPrefix, D, "<p:a/>"),
        (InvalidNamespaceDeclaration, D, "<a xmlns:xml='x'/>"),
        (
            DuplicateExpandedAttribute,
            D,
            "<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>",
        ),
    ]
};

/// The limit codes, each with the limit that produces it.
fn limit_examples() -> Vec<(ErrorCode, Limits, &'static str)> {
    use ErrorCode::*;
    let none = Limits::none();
    vec![
        (
            DepthLimit,
            none.with_max_depth(2),
            "<a><b><c>x<d/></c>y</b></a>",
        ),
        (
            AttributeLimit,
            none.with_max_attributes(2),
            "<a x='1' y='2' z='3' w='4'/>",
        ),
        (
            NameLengthLimit,
            none.with_max_name_len(3),
            "<abcdef ghijk='1'/>",
        ),
        (
            ValueLengthLimit,
            none.with_max_value_len(3),
            "<a b='12345&amp;'/>",
        ),
        (
            NamespaceLimit,
            none.with_max_namespace_declarations(1),
            "<a xmlns:p='urn:p'><b xmlns:q='urn:q'><q:c/></b></a>",
        ),
    ]
}

/// The encoding codes (`parse_bytes`), each with an input that produces it.
const ENCODING_EXAMPLES: &[(ErrorCode, &[u8])] = &[
    (
        ErrorCode::UnknownEncoding,
        b"<?xml version='1.0' encoding='x-bogus-42'?><a/>",
    ),
    (
        ErrorCode::EncodingMismatch,
        b"\xEF\xBB\xBF<?xml version='1.0' encoding='ISO-8859-1'?><a/>",
    ),
];

#[test]
fn every_error_code_has_an_example() {
    let limits = limit_examples();
    for code in ErrorCode::ALL {
        assert!(
            EXAMPLES.iter().any(|(c, _, _)| c == code)
                || limits.iter().any(|(c, _, _)| c == code)
                || ENCODING_EXAMPLES.iter().any(|(c, _)| c == code),
            "no example for {}",
            code.as_str()
        );
    }
}

#[test]
fn limit_code_snapshots() {
    for (code, limits, input) in limit_examples() {
        let options = Options {
            limits,
            ..Options::default()
        };
        let Parsed { diagnostics, .. } = parse_with(input, options.clone());
        assert!(
            diagnostics.iter().any(|d| d.code == code),
            "{input:?} does not give {}: {diagnostics:?}",
            code.as_str()
        );
        insta::assert_snapshot!(
            format!("error_{}", code.as_str()),
            dump_with(input, &options)
        );
    }
}

#[test]
fn encoding_code_snapshots() {
    for &(code, bytes) in ENCODING_EXAMPLES {
        let p = thicket_xml5::parse_bytes_with(bytes, Options::default());
        let mut out = format!(
            "input: {bytes:?}\nencoding: {}\n\ndiagnostics:\n",
            p.encoding.name()
        );
        for d in &p.diagnostics {
            let _ = writeln!(
                out,
                "{} {} {:?} {}",
                d.code.as_str(),
                d.span,
                &p.text[d.span.start..d.span.end],
                d.code.message()
            );
        }
        assert!(p.diagnostics.iter().any(|d| d.code == code), "{out}");
        insta::assert_snapshot!(format!("error_{}", code.as_str()), out);
    }
}

#[test]
fn error_code_snapshots() {
    for &(code, profile, input) in EXAMPLES {
        let Parsed {
            document: _,
            diagnostics,
            ..
        } = parse_with(input, Options::with_profile(profile));
        assert!(
            diagnostics.iter().any(|d| d.code == code),
            "{input:?} does not give {}: {diagnostics:?}",
            code.as_str()
        );
        insta::assert_snapshot!(format!("error_{}", code.as_str()), dump_all(input, profile));
    }
}

#[test]
fn codes_are_kebab_case_and_unique() {
    let mut seen = std::collections::HashSet::new();
    for code in ErrorCode::ALL {
        let s = code.as_str();
        assert!(
            s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{s}"
        );
        assert!(seen.insert(s), "{s} twice");
        assert!(!code.message().is_empty());
    }
}
