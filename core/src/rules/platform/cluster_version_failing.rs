//! `platform/cluster-version-failing`: OpenShift: the ClusterVersion is `Failing` or `Invalid`, so
//! `oc adm upgrade` refuses to request the update.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::CLUSTER_VERSION_FAILING,
    severity: Severity::Blocker,
    title: "The ClusterVersion is Failing or Invalid: oc adm upgrade refuses to start an update",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, the `ClusterVersion`'s conditions: `Failing=True` (the cluster-version
operator cannot reconcile the release it runs: an operator down, a manifest it cannot apply) or
`Invalid=True` (its spec cannot be acted on). `oc adm upgrade --to` checks both before it requests an update
and refuses while either holds, unless `--allow-upgrade-with-warnings`: a blocker, and the plan does not
start.

## Why it matters for an upgrade
A cluster that cannot reconcile its current release is not in a state to start another: the failing
component is still failing after the update begins, and the update stalls on it. `oc adm upgrade` shows the
condition's reason and message; the ClusterOperators' `Available` and `Degraded` conditions name the
operator behind it (`platform/operator-degraded`).

## Example
`Failing=True`, reason `ClusterOperatorNotAvailable`, message "Cluster operator authentication is not
available": blocker, `oc adm upgrade --to 4.16.3` is refused.

## How to fix
Fix what the condition names, then check again. `--allow-upgrade-with-warnings` bypasses the check; use it
only knowing the current release is not reconciled.

## References
- oc `pkg/cli/admin/upgrade/upgrade.go` (`checkForUpgrade`: Invalid, Failing, Progressing)
- OpenShift, "Updating a cluster using the CLI": `oc adm upgrade` and its conditions
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
