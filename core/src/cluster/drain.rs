//! Does this distribution drain nodes, and does its drain wait on PodDisruptionBudgets?

use super::{is_mirror, Cluster, RunningPod};
use crate::model::{Object, PodInfo};
use crate::options::Profile;

impl Cluster<'_> {
    /// Does this upgrade drain nodes (evict pods) before upgrading them? RKE only with `drain: true`;
    /// RKE < 1.1 never; the others always, unless `drain: false` is given.
    pub fn drains(&self) -> bool {
        match self.profile() {
            Profile::Rke => self.options.drain.unwrap_or(false),
            Profile::RkeLegacy => false,
            _ => self.options.drain.unwrap_or(true),
        }
    }

    /// The flags of this distribution's drain (kubectl's drain helper), `None` when it does not drain.
    pub fn drain_flags(&self) -> Option<DrainFlags> {
        if !self.drains() {
            return None;
        }
        Some(match self.profile() {
            // RKE builds the helper from node_drain_input (services/node_util.go getDrainHelper): force and
            // delete_local_data default to false.
            Profile::Rke | Profile::RkeLegacy => DrainFlags {
                force: self.options.drain_force.unwrap_or(false),
                delete_emptydir_data: self.options.drain_delete_local_data.unwrap_or(false),
                who: "RKE's drain",
                set_force: "upgrade_strategy.node_drain_input.force: true",
                set_emptydir: "upgrade_strategy.node_drain_input.delete_local_data: true",
            },
            // kOps (pkg/instancegroups/instancegroups.go DrainNode) and the MCO
            // (pkg/controller/drain/drain_controller.go): Force and DeleteEmptyDirData always on.
            Profile::Kops => DrainFlags::always("kops's drain"),
            Profile::Openshift => DrainFlags::always("the Machine Config Operator's drain"),
            Profile::GkeBaremetal => DrainFlags::always("bmctl's drain"),
            // kubeadm: the user's own `kubectl drain <node> --ignore-daemonsets`, as kubeadm's upgrade guide
            // writes it; the flags are the options' (default off, as kubectl's are).
            Profile::Kubeadm => DrainFlags {
                force: self.options.drain_force.unwrap_or(false),
                delete_emptydir_data: self.options.drain_delete_local_data.unwrap_or(false),
                who: "kubectl drain",
                set_force: "--force (drainForce: true)",
                set_emptydir: "--delete-emptydir-data (drainDeleteLocalData: true)",
            },
        })
    }

    /// Does the drain honour PodDisruptionBudgets and wait on them (rather than proceed regardless)?
    /// GKE on Bare Metal gives up after 20 minutes and proceeds.
    pub fn drain_honours_pdbs(&self) -> bool {
        self.drains() && self.profile() != Profile::GkeBaremetal
    }
}

/// A drain's flags, as kubectl's drain helper reads them (staging/src/k8s.io/kubectl/pkg/drain/filters.go):
/// without `force` a pod that declares no controller fails the whole drain; without
/// `delete_emptydir_data` so does a pod with an emptyDir volume (finished pods excepted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainFlags {
    pub force: bool,
    pub delete_emptydir_data: bool,
    /// Who drains, for messages (`RKE's drain`, `kubectl drain`).
    pub who: &'static str,

    /// The setting that turns each flag on, for messages.
    pub set_force: &'static str,
    pub set_emptydir: &'static str,
}

impl DrainFlags {
    /// Does a failed drain fail the upgrade itself (RKE fails the host), rather than a command you rerun?
    pub fn failure_stops_upgrade(&self) -> bool {
        self.who.starts_with("RKE")
    }

    fn always(who: &'static str) -> DrainFlags {
        DrainFlags { force: true, delete_emptydir_data: true, who, set_force: "", set_emptydir: "" }
    }
}

/// Pods a drain of a node evicts: not mirror pods, not DaemonSet pods.
pub fn evicted_by_drain<'a>(pods: &[RunningPod<'a>]) -> Vec<(&'a Object, &'a PodInfo)> {
    pods.iter()
        .filter(|(o, _, _)| !is_mirror(o) && !o.owners.iter().any(|w| w.kind == "DaemonSet"))
        .map(|(o, p, _)| (*o, *p))
        .collect()
}
