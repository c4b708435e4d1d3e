//! `node/container-runtime-unsupported`: a node's container runtime is one the target's kubelet dropped.

use super::{first_hop_past, judged};
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};
use crate::runtimes::dropping;
use crate::version::Version;

pub const INFO: RuleInfo = RuleInfo {
    code: "node/container-runtime-unsupported",
    severity: Severity::Blocker,
    title: "A node's container runtime is one the target's kubelet no longer supports",
    needs_from: false,
};

/// The annotation kubeadm records a node's CRI socket in.
pub const CRI_SOCKET: &str = "kubeadm.alpha.kubernetes.io/cri-socket";

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile kubeadm` (nodes upgraded in place, keeping their host), each node's
`status.nodeInfo.containerRuntimeVersion` against the runtimes the kubelet dropped:

| runtime | last Kubernetes minor | source |
|---|---|---|
| Docker Engine through the kubelet's dockershim (`docker://...`) | 1.23 | KEP-2221, Kubernetes 1.24 release notes |
| containerd 1.x (`containerd://1...`) | 1.35 | Kubernetes v1.35 release announcement |

A `docker://` node whose kubelet is already 1.24 or later runs through cri-dockerd, as does one whose
`kubeadm.alpha.kubernetes.io/cri-socket` annotation names cri-dockerd's socket: not a finding. The finding
names the first hop past the runtime's last minor.

## Why it matters for an upgrade
The upgraded kubelet cannot start on a runtime it no longer speaks to: the node goes NotReady as soon as its
kubelet is replaced, and its pods are never started again. kubeadm's own preflight does not look at the
runtime version of the nodes it is not running on.

## Example
`worker-2` reports `containerRuntimeVersion: docker://20.10.24` with kubelet v1.23.17, upgraded to 1.24.17:
blocker at hop 1.24.17.

## How to fix
Move the node to a supported runtime before that hop: containerd 2.x or CRI-O (drain it, reinstall the
runtime, update `--container-runtime-endpoint` and the cri-socket annotation), or for Docker Engine install
cri-dockerd and point the kubelet at it.

## References
- Migrating from dockershim: <https://kubernetes.io/docs/tasks/administer-cluster/migrating-from-dockershim/>
- Check whether dockershim removal affects you: <https://kubernetes.io/docs/tasks/administer-cluster/migrating-from-dockershim/check-if-dockershim-removal-affects-you/>
- Kubernetes v1.35 release: <https://kubernetes.io/blog/2025/12/17/kubernetes-v1-35-release/>
- containerd releases, Kubernetes support: <https://containerd.io/releases/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !judged(ctx) {
        return;
    }
    for n in &ctx.nodes {
        let Some(raw) = n.info.container_runtime.as_deref() else { continue };
        let Some(row) = dropping(raw) else { continue };
        let kubelet = n.info.kubelet_version.as_deref().and_then(|v| Version::parse(v).ok());
        if row.scheme == "docker" {
            // Already past 1.23, or pointed at cri-dockerd: Docker Engine through cri-dockerd.
            let through_cri_dockerd =
                n.obj.annotations.get(CRI_SOCKET).is_some_and(|s| s.as_str().contains("cri-dockerd"));
            if through_cri_dockerd || kubelet.as_ref().is_some_and(|k| k.minor > row.last_minor) {
                continue;
            }
        }
        let Some(hop) = first_hop_past(ctx, row.last_minor) else { continue };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} runs {raw}: {}, and the path reaches {hop}, so its kubelet cannot start after that hop",
                    n.name(),
                    row.what
                ),
                row.fix,
            )
            .object(n.obj)
            .hop(hop.to_string())
            .data("node", n.name().to_owned())
            .data("runtime", raw.to_owned())
            .data("lastSupportedMinor", format!("1.{}", row.last_minor))
            .data("source", row.source),
        );
    }
}
