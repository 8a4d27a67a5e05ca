#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

pub mod ascii;
pub mod html;
pub mod keyed;
pub mod leafxml;
pub mod microxml;
pub mod microxml2012;
pub mod unicode;
pub mod xml10;
