//! `budget/unavailable-exceeds-limit`: nodes already unavailable in a pool reach its limit.

use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/unavailable-exceeds-limit",
    severity: Severity::Blocker,
    title: "Nodes already down reach the pool's unavailable limit: the upgrade halts",
    needs_from: false,
    docs: r#"## What it checks
Counts, per pool, the nodes that are already unavailable (not `Ready`, or cordoned) and compares them with
the pool's resolved limit: RKE's `max_unavailable_worker` / `max_unavailable_controlplane` (percentages
rounded down, at least 1), the machine config pool's `maxUnavailable`, the node pool's concurrency. kOps
validates the whole cluster before each instance group and after each node, so any unavailable node
halts it.

## Why it matters for an upgrade
RKE scans for inactive hosts before it starts and aborts when they reach the limit; the Machine Config
Operator counts unavailable nodes against `maxUnavailable` and starts nothing while the pool is at it;
kOps stops at the first failed validation. The upgrade then hangs or fails before touching anything,
or worse, half way through.

## Example
RKE, 11 workers, `max_unavailable_worker: 25%` (2 at a time), `worker-3` and `worker-8` NotReady:
blocker, 2 unavailable >= limit 2.

## How to fix
Bring the nodes back (`kubectl get nodes`, the kubelet's logs) or remove them from the cluster before
upgrading; uncordon nodes left cordoned by earlier maintenance.

## References
- RKE upgrade strategy: <https://rke.docs.rancher.com/upgrades/configuring-strategy>
- OpenShift machine config pools, `maxUnavailable`
- kOps rolling update and cluster validation: <https://kops.sigs.k8s.io/operations/rolling-update/>
"#,
};

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for pool in ctx.pools() {
        let down: Vec<_> = pool.nodes.iter().filter_map(|i| ctx.nodes.get(*i)).filter(|n| n.unavailable()).collect();
        let Some(first) = down.first() else { continue };
        let limit = ctx.limit(&pool);
        let kops = ctx.profile() == Profile::Kops;
        if !kops && (down.len() as u64) < u64::from(limit.max_unavailable) {
            continue;
        }
        let names: Vec<&str> = down.iter().map(|n| n.name()).collect();
        let message = if kops {
            format!(
                "{} node(s) of instance group {} are not available ({}): kops validates the cluster before each group and after each node, so the rolling update stops",
                down.len(),
                pool.name,
                names.join(", ")
            )
        } else {
            format!(
                "{} node(s) of pool {} are already unavailable ({}), at or over its limit of {} ({}): {} would not start or would halt",
                down.len(),
                pool.name,
                names.join(", "),
                limit.max_unavailable,
                limit.how,
                ctx.profile()
            )
        };
        out.push(
            Finding::new(
                &INFO,
                message,
                "Bring the nodes back to Ready (or remove them from the cluster) and uncordon them before the upgrade.",
            )
            .object(first.obj)
            .data("pool", pool.name.clone())
            .data("unavailable", names)
            .data("limit", limit.max_unavailable),
        );
    }
}
