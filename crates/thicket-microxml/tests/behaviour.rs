//! Behaviour tests: options, diagnostics, deep trees, hostile inputs, chunking. (What hostile
//! inputs cost, linear time and bounded memory, is measured by `cargo xtask adversarial` and the
//! benchmarks, never asserted here.)

use thicket_input::Span;
use thicket_microxml::{
    ErrorCode, NamedReferences, Options, Parser, Token, Tokenizer, parse, parse_with, to_json,
};

fn json(text: &str, options: Options) -> String {
    to_json(&parse_with(text, options).document.to_element())
}

fn codes(text: &str, options: Options) -> Vec<&'static str> {
    parse_with(text, options)
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect()
}

#[test]
fn million_nested_elements_build_and_drop() {
    let n = 1_000_000;
    let text = "<a>".repeat(n);
    let parsed = parse(&text);
    assert_eq!(parsed.document.to_element().depth(), n - 1);
    drop(parsed);
}

#[test]
fn deep_trees_clone_compare_and_serialize_without_recursion() {
    // Deep enough to overflow a test thread's stack if any of these recursed.
    let n = 200_000;
    let open = "<a>".repeat(n);
    let closed = format!("{open}{}", "</a>".repeat(n));
    let parsed = parse(&open);
    let valid = parse(&closed);
    assert!(valid.is_valid());
    let copy = parsed.document.to_element().clone();
    assert!(copy == parsed.document.to_element());
    assert!(valid.document.to_element() == parsed.document.to_element());
    let out = thicket_microxml::to_string(&valid.document.to_element()).unwrap();
    assert_eq!(out.len(), closed.len() - 3); // the innermost is written `<a/>`
    assert!(format!("{:?}", valid.document.to_element()).len() > n);
}

#[test]
fn decimal_references_are_opt_in() {
    assert_eq!(
        json("<d>&#120;</d>", Options::spec()),
        r#"["d",{},["&#120;"]]"#
    );
    let opts = Options {
        decimal_references: true,
        ..Options::spec()
    };
    assert_eq!(
        json("<d>&#120;&#0;&#1114112;</d>", opts),
        r#"["d",{},["x\u0000&#1114112;"]]"#
    );
    assert!(codes("<d>&#120;</d>", opts).contains(&"decimal-character-reference"));
}

#[test]
fn html5_named_references_are_opt_in() {
    assert_eq!(
        json("<d>&nbsp;&amp;</d>", Options::spec()),
        r#"["d",{},["&nbsp;&"]]"#
    );
    let opts = Options {
        named_references: NamedReferences::Html5,
        ..Options::spec()
    };
    assert_eq!(
        json("<d>&nbsp;&amp;&NotEqualTilde;&nosuch;</d>", opts),
        "[\"d\",{},[\"\u{a0}&\u{2242}\u{338}&nosuch;\"]]"
    );
}

#[test]
fn boolean_attributes_are_opt_in() {
    assert_eq!(
        json("<d a b/>", Options::spec()),
        r##"["#doc",{},["<d a b/>"]]"##
    );
    assert_eq!(
        json("<d x='1'b>t</d>", Options::spec()),
        r#"["d",{"x":"1"},["b>t"]]"#
    );
    let opts = Options {
        boolean_attributes: true,
        ..Options::spec()
    };
    assert_eq!(json("<d a b/>", opts), r#"["d",{"a":"","b":""},[]]"#);
    assert_eq!(
        json("<d x='1'b>t</d>", opts),
        r#"["d",{"x":"1","b":""},["t"]]"#
    );
    assert_eq!(
        json("<e a1 a2 a3 </e>", opts),
        r##"["#doc",{},["<e a1 a2 a3"]]"##
    );
}

#[test]
fn angle_rule_is_opt_in() {
    let text = "<doc att='val>Forgot</doc>";
    assert_eq!(
        json(text, Options::spec()),
        r#"["doc",{"att":"val>Forgot</doc>"},[]]"#
    );
    let opts = Options {
        angle_brackets_end_quoted_values: true,
        ..Options::spec()
    };
    assert_eq!(json(text, opts), r#"["doc",{"att":"val"},["Forgot"]]"#);
    assert_eq!(json("<d a=\"1<2\"/>", opts), r#"["d",{"a":"1<2"},[]]"#);
}

#[test]
fn reference_tokens_keep_whitespace() {
    let text = "&#x20;<d/>&#xA; ";
    assert_eq!(json(text, Options::spec()), r#"["d",{},[]]"#);
    let opts = Options {
        reference_tokens: true,
        ..Options::spec()
    };
    assert_eq!(json(text, opts), r##"["#doc",{},[" ",["d",{},[]],"\n"]]"##);
    let (tokens, _) = Tokenizer::tokenize("a&lt;b", opts);
    assert!(matches!(&tokens[1], Token::CharRef { text, .. } if text == "<"));
}

#[test]
fn whitespace_stripping() {
    assert_eq!(json(" \t<a> </a>\n ", Options::spec()), r#"["a",{},[" "]]"#);
    assert_eq!(json(" x ", Options::spec()), r##"["#doc",{},["x"]]"##);
    assert_eq!(json("  ", Options::spec()), r##"["#doc",{},[]]"##);
    // After the stray end-tag is removed the whitespace is all leading.
    assert_eq!(
        json(" </b> x<a/>", Options::spec()),
        r##"["#doc",{},["x",["a",{},[]]]]"##
    );
    // CR from a reference is not S.
    assert_eq!(
        json("&#xD;<a/>", Options::spec()),
        r##"["#doc",{},["\u000d",["a",{},[]]]]"##
    );
    // Inside an unclosed element nothing is stripped.
    assert_eq!(json("<a> ", Options::spec()), r#"["a",{},[" "]]"#);
}

#[test]
fn newlines_and_bom() {
    assert_eq!(
        json("\u{FEFF}<a>x\r\ny\rz</a>", Options::spec()),
        r#"["a",{},["x\ny\nz"]]"#
    );
    assert_eq!(
        json("<a b='1\r\n2'/>", Options::spec()),
        r#"["a",{"b":"1\n2"},[]]"#
    );
    let tokens = Tokenizer::tokenize("\u{FEFF}<a/>", Options::spec()).0;
    assert!(matches!(tokens[0], Token::Discarded { span } if span == Span::new(0, 3)));
    assert_eq!(tokens[1].span().start, 3);
}

#[test]
fn diagnostics() {
    let up = Options::upstream();
    assert!(codes("<doc/>", up).is_empty());
    assert_eq!(codes("<doc xmlns='u'/>", up), ["xmlns-attribute"]);
    assert_eq!(codes("<doc a:b='u'/>", up), ["invalid-name"]);
    assert_eq!(codes("<?pi?><doc/>", up), ["processing-instruction"]);
    assert_eq!(codes("<doc>2>1</doc>", up), ["unescaped-greater-than"]);
    assert_eq!(codes("<doc></doc>x", up), ["text-outside-root"]);
    assert_eq!(codes("<a/><b/>", up), ["multiple-root-elements"]);
    assert_eq!(codes("", up), ["no-root-element"]);
    assert_eq!(codes("<a><b></a>", up), ["mismatched-end-tag"]);
    assert_eq!(codes("<a></b></a>", up), ["stray-end-tag"]);
    assert_eq!(codes("<a>", up), ["unclosed-element"]);
    assert_eq!(codes("<a x='1' x='2'/>", up), ["duplicate-attribute"]);
    assert_eq!(codes("<a>&#x0;</a>", up), ["invalid-referenced-character"]);
    assert_eq!(codes("<a>\u{7F}</a>", up), ["invalid-character"]);
    assert_eq!(codes("<!--a--b--><a/>", up), ["double-hyphen-in-comment"]);
    // An unquoted value's diagnostic spans its first character, whole.
    let d = parse_with("<a x=é/>", up).diagnostics;
    assert_eq!(
        (d[0].code, d[0].span),
        (ErrorCode::UnquotedAttributeValue, Span::new(5, 7))
    );
    for code in ErrorCode::ALL {
        assert!(!code.message().is_empty());
        assert!(
            code.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-')
        );
    }
}

#[test]
fn doctype_and_subset() {
    let t = "<!DOCTYPE doc SYSTEM '[>' [ <!-- stuff]> --> <?pi]>?><!ELEMENT doc EMPTY> ] > <doc/>";
    assert_eq!(json(t, Options::spec()), r#"["doc",{},[]]"#);
    assert_eq!(
        json("<!DOCTYPE doc [ stuff]>", Options::spec()),
        r##"["#doc",{},["stuff]>"]]"##
    );
}

#[test]
fn streaming_parser_matches_whole() {
    let text = "<doc a='1' b=\"x&amp;y\">text<!-- c --><![CDATA[<x>]]>&#x41;\r\n<e/></doc>";
    let whole = parse_with(text, Options::upstream());
    for size in 1..8 {
        let mut p = Parser::new(Options::upstream());
        let bytes: Vec<char> = text.chars().collect();
        for chunk in bytes.chunks(size) {
            p.feed(&chunk.iter().collect::<String>());
        }
        assert_eq!(p.finish(), whole, "chunk size {size}");
    }
}

#[test]
fn adversarial_inputs_parse() {
    // Each of these would take quadratic time if look-ahead were repeated from every position
    // (timed by `cargo xtask adversarial`, not here).
    let n = 200_000;
    let inputs = [
        "<!--".repeat(n),
        "<?".repeat(n),
        format!("<a x='{}", "<".repeat(n)),
        format!("<a {}>", "b ".repeat(n)),
        format!("<!DOCTYPE [{}", "<!'".repeat(n)),
        format!("<a x='1'{}y>", " ".repeat(n)),
        "&#x".repeat(n),
        "</a".repeat(n),
        format!(
            "<a{}/>",
            (0..n).map(|i| format!(" x{i}=''")).collect::<String>()
        ),
        format!("<a{}/>", " x=''".repeat(n)),
        format!(
            "<a{}{}/>",
            (0..n / 2).map(|i| format!(" x{i}=''")).collect::<String>(),
            format!(" x{}=''", n / 2 - 1).repeat(n / 2)
        ),
        format!("{}{}", "<a>".repeat(n), "</b>".repeat(n)),
    ];
    for text in &inputs {
        let parsed = parse_with(text, Options::upstream());
        assert!(parsed.document.to_element().depth() < n + 1);
        let spans = thicket_testkit::runners::microxml::tree_spans(&parsed.document);
        assert!(
            spans.iter().all(|(_, s)| s.end <= text.len()),
            "{:?}",
            &text[..20]
        );
    }
}

#[test]
fn tiny_chunks_into_long_lookahead() {
    let n = 100_000;
    let inputs = [
        format!("<a{}>", " b".repeat(n)),
        format!("<{}>", "a".repeat(n)),
        format!("&#x{};", "0".repeat(n)),
        format!("<!--{}-->", "-".repeat(n)),
        format!("<!DOCTYPE a [<!{}>]>", "x".repeat(n)),
    ];
    for text in &inputs {
        // Fed one byte at a time, the tokens tile the input and equal the whole input's.
        let mut t = Tokenizer::new(Options::upstream());
        let mut spans = Vec::new();
        for c in text.as_bytes().chunks(1) {
            t.feed(std::str::from_utf8(c).unwrap());
            while let Some(tok) = t.next_token() {
                spans.push(tok.span());
            }
        }
        t.finish();
        while let Some(tok) = t.next_token() {
            spans.push(tok.span());
        }
        thicket_testkit::spans::check_tiling(text, &spans).unwrap();
        let bytes: Vec<&str> = text
            .as_bytes()
            .chunks(1)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        let whole =
            thicket_testkit::runners::microxml::tokenize_chunks(&[text], Options::upstream());
        assert_eq!(
            thicket_testkit::runners::microxml::tokenize_chunks(&bytes, Options::upstream()),
            whole,
            "{:?}...",
            &text[..8]
        );
    }
}

#[test]
fn valid_documents_have_no_diagnostics() {
    let valid = [
        "<a x = \"1\" y='2' />",
        "<a>&#x10FFFD;&#x9;</a>",
        "<!--c--> \r\n<a/>\t<!--d-->\n",
        "<é\u{B7}b/>",
        "<a>]] ' \" = / ; # !</a>",
        "<a x=\"&#x3C;&lt;&amp;\"/>",
        "<a\tx='1'\n/>",
        "<a></a \n>",
        "<a><!----></a>",
        "\u{FEFF}<a>\u{10000}\u{FFFD}</a>",
    ];
    for text in valid {
        for options in [Options::spec(), Options::upstream()] {
            let parsed = parse_with(text, options);
            assert!(parsed.is_valid(), "{text:?}: {:?}", parsed.diagnostics);
        }
    }
    let invalid = [
        "<a>]]></a>",
        "<a x='1'y='2'/>",
        "<a>\u{C}</a>",
        "<a x='\u{FDD0}'/>",
        "<a>&#x;</a>",
        "<a/>\u{C}",
        "<a><!-- - --></a><!--x-->x",
        "<a$/>",
    ];
    for text in invalid {
        assert!(!parse(text).is_valid(), "{text:?}");
    }
}
