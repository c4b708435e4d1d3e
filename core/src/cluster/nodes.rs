//! Nodes: their roles, their kubelet, and whether each is available to the upgrade.

use super::Cluster;
use crate::model::{NodeInfo, NodeRoles, Object};
use crate::options::Profile;
use crate::version::Version;

/// A node with what the layers above keep asking of it.
pub struct NodeView<'a> {
    pub obj: &'a Object,
    pub info: &'a NodeInfo,
    pub roles: NodeRoles,
    /// The kubelet's version, when it parses.
    pub kubelet: Option<Version>,
    /// The upgrade under way is at this node now ([`super::progress`]): its cordon, a restart, its
    /// daemon's work are the upgrade's own, not a node the upgrade cannot take.
    pub upgrading: bool,
}

impl<'a> NodeView<'a> {
    /// The view of a Node object (`None` for any other kind).
    pub fn of(obj: &'a Object) -> Option<NodeView<'a>> {
        let info = obj.node()?;
        Some(NodeView {
            obj,
            info,
            roles: obj.node_roles(),
            kubelet: info.kubelet_version.as_deref().and_then(|v| Version::parse(v).ok()),
            upgrading: false,
        })
    }
}

impl NodeView<'_> {
    pub fn name(&self) -> &str {
        &self.obj.r.name
    }

    pub fn ready(&self) -> bool {
        self.info.ready == Some(true)
    }

    /// What the snapshot says of the node's health, worst first.
    pub fn state(&self) -> NodeState {
        if self.upgrading {
            // Cordoned, drained, restarted by the upgrade under way: it is the upgrade's work in progress.
            NodeState::Updating
        } else if self.info.unreachable {
            NodeState::Unreachable
        } else if self.info.ready == Some(false) {
            NodeState::NotReady
        } else if self.info.network_unavailable {
            NodeState::NetworkUnavailable
        } else if self.info.disk_pressure {
            NodeState::DiskPressure
        } else if self.info.unschedulable {
            NodeState::Cordoned
        } else if self.mco_updating() {
            // Before a missing Ready condition: the MCO passes such a node as ready, then reads this.
            NodeState::Updating
        } else if self.info.ready.is_none() {
            NodeState::NoReadyCondition
        } else {
            NodeState::Available
        }
    }

    /// Do the Machine Config Daemon's annotations say the node is not done with its current update
    /// (machine-config-operator pkg/controller/common/layered_node_state.go, IsUnavailableForUpdate): state
    /// `Working`; `Done` while desiredConfig differs from currentConfig, or the image annotations differ;
    /// `Degraded` or `Unreconcilable` on its current config. A node with no MCO annotation is not one.
    fn mco_updating(&self) -> bool {
        let get = |k: &str| self.obj.annotations.get(&format!("machineconfiguration.openshift.io/{k}"));
        let (state, current, desired) = (get("state"), get("currentConfig"), get("desiredConfig"));
        if state.is_none() && current.is_none() && desired.is_none() {
            return false;
        }
        let same_config = current == desired;
        let same_image = get("currentImage") == get("desiredImage");
        match state.map(|s| s.as_str()) {
            Some("Working") => true,
            Some("Degraded" | "Unreconcilable") => same_config,
            _ => !same_config || !same_image,
        }
    }

    /// How the distribution's upgrade treats this node as it is now (docs/semantics.md, "Unavailable").
    pub fn treatment(&self, profile: Profile) -> Treatment {
        use NodeState as S;
        use Treatment as T;
        match (profile, self.state()) {
            (_, S::Available) => T::Fine,
            // Only the MCO reads its own annotations and DiskPressure.
            (Profile::Openshift, S::Updating) => T::Counts,
            (_, S::Updating) => T::Fine,
            (Profile::Openshift, S::DiskPressure) => T::Stops,
            (_, S::DiskPressure) => T::Fine,
            // kubeadm (CheckNodeReady: only a Ready condition that is not True fails) and the MCO
            // (layered_node_state.go, CheckNodeReady: only conditions it reports) take a node with no Ready
            // condition as ready.
            (Profile::Kubeadm | Profile::Openshift, S::NoReadyCondition) => T::Fine,
            // kubeadm's health check (cmd/kubeadm/app/phases/upgrade/health.go, controlPlaneNodesReady)
            // reads the Ready condition of control-plane nodes only; workers are the user's to drain.
            (Profile::Kubeadm, S::Unreachable | S::NotReady) if self.is_control_plane() => T::Stops,
            (Profile::Kubeadm, _) => T::Warn,
            // kOps validation (pkg/validation/node_conditions.go): Ready and not NetworkUnavailable, before
            // each instance group and after each node.
            (Profile::Kops, S::Unreachable | S::NotReady | S::NoReadyCondition | S::NetworkUnavailable) => T::Stops,
            (Profile::Kops, S::Cordoned) => T::Warn,
            // RKE (cluster/cluster.go, services/node_util.go ResetMaxUnavailable): only hosts it cannot reach
            // are inactive and count against the limit; NotReady hosts are upgraded first, outside it.
            (Profile::Rke | Profile::RkeLegacy, S::Unreachable) => T::Counts,
            (Profile::Rke | Profile::RkeLegacy, _) => T::Warn,
            // The MCO (pkg/controller/node/status.go, isNodeReady / getUnavailableMachines;
            // node_controller.go, getAllCandidateMachines): not Ready, NetworkUnavailable, DiskPressure or
            // unschedulable all count against maxUnavailable, and such a node is never picked as a
            // candidate, so its pool cannot complete while it stays so.
            (Profile::Openshift, _) => T::Stops,
            // GKE on Bare Metal: nodes that are not Ready count against the pool's concurrency.
            (Profile::GkeBaremetal, S::Unreachable | S::NotReady | S::NoReadyCondition) => T::Counts,
            (Profile::GkeBaremetal, _) => T::Warn,
        }
    }

    /// Does the node count against its pool's limit of nodes out at once under this distribution?
    pub fn counts_against_limit(&self, profile: Profile) -> bool {
        match self.treatment(profile) {
            Treatment::Counts => true,
            // The MCO counts a cordoned node too, besides never finishing its pool.
            Treatment::Stops => profile == Profile::Openshift,
            _ => false,
        }
    }

    pub fn is_control_plane(&self) -> bool {
        self.roles.control_plane
    }

    /// A worker is any node that is not control-plane or etcd only.
    pub fn is_worker(&self) -> bool {
        self.roles.worker || !(self.roles.control_plane || self.roles.etcd)
    }
}

/// A node's health as the snapshot shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NodeState {
    /// Ready `Unknown`: the kubelet has stopped reporting (a host the installer cannot reach).
    Unreachable,
    /// Ready `False`.
    NotReady,
    /// No Ready condition at all.
    NoReadyCondition,
    /// Ready, but `NetworkUnavailable` is `True`.
    NetworkUnavailable,
    /// Ready, but `DiskPressure` is `True`.
    DiskPressure,
    /// Ready, but `spec.unschedulable` (cordoned).
    Cordoned,
    /// Ready, but the Machine Config Daemon is not done with its current update (its annotations).
    Updating,
    Available,
}

impl NodeState {
    pub fn describe(self) -> &'static str {
        match self {
            NodeState::Unreachable => "unreachable (Ready Unknown)",
            NodeState::NotReady => "NotReady",
            NodeState::NoReadyCondition => "without a Ready condition",
            NodeState::DiskPressure => "under DiskPressure",
            NodeState::Updating => "being upgraded (the upgrade under way is at this node)",
            NodeState::NetworkUnavailable => "NetworkUnavailable",
            NodeState::Cordoned => "cordoned (Ready, unschedulable)",
            NodeState::Available => "available",
        }
    }
}

/// What a distribution's upgrade does with a node in a given state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treatment {
    Fine,
    /// Worth knowing, but the upgrade goes on.
    Warn,
    /// Counts against its pool's limit of nodes out at once.
    Counts,
    /// The upgrade stops (or never completes) because of it, whatever the limits.
    Stops,
}

/// The etcd members: RKE's etcd-role nodes; elsewhere etcd is stacked on the control-plane nodes.
pub fn etcd_members<'c, 'a>(cluster: &'c Cluster<'a>) -> Vec<&'c NodeView<'a>> {
    match cluster.profile() {
        Profile::Rke | Profile::RkeLegacy => cluster.nodes.iter().filter(|n| n.roles.etcd).collect(),
        _ => {
            let explicit: Vec<_> = cluster.nodes.iter().filter(|n| n.roles.etcd).collect();
            if explicit.is_empty() {
                cluster.nodes.iter().filter(|n| n.is_control_plane()).collect()
            } else {
                explicit
            }
        }
    }
}
