//! The tokenizer: the input (a `thicket_input` cursor with the standard's preprocessing and
//! input-stream errors), the output (text runs, the token queue), and the state machine, one
//! method per state, in one file per group of states as the standard groups them:
//!
//! - [`text`]: data, RCDATA, RAWTEXT, script data and PLAINTEXT, with their end tag and script
//!   escape states (12.2.5.1-5, 9-31);
//! - [`tag`]: tag open, end tag open, tag name and the attribute states (6-8, 32-40);
//! - [`comment`]: bogus comments, markup declaration open and the comment states (41-52);
//! - [`doctype`]: the DOCTYPE states (53-68);
//! - [`cdata`]: CDATA sections (69-71);
//! - [`charref`]: character references (72-80);
//! - [`pi`]: processing instructions (2026: 13.2.5.72-76).
//!
//! Beside the states: [`fast`], the direct paths that take plain text, references, tags and
//! comments whole (differential-tested against the states), [`limits`] and [`duplicates`].

use std::borrow::Cow;
use std::collections::VecDeque;

use thicket_charref::numeric;
use thicket_input::cursor::{Cursor, NeedMore};
use thicket_input::scan::StopSet;
use thicket_input::{Diagnostic, Diagnostics, NewlineRules, Span, TextAcc};
use thicket_names::html as names;

use crate::error::ErrorCode;
use crate::state::State;
use crate::token::Token;

mod cdata;
mod charref;
mod comment;
mod doctype;
mod duplicates;
mod fast;
mod foreign;
mod hand_out;
mod lazy;
mod limits;
mod pi;
mod tag;
mod text;

use doctype::DoctypeBuild;
pub use foreign::breaks_out_of_foreign_content;
use hand_out::{Own, OwnWithInput, Source, Strings, Whole};
use tag::TagBuild;

pub use lazy::{AttributesOf, Lazy};

/// Options for [`Tokenizer::with_options`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The state to start in (a tree builder's fragment case, or html5lib's `initialStates`).
    /// `None` means the data state.
    pub initial_state: Option<State>,
    /// The "last start tag" for the appropriate-end-tag check before any start tag is seen
    /// (html5lib's `lastStartTag`, or a fragment's context element).
    pub last_start_tag: Option<String>,
    /// For use without a tree builder: after a start tag `title` or `textarea` switch to RCDATA,
    /// after `style`, `xmp`, `iframe`, `noembed`, `noframes` to RAWTEXT, after `script` to script
    /// data, after `plaintext` to PLAINTEXT, as the streaming design notes do. Alone, by the tag
    /// name only (so `<svg><style>` switches too); with [`foreign_content`](Self::foreign_content)
    /// as a tree builder would.
    pub switch_by_tag_name: bool,
    /// With `switch_by_tag_name`: follow SVG and MathML subtrees as the tree builder's rules for
    /// foreign content do, so that a start tag switches only where the HTML rules process it
    /// (`<svg><style>` does not switch, `<svg><foreignObject><style>` and `<math><mi><style>`
    /// do), and CDATA sections are allowed exactly where the adjusted current node is not in
    /// the HTML namespace (`cdata_allowed` is then kept up to date by the tokenizer). The
    /// subset of tree construction this follows: docs/html.md, "The document-level mode".
    pub foreign_content: bool,
    /// With `switch_by_tag_name`: `noscript` switches to RAWTEXT as well (scripting enabled).
    pub scripting: bool,
    /// Whether `<![CDATA[` opens a CDATA section (the adjusted current node is not in the HTML
    /// namespace). A tree builder updates it with [`Tokenizer::set_cdata_allowed`].
    pub cdata_allowed: bool,
    /// Limits for untrusted input (attributes per tag, name and value lengths, diagnostics
    /// kept); all off by default. What each does when reached: docs/html.md.
    pub limits: thicket_input::Limits,
    /// Read `<?` as the HTML Standard did before 2026: an
    /// `unexpected-question-mark-instead-of-tag-name` error and a bogus comment up to the next
    /// `>`, and never a [`Token::ProcessingInstruction`]. Off by default: `<?target data>` is a
    /// processing instruction, as the standard says since 2026 (whatwg/html#12118).
    pub legacy_processing_instructions: bool,
    /// Lazy tokenizing: the same tokens (kinds, spans, tag names, self-closing flags, state
    /// switches), with only what [`Lazy`] asks for built: text, comment, DOCTYPE and
    /// processing instruction content, and the attributes of the tags it names. `None` (the
    /// default) builds everything. What the other tokens then carry: docs/html.md, "Lazy
    /// tokenizing".
    pub lazy: Option<Lazy>,
}

impl Options {
    /// The document-level mode: the tokens a tree builder would see (raw-text elements switch
    /// the state by their names, SVG and MathML are followed: `switch_by_tag_name` and
    /// `foreign_content`), what most users want. [`Options::default`] is the bare tokenizer of
    /// the standard, which switches only when told ([`Tokenizer::set_state`]).
    ///
    /// ```
    /// use thicket_html::{Options, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_options(Options::document());
    /// tok.feed("<script>if (a<b) x()</script><svg><style>a{}</style></svg>");
    /// tok.finish();
    /// let mut names = Vec::new();
    /// while let Some(token) = tok.next_token() {
    ///     if let Token::StartTag(t) = token {
    ///         names.push(t.name.into_owned());
    ///     }
    /// }
    /// assert_eq!(names, ["script", "svg", "style"]);
    /// ```
    pub fn document() -> Options {
        Options {
            switch_by_tag_name: true,
            foreign_content: true,
            ..Options::default()
        }
    }
}

/// The direct paths a tokenizer tries ([`Tokenizer::set_direct_paths`], [`Options::lazy`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direct {
    Off,
    Full,
    Lazy,
}

/// What a state method returns: `Ok` to go on, [`NeedMore`] when the input ran out before the
/// standard could decide (the one way to wait: `?` hands it up to [`Tokenizer::run`]).
type Step = Result<(), NeedMore>;

/// A finished token waiting to be returned. Text carries its string; a tag, comment, DOCTYPE
/// or processing instruction stays in the tokenizer's `tag`, `comment`, `doctype` or `pi` field
/// until it is returned (the tokenizer never runs ahead of the token it returned, so at most one
/// of each is waiting), which keeps the queue entries small and saves moving the tag twice.
enum Pending {
    Text(TextAcc, Span),
    Discarded(Span),
    Eof(Span),
    Tag(Span),
    Comment(Span),
    Doctype(Span),
    Pi(Span),
}

impl Pending {
    fn span(&self) -> Span {
        match self {
            Pending::Text(_, s)
            | Pending::Discarded(s)
            | Pending::Eof(s)
            | Pending::Tag(s)
            | Pending::Comment(s)
            | Pending::Doctype(s)
            | Pending::Pi(s) => *s,
        }
    }
}

/// The stop set of a state's run: its own `stops`, and in every state NULL and CR (the states
/// replace or report the one and fold the other), with the lead bytes of the characters the
/// input stream reports as check bytes ([`Tokenizer::scan`] reports them and goes on).
const fn stops(stops: &[u8]) -> StopSet {
    StopSet::new(stops)
        .stop(b"\0\r")
        .check_table(&names::INPUT_STREAM_ERROR_LEADS)
}

/// How many bytes of a text run (RAWTEXT, script data, comments) are tested one by one before
/// the engine of its stop set starts: most runs between two tags are shorter. (Attribute values
/// are longer: their sets start with the word test. Data runs, scanned inlined, probe fewer:
/// `text::DATA_PROBE`.)
const TEXT_PROBE: u8 = 16;

/// Reports the input-stream error of `c` at `at`, if it has one.
#[cold]
fn check_input_char(diagnostics: &mut Diagnostics<ErrorCode>, c: char, at: usize, w: usize) {
    let code = c as u32;
    let span = Span::new(at, at + w);
    if numeric::is_control(code) && c != '\0' && !names::is_ascii_whitespace_char(c) {
        diagnostics.push(Diagnostic::new(
            ErrorCode::ControlCharacterInInputStream,
            span,
        ));
    } else if numeric::is_noncharacter(code) {
        diagnostics.push(Diagnostic::new(ErrorCode::NoncharacterInInputStream, span));
    }
}

/// The WHATWG HTML tokenizer, streaming.
///
/// Feed text with [`feed`](Self::feed) (any number of times), call [`finish`](Self::finish) at the
/// end, and pull tokens with [`next_token`](Self::next_token) between feeds. A token is returned
/// as soon as the standard makes it certain. Tokens borrow from the tokenizer's buffer, so each one
/// must be dropped (or made owned with [`Token::into_owned`]) before the next call.
pub struct Tokenizer<'a> {
    /// The input: unconsumed text and the part of the current token already read, at absolute
    /// offsets (`thicket_input`'s cursor: feeding, compaction, CR LF folding, waiting).
    input: Cursor<'a>,
    /// Width in input bytes of the character last read by [`Tokenizer::cur`] (0 at the end).
    cw: usize,
    /// Input-stream errors have been reported for every character before this offset.
    checked: usize,
    done: bool,
    state: State,
    return_state: State,
    options: Options,
    /// Which direct paths `next_token` tries before the states: none (turned off, or after
    /// the end-of-file token), [`fast`]'s, or [`lazy`]'s. One test per token decides.
    direct: Direct,
    /// `Options::lazy`'s tags whose attributes are built, when lazy ([`lazy`]).
    lazy: Option<lazy::Wanted>,
    /// Which token strings are handed out (all, unless lazy).
    keep: lazy::Keep,
    /// The "last start tag" name: a range of the input while it is the input unchanged (most
    /// names; the cursor copies it out before compaction drops it), owned otherwise.
    last_start_tag: TextAcc,
    /// The caller's floor ([`Tokenizer::retain_from`]): compaction keeps the input from this
    /// absolute offset on (`usize::MAX`: no floor).
    floor: usize,

    /// Where the current markup (`<`, `&`) started.
    token_start: usize,
    /// End of the last queued token: everything before it has been handed out.
    last_end: usize,

    text: TextAcc,
    text_span: Option<(usize, usize)>,
    tag: TagBuild,
    attr: Option<tag::AttrBuild>,
    attr_duplicate: bool,
    /// The attribute names of a tag with more than [`tag::LINEAR_DUPLICATE_LIMIT`] of them.
    attr_index: duplicates::NameIndex,
    comment: TextAcc,
    doctype: DoctypeBuild,
    pi: pi::PiBuild,
    /// `Options::limits` and what they did to the current token.
    limit: limits::Guard,
    temp: String,
    charref_start: usize,
    charref_code: u32,

    queue: VecDeque<Pending>,
    /// A tag built by the direct path ([`Tokenizer::fast_data`]) behind the text it returned:
    /// handed out by the next call, before anything else (the queue is empty meanwhile).
    ready_tag: Option<Span>,
    /// The direct path's last named-reference lookup.
    names: fast::NameCache,
    /// The document-level mode's open SVG and MathML elements (`Options::foreign_content`).
    foreign: foreign::ForeignContent,
    diagnostics: Diagnostics<ErrorCode>,
}

impl Default for Tokenizer<'_> {
    fn default() -> Self {
        Tokenizer::new()
    }
}

impl std::fmt::Debug for Tokenizer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("state", &self.state)
            .field("offset", &self.input.offset())
            .field("buffered", &self.input.buffered())
            .field("finished", &self.input.is_finished())
            .field("done", &self.done)
            .field("lazy", &self.options.lazy)
            .field("diagnostics", &self.diagnostics.as_slice().len())
            .finish_non_exhaustive()
    }
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer in the data state with default options.
    pub fn new() -> Tokenizer<'a> {
        Tokenizer::with_options(Options::default())
    }

    /// A tokenizer with `options`.
    pub fn with_options(options: Options) -> Tokenizer<'a> {
        let state = options.initial_state.unwrap_or(State::Data);
        let mut last_start_tag = TextAcc::new();
        let input = Cursor::new(NewlineRules::CrLf);
        if let Some(name) = &options.last_start_tag {
            last_start_tag.push_str(name, &input);
        }
        let limit = limits::Guard::new(&options.limits);
        let diagnostics = Diagnostics::new(options.limits.max_diagnostics);
        let keep = lazy::Keep::new(options.lazy.as_ref());
        let lazy = options
            .lazy
            .as_ref()
            .map(|l| lazy::Wanted::new(&l.attributes));
        Tokenizer {
            input,
            cw: 0,
            checked: 0,
            done: false,
            state,
            return_state: State::Data,
            options,
            direct: if lazy.is_some() {
                Direct::Lazy
            } else {
                Direct::Full
            },
            lazy,
            keep,
            last_start_tag,
            floor: usize::MAX,
            token_start: 0,
            last_end: 0,
            text: TextAcc::new(),
            text_span: None,
            tag: TagBuild::default(),
            attr: None,
            attr_duplicate: false,
            attr_index: duplicates::NameIndex::default(),
            comment: TextAcc::new(),
            doctype: DoctypeBuild::default(),
            pi: pi::PiBuild::default(),
            limit,
            temp: String::new(),
            charref_start: 0,
            charref_code: 0,
            queue: VecDeque::new(),
            ready_tag: None,
            names: fast::NameCache::default(),
            foreign: foreign::ForeignContent::default(),
            diagnostics,
        }
    }

    /// Appends a chunk of input. Chunks may end anywhere (inside a tag, a reference, a CR LF).
    /// Feeding after [`finish`](Self::finish) is ignored.
    pub fn feed(&mut self, chunk: &str) {
        if self.input.is_finished() {
            return;
        }
        self.compact();
        self.input.feed(chunk);
    }

    /// Appends a chunk of input as [`feed`](Self::feed) does, reading it where it is (no
    /// copy) when the tokenizer holds nothing it still needs: it has read all it was fed, and
    /// neither a token it is building nor the caller's floor ([`retain_from`](Self::retain_from))
    /// needs any of it. Otherwise the chunk is copied into the buffer, as `feed` would. Either
    /// way the tokens are the same.
    ///
    /// The tokenizer borrows `chunk` meanwhile, so its lifetime is the chunk's: a tokenizer
    /// that owns its input (`Tokenizer<'static>`) is moved into a shorter-lived one to be lent
    /// a chunk, and [`into_owned`](Self::into_owned) gives it its own buffer back, keeping
    /// only what it (and the caller's floor) still needs. A whole `&str` read this way is
    /// never copied ([`parse`](crate::parse) does so).
    ///
    /// ```
    /// use thicket_html::{Token, Tokenizer};
    /// let mut t: Tokenizer<'static> = Tokenizer::new();
    /// let chunk = String::from("<p>hi<b");
    /// let mut lent: Tokenizer<'_> = t;
    /// lent.feed_lent(&chunk);
    /// assert!(matches!(lent.next_token(), Some(Token::StartTag(_))));
    /// assert!(matches!(lent.next_token(), Some(Token::Text { .. })));
    /// assert!(lent.next_token().is_none()); // `<b` waits for more
    /// t = lent.into_owned(); // keeps `<b`
    /// drop(chunk);
    /// t.feed(">");
    /// assert!(matches!(t.next_token(), Some(Token::StartTag(tag)) if tag.name == "b"));
    /// ```
    pub fn feed_lent(&mut self, chunk: &'a str) {
        if self.input.is_finished() {
            return;
        }
        let keep = self.keep_point();
        if !self
            .input
            .lend(chunk, keep, &mut [&mut self.last_start_tag])
        {
            self.compact();
            self.input.feed(chunk);
        }
    }

    /// True while the tokenizer holds input it still needs (input not read yet, a token not
    /// finished or not handed out, or input from the caller's floor on): then
    /// [`feed_lent`](Self::feed_lent) copies its chunk, as [`feed`](Self::feed) does; false
    /// when the next `feed_lent` reads its chunk where it is. Once the tokenizer is finished,
    /// chunks are ignored and this answers true. (`&mut`: the strings of a token a limit cut
    /// are copied out of the buffer, as the next feed would copy them.)
    ///
    /// ```
    /// let mut t = thicket_html::Tokenizer::new();
    /// t.feed("<p>x<b");
    /// while t.next_token().is_some() {}
    /// assert!(t.holds_input()); // `<b`
    /// t.feed(">");
    /// while t.next_token().is_some() {}
    /// assert!(!t.holds_input());
    /// ```
    pub fn holds_input(&mut self) -> bool {
        let keep = self.keep_point();
        !self.input.can_lend(keep)
    }

    /// The tokenizer with a buffer of its own again, after [`feed_lent`](Self::feed_lent): what
    /// it still needs of a lent chunk (an unfinished token, the caller's floor) is copied. A
    /// tokenizer that owns its buffer is only moved.
    #[inline]
    pub fn into_owned(mut self) -> Tokenizer<'static> {
        let keep = self.keep_point();
        let Tokenizer {
            input,
            cw,
            checked,
            done,
            state,
            return_state,
            options,
            direct,
            lazy,
            keep: kept,
            mut last_start_tag,
            floor,
            token_start,
            last_end,
            text,
            text_span,
            tag,
            attr,
            attr_duplicate,
            attr_index,
            comment,
            doctype,
            pi,
            limit,
            temp,
            charref_start,
            charref_code,
            queue,
            ready_tag,
            names,
            foreign,
            diagnostics,
        } = self;
        Tokenizer {
            input: input.into_owned(keep, &mut [&mut last_start_tag]),
            cw,
            checked,
            done,
            state,
            return_state,
            options,
            direct,
            lazy,
            keep: kept,
            last_start_tag,
            floor,
            token_start,
            last_end,
            text,
            text_span,
            tag,
            attr,
            attr_duplicate,
            attr_index,
            comment,
            doctype,
            pi,
            limit,
            temp,
            charref_start,
            charref_code,
            queue,
            ready_tag,
            names,
            foreign,
            diagnostics,
        }
    }

    /// Hands the input cursor to `write` after compacting it, as [`feed`](Self::feed) does: the
    /// bytes front end decodes straight into the buffer.
    pub(crate) fn feed_with<R>(&mut self, write: impl FnOnce(&mut Cursor<'a>) -> R) -> R {
        if !self.input.is_finished() {
            self.compact();
        }
        write(&mut self.input)
    }

    /// The buffered input between absolute offsets `from` and `to` (what a feed just appended).
    pub(crate) fn buffered_slice(&self, from: usize, to: usize) -> &str {
        self.input.slice(from, to)
    }

    /// Marks the end of the input; the remaining tokens and the end-of-file token follow.
    pub fn finish(&mut self) {
        self.input.finish();
    }

    /// The next token, or `None` when more input is needed (or the end-of-file token has been
    /// returned).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.next_in(Own)
    }

    /// [`next_token`](Self::next_token), with the tokenizer's buffer beside the token: a
    /// caller that keeps its own record of the input (a rewriter writing most of it through
    /// unchanged) reads the text of any span from it instead of keeping a copy. The buffer
    /// holds the input from [`Cursor::base`] on: at least the token's own source and, with
    /// [`retain_from`](Self::retain_from), everything from the caller's floor on.
    ///
    /// ```
    /// use thicket_html::{Token, Tokenizer};
    /// let mut t = Tokenizer::new();
    /// t.feed("<p class=x>hi");
    /// t.finish();
    /// let (token, input) = t.next_token_with_input().unwrap();
    /// let Token::StartTag(tag) = token else { panic!() };
    /// assert_eq!(input.slice(tag.span.start, tag.span.end), "<p class=x>");
    /// ```
    pub fn next_token_with_input(&mut self) -> Option<(Token<'_>, &Cursor<'_>)> {
        self.next_in(OwnWithInput)
    }

    /// The tokenizer's buffer: the input from [`Cursor::base`] on (what it has not consumed,
    /// the source of the token it is building, and what [`retain_from`](Self::retain_from)
    /// keeps), at absolute offsets.
    ///
    /// ```
    /// let mut t = thicket_html::Tokenizer::new();
    /// t.feed("<b>x");
    /// assert_eq!(t.input().slice(0, 3), "<b>");
    /// ```
    pub fn input(&self) -> &Cursor<'a> {
        &self.input
    }

    /// Keeps the input from absolute offset `floor` on in the buffer (compaction drops only
    /// what is before both the floor and what the tokenizer itself still needs), until a later
    /// call moves the floor; `None` (the default) lets compaction drop all the tokenizer no
    /// longer needs. A caller reading spans back from [`input`](Self::input) after their
    /// tokens were handed out (output not yet written, a capture) raises the floor as it lets
    /// go of them, so the buffer stays bounded.
    ///
    /// ```
    /// let mut t = thicket_html::Tokenizer::new();
    /// t.retain_from(Some(0));
    /// t.feed(&"<p>x</p>".repeat(2000));
    /// while t.next_token().is_some() {}
    /// t.feed("<b>");
    /// assert_eq!(t.input().base(), 0); // kept from the floor
    /// t.retain_from(None);
    /// t.feed("<i>");
    /// assert!(t.input().base() > 0);
    /// ```
    pub fn retain_from(&mut self, floor: Option<usize>) {
        self.floor = floor.unwrap_or(usize::MAX);
    }

    /// [`next_token`](Self::next_token) for a tokenizer fed the whole of `whole` at once: the
    /// strings borrow from `whole` (the same text as the tokenizer's buffer). Not inlined into
    /// callers, as [`next_token`](Self::next_token) is not: the state machine is compiled once,
    /// here, the same way for both.
    pub(crate) fn next_token_in<'w>(&mut self, whole: &'w str) -> Option<Token<'w>> {
        self.next_in(Whole(whole))
    }

    /// The next token, its strings borrowed through what `from` makes of the input (the
    /// buffer itself, or the whole input it is a copy of), with the buffer when `from` asks
    /// for it.
    #[inline(always)]
    fn next_in<'s, 'o, X: Source<'s, 'o>>(&'s mut self, from: X) -> Option<X::Out> {
        if let Some(span) = self.ready_tag.take() {
            self.last_end = span.end;
            let token = hand_out::take_tag(&mut self.tag, span, from.make(&self.input));
            return Some(X::out(token, &self.input));
        }
        if self.queue.is_empty() {
            // Between tokens nothing is pending (text is flushed before `run` returns), so in the
            // data state the direct path may look at the input first.
            debug_assert!(self.text_span.is_none());
            let found = match self.direct {
                _ if self.state != State::Data => None,
                Direct::Off => None,
                Direct::Full => Some(self.fast_data()),
                Direct::Lazy => Some(self.lazy_data()),
            };
            if let Some(found) = found {
                match found {
                    fast::Fast::No => {}
                    fast::Fast::Tag(span) => {
                        self.last_end = span.end;
                        let token = hand_out::take_tag(&mut self.tag, span, from.make(&self.input));
                        return Some(X::out(token, &self.input));
                    }
                    fast::Fast::RawTextThenTag(s, e, span) => {
                        self.ready_tag = Some(span);
                        self.last_end = e;
                        let text = from.make(&self.input).range(s, e);
                        let span = Span::new(s, e);
                        return Some(X::out(Token::Text { text, span }, &self.input));
                    }
                    fast::Fast::SkippedTextThenTag(s, e, span) => {
                        self.ready_tag = Some(span);
                        self.last_end = e;
                        let text = Cow::Borrowed("");
                        let span = Span::new(s, e);
                        return Some(X::out(Token::Text { text, span }, &self.input));
                    }
                    fast::Fast::TextThenTag(span) => {
                        self.ready_tag = Some(span);
                        let (s, e) = self.text_span.take().unwrap_or((span.start, span.start));
                        self.last_end = e;
                        let text = from.make(&self.input).acc(self.text.take());
                        let span = Span::new(s, e);
                        return Some(X::out(Token::Text { text, span }, &self.input));
                    }
                }
            }
            self.run();
        }
        let p = self.queue.pop_front()?;
        let token = hand_out::hand_out(
            p,
            hand_out::Builders {
                tag: &mut self.tag,
                comment: &mut self.comment,
                pi: &mut self.pi,
                doctype: &mut self.doctype,
                keep: self.keep,
            },
            from.make(&self.input),
        );
        Some(X::out(token, &self.input))
    }

    /// Switches the state between tokens (a tree builder after `<title>`, `<script>`...).
    pub fn set_state(&mut self, state: State) {
        self.state = state;
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Sets the "last start tag" used by the appropriate-end-tag check.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag.clear();
        if let Some(n) = name {
            self.last_start_tag.push_str(n, &self.input);
        }
    }

    /// Says whether `<![CDATA[` opens a CDATA section: true when the adjusted current node is not
    /// in the HTML namespace.
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.options.cdata_allowed = allowed;
    }

    /// For a lazy tokenizer ([`Options::lazy`]): whether text content is built, from the next
    /// token handed out on ([`Lazy::text`] is the value it starts with). A caller whose text
    /// handlers can fire only in some places (inside some elements) turns it on and off between
    /// tokens, and pays for building text only there. No effect on a full tokenizer, which
    /// always builds text. The tokens do not depend on it except in what was not asked for
    /// (docs/html.md, "Lazy tokenizing").
    pub fn set_lazy_text(&mut self, build: bool) {
        if self.lazy.is_some() {
            self.keep.text = build;
        }
    }

    /// Turns the direct paths on or off (on by default). They take plain text, references,
    /// tags and comments whole and give exactly the tokens and diagnostics of the states; off,
    /// every construct goes through the states, which is slower. For differential tests of the
    /// two (docs/html.md, "The direct paths").
    pub fn set_direct_paths(&mut self, on: bool) {
        self.direct = match (on && !self.done, &self.lazy) {
            (false, _) => Direct::Off,
            (true, None) => Direct::Full,
            (true, Some(_)) => Direct::Lazy,
        };
    }

    /// Bytes of input the tokenizer holds: what it has not consumed yet and the source of the
    /// token it is building. The consumed prefix is let go at the next [`feed`](Self::feed) once
    /// it is large; text is returned in pieces as it becomes certain, so a text run is never
    /// held whole (docs/html.md, "What is held in memory").
    pub fn buffered(&self) -> usize {
        self.input.buffered()
    }

    /// The parse errors so far (not yet taken), in source order: by the start of their spans,
    /// errors at the same place in the order the standard reports them. With
    /// `Limits::max_diagnostics`, only the first that many are kept.
    pub fn diagnostics(&self) -> &[Diagnostic<ErrorCode>] {
        self.diagnostics.as_slice()
    }

    /// Takes the parse errors so far. Taking does not make room under `Limits::max_diagnostics`.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic<ErrorCode>> {
        self.diagnostics.take()
    }

    /// How many diagnostics were counted but not kept, past `Limits::max_diagnostics`.
    pub fn omitted_diagnostics(&self) -> usize {
        self.diagnostics.omitted()
    }

    /// How many times a limit of [`Options::limits`](crate::Options) cut the input so far
    /// (`attribute-limit`, `name-length-limit`, `value-length-limit`, `token-length-limit`),
    /// counted whether or not `max_diagnostics` kept the diagnostics; with
    /// [`last_limit_reached`](Self::last_limit_reached), how a caller that keeps no
    /// diagnostics learns that a token was cut (the rewriter reports it, so that a selector
    /// never misses an attribute silently).
    ///
    /// ```
    /// use thicket_html::{Options, Tokenizer};
    /// use thicket_input::Limits;
    /// let limits = Limits::none().with_max_attributes(1).with_max_diagnostics(0);
    /// let mut t = Tokenizer::with_options(Options { limits, ..Options::default() });
    /// t.feed("<a x=1 y=2>");
    /// t.finish();
    /// while t.next_token().is_some() {}
    /// assert_eq!(t.limits_reached(), 1);
    /// assert_eq!(t.last_limit_reached().unwrap().code.as_str(), "attribute-limit");
    /// assert!(t.diagnostics().is_empty());
    /// ```
    pub fn limits_reached(&self) -> usize {
        self.limit.reached.count()
    }

    /// The diagnostic of the last limit reached (see [`limits_reached`](Self::limits_reached)).
    pub fn last_limit_reached(&self) -> Option<Diagnostic<ErrorCode>> {
        self.limit.reached.last()
    }

    /// The diagnostics of the limits reached since the last call, in the order they were
    /// reached (at most [`thicket_input::LIMIT_LOG`] are kept between calls; the count is
    /// [`limits_reached`](Self::limits_reached)). A caller that keeps no diagnostics takes
    /// them after each token to learn which tokens were cut, wherever the tokenizer had read
    /// to.
    pub fn take_limits_reached(&mut self) -> Vec<Diagnostic<ErrorCode>> {
        self.limit.reached.take()
    }

    /// Lets the cursor drop the consumed prefix of its buffer (it does when that is large), so
    /// that memory stays proportional to the unconsumed input and the current token. Within a
    /// token that a limit cut, the token's own consumed input goes too (see `limits.rs`). The
    /// last start tag's name is copied out when it is in the part dropped.
    fn compact(&mut self) {
        let keep = self.keep_point();
        self.input.compact(keep, &mut [&mut self.last_start_tag]);
    }

    /// Where the input must be kept from: the first queued token, else what the token being
    /// built needs (its long strings copied out), and the caller's floor.
    fn keep_point(&mut self) -> usize {
        let keep = match self.queue.front() {
            Some(p) => p.span().start,
            None => self.compact_point(),
        };
        keep.min(self.floor)
    }

    fn run(&mut self) {
        while self.queue.is_empty() && !self.done {
            if self.step().is_err() {
                self.flush_text();
                return;
            }
        }
    }

    fn step(&mut self) -> Step {
        match self.state {
            State::Data => self.data_state(),
            State::Rcdata => self.rcdata_state(),
            State::Rawtext => self.rawtext_state(),
            State::ScriptData => self.script_data_state(),
            State::Plaintext => self.plaintext_state(),
            State::TagOpen => self.tag_open_state(),
            State::EndTagOpen => self.end_tag_open_state(),
            State::TagName => self.tag_name_state(),
            State::RcdataLessThanSign => self.rcdata_less_than_sign_state(),
            State::RcdataEndTagOpen => self.rcdata_end_tag_open_state(),
            State::RcdataEndTagName => self.rcdata_end_tag_name_state(),
            State::RawtextLessThanSign => self.rawtext_less_than_sign_state(),
            State::RawtextEndTagOpen => self.rawtext_end_tag_open_state(),
            State::RawtextEndTagName => self.rawtext_end_tag_name_state(),
            State::ScriptDataLessThanSign => self.script_data_less_than_sign_state(),
            State::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(),
            State::ScriptDataEndTagName => self.script_data_end_tag_name_state(),
            State::ScriptDataEscapeStart => self.script_data_escape_start_state(),
            State::ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
            State::ScriptDataEscaped => self.script_data_escaped_state(),
            State::ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
            State::ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
            State::ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(),
            State::ScriptDataEscapedEndTagOpen => self.script_data_escaped_end_tag_open_state(),
            State::ScriptDataEscapedEndTagName => self.script_data_escaped_end_tag_name_state(),
            State::ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(),
            State::ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
            State::ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(),
            State::ScriptDataDoubleEscapedDashDash => {
                self.script_data_double_escaped_dash_dash_state()
            }
            State::ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state()
            }
            State::ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
            State::BeforeAttributeName => self.before_attribute_name_state(),
            State::AttributeName => self.attribute_name_state(),
            State::AfterAttributeName => self.after_attribute_name_state(),
            State::BeforeAttributeValue => self.before_attribute_value_state(),
            State::AttributeValueDoubleQuoted => self.attribute_value_double_quoted_state(),
            State::AttributeValueSingleQuoted => self.attribute_value_single_quoted_state(),
            State::AttributeValueUnquoted => self.attribute_value_unquoted_state(),
            State::AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(),
            State::SelfClosingStartTag => self.self_closing_start_tag_state(),
            State::BogusComment => self.bogus_comment_state(),
            State::MarkupDeclarationOpen => self.markup_declaration_open_state(),
            State::CommentStart => self.comment_start_state(),
            State::CommentStartDash => self.comment_start_dash_state(),
            State::Comment => self.comment_state(),
            State::CommentLessThanSign => self.comment_less_than_sign_state(),
            State::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            State::CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
            State::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state()
            }
            State::CommentEndDash => self.comment_end_dash_state(),
            State::CommentEnd => self.comment_end_state(),
            State::CommentEndBang => self.comment_end_bang_state(),
            State::Doctype => self.doctype_state(),
            State::BeforeDoctypeName => self.before_doctype_name_state(),
            State::DoctypeName => self.doctype_name_state(),
            State::AfterDoctypeName => self.after_doctype_name_state(),
            State::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(),
            State::BeforeDoctypePublicIdentifier => self.before_doctype_public_identifier_state(),
            State::DoctypePublicIdentifierDoubleQuoted => {
                self.doctype_public_identifier_double_quoted_state()
            }
            State::DoctypePublicIdentifierSingleQuoted => {
                self.doctype_public_identifier_single_quoted_state()
            }
            State::AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(),
            State::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
            State::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(),
            State::BeforeDoctypeSystemIdentifier => self.before_doctype_system_identifier_state(),
            State::DoctypeSystemIdentifierDoubleQuoted => {
                self.doctype_system_identifier_double_quoted_state()
            }
            State::DoctypeSystemIdentifierSingleQuoted => {
                self.doctype_system_identifier_single_quoted_state()
            }
            State::AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(),
            State::BogusDoctype => self.bogus_doctype_state(),
            State::CdataSection => self.cdata_section_state(),
            State::CdataSectionBracket => self.cdata_section_bracket_state(),
            State::CdataSectionEnd => self.cdata_section_end_state(),
            State::ProcessingInstructionOpen => self.processing_instruction_open_state(),
            State::ProcessingInstructionTarget => self.processing_instruction_target_state(),
            State::AfterProcessingInstructionTarget => {
                self.after_processing_instruction_target_state()
            }
            State::ProcessingInstructionData => self.processing_instruction_data_state(),
            State::ProcessingInstructionQuestionable => {
                self.processing_instruction_questionable_state()
            }
            State::CharacterReference => self.character_reference_state(),
            State::NamedCharacterReference => self.named_character_reference_state(),
            State::AmbiguousAmpersand => self.ambiguous_ampersand_state(),
            State::NumericCharacterReference => self.numeric_character_reference_state(),
            State::HexadecimalCharacterReferenceStart => {
                self.hexadecimal_character_reference_start_state()
            }
            State::DecimalCharacterReferenceStart => self.decimal_character_reference_start_state(),
            State::HexadecimalCharacterReference => self.hexadecimal_character_reference_state(),
            State::DecimalCharacterReference => self.decimal_character_reference_state(),
            State::NumericCharacterReferenceEnd => self.numeric_character_reference_end_state(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Input: preprocessing and the input-stream errors.

    /// The next input character (CR LF and CR read as LF, by the cursor) without consuming it:
    /// `Ok(None)` at the end of the input, [`NeedMore`] at the end of a buffer that more may
    /// follow. Reports the input-stream errors of a character the first time it is read.
    #[inline(always)]
    fn cur(&mut self) -> Result<Option<char>, NeedMore> {
        let p = match self.input.peek() {
            Ok(Some(p)) => p,
            other => {
                self.cw = 0;
                return other.map(|_| None);
            }
        };
        self.cw = p.len;
        let at = self.input.offset();
        if at >= self.checked {
            self.checked = at + p.len;
            if self
                .input
                .peek_byte()
                .is_some_and(names::may_start_input_stream_error)
            {
                check_input_char(&mut self.diagnostics, p.ch, at, p.len);
            }
        }
        Ok(Some(p.ch))
    }

    /// Consumes the character last read by [`Tokenizer::cur`].
    #[inline]
    fn consume(&mut self) {
        self.input.advance(self.cw);
    }

    /// The absolute offset of the current input character.
    #[inline(always)]
    fn pos(&self) -> usize {
        self.input.offset()
    }

    /// Whether the current input character is a CR (read as LF): what is appended for it is
    /// then `\n`, not the input.
    #[inline]
    fn at_cr(&self) -> bool {
        self.input.peek_byte() == Some(b'\r')
    }

    /// Runs from the position over bytes that are not in `set`, reporting the input-stream
    /// errors of its check bytes, and returns the absolute offset where the run ends (the
    /// position is not moved).
    #[inline(always)]
    fn scan(&mut self, set: &StopSet) -> usize {
        self.scan_run::<false>(set)
    }

    /// [`Tokenizer::scan`] with the engine of `set` inlined ([`StopSet::run_inline`]), for the
    /// direct paths' text runs: there `set` is a known `static`, so its word test runs as
    /// straight-line code and a run that ends within it makes no call.
    #[inline(always)]
    fn scan_inline(&mut self, set: &StopSet) -> usize {
        self.scan_run::<true>(set)
    }

    #[inline(always)]
    fn scan_run<const INLINE: bool>(&mut self, set: &StopSet) -> usize {
        let base = self.input.base();
        let checked = self.checked;
        let text = self.input.text();
        let diagnostics = &mut self.diagnostics;
        let check = |i: usize| {
            let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
            let w = c.len_utf8();
            let code = c as u32;
            if base + i >= checked && (numeric::is_control(code) || numeric::is_noncharacter(code))
            {
                check_input_char(diagnostics, c, base + i, w);
            }
            Some(i + w)
        };
        let end = base
            + if INLINE {
                set.run_inline(text.as_bytes(), self.input.index(), check)
            } else {
                set.run(text.as_bytes(), self.input.index(), check)
            };
        if end > self.checked {
            self.checked = end;
        }
        end
    }

    // ---------------------------------------------------------------------------------------
    // Output: errors, text, tokens.

    /// Reports `code` at the current input character (an empty span at the end of the input or
    /// where no character was read).
    #[cold]
    fn error(&mut self, code: ErrorCode) {
        let span = Span::new(self.pos(), self.pos() + self.cw);
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    #[cold]
    fn error_at(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    /// Emits the input `start..end` unchanged as character tokens.
    #[inline]
    fn emit_raw(&mut self, start: usize, end: usize) {
        self.text_join(start);
        self.text.push_range(start, end, &self.input);
        self.text_extend(start, end);
    }

    /// Emits `s`, which replaces the input `start..end`, as character tokens.
    fn emit_str(&mut self, s: &str, start: usize, end: usize) {
        self.text_join(start);
        self.text.push_str(s, &self.input);
        self.text_extend(start, end);
    }

    /// Emits the current input character and consumes it.
    #[inline]
    fn emit_current(&mut self) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        if self.at_cr() {
            self.emit_str("\n", start, end);
        } else {
            self.emit_raw(start, end);
        }
        self.consume();
    }

    /// Emits U+FFFD for the current input character (a NULL) and consumes it.
    fn emit_replacement(&mut self) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        self.emit_str("\u{FFFD}", start, end);
        self.consume();
    }

    /// Starts a new text token if the pending one does not end at `start`.
    #[inline]
    fn text_join(&mut self, start: usize) {
        if let Some((_, e)) = self.text_span
            && e != start
        {
            self.flush_text();
        }
    }

    /// Extends the pending text's span to cover `start..end`.
    #[inline]
    fn text_extend(&mut self, start: usize, end: usize) {
        self.text_span = Some((self.text_span.map_or(start, |(s, _)| s), end));
    }

    /// Queues the pending text, if any.
    #[inline]
    fn flush_text(&mut self) {
        if let Some((s, e)) = self.text_span.take() {
            let text = self.text.take();
            let span = Span::new(s, e);
            let p = if text.is_empty() {
                Pending::Discarded(span)
            } else {
                Pending::Text(text, span)
            };
            self.last_end = e;
            self.queue.push_back(p);
        }
    }

    /// Queues a token (after the pending text).
    #[inline]
    fn push_token(&mut self, p: Pending) {
        self.limit.detach = false;
        self.flush_text();
        self.last_end = p.span().end;
        self.queue.push_back(p);
    }

    fn emit_eof(&mut self) -> Step {
        self.push_token(Pending::Eof(Span::empty(self.pos())));
        self.done = true;
        self.direct = Direct::Off;
        Ok(())
    }
}
