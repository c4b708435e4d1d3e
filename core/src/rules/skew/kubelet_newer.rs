//! `skew/kubelet-newer`: a kubelet is newer than the control plane.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "skew/kubelet-newer",
    severity: Severity::Blocker,
    title: "A kubelet is newer than the control plane",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Compares each node's kubelet minor with the current control-plane minor. A kubelet on a newer minor than
the API server is reported with the node and both versions.

## Why it matters for an upgrade
The skew policy never allows a kubelet newer than kube-apiserver: the kubelet may use API fields and
behaviours the server does not know. Such a node usually joined from a newer image or was upgraded
before the control plane; an upgrade that starts from there is outside every supported path.

## Example
Control plane on `1.28.4`, `worker-7` reporting `v1.29.1`: blocker.

## How to fix
Upgrade the control plane first (to at least the kubelet's minor) or rebuild the node on the control
plane's minor, then upgrade in order: control plane, then kubelets.

## References
- Kubernetes version skew policy, kubelet: <https://kubernetes.io/releases/version-skew-policy/#kubelet>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(from) = &ctx.from else { return };
    // An upgrade under way past the current version (GKE on Bare Metal's status is the last one completed)
    // has put its version on the nodes it reached: those kubelets are its progress, not ahead of it.
    let underway = ctx.underway.as_ref().and_then(|u| Some((u, u.version.as_ref()?)));
    for (i, n) in ctx.nodes.iter().enumerate() {
        let Some(v) = &n.kubelet else { continue };
        if v.minor <= from.minor {
            continue;
        }
        if underway.as_ref().is_some_and(|(u, target)| u.reached(i) && v.minor <= target.minor) {
            continue;
        }
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "Node {} runs kubelet {v}, newer than the control plane's {}: kubelets must never be ahead of kube-apiserver",
                    n.name(),
                    // A product version (GKE on Bare Metal 1.15.4, OpenShift 4.14.3) with the Kubernetes minor it
                    // ships: the kubelet's version is a Kubernetes one.
                    from.with_kubernetes()
                ),
                format!(
                    "Upgrade the control plane to at least 1.{} first, or rebuild {} on {}.",
                    v.minor,
                    n.name(),
                    from.minor_string()
                ),
            )
            .object(n.obj)
            .data("node", n.name())
            .data("kubelet", v.to_string())
            .data("controlPlane", from.to_string()),
        );
    }
}
