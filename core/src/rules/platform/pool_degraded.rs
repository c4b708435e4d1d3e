//! `platform/pool-degraded`: openShift: a MachineConfigPool is Degraded.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::platform::POOL_DEGRADED,
    severity: Severity::Blocker,
    title: "OpenShift: a MachineConfigPool is degraded",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`: every `MachineConfigPool` with `Degraded=True` (which a degraded machine
sets, through `NodeDegraded`; the finding gives `degradedMachineCount`) or `BuildInterrupted=True`. For a
minor update it is a blocker (the MCO reports `Upgradeable=False`, reason `DegradedPool` or
`InterruptedBuild`); within a minor, a warning: the pool's degraded nodes are not updated until fixed.

## Why it matters for an upgrade
The machine-config operator refuses to let the cluster move to the next minor while a pool is degraded
(`pkg/operator/status.go`), and a degraded node does not take a new configuration.

## Example
`oc get mcp`: worker `DEGRADED True`, `DEGRADEDMACHINECOUNT 1`.

## How to fix
Find the degraded node (`oc get mcp worker -o yaml`, the machine-config-daemon's logs), fix what it
names, and let the pool settle before the update.

## References
- machine-config-operator: `pkg/operator/status.go` (`syncUpgradeableStatus`)
- OpenShift, "Machine config pool status"
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    super::report(ctx, &INFO, out);
}
