//! Diagnostics as a person reads them: `name:line:col: code: message`, then the source line
//! with a caret under the span (drawn by annotate-snippets), as the `thicket` command prints them.
//!
//! ```
//! use thicket_input::{Diagnostic, ErrorCode, Span};
//! # #[derive(Clone, Copy, PartialEq, Eq, Debug)] struct Code;
//! # impl ErrorCode for Code {
//! #     fn as_str(self) -> &'static str { "eof-in-tag" }
//! #     fn message(self) -> &'static str { "end of input inside a tag" }
//! # }
//! let text = "<p>\n<a b";
//! let d = Diagnostic::new(Code, Span::empty(8));
//! assert_eq!(
//!     d.render(text, Some("page.html")),
//!     "page.html:2:5: eof-in-tag: end of input inside a tag\n  |\n2 | <a b\n  |     ^\n"
//! );
//! ```
//!
//! [`Diagnostic::render`] indexes the text for each call; for many diagnostics of one text use a
//! [`DiagnosticRenderer`], which locates them in time linear in the text and the diagnostics
//! together, in any order (in input order each byte is counted once), and a [`Window`] for
//! text that streams through in bounded memory.

mod window;

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::position::{Diagnostic, ErrorCode, LineCol, Span};

pub use window::{KEEP, Line, MARK, Window, floor_char_boundary};

/// A diagnostic from any dialect, with what is needed to show it: the code's strings, the span,
/// and optionally a position the dialect computed itself and a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The stable kebab-case code.
    pub code: &'static str,
    /// The one-line message of the code.
    pub message: &'static str,
    /// Byte offsets into the decoded text.
    pub span: Span,
    /// Line and column when the dialect computed them itself (LeafXML counts NEL and LS too).
    pub line_col: Option<LineCol>,
    /// Extra words after the message (LeafXML's offending code point).
    pub note: Option<String>,
}

impl Report {
    /// A report of a dialect's [`Diagnostic`].
    pub fn from_diagnostic<C: ErrorCode>(d: &Diagnostic<C>) -> Report {
        Report {
            code: d.code.as_str(),
            message: d.code.message(),
            span: d.span,
            line_col: None,
            note: None,
        }
    }

    /// The line and column, from the dialect or from the window (`None` once the window has
    /// moved past the span in a streamed input).
    pub fn locate(&self, window: &mut Window<'_>) -> Option<LineCol> {
        self.line_col.or_else(|| {
            let (line, column) = window.line_col(self.span.start)?;
            Some(LineCol { line, column })
        })
    }

    /// `code: message` (with the note).
    pub fn headline(&self) -> String {
        match &self.note {
            Some(note) => format!("{}: {} {note}", self.code, self.message),
            None => format!("{}: {}", self.code, self.message),
        }
    }
}

impl<C: ErrorCode> From<&Diagnostic<C>> for Report {
    fn from(d: &Diagnostic<C>) -> Report {
        Report::from_diagnostic(d)
    }
}

impl<C: ErrorCode> Diagnostic<C> {
    /// The diagnostic as the `thicket` command prints it: `name:line:col: code: message` (the
    /// name left out when `None`), then the source line of `source` (the text the spans point
    /// into) with a caret under the span, cut to a short window around it on long lines.
    ///
    /// Indexes `source` on every call: to render many diagnostics of one text, use a
    /// [`DiagnosticRenderer`].
    pub fn render(&self, source: &str, name: Option<&str>) -> String {
        let mut renderer = DiagnosticRenderer::new(source);
        if let Some(name) = name {
            renderer = renderer.with_name(name);
        }
        renderer.render(self)
    }
}

/// Renders the diagnostics of one text: see the [module docs](self).
///
/// ```
/// use thicket_input::{Diagnostic, DiagnosticRenderer, ErrorCode, Span};
/// # #[derive(Clone, Copy, PartialEq, Eq, Debug)] struct Code;
/// # impl ErrorCode for Code {
/// #     fn as_str(self) -> &'static str { "x" }
/// #     fn message(self) -> &'static str { "m" }
/// # }
/// let text = "<".repeat(1 << 16);
/// let mut renderer = DiagnosticRenderer::new(&text).with_name("f");
/// for start in (0..text.len()).step_by(1000) {
///     let shown = renderer.render(&Diagnostic::new(Code, Span::new(start, start + 1)));
///     assert!(shown.starts_with(&format!("f:1:{}: x: m\n", start + 1)));
/// }
/// ```
#[derive(Debug)]
pub struct DiagnosticRenderer<'t> {
    window: Window<'t>,
    name: Option<String>,
    styled: bool,
}

impl<'t> DiagnosticRenderer<'t> {
    /// A renderer for diagnostics of `source`, plain (no terminal colors) and with no file name.
    pub fn new(source: &'t str) -> DiagnosticRenderer<'t> {
        DiagnosticRenderer {
            window: Window::whole(source),
            name: None,
            styled: false,
        }
    }

    /// Names the source in each location (`name:line:col`).
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Draws with terminal colors (ANSI escapes) when `styled`.
    pub fn styled(mut self, styled: bool) -> Self {
        self.styled = styled;
        self
    }

    /// The diagnostic, rendered.
    pub fn render<C: ErrorCode>(&mut self, diagnostic: &Diagnostic<C>) -> String {
        let mut out = Vec::new();
        self.write(&mut out, &Report::from_diagnostic(diagnostic))
            .expect("writing to a Vec does not fail");
        String::from_utf8(out).expect("rendered text is UTF-8")
    }

    /// Writes `report` to `out`.
    pub fn write(&mut self, out: &mut dyn Write, report: &Report) -> io::Result<()> {
        write_located(
            out,
            self.name.as_deref(),
            &mut self.window,
            report,
            self.styled,
        )
    }
}

/// How many characters of a long line are shown on each side of the span.
const CONTEXT_CHARS: usize = 60;

/// Writes `report` for the file `name`: the location line, then the snippet when the window
/// still holds the source line.
pub fn write_report(
    out: &mut dyn Write,
    name: &str,
    window: &mut Window<'_>,
    report: &Report,
    styled: bool,
) -> io::Result<()> {
    write_located(out, Some(name), window, report, styled)
}

fn write_located(
    out: &mut dyn Write,
    name: Option<&str>,
    window: &mut Window<'_>,
    diag: &Report,
    styled: bool,
) -> io::Result<()> {
    let location = match (name, diag.locate(window)) {
        (Some(name), Some(lc)) => format!("{name}:{}:{}: ", lc.line, lc.column),
        (Some(name), None) => format!("{name}:byte {}: ", diag.span.start),
        (None, Some(lc)) => format!("{}:{}: ", lc.line, lc.column),
        (None, None) => format!("byte {}: ", diag.span.start),
    };
    writeln!(out, "{location}{}", diag.headline())?;
    if let Some(snippet) = snippet(window, diag, styled) {
        out.write_all(snippet.as_bytes())?;
    }
    Ok(())
}

fn snippet(window: &mut Window<'_>, diag: &Report, styled: bool) -> Option<String> {
    let line = window.line(diag.span.start)?;
    let number = diag.line_col.map_or(line.number, |lc| lc.line);
    let rel_start = floor_char_boundary(line.text, diag.span.start - line.start);
    let rel_end = floor_char_boundary(
        line.text,
        diag.span
            .end
            .saturating_sub(line.start)
            .max(rel_start)
            .min(line.text.len()),
    );
    // Cut long lines (minified documents) to a window around the span, and a long span (a
    // comment left open for megabytes) to its first characters.
    let rel_end = rel_end.min(forward_chars(line.text, rel_start, CONTEXT_CHARS));
    let from = back_chars(line.text, rel_start, CONTEXT_CHARS);
    let to = forward_chars(line.text, rel_end, CONTEXT_CHARS);
    let prefix = if from > 0 || line.hidden_columns > 0 {
        "…"
    } else {
        ""
    };
    let suffix = if to < line.text.len() { "…" } else { "" };
    let shown = format!("{prefix}{}{suffix}", &line.text[from..to]);
    let shift = prefix.len();
    let start = rel_start - from + shift;
    let end = rel_end - from + shift;
    let report = &[Group::with_level(Level::ERROR).element(
        Snippet::source(shown.as_str())
            .line_start(number)
            .annotation(AnnotationKind::Primary.span(start..end.max(start))),
    )];
    let renderer = if styled {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut text = renderer.render(report);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

/// The offset `n` characters before `i` in `s` (or 0).
fn back_chars(s: &str, i: usize, n: usize) -> usize {
    s[..i]
        .char_indices()
        .rev()
        .nth(n.saturating_sub(1))
        .map_or(0, |(j, _)| j)
}

/// The offset `n` characters after `i` in `s` (or the end).
fn forward_chars(s: &str, i: usize, n: usize) -> usize {
    s[i..].char_indices().nth(n).map_or(s.len(), |(j, _)| i + j)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, span: Span) -> String {
        let mut w = Window::unbounded();
        w.push(text);
        let diag = Report {
            code: "eof-in-tag",
            message: "end of input inside a tag",
            span,
            line_col: None,
            note: None,
        };
        let mut out = Vec::new();
        write_report(&mut out, "a.html", &mut w, &diag, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn shows_location_line_and_caret() {
        let out = render("<p>\n<a b", Span::empty(8));
        assert!(
            out.starts_with("a.html:2:5: eof-in-tag: end of input inside a tag\n"),
            "{out}"
        );
        assert!(out.contains("2 | <a b"), "{out}");
        assert!(out.contains('^'), "{out}");
    }

    #[test]
    fn cuts_a_long_span_to_its_start() {
        let text = format!("a<!--{}", "é".repeat(100_000));
        let out = render(&text, Span::new(1, text.len()));
        assert!(out.starts_with("a.html:1:2: "), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 140), "{out}");
        assert!(out.contains("a<!--ééé"), "{out}");
        assert!(out.contains(&"^".repeat(60)), "{out}");
        assert!(!out.contains(&"^".repeat(61)), "{out}");
    }

    #[test]
    fn cuts_long_lines_around_the_span() {
        let text = format!("{}<x{}", "a".repeat(5000), "b".repeat(5000));
        let out = render(&text, Span::new(5000, 5002));
        assert!(out.starts_with("a.html:1:5001: "), "{out}");
        assert!(out.len() < 600, "{out}");
        assert!(out.contains("…aaa"), "{out}");
    }

    #[test]
    fn renderers_and_windows_are_send() {
        fn send<T: Send>() {}
        send::<DiagnosticRenderer<'static>>();
        send::<Window<'static>>();
        send::<Report>();
    }

    #[test]
    fn renders_without_a_name_and_with_a_note() {
        let text = "<a>\n<b";
        let mut r = DiagnosticRenderer::new(text);
        let report = Report {
            note: Some("(U+0000)".into()),
            ..Report::from_diagnostic(&Diagnostic::new(Code, Span::empty(6)))
        };
        let mut out = Vec::new();
        r.write(&mut out, &report).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("2:3: x: m (U+0000)\n"), "{out}");
        assert!(out.contains("2 | <b"), "{out}");
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    struct Code;

    impl ErrorCode for Code {
        fn as_str(self) -> &'static str {
            "x"
        }
        fn message(self) -> &'static str {
            "m"
        }
    }

    /// Showing a diagnostic at every byte of a 1 MB line: the positions are found counting each
    /// byte once, and every snippet is cut to a short window around its span.
    #[test]
    fn many_diagnostics_on_one_long_line_cost_linear_work() {
        let text = "<".repeat(1 << 20);
        let mut w = Window::whole(&text);
        let mut out = Vec::new();
        for start in (0..text.len()).step_by(97) {
            let diag = Report {
                code: "x",
                message: "m",
                span: Span::new(start, start + 1),
                line_col: None,
                note: None,
            };
            out.clear();
            write_report(&mut out, "f", &mut w, &diag, false).unwrap();
            assert!(out.len() < 600, "{}", out.len());
            let head = format!("f:1:{}: ", start + 1);
            assert!(out.starts_with(head.as_bytes()));
        }
        assert!(w.scanned_bytes() <= text.len() as u64);
    }
}
