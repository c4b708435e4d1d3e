//! `disruption/local-storage`: a pod keeps data in emptyDir or on a node-bound volume.

use crate::cluster::scheduling::{volume_constrained, volume_reachable};
use crate::model::VolumeKind;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/local-storage",
    severity: Severity::Warning,
    title: "A pod keeps data on its node (emptyDir, hostPath, local volume)",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Running pods (DaemonSets and static pods left out), when the profile drains nodes, with an `emptyDir`
volume (its data is lost on eviction), a PersistentVolumeClaim bound to a node-bound PersistentVolume
(`spec.local`, `spec.hostPath` or a required node affinity) in the snapshot (the pod cannot move to
another node), or a `hostPath` volume in the pod itself: the drain evicts that pod like any other and the
scheduler places it on any node (a hostPath adds no node affinity), where it finds that node's directory,
not the data it left behind (warning, `data.hostPath`).

Against the drain's flags (docs/semantics.md, "Drain flags"): kOps and the Machine Config Operator drain
with `DeleteEmptyDirData` on (the data is lost: warning); RKE builds its drain from
`node_drain_input.delete_local_data` (default false), and kubectl's drain helper then refuses a pod with
an emptyDir and fails the drain: the host fails and RKE stops (blocker); under kubeadm your own
`kubectl drain` without `--delete-emptydir-data` (kubectl's default, and `drainDeleteLocalData: false`)
refuses it the same way and exits with an error (blocker: the plan stops on that node, `plan.stops`, and
`plan.ifResolved` shows the rest with the data deleted). `drainDeleteLocalData: true` says you pass the
flag: the data is lost (warning).

## Why it matters for an upgrade
`kubectl drain` stops at emptyDir pods unless told `--delete-emptydir-data`, which the distributions'
drains pass: the data goes. A pod tied to a node's disk stays Pending until that node is back, so its
workload is down for the whole node upgrade.

## Example
`StatefulSet monitoring/prometheus` storing its TSDB in an `emptyDir`: warning, the metrics history is lost.

## How to fix
Move the data to a network-backed PersistentVolume, accept the loss for caches, or plan the pause for
node-bound storage.

## References
- kubectl `staging/src/k8s.io/kubectl/pkg/drain/filters.go` (`localStorageFilter`); RKE `services/node_util.go` (`getDrainHelper`)
- Volumes, emptyDir: <https://kubernetes.io/docs/concepts/storage/volumes/#emptydir>
- Local persistent volumes: <https://kubernetes.io/docs/concepts/storage/volumes/#local>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(flags) = ctx.drain_flags() else { return };
    let after = ctx.nodes_after();
    let mut hits = Vec::new();
    for (o, p, node) in ctx.running_pods() {
        if ctx.drain_leaves(o) {
            continue;
        }
        let mut lost = Vec::new();
        let mut bound = Vec::new();
        let mut behind = Vec::new();
        for v in &p.spec.volumes {
            match v.kind {
                VolumeKind::EmptyDir => lost.push(v.name.clone()),
                VolumeKind::HostPath => behind.push(v.name.clone()),
                VolumeKind::PersistentVolumeClaim | VolumeKind::Ephemeral => {}
            }
        }
        // A claim bound to a local volume, or to one that no other node can reach (its node affinity or
        // zone), ties the pod to its node.
        let here = ctx.node_index(node);
        for (pv_obj, pv, name) in ctx.pod_volumes(o, &p.spec) {
            let elsewhere = (0..ctx.nodes.len())
                .filter(|i| Some(*i) != here)
                .any(|i| after.get(i).is_some_and(|n| volume_reachable(pv_obj, pv.affinity.as_deref(), n)));
            if pv.node_bound || (volume_constrained(pv_obj, pv.affinity.as_deref()) && !elsewhere) {
                bound.push(name);
            }
        }
        if !lost.is_empty() || !bound.is_empty() || !behind.is_empty() {
            hits.push((o, (node, lost, bound, behind)));
        }
    }
    for (key, pods) in ctx.group_by_controller(hits) {
        let Some((first, (node, lost, bound, behind))) = pods.first() else {
            continue;
        };
        let subject = key.as_ref().map_or_else(|| display_ref(&first.r), |k| k.display());
        let mut parts = Vec::new();
        let refused = !lost.is_empty() && !flags.delete_emptydir_data;
        if refused {
            parts.push(format!(
                "{} runs without delete-emptydir-data, so it refuses the pod (emptyDir {}) and the drain of {node} fails ({})",
                flags.who,
                lost.join(", "),
                flags.failure()
            ));
        } else if !lost.is_empty() {
            parts.push(format!("emptyDir {} is lost when the pod is evicted", lost.join(", ")));
        }
        if !bound.is_empty() {
            parts
                .push(format!("{} is bound to {node}, so the pod cannot move while {node} upgrades", bound.join(", ")));
        }
        if !behind.is_empty() {
            parts.push(format!(
                "hostPath {} is {node}'s own directory: the drain evicts the pod and it may start on another node, without that data",
                behind.join(", ")
            ));
        }
        let help = if refused {
            format!(
                "Let the drain delete emptyDir data ({}), or move the data to a PersistentVolume.",
                flags.set_emptydir
            )
        } else {
            "Keep data that matters on network-backed PersistentVolumes; for node-bound storage, plan the pause."
                .to_owned()
        };
        let f = Finding::new(
            &INFO,
            format!("{subject} ({} on {node}, {} pod(s) in all): {}", first.r.name, pods.len(), parts.join("; ")),
            help,
        );
        let f = if refused { f.severity(Severity::Blocker) } else { f };
        out.push(
            f.object(key.as_ref().and_then(|k| ctx.workload_object(k)).unwrap_or(first))
                .data("emptyDir", lost.clone())
                .data("nodeBound", bound.clone())
                .data("hostPath", behind.clone())
                .data("node", *node),
        );
    }
}
