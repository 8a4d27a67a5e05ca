//! Selectors: the grammar the streaming matcher decides at a start tag, parsed with `cssparser`'s
//! tokenizer (docs/rewrite.md lists the grammar).

use cssparser::{ParseError, Parser, ParserInput, Token};
use thicket_input::Span;

use crate::namespaces::{Namespaces, NsTest, NsView, unknown_prefix};
use crate::{Error, ErrorCode};

/// A parsed selector list (`a, b > c`): an element matches when any selector of the list does.
///
/// ```
/// let list = thicket_rewrite::SelectorList::parse("ul > li:nth-child(2n+1), a[href^='https:' i]").unwrap();
/// assert_eq!(list.len(), 2);
/// assert_eq!(
///     thicket_rewrite::SelectorList::parse("a:hover").unwrap_err().code.as_str(),
///     "unsupported-selector"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorList {
    pub(crate) selectors: Vec<Selector>,
}

/// One complex selector: compounds joined by combinators, the subject last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    pub(crate) compounds: Vec<Compound>,
    /// `combinators[k]` joins `compounds[k]` (left) and `compounds[k + 1]` (right).
    pub(crate) combinators: Vec<Combinator>,
}

/// How two compounds relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Combinator {
    /// ` `: the left matches an ancestor.
    Descendant,
    /// `>`: the left matches the parent.
    Child,
    /// `+`: the left matches the previous sibling element.
    Adjacent,
    /// `~`: the left matches some previous sibling element.
    Sibling,
}

/// A sequence of simple selectors that all match one element.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Compound {
    pub(crate) simples: Vec<Simple>,
}

/// An attribute operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrOp {
    Equal,
    Includes,
    DashMatch,
    Prefix,
    Suffix,
    Substring,
}

/// One simple selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Simple {
    Type(Box<str>),
    Universal,
    Id(Box<str>),
    Class(Box<str>),
    Attr {
        name: Box<str>,
        test: Option<(AttrOp, Box<str>)>,
        ignore_case: bool,
    },
    /// `:nth-child(an+b)` (`:first-child` is `0n+1`).
    NthChild(i32, i32),
    /// `:nth-of-type(an+b)` (`:first-of-type` is `0n+1`).
    NthOfType(i32, i32),
    Not(Box<Compound>),
    /// The element's namespace: `prefix` as written (`*`, `""` for `|x`, a prefix; `None` for
    /// the default namespace, implied).
    Namespace {
        prefix: Option<Box<str>>,
        test: NsTest,
    },
    /// A namespace-qualified attribute selector (`[p|a]`, `[*|a]`, `[|a]`).
    NsAttr {
        prefix: Box<str>,
        ns: NsTest,
        local: Box<str>,
        test: Option<(AttrOp, Box<str>)>,
        ignore_case: bool,
    },
}

impl SelectorList {
    /// Parses selector text; errors carry `invalid-selector` (not selector syntax),
    /// `unsupported-selector` (valid CSS the streaming matcher cannot decide at the start tag,
    /// such as `:last-child` or `:hover`) or `empty-selector`, with the span of the offending
    /// part of `text`.
    pub fn parse(text: &str) -> Result<SelectorList, Error> {
        SelectorList::parse_with_namespaces(text, &Namespaces::new())
    }

    /// [`parse`](Self::parse) with namespace prefixes bound: `p|x` (an element `x` in the
    /// namespace `p` is bound to), `*|x` (in any namespace or none), `|x` (in no namespace),
    /// `p|*`, and attribute selectors `[p|a]`, `[*|a]`, `[|a]`; with a default namespace, an
    /// unprefixed compound matches only elements in it (CSS Namespaces). A prefix `namespaces`
    /// does not bind is `unknown-namespace-prefix`, with its span.
    ///
    /// ```
    /// use thicket_rewrite::{Namespaces, SelectorList};
    /// let ns = Namespaces::new().prefix("svg", Namespaces::SVG).prefix("xl", Namespaces::XLINK);
    /// assert!(SelectorList::parse_with_namespaces("svg|a[xl|href]", &ns).is_ok());
    /// let e = SelectorList::parse_with_namespaces("math|mi", &ns).unwrap_err();
    /// assert_eq!((e.code.as_str(), e.span.start, e.span.end), ("unknown-namespace-prefix", 0, 4));
    /// ```
    pub fn parse_with_namespaces(
        text: &str,
        namespaces: &Namespaces,
    ) -> Result<SelectorList, Error> {
        let mut input = ParserInput::new(text);
        let mut p = Parser::new(&mut input);
        let mut selectors = Vec::new();
        loop {
            let (selector, more) = parse_complex(&mut p, text, namespaces, 0)?;
            selectors.push(selector);
            if !more {
                break;
            }
        }
        Ok(SelectorList { selectors })
    }

    /// How many selectors the list has.
    pub fn len(&self) -> usize {
        self.selectors.len()
    }

    /// Never true for a parsed list (an empty selector is an error).
    pub fn is_empty(&self) -> bool {
        self.selectors.is_empty()
    }

    /// Whether a selector is namespace-qualified (so the rewriter keeps the namespaces in scope).
    pub(crate) fn uses_namespaces(&self) -> bool {
        self.selectors
            .iter()
            .any(|s| s.compounds.iter().any(Compound::uses_namespaces))
    }

    /// The selectors as text, normalized (one space around combinators, operators written out).
    pub fn to_css(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.selectors.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            for (k, c) in s.compounds.iter().enumerate() {
                if k > 0 {
                    out.push_str(match s.combinators[k - 1] {
                        Combinator::Descendant => " ",
                        Combinator::Child => " > ",
                        Combinator::Adjacent => " + ",
                        Combinator::Sibling => " ~ ",
                    });
                }
                write_compound(c, &mut out);
            }
        }
        out
    }
}

fn write_compound(c: &Compound, out: &mut String) {
    if c.simples.is_empty() {
        out.push('*');
    }
    for s in &c.simples {
        match s {
            Simple::Type(n) => write_ident(out, n),
            Simple::Namespace { prefix, .. } => {
                if let Some(p) = prefix {
                    write_prefix(out, p);
                }
            }
            Simple::Universal => out.push('*'),
            Simple::Id(v) => {
                out.push('#');
                write_ident(out, v);
            }
            Simple::Class(v) => {
                out.push('.');
                write_ident(out, v);
            }
            Simple::Attr {
                name,
                test,
                ignore_case,
            } => write_attribute(out, None, name, test, *ignore_case),
            Simple::NsAttr {
                prefix,
                local,
                test,
                ignore_case,
                ..
            } => write_attribute(out, Some(prefix), local, test, *ignore_case),
            Simple::NthChild(a, b) => out.push_str(&format!(":nth-child({a}n{b:+})")),
            Simple::NthOfType(a, b) => out.push_str(&format!(":nth-of-type({a}n{b:+})")),
            Simple::Not(inner) => {
                out.push_str(":not(");
                write_compound(inner, out);
                out.push(')');
            }
        }
    }
}

/// A name as a CSS identifier, escaped where it must be (`\31 a` for `1a`), so that the text
/// parses back to the same name.
fn write_ident(out: &mut String, name: &str) {
    // Writing to a `String` cannot fail.
    let _ = cssparser::serialize_identifier(name, out);
}

/// A namespace prefix and its `|`: `*|`, `|` (no namespace) or `name|`.
fn write_prefix(out: &mut String, prefix: &str) {
    match prefix {
        "*" => out.push('*'),
        "" => {}
        p => write_ident(out, p),
    }
    out.push('|');
}

fn write_attribute(
    out: &mut String,
    prefix: Option<&str>,
    name: &str,
    test: &Option<(AttrOp, Box<str>)>,
    ignore_case: bool,
) {
    out.push('[');
    if let Some(p) = prefix {
        write_prefix(out, p);
    }
    write_ident(out, name);
    if let Some((op, v)) = test {
        out.push_str(match op {
            AttrOp::Equal => "=",
            AttrOp::Includes => "~=",
            AttrOp::DashMatch => "|=",
            AttrOp::Prefix => "^=",
            AttrOp::Suffix => "$=",
            AttrOp::Substring => "*=",
        });
        let _ = cssparser::serialize_string(v, out);
        if ignore_case {
            out.push_str(" i");
        }
    }
    out.push(']');
}

type PResult<'i, T> = Result<T, ParseError<'i, Error>>;

fn err_at(code: ErrorCode, start: usize, end: usize) -> Error {
    Error::new(code, Span::new(start, end.max(start)))
}

/// Turns a cssparser error into ours (its position is where the bad token starts).
fn convert(e: ParseError<'_, Error>, text: &str, fallback: usize) -> Error {
    match e.kind {
        cssparser::ParseErrorKind::Custom(err) => err,
        cssparser::ParseErrorKind::Basic(_) => {
            let _ = text;
            err_at(ErrorCode::InvalidSelector, fallback, text.len())
        }
    }
}

/// After a namespace prefix (or `*`, or nothing before `|`): `|` then a local name or `*`
/// (`Some(None)` for `*`), if a `|` follows at once; `None` (nothing consumed) otherwise.
fn namespace_suffix(
    p: &mut Parser<'_, '_>,
    text: &str,
    at: usize,
    bar_read: bool,
) -> Result<Option<Option<Box<str>>>, Error> {
    if !bar_read {
        // Neither a `|` nor a comment next (the usual case): no token to read ahead and take
        // back (`text` is what `p` reads).
        let next = text.as_bytes().get(p.position().byte_index());
        if !matches!(next, Some(b'|' | b'/')) {
            return Ok(None);
        }
        let state = p.state();
        if !matches!(p.next_including_whitespace(), Ok(Token::Delim('|'))) {
            p.reset(&state);
            return Ok(None);
        }
    }
    match p.next_including_whitespace() {
        Ok(Token::Ident(local)) => Ok(Some(Some(local.as_ref().into()))),
        Ok(Token::Delim('*')) => Ok(Some(None)),
        _ => {
            let end = p.position().byte_index();
            Err(err_at(ErrorCode::InvalidSelector, at, end))
        }
    }
}

/// The namespace test of a prefix as written (`*`, `""` for none, or a bound prefix).
fn namespace_test(prefix: &str, namespaces: &Namespaces, at: usize) -> Result<NsTest, Error> {
    match prefix {
        "*" => Ok(NsTest::Any),
        "" => Ok(NsTest::None),
        p => match namespaces.uri(p) {
            Some(uri) => Ok(NsTest::Uri(uri.into())),
            None => Err(unknown_prefix(at, at + p.len())),
        },
    }
}

/// A compound is complete: with a default namespace and no namespace written, it gets the
/// default one (inside `:not()` only when it has a type or universal selector, as in CSS).
fn finish_compound(c: &mut Compound, namespaces: &Namespaces, in_not: bool) {
    let Some(uri) = namespaces.default_uri() else {
        return;
    };
    let written = c
        .simples
        .iter()
        .any(|s| matches!(s, Simple::Namespace { .. }));
    let typed = c
        .simples
        .iter()
        .any(|s| matches!(s, Simple::Type(_) | Simple::Universal));
    if !written && (typed || !in_not) {
        c.simples.push(Simple::Namespace {
            prefix: None,
            test: NsTest::Uri(uri.into()),
        });
    }
}

/// Parses one complex selector; returns it and whether a comma followed.
fn parse_complex(
    p: &mut Parser<'_, '_>,
    text: &str,
    namespaces: &Namespaces,
    nesting: usize,
) -> Result<(Selector, bool), Error> {
    let in_not = nesting > 0;
    let mut compounds: Vec<Compound> = Vec::new();
    let mut combinators = Vec::new();
    let mut current = Compound::default();
    let mut current_started = false;
    let mut pending: Option<Combinator> = None;
    let start = p.position().byte_index();
    let more = loop {
        let at = p.position().byte_index();
        let token = match p.next_including_whitespace() {
            Ok(t) => t.clone(),
            Err(_) => break false,
        };
        let end = p.position().byte_index();
        let combinator = match token {
            Token::WhiteSpace(_) => {
                if current_started && pending.is_none() {
                    pending = Some(Combinator::Descendant);
                }
                continue;
            }
            Token::Comma => break true,
            Token::Delim('>') => Some(Combinator::Child),
            Token::Delim('+') => Some(Combinator::Adjacent),
            Token::Delim('~') => Some(Combinator::Sibling),
            _ => None,
        };
        if let Some(c) = combinator {
            if !current_started || matches!(pending, Some(x) if x != Combinator::Descendant) {
                return Err(err_at(ErrorCode::InvalidSelector, at, end));
            }
            pending = Some(c);
            continue;
        }
        if let Some(c) = pending.take() {
            finish_compound(&mut current, namespaces, in_not);
            compounds.push(std::mem::take(&mut current));
            combinators.push(c);
            current_started = false;
        }
        let simple = match token {
            Token::Ident(_) | Token::Delim('*') | Token::Delim('|') if current_started => {
                return Err(err_at(ErrorCode::InvalidSelector, at, end));
            }
            Token::Ident(_) | Token::Delim('*') | Token::Delim('|') => {
                let (prefix, local) = match &token {
                    Token::Ident(name) => (name.as_ref(), Some(name.as_ref().into())),
                    Token::Delim('*') => ("*", None),
                    _ => ("", None),
                };
                let bar_read = matches!(token, Token::Delim('|'));
                match namespace_suffix(p, text, at, bar_read)? {
                    None => match local {
                        Some(name) => Simple::Type(name),
                        None => Simple::Universal,
                    },
                    Some(local) => {
                        let test = namespace_test(prefix, namespaces, at)?;
                        current.simples.push(Simple::Namespace {
                            prefix: Some(prefix.into()),
                            test,
                        });
                        match local {
                            Some(name) => Simple::Type(name),
                            None => Simple::Universal,
                        }
                    }
                }
            }
            Token::IDHash(id) => Simple::Id(id.as_ref().into()),
            Token::Delim('.') => match p.next_including_whitespace() {
                Ok(Token::Ident(c)) => Simple::Class(c.as_ref().into()),
                _ => {
                    let end = p.position().byte_index();
                    return Err(err_at(ErrorCode::InvalidSelector, at, end));
                }
            },
            Token::SquareBracketBlock => p
                .parse_nested_block(|p| parse_attribute(p, namespaces))
                .map_err(|e| convert(e, text, at))?,
            Token::Colon => parse_pseudo(p, text, at, namespaces, nesting)?,
            Token::Delim('&') => {
                return Err(err_at(ErrorCode::UnsupportedSelector, at, end));
            }
            _ => return Err(err_at(ErrorCode::InvalidSelector, at, end)),
        };
        current.simples.push(simple);
        current_started = true;
    };
    let end = p.position().byte_index();
    if matches!(pending, Some(c) if c != Combinator::Descendant) {
        return Err(err_at(ErrorCode::InvalidSelector, start, end));
    }
    if !current_started {
        let code = if compounds.is_empty() && pending.is_none() {
            ErrorCode::EmptySelector
        } else {
            ErrorCode::InvalidSelector
        };
        return Err(err_at(code, start, end));
    }
    finish_compound(&mut current, namespaces, in_not);
    compounds.push(current);
    Ok((
        Selector {
            compounds,
            combinators,
        },
        more,
    ))
}

/// After `:`: a pseudo-class.
fn parse_pseudo(
    p: &mut Parser<'_, '_>,
    text: &str,
    at: usize,
    namespaces: &Namespaces,
    nesting: usize,
) -> Result<Simple, Error> {
    let token = p.next_including_whitespace().cloned();
    let end = p.position().byte_index();
    match token {
        Ok(Token::Ident(name)) => {
            if name.eq_ignore_ascii_case("first-child") {
                Ok(Simple::NthChild(0, 1))
            } else if name.eq_ignore_ascii_case("first-of-type") {
                Ok(Simple::NthOfType(0, 1))
            } else {
                Err(err_at(ErrorCode::UnsupportedSelector, at, end))
            }
        }
        Ok(Token::Function(name)) => {
            /// `an+b`, or `None` for Selectors 4's `an+b of S` (valid, not supported: the rest
            /// of the block is skipped).
            fn nth<'i>(p: &mut Parser<'i, '_>) -> PResult<'i, Option<(i32, i32)>> {
                p.parse_nested_block(|p| {
                    let r = cssparser::parse_nth(p).map_err(ParseError::from)?;
                    if p.try_parse(|p| p.expect_ident_matching("of")).is_ok() {
                        while p.next().is_ok() {}
                        return Ok(None);
                    }
                    p.expect_exhausted().map_err(ParseError::from)?;
                    Ok(Some(r))
                })
            }
            let unsupported = |p: &Parser<'_, '_>| {
                err_at(
                    ErrorCode::UnsupportedSelector,
                    at,
                    p.position().byte_index(),
                )
            };
            if name.eq_ignore_ascii_case("nth-child") {
                let (a, b) = nth(p)
                    .map_err(|e| convert(e, text, at))?
                    .ok_or_else(|| unsupported(p))?;
                Ok(Simple::NthChild(a, b))
            } else if name.eq_ignore_ascii_case("nth-of-type") {
                let (a, b) = nth(p)
                    .map_err(|e| convert(e, text, at))?
                    .ok_or_else(|| unsupported(p))?;
                Ok(Simple::NthOfType(a, b))
            } else if name.eq_ignore_ascii_case("not") && nesting < MAX_NOT_NESTING {
                let inner = p
                    .parse_nested_block(|p| parse_not(p, text, namespaces, nesting + 1))
                    .map_err(|e| convert(e, text, at))?;
                Ok(Simple::Not(Box::new(inner)))
            } else {
                // Skip the block so the error points at the whole function.
                let _ = p.parse_nested_block(|p| {
                    while p.next().is_ok() {}
                    Ok::<_, ParseError<'_, Error>>(())
                });
                let end = p.position().byte_index();
                let code = if name.eq_ignore_ascii_case("not") {
                    ErrorCode::SelectorNestingLimit
                } else {
                    ErrorCode::UnsupportedSelector
                };
                Err(err_at(code, at, end))
            }
        }
        // A pseudo-element (`::before`): valid CSS that selects no element.
        Ok(Token::Colon) => match p.next_including_whitespace().cloned() {
            Ok(Token::Ident(_)) => Err(err_at(
                ErrorCode::UnsupportedSelector,
                at,
                p.position().byte_index(),
            )),
            Ok(Token::Function(_)) => {
                let _ = p.parse_nested_block(|p| {
                    while p.next().is_ok() {}
                    Ok::<_, ParseError<'_, Error>>(())
                });
                Err(err_at(
                    ErrorCode::UnsupportedSelector,
                    at,
                    p.position().byte_index(),
                ))
            }
            _ => Err(err_at(ErrorCode::InvalidSelector, at, end)),
        },
        _ => Err(err_at(ErrorCode::InvalidSelector, at, end)),
    }
}

/// The deepest `:not()` inside `:not()` a selector may nest (`:not(:not(a))` is 2): parsing,
/// printing and matching a selector walk its `:not()`s recursively, so their depth is bounded
/// (past it: `selector-nesting-limit`).
pub const MAX_NOT_NESTING: usize = 32;

/// Inside `:not(...)`: one compound selector (no combinators, no list).
fn parse_not<'i>(
    p: &mut Parser<'i, '_>,
    text: &str,
    namespaces: &Namespaces,
    nesting: usize,
) -> PResult<'i, Compound> {
    let start = p.position().byte_index();
    let (selector, more) =
        parse_complex(p, text, namespaces, nesting).map_err(|e| p.new_custom_error(e))?;
    let end = p.position().byte_index();
    if more || selector.compounds.len() != 1 {
        return Err(p.new_custom_error(err_at(ErrorCode::UnsupportedSelector, start, end)));
    }
    Ok(selector.compounds.into_iter().next().unwrap_or_default())
}

/// Inside `[...]`.
fn parse_attribute<'i>(p: &mut Parser<'i, '_>, namespaces: &Namespaces) -> PResult<'i, Simple> {
    let at = p.position().byte_index();
    let first = p.next()?.clone();
    let (prefix, bar_read): (Option<Box<str>>, bool) = match &first {
        Token::Delim('*') => (Some("*".into()), false),
        Token::Delim('|') => (Some("".into()), true),
        Token::Ident(_) => (None, false),
        t => return Err(p.new_unexpected_token_error(t.clone())),
    };
    let (prefix, name): (Option<Box<str>>, Box<str>) = match (prefix, &first) {
        (None, Token::Ident(name)) => {
            let state = p.state();
            if matches!(p.next_including_whitespace(), Ok(Token::Delim('|'))) {
                let local = p.expect_ident()?.as_ref().into();
                (Some(name.as_ref().into()), local)
            } else {
                p.reset(&state);
                (None, name.as_ref().into())
            }
        }
        (Some(prefix), _) => {
            if !bar_read {
                p.expect_delim('|')?;
            }
            (Some(prefix), p.expect_ident()?.as_ref().into())
        }
        (None, t) => return Err(p.new_unexpected_token_error(t.clone())),
    };
    let ns = match &prefix {
        Some(prefix) => {
            Some(namespace_test(prefix, namespaces, at).map_err(|e| p.new_custom_error(e))?)
        }
        None => None,
    };
    let attribute = |test, ignore_case| match (prefix, ns) {
        (Some(prefix), Some(ns)) => Simple::NsAttr {
            prefix,
            ns,
            local: name,
            test,
            ignore_case,
        },
        _ => Simple::Attr {
            name,
            test,
            ignore_case,
        },
    };
    if p.is_exhausted() {
        return Ok(attribute(None, false));
    }
    let at = p.position().byte_index();
    let op = match p.next()? {
        Token::Delim('=') => AttrOp::Equal,
        Token::IncludeMatch => AttrOp::Includes,
        Token::DashMatch => AttrOp::DashMatch,
        Token::PrefixMatch => AttrOp::Prefix,
        Token::SuffixMatch => AttrOp::Suffix,
        Token::SubstringMatch => AttrOp::Substring,
        Token::Delim('|') => {
            let end = p.position().byte_index();
            return Err(p.new_custom_error(err_at(ErrorCode::UnsupportedSelector, at, end)));
        }
        t => {
            let t = t.clone();
            return Err(p.new_unexpected_token_error(t));
        }
    };
    let value: Box<str> = p.expect_ident_or_string()?.as_ref().into();
    let mut ignore_case = false;
    if !p.is_exhausted() {
        let flag = p.expect_ident()?.clone();
        if flag.eq_ignore_ascii_case("i") {
            ignore_case = true;
        } else if !flag.eq_ignore_ascii_case("s") {
            return Err(p.new_unexpected_token_error(Token::Ident(flag)));
        }
    }
    p.expect_exhausted()?;
    Ok(attribute(Some((op, value)), ignore_case))
}

/// What a compound is tested against: one element as the start tag gives it.
pub(crate) struct Candidate<'x> {
    /// The local name (XML: after the prefix; HTML: the lowercased name).
    pub(crate) local: &'x str,
    /// The attributes in source order.
    pub(crate) attributes: &'x [Attr<'x>],
    /// Names compare ASCII case-insensitively (HTML).
    pub(crate) html: bool,
    /// 1-based position among the parent's element children.
    pub(crate) index: u32,
    /// 1-based position among the parent's element children of the same name.
    pub(crate) type_index: u32,
    /// The namespaces of the element and its attributes (when a selector asks).
    pub(crate) ns: Option<&'x dyn NsView>,
}

impl Candidate<'_> {
    pub(crate) fn names_equal(&self, a: &str, b: &str) -> bool {
        if self.html {
            a.eq_ignore_ascii_case(b)
        } else {
            crate::matcher::same_bytes(a.as_bytes(), b.as_bytes())
        }
    }

    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| self.names_equal(a.name, name))
            .map(|a| a.value)
    }
}

/// An attribute of a start tag, borrowed from the token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attr<'x> {
    pub(crate) name: &'x str,
    pub(crate) value: &'x str,
    pub(crate) span: Span,
}

fn nth(a: i32, b: i32, index: u32) -> bool {
    let n = i64::from(index);
    let (a, b) = (i64::from(a), i64::from(b));
    if a == 0 {
        return n == b;
    }
    let diff = n - b;
    diff % a == 0 && diff / a >= 0
}

fn eq_case(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

fn attr_test(value: &str, op: AttrOp, wanted: &str, ignore_case: bool) -> bool {
    let (v, w);
    let (value, wanted) = if ignore_case {
        v = value.to_ascii_lowercase();
        w = wanted.to_ascii_lowercase();
        (v.as_str(), w.as_str())
    } else {
        (value, wanted)
    };
    match op {
        AttrOp::Equal => value == wanted,
        AttrOp::Includes => {
            !wanted.is_empty()
                && !wanted.contains(is_ws)
                && value.split(is_ws).any(|word| word == wanted)
        }
        AttrOp::DashMatch => {
            value == wanted
                || (value.starts_with(wanted) && value.as_bytes().get(wanted.len()) == Some(&b'-'))
        }
        AttrOp::Prefix => !wanted.is_empty() && value.starts_with(wanted),
        AttrOp::Suffix => !wanted.is_empty() && value.ends_with(wanted),
        AttrOp::Substring => !wanted.is_empty() && value.contains(wanted),
    }
}

/// CSS whitespace, as class lists and `~=` split on it.
fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C')
}

impl Compound {
    /// Whether every simple selector matches the candidate.
    pub(crate) fn matches(&self, e: &Candidate<'_>) -> bool {
        self.simples.iter().all(|s| s.matches(e))
    }

    /// Whether the compound is namespace-qualified.
    pub(crate) fn uses_namespaces(&self) -> bool {
        self.simples.iter().any(|s| match s {
            Simple::Namespace { .. } | Simple::NsAttr { .. } => true,
            Simple::Not(inner) => inner.uses_namespaces(),
            _ => false,
        })
    }

    /// Whether the compound needs per-name sibling counters.
    pub(crate) fn uses_of_type(&self) -> bool {
        self.simples.iter().any(|s| match s {
            Simple::NthOfType(..) => true,
            Simple::Not(inner) => inner.uses_of_type(),
            _ => false,
        })
    }

    /// The names whose siblings `:nth-of-type` needs counted for this compound to be decided:
    /// only its type's name when it has one (an element of another name fails the type
    /// anyway), added to `names`; false when every name must be counted (an `:nth-of-type`
    /// in a compound without a type name).
    pub(crate) fn of_type_names(&self, names: &mut Vec<Box<str>>) -> bool {
        let own = self.simples.iter().find_map(|s| match s {
            Simple::Type(name) => Some(name),
            _ => None,
        });
        for s in &self.simples {
            match s {
                Simple::NthOfType(..) => match own {
                    Some(name) => {
                        if !names.contains(name) {
                            names.push(name.clone());
                        }
                    }
                    None => return false,
                },
                Simple::Not(inner) if !inner.of_type_names(names) => return false,
                _ => {}
            }
        }
        true
    }
}

impl Simple {
    fn matches(&self, e: &Candidate<'_>) -> bool {
        match self {
            Simple::Type(name) => e.names_equal(e.local, name),
            Simple::Universal => true,
            Simple::Id(id) => e.attribute("id") == Some(id),
            Simple::Class(class) => e
                .attribute("class")
                .is_some_and(|v| v.split(is_ws).any(|w| w == &**class)),
            Simple::Attr {
                name,
                test,
                ignore_case,
            } => match (e.attribute(name), test) {
                (None, _) => false,
                (Some(_), None) => true,
                (Some(v), Some((op, wanted))) => {
                    if *op == AttrOp::Equal {
                        eq_case(v, wanted, *ignore_case)
                    } else {
                        attr_test(v, *op, wanted, *ignore_case)
                    }
                }
            },
            Simple::NthChild(a, b) => nth(*a, *b, e.index),
            Simple::NthOfType(a, b) => nth(*a, *b, e.type_index),
            Simple::Not(inner) => !inner.matches(e),
            Simple::Namespace { test, .. } => {
                test.accepts(e.ns.and_then(|v| v.element_namespace()))
            }
            Simple::NsAttr {
                ns,
                local,
                test,
                ignore_case,
                ..
            } => {
                for (i, a) in e.attributes.iter().enumerate() {
                    let (ans, alocal) = match e.ns {
                        Some(v) => v.attribute_namespace(i, a.name, a.value),
                        None => (None, a.name),
                    };
                    if !e.names_equal(alocal, local) || !ns.accepts(ans) {
                        continue;
                    }
                    let ok = match test {
                        None => true,
                        Some((op, wanted)) => attr_test(a.value, *op, wanted, *ignore_case),
                    };
                    // One attribute per expanded name (a later one of the same name is a
                    // duplicate the tree drops); `*|` asks whether any matches.
                    if ok || *ns != NsTest::Any {
                        return ok;
                    }
                }
                false
            }
        }
    }
}

impl Selector {
    /// Whether any compound needs per-name sibling counters.
    pub(crate) fn uses_of_type(&self) -> bool {
        self.compounds.iter().any(Compound::uses_of_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_formula() {
        assert!(nth(2, 1, 1) && nth(2, 1, 3) && !nth(2, 1, 2));
        assert!(nth(0, 3, 3) && !nth(0, 3, 4));
        assert!(nth(-1, 3, 1) && nth(-1, 3, 3) && !nth(-1, 3, 4));
    }

    #[test]
    fn operators() {
        assert!(attr_test("a b c", AttrOp::Includes, "b", false));
        assert!(!attr_test("a bc", AttrOp::Includes, "b", false));
        assert!(attr_test("en-US", AttrOp::DashMatch, "en", false));
        assert!(!attr_test("english", AttrOp::DashMatch, "en", false));
        assert!(attr_test("HTTPS://x", AttrOp::Prefix, "https:", true));
        assert!(!attr_test("x", AttrOp::Prefix, "", false));
    }
}
