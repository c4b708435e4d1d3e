//! `input/conflicting-version`: the inputs state the current version in more than one place, and the
//! places disagree.

use crate::report::{Finding, Severity};
use crate::rules::RuleInfo;

pub const INFO: RuleInfo = RuleInfo {
    code: "input/conflicting-version",
    severity: Severity::Warning,
    title: "The inputs state different current versions",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
The current version is read from what the platform states, in a fixed order (README, "What you give
it"): OpenShift's ClusterVersion, the GKE on Bare Metal `Cluster`, `kubectl version` output, the
kube-apiserver pods' image tags, kubeadm-config, the kOps `Cluster`, the RKE `cluster.yml`, the
control-plane kubelets last. This rule fires when sources that should agree do not:

- two `kubectl version` outputs that name different API server versions (the highest is taken, whatever
  the order of the files);
- a `kubectl version` output naming a version that none of the kube-apiserver pods runs;
- kubeadm-config's `ClusterConfiguration.kubernetesVersion` against the newest kube-apiserver pod (kubeadm
  writes it when `kubeadm upgrade apply` succeeds).

The version taken follows the order above, never the order of the files. The `current-version` family of
`coverage` is `unreadable` while the sources disagree: the verdict is `incomplete`, not `ready`, unless
`--from` states the version.

## Why it matters for an upgrade
Every skew check, the hop path and the plan stand on the current version. Snapshots taken at different
times, or a `kubeadm upgrade apply` that stopped half way, leave sources that disagree; reading the first
file given would make the verdict depend on the order of the files.

## Example
`version-a.json` says `v1.28.9`, `version-b.json` says `v1.29.3`: warning, the current version is 1.29.3
and the report says both.

## How to fix
Take the snapshot again in one go, or give `--from` with the version the control plane runs
(`kubectl get pods -n kube-system -l component=kube-apiserver -o yaml` shows every API server's image).

## References
- kubeadm `upgrade plan` (`cmd/kubeadm/app/phases/upgrade/versiongetter.go`): the highest API server image
- Version skew policy: <https://kubernetes.io/releases/version-skew-policy/>
"#;

/// The finding for a current version whose sources disagree (`chosen`: the version taken and where).
pub fn finding(chosen: &str, disagree: &[String]) -> Option<Finding> {
    if disagree.is_empty() {
        return None;
    }
    Some(
        Finding::new(
            &INFO,
            format!("The current version is taken from {chosen}, but {}", disagree.join("; ")),
            "Take the snapshot again in one go, or give --from with the version the control plane runs.",
        )
        .data("chosen", chosen.to_owned())
        .data("disagree", disagree.to_vec()),
    )
}
