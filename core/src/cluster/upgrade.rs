//! What the upgrade itself changes on the nodes: labels it stops setting or removes.

use super::Cluster;
use crate::model::{Object, StringMap};
use crate::options::Profile;

pub const MASTER_LABEL: &str = "node-role.kubernetes.io/master";
/// The taint keys of control-plane nodes: the old one and kubeadm's new one (1.24+).
pub const MASTER_TAINT: &str = "node-role.kubernetes.io/master";
pub const CONTROL_PLANE_TAINT: &str = "node-role.kubernetes.io/control-plane";

/// Which of the master and control-plane `NoSchedule` taints the control-plane nodes carry once the
/// upgrade is through. kubeadm renames them by version (1.24 both, 1.25 and later only control-plane:
/// `kubeadm upgrade` strips the master taint); no other distribution renames them, so what the
/// snapshot's control-plane nodes carry now is what they will carry (an OpenShift master keeps
/// `node-role.kubernetes.io/master`). `None` when the snapshot has no control-plane node to read.
pub fn control_plane_taints_after(cluster: &Cluster<'_>) -> Option<Vec<&'static str>> {
    if cluster.profile() == Profile::Kubeadm {
        return Some(match cluster.to.minor {
            m if m >= 25 => vec![CONTROL_PLANE_TAINT],
            24 => vec![MASTER_TAINT, CONTROL_PLANE_TAINT],
            _ => vec![MASTER_TAINT],
        });
    }
    let cps: Vec<_> = cluster.nodes.iter().filter(|n| n.is_control_plane()).collect();
    if cps.is_empty() {
        return None;
    }
    let carried =
        |key: &str| cps.iter().any(|n| n.info.taints.iter().any(|t| t.key == key && t.effect == "NoSchedule"));
    Some([MASTER_TAINT, CONTROL_PLANE_TAINT].into_iter().filter(|k| carried(k)).collect())
}

/// The hop at which kubeadm drops the master label from control-plane nodes, if this upgrade crosses it.
pub fn master_label_dropped_at(cluster: &Cluster<'_>) -> Option<String> {
    if !matches!(cluster.profile(), Profile::Kubeadm) {
        return None;
    }
    let from = cluster.from.as_ref()?;
    if from.minor >= 24 {
        return None;
    }
    cluster.path.iter().find(|h| h.minor >= 24).map(ToString::to_string)
}

/// The node's labels once the upgrade is through.
pub fn labels_after(cluster: &Cluster<'_>, node: &Object) -> StringMap {
    let mut labels = node.labels.clone();
    if master_label_dropped_at(cluster).is_some() {
        labels.remove(MASTER_LABEL);
    }
    labels
}

/// `node` with its labels as they will be after the upgrade (for selector matching).
pub fn node_after(cluster: &Cluster<'_>, node: &Object) -> Object {
    let mut n = node.clone();
    n.labels = labels_after(cluster, node);
    n
}

impl Cluster<'_> {
    /// Every node as it will be after the upgrade (labels the upgrade removes, removed), by node index.
    pub fn nodes_after(&self) -> &[Object] {
        self.after.get_or_init(|| self.nodes.iter().map(|n| node_after(self, n.obj)).collect())
    }
}
