//! Span invariants shared by every dialect's tests.

use thicket_input::Span;

/// Checks that `spans`, in order, tile `text`: each starts where the previous one ended, the
/// first starts at 0, the last ends at `text.len()`, and every boundary is a char boundary.
/// Empty spans are allowed anywhere. Returns a description of the first violation.
pub fn check_tiling(text: &str, spans: &[Span]) -> Result<(), String> {
    let mut at = 0;
    for (i, s) in spans.iter().enumerate() {
        if s.start != at {
            return Err(format!(
                "span #{i} {s:?} starts at {} but the previous ended at {at}",
                s.start
            ));
        }
        if s.end < s.start {
            return Err(format!("span #{i} {s:?} ends before it starts"));
        }
        if s.end > text.len() {
            return Err(format!(
                "span #{i} {s:?} ends past the input ({})",
                text.len()
            ));
        }
        if !text.is_char_boundary(s.start) || !text.is_char_boundary(s.end) {
            return Err(format!("span #{i} {s:?} is not on char boundaries"));
        }
        at = s.end;
    }
    if at != text.len() {
        return Err(format!("spans end at {at}, input is {} bytes", text.len()));
    }
    Ok(())
}

/// Checks that every span is in bounds, on char boundaries, and that starts never decrease.
pub fn check_ordered(text: &str, spans: &[Span]) -> Result<(), String> {
    let mut last = 0;
    for (i, s) in spans.iter().enumerate() {
        if s.end < s.start || s.end > text.len() {
            return Err(format!(
                "span #{i} {s:?} out of bounds (input {} bytes)",
                text.len()
            ));
        }
        if !text.is_char_boundary(s.start) || !text.is_char_boundary(s.end) {
            return Err(format!("span #{i} {s:?} is not on char boundaries"));
        }
        if s.start < last {
            return Err(format!(
                "span #{i} {s:?} starts before the previous span ({last})"
            ));
        }
        last = s.start;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiling() {
        assert!(check_tiling("abc", &[Span::new(0, 1), Span::new(1, 3)]).is_ok());
        assert!(check_tiling("abc", &[Span::new(0, 1), Span::new(2, 3)]).is_err());
        assert!(check_tiling("abc", &[Span::new(0, 2)]).is_err());
        assert!(check_tiling("é", &[Span::new(0, 1), Span::new(1, 2)]).is_err());
        assert!(check_tiling("", &[]).is_ok());
    }

    #[test]
    fn ordered() {
        assert!(check_ordered("abc", &[Span::new(0, 1), Span::new(0, 3)]).is_ok());
        assert!(check_ordered("abc", &[Span::new(1, 1), Span::new(0, 3)]).is_err());
        assert!(check_ordered("abc", &[Span::new(1, 4)]).is_err());
    }
}
