//! `platform/pool-not-updated`: a pool, or nodes of one, the distribution leaves out of the upgrade (a
//! paused MachineConfigPool, a GKE on Bare Metal node pool pinned to another version, RKE's hosts it cannot
//! reach, kOps instance groups that are not drained and terminated).

use crate::report::{Finding, Severity};
use crate::rules::context::name_list;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "platform/pool-not-updated",
    severity: Severity::Warning,
    title: "A pool is left out of the upgrade: its nodes keep their version",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile openshift`: every `MachineConfigPool` with `spec.paused: true`; under `--profile
gke-baremetal`: every worker `NodePool` whose `spec.anthosBareMetalVersion` names another version than the
target (selective worker node pool upgrades); under `rke` and `rke-legacy`: every host RKE cannot reach (its
Ready condition `Unknown`: a powered-off worker), which `rke up` skips while still reporting success; under
`kops`: instance groups with `rollingUpdate.drainAndTerminate: false`, whose instances rolling-update does
not replace. The plan leaves those nodes out (`plan.leftOut`, with the reason and the nodes), and this
finding names them, so that no node is left out in silence.

## Why it matters for an upgrade
The Machine Config Operator does not update a paused pool: its nodes keep their kubelet and OS while the
control plane moves on, until the pool is unpaused (then the MCO updates it, by its `maxUnavailable`). A
kubelet left behind for more than the skew policy allows blocks the next update (the kube-apiserver
operator reports `Upgradeable=False` when the next minor would leave a kubelet unsupported), and the pool
still needs its own maintenance window later. GKE on Bare Metal leaves a pinned node pool at its version the
same way, until its version is moved to the cluster's.

## Example
`MachineConfigPool/gpu` paused, with `gpu-0` and `gpu-1`: a warning naming both and how to unpause. RKE,
ten workers, `worker-7` powered off: a warning that `worker-7` stays on its old version after `rke up`.

## How to fix
Unpause the pool when its nodes may be updated (`oc patch mcp gpu --type merge -p
'{"spec":{"paused":false}}'`), within the kubelet skew the next update needs; for GKE on Bare Metal,
set the node pool's `anthosBareMetalVersion` to the cluster's.

## References
- OpenShift, "Pausing the machine config pools" (updating clusters, control plane only updates)
- Kubernetes version skew policy: <https://kubernetes.io/releases/version-skew-policy/#kubelet>
- GKE on Bare Metal, "Upgrade clusters": selective worker node pool upgrades
- RKE `cluster/cluster.go` (`UpgradeWorkerPlane`: inactive hosts are left out), `services/workerplane.go`
- kOps `pkg/instancegroups/rollingupdate.go` (`drainAndTerminate`)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for left in crate::plan::left_out(ctx) {
        let pool = crate::budget::pools(ctx).into_iter().find(|p| p.name == left.pool && p.paused);
        let object = pool.as_ref().and_then(|_| {
            ctx.objects.iter().find(|o| {
                o.r.name.as_str() == left.pool
                    && matches!(o.r.kind.as_str(), "MachineConfigPool" | "NodePool")
                    && crate::cluster::live(o)
            })
        });
        let f = Finding::new(
            &INFO,
            match &pool {
                Some(_) => format!(
                    "pool {} is left out of this upgrade: {}; its {} node(s) keep their version: {}",
                    left.pool,
                    left.reason,
                    left.nodes.len(),
                    name_list(&left.nodes, 5)
                ),
                None => format!(
                    "{} node(s) of pool {} are left out of this upgrade and keep their old version: {}; {}",
                    left.nodes.len(),
                    left.pool,
                    name_list(&left.nodes, 5),
                    left.reason
                ),
            },
            if ctx.profile() == crate::options::Profile::GkeBaremetal {
                "Set the node pool's anthosBareMetalVersion to the cluster's version when its nodes may be upgraded."
            } else if matches!(ctx.profile(), crate::options::Profile::Rke | crate::options::Profile::RkeLegacy) {
                "Bring the host back (power, network, its kubelet) before `rke up`, or remove it from cluster.yml; after a run that skipped it, run `rke up` again once it is reachable."
            } else if ctx.profile() == crate::options::Profile::Kops {
                "Set rollingUpdate.drainAndTerminate back to true (or remove it) when the group's instances may be replaced, or replace them by hand."
            } else {
                "Unpause the pool when its nodes may be updated (oc patch mcp <pool> --type merge -p '{\"spec\":{\"paused\":false}}'), within the kubelet skew the next update needs."
            },
        )
        .data("pool", left.pool.clone())
        .data("nodes", left.nodes.clone());
        // A node left out of a pool that is upgraded: the finding is the node's (the first, when several).
        let object = object.or_else(|| {
            left.nodes.first().and_then(|n| ctx.nodes.iter().find(|v| v.name() == n.as_str())).map(|v| v.obj)
        });
        out.push(match object {
            Some(o) => f.object(o),
            None => f,
        });
    }
}
