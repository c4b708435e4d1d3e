//! `platform/operator-incompatible`: openShift: an installed operator does not support the target release.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::OPERATOR_INCOMPATIBLE,
    severity: Severity::Blocker,
    title: "OpenShift: an operator does not support the target",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`, for a minor update: every installed `ClusterServiceVersion` (OLM's copies in
other namespaces left out) that declares `olm.maxOpenShiftVersion` in its properties
(`operatorframework.io/properties`, or `olm.properties` in a manifest) below the target's minor. A value
OLM cannot read (two of them, a patch, a pre-release) blocks too, as it does in OLM.

## Why it matters for an upgrade
OLM reports `Upgradeable=False` (`IncompatibleOperatorsInstalled`) on its ClusterOperator, so the CVO
refuses the minor update until the operator is updated or removed.

## Example
An operator with `olm.maxOpenShiftVersion: "4.15"` installed; the target is 4.16.3.

## How to fix
Update the operator to a release that supports the target (its channel), or uninstall it.

## References
- operator-lifecycle-manager: `pkg/controller/operators/openshift/helpers.go` (incompatible operators)
- OpenShift, "Operator Lifecycle Manager: maxOpenShiftVersion"
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
