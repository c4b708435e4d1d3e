//! scheduling/: will each pod still fit its node after the upgrade, and somewhere else while it is drained?

pub mod legacy_node_label;
pub mod no_eligible_node;
pub mod node_selector_mismatch;

use std::collections::BTreeMap;

use crate::model::{Object, PodSpec};
use crate::options::Profile;
use crate::rules::context::{selector_matches, untolerated_taints, NodeView};
use crate::rules::Context;

pub const MASTER_LABEL: &str = "node-role.kubernetes.io/master";

/// A node label that the target (or the distribution at the target) stops setting or deprecates.
pub struct LegacyLabel {
    pub label: &'static str,
    pub replacement: &'static str,
    /// Minor from which it matters.
    pub since: u32,
    pub what: &'static str,
}

pub const LEGACY_LABELS: &[LegacyLabel] = &[
    LegacyLabel {
        label: MASTER_LABEL,
        replacement: "node-role.kubernetes.io/control-plane",
        since: 24,
        what: "kubeadm stops applying it in 1.24 (and removes it from control-plane nodes on upgrade)",
    },
    LegacyLabel {
        label: "beta.kubernetes.io/os",
        replacement: "kubernetes.io/os",
        since: 22,
        what:
            "deprecated since 1.14; the kubelet still sets it, and the API server warns about it in pod specs from 1.22",
    },
    LegacyLabel {
        label: "beta.kubernetes.io/arch",
        replacement: "kubernetes.io/arch",
        since: 22,
        what:
            "deprecated since 1.14; the kubelet still sets it, and the API server warns about it in pod specs from 1.22",
    },
    LegacyLabel {
        label: "failure-domain.beta.kubernetes.io/zone",
        replacement: "topology.kubernetes.io/zone",
        since: 17,
        what: "deprecated in 1.17; whether it is still set depends on the cloud provider",
    },
    LegacyLabel {
        label: "failure-domain.beta.kubernetes.io/region",
        replacement: "topology.kubernetes.io/region",
        since: 17,
        what: "deprecated in 1.17; whether it is still set depends on the cloud provider",
    },
    LegacyLabel {
        label: "beta.kubernetes.io/instance-type",
        replacement: "node.kubernetes.io/instance-type",
        since: 17,
        what: "deprecated in favour of node.kubernetes.io/instance-type",
    },
];

/// The hop at which kubeadm drops the master label from control-plane nodes, if this upgrade crosses it.
pub fn master_label_dropped_at(ctx: &Context<'_>) -> Option<String> {
    if !matches!(ctx.profile(), Profile::Kubeadm) {
        return None;
    }
    let from = ctx.from.as_ref()?;
    if from.minor >= 24 {
        return None;
    }
    ctx.path.iter().find(|h| h.minor >= 24).map(ToString::to_string)
}

/// The node's labels once the upgrade is through.
pub fn labels_after(ctx: &Context<'_>, node: &Object) -> BTreeMap<String, String> {
    let mut labels = node.labels.clone();
    if master_label_dropped_at(ctx).is_some() {
        labels.remove(MASTER_LABEL);
    }
    labels
}

/// `node` with its labels as they will be after the upgrade (for selector matching).
pub fn node_after(ctx: &Context<'_>, node: &Object) -> Object {
    let mut n = node.clone();
    n.labels = labels_after(ctx, node);
    n
}

/// Can a pod with this spec be scheduled on the node after the upgrade (selector, affinity, taints)?
pub fn fits(spec: &PodSpec, node: &NodeView<'_>, after: &Object) -> bool {
    node.ready()
        && !node.info.unschedulable
        && selector_matches(spec, after)
        && untolerated_taints(spec, node.info).is_empty()
}

/// The label keys a spec's selector and required affinity use.
pub fn selector_keys(spec: &PodSpec) -> Vec<&str> {
    let mut keys: Vec<&str> = spec.node_selector.keys().map(String::as_str).collect();
    for t in spec.required_affinity.iter().flatten() {
        keys.extend(t.match_expressions.iter().map(|r| r.key.as_str()));
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}
