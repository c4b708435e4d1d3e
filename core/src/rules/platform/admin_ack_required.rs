//! `platform/admin-ack-required`: openShift: an admin gate of the current release is not acknowledged.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::ADMIN_ACK_REQUIRED,
    severity: Severity::Blocker,
    title: "OpenShift: an admin gate is not acknowledged",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, for a minor update: each key of `openshift-config-managed/admin-gates`
of the form `ack-4.N-...` whose major and minor are the cluster's current OpenShift version must be set
to `"true"` in `openshift-config/admin-acks`. Keys of other versions (another minor, a `5.N` gate on a 4.x
cluster) do not apply. A key the CVO cannot read blocks whatever the version, as the CVO reports it: one
not of the form `^ack-([4-5][.][0-9]{1,})-[^-]`, or whose `4.N.0` is no SemVer (a leading zero, `4.015`;
a minor past 64 bits); so does a gate with no description.

## Why it matters for an upgrade
The CVO sets `Upgradeable=False` with reason `AdminAckRequired` until an administrator acknowledges
each gate, and so refuses the minor update. Gates mark changes the administrator must act on first, such
as APIs the next minor removes.

## Example
`admin-gates` holds `ack-4.15-kube-1.29-api-removals-in-4.16`; `admin-acks` does not: 4.15 -> 4.16 is
refused.

## How to fix
Do what the gate's text asks (for API removals: move the clients off the removed APIs), then
`oc -n openshift-config patch cm admin-acks --patch '{"data":{"<gate>":"true"}}' --type=merge`.

## References
- cluster-version-operator: `pkg/cvo/upgradeable.go` (admin gates and acks; release-4.22),
  `pkg/risk/adminack/adminack.go` (`gateApplicableToCurrentVersion`) and its tests
- OpenShift, "Preparing to update to OpenShift Container Platform 4.16": providing the administrator acknowledgment
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
