//! `budget/unavailable-exceeds-limit`: nodes already unavailable in a pool reach its limit.

use crate::budget::{gate, kops_validation_failures, Gate, GateKind};
use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/unavailable-exceeds-limit",
    severity: Severity::Blocker,
    title: "Nodes already down reach the pool's unavailable limit: the upgrade halts",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Counts, per pool, the nodes the distribution itself counts as unavailable (docs/semantics.md) and
compares them with the pool's resolved limit:
- RKE: only hosts it cannot reach are inactive (Ready `Unknown` in the snapshot); inactive hosts >= the
  limit and RKE refuses to start that plane; control-plane hosts count for the control plane only.
- OpenShift (MCO): not Ready, NetworkUnavailable or unschedulable nodes count against the pool's
  `maxUnavailable`; at the limit it starts nothing.
- GKE on Bare Metal: nodes that are not Ready, against the pool's concurrency.
- kOps: validation (Ready and not NetworkUnavailable, every node; every `system-cluster-critical` and
  `system-node-critical` pod running and ready; on each Ready node labelled
  `node-role.kubernetes.io/control-plane`, a `kube-apiserver`, `kube-controller-manager` and
  `kube-scheduler` pod, by their `k8s-app` label in kube-system, judged when the snapshot holds
  kube-system's pods) runs before each instance group and after each node: a
  failure stops the rolling update at the first group it concerns (its node's group, a control-plane
  group, or every group for a cluster-wide one).
- kubeadm: `kubeadm upgrade apply` checks that every control-plane node is Ready; workers are not checked.

## Why it matters for an upgrade
The upgrade then refuses to start, or stops half way: RKE says "cannot proceed with upgrade of worker
since N host(s) cannot be reached prior to upgrade", the MCO leaves the pool at its limit, kOps fails
validation, kubeadm's health check fails with "there are NotReady control-planes in the cluster".

## Example
RKE, 11 workers, `max_unavailable_worker: 25%` (2 at a time), `worker-3` and `worker-8` unreachable
(Ready `Unknown`): blocker, 2 inactive >= limit 2.

## How to fix
Bring the nodes back (`kubectl get nodes`, the kubelet's logs) or remove them from the cluster before
upgrading.

## References
- RKE `services/node_util.go` (`ResetMaxUnavailable`), `cluster/cluster.go` (`UpgradeControlPlane`, `UpgradeWorkerPlane`)
- machine-config-operator `pkg/controller/node/status.go` (`getUnavailableMachines`)
- kOps `pkg/validation/node_status.go`, `pkg/validation/validate_cluster.go` (`collectPodFailures`); kubeadm `cmd/kubeadm/app/phases/upgrade/health.go`
- RKE upgrade strategy: <https://rke.docs.rancher.com/upgrades/configuring-strategy>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let profile = ctx.profile();
    // kOps validation also fails on a system-critical pod that is not running well, on a control-plane node
    // without its static pods, and on a short group.
    for f in kops_validation_failures(ctx) {
        let scope = match (&f.pool, f.control_plane) {
            (Some(pool), false) => format!("when the rolling update reaches instance group {pool}"),
            (Some(pool), true) => format!("before every group (control-plane group {pool})"),
            (None, _) => "before the first instance group (a cluster-wide failure)".to_owned(),
        };
        out.push(
            Finding::new(
                &INFO,
                format!("{}: kops validation fails on it, so the rolling update stops {scope}", f.what),
                "Get the system-critical pods (and each control-plane node's static pods) running and Ready, and every instance group to its size, before the rolling update.",
            )
            .object(f.object)
            .data("pool", f.pool.clone().unwrap_or_default()),
        );
    }
    for pool in ctx.pools() {
        let Some(Gate { nodes, limit, kind }) = gate(ctx, &pool) else { continue };
        let down: Vec<_> = nodes.iter().filter_map(|i| ctx.nodes.get(*i)).collect();
        if kind == GateKind::NoneMayGo {
            if let Some(first) = pool.nodes.first().and_then(|i| ctx.nodes.get(*i)) {
                out.push(
                    Finding::new(
                        &INFO,
                        format!(
                            "pool {} keeps minimumAvailableNodes {} of its {} node(s) available: no node of it can be upgraded, the upgrade waits on it",
                            pool.name,
                            pool.minimum_available.unwrap_or(0),
                            pool.nodes.len()
                        ),
                        "Lower minimumAvailableNodes below the pool's size (or add nodes) before the upgrade.",
                    )
                    .object(first.obj)
                    .data("pool", pool.name.clone())
                    .data("limit", 0),
                );
            }
            continue;
        }
        let Some(first) = down.first() else { continue };
        let names: Vec<&str> = down.iter().map(|n| n.name()).collect();
        let list = names.join(", ");
        let n = down.len();
        let message = match profile {
            Profile::Kops => format!(
                "{n} node(s) of instance group {} are not Ready or NetworkUnavailable ({list}): kops validates the cluster before each group and after each node, so the rolling update stops",
                pool.name
            ),
            Profile::Kubeadm => format!(
                "control-plane node(s) not Ready ({list}): kubeadm upgrade apply's health check fails (\"there are NotReady control-planes in the cluster\")"
            ),
            Profile::Rke | Profile::RkeLegacy => format!(
                "{n} host(s) of pool {} cannot be reached (Ready Unknown: {list}), at or over its limit of {} ({}): RKE refuses to start (\"cannot proceed with upgrade ... since {n} host(s) cannot be reached prior to upgrade\")",
                pool.name, limit.max_unavailable, limit.how
            ),
            _ => format!(
                "{n} node(s) of pool {} are already unavailable ({list}), at or over its limit of {} ({}): {profile} would start nothing in it",
                pool.name, limit.max_unavailable, limit.how
            ),
        };
        out.push(
            Finding::new(
                &INFO,
                message,
                "Bring the nodes back to Ready (or remove them from the cluster) before the upgrade.",
            )
            .object(first.obj)
            .data("pool", pool.name.clone())
            .data("unavailable", names)
            .data("limit", limit.max_unavailable),
        );
    }
}
