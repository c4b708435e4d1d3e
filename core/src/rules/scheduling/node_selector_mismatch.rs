//! `scheduling/node-selector-mismatch`: a running pod's node no longer satisfies its selector.

use super::{master_label_dropped_at, MASTER_LABEL};
use crate::cluster::scheduling::selector_matches;
use crate::report::{Finding, Severity};
use crate::rules::context::name_list;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "scheduling/node-selector-mismatch",
    severity: Severity::Blocker,
    title: "A running pod's node does not satisfy its nodeSelector or node affinity",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
For every running pod, whether the node it runs on satisfies its `nodeSelector` and its required node
affinity (`nodeSelectorTerms` OR-ed, expressions AND-ed, `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`,
`Lt`, `matchFields` on `metadata.name`) with the node's labels as they will be once the upgrade is
through: with the `kubeadm` profile, a path across 1.24 drops `node-role.kubernetes.io/master`.

## Why it matters for an upgrade
Node affinity is `IgnoredDuringExecution` only while the kubelet keeps running. When it restarts during
an upgrade it re-admits every pod on the node, and a pod whose selector no longer matches fails
admission with `MatchNodeSelector`: it is set Failed and its containers are killed. The seed's
1,000-node upgrade lost pods this way after node labels had been edited by hand.

## Example
A pod with `nodeSelector: {disk: ssd}` on a node whose `disk` label was removed last month: blocker.
A pod selecting `node-role.kubernetes.io/master` on a kubeadm control-plane node, upgrading 1.23 -> 1.24:
blocker at hop 1.24.

## How to fix
Relabel the node, or change the workload's selector (for the master label:
`node-role.kubernetes.io/control-plane`) and roll it out before the upgrade.

## References
- Assigning pods to nodes: <https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/>
- kubelet admission, `MatchNodeSelector` (seed: lossless cross-version upgrade, section 3.5)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let dropped = master_label_dropped_at(ctx);
    let mut bad = Vec::new();
    for (o, p, node) in ctx.running_pods() {
        let Some(i) = ctx.node_index(node) else { continue };
        let (Some(n), Some(after)) = (ctx.nodes.get(i), ctx.nodes_after().get(i)) else { continue };
        if selector_matches(&p.spec, after) {
            continue;
        }
        let by_upgrade = selector_matches(&p.spec, n.obj);
        bad.push((o, (node, by_upgrade)));
    }
    for (key, pods) in ctx.group_by_controller(bad) {
        let Some((first, (_, by_upgrade))) = pods.first() else {
            continue;
        };
        let by_upgrade = *by_upgrade;
        let subject =
            key.as_ref().map_or_else(|| format!("Pod {}", crate::model::display_ref(&first.r)), |k| k.display());
        let names: Vec<String> = pods.iter().map(|(o, (node, _))| format!("{} on {node}", o.r.name)).collect();
        let why = if by_upgrade {
            format!("the upgrade removes {MASTER_LABEL} from the node at hop {}", dropped.clone().unwrap_or_default())
        } else {
            "the node's labels no longer satisfy it".to_owned()
        };
        let mut f = Finding::new(
            &INFO,
            format!(
                "{subject}: {} pod(s) run on nodes that do not satisfy their nodeSelector/affinity ({}): {why}; when the kubelet restarts it rejects them (MatchNodeSelector) and kills their containers",
                pods.len(),
                name_list(&names, 5)
            ),
            if by_upgrade {
                "Select node-role.kubernetes.io/control-plane instead of node-role.kubernetes.io/master and roll the workload out before the upgrade."
            } else {
                "Relabel the nodes or fix the workload's selector, and roll it out before the upgrade."
            },
        )
        .object(key.as_ref().and_then(|k| ctx.workload_object(k)).unwrap_or(first))
        .data("pods", pods.len())
        .data("nodes", pods.iter().map(|(_, (n, _))| (*n).to_owned()).collect::<Vec<_>>());
        if by_upgrade {
            if let Some(h) = &dropped {
                f = f.hop(h.clone());
            }
        }
        out.push(f);
    }
}
