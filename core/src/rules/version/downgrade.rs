//! `version/downgrade`: the target is older than the current version.

use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "version/downgrade",
    severity: Severity::Blocker,
    title: "The target version is older than the current one",
    needs_from: true,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
Compares the target (`--to`) with the current control-plane version (`--from`, or the lowest kubelet
version among the control-plane nodes of the snapshot). A target on an older **minor** is a blocker; a
target on the same minor with an older **patch** is a warning.

## Why it matters for an upgrade
Kubernetes does not support minor downgrades: objects already stored in etcd at a newer version may not
decode, and `kubeadm upgrade apply` refuses to go back more than one minor, `bmctl` refuses any
downgrade. A patch downgrade works but is unusual and often a typo in a pipeline variable.

## Example
Current control plane `v1.28.4`, `--to 1.27.9`: blocker. `--to 1.28.2`: warning.

## How to fix
Check the target version. To go back after a failed upgrade, restore an etcd snapshot taken before the
upgrade (RKE keeps one per upgrade) instead of "upgrading" to the older release.

## References
- Kubernetes version skew policy: <https://kubernetes.io/releases/version-skew-policy/>
- kubeadm `EnforceVersionPolicies` (cmd/kubeadm/app/phases/upgrade/policy.go)
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(from) = &ctx.from else { return };
    let to = &ctx.to;
    // An OpenShift and a Kubernetes version compare by minor only (`Version::scheme_cmp`): on one minor,
    // which patch is older cannot be told.
    if to.scheme_cmp(from) != Some(std::cmp::Ordering::Less) {
        return;
    }
    let minor = to.minor < from.minor;
    let (to_s, from_s) = (to.with_kubernetes(), from.with_kubernetes());
    let f = Finding::new(
        &INFO,
        if minor {
            format!(
                "Target {to_s} is {} minor(s) older than the current {from_s}: minor downgrades are not supported",
                from.minor - to.minor
            )
        } else {
            format!("Target {to} is an older patch than the current {from}")
        },
        if minor {
            "Check the target version; to go back, restore an etcd snapshot taken before the upgrade."
        } else {
            "Check the target version: patch downgrades work but are unusual; pick the newest patch of the minor."
        },
    )
    .data("from", from.to_string())
    .data("to", to.to_string());
    let f = match ctx.from_node() {
        Some(o) => f.object(o),
        None => f,
    };
    out.push(if minor { f } else { f.severity(Severity::Warning) });
}
