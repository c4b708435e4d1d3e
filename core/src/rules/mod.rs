//! The rule registry: the one place where rule codes are assigned (CONTRACT section 5).
//!
//! Each rule lives in `rules/<category>/<name>.rs` with a `pub const INFO: RuleInfo` (code, default
//! severity, title), a `pub const DOCS: &str` (its Markdown docs) and a
//! `pub fn check(&Context, &mut Vec<Finding>)`.

pub mod admission;
pub mod api;
pub mod budget;
pub mod capacity;
pub mod context;
pub mod disruption;
pub mod helm;
pub mod input;
pub mod node;
pub mod platform;
pub mod progress;
pub mod scheduling;
pub mod skew;
pub mod suppression;
pub mod tolerations;
pub mod version;

pub use crate::report::RuleInfo;
pub use context::Context;

use crate::report::Finding;

pub type CheckFn = fn(&Context<'_>, &mut Vec<Finding>);

pub struct Rule {
    pub info: &'static RuleInfo,
    pub check: CheckFn,
}

/// `registry![category::rule, ...; after: category::rule, ...]`: every rule (its module's `INFO` and
/// `check`) as `RULES`, the same rules' identities alone as `INFOS` (what only lists the rules, such as the
/// dashboard's page, links no rule's code) and their docs as `DOCS` (what lists them links no docs unless
/// it asks [`docs`]); the rules after `after:` are found by a later step of the run
/// (`suppression::apply`), so they are in `INFOS` and `DOCS` only.
macro_rules! registry {
    ($($category:ident :: $rule:ident),* ; after: $($acat:ident :: $arule:ident),* $(,)?) => {
        /// Every rule with a check of its own. The one place a rule is registered.
        pub static RULES: &[Rule] = &[$(Rule { info: &$category::$rule::INFO, check: $category::$rule::check }),*];
        /// Every rule's identity, in registration order ([`RULES`], then those found after them).
        pub static INFOS: &[&RuleInfo] = &[$(&$category::$rule::INFO,)* $(&$acat::$arule::INFO),*];
        /// Every rule's documentation by code, in the same order ([`docs`]).
        static DOCS: &[(&str, &str)] = &[$(($category::$rule::INFO.code, $category::$rule::DOCS),)* $(($acat::$arule::INFO.code, $acat::$arule::DOCS)),*];
    };
}

registry![
    admission::policy_misconfigured,
    admission::webhook_down_in_window,
    admission::webhook_unavailable,
    api::apiservice_unavailable,
    api::crd_conversion_unavailable,
    api::crd_stored_version_unserved,
    api::deprecated,
    api::removed,
    budget::etcd_member_unavailable,
    budget::etcd_no_fault_tolerance,
    budget::limit_covers_pool,
    budget::node_unavailable,
    budget::single_control_plane,
    budget::unavailable_exceeds_limit,
    capacity::insufficient_headroom,
    disruption::daemonset_pod,
    disruption::in_place_restart,
    disruption::local_storage,
    disruption::overlapping_pdbs,
    disruption::pdb_blocks_drain,
    disruption::replicas_in_one_window,
    disruption::single_replica,
    disruption::unmanaged_pod,
    helm::kube_version_refused,
    input::duplicate_object,
    input::unreadable_value,
    node::legacy_cgroup,
    node::container_runtime_unsupported,
    platform::admin_ack_required,
    platform::cluster_version_failing,
    platform::operator_degraded,
    platform::operator_incompatible,
    platform::pool_degraded,
    platform::pool_not_updated,
    platform::preflight_failed,
    platform::update_in_progress,
    platform::update_not_offered,
    platform::update_not_recommended,
    platform::upgradeable_false,
    platform::version_refused,
    progress::node_stuck,
    scheduling::legacy_node_label,
    scheduling::no_eligible_node,
    scheduling::node_selector_mismatch,
    skew::control_plane_spread,
    skew::kubelet_newer,
    skew::kubelet_too_old,
    suppression::expired,
    suppression::unknown_rule,
    tolerations::legacy_master_taint,
    tolerations::missing_eviction_toleration,
    version::downgrade,
    version::minor_skip;
    // Found outside the rules (no check of their own): after every rule has run, by `suppression::apply`;
    // and by the pipeline, from the current version's sources (`current::Current::disagree`).
    after: suppression::unused, input::conflicting_version,
];

/// A rule's documentation (Markdown: what it checks, why it matters for an upgrade, an example, how to fix,
/// references); empty for a code that is no rule's.
pub fn docs(code: &str) -> &'static str {
    DOCS.iter().find(|(c, _)| *c == code).map_or("", |(_, d)| d)
}

/// Every rule's identity, in code order.
pub fn rule_infos() -> Vec<&'static RuleInfo> {
    let mut v: Vec<&'static RuleInfo> = INFOS.to_vec();
    crate::sort::sort_by_key(&mut v, |i| i.code);
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
            for section in ["## What it checks", "## Why it matters", "## Example", "## How to fix", "## References"] {
                assert!(docs(i.code).contains(section), "{} docs lack {section}", i.code);
            }
        }
    }
}
