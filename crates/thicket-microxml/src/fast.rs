//! The fast path for a whole input ([`crate::parse_with`]), beside the modes: the one twin of
//! the lexer, differential-tested against it (`tests/chunks.rs` on random shapes and near
//! misses, `tests/corpus.rs` on every corpus file whole against char by char, and the
//! `microxml_chunks` fuzz target, all of which compare `parse_with` with the streaming
//! `Parser`, which has no fast path).
//!
//! From a clean Main-mode state (nothing queued or pending), it reads units of plain markup: a
//! text part, followed by a plain end-tag `</name S* >` or a plain start-tag
//! `<name (S+ name S* = S* "value")* S* (> | />)`. Text and values may hold CRs (normalized) and
//! the five predefined references (replaced), not `<` or another `&`; values no `>`; comments and
//! CDATA sections may interrupt the text (as in the modes, the text around them and a section's
//! content are one `Data`). It hands the tokens straight to the tree builder, with the
//! diagnostics the modes would report there (names that are not MicroXML names, `xmlns`
//! attributes, `>` in text, `--` in comments, CDATA sections). At the first unit
//! it does not take whole, it stops *before* the unit and leaves it to the mode recognizers, so
//! what it does is exactly what the modes do on those units: the same tokens in the same order
//! (a text run before a tag is one `Data` token either way, since the tag flushes it), and the
//! same diagnostics.
//!
//! It reads with the shared pieces: the byte classes of thicket-names (a name's end and
//! whether it can be a MicroXML name in one pass), `StopSet` scans from thicket-input, the
//! predefined references of thicket-charref, and the lexer's cursor for `-->` and `]]>`
//! searches (resumable `Finder`s, so an unclosed comment is not searched again at every tag).

use memchr::memmem;
use thicket_input::Span;
use thicket_input::scan::{Finder, StopSet};
use thicket_names::microxml::{
    BYTES, NAME_CHAR, NAME_START, S, STRICT_NAME_CHAR, STRICT_NAME_START,
};
use thicket_names::microxml2012;

use crate::error::ErrorCode;
use crate::lexer::Lexer;
use crate::tree::{Chars, TreeBuilder};

/// A text run: up to `<` or `&`; `>` (a diagnostic each) and CR (newline normalization) are
/// noted and passed.
static TEXT: StopSet = StopSet::new(b"<&").check(b">\r");
/// A value in `"`: up to the quote, or anything that keeps it from being plain.
static DOUBLE_QUOTED: StopSet = StopSet::new(b"\"&<>\r");
/// A value in `'`: the same.
static SINGLE_QUOTED: StopSet = StopSet::new(b"'&<>\r");
/// How many bytes of a text run or a value are looked at one by one before a `StopSet` search
/// (most end within them: the whitespace between tags, short values).
const PROBE: usize = 16;

/// What changes in a value's characters: references and line breaks.
static CHANGES: StopSet = StopSet::new(b"&\r");

#[inline]
fn quoted_set(quote: u8) -> &'static StopSet {
    if quote == b'"' {
        &DOUBLE_QUOTED
    } else {
        &SINGLE_QUOTED
    }
}

/// One attribute of a start-tag being read: name `start..end` (and what it is), `=` ending at `eq_end`, value `value.0..value.1` (inside the
/// quotes).
#[derive(Clone, Copy, Debug)]
struct Attr {
    start: usize,
    end: usize,
    kind: NameKind,
    eq_end: usize,
    value: (usize, usize),
    /// Whether the value holds CRs or references (its characters differ from the input).
    owned: bool,
}

#[inline]
fn class(b: &[u8], i: usize) -> u8 {
    b.get(i).map_or(0, |&c| BYTES[c as usize])
}

/// The end of the run of `S` at `i`.
#[inline]
fn skip_s(b: &[u8], mut i: usize) -> usize {
    while class(b, i) & S != 0 {
        i += 1;
    }
    i
}

/// What the fast path knows about a name from scanning it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NameKind {
    /// An ASCII MicroXML name.
    Micro,
    /// ASCII but not a MicroXML name (it has `:` or `$`).
    Invalid,
    /// Not ASCII: [`microxml2012::is_name`] decides.
    Ask,
}

/// The recovery `NAME` at `i` (whose first byte the caller checked): where it ends and what it
/// is.
#[inline]
fn name_at(b: &[u8], i: usize) -> (usize, NameKind) {
    let first = class(b, i);
    let mut all = first;
    let mut j = i + 1;
    loop {
        let k = class(b, j);
        if k & NAME_CHAR == 0 {
            break;
        }
        all &= k;
        j += 1;
    }
    let kind = if first & STRICT_NAME_START != 0 && all & STRICT_NAME_CHAR != 0 {
        NameKind::Micro
    } else if b[i..j].is_ascii() {
        NameKind::Invalid
    } else {
        NameKind::Ask
    };
    (j, kind)
}

/// What a text run holds besides plain characters.
#[derive(Clone, Copy, Debug, Default)]
struct Marks {
    /// A `>` (a diagnostic each).
    gt: bool,
    /// A CR (newline normalization).
    cr: bool,
}

/// The text run at `i`, up to `<`, `&` or the end: where it ends and what it holds.
#[inline]
fn text_at(b: &[u8], mut i: usize) -> (usize, Marks) {
    let mut marks = Marks::default();
    // The first bytes one by one (the whitespace between two tags is short), then the engine.
    let probe_end = b.len().min(i + PROBE);
    while i < probe_end {
        match b[i] {
            c if !TEXT.contains(c) => {}
            b'>' => marks.gt = true,
            b'\r' => marks.cr = true,
            _ => return (i, marks),
        }
        i += 1;
    }
    if i == b.len() {
        return (i, marks);
    }
    let end = TEXT.run(b, i, |j| {
        if b[j] == b'>' {
            marks.gt = true;
        } else {
            marks.cr = true;
        }
        Some(j + 1)
    });
    (end, marks)
}

/// Appends `text` newline-normalized: CR LF and CR become LF. (The character before `text` is
/// never a CR: the fast path does not start after one, and references end with `;`.)
fn push_normalized(out: &mut String, mut text: &str) {
    while let Some(i) = memchr::memchr(b'\r', text.as_bytes()) {
        out.push_str(&text[..i]);
        out.push('\n');
        text = &text[i + 1..];
        if let Some(rest) = text.strip_prefix('\n') {
            text = rest;
        }
    }
    out.push_str(text);
}

/// The quoted value whose first character is at `i`: where its closing `quote` is, or `None`
/// when `&`, `<`, `>` or CR comes first (or no quote does).
#[inline]
fn value_at(b: &[u8], mut i: usize, quote: u8) -> Option<usize> {
    let set = quoted_set(quote);
    // The first bytes one by one (most values are short), then the engine.
    let probe_end = b.len().min(i + PROBE);
    while i < probe_end && !set.contains(b[i]) {
        i += 1;
    }
    let end = if i < probe_end { i } else { set.find(b, i) };
    (*b.get(end)? == quote).then_some(end)
}

/// [`value_at`] for a value that also holds CRs or the five predefined references (when
/// `references`): where its closing `quote` is, or `None` at `&` otherwise, `<`, `>`, or the end.
#[cold]
fn value_with_references(b: &[u8], mut i: usize, quote: u8, references: bool) -> Option<usize> {
    let set = quoted_set(quote);
    loop {
        i = set.find(b, i);
        match *b.get(i)? {
            c if c == quote => return Some(i),
            b'&' if references => i += thicket_charref::xml_predefined_reference(&b[i..])?.0,
            b'\r' => i += 1,
            _ => return None,
        }
    }
}

/// The characters of a value read by [`value_with_references`]: CR LF and CR as LF, references
/// replaced.
#[cold]
fn owned_value(value: &str) -> String {
    let b = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    let mut copied = 0;
    loop {
        let k = CHANGES.find(b, copied);
        out.push_str(&value[copied..k]);
        match b.get(k) {
            None => return out,
            Some(b'&') => {
                let (n, c) = thicket_charref::xml_predefined_reference(&b[k..]).unwrap_or((1, '&'));
                out.push(c);
                copied = k + n;
            }
            Some(_) => {
                // CR, or CR LF.
                out.push('\n');
                copied = k + 1 + usize::from(b.get(k + 1) == Some(&b'\n'));
            }
        }
    }
}

/// The fast path's scratch space, kept across calls.
#[derive(Debug)]
pub(crate) struct Fast {
    attrs: Vec<Attr>,
    /// The current text run with its references replaced, when it has any.
    owned: Option<String>,
    /// Whether references are part of `Data` (not [`crate::Options::reference_tokens`]).
    references: bool,
    /// The text before the current tag when it has comments in it (`in_part`).
    part: Part,
    in_part: bool,
    /// The search for `-->`: resumed where it stopped, so unclosed comments are not searched
    /// to the end again and again.
    comment_end: Finder,
    /// The same for `]]>`.
    cdata_end: Finder,
    /// The limits on attributes, names and values (`usize::MAX` for none): a unit that
    /// reaches one is left to the modes, which apply it.
    limited: bool,
    max_attributes: usize,
    max_name: usize,
    max_value: usize,
}

/// The text before a tag when comments interrupt it: like the modes' pending data, it is one
/// `Data` token from the first text character to the last, its characters those of the pieces.
#[derive(Debug, Default)]
struct Part {
    /// From the first text byte to the end of the last (`None` while there is no text).
    span: Option<(usize, usize)>,
    /// The text, once it differs from the input at `span`.
    text: Option<String>,
    /// In source order: `>` in text, comments holding `--` or ending with `-`, CDATA sections.
    diagnostics: Vec<(ErrorCode, usize, usize)>,
}

impl Part {
    /// Adds the text `start..end`, whose characters are `owned` when they differ from the
    /// input's.
    fn add(&mut self, input: &str, start: usize, end: usize, owned: Option<String>) {
        if end == start {
            return;
        }
        match self.span {
            None => {
                self.span = Some((start, end));
                self.text = owned;
            }
            Some((a, e)) => {
                let text = self.text.get_or_insert_with(|| input[a..e].to_owned());
                text.push_str(owned.as_deref().unwrap_or(&input[start..end]));
                self.span = Some((a, end));
            }
        }
    }
}

impl Fast {
    /// Scratch space for a tokenizer with these options.
    pub(crate) fn new(options: &crate::Options) -> Fast {
        Fast {
            attrs: Vec::with_capacity(16),
            owned: None,
            references: !options.reference_tokens,
            part: Part::default(),
            in_part: false,
            comment_end: Finder::new(b"-->"),
            cdata_end: Finder::new(b"]]>"),
            limited: options.limits.max_attributes.is_some()
                || options.limits.max_name_len.is_some()
                || options.limits.max_value_len.is_some(),
            max_attributes: options.limits.max_attributes.unwrap_or(usize::MAX),
            max_name: options.limits.max_name_len.unwrap_or(usize::MAX),
            max_value: options.limits.max_value_len.unwrap_or(usize::MAX),
        }
    }

    /// The text part at `p` whose first run ends at `end` with `<!`: runs, comments and CDATA
    /// sections up to the `<` of something else, gathered in `self.part`. Where that `<` is, or
    /// `None` when the part does not end at a `<` (or a comment or section is not closed).
    #[cold]
    fn text_with_comments(
        &mut self,
        input: &str,
        tok: &Lexer<'_>,
        p: usize,
        mut end: usize,
        mut gt: bool,
    ) -> Option<usize> {
        let b = input.as_bytes();
        self.in_part = true;
        self.part.span = None;
        self.part.text = None;
        self.part.diagnostics.clear();
        let mut s = p;
        loop {
            if gt {
                for i in memchr::memchr_iter(b'>', &b[s..end]) {
                    let d = (ErrorCode::UnescapedGreaterThan, s + i, s + i + 1);
                    self.part.diagnostics.push(d);
                }
            }
            let piece = self.owned.take();
            self.part.add(input, s, end, piece);
            if b.get(end) != Some(&b'<') {
                return None;
            }
            if b.get(end + 1..end + 4) == Some(b"!--") {
                // COMMENT: nothing but its diagnostic.
                let close = self.comment_end.find(tok.input(), end + 4).ok()??;
                let content = &b[end + 4..close];
                if memmem::find(content, b"--").is_some() || content.last() == Some(&b'-') {
                    self.part
                        .diagnostics
                        .push((ErrorCode::DoubleHyphenInComment, end, close + 3));
                }
                s = close + 3;
            } else if b.get(end + 1..end + 9) == Some(b"![CDATA[") {
                // CDATA_OPEN, CData mode's DATA_CHARs (newline-normalized), CDATA_CLOSE.
                let from = end + 9;
                let close = self.cdata_end.find(tok.input(), from).ok()??;
                self.part
                    .diagnostics
                    .push((ErrorCode::CdataSection, end, from));
                let content = &input[from..close];
                let owned = memchr::memchr(b'\r', content.as_bytes())
                    .is_some()
                    .then(|| {
                        let mut t = String::with_capacity(content.len());
                        push_normalized(&mut t, content);
                        t
                    });
                self.part.add(input, from, close, owned);
                s = close + 3;
            } else {
                return Some(end);
            }
            (end, gt) = self.text_run(input, s)?;
        }
    }

    /// The text run at `p` up to `<` or the end, taking CRs and the five predefined references
    /// in stride (the text with newlines normalized and references replaced is left in
    /// `self.owned`): where it ends and whether it holds `>`. `None` when it holds another `&`.
    #[inline]
    fn text_run(&mut self, input: &str, p: usize) -> Option<(usize, bool)> {
        let b = input.as_bytes();
        let (end, marks) = text_at(b, p);
        let amp = b.get(end) == Some(&b'&');
        if !amp && !marks.cr {
            return Some((end, marks.gt));
        }
        if amp && !self.references {
            return None;
        }
        self.owned_run(input, p, end, marks)
    }

    #[cold]
    fn owned_run(
        &mut self,
        input: &str,
        p: usize,
        mut end: usize,
        mut marks: Marks,
    ) -> Option<(usize, bool)> {
        let b = input.as_bytes();
        let mut s = String::new();
        let mut gt = marks.gt;
        let mut copied = p;
        loop {
            if marks.cr {
                push_normalized(&mut s, &input[copied..end]);
            } else {
                s.push_str(&input[copied..end]);
            }
            if b.get(end) != Some(&b'&') {
                break;
            }
            if !self.references {
                return None;
            }
            let (n, c) = thicket_charref::xml_predefined_reference(&b[end..])?;
            s.push(c);
            copied = end + n;
            (end, marks) = text_at(b, copied);
            gt |= marks.gt;
        }
        self.owned = Some(s);
        Some((end, gt))
    }

    /// Reads plain units from the tokenizer's position (which must be clean) as far as they
    /// go, and moves the tokenizer past them.
    pub(crate) fn run<'a>(
        &mut self,
        input: &'a str,
        tok: &mut Lexer<'_>,
        builder: &mut TreeBuilder<'a>,
    ) {
        let b = input.as_bytes();
        let mut p = tok.position();
        // Text starting with the LF of a CR LF pair drops it (the modes handle that).
        if p > 0 && b[p - 1] == b'\r' {
            return;
        }
        let start = p;
        self.owned = None;
        while p < b.len() {
            let Some((mut lt, gt)) = self.text_run(input, p) else {
                break;
            };
            self.in_part = false;
            if b.get(lt) == Some(&b'<') && b.get(lt + 1) == Some(&b'!') {
                let Some(end) = self.text_with_comments(input, tok, p, lt, gt) else {
                    break;
                };
                lt = end;
            }
            if b.get(lt) != Some(&b'<') {
                break;
            }
            let c = class(b, lt + 1);
            let end = if c & NAME_START != 0 {
                let Some((end, name_end, kind, empty)) = self.start_tag(b, lt) else {
                    break;
                };
                if self.limited && self.over_limits(lt, name_end) {
                    break;
                }
                self.text(input, tok, builder, p, lt, gt);
                self.commit_start_tag(input, tok, builder, lt, (end, name_end, kind, empty));
                end
            } else if b.get(lt + 1) == Some(&b'/') {
                let Some((end, name_end, kind)) = end_tag(b, lt) else {
                    break;
                };
                if self.limited && name_end - (lt + 2) > self.max_name {
                    break;
                }
                self.text(input, tok, builder, p, lt, gt);
                check_name(input, tok, lt + 2, name_end, kind);
                builder.end_tag_chars(Chars::Source(lt + 2, name_end), Span::new(lt, end));
                end
            } else {
                break;
            };
            p = end;
        }
        if p > start {
            tok.skip_to(p);
        }
    }

    /// The text run `start..end` as one `Data` token.
    #[inline]
    fn text<'a>(
        &mut self,
        input: &'a str,
        tok: &mut Lexer<'_>,
        builder: &mut TreeBuilder<'a>,
        start: usize,
        end: usize,
        gt: bool,
    ) {
        if self.in_part {
            self.commit_part(tok, builder);
            return;
        }
        if start == end {
            return;
        }
        if gt {
            report_greater_than(input.as_bytes(), tok, start, end);
        }
        match self.owned.take() {
            Some(s) => builder.text(Chars::Copy(&s), Span::new(start, end), false),
            None => builder.text(Chars::Source(start, end), Span::new(start, end), false),
        }
    }

    /// The text part read by [`Fast::text_with_comments`], with its diagnostics.
    #[cold]
    fn commit_part(&mut self, tok: &mut Lexer<'_>, builder: &mut TreeBuilder<'_>) {
        for &(code, s, e) in &self.part.diagnostics {
            tok.report(code, s, e);
        }
        if let Some((a, e)) = self.part.span {
            match self.part.text.take() {
                Some(s) => builder.text(Chars::Copy(&s), Span::new(a, e), false),
                None => builder.text(Chars::Source(a, e), Span::new(a, e), false),
            }
        }
    }

    /// A plain start-tag at `lt`: where it ends, where its name ends, what the name is, and
    /// whether it is an empty-element tag. The attributes are left in `self.attrs`.
    #[inline]
    fn start_tag(&mut self, b: &[u8], lt: usize) -> Option<(usize, usize, NameKind, bool)> {
        self.attrs.clear();
        let (name_end, micro) = name_at(b, lt + 1);
        let mut i = name_end;
        loop {
            let j = skip_s(b, i);
            match *b.get(j)? {
                b'>' => return Some((j + 1, name_end, micro, false)),
                b'/' => {
                    return (b.get(j + 1) == Some(&b'>')).then_some((j + 2, name_end, micro, true));
                }
                c if j > i && BYTES[c as usize] & NAME_START != 0 => {
                    let (end, kind) = name_at(b, j);
                    let eq = skip_s(b, end);
                    if b.get(eq) != Some(&b'=') {
                        return None;
                    }
                    let q = skip_s(b, eq + 1);
                    let quote = *b.get(q)?;
                    if quote != b'"' && quote != b'\'' {
                        return None;
                    }
                    let (ve, owned) = match value_at(b, q + 1, quote) {
                        Some(ve) => (ve, false),
                        None => (
                            value_with_references(b, q + 1, quote, self.references)?,
                            true,
                        ),
                    };
                    self.attrs.push(Attr {
                        start: j,
                        end,
                        kind,
                        eq_end: eq + 1,
                        value: (q + 1, ve),
                        owned,
                    });
                    i = ve + 1;
                }
                _ => return None,
            }
        }
    }

    /// Whether the start-tag at `lt` read by [`Fast::start_tag`] reaches a limit (the modes
    /// apply it; the value's length in the input is at least its length in characters).
    #[cold]
    fn over_limits(&self, lt: usize, name_end: usize) -> bool {
        name_end - (lt + 1) > self.max_name
            || self.attrs.len() > self.max_attributes
            || self
                .attrs
                .iter()
                .any(|a| a.end - a.start > self.max_name || a.value.1 - a.value.0 > self.max_value)
    }

    /// The tokens of the start-tag at `lt` read by [`Fast::start_tag`].
    #[inline]
    fn commit_start_tag(
        &self,
        input: &str,
        tok: &mut Lexer<'_>,
        builder: &mut TreeBuilder<'_>,
        lt: usize,
        (end, name_end, kind, empty): (usize, usize, NameKind, bool),
    ) {
        check_name(input, tok, lt + 1, name_end, kind);
        builder.start_tag_open(Chars::Source(lt + 1, name_end), Span::new(lt, name_end));
        for a in &self.attrs {
            check_name(input, tok, a.start, a.end, a.kind);
            if &input[a.start..a.end] == "xmlns" {
                tok.report(ErrorCode::XmlnsAttribute, a.start, a.end);
            }
            builder.attribute_name(
                Chars::Source(a.start, a.end),
                Span::new(a.start, a.end),
                Span::new(a.start, a.eq_end),
            );
            let (vs, ve) = a.value;
            if a.owned {
                let value = owned_value(&input[vs..ve]);
                builder.attribute_value(Chars::Copy(&value), Span::new(vs, ve));
            } else {
                builder.attribute_value(Chars::Source(vs, ve), Span::new(vs, ve));
            }
        }
        if empty {
            builder.empty_element_tag_close(Span::new(end - 2, end));
        } else {
            builder.start_tag_close(Span::new(end - 1, end));
        }
    }
}

/// A plain end-tag `</name S* >` at `lt`: where it ends, where its name ends, and what the name
/// is.
#[inline]
fn end_tag(b: &[u8], lt: usize) -> Option<(usize, usize, NameKind)> {
    if class(b, lt + 2) & NAME_START == 0 {
        return None;
    }
    let (name_end, micro) = name_at(b, lt + 2);
    let k = skip_s(b, name_end);
    (b.get(k) == Some(&b'>')).then_some((k + 1, name_end, micro))
}

/// A name MicroXML does not allow (recovery NAMEs are wider), as the modes check it.
#[inline]
fn check_name(input: &str, tok: &mut Lexer<'_>, start: usize, end: usize, kind: NameKind) {
    let invalid = match kind {
        NameKind::Micro => false,
        NameKind::Invalid => true,
        NameKind::Ask => !microxml2012::is_name(&input[start..end]),
    };
    if invalid {
        tok.report(ErrorCode::InvalidName, start, end);
    }
}

#[cold]
fn report_greater_than(b: &[u8], tok: &mut Lexer<'_>, start: usize, end: usize) {
    for i in memchr::memchr_iter(b'>', &b[start..end]) {
        tok.report(ErrorCode::UnescapedGreaterThan, start + i, start + i + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// The kind of a name scanned by the fast path agrees with `microxml2012::is_name`, and
        /// its end with the recovery `NAME`.
        #[test]
        fn name_kind_agrees_with_validity(name in "[a-zA-Z_:$é中][a-zA-Z0-9_:$.\\-é\u{300}]{0,8}", tail in "[ =>/]?") {
            let text = format!("{name}{tail}");
            let (end, kind) = name_at(text.as_bytes(), 0);
            prop_assert_eq!(end, name.len());
            match kind {
                NameKind::Micro => prop_assert!(microxml2012::is_name(&name)),
                NameKind::Invalid => prop_assert!(!microxml2012::is_name(&name)),
                NameKind::Ask => prop_assert!(!name.is_ascii()),
            }
        }
    }
}
