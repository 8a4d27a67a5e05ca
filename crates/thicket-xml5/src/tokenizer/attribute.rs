//! The tag and attribute in progress: names and values with their spans, the duplicate check
//! ("tag attribute name state": a name already on the tag), an attribute value with no
//! attribute, and the attribute limit.

use thicket_input::{Span, TextAcc};

use super::{TagKind, Tokenizer, append};
use crate::error::ErrorCode;
use crate::hash::same;
use crate::token::Attribute;

/// Up to this many attributes, a new name is compared with each (at most this many comparisons
/// an attribute); past it, through the tag's keyed index (`thicket_names::keyed::KeyedIndex`).
const SMALL_TAG: usize = 8;

impl Tokenizer<'_> {
    #[inline]
    pub(super) fn new_tag(&mut self, kind: TagKind) {
        self.tag_kind = kind;
        self.tag_name = TextAcc::new();
        self.name_start = self.cur_at;
        self.name_cut = None;
        self.attrs.clear();
        self.attr_names.clear();
        self.attr_name = TextAcc::new();
        self.attr_value = TextAcc::new();
        self.attr_has_name = false;
        self.attr_value_start = None;
        self.attr_name_cut = None;
        self.attr_value_cut = None;
        self.attr_limit_reported = false;
    }

    #[inline]
    pub(super) fn push_cur_tag_name(&mut self) {
        if let Some(c) = self.cur {
            append(
                &mut self.tag_name,
                c,
                self.cur_at,
                self.cur_len,
                self.cur_verbatim,
                &self.input,
            );
            self.name_end = self.pos();
            self.limit_tag_name();
        }
    }

    /// The attribute (or, with none, a value on its own) gets a value whose source starts at
    /// `at` (after an opening quote, or at the value's first character).
    #[inline]
    pub(super) fn start_value(&mut self, at: usize) {
        if self.attr_value_start.is_none() {
            if !self.attr_has_name {
                // A value with no attribute (`<a/x>`, `<a/"v">`): its own span, quotes included.
                self.attr_start = self.cur_at;
            }
            self.attr_value_start = Some(at);
            self.attr_value_end = at;
        }
        self.attr_end = self.pos();
    }

    #[inline]
    pub(super) fn push_cur_value(&mut self) {
        if let Some(c) = self.cur {
            append(
                &mut self.attr_value,
                c,
                self.cur_at,
                self.cur_len,
                self.cur_verbatim,
                &self.input,
            );
            self.attr_end = self.pos();
            self.attr_value_end = self.pos();
            self.limit_attribute_value();
        }
    }

    /// Finishes the attribute in progress and starts one named by the current character.
    #[inline]
    pub(super) fn new_attribute(&mut self) {
        self.finish_attribute();
        self.attr_has_name = true;
        self.attr_start = self.cur_at;
        self.attr_end = self.pos();
        self.attr_name_end = self.pos();
        if let Some(c) = self.cur {
            append(
                &mut self.attr_name,
                c,
                self.cur_at,
                self.cur_len,
                self.cur_verbatim,
                &self.input,
            );
            self.limit_attribute_name();
        }
    }

    /// Adds the attribute in progress to the tag, unless its name is already there
    /// (`duplicate-attribute`) or the tag has [`thicket_input::Limits::max_attributes`]
    /// (`attribute-limit`, once a tag). A value with no attribute is dropped
    /// (`attribute-value-without-name`).
    #[inline]
    pub(super) fn finish_attribute(&mut self) {
        let value_start = self.attr_value_start.take();
        if !std::mem::take(&mut self.attr_has_name) {
            if value_start.is_some() {
                self.attr_value = TextAcc::new();
                self.attr_value_cut = None;
                let span = Span::new(self.attr_start, self.attr_end);
                self.error(ErrorCode::AttributeValueWithoutName, span);
            }
            return;
        }
        let span = Span::new(self.attr_start, self.attr_end);
        let name_span = Span::new(self.attr_start, self.attr_name_end);
        let value_span = match value_start {
            Some(start) => Span::new(start, self.attr_value_end),
            None => Span::empty(self.attr_end),
        };
        if self.attr_name_cut.take().is_some() {
            self.error(ErrorCode::NameLengthLimit, name_span);
        }
        if self.attr_value_cut.take().is_some() {
            self.error(ErrorCode::ValueLengthLimit, value_span);
        }
        if self.attrs.len() >= self.scan_limits.attributes {
            self.attr_name = TextAcc::new();
            self.attr_value = TextAcc::new();
            if !std::mem::replace(&mut self.attr_limit_reported, true) {
                self.error(ErrorCode::AttributeLimit, span);
            }
            return;
        }
        let name = self.attr_name.as_str(&self.input);
        let attrs = &self.attrs;
        let len = attrs.len();
        let duplicate = if len < SMALL_TAG {
            attrs.iter().any(|a| same(&a.name, name))
        } else {
            let found = self
                .attr_names
                .contains(name, len, |i| &*attrs[i].name, same);
            if !found {
                self.attr_names.push_last(len);
            }
            found
        };
        if duplicate {
            self.attr_name = TextAcc::new();
            self.attr_value = TextAcc::new();
            self.error(ErrorCode::DuplicateAttribute, span);
            return;
        }
        let name = self.attr_name.take().into_cow_input(&self.input);
        let value = self.attr_value.take().into_cow_input(&self.input);
        self.attrs.push(Attribute {
            name,
            value,
            span,
            name_span,
            value_span,
        });
    }
}
