//! `progress/node-stuck`: a node the upgrade under way is at has stalled (its Machine Config Daemon reports
//! Degraded or Unreconcilable).

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::plan::progress::NODE_STUCK,
    severity: Severity::Blocker,
    title: "The upgrade under way has stalled on a node",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
When the snapshot shows an upgrade under way (the report's `progress` section): every node whose update
has stalled, as `oc adm upgrade status` reads it: the Machine Config Daemon's `state` annotation is
`Degraded` or `Unreconcilable` on a node with a `desiredConfig`, with its `reason` (for example "failed to
drain node: ... after 1 hour"). The finding says whether the plan made from the same snapshot stops at that
node too (a PodDisruptionBudget, a webhook, capacity the checks predict: its own finding names the cause) or
whether nothing the checks read predicts it.

With `--since` (the report taken before the upgrade started), a node still being upgraded past its window
in that plan by more than its planned step (and ten minutes), with no cause the checks see, is a warning:
what the plan did not predict, said as such.

## Why it matters for an upgrade
A stalled node holds its pool: the MCO counts it against `maxUnavailable` and the pool does not complete
until it is fixed (oc reports "Update Stalled", level Error). The rest of the plan waits behind it.

## Example
A worker pool mid-update; `worker-b-9lztv` has `state: Degraded`, `reason: failed to drain node ... after 1
hour`; a PodDisruptionBudget with `maxUnavailable: 0` covers a pod on it: a blocker naming the node, the
reason, and that the plan predicts it (`disruption/pdb-blocks-drain`).

## How to fix
Read the reason: for a drain, the PodDisruptionBudget or pod that refuses eviction (`oc get pdb -A`, the
machine-config-controller's logs); for an unreconcilable config, the MachineConfig it names. Once fixed,
the Machine Config Daemon resumes the update.

## References
- openshift/oc `pkg/cli/admin/upgrade/status/workerpool.go` (`isNodeDegraded`, node insights)
- machine-config-operator `pkg/daemon/constants/constants.go` (`MachineConfigDaemonStateDegraded`, `...Unreconcilable`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    // Past its planned window (`--since`) with no cause the checks see: worth a look, not yet a stall.
    for (i, over, end) in crate::plan::progress::overdue(ctx) {
        let Some(n) = ctx.nodes.get(i) else { continue };
        if ctx.windows().iter().any(|w| w.node == i && w.stuck.is_some()) {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} has been upgrading {} past its planned end ({} into the upgrade, in the plan given with --since); nothing the checks read explains it",
                    n.name(),
                    crate::units::duration(over),
                    crate::units::duration(end)
                ),
                "Look at the node (`kubectl describe node`, its kubelet's and the upgrade tool's logs): a drain waiting on a pod, an image pull, a reboot that did not come back.",
            )
            .object(n.obj)
            .data("overdueSeconds", over.to_string())
            .data("predicted", "false")
            .severity(Severity::Warning),
        );
    }
    let Some(u) = &ctx.underway else { return };
    for p in &u.nodes {
        let (Some(reason), Some(n)) = (&p.degraded, ctx.nodes.get(p.node)) else { continue };
        let predicted = ctx.windows().iter().any(|w| w.node == p.node && w.stuck.is_some());
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} is being upgraded to {} and its update has stalled: {reason}; {}",
                    n.name(),
                    u.target,
                    if predicted {
                        "the plan stops at this node too (see the finding that names its drain)"
                    } else {
                        "nothing the checks read predicts it"
                    }
                ),
                "Fix what the reason names (for a drain: the PodDisruptionBudget or pod that refuses eviction; the machine-config-controller's logs), then the Machine Config Daemon resumes.",
            )
            .object(n.obj)
            .data("reason", reason.clone())
            .data("predicted", predicted.to_string()),
        );
    }
}
