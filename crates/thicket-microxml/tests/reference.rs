//! A naive, literal transcription of the spec (our copy, `Options::spec()`, and the upstream head
//! revision's additions, `Options::upstream()`): every lexical token
//! tried at every step, the longest taken; tree building as successive rewrites of the abstract
//! token list, in the spec's order. The real parser (fast paths, caches, streaming) must agree
//! with it on random inputs.

use proptest::prelude::*;
use thicket_microxml::{Options, parse_with, to_json};

#[derive(Clone, Debug, PartialEq)]
enum Abs {
    DataChar(char),
    StartTagOpen(String),
    StartTagClose,
    EmptyElementTagClose,
    EndTag(String),
    AttributeName(String),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Main,
    Tag,
    StartAttributeValue,
    UnquoteAttributeValue,
    SingleQuoteAttributeValue,
    DoubleQuoteAttributeValue,
    CData,
    Doctype,
    Subset,
}

fn is_s(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{C}' | ' ')
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | ':' | '$') || c as u32 >= 0x80
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || matches!(c, '-' | '.')
}

/// One lexical token match: name, length, associated strings.
type Lex = (&'static str, usize, Vec<String>);

struct Input<'a>(&'a [char]);

impl Input<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.0.get(i).copied()
    }
    fn lit(&self, i: usize, s: &str) -> Option<usize> {
        let n = s.chars().count();
        (self.0.len() >= i + n && self.0[i..i + n].iter().copied().eq(s.chars())).then_some(n)
    }
    fn s_star(&self, mut i: usize) -> usize {
        while self.at(i).is_some_and(is_s) {
            i += 1;
        }
        i
    }
    fn name(&self, i: usize) -> Option<(usize, String)> {
        if !self.at(i).is_some_and(is_name_start) {
            return None;
        }
        let mut j = i + 1;
        while self.at(j).is_some_and(is_name_char) {
            j += 1;
        }
        Some((j, self.0[i..j].iter().collect()))
    }
    /// `TAG_CONTEXT ::= (S+ NAME)* S* (">" | "/>" | S NAME S* "=")`, tried every way.
    fn tag_context(&self, i: usize) -> bool {
        let k = self.s_star(i);
        if self.at(k) == Some('>') || self.lit(k, "/>").is_some() {
            return true;
        }
        if k == i {
            return false;
        }
        let Some((l, _)) = self.name(k) else {
            return false;
        };
        self.at(self.s_star(l)) == Some('=') || self.tag_context(l)
    }

    fn find(&self, from: usize, s: &str) -> Option<usize> {
        (from..self.0.len()).find(|&k| self.lit(k, s).is_some())
    }

    fn token(&self, name: &'static str, i: usize) -> Option<Lex> {
        let c = self.at(i)?;
        let one = |n: usize, v: Vec<String>| Some((name, n, v));
        match name {
            "DATA_CHAR" => one(1, vec![c.to_string()]),
            "DECL_CHAR" => {
                (!matches!(c, '[' | ']' | '<' | '>' | '"' | '\'')).then(|| (name, 1, vec![]))
            }
            "S" => is_s(c).then(|| (name, 1, vec![])),
            "SINGLE_QUOTE" => (c == '\'').then(|| (name, 1, vec![])),
            "DOUBLE_QUOTE" => (c == '"').then(|| (name, 1, vec![])),
            "START_TAG_CLOSE" => (c == '>').then(|| (name, 1, vec![])),
            "SUBSET_OPEN" => (c == '[').then(|| (name, 1, vec![])),
            "EMPTY_ELEMENT_TAG_CLOSE" => self.lit(i, "/>").map(|n| (name, n, vec![])),
            "CDATA_OPEN" => self.lit(i, "<![CDATA[").map(|n| (name, n, vec![])),
            "CDATA_CLOSE" => self.lit(i, "]]>").map(|n| (name, n, vec![])),
            "DOCTYPE_OPEN" => {
                let ok = self.lit(i, "<!").is_some()
                    && self.0.len() >= i + 9
                    && self.0[i + 2..i + 9]
                        .iter()
                        .collect::<String>()
                        .eq_ignore_ascii_case("doctype");
                ok.then(|| (name, 9, vec![]))
            }
            "SIMPLE_START_TAG" | "SIMPLE_EMPTY_ELEMENT_TAG" | "START_TAG_ATTRIBUTE" => {
                self.lit(i, "<")?;
                let (j, elem) = self.name(i + 1)?;
                let k = self.s_star(j);
                match name {
                    "SIMPLE_START_TAG" => {
                        (self.at(k) == Some('>')).then(|| (name, k + 1 - i, vec![elem]))
                    }
                    "SIMPLE_EMPTY_ELEMENT_TAG" => {
                        self.lit(k, "/>").map(|_| (name, k + 2 - i, vec![elem]))
                    }
                    _ => {
                        if k == j {
                            return None;
                        }
                        let (l, att) = self.name(k)?;
                        let m = self.s_star(l);
                        (self.at(m) == Some('=')).then(|| (name, m + 1 - i, vec![elem, att]))
                    }
                }
            }
            "ATTRIBUTE_NAME_EQUALS" => {
                let (l, att) = self.name(self.s_star(i))?;
                let m = self.s_star(l);
                (self.at(m) == Some('=')).then(|| (name, m + 1 - i, vec![att]))
            }
            "END_TAG" => {
                self.lit(i, "</")?;
                let (j, n) = self.name(i + 2)?;
                let k = self.s_star(j);
                (self.at(k) == Some('>')).then(|| (name, k + 1 - i, vec![n]))
            }
            "NAMED_CHAR_REF" => {
                self.lit(i, "&")?;
                let (j, n) = self.name(i + 1)?;
                (self.at(j) == Some(';')).then(|| (name, j + 1 - i, vec![n]))
            }
            "NUMERIC_CHAR_REF" => {
                self.lit(i, "&#x")?;
                let mut j = i + 3;
                while self.at(j).is_some_and(|c| c.is_ascii_hexdigit()) {
                    j += 1;
                }
                (j > i + 3 && self.at(j) == Some(';'))
                    .then(|| (name, j + 1 - i, vec![self.0[i + 3..j].iter().collect()]))
            }
            "PI" => {
                self.lit(i, "<?")?;
                self.find(i + 2, "?>").map(|k| (name, k + 2 - i, vec![]))
            }
            "COMMENT" => {
                self.lit(i, "<!--")?;
                self.find(i + 4, "-->").map(|k| (name, k + 3 - i, vec![]))
            }
            "LITERAL" => {
                if c != '"' && c != '\'' {
                    return None;
                }
                let end = (i + 1..self.0.len()).find(|&k| self.0[k] == c)?;
                one(end + 1 - i, vec![])
            }
            "DECL" => {
                self.lit(i, "<!")?;
                let mut j = i + 2;
                loop {
                    if self.at(j) == Some('>') {
                        return one(j + 1 - i, vec![]);
                    }
                    if let Some((_, n, _)) = self.token("LITERAL", j) {
                        j += n;
                    } else if self.token("DECL_CHAR", j).is_some() {
                        j += 1;
                    } else {
                        return None;
                    }
                }
            }
            "START_TAG_OPEN" => {
                self.lit(i, "<")?;
                let (j, elem) = self.name(i + 1)?;
                self.tag_context(j).then(|| (name, j - i, vec![elem]))
            }
            "BOOLEAN_ATTRIBUTE" => {
                let (j, att) = self.name(self.s_star(i))?;
                self.tag_context(j).then(|| (name, j - i, vec![att]))
            }
            "ATTRIBUTE_VALUE_CHAR" => {
                (!matches!(c, '<' | '>')).then(|| (name, 1, vec![c.to_string()]))
            }
            "ANGLE_SINGLE" | "ANGLE_DOUBLE" => {
                let q = if name == "ANGLE_SINGLE" { '\'' } else { '"' };
                if !matches!(c, '<' | '>') {
                    return None;
                }
                let end = (i + 1..self.0.len()).find(|&k| self.0[k] == q)?;
                let after = self.at(end + 1)?;
                (is_s(after) || after == '>' || self.lit(end + 1, "/>").is_some())
                    .then(|| (name, 1, vec![c.to_string()]))
            }
            "DECIMAL_CHAR_REF" => {
                self.lit(i, "&#")?;
                let mut j = i + 2;
                while self.at(j).is_some_and(|c| c.is_ascii_digit()) {
                    j += 1;
                }
                (j > i + 2 && self.at(j) == Some(';'))
                    .then(|| (name, j + 1 - i, vec![self.0[i + 2..j].iter().collect()]))
            }
            "SUBSET_CLOSE" => {
                self.lit(i, "]")?;
                let k = self.s_star(i + 1);
                (self.at(k) == Some('>')).then(|| (name, k + 1 - i, vec![]))
            }
            _ => None,
        }
    }
}

fn recognized(mode: Mode, upstream: bool) -> &'static [&'static str] {
    if upstream {
        match mode {
            Mode::Main => {
                return &[
                    "DATA_CHAR",
                    "NAMED_CHAR_REF",
                    "NUMERIC_CHAR_REF",
                    "DECIMAL_CHAR_REF",
                    "START_TAG_OPEN",
                    "END_TAG",
                    "CDATA_OPEN",
                    "COMMENT",
                    "PI",
                    "DOCTYPE_OPEN",
                ];
            }
            Mode::Tag => {
                return &[
                    "ATTRIBUTE_NAME_EQUALS",
                    "BOOLEAN_ATTRIBUTE",
                    "EMPTY",
                    "START_TAG_CLOSE",
                    "EMPTY_ELEMENT_TAG_CLOSE",
                    "S",
                ];
            }
            Mode::UnquoteAttributeValue => {
                return &[
                    "DATA_CHAR",
                    "NAMED_CHAR_REF",
                    "NUMERIC_CHAR_REF",
                    "DECIMAL_CHAR_REF",
                    "START_TAG_CLOSE",
                    "EMPTY_ELEMENT_TAG_CLOSE",
                    "S",
                ];
            }
            Mode::SingleQuoteAttributeValue => {
                return &[
                    "ATTRIBUTE_VALUE_CHAR",
                    "NAMED_CHAR_REF",
                    "NUMERIC_CHAR_REF",
                    "DECIMAL_CHAR_REF",
                    "ANGLE_SINGLE",
                    "SINGLE_QUOTE",
                    "EMPTY",
                ];
            }
            Mode::DoubleQuoteAttributeValue => {
                return &[
                    "ATTRIBUTE_VALUE_CHAR",
                    "NAMED_CHAR_REF",
                    "NUMERIC_CHAR_REF",
                    "DECIMAL_CHAR_REF",
                    "ANGLE_DOUBLE",
                    "DOUBLE_QUOTE",
                    "EMPTY",
                ];
            }
            _ => {}
        }
    }
    match mode {
        Mode::Main => &[
            "DATA_CHAR",
            "NAMED_CHAR_REF",
            "NUMERIC_CHAR_REF",
            "SIMPLE_START_TAG",
            "SIMPLE_EMPTY_ELEMENT_TAG",
            "START_TAG_ATTRIBUTE",
            "END_TAG",
            "CDATA_OPEN",
            "COMMENT",
            "PI",
            "DOCTYPE_OPEN",
        ],
        Mode::Tag => &[
            "ATTRIBUTE_NAME_EQUALS",
            "EMPTY",
            "START_TAG_CLOSE",
            "EMPTY_ELEMENT_TAG_CLOSE",
            "S",
        ],
        Mode::StartAttributeValue => &[
            "S",
            "SINGLE_QUOTE",
            "DOUBLE_QUOTE",
            "EMPTY",
            "START_TAG_CLOSE",
            "EMPTY_ELEMENT_TAG_CLOSE",
        ],
        Mode::UnquoteAttributeValue => &[
            "DATA_CHAR",
            "NAMED_CHAR_REF",
            "NUMERIC_CHAR_REF",
            "START_TAG_CLOSE",
            "EMPTY_ELEMENT_TAG_CLOSE",
            "S",
        ],
        Mode::SingleQuoteAttributeValue => &[
            "DATA_CHAR",
            "NAMED_CHAR_REF",
            "NUMERIC_CHAR_REF",
            "SINGLE_QUOTE",
        ],
        Mode::DoubleQuoteAttributeValue => &[
            "DATA_CHAR",
            "NAMED_CHAR_REF",
            "NUMERIC_CHAR_REF",
            "DOUBLE_QUOTE",
        ],
        Mode::CData => &["DATA_CHAR", "CDATA_CLOSE"],
        Mode::Doctype => &[
            "DECL_CHAR",
            "LITERAL",
            "EMPTY",
            "START_TAG_CLOSE",
            "SUBSET_OPEN",
        ],
        Mode::Subset => &["COMMENT", "PI", "DECL", "S", "SUBSET_CLOSE", "EMPTY"],
    }
}

fn tokenize(text: &str, upstream: bool) -> Vec<Abs> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let chars: Vec<char> = text.chars().collect();
    let input = Input(&chars);
    let mut out = Vec::new();
    let mut mode = Mode::Main;
    let mut i = 0;
    while i < chars.len() {
        let mut best: Option<Lex> = None;
        for &name in recognized(mode, upstream) {
            let m = if name == "EMPTY" {
                Some((name, 0, vec![]))
            } else {
                input.token(name, i)
            };
            if let Some(m) = m {
                let better = match &best {
                    None => true,
                    Some(b) => {
                        m.1 > b.1
                            || (m.1 == b.1 && matches!(b.0, "DATA_CHAR" | "ATTRIBUTE_VALUE_CHAR"))
                    }
                };
                if better {
                    best = Some(m);
                }
            }
        }
        let (name, len, data) = best.expect("EMPTY or DATA_CHAR always matches where needed");
        let literal =
            |out: &mut Vec<Abs>| out.extend(chars[i..i + len].iter().map(|&c| Abs::DataChar(c)));
        use Mode::*;
        mode = match (mode, name) {
            (_, "DATA_CHAR" | "ATTRIBUTE_VALUE_CHAR" | "ANGLE_SINGLE" | "ANGLE_DOUBLE") => {
                out.push(Abs::DataChar(chars[i]));
                mode
            }
            (_, "NAMED_CHAR_REF") => {
                match data[0].as_str() {
                    "lt" => out.push(Abs::DataChar('<')),
                    "gt" => out.push(Abs::DataChar('>')),
                    "amp" => out.push(Abs::DataChar('&')),
                    "quot" => out.push(Abs::DataChar('"')),
                    "apos" => out.push(Abs::DataChar('\'')),
                    _ => literal(&mut out),
                }
                mode
            }
            (_, "NUMERIC_CHAR_REF") => {
                let n = u32::from_str_radix(data[0].trim_start_matches('0'), 16).unwrap_or(
                    if data[0].trim_start_matches('0').is_empty() {
                        0
                    } else {
                        u32::MAX
                    },
                );
                match char::from_u32(n) {
                    Some(c) => out.push(Abs::DataChar(c)),
                    None => literal(&mut out),
                }
                mode
            }
            (_, "DECIMAL_CHAR_REF") => {
                let digits = data[0].trim_start_matches('0');
                let n = if digits.is_empty() {
                    0
                } else {
                    digits.parse::<u32>().unwrap_or(u32::MAX)
                };
                match char::from_u32(n) {
                    Some(c) => out.push(Abs::DataChar(c)),
                    None => literal(&mut out),
                }
                mode
            }
            (Main, "START_TAG_OPEN") => {
                out.push(Abs::StartTagOpen(data[0].clone()));
                Tag
            }
            (Tag, "BOOLEAN_ATTRIBUTE") => {
                out.push(Abs::AttributeName(data[0].clone()));
                Tag
            }
            (SingleQuoteAttributeValue | DoubleQuoteAttributeValue, "EMPTY") => Tag,
            (Main, "SIMPLE_START_TAG") => {
                out.extend([Abs::StartTagOpen(data[0].clone()), Abs::StartTagClose]);
                Main
            }
            (Main, "SIMPLE_EMPTY_ELEMENT_TAG") => {
                out.extend([
                    Abs::StartTagOpen(data[0].clone()),
                    Abs::EmptyElementTagClose,
                ]);
                Main
            }
            (Main, "START_TAG_ATTRIBUTE") => {
                out.extend([
                    Abs::StartTagOpen(data[0].clone()),
                    Abs::AttributeName(data[1].clone()),
                ]);
                StartAttributeValue
            }
            (Main, "END_TAG") => {
                out.push(Abs::EndTag(data[0].clone()));
                Main
            }
            (Main, "CDATA_OPEN") => CData,
            (Main, "DOCTYPE_OPEN") => Doctype,
            (Main | Subset, "COMMENT" | "PI") => mode,
            (Tag, "ATTRIBUTE_NAME_EQUALS") => {
                out.push(Abs::AttributeName(data[0].clone()));
                StartAttributeValue
            }
            (Tag, "EMPTY") => {
                out.push(Abs::StartTagClose);
                Main
            }
            (_, "START_TAG_CLOSE") if mode != Doctype => {
                out.push(Abs::StartTagClose);
                Main
            }
            (_, "EMPTY_ELEMENT_TAG_CLOSE") => {
                out.push(Abs::EmptyElementTagClose);
                Main
            }
            (Tag | StartAttributeValue | Subset, "S") => mode,
            (StartAttributeValue, "SINGLE_QUOTE") => SingleQuoteAttributeValue,
            (StartAttributeValue, "DOUBLE_QUOTE") => DoubleQuoteAttributeValue,
            (StartAttributeValue, "EMPTY") => UnquoteAttributeValue,
            (UnquoteAttributeValue, "S")
            | (SingleQuoteAttributeValue, "SINGLE_QUOTE")
            | (DoubleQuoteAttributeValue, "DOUBLE_QUOTE") => Tag,
            (CData, "CDATA_CLOSE") => Main,
            (Doctype, "DECL_CHAR" | "LITERAL") => Doctype,
            (Doctype, "EMPTY" | "START_TAG_CLOSE") => Main,
            (Doctype, "SUBSET_OPEN") => Subset,
            (Subset, "DECL") => Subset,
            (Subset, "SUBSET_CLOSE" | "EMPTY") => Main,
            other => panic!("no rule for {other:?}"),
        };
        i += len;
    }
    if matches!(
        mode,
        Mode::Tag
            | Mode::StartAttributeValue
            | Mode::UnquoteAttributeValue
            | Mode::SingleQuoteAttributeValue
            | Mode::DoubleQuoteAttributeValue
    ) {
        out.push(Abs::StartTagClose);
    }
    out
}

/// Tree building as rewrites of the token list, in the spec's order.
fn build(tokens: Vec<Abs>) -> String {
    // Duplicate attributes: drop the AttributeName and its DataChars.
    let mut toks = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut skipping = false;
    for t in tokens {
        match &t {
            Abs::StartTagOpen(_) => {
                seen.clear();
                skipping = false;
            }
            Abs::AttributeName(n) => {
                skipping = seen.contains(n);
                seen.push(n.clone());
                if skipping {
                    continue;
                }
            }
            Abs::DataChar(_) if skipping => continue,
            Abs::StartTagClose | Abs::EmptyElementTagClose => skipping = false,
            _ => {}
        }
        toks.push(t);
    }
    // Start- and end-tag matching, then end-tags at the end of input.
    let mut matched = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut last_open = String::new();
    for t in toks {
        match &t {
            Abs::StartTagOpen(n) => last_open = n.clone(),
            Abs::StartTagClose => open.push(last_open.clone()),
            Abs::EndTag(n) => {
                if !open.contains(n) {
                    continue;
                }
                while open.last() != Some(n) {
                    matched.push(Abs::EndTag(open.pop().unwrap_or_default()));
                }
                open.pop();
            }
            _ => {}
        }
        matched.push(t);
    }
    while let Some(n) = open.pop() {
        matched.push(Abs::EndTag(n));
    }
    // Whitespace stripping.
    let ws = |t: &Abs| matches!(t, Abs::DataChar(c) if is_s(*c));
    let lead = matched.iter().take_while(|t| ws(t)).count();
    matched.drain(..lead);
    while matched.last().is_some_and(ws) {
        matched.pop();
    }
    // Build: [name, {attrs}, [children]] as JSON text via the crate's own types.
    let mut stack: Vec<thicket_microxml::Element> = vec![thicket_microxml::Element::new("#doc")];
    let mut in_tag: Option<thicket_microxml::Element> = None;
    let push_text = |e: &mut thicket_microxml::Element, c: char| match e.children.last_mut() {
        Some(thicket_microxml::Node::Text(t)) => t.push(c),
        _ => e.children.push(thicket_microxml::Node::Text(c.to_string())),
    };
    for t in matched {
        match t {
            Abs::StartTagOpen(n) => in_tag = Some(thicket_microxml::Element::new(n)),
            Abs::AttributeName(n) => {
                if let Some(e) = &mut in_tag {
                    e.attributes.push(thicket_microxml::Attribute {
                        name: n,
                        value: String::new(),
                    });
                }
            }
            Abs::DataChar(c) => match &mut in_tag {
                Some(e) => {
                    if let Some(a) = e.attributes.last_mut() {
                        a.value.push(c);
                    }
                }
                None => push_text(stack.last_mut().expect("#doc"), c),
            },
            Abs::StartTagClose => stack.extend(in_tag.take()),
            Abs::EmptyElementTagClose => {
                if let Some(e) = in_tag.take() {
                    stack
                        .last_mut()
                        .expect("#doc")
                        .children
                        .push(thicket_microxml::Node::Element(e));
                }
            }
            Abs::EndTag(_) => {
                let e = stack.pop().expect("matched");
                stack
                    .last_mut()
                    .expect("#doc")
                    .children
                    .push(thicket_microxml::Node::Element(e));
            }
        }
    }
    let doc = stack.pop().expect("#doc");
    if doc.children.len() == 1
        && let Some(thicket_microxml::Node::Element(e)) = doc.children.first()
    {
        return to_json(e);
    }
    to_json(&doc)
}

fn markup() -> impl Strategy<Value = String> {
    let pieces = vec![
        "<",
        ">",
        "a",
        "b",
        " ",
        "=",
        "'",
        "\"",
        "/",
        "&",
        "#",
        "x",
        ";",
        "lt",
        "amp",
        "nbsp",
        "!",
        "--",
        "-",
        "?",
        "[",
        "]",
        "CDATA[",
        "DOCTYPE",
        "doctype",
        "\r",
        "\n",
        "\u{C}",
        "é",
        "1",
        "41",
        "\u{FEFF}",
        "<a>",
        "</a>",
        "<b x='1'>",
        "</b>",
        "<!--",
        "-->",
        "<?",
        "?>",
        "]]>",
        "&#65;",
        "<e a b>",
        "<e a='<'>",
        " c",
        "'>",
        "\"/>",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|v| v.concat())
}

#[test]
fn reference_agrees_on_known_cases() {
    for text in [
        "<doc att='val>Forgot</doc>",
        "<!DOCTYPE doc [ stuff]>",
        "  </b> x<a/> ",
        "<a x='1' x='2' y=3/>",
        "<a><b></a>t",
        "&#x110000;&#x41;<!---->",
        "<doc att1 att2 att3=></doc>",
        "<doc att=\"val>Forgot the closing quote<e att2=\"stuff\"/></doc>",
    ] {
        assert_eq!(
            build(tokenize(text, false)),
            to_json(&parse_with(text, Options::spec()).document.to_element()),
            "{text:?}"
        );
        assert_eq!(
            build(tokenize(text, true)),
            to_json(&parse_with(text, Options::upstream()).document.to_element()),
            "{text:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn parser_agrees_with_the_literal_transcription(text in markup()) {
        let expected = build(tokenize(&text, false));
        let got = to_json(&parse_with(&text, Options::spec()).document.to_element());
        prop_assert_eq!(got, expected, "spec, input {:?}", text);
        let expected = build(tokenize(&text, true));
        let got = to_json(&parse_with(&text, Options::upstream()).document.to_element());
        prop_assert_eq!(got, expected, "upstream, input {:?}", text);
    }
}

/// The transcription and the parser also agree on every suite input (both option sets).
#[test]
fn reference_agrees_on_suite_inputs() {
    let root = thicket_testkit::suite_root();
    for file in [
        "microxml-er/tests.rust-safe.json",
        "microxml-er-generated/cases.json",
        "microxml-js/tests.json",
    ] {
        let path = root.join(file);
        if !path.exists() {
            continue;
        }
        for case in thicket_testkit::suites::microxml::read(&path).expect("suite reads") {
            if case.lone_surrogate {
                continue;
            }
            let text = &case.source;
            for upstream in [false, true] {
                let options = if upstream {
                    Options::upstream()
                } else {
                    Options::spec()
                };
                assert_eq!(
                    build(tokenize(text, upstream)),
                    to_json(&parse_with(text, options).document.to_element()),
                    "{file} {}: {text:?}",
                    case.id
                );
            }
        }
    }
}
