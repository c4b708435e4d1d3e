//! `budget/node-unavailable`: a node that is not available, and what this distribution does about it.

use crate::cluster::nodes::{NodeState, Treatment};
use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "budget/node-unavailable",
    severity: Severity::Warning,
    title: "A node is cordoned, NotReady or unreachable: what this distribution does with it",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Every node that is not plainly available (NotReady, Ready `Unknown`, NetworkUnavailable, or cordoned),
judged the way the chosen distribution judges it (docs/semantics.md, "Unavailable"):
- OpenShift: the Machine Config Operator counts an unschedulable node as unavailable and never picks it
  as a candidate, so a cordoned node's pool cannot complete: a blocker.
- Everywhere else a node the distribution does not stop for is a warning that says what will happen:
  kubeadm checks only control-plane nodes' Ready condition; kOps validates Ready and NetworkUnavailable,
  not cordons; RKE counts only hosts it cannot reach, upgrades NotReady hosts first (outside the limit)
  and uncordons every host it upgrades.
Nodes the distribution counts against its limit are `budget/unavailable-exceeds-limit`'s.

## Why it matters for an upgrade
A cordoned node left from earlier maintenance stalls an OpenShift pool for ever (the pool stays
`Updating`), while under kubeadm, kOps or RKE it is upgraded like the others and comes back
schedulable, which may not be what whoever cordoned it wanted. A NotReady worker under kubeadm or RKE
does not stop the upgrade, but its pods are not running and its own upgrade will wait on it.

## Example
OpenShift, pool `worker`, `worker-2` Ready but `spec.unschedulable: true`: blocker. The same node under
kubeadm: a warning.

## How to fix
Uncordon the node (`kubectl uncordon`) or take it out of the pool before the upgrade; bring NotReady nodes
back (the kubelet's logs) or remove them.

## References
- machine-config-operator `pkg/controller/node/status.go` (`isNodeReady`: unschedulable is not ready)
- kubeadm `cmd/kubeadm/app/phases/upgrade/health.go` (`controlPlaneNodesReady`)
- kOps `pkg/validation/node_status.go` (`isNodeReady`)
- RKE `cluster/cluster.go` (`UpgradeControlPlane`, `UpgradeWorkerPlane`), `services/controlplane.go`
"#;

fn consequence(profile: Profile, state: NodeState, control_plane: bool) -> String {
    match (profile, state) {
        (Profile::Kubeadm, NodeState::Cordoned) => "kubeadm does not stop for it; draining it again is a no-op and `kubectl uncordon` after its upgrade makes it schedulable again".into(),
        (Profile::Kubeadm, _) if !control_plane => "kubeadm's health check reads only control-plane nodes, so the upgrade goes on; this worker's own drain and `kubeadm upgrade node` wait until it is back".into(),
        (Profile::Kubeadm, _) => "kubeadm's health check reads only the Ready condition, so it goes on".into(),
        (Profile::Kops, _) => "kOps validation reads Ready and NetworkUnavailable, not cordons: the instance is replaced like the others and its replacement joins schedulable".into(),
        (Profile::Rke | Profile::RkeLegacy, NodeState::Cordoned | NodeState::NetworkUnavailable) => {
            "RKE counts only hosts it cannot reach as inactive: it cordons, upgrades and then uncordons this host like the others".into()
        }
        (Profile::Rke | Profile::RkeLegacy, _) => "RKE upgrades NotReady hosts first, outside max_unavailable; a host still NotReady after that counts as failed against the limit".into(),
        (Profile::Openshift, _) => "the Machine Config Operator never picks a node that is not Ready, NetworkUnavailable or unschedulable (and counts it against maxUnavailable), so its pool cannot complete".into(),
        (Profile::GkeBaremetal, _) => "the upgrade does not count it as unavailable: it is drained and upgraded like the others".into(),
    }
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let profile = ctx.profile();
    let pools = ctx.pools();
    // Each node's pool: the one it is upgraded in.
    let home = crate::budget::home_pools(&pools, ctx.nodes.len());
    for (i, n) in ctx.nodes.iter().enumerate() {
        let treatment = n.treatment(profile);
        let state = n.state();
        let severity = match (treatment, profile) {
            (Treatment::Warn, _) => Severity::Warning,
            (Treatment::Stops, Profile::Openshift) => Severity::Blocker,
            _ => continue,
        };
        let pool = home.get(i).copied().flatten().map_or_else(String::new, |p| p.name.clone());
        let in_pool = if pool.is_empty() { String::new() } else { format!(" of pool {pool}") };
        let f = Finding::new(
            &INFO,
            format!(
                "{}{in_pool} is {}: {}",
                n.name(),
                state.describe(),
                consequence(profile, state, n.is_control_plane())
            ),
            if state == NodeState::Cordoned {
                "Uncordon it (kubectl uncordon) if the cordon is left over, or take it out of the cluster before the upgrade."
            } else {
                "Bring it back to Ready (the kubelet's logs, `kubectl describe node`) or remove it before the upgrade."
            },
        )
        .object(n.obj)
        .data("state", format!("{state:?}"))
        .data("pool", pool);
        out.push(f.severity(severity));
    }
}
