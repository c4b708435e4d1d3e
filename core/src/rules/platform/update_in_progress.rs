//! `platform/update-in-progress`: openShift: an earlier update has not completed.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::UPDATE_IN_PROGRESS,
    severity: Severity::Blocker,
    title: "An earlier update has not completed",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`: whether the `ClusterVersion` is progressing (`Progressing=True`) or its newest
`status.history` entry is `Partial`. While the CVO is still progressing, a minor update beyond the release
being reconciled is a blocker; otherwise (a z-stream retarget, or an abandoned update) a warning. The plan
starts from `status.desired`, where the CVO is. A `spec.desiredUpdate.version` the CVO has not accepted yet
(the target the cluster is already headed for) is a warning too.

Under `--profile gke-baremetal`: whether the cluster's `Cluster` object has a `spec.anthosBareMetalVersion`
other than its `status.anthosBareMetalVersion` (bmctl sets the spec when an upgrade starts and the status
when it succeeds): a warning; the plan starts from the status.

## Why it matters for an upgrade
During an update the CVO's own `Upgradeable` is False (`UpdateInProgress`): a further minor is refused
until the current one completes. An update that never completed leaves parts of the control plane on the
older release.

## Example
History: 4.11.0 Partial, 4.10.22 Completed, `Progressing=True`; `--to 4.12.3` is refused.

## How to fix
Let the running update complete (`oc adm upgrade`), or find why it stopped (the ClusterOperators'
conditions) before starting another.

## References
- cluster-version-operator: `pkg/payload/precondition/clusterversion/upgradeable.go` (in-progress retargets)
- OpenShift API: ClusterVersion `status.history` (Completed, Partial)
- Google Distributed Cloud for bare metal, "Lifecycle and stages of cluster upgrades": `spec` and `status.anthosBareMetalVersion`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
