//! `disruption/single-replica`: a controller-managed workload runs one replica on a node that is drained.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/single-replica",
    severity: Severity::Warning,
    title: "A single-replica workload goes down when its node is drained",
    needs_from: false,
    docs: r#"## What it checks
Controller-managed workloads (Deployments, StatefulSets, ReplicaSets...; DaemonSets stay with their node)
with exactly one running pod, when the profile drains nodes before upgrading them.

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
"#,
};

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !ctx.drains() {
        return;
    }
    for (key, pods) in ctx.pods_by_controller() {
        if key.kind == "DaemonSet" || key.kind == "Node" {
            continue;
        }
        let [(pod, _, node)] = pods.as_slice() else { continue };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} runs a single replica ({} on {node}): it is down from the drain of {node} until its replacement is ready",
                    key.display(),
                    pod.r.name
                ),
                "Run at least two replicas, spread over nodes, with a PodDisruptionBudget of maxUnavailable: 1.",
            )
            .object(ctx.workload_object(&key).unwrap_or(pod))
            .data("node", *node),
        );
    }
}
