//! `Serialize` and `Deserialize` for [`Diagnostic`] (feature `serde`): `{"code": "eof-in-tag",
//! "span": {"start": 3, "end": 3}}`, the code as its stable kebab-case string.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::position::{Diagnostic, ErrorCode, Span};

#[derive(Serialize)]
struct Out {
    code: &'static str,
    span: Span,
}

#[derive(Deserialize)]
struct In<'s> {
    #[serde(borrow)]
    code: std::borrow::Cow<'s, str>,
    span: Span,
}

impl<C: ErrorCode> Serialize for Diagnostic<C> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Out {
            code: self.code.as_str(),
            span: self.span,
        }
        .serialize(serializer)
    }
}

impl<'de, C: ErrorCode> Deserialize<'de> for Diagnostic<C> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let d = In::deserialize(deserializer)?;
        let code = C::from_code(&d.code)
            .ok_or_else(|| D::Error::custom(format_args!("unknown error code `{}`", d.code)))?;
        Ok(Diagnostic::new(code, d.span))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Diagnostic, ErrorCode, LineCol, Span};

    crate::error_codes! {
        /// Codes for the test.
        pub enum Code {
            /// One.
            EofInTag = "eof-in-tag", "end of input in a tag";
        }
    }

    #[test]
    fn diagnostics_round_trip_with_their_codes_as_strings() {
        let d = Diagnostic::new(Code::EofInTag, Span::new(3, 4));
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(json, r#"{"code":"eof-in-tag","span":{"start":3,"end":4}}"#);
        assert_eq!(serde_json::from_str::<Diagnostic<Code>>(&json).unwrap(), d);
        let err = serde_json::from_str::<Diagnostic<Code>>(
            r#"{"code":"nope","span":{"start":0,"end":0}}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("unknown error code `nope`"),
            "{err}"
        );
        assert_eq!(Code::ALL, [Code::EofInTag]);
        assert_eq!(Code::from_code("eof-in-tag"), Some(Code::EofInTag));
        assert_eq!(
            <Code as ErrorCode>::from_code("eof-in-tag"),
            Some(Code::EofInTag)
        );
        let lc = LineCol { line: 2, column: 5 };
        let back: LineCol = serde_json::from_str(&serde_json::to_string(&lc).unwrap()).unwrap();
        assert_eq!(back, lc);
    }
}
