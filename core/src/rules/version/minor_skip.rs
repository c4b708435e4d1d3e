//! `version/minor-skip`: the target is more than one minor ahead.

use crate::report::Finding;
use crate::report::Severity;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "version/minor-skip",
    severity: Severity::Warning,
    title: "The target skips minor versions: the upgrade needs several hops",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Whether the target is more than one minor above the current control-plane version. The report's
`upgrade.path` then lists every hop (for `1.27.3 -> 1.29.2`: `1.28`, `1.29.2`), and the plan and the
skew checks are evaluated hop by hop.

## Why it matters for an upgrade
Control-plane minors go up one at a time: `kubeadm upgrade apply`, `bmctl` and every managed service
refuse a skip, and the API server's storage migrations assume it. Each hop is a full control-plane upgrade
and each must satisfy the kubelet skew rule for the nodes that are still old at that moment.

## Example
Current `v1.27.3`, `--to 1.29.2`: the path is `1.28 -> 1.29.2`, two control-plane upgrades.

## How to fix
Plan one upgrade per hop in `upgrade.path`, with the manifests and add-ons fixed for each hop's removed
APIs, or choose the next minor as the target.

## References
- Kubernetes version skew policy: <https://kubernetes.io/releases/version-skew-policy/>
- kubeadm: upgrading clusters, one minor at a time: <https://kubernetes.io/docs/tasks/administer-cluster/kubeadm/kubeadm-upgrade/>
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(from) = &ctx.from else { return };
    if ctx.to.minor <= from.minor + 1 {
        return;
    }
    let path = ctx.path_strings();
    let f = Finding::new(
        &INFO,
        format!(
            "Target {} is {} minors ahead of the current {from}: upgrade in {} hops: {}",
            ctx.to,
            ctx.to.minor - from.minor,
            path.len(),
            path.join(" -> ")
        ),
        "Upgrade one minor at a time, following upgrade.path; fix each hop's removed APIs before that hop.",
    )
    .data("from", from.to_string())
    .data("to", ctx.to.to_string())
    .data("path", path);
    out.push(match ctx.from_node() {
        Some(o) => f.object(o),
        None => f,
    });
}
