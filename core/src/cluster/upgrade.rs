//! What the upgrade itself changes on the nodes: labels it stops setting or removes.

use std::collections::BTreeMap;

use super::Cluster;
use crate::model::Object;
use crate::options::Profile;

pub const MASTER_LABEL: &str = "node-role.kubernetes.io/master";

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
pub fn labels_after(cluster: &Cluster<'_>, node: &Object) -> BTreeMap<String, String> {
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
