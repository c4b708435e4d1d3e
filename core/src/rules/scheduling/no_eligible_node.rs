//! `scheduling/no-eligible-node`: once its node is drained, no other ready node fits the pod.

use crate::report::{Finding, Severity};
use crate::rules::context::{display_ref, name_list};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "scheduling/no-eligible-node",
    severity: Severity::Warning,
    title: "Once its node is drained, no other node can take the pod",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
For each controller-managed pod (DaemonSet pods stay with their node and are left out): is there another
node that is Ready, schedulable, satisfies the pod's `nodeSelector` and required node affinity (with the
labels the upgrade leaves), and whose `NoSchedule`/`NoExecute` taints the pod tolerates? Workloads with no
running pod are checked against every node.

## Why it matters for an upgrade
Every node is drained in turn. A pod that only its own node can take stays Pending until that node
returns: a whole node upgrade of downtime, or for ever when the label or taint it needs goes away with
the upgrade.

## Example
A single GPU node `gpu-1` (tainted `nvidia.com/gpu`), a trainer pinned to it by
`nodeSelector: {accelerator: nvidia-a10g}`: warning, the trainer is Pending while `gpu-1` upgrades.

## How to fix
Add a second node that fits (or surge one), relax the selector, or accept the pause and plan it: kOps
`maxSurge`, or cordon and drain that node by hand at a quiet time.

## References
- Assigning pods to nodes: <https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/>
- Taints and tolerations: <https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let eligible = |spec: &crate::model::PodSpec| ctx.eligible_nodes(spec);
    // Sorted (a list rather than a B-tree set: one set type less in the wasm), each looked up by a binary search.
    let mut with_pods = Vec::new();
    for (key, pods) in ctx.pods_by_controller() {
        if key.kind == "DaemonSet" || ctx.nodes.is_empty() {
            continue;
        }
        let Some((first, p0, _)) = pods.first() else { continue };
        with_pods.push((key.kind, key.namespace, key.name));
        let fit = eligible(&p0.spec);
        // A pod's own volumes (zonal or local) may narrow where it can go.
        let stuck: Vec<String> = pods
            .iter()
            .filter(|(o, p, node)| {
                // A pod already being deleted is not moved: its controller has replaced it.
                if p.terminating {
                    return false;
                }
                let fit = ctx.pod_eligible(o, &p.spec, &fit);
                !fit.iter().any(|i| ctx.nodes.get(*i).is_some_and(|n| n.name() != *node))
            })
            .map(|(o, _, node)| format!("{} on {node}", o.r.name))
            .collect();
        if stuck.is_empty() {
            continue;
        }
        let fit_names: Vec<String> =
            fit.iter().filter_map(|i| ctx.nodes.get(*i)).map(|n| n.name().to_owned()).collect();
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{}: {} pod(s) have nowhere to go when their node is drained ({}); nodes that fit: {}",
                    key.display(),
                    stuck.len(),
                    name_list(&stuck, 5),
                    if fit_names.is_empty() { "none".to_owned() } else { fit_names.join(", ") }
                ),
                "Add a node that satisfies the selector, affinity and taints (or surge one), or relax the selector, before the upgrade.",
            )
            .object(ctx.workload_object(key).unwrap_or(first))
            .data("pods", stuck.len())
            .data("eligibleNodes", fit_names),
        );
    }
    // In key order already (the controllers' map is sorted); sorted again to be sure (a pass when it is).
    crate::sort::sort(&mut with_pods);
    // Workloads with no running pod: is there any node at all?
    if ctx.nodes.is_empty() {
        return;
    }
    for (o, spec) in ctx.pod_specs() {
        if o.r.kind == "DaemonSet" || o.owners.is_empty() && o.pod().is_some() {
            continue;
        }
        let ns = o.r.namespace.as_deref().unwrap_or_default();
        if with_pods.binary_search(&(o.r.kind.as_str(), ns, o.r.name.as_str())).is_ok() {
            continue;
        }
        if matches!(&o.body, crate::model::Body::Workload(w) if w.replicas == Some(0)) {
            continue;
        }
        if eligible(spec).is_empty() {
            out.push(
                Finding::new(
                    &INFO,
                    format!(
                        "{}: no node satisfies its selector, affinity and taints after the upgrade: its pods cannot be scheduled anywhere",
                        display_ref(&o.r)
                    ),
                    "Fix the workload's selector and tolerations, or label and untaint a node for it.",
                )
                .object(o)
                .data("eligibleNodes", Vec::<String>::new()),
            );
        }
    }
}
