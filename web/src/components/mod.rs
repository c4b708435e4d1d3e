//! One component per file, each with its props beside it.

pub mod app;
pub mod controls;
pub mod findings;
pub mod inventory;
pub mod plan;
pub mod rules;
pub mod summary;
