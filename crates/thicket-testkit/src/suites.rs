//! Readers for the suite formats. Pure data: no dialect crate is needed to read a suite.
