//! Tables written by `cargo xtask codegen`.

mod entities;

pub(crate) use entities::{ENTITIES, NAME_COUNT};
