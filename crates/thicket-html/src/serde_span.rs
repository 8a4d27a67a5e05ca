//! `Serialize` for spans (`{"start", "end"}`) and error codes (their strings), feature `serde`.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::{ErrorCode, Span};

/// A span as `{"start": .., "end": ..}` (for `#[serde(with)]`).
pub(crate) fn serialize<S: Serializer>(span: &Span, serializer: S) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct("Span", 2)?;
    s.serialize_field("start", &span.start)?;
    s.serialize_field("end", &span.end)?;
    s.end()
}

/// A code as its string (`"eof-in-tag"`).
impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_serialize() {
        let tokens: Vec<_> = crate::parse("<a href=x>t").collect();
        let json = serde_json::to_string(&tokens).unwrap();
        assert_eq!(
            json,
            r#"[{"type":"start-tag","name":"a","attributes":[{"name":"href","value":"x","span":{"start":3,"end":9}}],"self_closing":false,"span":{"start":0,"end":10}},{"type":"text","text":"t","span":{"start":10,"end":11}},{"type":"eof","span":{"start":11,"end":11}}]"#
        );
        let code = serde_json::to_string(&crate::ErrorCode::EofInTag).unwrap();
        assert_eq!(code, r#""eof-in-tag""#);
        // Diagnostics through thicket-input's serde feature: the code as its string.
        let mut tokens = crate::parse("<a b=1 b=2>");
        tokens.by_ref().for_each(drop);
        let diagnostics = tokens.take_diagnostics();
        let json = serde_json::to_string(&diagnostics).unwrap();
        assert!(json.contains(r#""duplicate-attribute""#), "{json}");
        assert!(json.contains(r#""span":{"start":8,"end":9}"#), "{json}");
    }
}
