//! The rule registry: the one place where rule codes are assigned (CONTRACT section 5).
//!
//! Each rule lives in `rules/<category>/<name>.rs` with a `pub const INFO: RuleInfo` (code, default
//! severity, title, Markdown docs) and a `pub fn check(&Context, &mut Vec<Finding>)`.

pub mod api;
pub mod context;
pub mod skew;
pub mod version;

use serde::Serialize;

pub use context::Context;

use crate::report::{Finding, Severity};

/// A rule's identity and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    pub code: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    /// Markdown: what it checks, why it matters for an upgrade, an example, how to fix, references.
    pub docs: &'static str,
    /// Does the rule need the current version (`from`)? Such rules are listed in `notRun` without it.
    #[serde(skip)]
    pub needs_from: bool,
}

pub type CheckFn = fn(&Context<'_>, &mut Vec<Finding>);

pub struct Rule {
    pub info: &'static RuleInfo,
    pub check: CheckFn,
}

/// Every rule, in code order.
pub static RULES: &[Rule] = &[
    Rule {
        info: &api::deprecated::INFO,
        check: api::deprecated::check,
    },
    Rule {
        info: &api::removed::INFO,
        check: api::removed::check,
    },
    Rule {
        info: &skew::control_plane_spread::INFO,
        check: skew::control_plane_spread::check,
    },
    Rule {
        info: &skew::kubelet_newer::INFO,
        check: skew::kubelet_newer::check,
    },
    Rule {
        info: &skew::kubelet_too_old::INFO,
        check: skew::kubelet_too_old::check,
    },
    Rule {
        info: &version::downgrade::INFO,
        check: version::downgrade::check,
    },
    Rule {
        info: &version::minor_skip::INFO,
        check: version::minor_skip::check,
    },
];

/// The documentation of every rule, in code order.
pub fn rule_infos() -> Vec<&'static RuleInfo> {
    let mut v: Vec<&'static RuleInfo> = RULES.iter().map(|r| r.info).collect();
    v.sort_by_key(|i| i.code);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_documented() {
        let infos = rule_infos();
        for w in infos.windows(2) {
            assert_ne!(w[0].code, w[1].code);
        }
        for i in infos {
            assert!(i.code.contains('/'), "{}", i.code);
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## How to fix",
                "## References",
            ] {
                assert!(i.docs.contains(section), "{} docs lack {section}", i.code);
            }
        }
    }
}
