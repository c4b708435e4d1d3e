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

    /// Not ready, or cordoned: counts as already unavailable for an upgrade's budget.
    pub fn unavailable(&self) -> bool {
        !self.ready() || self.info.unschedulable
    }

    pub fn is_control_plane(&self) -> bool {
        self.roles.control_plane
    }

    /// A worker is any node that is not control-plane or etcd only.
    pub fn is_worker(&self) -> bool {
        self.roles.worker || !(self.roles.control_plane || self.roles.etcd)
    }
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
