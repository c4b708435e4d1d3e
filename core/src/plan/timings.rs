//! Every default time the planner uses, in one place, per profile. Each is overridable through
//! `UpgradeOptions.timings` by its name and echoed in the report's `plan.timings`.
//!
//! Values from the seeds are exact (kOps' 5 s post-drain delay and 15 s interval, validation passes 10 s
//! apart; GKE on Bare Metal's 20-minute drain limit and ~10 minutes per node; OpenShift's 60-120 minutes of
//! manifests, taken as 90; RKE's 120 s drain timeout). The rest are estimates for a typical node and are
//! there to be overridden with what a team measures.

use std::collections::BTreeMap;

use crate::options::{OptionsError, Profile, UpgradeOptions};

/// The longest time any single timing (or a pod's grace period) may take: a week. Keeps every sum of
/// the simulation far from overflowing, whatever the input says.
pub const MAX_SECONDS: i64 = 7 * 24 * 3600;

/// The prefix of a per-pool step time in `timings` (`pool/workers`: seconds a node of pool `workers` takes,
/// from its cordon to its uncordon).
pub const POOL_STEP: &str = "pool/";

macro_rules! timings {
    ($( $field:ident = $name:literal : $doc:literal ),* $(,)?) => {
        /// Resolved times, in seconds.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Timings { $( #[doc = $doc] pub $field: u64, )* }

        /// Names and descriptions of every timing, for docs and errors.
        pub const TIMING_DOCS: &[(&str, &str)] = &[ $( ($name, $doc), )* ];

        impl Timings {
            fn set(&mut self, name: &str, v: u64) -> bool {
                match name { $( $name => { self.$field = v; true } )* _ => false }
            }

            /// All values by name (the report's `plan.timings`).
            pub fn to_map(&self) -> BTreeMap<&'static str, u64> {
                BTreeMap::from([ $( ($name, self.$field), )* ])
            }
        }
    };
}

timings! {
    cordon = "cordonSeconds": "cordoning a node that has nothing to evict",
    pod_eviction = "podEvictionSeconds": "an evicted pod's shutdown when it sets no terminationGracePeriodSeconds (Kubernetes' default grace)",
    drain_timeout = "drainTimeoutSeconds": "how long a drain waits on a PodDisruptionBudget that allows nothing (kOps 15 min then fails; RKE 120 s then fails the host; GKE on Bare Metal 20 min then proceeds; the MCO retries for ever and alerts after 1 h; kubectl drain has no limit, 1 h is assumed)",
    pod_start = "podStartSeconds": "for an evicted pod's replacement to be scheduled, pull its image, start and pass readiness",
    node_ready = "nodeReadySeconds": "for an upgraded node to report Ready",
    control_plane_first = "controlPlaneFirstSeconds": "upgrading the first control-plane node (kubeadm upgrade apply: new static pods, etcd, add-ons)",
    control_plane_node = "controlPlaneNodeSeconds": "upgrading each further control-plane node's components",
    etcd_member = "etcdMemberSeconds": "restarting one etcd member on the new version and its rejoin",
    node_upgrade = "nodeUpgradeSeconds": "upgrading a node's kubelet and runtime in place (kOps: replacing the instance; OpenShift: OS update and reboot)",
    post_drain_delay = "postDrainDelaySeconds": "kOps: wait after a drain for connections to close",
    node_interval = "nodeIntervalSeconds": "kOps: wait after terminating an instance for the API server to notice",
    validate = "validateSeconds": "kOps: cluster validation (two passes 10 s apart) before each group and after each node",
    addon = "addonSeconds": "upgrading one RKE add-on (network plugin, DNS, ingress, metrics server)",
    cluster_operators = "clusterOperatorsSeconds": "OpenShift: the CVO applying the release's manifests, runlevel by runlevel (60-120 min)",
    load_balancer = "loadBalancerSeconds": "GKE on Bare Metal: moving traffic off the control-plane load balancers (under 1-2 min)",
    addons_upgrade = "addonsUpgradeSeconds": "GKE on Bare Metal: GKE Connect and cluster add-ons, operators drained and upgraded (under 5 min)",
    iptables_flush = "iptablesFlushSeconds": "RKE < 1.1: pods on a worker are unreachable while kube-proxy restarts and rebuilds iptables",
}

impl Timings {
    /// The defaults for a profile.
    pub fn defaults(profile: Profile) -> Timings {
        let mut t = Timings {
            cordon: 5,
            pod_eviction: 30,
            drain_timeout: 3600,
            pod_start: 60,
            node_ready: 30,
            control_plane_first: 300,
            control_plane_node: 180,
            etcd_member: 60,
            node_upgrade: 120,
            post_drain_delay: 0,
            node_interval: 0,
            validate: 0,
            addon: 0,
            cluster_operators: 0,
            load_balancer: 0,
            addons_upgrade: 0,
            iptables_flush: 0,
        };
        match profile {
            Profile::Kubeadm => {}
            Profile::Rke | Profile::RkeLegacy => {
                t.drain_timeout = 120;
                t.node_upgrade = 60;
                t.control_plane_first = 120;
                t.control_plane_node = 120;
                t.addon = 30;
                if profile == Profile::RkeLegacy {
                    t.iptables_flush = 10;
                }
            }
            Profile::Kops => {
                t.drain_timeout = 900;
                t.node_upgrade = 300;
                t.control_plane_first = 300;
                t.control_plane_node = 300;
                t.post_drain_delay = 5;
                t.node_interval = 15;
                t.validate = 10;
            }
            Profile::Openshift => {
                t.node_upgrade = 600;
                t.cluster_operators = 5400;
                t.control_plane_first = 600;
                t.control_plane_node = 600;
            }
            Profile::GkeBaremetal => {
                t.drain_timeout = 1200;
                t.node_upgrade = 540;
                t.control_plane_first = 540;
                t.control_plane_node = 540;
                t.load_balancer = 120;
                t.addons_upgrade = 300;
            }
        }
        t
    }

    /// The profile's defaults with the user's overrides; an unknown name is an options error.
    pub fn resolve(o: &UpgradeOptions) -> Result<Timings, OptionsError> {
        let mut t = Timings::defaults(o.profile);
        for (name, v) in &o.timings {
            if *v > MAX_SECONDS.unsigned_abs() {
                return Err(OptionsError {
                    field: format!("timings.{name}"),
                    message: format!("{v} seconds is more than a week ({MAX_SECONDS})"),
                });
            }
            // `pool/<name>`: a node's whole step in that pool, as a run measured it (`plan.learned`, the
            // `timings` output): read by the plan per pool, not a default time.
            if name.strip_prefix(POOL_STEP).is_some_and(|p| !p.is_empty()) {
                continue;
            }
            if !t.set(name, *v) {
                let known: Vec<&str> = TIMING_DOCS.iter().map(|(n, _)| *n).collect();
                return Err(OptionsError {
                    field: format!("timings.{name}"),
                    message: format!("unknown timing (known: {}, or {POOL_STEP}<pool>)", known.join(", ")),
                });
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_and_unknown_names() {
        let mut o = UpgradeOptions::new("1.29.2");
        o.profile = Profile::Kops;
        o.timings.insert("podStartSeconds".into(), 90);
        let t = Timings::resolve(&o).unwrap();
        assert_eq!((t.pod_start, t.post_drain_delay, t.node_interval, t.drain_timeout), (90, 5, 15, 900));
        assert_eq!(t.to_map().len(), TIMING_DOCS.len());
        o.timings.insert("pool/nodes-a".into(), 400);
        assert!(Timings::resolve(&o).is_ok());
        o.timings.insert("pool/".into(), 1);
        assert_eq!(Timings::resolve(&o).unwrap_err().field, "timings.pool/");
        o.timings.remove("pool/");
        o.timings.insert("podStart".into(), 1);
        assert_eq!(Timings::resolve(&o).unwrap_err().field, "timings.podStart");
    }
}
