#![doc = include_str!("../README.md")]

pub mod ascii;
pub mod html;
pub mod keyed;
pub mod leafxml;
pub mod microxml;
pub mod xml10;
