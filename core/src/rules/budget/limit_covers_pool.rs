//! `budget/limit-covers-pool`: the resolved limit is at least the pool's size.

use crate::budget::PoolRole;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/limit-covers-pool",
    severity: Severity::Warning,
    title: "The unavailable limit covers the whole pool",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Whether a pool's resolved limit (nodes allowed out at once) is at least the number of nodes in it, for
pools of two nodes or more.

## Why it matters for an upgrade
Then every node of the pool may be down at the same time, and the distribution still counts the upgrade
as a success if all of them fail: RKE's documentation calls such a value meaningless. Every workload in
the pool loses all its replicas at once.

## Example
RKE, 3 control-plane nodes, `max_unavailable_controlplane: 3`: warning. kOps, 4 nodes with `maxSurge: 4`
and `maxUnavailable: 1`: all 4 in flight.

## How to fix
Lower the limit below the pool's size (RKE's defaults, 10% of workers and 1 control-plane node, are safe),
so that some nodes keep serving while the others upgrade.

## References
- RKE upgrade strategy, maximum unavailable nodes: <https://rke.docs.rancher.com/upgrades/configuring-strategy>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for pool in ctx.pools() {
        let size = pool.nodes.len();
        if size < 2 || pool.role == PoolRole::Etcd {
            continue;
        }
        let limit = ctx.limit(&pool);
        if (limit.concurrency as usize) < size {
            continue;
        }
        let Some(first) = pool.nodes.first().and_then(|i| ctx.nodes.get(*i)) else {
            continue;
        };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "Pool {} has {size} nodes and up to {} may be out at once ({}): the whole pool can be down together",
                    pool.name, limit.concurrency, limit.how
                ),
                format!("Set the limit for pool {} below {size}, so part of it keeps serving.", pool.name),
            )
            .object(first.obj)
            .data("pool", pool.name.clone())
            .data("size", size)
            .data("limit", limit.concurrency),
        );
    }
}
