//! `thicket-compare --check-matches`: which elements thicket-rewrite's selectors match, against
//! lol_html's, on every HTML corpus file (issue 16). For each selector of [`SELECTORS`] (every
//! form both implement), the start-tag offsets of the matched elements are collected from
//! `thicket_rewrite::select` (read-only) and from a lol_html element handler
//! (`source_location`), both over the same UTF-8 text, and compared as sorted lists. Prints, per
//! selector, the matches compared and each difference with its context; exit status 0 (the
//! differences are findings, explained in docs/rewrite.md). thicket-rewrite runs with the
//! scripting flag off (its default) unless `--scripting` is given (lol_html's is always on).

use std::path::Path;

/// Selectors in the forms both rewriters implement (lol_html has no sibling combinators).
pub const SELECTORS: &[&str] = &[
    "*",
    "a",
    "a[href]",
    "a[href^=http]",
    "a[href$='.html']",
    "a[href*=\"/\"]",
    "div",
    "div > a",
    "div a",
    "ul li",
    "li > a",
    "p",
    "span",
    "td",
    "tr > td",
    "div div div",
    "img[alt]",
    "[class]",
    "[id]",
    "[class~=clearfix]",
    "[lang|=en]",
    "[type=text i]",
    "link[rel=stylesheet]",
    "meta",
    "script",
    "head > *",
    "body > div",
    "li:first-child",
    "li:nth-child(2n+1)",
    "td:nth-child(3)",
    "div:first-of-type",
    "p:nth-of-type(2)",
    "li:not(:first-child)",
    "div:not(.x) > span",
    "svg",
    "svg path",
    "noscript",
    "noscript img",
    "title",
    "h1, h2, h3",
];

/// Runs the comparison and exits.
pub fn run(corpus: &Path, scripting: bool) -> ! {
    let mut files: Vec<_> = match std::fs::read_dir(corpus.join("html")) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("compare --check-matches: {e}");
            std::process::exit(2);
        }
    };
    files.sort();
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let bytes = std::fs::read(p).unwrap_or_default();
            (name, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect();
    let (mut compared, mut differing) = (0usize, 0usize);
    for selector in SELECTORS {
        let (mut n, mut diff) = (0usize, 0usize);
        for (name, text) in &texts {
            let ours = thicket(text, selector, scripting);
            let theirs = lol(text, selector);
            n += ours.len().max(theirs.len());
            let only_ours: Vec<usize> = ours
                .iter()
                .filter(|o| theirs.binary_search(o).is_err())
                .copied()
                .collect();
            let only_theirs: Vec<usize> = theirs
                .iter()
                .filter(|o| ours.binary_search(o).is_err())
                .copied()
                .collect();
            if only_ours.is_empty() && only_theirs.is_empty() {
                continue;
            }
            diff += only_ours.len() + only_theirs.len();
            println!(
                "{selector:?} on {name}: {} only thicket, {} only lol_html",
                only_ours.len(),
                only_theirs.len()
            );
            for (who, list) in [("thicket", &only_ours), ("lol_html", &only_theirs)] {
                for &at in list.iter().take(3) {
                    let end = (at + 60).min(text.len());
                    let end = (end..=text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(text.len());
                    println!("  only {who} at {at}: {:?}", &text[at..end]);
                }
            }
        }
        println!("{selector:?}: {n} matches compared, {diff} differ");
        compared += n;
        differing += diff;
    }
    println!(
        "\n{compared} element matches compared over {} selectors and {} files (thicket-rewrite's \
         scripting flag {}); {differing} differ",
        SELECTORS.len(),
        texts.len(),
        if scripting { "on" } else { "off" }
    );
    std::process::exit(0);
}

/// thicket-rewrite's matches: start-tag offsets, sorted; read-only, with the scripting flag
/// `scripting` (lol_html's is always on).
fn thicket(text: &str, selector: &str, scripting: bool) -> Vec<usize> {
    use thicket_rewrite::{Dialect, Rewriter, Settings};
    let mut v = Vec::new();
    {
        let Ok(settings) = Settings::new()
            .scripting(scripting)
            .on_element(selector, |e| v.push(e.span().start))
        else {
            return v;
        };
        let mut rw = Rewriter::read_only(Dialect::Html, settings);
        if rw.feed_str(text).is_err() || rw.finish().is_err() {
            eprintln!("thicket-rewrite failed on {selector:?}");
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// lol_html's matches: start-tag offsets, sorted.
fn lol(text: &str, selector: &str) -> Vec<usize> {
    use lol_html::{HtmlRewriter, Settings, element};
    let mut v = Vec::new();
    {
        let mut rw = HtmlRewriter::new(
            Settings::new().append_element_content_handler(element!(selector, |e| {
                v.push(e.source_location().bytes().start);
                Ok(())
            })),
            |_: &[u8]| {},
        );
        if rw.write(text.as_bytes()).is_err() || rw.end().is_err() {
            eprintln!("lol_html failed on {selector:?}");
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}
