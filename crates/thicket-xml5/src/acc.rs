//! String accumulators that stay a range of the input while the text is unchanged, so tokens can
//! borrow from a whole-`&str` input.

use std::borrow::Cow;

/// A string being built: nothing yet, a range of the input (absolute byte offsets), or owned text
/// once a character differs from the input or is not contiguous with the range.
#[derive(Clone, Debug, Default)]
pub(crate) enum Acc {
    #[default]
    Empty,
    Range(usize, usize),
    Owned(String),
}

impl Acc {
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Acc::Empty => true,
            Acc::Range(s, e) => s == e,
            Acc::Owned(s) => s.is_empty(),
        }
    }

    /// The length in bytes.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Acc::Empty => 0,
            Acc::Range(s, e) => e - s,
            Acc::Owned(s) => s.len(),
        }
    }

    /// Keeps the first `max` bytes, cut back to a character boundary (a length limit).
    pub(crate) fn truncate(&mut self, max: usize, input: &str, base: usize) {
        let text = self.as_str(input, base);
        if text.len() <= max {
            return;
        }
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        match self {
            Acc::Empty => {}
            Acc::Range(s, e) => *e = *s + cut,
            Acc::Owned(s) => s.truncate(cut),
        }
    }

    /// Appends `c`, found at absolute offset `at`; `verbatim` says the input holds exactly `c` there.
    #[inline]
    pub(crate) fn push(&mut self, c: char, at: usize, verbatim: bool, input: &str, base: usize) {
        // A character from before the buffer start (streaming) can no longer be borrowed.
        let verbatim = verbatim && at >= base;
        match self {
            Acc::Empty if verbatim => *self = Acc::Range(at, at + c.len_utf8()),
            Acc::Range(_, e) if verbatim && *e == at => *e += c.len_utf8(),
            Acc::Owned(s) => s.push(c),
            _ => {
                let mut s = self.to_string_in(input, base);
                s.push(c);
                *self = Acc::Owned(s);
            }
        }
    }

    /// Appends the input range `start..end` (absolute offsets).
    pub(crate) fn push_range(&mut self, start: usize, end: usize, input: &str, base: usize) {
        if start == end {
            return;
        }
        match self {
            Acc::Empty => *self = Acc::Range(start, end),
            Acc::Range(_, e) if *e == start => *e = end,
            Acc::Owned(s) => s.push_str(&input[start - base..end - base]),
            _ => {
                let mut s = self.to_string_in(input, base);
                s.push_str(&input[start - base..end - base]);
                *self = Acc::Owned(s);
            }
        }
    }

    /// Appends text that is not in the input as such.
    pub(crate) fn push_str(&mut self, text: &str, input: &str, base: usize) {
        match self {
            Acc::Owned(s) => s.push_str(text),
            _ => {
                let mut s = self.to_string_in(input, base);
                s.push_str(text);
                *self = Acc::Owned(s);
            }
        }
    }

    fn to_string_in(&self, input: &str, base: usize) -> String {
        match self {
            Acc::Empty => String::new(),
            Acc::Range(s, e) => input[s - base..e - base].to_owned(),
            Acc::Owned(s) => s.clone(),
        }
    }

    /// The text so far.
    pub(crate) fn as_str<'s>(&'s self, input: &'s str, base: usize) -> &'s str {
        match self {
            Acc::Empty => "",
            Acc::Range(s, e) => &input[s - base..e - base],
            Acc::Owned(s) => s,
        }
    }

    /// Makes the text independent of the input (before the input buffer is compacted).
    pub(crate) fn detach(&mut self, input: &str, base: usize) {
        if let Acc::Range(..) = self {
            *self = Acc::Owned(self.to_string_in(input, base));
        }
    }

    /// Takes the text, borrowing from the input when it is borrowed and the text is a range of it.
    pub(crate) fn take<'a>(&mut self, input: &Cow<'a, str>, base: usize) -> Cow<'a, str> {
        match std::mem::take(self) {
            Acc::Empty => Cow::Borrowed(""),
            Acc::Range(s, e) => match input {
                Cow::Borrowed(text) => Cow::Borrowed(&text[s - base..e - base]),
                Cow::Owned(text) => Cow::Owned(text[s - base..e - base].to_owned()),
            },
            Acc::Owned(s) => Cow::Owned(s),
        }
    }
}
