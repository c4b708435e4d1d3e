//! `platform/operator-degraded`: openShift: a ClusterOperator is not Available or is Degraded.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::OPERATOR_DEGRADED,
    severity: Severity::Blocker,
    title: "OpenShift: a ClusterOperator is down or degraded",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`: every `ClusterOperator` with `Available` not `True` or `Degraded=True`.
Operators with no conditions at all (manifests, not live objects) are not judged.

## Why it matters for an upgrade
The CVO applies the release runlevel by runlevel and waits, before the next runlevel, until every
operator of the current one is Available, not Degraded and at the new version. A broken operator holds
the update there: the control plane is part-updated and the MCO, which updates the nodes, comes last.
The plan stops at that point.

## Example
The kube-apiserver ClusterOperator reports `Degraded=True` (`NodeInstaller_InstallerPodFailed`).

## How to fix
Fix the operator first (`oc describe clusteroperator <name>`, its operator's logs); update once every
operator is Available and none is Degraded.

## References
- OpenShift, "How cluster updates work": the CVO's runlevels and operator conditions
- cluster-version-operator: `pkg/cvo/internal/operatorstatus.go`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
