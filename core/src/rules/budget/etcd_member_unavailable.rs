//! `budget/etcd-member-unavailable`: an etcd member's node is not ready.

use super::etcd_members;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/etcd-member-unavailable",
    severity: Severity::Blocker,
    title: "An etcd member's node is not ready",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Finds the etcd members (RKE's `node-role.kubernetes.io/etcd` nodes; elsewhere the control-plane nodes,
where etcd is stacked) whose node is not `Ready`.

## Why it matters for an upgrade
etcd is upgraded one member at a time and each restart costs one member of the quorum
(floor(n/2) + 1). With a member already down, restarting a healthy one can lose quorum and take the API
down; RKE fails the whole upgrade when any etcd member fails during its step.

## Example
Three etcd nodes, `etcd-2` NotReady: blocker. Restarting `etcd-1` would leave one healthy member of three.

## How to fix
Repair or replace the member first (`etcdctl member list`, `endpoint health`), check the cluster is
healthy with all members, take a snapshot, then upgrade.

## References
- etcd FAQ, failure tolerance: <https://etcd.io/docs/v3.5/faq/>
- RKE upgrade flow: etcd nodes are upgraded one by one and any failure fails the upgrade
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let members = etcd_members(ctx);
    let n = members.len();
    let quorum = n / 2 + 1;
    let healthy = members.iter().filter(|m| m.ready()).count();
    for m in members.iter().filter(|m| !m.ready()) {
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "etcd member {} is not Ready: {healthy} of {n} members are healthy and quorum is {quorum}, so restarting another member during the upgrade {}",
                    m.name(),
                    if healthy > quorum { "leaves no margin" } else { "loses quorum" }
                ),
                format!("Repair or replace the etcd member on {} and check `etcdctl endpoint health` before upgrading.", m.name()),
            )
            .object(m.obj)
            .data("node", m.name())
            .data("members", n)
            .data("healthy", healthy)
            .data("quorum", quorum),
        );
    }
}
