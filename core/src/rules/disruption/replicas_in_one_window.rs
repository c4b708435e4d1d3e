//! `disruption/replicas-in-one-window`: all replicas of a workload are on nodes in flight at the same time.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/replicas-in-one-window",
    severity: Severity::Warning,
    title: "All replicas of a workload are drained at the same time",
    needs_from: false,
    docs: r#"## What it checks
Workloads with two replicas or more (DaemonSets left out) whose running pods all sit on one node, so that
one drain takes every replica at once.

## Why it matters for an upgrade
Replicas only help if some keep serving while the others move. When they share a node, the drain evicts
them together and the workload is down until the replacements are ready, as if it had one replica.

## Example
`Deployment shop/cart` with 2 replicas, both on `worker-a2`: warning.

## How to fix
Spread the replicas with `topologySpreadConstraints` or pod anti-affinity on `kubernetes.io/hostname`,
and roll the workload out before the upgrade.

## References
- Pod topology spread constraints: <https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/>
"#,
};

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !ctx.drains() {
        return;
    }
    for (key, pods) in ctx.pods_by_controller() {
        if key.kind == "DaemonSet" || pods.len() < 2 {
            continue;
        }
        let Some((first, _, node)) = pods.first() else { continue };
        if pods.iter().any(|(_, _, n)| n != node) {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!("{}: all {} replicas run on {node}, so its drain takes every replica at once", key.display(), pods.len()),
                "Spread the replicas over nodes (topologySpreadConstraints or pod anti-affinity on kubernetes.io/hostname).",
            )
            .object(ctx.workload_object(&key).unwrap_or(first))
            .data("replicas", pods.len())
            .data("nodes", vec![(*node).to_owned()]),
        );
    }
}
