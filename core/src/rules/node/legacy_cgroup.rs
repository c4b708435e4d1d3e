//! `node/legacy-cgroup`: a node's OS image boots with cgroup v1, which the target's kubelet refuses by default.

use super::{first_hop_past, judged};
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};
use crate::runtimes::{cgroup_v1_image, CGROUP_V1_REFUSED_FROM, CGROUP_V1_SOURCE};

pub const INFO: RuleInfo = RuleInfo {
    code: "node/legacy-cgroup",
    severity: Severity::Warning,
    title: "A node's OS boots with cgroup v1, which the target's kubelet refuses by default",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Under `--profile kubeadm`, when the path reaches 1.35 or later: each node whose `status.nodeInfo.osImage` is
one that boots with cgroup v1 unless reconfigured (CentOS 7, RHEL 7 and 8 and their rebuilds, Amazon Linux 2,
Ubuntu 18.04 and 20.04, Debian 10). The snapshot does not say which cgroup version a host runs, so this is a
warning: a host switched to cgroup v2, or a kubelet with `failCgroupV1: false`, is fine.

## Why it matters for an upgrade
From 1.35 the kubelet refuses to start on a cgroup v1 host unless its configuration sets
`failCgroupV1: false`: the node goes NotReady as soon as its kubelet is replaced.

## Example
`worker-1` with `osImage: CentOS Linux 7 (Core)`, upgraded to 1.35.1: warning at hop 1.35.1.

## How to fix
Boot the host with cgroup v2 (`systemd.unified_cgroup_hierarchy=1`, or a newer OS image), or set
`failCgroupV1: false` in the kubelet configuration for the time being.

## References
- About cgroup v2: <https://kubernetes.io/docs/concepts/architecture/cgroups/>
- KEP-5573, remove cgroup v1 support; Kubernetes 1.35 release notes
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    if !judged(ctx) {
        return;
    }
    let Some(hop) = first_hop_past(ctx, CGROUP_V1_REFUSED_FROM - 1) else { return };
    for n in &ctx.nodes {
        let Some(image) = n.info.os_image.as_deref() else { continue };
        let Some(why) = cgroup_v1_image(image) else { continue };
        out.push(
            Finding::new(
                &INFO,
                format!(
                    "{} runs {image} ({why}): from 1.35 the kubelet refuses to start on cgroup v1 unless failCgroupV1 is false, and the path reaches {hop}",
                    n.name()
                ),
                "Boot the host with cgroup v2 (systemd.unified_cgroup_hierarchy=1 or a newer OS image), or set failCgroupV1: false in the kubelet configuration.",
            )
            .object(n.obj)
            .hop(hop.to_string())
            .data("node", n.name().to_owned())
            .data("osImage", image.to_owned())
            .data("source", CGROUP_V1_SOURCE),
        );
    }
}
