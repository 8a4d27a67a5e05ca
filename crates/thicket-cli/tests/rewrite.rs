//! `thicket rewrite`: the identity without operations on every corpus file (standard output and
//! in place, in every dialect the rewriter reads), each operation in each dialect, their order,
//! atomic in-place replacement (a failing rewrite or write leaves the original as it was and
//! no temporary file), and the exit statuses.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{data, output, run};
use thicket_cli::dialect::Dialect;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("rewrite")
        .join(name);
    if dir.exists() {
        make_writable(&dir);
        std::fs::remove_dir_all(&dir).expect("the old scratch directory is removed");
    }
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

fn make_writable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755));
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory is read")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `thicket rewrite args...` on `input` given as standard input (`-`); returns stdout as text.
fn rewrite(dialect: &str, args: &[&str], input: &str) -> (i32, String) {
    let mut all = vec!["rewrite", "--dialect", dialect];
    all.extend_from_slice(args);
    all.push("-");
    let out = output(&data(), &all, Some(input.as_bytes()));
    (
        code(&out),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for sub in ["html", "xml"] {
        let Ok(dir) = std::fs::read_dir(root.join(sub)) else {
            continue;
        };
        files.extend(dir.map(|e| e.expect("an entry").path()));
    }
    files.sort();
    files
}

/// The dialects `thicket rewrite` reads: every one.
fn rewritable() -> Vec<&'static str> {
    Dialect::ALL.iter().map(|d| d.name()).collect()
}

#[test]
fn no_operation_is_the_identity_on_the_corpus() {
    let files = corpus();
    if files.is_empty() {
        return; // The corpus is not checked out.
    }
    let dialects = rewritable();
    assert_eq!(dialects.len(), 4);
    let work = scratch("identity");
    for path in &files {
        let name = path.file_name().expect("a name").to_string_lossy();
        let original = std::fs::read(path).expect("the corpus file is read");
        let file = path.to_str().expect("a UTF-8 path");
        for &dialect in &dialects {
            let out = output(&work, &["rewrite", "-d", dialect, file], None);
            if dialect == "leafxml" && code(&out) == 2 {
                // LeafXML stops at a document's first error (docs/rewrite.md): refused.
                assert!(
                    stderr(&out).contains("cannot rewrite"),
                    "{name}: {}",
                    stderr(&out)
                );
                continue;
            }
            // XML read as HTML nests past the default depth limit (`<node/>` does not close
            // an HTML element): reported, exit 1, and the output is still the whole input.
            // Any other diagnostic of a limit is held to the same rule.
            let limited = code(&out) == 1 && stderr(&out).contains("-limit: ");
            assert!(
                code(&out) == 0 || limited,
                "{name} ({dialect}): {}",
                stderr(&out)
            );
            assert!(
                out.stdout == original,
                "{name} ({dialect}): the output is not the input"
            );
        }
        // In place, in the file's own dialect (chosen by its name).
        let copy = work.join(&*name);
        std::fs::write(&copy, &original).expect("the copy is written");
        let out = output(&work, &["rewrite", "--in-place", &name], None);
        assert_eq!(code(&out), 0, "{name} in place: {}", stderr(&out));
        assert!(
            std::fs::read(&copy).expect("read back") == original,
            "{name} in place"
        );
        std::fs::remove_file(&copy).expect("the copy is removed");
    }
    assert!(
        listing(&work).is_empty(),
        "left behind: {:?}",
        listing(&work)
    );
    // Standard input.
    let page = std::fs::read(data().join("page.html")).expect("read");
    let out = output(&work, &["rewrite", "-d", "html", "-"], Some(&page));
    assert_eq!((code(&out), out.stdout), (0, page));
}

// The rewriter's element stack does not model HTML's implied end tags (docs/rewrite.md): a
// `<li>` after an open `li` is its child. The documents close their elements.
const HTML: &str = "<ul class=menu><li id=a class=x>one</li><li class='x y'>two</li></ul>\
                    <p>keep <b>bold</b> <img src=i.png alt=pic></p>";
const XML: &str = "<doc><item id=\"a\" kind='x'>one<b>bold</b></item>\
                   <item kind=\"y\"/><note>n</note></doc>";

#[test]
fn set_attr() {
    assert_eq!(
        rewrite("html", &["--set-attr", "li", "class", "z&\"q\""], HTML),
        (
            0,
            "<ul class=menu><li id=a class=\"z&amp;&quot;q&quot;\">one</li>\
             <li class=\"z&amp;&quot;q&quot;\">two</li></ul>\
             <p>keep <b>bold</b> <img src=i.png alt=pic></p>"
                .to_owned()
        )
    );
    assert_eq!(
        rewrite("html", &["--set-attr", "img", "loading", "lazy"], HTML).1,
        HTML.replace("alt=pic>", "alt=pic loading=\"lazy\">")
    );
    assert_eq!(
        rewrite("xml5", &["--set-attr", "item", "seen", "-1"], XML),
        (
            0,
            "<doc><item id=\"a\" kind='x' seen=\"-1\">one<b>bold</b></item>\
             <item kind=\"y\" seen=\"-1\"/><note>n</note></doc>"
                .to_owned()
        )
    );
}

#[test]
fn remove_attr() {
    assert_eq!(
        rewrite("html", &["--remove-attr", ".x", "class"], HTML).1,
        "<ul class=menu><li id=a>one</li><li>two</li></ul><p>keep <b>bold</b> <img src=i.png alt=pic></p>"
    );
    assert_eq!(
        rewrite("xml5", &["--remove-attr", "item", "kind"], XML).1,
        "<doc><item id=\"a\">one<b>bold</b></item><item/><note>n</note></doc>"
    );
    // An attribute that is not there: nothing changes.
    assert_eq!(
        rewrite("xml5", &["--remove-attr", "item", "nope"], XML),
        (0, XML.to_owned())
    );
}

#[test]
fn remove() {
    assert_eq!(
        rewrite("html", &["--remove", "li#a"], HTML).1,
        "<ul class=menu><li class='x y'>two</li></ul><p>keep <b>bold</b> <img src=i.png alt=pic></p>"
    );
    assert_eq!(
        rewrite("xml5", &["--remove", "item"], XML).1,
        "<doc><note>n</note></doc>"
    );
}

#[test]
fn unwrap() {
    assert_eq!(
        rewrite("html", &["--unwrap", "ul, b"], HTML).1,
        "<li id=a class=x>one</li><li class='x y'>two</li><p>keep bold <img src=i.png alt=pic></p>"
    );
    assert_eq!(
        rewrite("xml5", &["--unwrap", "item"], XML).1,
        "<doc>one<b>bold</b><note>n</note></doc>"
    );
}

#[test]
fn operations_run_in_the_order_given() {
    // At one element, a later operation sees the earlier ones' edits.
    assert_eq!(
        rewrite(
            "xml5",
            &["--set-attr", "note", "x", "1", "--remove-attr", "note", "x"],
            XML
        )
        .1,
        XML
    );
    assert_eq!(
        rewrite(
            "xml5",
            &["--remove-attr", "note", "x", "--set-attr", "note", "x", "1"],
            XML
        )
        .1,
        XML.replace("<note>", "<note x=\"1\">")
    );
    assert_eq!(
        rewrite(
            "xml5",
            &["--set-attr", "*", "k", "1", "--set-attr", "b", "k", "2"],
            "<a><b/></a>"
        )
        .1,
        "<a k=\"1\"><b k=\"2\"/></a>"
    );
    assert_eq!(
        rewrite(
            "xml5",
            &["--set-attr", "b", "k", "2", "--set-attr", "*", "k", "1"],
            "<a><b/></a>"
        )
        .1,
        "<a k=\"1\"><b k=\"1\"/></a>"
    );
    // Every kind together, interleaved.
    assert_eq!(
        rewrite(
            "html",
            &[
                "--unwrap",
                "b",
                "--set-attr",
                "li",
                "n",
                "1",
                "--remove",
                "img",
                "--remove-attr",
                "li",
                "class",
                "--set-attr",
                "p",
                "class",
                "k",
            ],
            HTML
        )
        .1,
        "<ul class=menu><li id=a n=\"1\">one</li><li n=\"1\">two</li></ul><p class=\"k\">keep bold </p>"
    );
}

#[test]
fn namespaces_bind_prefixes_for_selectors() {
    let doc = "<x:doc xmlns:x=\"urn:x\"><x:item/><item/></x:doc>";
    assert_eq!(
        rewrite(
            "xml5",
            &["--ns", "p=urn:x", "--set-attr", "p|item", "hit", "1"],
            doc
        )
        .1,
        "<x:doc xmlns:x=\"urn:x\"><x:item hit=\"1\"/><item/></x:doc>"
    );
    let (code, out) = rewrite("xml5", &["--set-attr", "p|item", "hit", "1"], doc);
    assert_eq!((code, out.as_str()), (2, ""));
}

#[test]
fn limits_are_diagnostics_exit_1_and_the_output_is_complete() {
    let doc = "<a><b><c>x</c></b></a>";
    let out = output(
        &data(),
        &[
            "rewrite",
            "-d",
            "xml5",
            "--max-depth",
            "2",
            "--set-attr",
            "a",
            "k",
            "v",
            "-",
        ],
        Some(doc.as_bytes()),
    );
    assert_eq!(code(&out), 1);
    assert_eq!(out.stdout, b"<a k=\"v\"><b><c>x</c></b></a>");
    assert!(
        stderr(&out).contains(
            "<stdin>: depth-limit: an element is nested deeper than the depth limit at 6..9"
        ),
        "{}",
        stderr(&out)
    );
    let out = output(
        &data(),
        &["rewrite", "-d", "xml5", "--no-limits", "-"],
        Some(doc.as_bytes()),
    );
    assert_eq!((code(&out), out.stdout), (0, doc.as_bytes().to_vec()));
}

#[test]
fn attribute_operations_refuse_a_tag_at_the_attribute_limit() {
    // The tokenizers drop attributes past the limit, and an edited tag is rebuilt from those
    // it has: rather than lose `z`, the rewrite stops (in place: the file is left as it was).
    for dialect in ["html", "xml5"] {
        let doc = "<p><a x=1 y=2 z=3>t</a></p>";
        for op in [
            &["--set-attr", "a", "k", "v"][..],
            &["--remove-attr", "a", "x"],
        ] {
            let mut args = vec!["rewrite", "-d", dialect, "--max-attributes", "2"];
            args.extend_from_slice(op);
            args.push("-");
            let out = output(&data(), &args, Some(doc.as_bytes()));
            assert_eq!(code(&out), 2, "{dialect} {op:?}");
            assert!(
                stderr(&out).contains("attribute-limit: ")
                    && stderr(&out).contains(" at 3..18 ")
                    && stderr(&out).contains("--max-attributes none lifts"),
                "{}",
                stderr(&out)
            );
            // The output stops before the refused tag.
            assert_eq!(String::from_utf8_lossy(&out.stdout), "<p>");
        }
        // Under the limit, at it with nothing dropped, and for operations that do not
        // rebuild the tag: no refusal.
        assert_eq!(
            rewrite(
                dialect,
                &["--max-attributes", "3", "--set-attr", "a", "k", "v"],
                "<a x=1 y=2 z=3>t</a>"
            ),
            (0, "<a x=1 y=2 z=3 k=\"v\">t</a>".to_owned())
        );
        assert_eq!(
            rewrite(
                dialect,
                &["--max-attributes", "4", "--set-attr", "a", "k", "v"],
                "<a x=1 y=2 z=3>t</a>"
            ),
            (0, "<a x=1 y=2 z=3 k=\"v\">t</a>".to_owned())
        );
        assert_eq!(
            rewrite(
                dialect,
                &["--max-attributes", "2", "--unwrap", "a"],
                "<a x=1 y=2 z=3>t</a>"
            ),
            // Unwrapped as asked; the cut tag is still reported (exit 1), as every tag a
            // limit cuts is.
            (1, "t".to_owned())
        );
    }
}

/// A large document whose bytes turn malformed past the first chunks: the rewriter has
/// written output (to the temporary file) before it fails.
fn malformed_late() -> Vec<u8> {
    let mut doc = b"<doc>".to_vec();
    while doc.len() < 300_000 {
        doc.extend_from_slice(b"<p class=\"x\">some text</p>\n");
    }
    doc.extend_from_slice(b"<p>caf\xE9</p></doc>\n");
    doc
}

#[test]
fn in_place_failure_midway_leaves_the_original_and_no_temporary() {
    let dir = scratch("midway");
    let doc = malformed_late();
    std::fs::write(dir.join("doc.xml"), &doc).expect("written");
    let out = output(
        &dir,
        &["rewrite", "-i", "--set-attr", "p", "class", "y", "doc.xml"],
        None,
    );
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("malformed-utf8") && err.contains("`doc.xml` is unchanged"),
        "{err}"
    );
    assert!(std::fs::read(dir.join("doc.xml")).expect("read") == doc);
    assert_eq!(listing(&dir), ["doc.xml"]);
}

#[test]
#[cfg(unix)] // Modes, symbolic links, `sh` and `ulimit`.
fn in_place_failing_write_leaves_the_original_and_no_temporary() {
    // The file size limit (`ulimit -f`, with SIGXFSZ ignored) makes a write fail with EFBIG
    // once the temporary file reaches it, even for root.
    let dir = scratch("efbig");
    let mut doc = b"<doc>".to_vec();
    while doc.len() < 300_000 {
        doc.extend_from_slice(b"<p class=\"x\">some text</p>\n");
    }
    doc.extend_from_slice(b"</doc>\n");
    std::fs::write(dir.join("doc.xml"), &doc).expect("written");
    let thicket = assert_cmd::cargo::cargo_bin!("thicket");
    let out = std::process::Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg(r#"trap '' XFSZ; ulimit -f 64 && exec "$0" rewrite -i --set-attr p class y doc.xml"#)
        .arg(thicket)
        .output()
        .expect("sh runs");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot write `doc.xml`"),
        "{}",
        stderr(&out)
    );
    assert!(std::fs::read(dir.join("doc.xml")).expect("read") == doc);
    assert_eq!(listing(&dir), ["doc.xml"]);
}

#[test]
#[cfg(unix)] // Modes, symbolic links, `sh` and `ulimit`.
fn in_place_read_only_directory() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    let sub = dir.join("ro");
    std::fs::create_dir(&sub).expect("made");
    std::fs::write(sub.join("doc.xml"), "<doc/>").expect("written");
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    // Root may write anyway: then there is nothing to test.
    let privileged = std::fs::write(sub.join("probe"), "").is_ok();
    if !privileged {
        let out = output(
            &dir,
            &["rewrite", "-i", "--set-attr", "doc", "a", "1", "ro/doc.xml"],
            None,
        );
        assert_eq!(code(&out), 2);
        assert!(
            stderr(&out).contains("cannot create a temporary file"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(sub.join("doc.xml")).expect("read"), b"<doc/>");
        assert_eq!(listing(&sub), ["doc.xml"]);
    }
    make_writable(&sub);
}

#[test]
#[cfg(unix)] // Modes, symbolic links, `sh` and `ulimit`.
fn in_place_keeps_permissions_follows_links_and_goes_on_after_a_failure() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("several");
    std::fs::write(dir.join("a.xml"), "<a/>").expect("written");
    std::fs::set_permissions(dir.join("a.xml"), std::fs::Permissions::from_mode(0o640))
        .expect("chmod");
    std::fs::write(dir.join("bad.xml"), b"<a>caf\xE9</a>").expect("written");
    std::fs::write(dir.join("c.html"), "<p>c</p>").expect("written");
    std::os::unix::fs::symlink("c.html", dir.join("link.html")).expect("linked");
    let out = output(
        &dir,
        &[
            "rewrite",
            "-i",
            "--set-attr",
            "a, p",
            "k",
            "v",
            "a.xml",
            "bad.xml",
            "missing.xml",
            "link.html",
        ],
        None,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("a.xml")).expect("read"),
        b"<a k=\"v\"/>"
    );
    let mode = std::fs::metadata(dir.join("a.xml"))
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    assert_eq!(
        std::fs::read(dir.join("bad.xml")).expect("read"),
        b"<a>caf\xE9</a>"
    );
    assert_eq!(
        std::fs::read(dir.join("c.html")).expect("read"),
        b"<p k=\"v\">c</p>"
    );
    assert!(
        std::fs::symlink_metadata(dir.join("link.html"))
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    assert_eq!(listing(&dir), ["a.xml", "bad.xml", "c.html", "link.html"]);
    let err = stderr(&out);
    assert!(
        err.contains("`bad.xml` is unchanged") && err.contains("missing.xml"),
        "{err}"
    );
}

// Exit statuses and messages, as snapshots.
macro_rules! snap {
    ($name:ident, [$($arg:expr),*]) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run(&[$($arg),*], None));
        }
    };
    ($name:ident, [$($arg:expr),*], stdin = $stdin:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run(&[$($arg),*], Some($stdin)));
        }
    };
}

snap!(rewrite_help, ["rewrite", "--help"]);
snap!(
    rewrite_page,
    [
        "rewrite",
        "--set-attr",
        "a",
        "rel",
        "nofollow",
        "--remove",
        "script",
        "page.html"
    ]
);
snap!(
    rewrite_no_match,
    ["rewrite", "--remove", "nothing", "note.xml"]
);
snap!(
    rewrite_bad_selector,
    ["rewrite", "--remove", "a:hover", "page.html"]
);
snap!(
    rewrite_unknown_prefix,
    ["rewrite", "--unwrap", "svg|rect", "ns.xml"]
);
snap!(
    rewrite_two_files_to_stdout,
    ["rewrite", "note.xml", "page.html"]
);
snap!(rewrite_stdin_in_place, ["rewrite", "-i", "-"]);
#[cfg(unix)]
snap!(rewrite_in_place_device, ["rewrite", "-i", "/dev/null"]);
snap!(rewrite_missing_file, ["rewrite", "missing.xml"]);
snap!(rewrite_not_utf8, ["rewrite", "latin.xml"]);
snap!(
    rewrite_microxml,
    [
        "rewrite",
        "-d",
        "microxml",
        "--set-attr",
        "to",
        "x",
        "1",
        "--unwrap",
        "body",
        "note.xml"
    ]
);
snap!(
    rewrite_leafxml,
    [
        "rewrite",
        "-d",
        "leafxml",
        "--remove-attr",
        "note",
        "lang",
        "--remove",
        "to",
        "note.xml"
    ]
);
// LeafXML stops at the first error: what came before it is written, then exit 2.
snap!(
    rewrite_leafxml_error,
    ["rewrite", "-d", "leafxml", "--set-attr", "b", "x", "1", "-"],
    stdin = b"<a><b>ok</b><b></a>"
);

/// A windows-1252 page: untouched bytes as they were, the inserted value in windows-1252 with
/// a reference for the character it lacks.
#[test]
fn rewrite_keeps_a_legacy_encoding() {
    let input = std::fs::read(data().join("legacy.html")).unwrap();
    let out = output(
        &data(),
        &[
            "rewrite",
            "--set-attr",
            "p",
            "data-x",
            "\u{fc}\u{20ac}\u{65e5}",
            "legacy.html",
        ],
        None,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut want = Vec::new();
    let mut rest = &input[..];
    while let Some(i) = rest.windows(2).position(|w| w == b"<p") {
        let end = i + rest[i..].iter().position(|&b| b == b'>').unwrap();
        want.extend_from_slice(&rest[..end]);
        want.extend_from_slice(b" data-x=\"\xFC\x80&#26085;\"");
        rest = &rest[end..];
    }
    want.extend_from_slice(rest);
    assert_eq!(out.stdout, want);
}
snap!(
    rewrite_missing_value,
    ["rewrite", "--set-attr", "a", "rel", "page.html"]
);
snap!(
    rewrite_stdin,
    ["rewrite", "-d", "html", "--unwrap", "b", "-"],
    stdin = b"<p>a <b>b</b> c</p>"
);

/// The rewriter holds one unfinished token of at most `--max-token-len` bytes: a longer one
/// stops the file with `buffer-limit` (exit 2), and `--max-token-len none` lifts it.
#[test]
fn a_token_longer_than_max_token_len_stops_the_rewrite() {
    let page = format!("<p>a</p><!--{}--><p>b</p>", "x".repeat(100_000));
    let out = output(
        &data(),
        &["rewrite", "-d", "html", "--max-token-len", "65536", "-"],
        Some(page.as_bytes()),
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("buffer-limit"), "{}", stderr(&out));
    let out = output(
        &data(),
        &["rewrite", "-d", "html", "--max-token-len", "none", "-"],
        Some(page.as_bytes()),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, page.as_bytes());
}

/// HTML holds an input shorter than its `<meta>` prescan (1,024 bytes) until the end, so its
/// diagnostics come only then; they are reported all the same (exit 1), as for a long input.
#[test]
fn html_limits_of_a_short_input_are_reported() {
    let doc = "<p><b><b><b><b><b>x\n";
    let out = output(
        &data(),
        &["rewrite", "-d", "html", "--max-depth", "3", "-"],
        Some(doc.as_bytes()),
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(out.stdout, doc.as_bytes());
    assert!(
        stderr(&out).contains(
            "<stdin>: depth-limit: an element is nested deeper than the depth limit at 9..12"
        ),
        "{}",
        stderr(&out)
    );
}

/// A named pipe among the files of `--in-place` is refused without being opened (opening one
/// waits for a writer): the run ends, exit 2, and the other files are rewritten.
#[cfg(unix)]
#[test]
fn in_place_refuses_a_pipe_without_opening_it() {
    let dir = scratch("fifo");
    let pipe = dir.join("p.xml");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // No mkfifo here: nothing to test.
    }
    let file = dir.join("f.xml");
    std::fs::write(&file, "<r/>").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_thicket"))
        .args(["rewrite", "-i", "--set-attr", "r", "k", "v"])
        .arg(&pipe)
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = None;
    for _ in 0..200 {
        if let Some(s) = child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let status = status.expect("the rewrite ends without waiting for the pipe");
    assert_eq!(status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "<r k=\"v\"/>");
}
