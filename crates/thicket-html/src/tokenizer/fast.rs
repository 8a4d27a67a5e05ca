//! The direct paths beside the states: plain text with the references between runs, whole tags,
//! whole attributes and whole comments, taken in one go when the buffer holds all of them.
//!
//! Each path acts only on input the states would take without a parse error or a decision that
//! needs more input, and leaves exactly what the states would have built (the same tokens,
//! strings, spans and diagnostics); at anything else it stops at the start of that construct
//! and the states go on from there. They are tested against the states:
//! [`Tokenizer::set_direct_paths`] turns them off, and tests/direct_paths.rs compares the two
//! on the corpus, on a property test over their shapes and near misses, and fed one character at
//! a time (which never gives them enough input); so does the `html_chunks` fuzz target.
//! docs/html.md ("The direct paths") lists what each takes.

use thicket_charref::LongestMatch;
use thicket_charref::numeric;
use thicket_input::Span;
use thicket_input::scan::StopSet;
use thicket_names::html as names;

use super::tag::{AttrBuild, DOUBLE_QUOTED, LINEAR_DUPLICATE_LIMIT, NAME, SINGLE_QUOTED};
use super::text::DATA;
use super::{Step, Tokenizer, stops};
use crate::state::State;

/// What the direct path of [`Tokenizer::next_token`] found.
pub(super) enum Fast {
    /// Nothing to return: the states go on (with any text found so far pending).
    No,
    /// A tag, ready in `tag`, with no text before it.
    Tag(Span),
    /// Text (pending in `text`) and then a tag, ready in `tag`.
    TextThenTag(Span),
    /// The input `start..end` unchanged as text, and then a tag, ready in `tag`.
    RawTextThenTag(usize, usize, Span),
    /// Text at `start..end` whose content a lazy tokenizer's caller does not read, and then a
    /// tag, ready in `tag`.
    SkippedTextThenTag(usize, usize, Span),
}

/// What a character reference resolves to on the direct path.
#[derive(Clone, Copy)]
enum Resolved {
    Str(&'static str),
    Char(char),
    /// The source stays as it is (an `&` that starts no reference).
    Raw,
}

/// The longest name (without `&`) in the named-reference table is 32 bytes plus `;`.
const MAX_REFERENCE_NAME: usize = 32;

/// Runs the direct paths copy unchanged: no NULL, no CR (which the states replace or fold), no
/// character with an input-stream error (which the states report).
static PLAIN: StopSet = stops(b"");

/// An unquoted attribute value on the direct path: it ends at whitespace or `>`, and gives up at
/// `&` (a reference), at the characters that are errors there and at what [`PLAIN`] excludes.
static UNQUOTED_VALUE: StopSet = stops(b"&>\"'<=`").stop(names::ASCII_WHITESPACE);

/// What may follow a quoted attribute value on the direct path: whitespace, `/` or `>`
/// (anything else is `missing-whitespace-between-attributes`).
static AFTER_QUOTED_VALUE: StopSet = StopSet::new(b"/>").stop(names::ASCII_WHITESPACE);

/// What ends an unquoted attribute value on the direct path: whitespace or `>`.
static AFTER_UNQUOTED_VALUE: StopSet = StopSet::new(b">").stop(names::ASCII_WHITESPACE);

/// True when `bytes[from..to]` has no byte the direct paths leave to the states ([`PLAIN`]).
#[inline]
fn is_plain(bytes: &[u8], from: usize, to: usize) -> bool {
    PLAIN.find_inline(&bytes[..to], from) == to
}

/// The last named reference with `;` that the direct path looked up in the table: documents
/// tend to repeat one (`&amp;` in URLs, `&lt;` in code), and comparing a few bytes is cheaper
/// than hashing them.
#[derive(Clone, Copy)]
pub(super) struct NameCache {
    key: [u8; MAX_REFERENCE_NAME + 1],
    len: usize,
    value: &'static str,
}

impl Default for NameCache {
    fn default() -> Self {
        NameCache {
            key: [0; MAX_REFERENCE_NAME + 1],
            len: 0,
            value: "",
        }
    }
}

impl NameCache {
    #[inline]
    fn get(&self, key: &[u8]) -> Option<&'static str> {
        (self.len != 0 && self.key.get(..self.len) == Some(key)).then_some(self.value)
    }

    #[inline]
    fn put(&mut self, key: &[u8], value: &'static str) {
        if let Some(slot) = self.key.get_mut(..key.len()) {
            slot.copy_from_slice(key);
            self.len = key.len();
            self.value = value;
        }
    }
}

/// A character reference at `text[i]` (an `&`) when the buffer holds all the states need to
/// decide it and they decide it without a parse error. Returns what it resolves to and the
/// index after it:
/// - `&name;` whose whole name with its `;` is in the table (names hold `;` only at their end,
///   so that is the longest match);
/// - `&#digits;` / `&#xhex;` with a number that has no error;
/// - [`Resolved::Raw`] for an `&` before anything but an alphanumeric or `#`, before
///   alphanumerics no name starts (and no `;` after them), and in an attribute value
///   (`in_attribute`) before a name without `;` followed by `=` or an alphanumeric.
///
/// `None` (the states decide) for anything else, including a buffer that ends too early.
#[inline]
fn fast_reference(
    text: &str,
    i: usize,
    in_attribute: bool,
    finished: bool,
    cache: &mut NameCache,
) -> Option<(Resolved, usize)> {
    let bytes = text.as_bytes();
    let first = *bytes.get(i + 1)?;
    if names::is_ascii_alphanumeric(first) {
        let mut j = i + 2;
        while j <= i + 1 + MAX_REFERENCE_NAME && names::is_ascii_alphanumeric(*bytes.get(j)?) {
            j += 1;
        }
        if bytes.get(j) == Some(&b';') {
            // A name that is not in the table with its `;` is an error either way.
            let key = &bytes[i + 1..=j];
            if let Some(value) = cache.get(key) {
                return Some((Resolved::Str(value), j + 1));
            }
            let value = thicket_charref::named(&text[i + 1..=j])?.value?;
            cache.put(key, value);
            return Some((Resolved::Str(value), j + 1));
        }
        // No `;` right after the name: a longest match without one, or none.
        return match thicket_charref::longest_match(&text[i + 1..], finished) {
            LongestMatch::NeedMore => None,
            LongestMatch::None => {
                // The ambiguous ampersand state copies the alphanumerics; a `;` after them is
                // an error.
                let mut k = j;
                while names::is_ascii_alphanumeric(*bytes.get(k)?) {
                    k += 1;
                }
                (bytes[k] != b';').then_some((Resolved::Raw, k))
            }
            LongestMatch::Found { len, .. } => {
                // Without `;` (a name ending in `;` would have been found above): outside an
                // attribute value that is an error.
                let next = *bytes.get(i + 1 + len)?;
                (in_attribute && (next == b'=' || names::is_ascii_alphanumeric(next)))
                    .then_some((Resolved::Raw, i + 1 + len))
            }
        };
    }
    if first != b'#' {
        return Some((Resolved::Raw, i + 1));
    }
    let mut j = i + 2;
    let radix = if matches!(*bytes.get(j)?, b'x' | b'X') {
        j += 1;
        16
    } else {
        10
    };
    let digits = j;
    let mut code = 0u32;
    while let Some(d) = char::from(*bytes.get(j)?).to_digit(radix) {
        code = numeric::accumulate(code, radix, d);
        j += 1;
    }
    if j == digits || bytes[j] != b';' {
        return None;
    }
    match numeric::whatwg(code) {
        (c, None) => Some((Resolved::Char(c), j + 1)),
        (_, Some(_)) => None,
    }
}

impl<'a> Tokenizer<'a> {
    /// In the data state between tokens: takes text runs and the references between them that
    /// [`fast_reference`] decides, and then a whole tag when the buffer holds all of it and it is
    /// plain (see [`Tokenizer::fast_tag`]). Anything else (a chunk end, CR, NULL, a reference or
    /// tag that is not plain, markup declarations) is left to the states at its start, with the
    /// text so far pending as the states would have it.
    #[inline(always)]
    pub(super) fn fast_data(&mut self) -> Fast {
        self.fast_data_in::<false>()
    }

    /// [`Tokenizer::fast_data`]'s paths, with the tag at a `<` taken by [`Tokenizer::lazy_tag`]
    /// when `LAZY` (a lazy tokenizer whose caller reads text), by [`Tokenizer::fast_tag`]
    /// otherwise.
    #[inline(always)]
    pub(super) fn fast_data_in<const LAZY: bool>(&mut self) -> Fast {
        // The common case first: a run of plain text (maybe empty), then a tag. The text is
        // handed out as a range of the input without going through `text`.
        let start = self.pos();
        let end = self.scan_inline(&DATA);
        let at =
            |t: &Tokenizer, offset: usize| t.input.bytes().get(offset - t.input.base()).copied();
        if at(self, end) == Some(b'<') {
            self.input.set_offset(end);
            if let Some(span) = if LAZY {
                self.lazy_tag()
            } else {
                self.fast_tag()
            } {
                return if end > start {
                    Fast::RawTextThenTag(start, end, span)
                } else {
                    Fast::Tag(span)
                };
            }
            if end > start {
                self.emit_raw(start, end);
            }
            // A comment goes through the queue (they are few).
            self.fast_comment();
            return Fast::No;
        }
        if end > start {
            self.emit_raw(start, end);
            self.input.set_offset(end);
        }
        let mut end = end;
        loop {
            match at(self, end) {
                Some(b'<') => {
                    return match if LAZY {
                        self.lazy_tag()
                    } else {
                        self.fast_tag()
                    } {
                        Some(span) if self.text_span.is_some() => Fast::TextThenTag(span),
                        Some(span) => Fast::Tag(span),
                        None => {
                            // A comment goes through the queue (they are few).
                            self.fast_comment();
                            Fast::No
                        }
                    };
                }
                Some(b'&') => {
                    let base = self.input.base();
                    let finished = self.input.is_finished();
                    let Some((resolved, after)) = fast_reference(
                        self.input.text(),
                        end - base,
                        false,
                        finished,
                        &mut self.names,
                    ) else {
                        return Fast::No;
                    };
                    let after = base + after;
                    let mut tmp = [0u8; 4];
                    if !matches!(resolved, Resolved::Raw) && !self.text.is_owned() {
                        // The text becomes owned here: room for it up to the next `<` at once.
                        let rest = &self.input.bytes()[after - base..];
                        let n = memchr::memchr(b'<', rest).unwrap_or(rest.len());
                        self.text.reserve(n + 8, &self.input);
                    }
                    match resolved {
                        Resolved::Str(s) => self.emit_str(s, end, after),
                        Resolved::Char(c) => self.emit_str(c.encode_utf8(&mut tmp), end, after),
                        Resolved::Raw => self.emit_raw(end, after),
                    }
                    self.input.set_offset(after);
                    if after > self.checked {
                        self.checked = after;
                    }
                }
                _ => return Fast::No,
            }
            end = self.scan_inline(&DATA);
            self.take_run_to(end);
        }
    }

    /// A whole comment at the position (a `<`) when all of it is in the buffer and the comment
    /// states would take it without a parse error or a change: `<!--`, then data without `!`,
    /// NULL, CR or characters with input-stream errors, not starting with `>` or `->`, up to the
    /// first `-->`. (Without `!` there is no `--!>` ending it first and no nested `<!--`; a `-`
    /// or `--` inside the data is copied by the states as it is, and `--->` leaves the `-` to
    /// the data as the first `-->` does.) Queues it (after the pending text), moves past it and
    /// returns true; otherwise changes nothing and returns false.
    #[inline(never)]
    pub(super) fn fast_comment(&mut self) -> bool {
        let bytes = self.input.bytes();
        let lt = self.input.index();
        let ds = lt + 4;
        let data = || {
            if bytes.get(lt..ds)? != b"<!--" || matches!(bytes.get(ds..ds + 2)?, [b'>', _] | b"->")
            {
                return None;
            }
            // The first `-->` ends at the first `>` with `--` before it, and only one before
            // the first `!` is taken: the states may end the comment there (`--!>`). One scan
            // for both bytes, to the end of the comment (not past it, nor to the next `!`
            // wherever it is), with no substring searcher built for every comment.
            let rest = &bytes[ds..];
            let gt = memchr::memchr2_iter(b'>', b'!', rest)
                .take_while(|&k| rest[k] == b'>')
                .find(|&k| k >= 2 && rest[k - 2..k] == *b"--")?;
            let de = ds + gt - 2;
            is_plain(bytes, ds, de).then_some(de)
        };
        let Some(de) = data() else {
            return false;
        };
        if de - ds > self.limit.max_token_len {
            // The states cut it.
            return false;
        }
        let base = self.input.base();
        self.comment.clear();
        if de > ds && self.keep.comments {
            self.comment.push_range(base + ds, base + de, &self.input);
        }
        let end = base + de + 3;
        self.token_start = base + lt;
        self.input.set_offset(end);
        if end > self.checked {
            self.checked = end;
        }
        self.emit_comment();
        true
    }

    /// A whole tag at the position (a `<`), when all of it is in the buffer and it has none of
    /// what makes the states do more than copy: a start tag `<name attr attr="v" attr='v'
    /// attr=v>` (or `/>`) or an end tag `</name>`, with lowercase names of [`NAME`]'s run bytes,
    /// values without NULL, CR or characters with input-stream errors (quoted ones may hold
    /// references that [`fast_reference`] decides, unquoted ones none), no duplicate attribute
    /// (at most [`LINEAR_DUPLICATE_LIMIT`] of them) and nothing that is a parse error. Builds it
    /// in `tag` exactly as the states would, moves past it and returns its span; otherwise
    /// changes nothing the states read (`tag` is reset by them at a tag's start) and returns
    /// `None`.
    ///
    /// Always inlined into [`Tokenizer::fast_data`]: called once per tag, the call itself showed
    /// up in the profile (3% of the instructions on whatwg-html-source-2010).
    #[inline(always)]
    pub(super) fn fast_tag(&mut self) -> Option<Span> {
        let finished = self.input.is_finished();
        let mut tmp = [0u8; 4];
        let input = &self.input;
        let text = input.text();
        let bytes = text.as_bytes();
        let base = input.base();
        let at = |j: usize| bytes.get(j).copied();
        let lt = input.index();
        let mut j = lt + 1;
        let end_tag = at(j)? == b'/';
        if end_tag {
            j += 1;
        }
        if !names::is_ascii_lower_alpha(at(j)?) {
            return None;
        }
        let name_start = j;
        j += 1;
        while !NAME.contains(at(j)?) {
            j += 1;
        }
        let name_end = j;
        let t = &mut self.tag;
        t.end_tag = end_tag;
        t.name.clear();
        t.name.push_range(base + name_start, base + name_end, input);
        t.attrs.clear();
        t.self_closing = false;
        let gt = loop {
            let b = at(j)?;
            if b == b'>' {
                break j;
            }
            if b == b'/' {
                if !end_tag && at(j + 1)? == b'>' {
                    t.self_closing = true;
                    break j + 1;
                }
                return None;
            }
            if names::is_ascii_whitespace(b) {
                j += 1;
                continue;
            }
            // An attribute: only after whitespace (a name stops at whitespace, `/`, `>` or at
            // what makes this path give up, and a value is followed by whitespace, `/` or `>`).
            if end_tag {
                return None;
            }
            let ns = j;
            while !NAME.contains(at(j)?) {
                j += 1;
            }
            let ne = j;
            if ne == ns {
                return None;
            }
            let name = &bytes[ns..ne];
            if t.attrs.len() >= LINEAR_DUPLICATE_LIMIT
                || t.attrs.iter().any(|a| match a.name.range() {
                    Some((s, e)) => &bytes[s - base..e - base] == name,
                    None => true,
                })
            {
                return None;
            }
            let mut k = j;
            while names::is_ascii_whitespace(at(k)?) {
                k += 1;
            }
            let mut attr = AttrBuild {
                start: base + ns,
                end: base + ne,
                ..AttrBuild::default()
            };
            attr.name.push_range(base + ns, base + ne, input);
            if at(k)? != b'=' {
                // No value; what follows is another attribute, `/` or `>`.
                t.attrs.push(attr);
                j = k;
                continue;
            }
            j = k + 1;
            while names::is_ascii_whitespace(at(j)?) {
                j += 1;
            }
            let (vs, ve, after) = match at(j)? {
                quote @ (b'"' | b'\'') => {
                    let vs = j + 1;
                    let run = if quote == b'"' {
                        &DOUBLE_QUOTED
                    } else {
                        &SINGLE_QUOTED
                    };
                    // The value up to its quote or first `&`; anything else in it is left to
                    // the states.
                    let mut ve = run.find_inline(bytes, vs);
                    if at(ve)? != quote && at(ve)? != b'&' {
                        return None;
                    }
                    if bytes[ve] == b'&' {
                        // References: the value is built piece by piece (`seg` is where the
                        // source not yet appended starts).
                        let mut seg = vs;
                        let value = &mut attr.value;
                        // The closing quote bounds the value's length (a reference's source is
                        // never much shorter than what it resolves to): one allocation.
                        let close = ve + memchr::memchr(quote, &bytes[ve..])?;
                        loop {
                            if bytes[ve] == quote {
                                if ve > seg {
                                    value.push_range(base + seg, base + ve, input);
                                }
                                break;
                            }
                            let (resolved, after) =
                                fast_reference(text, ve, true, finished, &mut self.names)?;
                            let replacement = match resolved {
                                Resolved::Raw => None,
                                Resolved::Str(s) => Some(s),
                                Resolved::Char(c) => Some(c.encode_utf8(&mut tmp) as &str),
                            };
                            if let Some(r) = replacement {
                                if !value.is_owned() {
                                    value.reserve(close - seg + 8, input);
                                }
                                if ve > seg {
                                    value.push_range(base + seg, base + ve, input);
                                }
                                value.push_str(r, input);
                                seg = after;
                            }
                            ve = run.find_inline(bytes, after);
                            if at(ve)? != quote && at(ve)? != b'&' {
                                return None;
                            }
                        }
                        if !AFTER_QUOTED_VALUE.is_stop(at(ve + 1)?) {
                            return None;
                        }
                        attr.end = base + ve + 1;
                        t.attrs.push(attr);
                        j = ve + 1;
                        continue;
                    }
                    // After the closing quote: whitespace, `/` or `>` (anything else is an error).
                    if !AFTER_QUOTED_VALUE.is_stop(at(ve + 1)?) {
                        return None;
                    }
                    (vs, ve, ve + 1)
                }
                b if !UNQUOTED_VALUE.contains(b) => {
                    let vs = j;
                    let ve = UNQUOTED_VALUE.find(bytes, j + 1);
                    if !AFTER_UNQUOTED_VALUE.is_stop(at(ve)?) {
                        return None;
                    }
                    (vs, ve, ve)
                }
                _ => return None,
            };
            if ve > vs {
                attr.value.push_range(base + vs, base + ve, input);
            }
            attr.end = base + after;
            t.attrs.push(attr);
            j = after;
        };
        // A tag longer than the shortest name or value limit, or with more attributes than
        // allowed, is left to the states, which cut it (one check per tag: no name or value is
        // longer than the tag).
        if gt - lt > self.limit.max_tag_len || t.attrs.len() > self.limit.max_attributes {
            return None;
        }
        // The steps of `direct_tag_done`, written out here: calling it (inline(always) as it
        // is) measured +1.4% to +3.0% instructions for the whole tokenizer (code layout of
        // the hottest path), so the lazy path calls it and this one keeps its own copy.
        let start = base + lt;
        let end = base + gt + 1;
        self.token_start = start;
        self.input.set_offset(end);
        if end > self.checked {
            self.checked = end;
        }
        if !end_tag {
            if self.options.switch_by_tag_name {
                // Also makes it the last start tag.
                self.start_tag_done();
            } else {
                // The name is a range of the input here.
                self.last_start_tag.clear();
                self.last_start_tag
                    .push_range(base + name_start, base + name_end, &self.input);
            }
        } else if self.options.foreign_content {
            self.foreign_end_tag();
        }
        Some(Span::new(start, end))
    }

    /// A tag a direct path built (from the `<` at buffer index `lt` to the `>` at `gt`, its
    /// name at `name_start..name_end`): the position moves past it, a start tag becomes the
    /// last start tag and may switch the state, an end tag updates the model of foreign
    /// content. Returns the tag's span.
    #[inline(always)]
    pub(super) fn direct_tag_done(
        &mut self,
        lt: usize,
        gt: usize,
        name_start: usize,
        name_end: usize,
        end_tag: bool,
    ) -> Span {
        let base = self.input.base();
        let start = base + lt;
        let end = base + gt + 1;
        self.token_start = start;
        self.input.set_offset(end);
        if end > self.checked {
            self.checked = end;
        }
        if !end_tag {
            if self.options.switch_by_tag_name {
                // Also makes it the last start tag.
                self.start_tag_done();
            } else {
                // The name is a range of the input here.
                self.last_start_tag.clear();
                self.last_start_tag
                    .push_range(base + name_start, base + name_end, &self.input);
            }
        } else if self.options.foreign_content {
            self.foreign_end_tag();
        }
        Span::new(start, end)
    }

    /// A direct path beside the attribute states for the common shapes `name="value"` (a
    /// lowercase ASCII name, a quoted value without `&`, NULL, CR or characters with input-stream
    /// errors, then whitespace, `/` or `>`) and `name=value` (an unquoted value that
    /// [`UNQUOTED_VALUE`] runs over, then whitespace or `>`), taking whole attributes at once. It
    /// produces exactly what the states would (the only possible error, `duplicate-attribute`,
    /// is reported at the `=`) and gives up, leaving everything to the states, at anything else
    /// or at the end of the buffer. `None` means "not taken here"; otherwise the step of the
    /// state the states would reach.
    pub(super) fn fast_attributes(&mut self) -> Option<Step> {
        let mut taken = false;
        loop {
            let bytes = self.input.bytes();
            let mut i = self.input.index();
            while bytes.get(i).is_some_and(|&b| names::is_ascii_whitespace(b)) {
                i += 1;
            }
            let name_start = i;
            if !bytes
                .get(i)
                .is_some_and(|&b| names::is_ascii_lower_alpha(b))
            {
                break;
            }
            while bytes.get(i).is_some_and(|&b| {
                names::is_ascii_lower_alpha(b) || names::is_ascii_digit(b) || b == b'-'
            }) {
                i += 1;
            }
            let eq = i;
            if bytes.get(eq) != Some(&b'=')
                || self.limit.attributes_seen >= self.limit.max_attributes
            {
                break;
            }
            let (value_start, value_end, after, next) = match bytes.get(eq + 1) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let value_start = eq + 2;
                    let run = if quote == b'"' {
                        &DOUBLE_QUOTED
                    } else {
                        &SINGLE_QUOTED
                    };
                    let value_end = run.find_inline(bytes, value_start);
                    if bytes.get(value_end) != Some(&quote) {
                        break;
                    }
                    let after = value_end + 1;
                    match bytes.get(after) {
                        Some(&b) if AFTER_QUOTED_VALUE.is_stop(b) => {
                            (value_start, value_end, after, b)
                        }
                        _ => break,
                    }
                }
                // Unquoted: a run of bytes that neither end the value nor carry an error, then
                // whitespace or `>` (the attribute ends with its value).
                Some(&b) if !UNQUOTED_VALUE.contains(b) => {
                    let value_start = eq + 1;
                    let j = UNQUOTED_VALUE.find(bytes, value_start + 1);
                    match bytes.get(j) {
                        Some(&b) if AFTER_UNQUOTED_VALUE.is_stop(b) => (value_start, j, j, b),
                        _ => break,
                    }
                }
                _ => break,
            };
            // An attribute longer than the shortest name or value limit is left to the states.
            if after - name_start > self.limit.max_tag_len {
                break;
            }
            // Commit the attribute, as the states would have built it (after the one the states
            // may have left unfinished).
            self.finish_attribute();
            let base = self.input.base();
            let mut attr = AttrBuild {
                start: base + name_start,
                end: base + after,
                ..AttrBuild::default()
            };
            attr.name
                .push_range(base + name_start, base + eq, &self.input);
            attr.value
                .push_range(base + value_start, base + value_end, &self.input);
            self.attr = Some(attr);
            self.attr_duplicate = false;
            self.limit.attributes_seen += 1;
            self.input.set_index(eq);
            self.cw = 1;
            self.check_duplicate_attribute();
            self.finish_attribute();
            self.input.set_index(after + 1);
            if self.pos() > self.checked {
                self.checked = self.pos();
            }
            taken = true;
            match next {
                b'>' => {
                    self.state = State::Data;
                    self.emit_tag();
                    return Some(Ok(()));
                }
                b'/' => {
                    self.state = State::SelfClosingStartTag;
                    return Some(Ok(()));
                }
                _ => {}
            }
        }
        // Whitespace and finished attributes were taken; the states go on from here.
        if taken {
            self.state = State::BeforeAttributeName;
        }
        None
    }
}
