//! A streaming validity check: the tokens and every diagnostic of [`crate::Parser`], in the same
//! order, without building the tree.

use crate::error::Diagnostic;
use crate::lexer::Lexer;
use crate::options::Options;
use crate::order;
use crate::token::Token;
use crate::tree::TreeBuilder;

/// Tokenizer and tree-building checks without the tree: `feed` chunks, pull tokens with
/// [`Checker::next_token`] (each is also checked), take diagnostics as they are released with
/// [`Checker::take_diagnostics`], [`Checker::finish`], pull the rest.
///
/// The diagnostics, concatenated, are exactly those of [`crate::parse_with`] and
/// [`crate::Parser`] with the same options, in the same order, however the input is split.
/// Memory is the tokenizer's look-ahead plus, per open element, its name and 56 bytes (and the
/// current start-tag's attribute names), so with `Limits::max_depth` and
/// `Limits::max_name_len` a check of any document runs in bounded memory, look-ahead aside (a
/// comment, PI or tag is held until it ends). Text is handed out in pieces as it is read, so
/// the length of a text node does not count; the tokenizer's diagnostics that start after an
/// unfinished top-level text run wait for the run's `text-outside-root` (source order); with
/// `Limits::max_diagnostics` only as many wait as the cap can still keep (the rest are
/// counted), so a run where every character is an error costs no memory per error.
#[derive(Debug)]
pub struct Checker {
    lexer: Lexer<'static>,
    builder: TreeBuilder<'static>,
    len: usize,
    /// Tokenizer diagnostics released by the tokenizer and held back: a top-level text run the
    /// tree builder has not reported yet starts before them.
    held: Vec<Diagnostic>,
    /// How many more diagnostics may be kept.
    room: usize,
    omitted: usize,
    finished: bool,
    ended: bool,
}

impl Default for Checker {
    fn default() -> Self {
        Checker::new(Options::default())
    }
}

impl Checker {
    /// A checker with `options` (every limit of `options.limits` applies).
    pub fn new(options: Options) -> Checker {
        Checker {
            lexer: Lexer::lossless(options),
            builder: TreeBuilder::without_tree(&options),
            len: 0,
            held: Vec::new(),
            room: options.limits.max_diagnostics.unwrap_or(usize::MAX),
            omitted: 0,
            finished: false,
            ended: false,
        }
    }

    /// Appends a chunk of input.
    pub fn feed(&mut self, chunk: &str) {
        self.len += chunk.len();
        self.lexer.feed(chunk);
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.finished = true;
        self.lexer.finish();
    }

    /// The next token (its spans tile the input, as [`crate::Tokenizer`]'s do), checked; `None`
    /// when more input is needed (or, after [`Checker::finish`], at the end).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        match self.lexer.next_token() {
            Some(token) => {
                self.builder.push_ref(&token);
                Some(token)
            }
            None => None,
        }
    }

    /// Takes the diagnostics released so far, in source order: those before the first token
    /// not yet returned by [`Checker::next_token`]; after the end of the input and the last
    /// token, all of them.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.held.extend(self.lexer.take_released());
        if self.held.len() > self.room {
            // Held diagnostics are in source order and all come out before anything released
            // later: past what the cap can still keep, none of them can be kept.
            self.omitted += self.held.len() - self.room;
            self.held.truncate(self.room);
        }
        let mut at_end = Vec::new();
        if self.finished && !self.ended && self.lexer.is_done() && self.lexer.queue_is_empty() {
            self.ended = true;
            at_end = self.builder.end_diagnostics(self.len);
        }
        let builder = self.builder.take_diagnostics();
        // A top-level text run whose pieces are still coming is reported (at its start) when
        // it ends: what starts after it waits.
        let hold = self.builder.holding().unwrap_or(usize::MAX);
        let ready = self.held.partition_point(|d| d.span.start < hold);
        let tokenizer: Vec<Diagnostic> = self.held.drain(..ready).collect();
        let (merged, dropped) = order::merge(tokenizer, builder, at_end, Some(self.room));
        self.room -= merged.len();
        self.omitted += dropped;
        merged
    }

    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics`.
    pub fn omitted_diagnostics(&self) -> usize {
        self.omitted + self.lexer.omitted_diagnostics() + self.builder.omitted_diagnostics()
    }
}
