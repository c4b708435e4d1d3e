//! `disruption/single-replica`: a controller-managed workload runs one replica on a node that is drained.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/single-replica",
    severity: Severity::Warning,
    title: "A single-replica workload goes down when its node is drained",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Controller-managed workloads (Deployments, StatefulSets, ReplicaSets...; DaemonSets stay with their node)
with exactly one running pod that the plan's simulation shows going down: its node is drained (not
upgraded in place). The seconds are the same as in `downtime.workloads`.

## Why it matters for an upgrade
The drain evicts the only pod: the workload is down from the eviction until the replacement is scheduled,
pulls its image, starts and passes its readiness probe, or until the node returns if the pod cannot move.
The plan's `downtime.workloads` gives the expected seconds.

## Example
`Deployment shop/catalog` with `replicas: 1` on `worker-a1`: warning.

## How to fix
Run two replicas or more (with a PodDisruptionBudget of `maxUnavailable: 1`), or accept and announce the
gap.

## References
- Disruptions: <https://kubernetes.io/docs/concepts/workloads/pods/disruptions/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(outcomes) = ctx.workload_outcomes() else { return };
    for w in outcomes.iter().filter(|w| w.replicas == 1 && w.seconds > 0) {
        let node = w.nodes.first().cloned().unwrap_or_default();
        let mut f = Finding::new(
            &INFO,
            format!(
                "{} runs a single replica, on {node}: it is down for about {} in all while {node} {}{}",
                w.key.display(),
                crate::units::duration(w.seconds),
                if ctx.drains() { "is drained" } else { "is upgraded in place" },
                w.causes.iter().map(|c| format!("; {c}")).collect::<String>()
            ),
            "Run at least two replicas, spread over nodes, with a PodDisruptionBudget of maxUnavailable: 1.",
        )
        .data("node", node)
        .data("seconds", w.seconds);
        if let Some(o) = ctx.representative(&w.key) {
            f = f.object(o);
        }
        out.push(f);
    }
}
