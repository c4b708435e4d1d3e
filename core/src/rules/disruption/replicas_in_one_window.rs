//! `disruption/replicas-in-one-window`: all replicas of a workload are on nodes in flight at the same time.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/replicas-in-one-window",
    severity: Severity::Warning,
    title: "All replicas of a workload are drained at the same time",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Workloads with two replicas or more (DaemonSets left out) that the plan's simulation shows with every
replica down at the same moment: all on one node, or on nodes drained in the same window (a pool's
concurrency lets them go together). The seconds are the same as in `downtime.workloads`.

## Why it matters for an upgrade
Replicas only help if some keep serving while the others move. When they share a node, the drain evicts
them together and the workload is down until the replacements are ready, as if it had one replica.

## Example
`Deployment shop/cart` with 2 replicas, both on `worker-a2`: warning. Two replicas on `w-1` and `w-2`
with RKE's `max_unavailable_worker: 50%` over 4 workers: both drained together, warning.

## How to fix
Spread the replicas with `topologySpreadConstraints` or pod anti-affinity on `kubernetes.io/hostname`,
and roll the workload out before the upgrade.

## References
- Pod topology spread constraints: <https://kubernetes.io/docs/concepts/scheduling-eviction/topology-spread-constraints/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(outcomes) = ctx.workload_outcomes() else { return };
    for w in outcomes.iter().filter(|w| w.same_window) {
        let mut f = Finding::new(
            &INFO,
            format!(
                "{}: all {} replicas are on nodes that are out at the same time ({}): down for about {}",
                w.key.display(),
                w.replicas,
                w.nodes.join(", "),
                crate::units::duration(w.seconds)
            ),
            "Spread the replicas over nodes that are not upgraded together (topologySpreadConstraints or pod anti-affinity on kubernetes.io/hostname), or lower the pool's concurrency.",
        )
        .data("replicas", w.replicas)
        .data("nodes", w.nodes.clone())
        .data("seconds", w.seconds);
        if let Some(o) = ctx.representative(&w.key) {
            f = f.object(o);
        }
        out.push(f);
    }
}
