//! The length limits of names and attribute values ([`Limits::max_name_len`],
//! [`Limits::max_value_len`]): a name or value keeps its first bytes (cut at a character
//! boundary), the rest is read but not kept, and one diagnostic spans the whole name or value
//! when it ends. Checked once a run of characters (or a character the states take one by one),
//! never per character of a run.

use thicket_input::cursor::Cursor;
use thicket_input::{Limits, Span, TextAcc};

use super::Tokenizer;
use super::fast::{FAST_ATTRS, RawAttr, RawTag};
use crate::error::{Diagnostic, ErrorCode};

/// The limits the tokenizer applies, `usize::MAX` for none (one comparison each).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScanLimits {
    /// [`Limits::max_name_len`].
    pub(crate) name: usize,
    /// [`Limits::max_value_len`].
    pub(crate) value: usize,
    /// [`Limits::max_attributes`].
    pub(crate) attributes: usize,
    /// The most attributes the direct path reads on a tag: [`FAST_ATTRS`], or fewer with a
    /// lower attribute limit (the states report it).
    pub(crate) fast_attributes: usize,
    /// The shorter of the name and value limits: a tag no longer than this has no name or
    /// value a limit cuts.
    shortest: usize,
}

impl ScanLimits {
    pub(crate) fn new(limits: &Limits) -> ScanLimits {
        let name = limits.max_name_len.unwrap_or(usize::MAX);
        let value = limits.max_value_len.unwrap_or(usize::MAX);
        let attributes = limits.max_attributes.unwrap_or(usize::MAX);
        ScanLimits {
            name,
            value,
            attributes,
            fast_attributes: attributes.min(FAST_ATTRS),
            shortest: name.min(value),
        }
    }

    /// True when no length limit cuts a name or value of the tag the direct path read (one
    /// comparison for a tag shorter than both limits); else the states read it and report.
    #[inline]
    pub(crate) fn admits(&self, tag: &RawTag, attributes: &[RawAttr]) -> bool {
        tag.end - tag.lt <= self.shortest || self.admits_each(tag, attributes)
    }

    #[cold]
    fn admits_each(&self, tag: &RawTag, attributes: &[RawAttr]) -> bool {
        tag.name.1 - tag.name.0 <= self.name
            && attributes
                .iter()
                .all(|a| a.name.1 - a.name.0 <= self.name && a.value.1 - a.value.0 <= self.value)
    }
}

/// Cuts `acc` to `max` bytes (back to a character boundary) the first time it is longer,
/// recording the length kept in `kept`; once cut, cuts anything appended after.
#[inline]
fn cut(acc: &mut TextAcc, max: usize, kept: &mut Option<usize>, input: &Cursor<'_>) {
    match *kept {
        Some(k) => {
            if acc.len() > k {
                acc.truncate(k, input);
            }
        }
        None => {
            if acc.len() > max {
                acc.truncate(max, input);
                *kept = Some(acc.len());
            }
        }
    }
}

impl Tokenizer<'_> {
    #[inline]
    pub(super) fn limit_tag_name(&mut self) {
        let max = self.scan_limits.name;
        cut(&mut self.tag_name, max, &mut self.name_cut, &self.input);
    }

    pub(super) fn limit_pi_target(&mut self) {
        let max = self.scan_limits.name;
        cut(&mut self.pi_target, max, &mut self.name_cut, &self.input);
    }

    pub(super) fn limit_doctype_name(&mut self) {
        let max = self.scan_limits.name;
        if let Some(name) = self.doctype.name_mut() {
            cut(name, max, &mut self.name_cut, &self.input);
        }
    }

    #[inline]
    pub(super) fn limit_attribute_name(&mut self) {
        let max = self.scan_limits.name;
        cut(
            &mut self.attr_name,
            max,
            &mut self.attr_name_cut,
            &self.input,
        );
    }

    #[inline]
    pub(super) fn limit_attribute_value(&mut self) {
        let max = self.scan_limits.value;
        cut(
            &mut self.attr_value,
            max,
            &mut self.attr_value_cut,
            &self.input,
        );
    }

    /// Reports `name-length-limit` for the tag, PI target or DOCTYPE name just read, if it was
    /// cut.
    pub(super) fn report_name_cut(&mut self) {
        if self.name_cut.take().is_some() {
            let span = Span::new(self.name_start, self.name_end);
            self.error(ErrorCode::NameLengthLimit, span);
        }
    }
}

/// The limits reached, as callers that keep no diagnostics see them.
impl Tokenizer<'_> {
    /// How many times a limit of [`Options::limits`](crate::Options) cut a tag so far
    /// (`attribute-limit`, `name-length-limit`, `value-length-limit`), counted whether or not
    /// `max_diagnostics` let the diagnostics out; with
    /// [`last_limit_reached`](Self::last_limit_reached), how a caller that keeps no
    /// diagnostics learns that a tag was cut.
    ///
    /// ```
    /// use thicket_xml5::{Options, Tokenizer};
    /// use thicket_input::Limits;
    /// let mut options = Options::default();
    /// options.limits = Limits::none().with_max_attributes(1).with_max_diagnostics(0);
    /// let mut t = Tokenizer::with_options("<a x='1' y='2'/>", options);
    /// while t.next_token().is_some() {}
    /// assert_eq!(t.limits_reached(), 1);
    /// assert_eq!(t.last_limit_reached().unwrap().code.as_str(), "attribute-limit");
    /// ```
    pub fn limits_reached(&self) -> usize {
        self.reached.count()
    }

    /// The diagnostic of the last limit reached (see [`limits_reached`](Self::limits_reached)).
    pub fn last_limit_reached(&self) -> Option<Diagnostic> {
        self.reached.last()
    }

    /// The diagnostics of the limits reached since the last call, in the order they were
    /// reached (at most [`thicket_input::LIMIT_LOG`] kept between calls): taken after each
    /// token, they tell which tokens were cut, wherever the tokenizer had read to.
    pub fn take_limits_reached(&mut self) -> Vec<Diagnostic> {
        self.reached.take()
    }
}
