//! `thicket-compare --check-rewrite`: thicket-rewrite's output against lol_html's, byte for
//! byte, on every HTML corpus file (issue 16): the `a[href]` `rel="nofollow"` output and the
//! `h1, h2, h3` text. Prints per file `identical` or the first difference with context.

use std::path::Path;

use crate::thicket::Input;
use crate::{others_rewrite, thicket};

/// Runs the check over `corpus/html` (against lol_html) and `corpus/xml` (the `[id]`
/// attribute, against the quick-xml loop), and exits (status 0: the check ran; differences are
/// findings, not failures).
pub fn run(corpus: &Path) -> ! {
    let mut files: Vec<_> = match std::fs::read_dir(corpus.join("html")) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("compare --check-rewrite: {e}");
            std::process::exit(2);
        }
    };
    files.sort();
    let (mut same, mut total) = (0, 0);
    for path in files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(&path).unwrap_or_default();
        // Fed bytes; where `feed` rejects the file (a non-UTF-8 `<meta charset>`), fed the
        // same bytes as text, which is what lol_html does told UTF-8.
        let text = String::from_utf8_lossy(&bytes);
        let input = if thicket::nofollow_output(Input::Bytes(&bytes)).is_some() {
            Input::Bytes(&bytes)
        } else {
            println!("{name}: thicket-rewrite `feed` rejects it; compared through `feed_str`");
            Input::Text(&text)
        };
        let pairs = [
            (
                "nofollow",
                thicket::nofollow_output(input),
                others_rewrite::lol_nofollow_output(&bytes),
            ),
            (
                "h1-h3 text",
                thicket::headings_text(input).map(String::into_bytes),
                others_rewrite::lol_headings_text(&bytes).map(String::into_bytes),
            ),
        ];
        for (what, ours, theirs) in pairs {
            total += 1;
            match (ours, theirs) {
                (Some(a), Some(b)) if a == b => {
                    same += 1;
                    println!("{name} {what}: identical ({} bytes)", a.len());
                }
                (Some(a), Some(b)) => {
                    let at = a.iter().zip(&b).position(|(x, y)| x != y);
                    let at = at.unwrap_or(a.len().min(b.len()));
                    let ctx = |v: &[u8]| {
                        let s = at.saturating_sub(80);
                        String::from_utf8_lossy(&v[s..(at + 120).min(v.len())]).into_owned()
                    };
                    let diffs = count_diff_lines(&a, &b);
                    println!(
                        "{name} {what}: DIFFERENT (thicket {} bytes, lol_html {} bytes, \
                         first at byte {at}, {diffs} differing lines)\n  thicket:  {:?}\n  lol_html: {:?}",
                        a.len(),
                        b.len(),
                        ctx(&a),
                        ctx(&b)
                    );
                    print_diff_lines(&a, &b);
                }
                (a, b) => println!(
                    "{name} {what}: thicket {}, lol_html {}",
                    if a.is_some() { "ok" } else { "FAILED" },
                    if b.is_some() { "ok" } else { "FAILED" }
                ),
            }
        }
    }
    println!("\n{same} of {total} outputs identical (HTML, against lol_html)");
    let (mut xsame, mut xtotal) = (0, 0);
    let mut xml: Vec<_> = std::fs::read_dir(corpus.join("xml"))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    xml.sort();
    for path in xml {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(&path).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let ours = thicket::xml_set_attribute_output(&bytes);
        let theirs = others_rewrite::quick_xml_set_attribute_output(&text);
        xtotal += 1;
        match (ours, theirs) {
            (Some(a), Some(b)) if a == b => {
                xsame += 1;
                println!("{name} [id] attr: identical ({} bytes)", a.len());
            }
            (Some(a), Some(b)) => {
                let added = |v: &[u8]| v.windows(10).filter(|w| w == b"data-seen=").count();
                println!(
                    "{name} [id] attr: DIFFERENT (thicket {} bytes, {} added; quick-xml {} bytes, {} added)",
                    a.len(),
                    added(&a),
                    b.len(),
                    added(&b)
                );
                print_diff_lines(&a, &b);
            }
            (a, b) => println!(
                "{name} [id] attr: thicket {}, quick-xml {}",
                if a.is_some() { "ok" } else { "FAILED" },
                if b.is_some() { "ok" } else { "FAILED" }
            ),
        }
    }
    println!("\n{xsame} of {xtotal} outputs identical (XML, against the quick-xml loop)");
    std::process::exit(0);
}

/// Prints the first ten pairs of differing lines (cut to 200 bytes).
fn print_diff_lines(a: &[u8], b: &[u8]) {
    let cut = |l: &[u8]| String::from_utf8_lossy(&l[..l.len().min(200)]).into_owned();
    let pairs = a.split(|&c| c == b'\n').zip(b.split(|&c| c == b'\n'));
    for (n, (x, y)) in pairs.enumerate().filter(|(_, (x, y))| x != y).take(10) {
        println!(
            "  line {}:\n    thicket:  {:?}\n    other:    {:?}",
            n + 1,
            cut(x),
            cut(y)
        );
    }
}

/// Lines (split at `\n`) that differ when the two outputs are compared line by line in order.
fn count_diff_lines(a: &[u8], b: &[u8]) -> usize {
    let la: Vec<&[u8]> = a.split(|&c| c == b'\n').collect();
    let lb: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
    let common = la.iter().zip(&lb).filter(|(x, y)| x != y).count();
    common + la.len().abs_diff(lb.len())
}
