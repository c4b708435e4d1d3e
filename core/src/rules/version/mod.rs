//! version/: is the requested target a valid move from the current version?

pub mod downgrade;
pub mod minor_skip;
