//! `platform/update-not-recommended`: openShift: the target is a conditional update that is not recommended for this cluster.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::UPDATE_NOT_RECOMMENDED,
    severity: Severity::Blocker,
    title: "OpenShift: the target update is not recommended",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, with the `ClusterVersion` in the inputs (`oc get clusterversion version -o yaml`):
whether the target sits in `status.conditionalUpdates` with a `Recommended` condition that is not `True`.
The finding names each known risk (its name, message and URL), as `oc adm upgrade --include-not-recommended`
prints them. Risks named in `spec.desiredUpdate.acceptRisks` (API versions that have it) are accepted.

## Why it matters for an upgrade
The cluster-version operator evaluates every conditional update's risks against this cluster and stores the
result. `oc adm upgrade --to` refuses a not-recommended target unless given `--allow-not-recommended`: the
update service knows of a problem that matches this cluster (a bug that stalls nodes, a platform issue).

## Example
4.10.22 -> 4.11.0 where `conditionalUpdates` lists 4.11.0 with `Recommended=False`, reason
`RPMOSTreeTimeout`: "Nodes with substantial numbers of containers and CPU contention may not reconcile
machine configuration".

## How to fix
Choose a recommended update (`oc adm upgrade` lists them), or a later release that fixes the risk. To
accept the risk knowingly, `oc adm upgrade --to <version> --allow-not-recommended`, and record it as an
exemption of this rule (or in `acceptRisks`).

## References
- OpenShift, "How cluster updates work": evaluation of update availability, conditional updates
- cluster-version-operator: `pkg/cvo/availableupdates.go`; `oc adm upgrade` (`pkg/cli/admin/upgrade`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
