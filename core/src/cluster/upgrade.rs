//! What the upgrade itself changes on the nodes: labels it stops setting or removes, taints it renames, and
//! whether an in-place kubelet restarts every container. What each distribution puts on the nodes it
//! creates or upgrades, by version, with sources: docs/semantics.md section 10.

use super::Cluster;
use crate::model::{Object, StringMap};
use crate::options::Profile;

pub const MASTER_LABEL: &str = "node-role.kubernetes.io/master";
/// The taint keys of control-plane nodes: the old one and kubeadm's new one (1.24+).
pub const MASTER_TAINT: &str = "node-role.kubernetes.io/master";
pub const CONTROL_PLANE_TAINT: &str = "node-role.kubernetes.io/control-plane";
/// The role label kubeadm never set, kOps (and older tools) did: `kubernetes.io/role=master|node`.
pub const ROLE_LABEL: &str = "kubernetes.io/role";

/// Which of the master and control-plane `NoSchedule` taints the control-plane nodes carry once the
/// upgrade is through: what they carry now, as kubeadm's `upgrade apply` changes it (1.24 adds the
/// control-plane taint beside the master one, 1.25 removes the master one; nodes registered without taints,
/// `nodeRegistration.taints: []`, get none); kOps' new instances for 1.24 and later carry the control-plane
/// taint alone; no other distribution renames them, so what the snapshot's
/// control-plane nodes carry now is what they will carry (an OpenShift master keeps
/// `node-role.kubernetes.io/master`). With no control-plane node to read, kubeadm's defaults by version;
/// `None` for another distribution.
pub fn control_plane_taints_after(cluster: &Cluster<'_>) -> Option<Vec<&'static str>> {
    let cps: Vec<_> = cluster.nodes.iter().filter(|n| n.is_control_plane()).collect();
    let kubeadm = cluster.profile() == Profile::Kubeadm;
    // kOps replaces every control-plane instance: the new ones carry what its version gives them.
    if cluster.profile() == Profile::Kops && cluster.path.iter().any(|h| h.minor >= 24) {
        return Some(vec![CONTROL_PLANE_TAINT]);
    }
    if cps.is_empty() {
        return kubeadm.then(|| match cluster.to.minor {
            m if m >= 25 => vec![CONTROL_PLANE_TAINT],
            24 => vec![MASTER_TAINT, CONTROL_PLANE_TAINT],
            _ => vec![MASTER_TAINT],
        });
    }
    let carried =
        |key: &str| cps.iter().any(|n| n.info.taints.iter().any(|t| t.key == key && t.effect == "NoSchedule"));
    let (mut master, mut control_plane) = (carried(MASTER_TAINT), carried(CONTROL_PLANE_TAINT));
    if kubeadm {
        // cmd/kubeadm/app/phases/upgrade/postupgrade.go: from 1.24 a master-tainted node gets the new taint
        // too; from 1.25 the old one is removed.
        if cluster.to.minor >= 24 && master {
            control_plane = true;
        }
        if cluster.to.minor >= 25 {
            master = false;
        }
    }
    Some(
        [(MASTER_TAINT, master), (CONTROL_PLANE_TAINT, control_plane)]
            .into_iter()
            .filter(|(_, c)| *c)
            .map(|(k, _)| k)
            .collect(),
    )
}

/// The hop at which kubeadm drops the master label from control-plane nodes, if this upgrade crosses it.
pub fn master_label_dropped_at(cluster: &Cluster<'_>) -> Option<String> {
    if !matches!(cluster.profile(), Profile::Kubeadm | Profile::Kops) {
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
        // kOps' new instances carry no kubernetes.io/role either (kubeadm never set it).
        if cluster.profile() == Profile::Kops {
            labels.remove(ROLE_LABEL);
        }
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

/// The kubelet minors whose container hash differs from the minor before: upgraded in place (no drain),
/// the new kubelet sees every running container's hash changed and restarts them all, on every node.
/// From the kubelet's own history (pkg/kubelet/container/helpers.go `HashContainer` hashed the whole
/// container struct until 1.16, its JSON with empty fields left out until 1.31, then the name and image):
/// each minor that added a field to the container spec changed every hash. The issues that reported it,
/// one per minor.
pub const CONTAINER_HASH_CHANGES: &[(u32, &str)] = &[
    (2, "kubernetes/kubernetes#23104"),
    (7, "kubernetes/kubernetes#52773"),
    (8, "kubernetes/kubernetes#53644"),
    (9, "kubernetes/website#6894"),
    (12, "kubernetes/kubernetes#72296"),
    (14, "kubernetes/kubernetes#84443"),
    (16, "kubernetes/kubernetes#57741"),
    (31, "kubernetes/kubernetes#124220, #129385"),
];

/// Does upgrading a kubelet in place from the minor before `minor` to `minor` restart every container on
/// its node? The source that says so.
pub fn restarts_containers(minor: u32) -> Option<&'static str> {
    CONTAINER_HASH_CHANGES.iter().find(|(m, _)| *m == minor).map(|(_, s)| *s)
}
