//! Does this distribution drain nodes, and does its drain wait on PodDisruptionBudgets?

use super::{is_mirror, Cluster};
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
        let mut flags = match self.profile() {
            // RKE builds the helper from node_drain_input (services/node_util.go getDrainHelper): force and
            // delete_local_data default to false, ignore_daemonsets to true (only an explicit false clears it).
            Profile::Rke | Profile::RkeLegacy => DrainFlags {
                force: self.options.drain_force.unwrap_or(false),
                delete_emptydir_data: self.options.drain_delete_local_data.unwrap_or(false),
                ignore_daemonsets: self.options.drain_ignore_daemonsets.unwrap_or(true),
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
                ignore_daemonsets: true,
                who: "kubectl drain",
                set_force: "--force (drainForce: true)",
                set_emptydir: "--delete-emptydir-data (drainDeleteLocalData: true)",
            },
        };
        flags.force |= self.lifts("disruption/unmanaged-pod");
        flags.delete_emptydir_data |= self.lifts("disruption/local-storage");
        flags.ignore_daemonsets |= self.lifts(DAEMONSET_POD);
        Some(flags)
    }

    /// Does the drain honour PodDisruptionBudgets and wait on them (rather than proceed regardless)?
    /// GKE on Bare Metal gives up after 20 minutes and proceeds.
    pub fn drain_honours_pdbs(&self) -> bool {
        self.drains() && self.profile() != Profile::GkeBaremetal
    }
}

/// The rule whose blocker says a drain refuses a running DaemonSet pod.
pub const DAEMONSET_POD: &str = "disruption/daemonset-pod";

/// A drain's flags, as kubectl's drain helper reads them (staging/src/k8s.io/kubectl/pkg/drain/filters.go):
/// without `force` a pod that declares no controller fails the whole drain; without
/// `delete_emptydir_data` so does a pod with an emptyDir volume (finished pods excepted); without
/// `ignore_daemonsets` so does a running pod of a DaemonSet that exists (`daemonSetFilter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainFlags {
    pub force: bool,
    pub delete_emptydir_data: bool,
    pub ignore_daemonsets: bool,
    /// Who drains, for messages (`RKE's drain`, `kubectl drain`).
    pub who: &'static str,

    /// The setting that turns each flag on, for messages.
    pub set_force: &'static str,
    pub set_emptydir: &'static str,
}

impl DrainFlags {
    /// What a drain that refuses a pod does to the upgrade, for messages: RKE fails the host; your own
    /// `kubectl drain` exits with an error, and the upgrade goes no further until someone acts.
    pub fn failure(&self) -> &'static str {
        if self.who.starts_with("RKE") {
            "the host fails and the upgrade stops"
        } else {
            "kubectl drain exits with an error and the upgrade stops there until it is rerun"
        }
    }

    fn always(who: &'static str) -> DrainFlags {
        DrainFlags {
            force: true,
            delete_emptydir_data: true,
            ignore_daemonsets: true,
            who,
            set_force: "",
            set_emptydir: "",
        }
    }
}

/// Does the pod's controller reference name a DaemonSet (kubectl's drain `daemonSetFilter` reads
/// `metav1.GetControllerOf`; since kubectl 1.34 only an `apps` DaemonSet counts, so an OpenKruise one's pods
/// are drained like any others)? An owner given without its apiVersion counts.
pub fn daemon_pod(pod: &Object) -> bool {
    pod.owners.iter().any(|w| {
        w.controller && w.kind == "DaemonSet" && (w.api_version.is_empty() || w.api_version.starts_with("apps/"))
    })
}

impl<'a> Cluster<'a> {
    /// A DaemonSet's pod whose DaemonSet exists (or the snapshot holds no DaemonSet to tell): drains leave
    /// it alone (`--ignore-daemonsets`).
    pub fn is_daemon_pod(&self, pod: &Object) -> bool {
        daemon_pod(pod) && !self.orphaned_daemon_pod(pod)
    }

    /// A pod whose controller DaemonSet is gone (the snapshot holds DaemonSets, not this one): kubectl's
    /// `daemonSetFilter` deletes it with `--force` (nothing recreates it) and refuses it without.
    pub fn orphaned_daemon_pod(&self, pod: &Object) -> bool {
        if !daemon_pod(pod) {
            return false;
        }
        let any = *self.has_daemonsets.get_or_init(|| self.live_objects().any(|o| o.r.kind == "DaemonSet"));
        let ns = pod.r.namespace.as_deref().unwrap_or("default");
        any && pod
            .owners
            .iter()
            .filter(|w| w.controller && w.kind == "DaemonSet")
            .all(|w| self.lookup("DaemonSet", ns, &w.name).is_none())
    }

    /// A pod a drain leaves where it is: a mirror pod, or a DaemonSet pod whose DaemonSet exists. Known
    /// once per object of the snapshot (a flag read in place of its annotations and owners).
    pub fn drain_leaves(&self, pod: &Object) -> bool {
        let leaves = |o: &Object| is_mirror(o) || self.is_daemon_pod(o);
        let known = self.drain_leaves.get_or_init(|| self.objects.iter().map(leaves).collect());
        match self.position(pod).and_then(|i| known.get(i)) {
            Some(k) => *k,
            None => leaves(pod),
        }
    }

    /// Pods a drain of node `i` evicts or deletes: not mirror pods, not DaemonSet pods.
    pub fn evicted_by_drain(&self, i: usize) -> Vec<(&'a Object, &'a PodInfo)> {
        self.running_pods_on(i).iter().filter(|(o, _, _)| !self.drain_leaves(o)).map(|(o, p, _)| (*o, *p)).collect()
    }
}

/// How a distribution's drain ends when it cannot evict a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrainEnd {
    /// It retries for ever: `kubectl drain`'s default `--timeout=0s` (kubeadm), the Machine Config
    /// Operator (pkg/controller/drain/drain_controller.go: retried, an alert after an hour).
    WaitsForEver,
    /// It gives up after its drain timeout and fails the upgrade: kOps (15 minutes,
    /// pkg/instancegroups/instancegroups.go), RKE (`node_drain_input.timeout`, the host fails).
    FailsAfterTimeout,
    /// It fails at once and so does the upgrade (a pod the drain refuses, an eviction answered 500).
    FailsAtOnce,
}

/// Why a node's drain never completes under this distribution, with the pod it stops on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrainStall<'a> {
    pub pod: &'a Object,
    pub end: DrainEnd,
    /// The rule whose blocker says so.
    pub code: &'static str,
    pub reason: String,
}

/// Does a pod declare no controller (kubectl's drain `unreplicatedFilter`: `metav1.GetControllerOf` is
/// nil, an owner without `controller: true` does not count)? Mirror pods are skipped before this is asked.
pub fn unmanaged(pod: &Object) -> bool {
    !pod.owners.iter().any(|o| o.controller)
}

impl<'a> Cluster<'a> {
    /// Why the drain of node `i` never completes (the first pod, in the node's order, it stops on), when
    /// the distribution's upgrade then stops or waits for ever: a pod the drain refuses without its
    /// `force` or `delete-emptydir-data` flag (RKE fails the host; your own `kubectl drain` exits with an
    /// error), an eviction a fail-closed webhook refuses, a PodDisruptionBudget that holds a pod back or more
    /// than one budget on a pod (where the drain honours budgets). `None` when the drain completes.
    pub fn drain_stall(&self, i: usize) -> Option<DrainStall<'a>> {
        let flags = self.drain_flags()?;
        let honours = self.drain_honours_pdbs();
        let profile = self.profile();
        let waits = match profile {
            Profile::Kubeadm | Profile::Openshift => DrainEnd::WaitsForEver,
            _ => DrainEnd::FailsAfterTimeout,
        };
        // kubectl's drain helper lists every pod first and refuses the whole drain before evicting any: a
        // running DaemonSet pod without --ignore-daemonsets ("cannot delete DaemonSet-managed Pods").
        if !flags.ignore_daemonsets {
            if let Some((pod, _, _)) =
                self.running_pods_on(i).iter().find(|(o, _, _)| !is_mirror(o) && self.is_daemon_pod(o))
            {
                return Some(DrainStall {
                    pod,
                    end: DrainEnd::FailsAtOnce,
                    code: DAEMONSET_POD,
                    reason: format!(
                        "{} refuses {} (a DaemonSet's pod, without ignore_daemonsets): {}",
                        flags.who,
                        pod.r.name,
                        flags.failure()
                    ),
                });
            }
        }
        for (pod, info) in self.evicted_by_drain(i) {
            if !flags.force && (unmanaged(pod) || self.orphaned_daemon_pod(pod)) {
                return Some(DrainStall {
                    pod,
                    end: DrainEnd::FailsAtOnce,
                    code: "disruption/unmanaged-pod",
                    reason: format!(
                        "{} refuses {} (no controller, without {}): {}",
                        flags.who,
                        pod.r.name,
                        flags.set_force,
                        flags.failure()
                    ),
                });
            }
            let empty_dir = info.spec.volumes.iter().any(|v| v.kind == crate::model::VolumeKind::EmptyDir);
            if !flags.delete_emptydir_data && empty_dir {
                return Some(DrainStall {
                    pod,
                    end: DrainEnd::FailsAtOnce,
                    code: "disruption/local-storage",
                    reason: format!(
                        "{} refuses {} (emptyDir, without {}): {}",
                        flags.who,
                        pod.r.name,
                        flags.set_emptydir,
                        flags.failure()
                    ),
                });
            }
            if !honours {
                continue;
            }
            let ns = pod.r.namespace.as_deref().unwrap_or("default");
            let lifted = self.lifts(super::admission::WEBHOOK_UNAVAILABLE);
            if let Some(h) = self.eviction_webhooks().iter().find(|h| {
                !lifted
                    && h.backends.is_empty()
                    && self.webhook_covers_eviction(h.webhook, ns) == super::admission::Covers::Yes
            }) {
                // The eviction's admission fails ("no endpoints available"): kubectl's drain stops on any
                // error other than 429; the MCO retries.
                let end = if profile == Profile::Openshift { DrainEnd::WaitsForEver } else { DrainEnd::FailsAtOnce };
                return Some(DrainStall {
                    pod,
                    end,
                    code: super::admission::WEBHOOK_UNAVAILABLE,
                    reason: format!(
                        "the eviction of {} is refused: the fail-closed webhook {} covers pods/eviction and has no ready endpoint, {}",
                        pod.r.name,
                        h.webhook.name,
                        if end == DrainEnd::WaitsForEver { "the drain retries for ever" } else { "the drain fails" }
                    ),
                });
            }
            match self.eviction(pod, info) {
                super::eviction::Eviction::HeldBack(pdb) => {
                    let how = match waits {
                        DrainEnd::WaitsForEver => "the drain retries for ever",
                        _ => "the drain times out and the upgrade fails",
                    };
                    return Some(DrainStall {
                        pod,
                        end: waits,
                        code: "disruption/pdb-blocks-drain",
                        reason: format!(
                            "PodDisruptionBudget {} allows no disruption of {}: every eviction is refused (429), {how}",
                            pdb.r.name, pod.r.name
                        ),
                    });
                }
                super::eviction::Eviction::MoreThanOneBudget(_) => {
                    let end =
                        if profile == Profile::Openshift { DrainEnd::WaitsForEver } else { DrainEnd::FailsAtOnce };
                    return Some(DrainStall {
                        pod,
                        end,
                        code: "disruption/overlapping-pdbs",
                        reason: format!(
                            "{} is under more than one PodDisruptionBudget: every eviction fails (500), {}",
                            pod.r.name,
                            if end == DrainEnd::WaitsForEver {
                                "the drain retries for ever"
                            } else {
                                "the drain fails"
                            }
                        ),
                    });
                }
                _ => {}
            }
        }
        None
    }
}
