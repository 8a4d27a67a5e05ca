//! Diagnostics as a person reads them: `file:line:col: code: message`, then the source line with
//! a caret under the span (drawn by annotate-snippets).

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use thicket_input::Span;

use crate::window::{Window, floor_char_boundary};

/// A diagnostic from any dialect, with what is needed to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// The stable kebab-case code.
    pub code: &'static str,
    /// The one-line message of the code.
    pub message: &'static str,
    /// Byte offsets into the decoded text.
    pub span: Span,
    /// Line and column when the dialect computed them itself (LeafXML counts NEL and LS too).
    pub line_col: Option<(usize, usize)>,
    /// Extra words after the message (LeafXML's offending code point).
    pub note: Option<String>,
}

impl Diag {
    /// A diagnostic from a dialect's `thicket_input::Diagnostic`.
    pub fn from_diagnostic<C: thicket_input::ErrorCode>(d: &thicket_input::Diagnostic<C>) -> Diag {
        Diag {
            code: d.code.as_str(),
            message: d.code.message(),
            span: d.span,
            line_col: None,
            note: None,
        }
    }

    /// The line and column, from the dialect or from the window (`None` once the window has
    /// moved past the span in a streamed input).
    pub fn locate(&self, window: &mut Window<'_>) -> Option<(usize, usize)> {
        self.line_col.or_else(|| window.line_col(self.span.start))
    }

    /// `code: message` (with the note).
    pub fn headline(&self) -> String {
        match &self.note {
            Some(note) => format!("{}: {} {note}", self.code, self.message),
            None => format!("{}: {}", self.code, self.message),
        }
    }
}

/// How many characters of a long line are shown on each side of the span.
const CONTEXT_CHARS: usize = 60;

/// Writes `diag` for the file `name`: the location line, then the snippet when the window still
/// holds the source line.
pub fn write_diag(
    out: &mut dyn Write,
    name: &str,
    window: &mut Window<'_>,
    diag: &Diag,
    styled: bool,
) -> io::Result<()> {
    let location = match diag.locate(window) {
        Some((line, col)) => format!("{name}:{line}:{col}"),
        None => format!("{name}:byte {}", diag.span.start),
    };
    writeln!(out, "{location}: {}", diag.headline())?;
    if let Some(snippet) = snippet(window, diag, styled) {
        out.write_all(snippet.as_bytes())?;
    }
    Ok(())
}

/// Writes the line that ends the diagnostics of a file when `omitted` of them were not shown
/// (past `--max-diagnostics`).
pub fn write_omitted(out: &mut dyn Write, name: &str, omitted: usize) -> io::Result<()> {
    if omitted > 0 {
        let what = if omitted == 1 {
            "diagnostic"
        } else {
            "diagnostics"
        };
        writeln!(
            out,
            "{name}: {omitted} more {what} (not shown: --max-diagnostics sets how many are)"
        )?;
    }
    Ok(())
}

fn snippet(window: &Window<'_>, diag: &Diag, styled: bool) -> Option<String> {
    let line = window.line(diag.span.start)?;
    let number = diag.line_col.map_or(line.number, |(l, _)| l);
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
        let diag = Diag {
            code: "eof-in-tag",
            message: "end of input inside a tag",
            span,
            line_col: None,
            note: None,
        };
        let mut out = Vec::new();
        write_diag(&mut out, "a.html", &mut w, &diag, false).unwrap();
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

    /// Showing a diagnostic at every byte of a 1 MB line: the positions are found counting each
    /// byte once, and every snippet is cut to a short window around its span.
    #[test]
    fn many_diagnostics_on_one_long_line_cost_linear_work() {
        let text = "<".repeat(1 << 20);
        let mut w = Window::whole(&text);
        let mut out = Vec::new();
        for start in (0..text.len()).step_by(97) {
            let diag = Diag {
                code: "x",
                message: "m",
                span: Span::new(start, start + 1),
                line_col: None,
                note: None,
            };
            out.clear();
            write_diag(&mut out, "f", &mut w, &diag, false).unwrap();
            assert!(out.len() < 600, "{}", out.len());
            let head = format!("f:1:{}: ", start + 1);
            assert!(out.starts_with(head.as_bytes()));
        }
        assert!(w.scanned_bytes() <= text.len() as u64);
    }
}
