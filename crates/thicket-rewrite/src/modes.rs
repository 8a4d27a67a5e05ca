//! Settings beyond the handlers: the HTML scripting flag, HTML strict mode and the namespace
//! prefixes selectors may use (docs/rewrite.md).

use crate::namespaces::Namespaces;
use crate::rewriter::Settings;

/// What the rewriter does where its subset of HTML tree construction guesses (see
/// [`Settings::strict`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Strictness {
    /// Guess as documented, report nothing (the default).
    #[default]
    Guess,
    /// Guess, and report each ambiguity in `Rewriter::diagnostics()`.
    Report,
    /// Report the first ambiguity and stop: `feed` and `finish` return it as an error.
    Refuse,
}

/// The settings that are not handlers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Modes {
    /// HTML: `noscript` content is raw text (the scripting flag is enabled).
    pub(crate) scripting: bool,
    pub(crate) strictness: Strictness,
    /// The prefixes (and default namespace) later selectors are parsed with.
    pub(crate) namespaces: Namespaces,
    /// The encoding when the input says none (`Settings::default_encoding`; else UTF-8).
    pub(crate) encoding: Option<&'static encoding_rs::Encoding>,
    /// LeafXML's error output and held-output limit (`leafxml.rs`).
    #[cfg(feature = "leafxml")]
    pub(crate) leafxml: crate::leafxml::LeafSettings,
}

impl<'h> Settings<'h> {
    /// HTML's scripting flag. Enabled, `<noscript>` content is raw text, as in a browser that
    /// runs scripts (and in lol_html); disabled (the default), it is markup, as in a browser
    /// without scripts, so element handlers reach the links and images inside it. No effect on
    /// XML5.
    pub fn scripting(mut self, enabled: bool) -> Settings<'h> {
        self.handlers.modes.scripting = enabled;
        self
    }

    /// HTML strict mode: where full tree construction would restructure the document and the
    /// rewriter's subset of it would guess (implied end tags, implied elements, foster
    /// parenting, misnested formatting elements, `<template>`, content in `<select>`, ignored
    /// tags; the table is in docs/rewrite.md), the rewrite is refused: the ambiguity is
    /// reported in `Rewriter::diagnostics()` and `feed`/`finish` fail with it as an error
    /// (its code and the span of the token at fault). The output written is what was written
    /// for the input before that token; from the token on no handler runs and nothing is
    /// written. No effect on XML5, whose stack follows the XML5 tree builder exactly.
    ///
    /// ```
    /// # #[cfg(feature = "html")] {
    /// use thicket_rewrite::{Dialect, Rewriter, Settings};
    /// let mut out = Vec::new();
    /// let mut r = Rewriter::new(Dialect::Html, Settings::new().strict(true), |b: &[u8]| {
    ///     out.extend_from_slice(b)
    /// });
    /// r.feed_str("<ul><li>one</li></ul><p>two").unwrap();
    /// let e = r.feed_str("<div>three</div>").unwrap_err(); // `<div>` would end the open `p`
    /// assert_eq!((e.code.as_str(), e.span.start, e.span.end), ("implied-end-tag", 27, 32));
    /// assert_eq!(r.diagnostics().len(), 1);
    /// assert!(r.finish().is_err());
    /// assert_eq!(out, b"<ul><li>one</li></ul><p>two");
    /// # }
    /// ```
    pub fn strict(mut self, enabled: bool) -> Settings<'h> {
        self.handlers.modes.strictness = if enabled {
            Strictness::Refuse
        } else {
            Strictness::Guess
        };
        self
    }

    /// Like [`strict`](Self::strict), but the rewrite goes on with the documented guess: every
    /// ambiguity is reported in `Rewriter::diagnostics()` (up to `Limits::max_diagnostics`)
    /// and nothing fails.
    pub fn report_ambiguities(mut self, enabled: bool) -> Settings<'h> {
        self.handlers.modes.strictness = if enabled {
            Strictness::Report
        } else {
            Strictness::Guess
        };
        self
    }

    /// The namespace prefixes (and default namespace) the selectors of later
    /// [`on_element`](Self::on_element) calls are parsed with (see [`Namespaces`]).
    pub fn with_namespaces(mut self, namespaces: Namespaces) -> Settings<'h> {
        self.handlers.modes.namespaces = namespaces;
        self
    }
}
