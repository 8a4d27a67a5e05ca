//! Per-dialect suite runners, each behind its dialect's feature.

#[cfg(feature = "html")]
pub mod html;
#[cfg(feature = "leafxml")]
pub mod leafxml;
#[cfg(feature = "microxml")]
pub mod microxml;
#[cfg(feature = "xml5")]
pub mod xml5;
