//! Readers for the suite formats. Pure data: no dialect crate is needed to read a suite.

pub mod html5lib;
pub mod html5lib_tree;
pub mod microxml;
pub mod xml5lib;
