//! Tables written by `cargo xtask codegen`.

#[rustfmt::skip]
mod entities;

pub(crate) use entities::{ENTITIES, NAME_COUNT};
