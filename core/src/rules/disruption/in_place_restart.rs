//! `disruption/in-place-restart`: kubelets upgraded in place across a container-hash change restart every
//! container on their nodes.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "disruption/in-place-restart",
    severity: Severity::Warning,
    title: "In-place kubelet upgrades restart every container",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
When the upgrade does not drain the nodes (`drain: false`, `--no-drain`, RKE's default), each hop whose
kubelet computes container hashes differently from the minor before (1.7, 1.8, 1.9, 1.12, 1.14, 1.16,
1.31): the new kubelet finds every running container's hash changed and restarts it. One finding per
hop, with the number of nodes and pods; the workloads it takes down (a single replica, or every replica on
nodes upgraded at once) are in `downtime.workloads` with this cause.

## Why it matters for an upgrade
"In place" looks like zero disruption, and for most minors it is: the containers keep running through the
kubelet's restart. Across these minors every pod on the node restarts at once, as in the 1,000-node
1.10 -> 1.17 upgrade of the seed, where each such hop restarted every container in the cluster.

## Example
`--from 1.11.10 --to 1.12.10 --no-drain`: every container on every node restarts as its kubelet comes up
on 1.12 (kubernetes/kubernetes#72296).

## How to fix
Drain the nodes for these hops (so replicas move before the kubelet restarts), or accept the restart
knowingly with enough replicas spread over nodes upgraded at different times.

## References
- kubelet `HashContainer` (pkg/kubelet/container/helpers.go); kubernetes/kubernetes#72296, #84443, #124220
- Kubernetes version skew policy: kubelets are upgraded after draining the node
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if ctx.drains() || ctx.nodes.is_empty() {
        return;
    }
    let pods = (0..ctx.nodes.len()).map(|i| ctx.running_pods_on(i).len()).sum::<usize>();
    for hop in &ctx.path {
        let Some(source) = crate::cluster::upgrade::restarts_containers(hop.minor) else { continue };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "Upgrading the kubelets in place to {} restarts every container on each node ({source}): {} \
                     node(s), {pods} pod(s) restart once each; workloads with one replica, or all replicas on nodes \
                     upgraded together, are down meanwhile (downtime.workloads)",
                    hop.minor_string(),
                    ctx.nodes.len()
                ),
                "Drain the nodes for this hop (drain: true), or spread replicas over nodes upgraded at different times.",
            )
            .hop(hop.to_string())
            .data("source", source)
            .data("nodes", ctx.nodes.len()),
        );
    }
}
