//! `skew/kubelet-too-old`: a kubelet would lag a hop's control plane by more than the profile allows.

use super::allowed_lag;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "skew/kubelet-too-old",
    severity: Severity::Blocker,
    title: "A kubelet would be too far behind the control plane",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Walks the upgrade path hop by hop. At each hop the control plane moves to the hop's minor first, while
the nodes are still on what they run now (or, from the second hop on, on the previous hop's minor, as the
plan upgrades every node in every hop). A node whose kubelet would then lag by more than allowed is
reported with the hop at which it breaks. Allowed lag: the policy's 3 minors for kubelets from 1.25 on,
2 for older ones; `kubeadm` up to 1.28 enforces 1; OpenShift allows 2 on even OpenShift minors and 1 on
odd ones.

## Why it matters for an upgrade
A kubelet outside the skew window is unsupported against the new API server: `kubeadm upgrade plan`
refuses, OpenShift sets `Upgradeable=False`, and in the worst case the kubelet loses its node or its pods
after the control plane moves. Lagging nodes are often the ones nobody remembers (a GPU pool, a
forgotten node group).

## Example
Control plane on 1.27, `worker-c1` on `v1.25.16`, `--to 1.28.4` with the `kubeadm` profile: at hop 1.28
the kubelet would lag 3 minors where kubeadm 1.28 allows 1: blocker.

## How to fix
Upgrade the lagging nodes to the current minor first (or replace them), then start the control-plane
upgrade. For long paths, upgrade nodes at every hop.

## References
- Kubernetes version skew policy: <https://kubernetes.io/releases/version-skew-policy/>
- kubeadm kubelet skew (kubernetes/kubernetes PR 120825)
- OpenShift: kubelet skew and `Upgradeable=False`
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(from) = &ctx.from else { return };
    // With nothing to upgrade (a re-apply of the current version), a kubelet already too far behind the
    // control plane is still one kubeadm refuses (cmd/kubeadm/app/phases/upgrade/policy.go,
    // detectTooOldKubelets compares every kubelet with the target whatever the current version).
    let same = [from.clone()];
    let hops: &[crate::version::Version] = if ctx.path.is_empty() { &same } else { &ctx.path };
    for n in &ctx.nodes {
        let Some(v) = &n.kubelet else { continue };
        // The node's minor at each hop: what it runs now, then the previous hop's minor.
        let mut node_minor = v.minor;
        for hop in hops {
            let lag = hop.minor.saturating_sub(node_minor);
            let allowed = allowed_lag(ctx.profile(), node_minor, hop.minor);
            if lag > allowed {
                out.push(
                    Finding::new(
                        &INFO,
                        format!(
                            "Node {} runs kubelet {v}: at hop {hop} it would be {lag} minors behind the control plane, where {} allows {allowed}",
                            n.name(),
                            ctx.profile()
                        ),
                        format!(
                            "Upgrade {} to at least 1.{} before the control plane moves to {}.",
                            n.name(),
                            hop.minor - allowed,
                            hop.minor_string()
                        ),
                    )
                    .object(n.obj)
                    .hop(hop.to_string())
                    .data("node", n.name())
                    .data("kubelet", v.to_string())
                    .data("lag", lag)
                    .data("allowed", allowed),
                );
                break;
            }
            node_minor = node_minor.max(hop.minor);
        }
    }
}
