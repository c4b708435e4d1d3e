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
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Running pods with no `ownerReferences` (static pods' mirrors left out), when the profile drains nodes,
against the drain's `force` flag (docs/semantics.md, "Drain flags"): kOps and the Machine Config Operator
drain with `Force` on, so the pod is deleted (warning); RKE builds its drain from
`node_drain_input.force` (default false), and kubectl's drain helper then refuses the pod and fails
the drain: the host fails and RKE stops (blocker); under kubeadm, your own `kubectl drain` without
`--force` (kubectl's default, and `drainForce: false`) refuses it the same way and exits with an error
(blocker: the plan stops on that node, `plan.stops`, and `plan.ifResolved` shows the rest with the pod
deleted). `drainForce: true` says you pass `--force`: the pod is deleted for good (warning).

## Why it matters for an upgrade
Nothing recreates such a pod: `kubectl drain` refuses to go on without `--force`, and with it (as the
distributions' drains do) the pod is deleted for good, with whatever it was doing.

## Example
`Pod default/debug-shell` started with `kubectl run` on `worker-b1`: warning.

## How to fix
Delete it if it is a leftover, or run it under a Deployment, StatefulSet or Job.

## References
- Safely drain a node: <https://kubernetes.io/docs/tasks/administer-cluster/safely-drain-node/>
- kubectl `staging/src/k8s.io/kubectl/pkg/drain/filters.go` (`unreplicatedFilter`); RKE `services/node_util.go` (`getDrainHelper`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(flags) = ctx.drain_flags() else { return };
    for (o, _, node) in ctx.running_pods() {
        let orphaned = ctx.orphaned_daemon_pod(o);
        if !(crate::cluster::drain::unmanaged(o) || orphaned) || is_mirror(o) {
            continue;
        }
        let f = if flags.force {
            Finding::new(
                &INFO,
                format!(
                    "{} on {node} {}: {} deletes it and nothing brings it back",
                    display_ref(&o.r),
                    if orphaned { "belongs to a DaemonSet that is gone" } else { "has no controller" },
                    flags.who
                ),
                "Delete it if it is a leftover, or run it under a Deployment, StatefulSet or Job.",
            )
        } else {
            let f = Finding::new(
                &INFO,
                format!(
                    "{} on {node} {}: {} runs without force, so it refuses the pod and the drain of {node} fails ({})",
                    display_ref(&o.r),
                    if orphaned { "belongs to a DaemonSet that is gone" } else { "has no controller" },
                    flags.who,
                    flags.failure()
                ),
                format!(
                    "Delete the pod or run it under a controller, or let the drain delete it ({}).",
                    flags.set_force
                ),
            );
            // The drain fails and the plan stops on it (`Cluster::drain_stall`).
            f.severity(Severity::Blocker)
        };
        out.push(f.object(o).data("node", node).data("force", flags.force));
    }
}
