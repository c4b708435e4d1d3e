//! scheduling/: will each pod still fit its node after the upgrade, and somewhere else while it is drained?

pub mod legacy_node_label;
pub mod no_eligible_node;
pub mod node_selector_mismatch;

pub use crate::cluster::scheduling::{fits, selector_keys};
pub use crate::cluster::upgrade::{master_label_dropped_at, MASTER_LABEL};

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
        label: crate::cluster::upgrade::ROLE_LABEL,
        replacement: "node-role.kubernetes.io/control-plane (or node-role.kubernetes.io/node)",
        since: 24,
        what: "kOps stops setting it on the instances it creates for Kubernetes 1.24 and later (pkg/nodelabels/builder.go), and replaces every instance",
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
