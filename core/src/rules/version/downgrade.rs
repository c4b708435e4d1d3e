//! `version/downgrade`: the target is older than the current version.

use crate::options::Profile;
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
target on the same minor with an older **patch** is a warning, except under `--profile openshift`, where
the cluster-version operator's Rollback precondition refuses any release older than `status.desired`
(`LowDesiredVersion`) unless it is the cluster's previous version in `status.history` within the same
minor: a blocker there, SemVer order (`4.19.0-okd-scos.15` is older than `4.19.0-okd-scos.16`).

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
- cluster-version-operator `pkg/payload/precondition/clusterversion/rollback.go` (the Rollback precondition)
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
    // OpenShift: a patch downgrade passes the CVO only as a rollback to the previous release.
    let refused = (!minor && ctx.profile() == Profile::Openshift)
        .then(|| crate::cluster::platform::rollback_refused(ctx, from))
        .flatten();
    let (to_s, from_s) = (to.with_kubernetes(), from.with_kubernetes());
    let (message, help) = match (&refused, minor) {
        (_, true) => (
            format!(
                "Target {to_s} is {} minor(s) older than the current {from_s}: minor downgrades are not supported",
                from.minor - to.minor
            ),
            "Check the target version; to go back, restore an etcd snapshot taken before the upgrade.",
        ),
        (Some((_, previous)), false) => (
            format!(
                "Target {to} is older than the current {from}: the cluster-version operator refuses it (Rollback precondition, LowDesiredVersion): {}",
                match previous {
                    Some(p) => format!("the only rollback it allows is to the cluster's previous version {p}"),
                    None => "the cluster has no previous version to roll back to".to_owned(),
                }
            ),
            "Check the target: an OpenShift cluster updates forward along its channel; only a rollback to the previous z-stream release in status.history is allowed.",
        ),
        (None, false) => (
            format!("Target {to} is an older patch than the current {from}"),
            "Check the target version: patch downgrades work but are unusual; pick the newest patch of the minor.",
        ),
    };
    let mut f = Finding::new(&INFO, message, help).data("from", from.to_string()).data("to", to.to_string());
    // The object: the ClusterVersion that refuses, else the node the current version was read from.
    if let Some(o) = refused.as_ref().and_then(|(o, _)| *o).or_else(|| ctx.from_node()) {
        f = f.object(o);
    }
    out.push(match (refused, minor) {
        (_, true) => f,
        (Some((_, previous)), false) => f.data("previous", previous.unwrap_or_default()),
        (None, false) => f.severity(Severity::Warning),
    });
}
