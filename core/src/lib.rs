//! kube-preflight's core: bytes in, report out.
//!
//! ```
//! use kube_preflight::{check, Input, UpgradeOptions};
//! # fn main() -> Result<(), kube_preflight::Error> {
//! let nodes = r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"cp-1",
//!   "labels":{"node-role.kubernetes.io/control-plane":""}},"status":{"nodeInfo":{"kubeletVersion":"v1.27.3"}}}]}"#;
//! let report = check(&[Input::new("nodes.json", nodes)], &UpgradeOptions::new("1.29.2"))?;
//! assert_eq!(report.upgrade.path, ["1.28", "1.29.2"]);
//! assert!(report.findings.iter().any(|f| f.code == "version/minor-skip"));
//! # Ok(())
//! # }
//! ```
//!
//! The core does no I/O and never panics on input: unreadable input is an [`Error`] naming the file, line
//! and column; odd cluster data is a finding.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

pub mod apis;
pub mod budget;
pub mod cluster;
pub mod coverage;
pub mod current;
pub mod detect;
pub mod error;
pub mod helm;
pub mod ingest;
pub mod model;
pub mod options;
/// The positioned JSON and YAML readers: their own crate, `kube-preflight-parse`, so that they alone are built for
/// speed (see the workspace `Cargo.toml`).
pub use kube_preflight_parse as parse;
pub mod pipeline;
pub mod plan;
pub mod quantity;
pub mod render;
pub mod report;
pub mod rules;
pub mod runtimes;
pub mod session;
pub mod sort;
pub mod units;
pub mod version;

pub use current::current;
pub use error::Error;
pub use ingest::Input;
pub use options::{OptionsError, Profile, UpgradeOptions};
pub use parse::ParseError;
pub use pipeline::{check, check_options, infer_from, report_for, report_from, rules, version};
pub use report::{Report, RuleInfo, Severity};
pub use session::Session;
