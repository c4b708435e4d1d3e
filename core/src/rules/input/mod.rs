//! input/: what in the inputs could not be understood (beyond outright unreadable files, which are errors).

pub mod conflicting_version;
pub mod duplicate_object;
pub mod unreadable_value;
