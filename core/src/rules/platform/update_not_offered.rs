//! `platform/update-not-offered`: openShift: the target is not an update the cluster's channel offers.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::UPDATE_NOT_OFFERED,
    severity: Severity::Blocker,
    title: "OpenShift: the channel does not offer the target",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, with a live `ClusterVersion`: whether the target is in `status.availableUpdates`
or `status.conditionalUpdates`. For a path of several minors, whether the channel offers any update on the
first hop's minor. An empty `spec.channel` offers nothing.

## Why it matters for an upgrade
The CVO only takes a version-only desired update that the update service offers ("when image is empty the
update must be an available update"): `oc adm upgrade --to` refuses anything else. A target outside the
graph is not tested as an update from the current release.

## Example
Channel `stable-4.11` offers 4.11.41 and 4.11.42 from 4.10.22; `--to 4.11.43` is not an edge.

## How to fix
Pick a version the channel offers (`oc adm upgrade`), or switch to the channel that carries it
(`oc adm upgrade channel fast-4.11`); update one minor at a time.

## References
- OpenShift, "Updating a cluster using the CLI"; "Understanding update channels and releases"
- cluster-version-operator: ClusterVersion validation of `spec.desiredUpdate`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
