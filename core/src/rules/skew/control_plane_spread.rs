//! `skew/control-plane-spread`: the control-plane nodes are not all at the current minor.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "skew/control-plane-spread",
    severity: Severity::Blocker,
    title: "Control-plane nodes are on different minors",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Reads the version of every control-plane node (`node-role.kubernetes.io/control-plane`, `master` or RKE's
`controlplane` label): its kube-apiserver static pod's image tag where the snapshot has the `kube-system`
pods, else its kubelet's; and compares its minor with the current version. Any control-plane node on
another minor, or a spread of more than one minor among them, is reported with the node and both versions.

## Why it matters for an upgrade
Before a minor upgrade every kube-apiserver must already be at the current minor: the skew policy allows
HA apiservers at most one minor apart, and `kubeadm upgrade apply` and `bmctl` refuse to start from a
half-finished upgrade. A control plane left mid-upgrade by an earlier attempt is the usual cause.

## Example
`--from 1.28.4`, nodes `cp-1` and `cp-2` on `v1.28.4`, `cp-3` still on `v1.27.9`: blocker naming `cp-3`.

## How to fix
Finish the earlier upgrade first: bring every control-plane node to the current minor (`kubeadm upgrade
node` on the stragglers), check `kubectl get nodes`, then start the next hop.

## References
- Kubernetes version skew policy, kube-apiserver: <https://kubernetes.io/releases/version-skew-policy/#kube-apiserver>
- kubeadm upgrade: <https://kubernetes.io/docs/tasks/administer-cluster/kubeadm/kubeadm-upgrade/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(from) = &ctx.from else { return };
    // Where the snapshot has the kube-apiserver static pods, their image tags are the API servers'
    // versions: a control-plane kubelet one minor behind them is the ordinary state after `kubeadm upgrade
    // apply`, before the kubelets are upgraded, and not a straggler.
    let mut apiservers: crate::parse::FastMap<&str, crate::version::Version> = crate::parse::FastMap::default();
    for o in ctx.objects {
        let Some(p) = o.pod() else { continue };
        if let (Some(tag), Some(node)) = (p.apiserver_version.as_deref(), p.spec.node_name.as_deref()) {
            if let Ok(v) = crate::version::Version::parse(tag) {
                apiservers.insert(node, v);
            }
        }
    }
    // The control-plane nodes an upgrade under way has reached carry its version: they are its progress.
    let reached = |i: usize, n: &crate::cluster::NodeView<'_>| {
        ctx.underway.as_ref().is_some_and(|u| {
            u.reached(i) && u.version.as_ref().is_some_and(|t| n.kubelet.as_ref().is_some_and(|k| k.minor == t.minor))
        })
    };
    let cps: Vec<_> =
        ctx.nodes.iter().enumerate().filter(|(i, n)| n.is_control_plane() && !reached(*i, n)).map(|(_, n)| n).collect();
    // A kubelet stands for its node's API server only where the same tool upgrades both on the node
    // (kubeadm's `upgrade node`, RKE, kOps, bmctl): OpenShift's kube-apiserver operator rolls the API servers
    // and the MCO the kubelets after them, so a kubelet behind says nothing of the API servers. And a run
    // that finishes the upgrade under way (the API server already at the target) expects control-plane
    // kubelets behind: they are its remaining work (`progress`), not an earlier upgrade left half done.
    let kubelets_stand_in = ctx.profile() != crate::options::Profile::Openshift && ctx.finishing.is_none();
    let version_of = |n: &crate::cluster::NodeView<'_>| {
        apiservers.get(n.name()).cloned().or_else(|| n.kubelet.clone().filter(|_| kubelets_stand_in))
    };
    let minors: Vec<u32> = cps.iter().filter_map(|n| version_of(n).map(|v| v.minor)).collect();
    let (Some(lo), Some(hi)) = (minors.iter().min(), minors.iter().max()) else {
        return;
    };
    let spread = hi - lo;
    for n in &cps {
        let Some(v) = &version_of(n) else { continue };
        if v.minor == from.minor && spread <= 1 {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "Control-plane node {} runs {v} but the control plane is at {} (control-plane minors span 1.{lo} to 1.{hi})",
                    n.name(),
                    from.minor_string()
                ),
                format!("Bring {} to {} (finish the earlier upgrade) before starting this one.", n.name(), from.minor_string()),
            )
            .object(n.obj)
            .data("node", n.name())
            .data("nodeVersion", v.to_string())
            .data("current", from.to_string()),
        );
    }
}
