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
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing))]

pub mod apis;
pub mod budget;
pub mod distro;
pub mod helm;
pub mod ingest;
pub mod model;
pub mod options;
pub mod parse;
pub mod plan;
pub mod quantity;
pub mod render;
pub mod report;
pub mod rules;
pub mod session;
pub mod version;

use std::fmt;

pub use ingest::Input;
pub use options::{OptionsError, Profile, UpgradeOptions};
pub use parse::ParseError;
pub use report::{Report, Severity};
pub use rules::RuleInfo;
pub use session::Session;

use model::Object;
use report::{NotRun, Tool, Upgrade};
use version::Version;

/// Why a check could not produce a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// An input could not be read (file, line, column).
    Input(ParseError),
    /// The options make no sense (names the field).
    Options(OptionsError),
}

impl Error {
    /// `"input"` or `"options"` (the JS error's `code`).
    pub fn code(&self) -> &'static str {
        match self {
            Error::Input(_) => "input",
            Error::Options(_) => "options",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => e.fmt(f),
            Error::Options(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Input(e)
    }
}

impl From<OptionsError> for Error {
    fn from(e: OptionsError) -> Self {
        Error::Options(e)
    }
}

/// The current version from the control-plane nodes' kubelets: the lowest one (an HA control plane
/// mid-upgrade is only as far as its oldest member).
pub fn infer_from(objects: &[Object]) -> Option<Version> {
    objects
        .iter()
        .filter(|o| o.node_roles().control_plane)
        .filter_map(|o| o.node()?.kubelet_version.as_deref().and_then(|v| Version::parse(v).ok()))
        .min()
}

/// Check inputs against the options and build the report.
pub fn check(inputs: &[Input], options: &UpgradeOptions) -> Result<Report, Error> {
    // Options first, so that bad options are reported before any input is read.
    check_options(options)?;
    let ingested = ingest::ingest(inputs)?;
    report_from(ingested, options)
}

/// Refuse bad options before reading anything.
pub fn check_options(options: &UpgradeOptions) -> Result<(), Error> {
    options.resolve()?;
    plan::Timings::resolve(options)?;
    Ok(())
}

/// The report for what was read.
pub fn report_from(ingested: ingest::Ingested, options: &UpgradeOptions) -> Result<Report, Error> {
    let options = &with_distribution_config(options, ingested.rke.as_ref());
    let resolved = options.resolve()?;
    let timings = plan::Timings::resolve(options)?;
    Ok(build_report(ingested, options, resolved, timings))
}

/// An RKE `cluster.yml`'s upgrade strategy fills what the options leave open (flags win).
fn with_distribution_config(options: &UpgradeOptions, rke: Option<&distro::RkeConfig>) -> UpgradeOptions {
    let mut o = options.clone();
    if let (Some(r), Profile::Rke | Profile::RkeLegacy) = (rke, o.profile) {
        o.max_unavailable_worker = o.max_unavailable_worker.or(r.max_unavailable_worker);
        o.max_unavailable_control_plane = o.max_unavailable_control_plane.or(r.max_unavailable_control_plane);
        o.drain = o.drain.or(r.drain);
        if let Some(t) = r.drain_timeout {
            o.timings.entry("drainTimeoutSeconds".to_owned()).or_insert(t);
        }
    }
    o
}

fn build_report(
    ingested: ingest::Ingested,
    options: &UpgradeOptions,
    resolved: options::Resolved,
    timings: plan::Timings,
) -> Report {
    let objects = ingested.objects;
    let (from, from_source) = match resolved.from {
        Some(f) => (Some(f), Some("options")),
        None => match infer_from(&objects) {
            Some(f) => (Some(f), Some("control-plane nodes")),
            None => (None, None),
        },
    };
    let path = from.as_ref().map(|f| version::hop_path(f, &resolved.to)).unwrap_or_default();
    let mut ctx = rules::Context::new(&objects, options, resolved.to.clone(), from.clone(), path);
    let (mut plan, downtime) = if ctx.path.is_empty() || ctx.nodes.is_empty() {
        (report::Plan::default(), report::Downtime::default())
    } else {
        let outcome = plan::build(&ctx, timings);
        let (downtime, workloads) = plan::downtime::compute(&ctx, &outcome, &timings);
        ctx.workload_outcomes = Some(workloads);
        (outcome.plan, downtime)
    };
    plan.timings = timings.to_map();
    let mut findings = Vec::new();
    let mut not_run = Vec::new();
    for rule in rules::RULES {
        if rule.info.needs_from && ctx.from.is_none() {
            not_run.push(NotRun {
                code: rule.info.code,
                reason:
                    "the current version is unknown: give --from, or include the control-plane nodes in the snapshot"
                        .to_owned(),
            });
            continue;
        }
        (rule.check)(&ctx, &mut findings);
    }
    if ctx.from.is_none() {
        not_run.push(NotRun {
            code: "plan",
            reason: "the current version is unknown: give --from, or include the control-plane nodes in the snapshot"
                .to_owned(),
        });
    } else if ctx.nodes.is_empty() {
        not_run.push(NotRun { code: "plan", reason: "there are no nodes in the inputs to plan for".to_owned() });
    } else if ctx.path.is_empty() {
        not_run.push(NotRun {
            code: "plan",
            reason: "the target is not newer than the current version: nothing to upgrade".to_owned(),
        });
    }
    let summary = report::finish_findings(&mut findings);
    Report {
        schema_version: report::SCHEMA_VERSION,
        tool: Tool { name: report::TOOL_NAME, version: report::TOOL_VERSION },
        upgrade: Upgrade {
            from: from.as_ref().map(ToString::to_string),
            to: resolved.to.to_string(),
            profile: options.profile,
            path: ctx.path_strings(),
            from_source,
        },
        inventory: ingested.inventory,
        summary,
        findings,
        plan,
        downtime,
        not_run,
    }
}

/// Every rule's documentation, in code order.
pub fn rules() -> Vec<&'static RuleInfo> {
    rules::rule_infos()
}

/// The core's version.
pub fn version() -> &'static str {
    report::TOOL_VERSION
}
