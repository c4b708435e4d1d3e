//! `disruption/unmanaged-pod`: a pod with no controller is deleted for good by the drain.

use super::is_mirror;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/unmanaged-pod",
    severity: Severity::Warning,
    title: "A pod with no controller is deleted for good by the drain",
    needs_from: false,
    docs: r#"## What it checks
Running pods with no `ownerReferences` (static pods' mirrors left out), when the profile drains nodes.

## Why it matters for an upgrade
Nothing recreates such a pod: `kubectl drain` refuses to go on without `--force`, and with it (as the
distributions' drains do) the pod is deleted for good, with whatever it was doing.

## Example
`Pod default/debug-shell` started with `kubectl run` on `worker-b1`: warning.

## How to fix
Delete it if it is a leftover, or run it under a Deployment, StatefulSet or Job.

## References
- Safely drain a node: <https://kubernetes.io/docs/tasks/administer-cluster/safely-drain-node/>
"#,
};

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !ctx.drains() {
        return;
    }
    for (o, _, node) in ctx.running_pods() {
        if !o.owners.is_empty() || is_mirror(o) {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} on {node} has no controller: the drain deletes it and nothing brings it back",
                    display_ref(&o.r)
                ),
                "Delete it if it is a leftover, or run it under a Deployment, StatefulSet or Job.",
            )
            .object(o)
            .data("node", node),
        );
    }
}
