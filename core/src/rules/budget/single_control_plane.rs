//! `budget/single-control-plane`: one control-plane node.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/single-control-plane",
    severity: Severity::Warning,
    title: "A single control-plane node: the API is down while it upgrades",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Whether the snapshot has exactly one control-plane node.

## Why it matters for an upgrade
With one kube-apiserver (and usually one etcd member) the API is unavailable for the whole control-plane
step: controllers stop reconciling, deployments cannot roll, and `kubectl` fails. Running pods keep
running, but nothing can be changed or rescheduled until it is back.

## Example
`cp-1` is the only node labelled `node-role.kubernetes.io/control-plane`: warning.

## How to fix
Add control-plane nodes (three, for etcd quorum) before upgrading, or schedule the upgrade in a
maintenance window and expect API downtime for the control-plane step.

## References
- Creating highly available clusters with kubeadm: <https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/high-availability/>
- GKE on Bare Metal, expected downtime without an HA control plane
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let cps: Vec<_> = ctx.nodes.iter().filter(|n| n.is_control_plane()).collect();
    let [only] = cps.as_slice() else { return };
    out.push(
        Finding::new(
            &INFO,
            format!("{} is the only control-plane node: the Kubernetes API is down while it upgrades", only.name()),
            "Add control-plane nodes (3 for etcd quorum), or plan a maintenance window for the control-plane step.",
        )
        .object(only.obj)
        .data("node", only.name()),
    );
}
