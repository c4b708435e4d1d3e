//! `version/downgrade`: the target is older than the current version.

use crate::model::Body;
use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::{Context, RuleInfo};
use crate::version::Version;

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
    if minor {
        out.push(f);
        return;
    }
    // OpenShift: the CVO's Rollback precondition allows only a rollback to the cluster's previous version
    // within the same minor: the first history entry that is not the release being reconciled (another
    // version, or the same version from another image).
    if ctx.profile() == Profile::Openshift {
        let cv = ctx.objects.iter().filter(|o| crate::cluster::live(o)).find_map(|o| match &o.body {
            Body::ClusterVersion(cv) => Some((o, cv)),
            _ => None,
        });
        let previous = cv.and_then(|(_, cv)| {
            let current = cv.desired.as_deref()?;
            cv.history.iter().find(|h| h.version != current || h.image != cv.desired_image).map(|h| h.version.clone())
        });
        let rollback =
            previous.as_deref().and_then(|p| Version::parse(p).ok()).is_some_and(|p| p == *to && p.minor == from.minor);
        if !rollback {
            let why = match &previous {
                Some(p) => format!("the only rollback it allows is to the cluster's previous version {p}"),
                None => "the cluster has no previous version to roll back to".to_owned(),
            };
            let mut f = f.severity(Severity::Blocker);
            f.message = format!(
                "Target {to} is older than the current {from}: the cluster-version operator refuses it (Rollback precondition, LowDesiredVersion): {why}"
            );
            f.help = "Check the target: an OpenShift cluster updates forward along its channel; only a rollback to the previous z-stream release in status.history is allowed.".into();
            if let Some((o, _)) = cv {
                f = f.object(o);
            }
            out.push(f.data("previous", previous.unwrap_or_default()));
            return;
        }
    }
    out.push(f.severity(Severity::Warning));
}
