//! Node pools and their unavailable-node budgets, per distribution (DOMAIN section 5).
//!
//! A pool is what a distribution budgets over: a role (RKE, kubeadm), an instance group (kOps, by the
//! `kops.k8s.io/instancegroup` label), a machine config pool (OpenShift, by role) or a node pool (GKE on
//! Bare Metal). The resolved limit is the number of nodes allowed out at once, with each distribution's
//! own rounding.

use crate::options::{OptionsError, Profile, UpgradeOptions};
use crate::quantity::IntOrPercent;
use crate::rules::context::NodeView;

pub const KOPS_GROUP_LABEL: &str = "kops.k8s.io/instancegroup";
pub const GKE_POOL_LABEL: &str = "baremetal.cluster.gke.io/node-pool";
/// RKE caps the nodes upgraded at once.
pub const RKE_MAX_BATCH: i64 = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PoolRole {
    Etcd,
    ControlPlane,
    Worker,
}

impl PoolRole {
    pub fn phase(self) -> &'static str {
        match self {
            PoolRole::Etcd => "etcd",
            PoolRole::ControlPlane => "control-plane",
            PoolRole::Worker => "workers",
        }
    }
}

/// A pool: indices into `Context::nodes`, in the context's node order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub name: String,
    pub role: PoolRole,
    pub nodes: Vec<usize>,
}

/// A pool's resolved budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Nodes that may be unavailable at once (the abort threshold for already-unavailable nodes).
    pub max_unavailable: u32,
    /// Extra nodes created before old ones go (kOps surge).
    pub max_surge: u32,
    /// Nodes in flight at once.
    pub concurrency: u32,
    /// How it was resolved, for messages: `"25% of 11 rounded down"`.
    pub how: &'static str,
}

/// The pools of the cluster for a profile.
pub fn pools(profile: Profile, nodes: &[NodeView<'_>]) -> Vec<Pool> {
    let mut pools: Vec<Pool> = Vec::new();
    let mut add =
        |name: String, role: PoolRole, i: usize| match pools.iter_mut().find(|p| p.name == name && p.role == role) {
            Some(p) => p.nodes.push(i),
            None => pools.push(Pool { name, role, nodes: vec![i] }),
        };
    for (i, n) in nodes.iter().enumerate() {
        let cp = n.is_control_plane();
        match profile {
            Profile::Rke | Profile::RkeLegacy => {
                if n.roles.etcd {
                    add("etcd".into(), PoolRole::Etcd, i);
                }
                if cp {
                    add("control-plane".into(), PoolRole::ControlPlane, i);
                }
                if n.roles.worker || !(cp || n.roles.etcd) {
                    add("workers".into(), PoolRole::Worker, i);
                }
            }
            Profile::Kops => {
                let role = if cp { PoolRole::ControlPlane } else { PoolRole::Worker };
                let group = n.obj.labels.get(KOPS_GROUP_LABEL).cloned().unwrap_or_else(|| {
                    if cp {
                        "control-plane".into()
                    } else {
                        "nodes".into()
                    }
                });
                add(group, role, i);
            }
            Profile::Openshift => {
                if cp {
                    add("master".into(), PoolRole::ControlPlane, i);
                } else {
                    add("worker".into(), PoolRole::Worker, i);
                }
            }
            Profile::GkeBaremetal => {
                if cp {
                    add("control-plane".into(), PoolRole::ControlPlane, i);
                } else {
                    add(
                        n.obj.labels.get(GKE_POOL_LABEL).cloned().unwrap_or_else(|| "workers".into()),
                        PoolRole::Worker,
                        i,
                    );
                }
            }
            Profile::Kubeadm => {
                if cp {
                    add("control-plane".into(), PoolRole::ControlPlane, i);
                } else {
                    add("workers".into(), PoolRole::Worker, i);
                }
            }
        }
    }
    pools.sort_by(|a, b| (a.role, &a.name).cmp(&(b.role, &b.name)));
    pools
}

fn floor_at_least_one(v: IntOrPercent, size: i64) -> i64 {
    v.scaled_floor(size).max(1)
}

fn to_u32(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

/// Resolve a pool's budget. `aws` says the nodes run on AWS (kOps defaults maxSurge to 1 there).
pub fn resolve(profile: Profile, role: PoolRole, size: usize, o: &UpgradeOptions, aws: bool) -> Limit {
    let size_i = i64::try_from(size).unwrap_or(i64::MAX);
    let limit = |mu: i64, surge: i64, how| Limit {
        max_unavailable: to_u32(mu),
        max_surge: to_u32(surge),
        concurrency: to_u32((mu + surge).max(1)),
        how,
    };
    let option = match role {
        PoolRole::Worker => o.max_unavailable_worker,
        PoolRole::ControlPlane => o.max_unavailable_control_plane,
        PoolRole::Etcd => None,
    };
    match (profile, role) {
        (Profile::Rke | Profile::RkeLegacy, PoolRole::Etcd) => limit(1, 0, "etcd hosts one by one"),
        (Profile::Rke, _) => {
            let (v, how) = match (option, role) {
                (Some(v), _) => (v, "rounded down, at least 1, at most 50"),
                (None, PoolRole::Worker) => (IntOrPercent::Percent(10), "the default 10%, rounded down, at least 1"),
                (None, _) => (IntOrPercent::Int(1), "the default 1"),
            };
            limit(floor_at_least_one(v, size_i).min(RKE_MAX_BATCH), 0, how)
        }
        (Profile::RkeLegacy, _) => limit(size_i.clamp(1, RKE_MAX_BATCH), 0, "RKE < 1.1: batches of min(50, count)"),
        (Profile::Kops, PoolRole::ControlPlane) => {
            // Control-plane groups never surge.
            let mu = match option {
                Some(IntOrPercent::Int(n)) => n,
                Some(p) => floor_at_least_one(p, size_i),
                None => 1,
            };
            limit(mu, 0, "control-plane groups never surge")
        }
        (Profile::Kops, _) => {
            let surge = match o.max_surge {
                Some(v) => v.scaled_ceil(size_i),
                None => i64::from(aws),
            }
            .min(size_i);
            let mu = match option {
                Some(IntOrPercent::Int(n)) => n,
                Some(p) => floor_at_least_one(p, size_i),
                None if surge == 0 => 1,
                None => 0,
            };
            limit(mu, surge, "maxUnavailable rounded down (a percent giving 0 is 1), maxSurge rounded up")
        }
        (Profile::Openshift, _) => {
            let v = option.unwrap_or(IntOrPercent::Int(1));
            limit(floor_at_least_one(v, size_i), 0, "rounded down, at least 1")
        }
        (Profile::GkeBaremetal, PoolRole::Worker) => {
            let n = match option {
                Some(IntOrPercent::Int(n)) => n.max(1),
                _ => 1,
            };
            limit(n, 0, "concurrentNodes")
        }
        (Profile::GkeBaremetal, _) => limit(1, 0, "control-plane nodes one at a time"),
        (Profile::Kubeadm, _) => match option {
            Some(v) => limit(floor_at_least_one(v, size_i), 0, "rounded down, at least 1"),
            None => limit(1, 0, "one node at a time"),
        },
    }
}

fn bad(field: &str, message: String) -> Result<(), OptionsError> {
    Err(OptionsError { field: field.to_owned(), message })
}

/// Refuse limits the chosen distribution refuses (CONTRACT section 3: an options error naming the field).
pub fn validate(o: &UpgradeOptions) -> Result<(), OptionsError> {
    let p = o.profile;
    let limits = [
        ("maxUnavailableWorker", o.max_unavailable_worker),
        ("maxUnavailableControlPlane", o.max_unavailable_control_plane),
    ];
    for (field, v) in limits {
        match (p, v) {
            (
                Profile::Rke | Profile::RkeLegacy | Profile::Kubeadm | Profile::GkeBaremetal,
                Some(IntOrPercent::Int(0)),
            ) => {
                return bad(field, format!("0 nodes at a time would never finish: {p} needs at least 1"));
            }
            (Profile::GkeBaremetal, Some(IntOrPercent::Percent(_))) => {
                return bad(field, "GKE on Bare Metal takes a node count (concurrentNodes), not a percentage".into());
            }
            _ => {}
        }
    }
    if let Some(s) = o.max_surge {
        if p != Profile::Kops {
            return bad("maxSurge", format!("{p} does not surge: only kops creates extra nodes (remove maxSurge)"));
        }
        if s.scaled_ceil(100) == 0 && o.max_unavailable_worker == Some(IntOrPercent::Int(0)) {
            return bad(
                "maxUnavailableWorker",
                "kops refuses maxSurge 0 with maxUnavailable 0: nothing could be replaced".into(),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(worker: Option<IntOrPercent>, cp: Option<IntOrPercent>, surge: Option<IntOrPercent>) -> UpgradeOptions {
        UpgradeOptions {
            max_unavailable_worker: worker,
            max_unavailable_control_plane: cp,
            max_surge: surge,
            ..UpgradeOptions::new("1.29.2")
        }
    }
    use IntOrPercent::{Int, Percent};

    #[test]
    fn rke_seed_facts() {
        // 11 workers at 25% -> 2; 3 workers at 1% -> 1; 9 control-plane at 25% -> 2.
        assert_eq!(
            resolve(Profile::Rke, PoolRole::Worker, 11, &opts(Some(Percent(25)), None, None), false).concurrency,
            2
        );
        assert_eq!(
            resolve(Profile::Rke, PoolRole::Worker, 3, &opts(Some(Percent(1)), None, None), false).concurrency,
            1
        );
        assert_eq!(
            resolve(Profile::Rke, PoolRole::ControlPlane, 9, &opts(None, Some(Percent(25)), None), false).concurrency,
            2
        );
        // Defaults: 10% of workers, 1 control plane; capped at 50.
        assert_eq!(resolve(Profile::Rke, PoolRole::Worker, 35, &opts(None, None, None), false).concurrency, 3);
        assert_eq!(resolve(Profile::Rke, PoolRole::ControlPlane, 5, &opts(None, None, None), false).concurrency, 1);
        assert_eq!(
            resolve(Profile::Rke, PoolRole::Worker, 400, &opts(Some(Percent(50)), None, None), false).concurrency,
            50
        );
        assert_eq!(resolve(Profile::RkeLegacy, PoolRole::Worker, 120, &opts(None, None, None), false).concurrency, 50);
        assert_eq!(resolve(Profile::RkeLegacy, PoolRole::Worker, 7, &opts(None, None, None), false).concurrency, 7);
    }

    #[test]
    fn kops_peer_facts() {
        // 10 nodes at 39% -> 3; maxSurge 31% of 10 -> 4.
        let l = resolve(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Percent(39)), None, None), false);
        assert_eq!((l.max_unavailable, l.max_surge, l.concurrency), (3, 0, 3));
        let l = resolve(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, Some(Percent(31))), false);
        assert_eq!((l.max_unavailable, l.max_surge, l.concurrency), (0, 4, 4));
        // Defaults: surge 1 on AWS (unavailable then 0), else unavailable 1.
        let l = resolve(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, None), true);
        assert_eq!((l.max_unavailable, l.max_surge), (0, 1));
        let l = resolve(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, None), false);
        assert_eq!((l.max_unavailable, l.max_surge), (1, 0));
        // An explicit 0 stays 0; a percent giving 0 is 1; surge is capped at the group size.
        let l = resolve(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Int(0)), None, Some(Int(2))), false);
        assert_eq!((l.max_unavailable, l.concurrency), (0, 2));
        assert_eq!(
            resolve(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Percent(5)), None, None), false).max_unavailable,
            1
        );
        assert_eq!(resolve(Profile::Kops, PoolRole::Worker, 3, &opts(None, None, Some(Int(10))), false).max_surge, 3);
        // Control-plane groups never surge.
        assert_eq!(
            resolve(Profile::Kops, PoolRole::ControlPlane, 3, &opts(None, None, Some(Int(2))), true).concurrency,
            1
        );
    }

    #[test]
    fn mco_peer_facts() {
        // 4 nodes at 50% -> 2, 60% -> 2, 0 -> 1.
        assert_eq!(
            resolve(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Percent(50)), None, None), false).concurrency,
            2
        );
        assert_eq!(
            resolve(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Percent(60)), None, None), false).concurrency,
            2
        );
        assert_eq!(
            resolve(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Int(0)), None, None), false).concurrency,
            1
        );
        assert_eq!(
            resolve(Profile::Openshift, PoolRole::ControlPlane, 3, &opts(None, None, None), false).concurrency,
            1
        );
    }

    #[test]
    fn options_the_distribution_refuses() {
        let mut o = opts(Some(Int(0)), None, None);
        o.profile = Profile::Rke;
        assert_eq!(validate(&o).unwrap_err().field, "maxUnavailableWorker");
        o.profile = Profile::Openshift;
        assert!(validate(&o).is_ok());
        let mut o = opts(Some(Percent(10)), None, None);
        o.profile = Profile::GkeBaremetal;
        assert_eq!(validate(&o).unwrap_err().field, "maxUnavailableWorker");
        let mut o = opts(None, None, Some(Int(1)));
        o.profile = Profile::Rke;
        assert_eq!(validate(&o).unwrap_err().field, "maxSurge");
    }
}
