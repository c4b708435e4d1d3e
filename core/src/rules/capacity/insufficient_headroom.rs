//! `capacity/insufficient-headroom`: with the most nodes out at once, the rest cannot fit the evicted pods.

use crate::budget::PoolRole;
use crate::cluster::is_mirror;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "capacity/insufficient-headroom",
    severity: Severity::Warning,
    title: "The nodes left up cannot hold the evicted pods' requests",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
For each worker pool, when the profile drains: take the pool's resolved concurrency (the most nodes out
at once) and, as the worst case, the nodes whose evictable pods (DaemonSets and static pods left out)
request the most CPU and memory. Compare those requests with the free allocatable CPU and memory
(allocatable minus the requests already placed) of every other Ready, schedulable worker node, plus what
surge nodes add (kOps `maxSurge`).

## Why it matters for an upgrade
Evicted pods that fit nowhere stay Pending until a node returns: the drain still succeeds, so the outage
is silent. Tight clusters upgraded with a wide window lose capacity exactly when they need it.

## Example
Four workers at 80% of their memory requested, 2 drained at a time: warning with the needed and the free
bytes.

## How to fix
Lower the concurrency (`maxUnavailable`), surge nodes before draining (kOps `maxSurge`), add a node for
the upgrade, or right-size the requests.

## References
- Resource management for pods: <https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/>
"#;

fn gib(bytes: i64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !ctx.drains() {
        return;
    }
    // Requests placed on each node, and the part that a drain would move.
    let n = ctx.nodes.len();
    let mut placed = vec![(0i64, 0i64); n];
    let mut evictable = vec![(0i64, 0i64); n];
    for (o, p, node) in ctx.running_pods() {
        let Some(i) = ctx.node_index(node) else {
            continue;
        };
        let r = p.spec.requests;
        if let Some(slot) = placed.get_mut(i) {
            slot.0 = slot.0.saturating_add(r.cpu_millis);
            slot.1 = slot.1.saturating_add(r.memory_bytes);
        }
        let stays = is_mirror(o) || ctx.is_daemon_pod(o);
        if !stays {
            if let Some(slot) = evictable.get_mut(i) {
                slot.0 = slot.0.saturating_add(r.cpu_millis);
                slot.1 = slot.1.saturating_add(r.memory_bytes);
            }
        }
    }
    let workers: Vec<usize> =
        (0..n).filter(|i| ctx.nodes.get(*i).is_some_and(|v| v.is_worker() && !v.is_control_plane())).collect();
    for pool in ctx.pools() {
        if pool.role != PoolRole::Worker || pool.nodes.is_empty() {
            continue;
        }
        let limit = ctx.limit(&pool);
        let out_at_once = (limit.concurrency.max(1) as usize).min(pool.nodes.len());
        // Worst case: the nodes carrying the most, by memory then CPU.
        let mut by_load = pool.nodes.clone();
        by_load.sort_by_key(|i| std::cmp::Reverse(evictable.get(*i).map(|e| (e.1, e.0)).unwrap_or_default()));
        let drained: Vec<usize> = by_load.into_iter().take(out_at_once).collect();
        let need = drained
            .iter()
            .filter_map(|i| evictable.get(*i))
            .fold((0i64, 0i64), |a, e| (a.0.saturating_add(e.0), a.1.saturating_add(e.1)));
        if need == (0, 0) {
            continue;
        }
        let mut free = (0i64, 0i64);
        for i in &workers {
            let Some(v) = ctx.nodes.get(*i) else { continue };
            if drained.contains(i) || !v.ready() || v.info.unschedulable {
                continue;
            }
            let used = placed.get(*i).copied().unwrap_or_default();
            free.0 = free.0.saturating_add(v.info.allocatable.cpu_millis.saturating_sub(used.0).max(0));
            free.1 = free.1.saturating_add(v.info.allocatable.memory_bytes.saturating_sub(used.1).max(0));
        }
        if limit.max_surge > 0 {
            // A surge node is like the pool's largest node, empty.
            let biggest = pool
                .nodes
                .iter()
                .filter_map(|i| ctx.nodes.get(*i))
                .map(|v| v.info.allocatable)
                .max_by_key(|a| (a.memory_bytes, a.cpu_millis))
                .unwrap_or_default();
            free.0 = free.0.saturating_add(biggest.cpu_millis.saturating_mul(i64::from(limit.max_surge)));
            free.1 = free.1.saturating_add(biggest.memory_bytes.saturating_mul(i64::from(limit.max_surge)));
        }
        if need.0 <= free.0 && need.1 <= free.1 {
            continue;
        }
        let names: Vec<&str> = drained.iter().filter_map(|i| ctx.nodes.get(*i)).map(|v| v.name()).collect();
        let Some(first) = drained.first().and_then(|i| ctx.nodes.get(*i)) else {
            continue;
        };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "Pool {}: with {} node(s) out at once ({}), the evicted pods request {}m CPU and {}, but the other ready workers have only {}m CPU and {} free: some pods stay Pending",
                    pool.name,
                    drained.len(),
                    names.join(", "),
                    need.0,
                    gib(need.1),
                    free.0,
                    gib(free.1)
                ),
                "Lower the pool's concurrency, surge nodes before draining, or add a node for the upgrade.",
            )
            .object(first.obj)
            .data("pool", pool.name.clone())
            .data("nodesOut", names)
            .data("neededCpuMillis", need.0)
            .data("neededMemoryBytes", need.1)
            .data("freeCpuMillis", free.0)
            .data("freeMemoryBytes", free.1),
        );
    }
}
