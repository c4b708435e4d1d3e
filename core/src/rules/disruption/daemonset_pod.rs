//! `disruption/daemonset-pod`: RKE's drain without `ignore_daemonsets` refuses every DaemonSet's pod.

use super::is_mirror;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: crate::cluster::drain::DAEMONSET_POD,
    severity: Severity::Blocker,
    title: "The drain refuses DaemonSet pods (RKE's ignore_daemonsets: false)",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile rke` (or `rke-legacy`) with `drain: true`, whether `cluster.yml` sets
`upgrade_strategy.node_drain_input.ignore_daemonsets: false`, and running pods of a DaemonSet that
exists (static pods' mirrors and finished pods left out) are on the nodes. RKE builds its drain helper
with `IgnoreAllDaemonSets` from that field (true when it is absent or true), and kubectl's drain helper
refuses a node with such a pod unless it is set: the drain fails, the host fails and RKE stops (blocker,
one finding per DaemonSet; the plan stops at the first node drained with one of its pods, `plan.stops`,
and `plan.ifResolved` shows the rest with the field at its default). The other distributions' drains
always ignore DaemonSet pods, as kubeadm's upgrade guide's `kubectl drain --ignore-daemonsets` does.

## Why it matters for an upgrade
A DaemonSet's pod would be recreated on the same node at once (its controller tolerates the cordon), so
`kubectl drain` never deletes it: without `--ignore-daemonsets` it refuses the whole node instead
("cannot delete DaemonSet-managed Pods"). Almost every node runs one (kube-proxy, the CNI, log agents),
so the first drain fails and the upgrade stops there.

## Example
`cluster.yml` with `drain: true` and `node_drain_input: {ignore_daemonsets: false}`, `DaemonSet
kube-system/canal` on every node: blocker, the first worker's drain fails.

## How to fix
Remove `ignore_daemonsets: false` from `upgrade_strategy.node_drain_input` (RKE's default is true), or set
it to true.

## References
- RKE `services/node_util.go` (`getDrainHelper`); configuring the upgrade strategy: <https://rke.docs.rancher.com/upgrades/configuring-strategy>
- kubectl `staging/src/k8s.io/kubectl/pkg/drain/filters.go` (`daemonSetFilter`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(flags) = ctx.drain_flags() else { return };
    if flags.ignore_daemonsets {
        return;
    }
    // Each DaemonSet once (its controller key, in the pods' order), with its first pod's node and how many
    // of its pods the drains meet.
    let mut sets: Vec<(crate::cluster::WorkloadKey, &crate::model::Object, &str, u64)> = Vec::new();
    for (o, _, node) in ctx.running_pods() {
        if is_mirror(o) || !ctx.is_daemon_pod(o) {
            continue;
        }
        let Some(key) = ctx.controller_of(o) else { continue };
        match sets.iter_mut().find(|s| s.0 == key) {
            Some(s) => s.3 += 1,
            None => sets.push((key, o, node, 1)),
        }
    }
    for (key, pod, node, pods) in sets {
        let set = ctx.workload_object(&key);
        let shown = set.map_or_else(|| display_ref(&pod.r), |s| display_ref(&s.r));
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{shown} has {pods} pod(s) on drained nodes ({} on {node}): {} runs without \
                     ignore_daemonsets, so it refuses them and the drain of {node} fails ({})",
                    pod.r.name,
                    flags.who,
                    flags.failure(),
                ),
                "Remove ignore_daemonsets: false from upgrade_strategy.node_drain_input in cluster.yml (RKE's default is true).",
            )
            .object(set.unwrap_or(pod))
            .data("node", node)
            .data("pods", pods)
            .data("ignoreDaemonsets", false),
        );
    }
}
