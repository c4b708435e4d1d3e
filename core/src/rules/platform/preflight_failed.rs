//! `platform/preflight-failed`: gKE on Bare Metal: the last preflight check failed.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::PREFLIGHT_FAILED,
    severity: Severity::Blocker,
    title: "GKE on Bare Metal: the last preflight check failed",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile gke-baremetal`: the newest `PreflightCheck` (baremetal.cluster.gke.io) of each cluster
namespace; when its `status.pass` is false, or checks in `status.checks` did not pass, it names them.

## Why it matters for an upgrade
`bmctl upgrade cluster` creates a PreflightCheck and does not proceed when it fails (cluster upgrade
checks, network and node diagnostics).

## Example
`kubectl get preflightchecks -A`: `upgrade-cluster-20231106-222746   false`.

## How to fix
Fix what the failed checks name (`kubectl describe preflightcheck`), then `bmctl check preflight` again
before the upgrade.

## References
- Google Distributed Cloud for bare metal: "Preflight checks"; "Lifecycle and stages of cluster upgrades"
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
