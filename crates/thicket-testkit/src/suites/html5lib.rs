//! Reader for the html5lib tokenizer test format (`tokenizer/*.test`), with Thicket's
//! `["ProcessingInstruction", target, data]` token for the 2026 processing instructions.
//!
//! Each file is a JSON object with a `tests` array (or, in `xmlViolation.test`, only
//! `xmlViolationTests`). A test has `description`, `input`, `output` (tokens), optional `errors`
//! (`{code, line, col}`), `initialStates`, `lastStartTag` and `doubleEscaped`.

use std::path::Path;

use serde_json::Value;

/// An expected token, normalized: adjacent `Character` tokens are joined, attributes sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedToken {
    /// `["DOCTYPE", name, public, system, correctness]`.
    Doctype {
        /// The name (`null` → `None`).
        name: Option<String>,
        /// The public identifier.
        public_id: Option<String>,
        /// The system identifier.
        system_id: Option<String>,
        /// `correctness` is the negation of force-quirks.
        correct: bool,
    },
    /// `["StartTag", name, {attrs}, selfClosing?]`.
    StartTag {
        /// Tag name.
        name: String,
        /// Attributes, sorted by name.
        attrs: Vec<(String, String)>,
        /// Self-closing flag (absent means false).
        self_closing: bool,
    },
    /// `["EndTag", name]`.
    EndTag {
        /// Tag name.
        name: String,
    },
    /// `["Comment", data]`.
    Comment(String),
    /// `["ProcessingInstruction", target, data]`: not in html5lib-tests (which predate the 2026
    /// change); the form of `wpt-processing-instructions/tokenizer-pi.test`.
    ProcessingInstruction {
        /// The target.
        target: String,
        /// The data.
        data: String,
    },
    /// `["Character", data]`.
    Character(String),
}

/// An expected parse error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedError {
    /// The WHATWG code.
    pub code: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

/// One test of a tokenizer file.
#[derive(Clone, Debug)]
pub struct TokenizerTest {
    /// The description.
    pub description: String,
    /// The input, unescaped when `doubleEscaped`; `None` when it holds a lone surrogate.
    pub input: Option<String>,
    /// The expected tokens (normalized), `None` when they hold a lone surrogate.
    pub output: Option<Vec<ExpectedToken>>,
    /// The expected errors, in order.
    pub errors: Vec<ExpectedError>,
    /// The initial states (`["Data state"]` when absent).
    pub initial_states: Vec<String>,
    /// `lastStartTag`, if given.
    pub last_start_tag: Option<String>,
}

/// A parsed file: its tests and whether they are `xmlViolationTests`.
#[derive(Clone, Debug)]
pub struct TokenizerFile {
    /// The tests in file order.
    pub tests: Vec<TokenizerTest>,
    /// True when the file holds `xmlViolationTests` (expectations for the XML-coercing mode of
    /// html5lib, not for the standard's tokenizer).
    pub xml_violation: bool,
}

/// Reads one `.test` file.
pub fn read_file(path: &Path) -> Result<TokenizerFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of one `.test` file.
pub fn parse(text: &str) -> Result<TokenizerFile, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let (list, xml_violation) = match (v.get("tests"), v.get("xmlViolationTests")) {
        (Some(t), _) => (t, false),
        (None, Some(t)) => (t, true),
        (None, None) => return Err("no `tests` key".into()),
    };
    let list = list.as_array().ok_or("`tests` is not an array")?;
    let mut tests = Vec::with_capacity(list.len());
    for (i, t) in list.iter().enumerate() {
        tests.push(parse_test(t).map_err(|e| format!("test #{i}: {e}"))?);
    }
    Ok(TokenizerFile {
        tests,
        xml_violation,
    })
}

fn parse_test(t: &Value) -> Result<TokenizerTest, String> {
    let double = t
        .get("doubleEscaped")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let unescape = |s: &str| -> Option<String> {
        if double {
            unescape_u(s)
        } else {
            Some(s.to_owned())
        }
    };
    let description = t
        .get("description")
        .and_then(Value::as_str)
        .ok_or("no description")?
        .to_owned();
    let input = unescape(t.get("input").and_then(Value::as_str).ok_or("no input")?);
    let output = parse_output(t.get("output").ok_or("no output")?, &unescape)?;
    let mut errors = Vec::new();
    if let Some(list) = t.get("errors").and_then(Value::as_array) {
        for e in list {
            errors.push(ExpectedError {
                code: e
                    .get("code")
                    .and_then(Value::as_str)
                    .ok_or("error without code")?
                    .to_owned(),
                line: e.get("line").and_then(Value::as_u64).unwrap_or(0) as usize,
                col: e.get("col").and_then(Value::as_u64).unwrap_or(0) as usize,
            });
        }
    }
    let initial_states = match t.get("initialStates").and_then(Value::as_array) {
        Some(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        None => vec!["Data state".to_owned()],
    };
    let last_start_tag = t
        .get("lastStartTag")
        .and_then(Value::as_str)
        .map(str::to_owned);
    Ok(TokenizerTest {
        description,
        input,
        output,
        errors,
        initial_states,
        last_start_tag,
    })
}

/// Why an expected output cannot be used.
enum OutputError {
    /// Malformed test data.
    Bad(String),
    /// A string holds a lone surrogate (after `doubleEscaped` unescaping).
    Surrogate,
}

fn parse_output(
    v: &Value,
    unescape: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Vec<ExpectedToken>>, String> {
    match parse_tokens(v, unescape) {
        Ok(tokens) => Ok(Some(coalesce(tokens))),
        Err(OutputError::Surrogate) => Ok(None),
        Err(OutputError::Bad(e)) => Err(e),
    }
}

/// A string-or-null field, unescaped.
fn field(
    v: Option<&Value>,
    unescape: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<String>, OutputError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => unescape(s).map(Some).ok_or(OutputError::Surrogate),
        Some(other) => Err(OutputError::Bad(format!("expected a string, got {other}"))),
    }
}

fn parse_tokens(
    v: &Value,
    unescape: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<ExpectedToken>, OutputError> {
    let bad = |e: &str| OutputError::Bad(e.to_owned());
    let list = v.as_array().ok_or_else(|| bad("output is not an array"))?;
    let mut out = Vec::new();
    for tok in list {
        let a = tok.as_array().ok_or_else(|| bad("token is not an array"))?;
        let kind = a
            .first()
            .and_then(Value::as_str)
            .ok_or_else(|| bad("token without kind"))?;
        let f = |i: usize| field(a.get(i), unescape);
        let t = match kind {
            "DOCTYPE" => ExpectedToken::Doctype {
                name: f(1)?,
                public_id: f(2)?,
                system_id: f(3)?,
                correct: a.get(4).and_then(Value::as_bool).unwrap_or(false),
            },
            "StartTag" => {
                let mut attrs = Vec::new();
                if let Some(obj) = a.get(2).and_then(Value::as_object) {
                    for (k, v) in obj {
                        let k = unescape(k).ok_or(OutputError::Surrogate)?;
                        let v = field(Some(v), unescape)?.unwrap_or_default();
                        attrs.push((k, v));
                    }
                }
                attrs.sort();
                ExpectedToken::StartTag {
                    name: f(1)?.unwrap_or_default(),
                    attrs,
                    self_closing: a.get(3).and_then(Value::as_bool).unwrap_or(false),
                }
            }
            "EndTag" => ExpectedToken::EndTag {
                name: f(1)?.unwrap_or_default(),
            },
            "Comment" => ExpectedToken::Comment(f(1)?.unwrap_or_default()),
            "ProcessingInstruction" => ExpectedToken::ProcessingInstruction {
                target: f(1)?.unwrap_or_default(),
                data: f(2)?.unwrap_or_default(),
            },
            "Character" => ExpectedToken::Character(f(1)?.unwrap_or_default()),
            other => return Err(OutputError::Bad(format!("unknown token kind {other}"))),
        };
        out.push(t);
    }
    Ok(out)
}

/// Joins adjacent `Character` tokens.
pub fn coalesce(tokens: Vec<ExpectedToken>) -> Vec<ExpectedToken> {
    let mut out: Vec<ExpectedToken> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if let ExpectedToken::Character(s) = &t
            && let Some(ExpectedToken::Character(prev)) = out.last_mut()
        {
            prev.push_str(s);
            continue;
        }
        out.push(t);
    }
    out.retain(|t| !matches!(t, ExpectedToken::Character(s) if s.is_empty()));
    out
}

/// Replaces `\uXXXX` escapes (the `doubleEscaped` convention); `None` when one is a lone
/// surrogate, which a Rust `String` cannot hold.
pub fn unescape_u(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    let hex4 = |at: usize| -> Option<u32> {
        let h = s.get(at..at + 4)?;
        u32::from_str_radix(h, 16).ok()
    };
    while i < b.len() {
        if b[i] == b'\\'
            && b.get(i + 1) == Some(&b'u')
            && let Some(u) = hex4(i + 2)
        {
            if (0xD800..0xDC00).contains(&u) {
                if b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && let Some(lo) = hex4(i + 8).filter(|lo| (0xDC00..0xE000).contains(lo))
                {
                    let c = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                    out.push(char::from_u32(c)?);
                    i += 12;
                    continue;
                }
                return None;
            }
            out.push(char::from_u32(u)?);
            i += 6;
            continue;
        }
        let c = s[i..].chars().next()?;
        out.push(c);
        i += c.len_utf8();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_and_rejects_lone_surrogates() {
        assert_eq!(unescape_u("a\\u0041b").as_deref(), Some("aAb"));
        assert_eq!(unescape_u("\\uD83D\\uDE00").as_deref(), Some("\u{1F600}"));
        assert_eq!(unescape_u("\\uDFFF"), None);
        assert_eq!(unescape_u("\\uD800a"), None);
    }

    #[test]
    fn parses_a_test() {
        let f = parse(
            r#"{"tests":[{"description":"d","input":"<a b=c>x","output":[["StartTag","a",{"b":"c"}],["Character","x"],["Character","y"]],
            "errors":[{"code":"eof-in-tag","line":1,"col":2}]}]}"#,
        )
        .unwrap();
        let t = &f.tests[0];
        assert_eq!(t.initial_states, vec!["Data state"]);
        assert_eq!(t.errors[0].col, 2);
        assert_eq!(
            t.output.as_ref().unwrap()[1],
            ExpectedToken::Character("xy".into())
        );
    }
}
