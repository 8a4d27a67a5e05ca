//! Thicket's parsers, doing the work the issues set targets for.
//! One file per dialect, so work on one dialect never touches another's adapter.

mod html;
mod leafxml;
mod microxml;
mod rewrite;
mod xml5;

pub use html::{html, html_iter};
pub use leafxml::leafxml_events;
pub use microxml::{microxml_tokens, microxml_tokens_iter, microxml_tree};
pub use rewrite::{
    Input, extract_headings, extract_headings_str, headings_text, nofollow_output,
    rewrite_nofollow, rewrite_nofollow_str, xml_set_attribute, xml_set_attribute_output,
};
pub use xml5::{xml5_tokens, xml5_tokens_iter, xml5_tree};
