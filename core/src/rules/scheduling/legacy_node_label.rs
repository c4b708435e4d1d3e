//! `scheduling/legacy-node-label`: a selector relies on a node label the target stops setting.

use super::{selector_keys, LEGACY_LABELS, MASTER_LABEL};
use crate::options::Profile;
use crate::report::{Finding, Severity};
use crate::rules::context::display_ref;
use crate::rules::{Context, RuleInfo};

pub const INFO: RuleInfo = RuleInfo {
    code: "scheduling/legacy-node-label",
    severity: Severity::Warning,
    title: "A selector relies on a node label the target stops setting",
    needs_from: false,
};

/// What the rule checks, why it matters for an upgrade, an example, how to fix, references (Markdown):
/// apart from [`INFO`], so that what lists the rules links no docs.
pub const DOCS: &str = r#"## What it checks
The keys of every `nodeSelector` and required node affinity (workload templates and unmanaged pods)
against the node labels that change across versions:
- `node-role.kubernetes.io/master`: kubeadm stops applying it in 1.24 (kubeadm, kOps and GKE on Bare
  Metal profiles; OpenShift keeps it, RKE never set it); use `node-role.kubernetes.io/control-plane`;
- `beta.kubernetes.io/os|arch`: deprecated since 1.14 for `kubernetes.io/os|arch`, warned about from 1.22;
- `failure-domain.beta.kubernetes.io/zone|region`: deprecated in 1.17 for `topology.kubernetes.io/*`;
- `beta.kubernetes.io/instance-type`: deprecated for `node.kubernetes.io/instance-type`.
When the snapshot's nodes already lack the old label, the message says the selector matches no node.

## Why it matters for an upgrade
A selector on a label that disappears matches nothing: new pods stay Pending after the drain, and
running ones fail admission when the kubelet restarts (see `scheduling/node-selector-mismatch`).

## Example
A Deployment with `nodeSelector: {node-role.kubernetes.io/master: ""}` and `--to 1.24.17`: warning,
replacement `node-role.kubernetes.io/control-plane`.

## How to fix
Select the replacement label (the nodes carry both during the transition), roll the workload out, then
upgrade.

## References
- Well-known labels: <https://kubernetes.io/docs/reference/labels-annotations-taints/>
- kubeadm 1.24 release notes: the master label
"#;

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    // How many nodes carry each legacy label, counted once per label (not once per pod that selects it).
    let mut carried: Vec<(&str, usize)> = Vec::new();
    for (o, spec) in ctx.pod_specs() {
        for key in selector_keys(spec) {
            let Some(l) = LEGACY_LABELS.iter().find(|l| l.label == key) else {
                continue;
            };
            if ctx.to.minor < l.since {
                continue;
            }
            if l.label == MASTER_LABEL
                && matches!(ctx.profile(), Profile::Openshift | Profile::Rke | Profile::RkeLegacy)
            {
                continue;
            }
            // `kubernetes.io/role` is kOps' own: elsewhere it is whatever the cluster's owner set.
            if l.label == crate::cluster::upgrade::ROLE_LABEL && ctx.profile() != Profile::Kops {
                continue;
            }
            let nodes_with = match carried.iter().find(|(label, _)| *label == l.label) {
                Some((_, n)) => *n,
                None => {
                    let n = ctx.nodes.iter().filter(|n| n.obj.labels.contains_key(l.label)).count();
                    carried.push((l.label, n));
                    n
                }
            };
            let state = if !ctx.nodes.is_empty() && nodes_with == 0 {
                " No node in the snapshot carries it any more: the selector matches nothing.".to_owned()
            } else {
                String::new()
            };
            out.push(
                Finding::new(
                    &INFO,
                    format!("{} selects nodes by {}: {}.{state}", display_ref(&o.r), l.label, l.what),
                    format!("Select {} instead and roll the workload out before the upgrade.", l.replacement),
                )
                .object(o)
                .data("label", l.label)
                .data("replacement", l.replacement)
                .data("since", format!("1.{}", l.since)),
            );
        }
    }
}
