//! `disruption/local-storage`: a pod keeps data in emptyDir or on a node-bound volume.

use super::is_mirror;
use crate::model::{Body, VolumeKind};
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/local-storage",
    severity: Severity::Warning,
    title: "A pod keeps data on its node (emptyDir, hostPath, local volume)",
    needs_from: false,
    docs: r#"## What it checks
Running pods (DaemonSets and static pods left out), when the profile drains nodes, with an `emptyDir`
volume (its data is lost on eviction), a `hostPath` volume, or a PersistentVolumeClaim bound to a
node-bound PersistentVolume (`spec.local`, `spec.hostPath` or a required node affinity) in the snapshot:
those cannot move to another node.

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
- Volumes, emptyDir: <https://kubernetes.io/docs/concepts/storage/volumes/#emptydir>
- Local persistent volumes: <https://kubernetes.io/docs/concepts/storage/volumes/#local>
"#,
};

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !ctx.drains() {
        return;
    }
    let node_bound_claims: Vec<(String, String)> = ctx
        .live_objects()
        .filter_map(|o| match &o.body {
            Body::Pv(pv) if pv.node_bound => pv.claim.clone(),
            _ => None,
        })
        .collect();
    let mut hits = Vec::new();
    for (o, p, node) in ctx.running_pods() {
        if is_mirror(o) || o.owners.iter().any(|w| w.kind == "DaemonSet") {
            continue;
        }
        let ns = o.r.namespace.clone().unwrap_or_else(|| "default".into());
        let mut lost = Vec::new();
        let mut bound = Vec::new();
        for v in &p.spec.volumes {
            match v.kind {
                VolumeKind::EmptyDir => lost.push(v.name.clone()),
                VolumeKind::HostPath => bound.push(v.name.clone()),
                VolumeKind::PersistentVolumeClaim => {
                    if v.claim.as_ref().is_some_and(|c| node_bound_claims.contains(&(ns.clone(), c.clone()))) {
                        bound.push(v.name.clone());
                    }
                }
                VolumeKind::Other => {}
            }
        }
        if !lost.is_empty() || !bound.is_empty() {
            hits.push((o, (node, lost, bound)));
        }
    }
    for (key, pods) in ctx.group_by_controller(hits) {
        let Some((first, (node, lost, bound))) = pods.first() else {
            continue;
        };
        let subject = key.as_ref().map_or_else(|| format!("Pod {}", display_ref(&first.r)), |k| k.display());
        let mut parts = Vec::new();
        if !lost.is_empty() {
            parts.push(format!("emptyDir {} is lost when the pod is evicted", lost.join(", ")));
        }
        if !bound.is_empty() {
            parts
                .push(format!("{} is bound to {node}, so the pod cannot move while {node} upgrades", bound.join(", ")));
        }
        out.push(
            Finding::new(
                &INFO,
                format!("{subject} ({} on {node}, {} pod(s) in all): {}", first.r.name, pods.len(), parts.join("; ")),
                "Keep data that matters on network-backed PersistentVolumes; for node-bound storage, plan the pause.",
            )
            .object(key.as_ref().and_then(|k| ctx.workload_object(k)).unwrap_or(first))
            .data("emptyDir", lost.clone())
            .data("nodeBound", bound.clone())
            .data("node", *node),
        );
    }
}
