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

    /// Does the drain honour PodDisruptionBudgets and wait on them (rather than proceed regardless)?
    /// GKE on Bare Metal gives up after 20 minutes and proceeds.
    pub fn drain_honours_pdbs(&self) -> bool {
        self.drains() && self.profile() != Profile::GkeBaremetal
    }
}

/// Pods a drain of a node evicts: not mirror pods, not DaemonSet pods.
pub fn evicted_by_drain<'a>(pods: &[RunningPod<'a>]) -> Vec<(&'a Object, &'a PodInfo)> {
    pods.iter()
        .filter(|(o, _, _)| !is_mirror(o) && !o.owners.iter().any(|w| w.kind == "DaemonSet"))
        .map(|(o, p, _)| (*o, *p))
        .collect()
}
