//! `budget/etcd-no-fault-tolerance`: etcd has fewer than 3 members, or an even count.

use super::etcd_members;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/etcd-no-fault-tolerance",
    severity: Severity::Warning,
    title: "etcd cannot lose a member while it upgrades",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Counts the etcd members (RKE's etcd nodes; elsewhere the control-plane nodes) and reports a count below 3
or an even count.

## Why it matters for an upgrade
Quorum is floor(n/2) + 1. Upgrading restarts one member at a time: with 1 member the API is down while it
restarts; with 2, the restart leaves 1 of 2, below quorum; an even count tolerates no more failures than
one member fewer (4 tolerates 1, like 3) while adding a voter to every write.

## Example
Two control-plane nodes with stacked etcd: warning, quorum 2, no member can restart without an outage.

## How to fix
Run 3 (or 5) etcd members. If that is not possible now, plan the upgrade in a maintenance window: the
API is unavailable while each member restarts.

## References
- etcd FAQ, why an odd number of members: <https://etcd.io/docs/v3.5/faq/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let members = etcd_members(ctx);
    let n = members.len();
    let Some(first) = members.first() else { return };
    if n >= 3 && n % 2 == 1 {
        return;
    }
    let quorum = n / 2 + 1;
    let tolerates = n - quorum;
    let names: Vec<&str> = members.iter().map(|m| m.name()).collect();
    out.push(
        Finding::new(
            &INFO,
            format!(
                "etcd has {n} member(s) ({}): quorum is {quorum}, so it tolerates {tolerates} failure(s){}",
                names.join(", "),
                if n < 3 {
                    " and restarting a member during the upgrade takes the API down"
                } else {
                    ", no more than with one member fewer"
                }
            ),
            "Run an odd number of at least 3 etcd members, or plan for API downtime while each member restarts.",
        )
        .object(first.obj)
        .data("members", n)
        .data("quorum", quorum)
        .data("tolerates", tolerates),
    );
}
