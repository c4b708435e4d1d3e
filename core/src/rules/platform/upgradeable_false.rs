//! `platform/upgradeable-false`: openShift: Upgradeable=False holds back a minor update.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::UPGRADEABLE_FALSE,
    severity: Severity::Blocker,
    title: "OpenShift: Upgradeable=False holds a minor update",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, for a minor (or major) update: whether a `ClusterOperator` or the
`ClusterVersion` has the condition `Upgradeable=False`. Each ClusterOperator is reported with its reason
and message; the ClusterVersion's own condition is reported only when nothing else found explains it
(it sums the operators' and the admin acks'). A z-stream update within the current minor is not held,
and neither is any update while the release the CVO reconciles (`status.desired.version`) is not a
strict `MAJOR.MINOR.PATCH` SemVer version (`4.1`, or none): the CVO cannot parse it and only warns
(`InvalidCurrentVersion`), so its own condition refuses nothing.

## Why it matters for an upgrade
The CVO's `Upgradeable` precondition refuses a minor update while any operator says it is not safe
(`pkg/payload/precondition/clusterversion/upgradeable.go`): the update is never started, whatever the
nodes look like.

## Example
The kube-apiserver operator reports `Upgradeable=False`, reason `AdminAckRequired`, on 4.8 before
4.9 removes beta APIs.

## How to fix
Resolve what the condition names, then re-check; a z-stream update is still possible meanwhile.

## References
- cluster-version-operator: `pkg/payload/precondition/clusterversion/upgradeable.go`, `pkg/cvo/upgradeable.go`
- OpenShift, "Understanding update channels and releases": Upgradeable condition
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
