//! The 2012 MicroXML grammar's character and name classes, for validity diagnostics. They are
//! defined once, in [`thicket_names::microxml2012`]; this module re-exports them for users of
//! this crate.

pub use thicket_names::microxml2012::{
    is_forbidden_char, is_name, is_name_char, is_name_start_char, is_referable, is_s,
};
