//! One component per file, each with its props beside it. Every component reads the one state through
//! [`ctx::Ctx`] and changes it by actions; reading and checking are requests to the worker.

pub mod app;
pub mod charts;
pub mod checks;
pub mod ctx;
pub mod downtime;
pub mod element;
pub mod export;
pub mod findings;
pub mod inputs;
pub mod nodes;
pub mod options_form;
pub mod overview;
pub mod plan;
pub mod progress;
pub mod rules;
pub mod store;
pub mod verdict;
pub mod whatif;
