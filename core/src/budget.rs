//! Node pools and their unavailable-node budgets, per distribution (DOMAIN section 5).
//!
//! A pool is what a distribution budgets over: a role (RKE, kubeadm), an instance group (kOps, by the
//! `kops.k8s.io/instancegroup` label), a machine config pool (OpenShift, by role) or a node pool (GKE on
//! Bare Metal). The resolved limit is the number of nodes allowed out at once, with each distribution's
//! own rounding.

use crate::cluster::Cluster;
use crate::model::distro::{KopsRole, RollingUpdate};
use crate::model::{Body, Object};
use crate::options::{OptionsError, Profile, UpgradeOptions};
use crate::quantity::IntOrPercent;

pub const KOPS_GROUP_LABEL: &str = "kops.k8s.io/instancegroup";
pub const GKE_POOL_LABEL: &str = "baremetal.cluster.gke.io/node-pool";
/// More bastions than this in one group is not a real cluster: the plan counts at most this many.
pub const MAX_BASTIONS: i64 = 100;
/// RKE caps the nodes upgraded at once.
pub const RKE_MAX_BATCH: i64 = 50;

/// What a pool is for, in upgrade order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PoolRole {
    /// kOps bastion groups (not nodes of the cluster).
    Bastion,
    Etcd,
    ControlPlane,
    /// kOps APIServer groups.
    ApiServer,
    /// GKE on Bare Metal's load-balancer node pool.
    LoadBalancer,
    Worker,
}

/// A pool: indices into `Cluster::nodes`, in the context's node order, and its own settings from the
/// distribution's config (an instance group's `rollingUpdate`, a machine config pool's `maxUnavailable`,
/// a node pool's `concurrentNodes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub name: String,
    pub role: PoolRole,
    pub nodes: Vec<usize>,
    pub settings: RollingUpdate,
    /// A paused machine config pool, or a GKE on Bare Metal worker node pool pinned to another version, is
    /// not updated.
    pub paused: bool,
    /// Instances that are not nodes (kOps bastions).
    pub instances: usize,
    /// GKE on Bare Metal `minimumAvailableNodes`: nodes that must stay available during the upgrade.
    pub minimum_available: Option<i64>,
    /// A machine config pool's `maxUnavailable` the MCO refuses: it never updates the pool.
    pub refused: Option<String>,
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
    /// GKE on Bare Metal's `minimumAvailableNodes` leaves no node of the pool free to go.
    pub none_may_go: bool,
}

/// Why a pool's upgrade does not start, as the distribution itself decides before it touches a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// The pool's nodes that stop it (already unavailable, as the distribution counts them), in pool order.
    pub nodes: Vec<usize>,
    pub limit: Limit,
    pub kind: GateKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateKind {
    /// GKE on Bare Metal: `minimumAvailableNodes` >= the pool's size, so no node may go.
    NoneMayGo,
    /// kOps: cluster validation fails (a node not Ready or NetworkUnavailable) before each group.
    ValidationFails,
    /// kubeadm: `upgrade apply`'s health check fails (a control-plane node not Ready).
    HealthCheckFails,
    /// RKE, the MCO, GKE on Bare Metal: the nodes already unavailable reach the pool's limit.
    LimitReached,
}

/// The nodes of a pool the distribution counts as already unavailable before it starts (docs/semantics.md,
/// "Unavailable"): kOps and kubeadm list the ones that stop them outright.
pub fn unavailable(cluster: &Cluster<'_>, pool: &Pool) -> Vec<usize> {
    use crate::cluster::nodes::Treatment;
    let profile = cluster.profile();
    // RKE's worker plane (cluster/cluster.go, UpgradeWorkerPlane) counts every inactive host without the
    // controlplane role against max_unavailable_worker, etcd-only ones included; control-plane hosts have
    // their worker plane upgraded with the control plane.
    // (The filter below leaves control-plane hosts out, so every host is a candidate.)
    let members: Vec<usize> = if matches!(profile, Profile::Rke | Profile::RkeLegacy) && pool.role == PoolRole::Worker {
        (0..cluster.nodes.len()).collect()
    } else {
        pool.nodes.clone()
    };
    members
        .iter()
        .copied()
        .filter(|i| {
            let Some(n) = cluster.nodes.get(*i) else { return false };
            // Finishing an upgrade under way, the nodes it is at are its own first slots in the plan, not
            // nodes already out before it starts.
            if n.upgrading && cluster.finishing.is_some() {
                return false;
            }
            match profile {
                // Whole-cluster validation (kOps) and the control-plane health check (kubeadm) stop at one.
                Profile::Kops | Profile::Kubeadm => n.treatment(profile) == Treatment::Stops,
                Profile::Rke | Profile::RkeLegacy if pool.role == PoolRole::Worker => {
                    !n.is_control_plane() && n.counts_against_limit(profile)
                }
                _ => n.counts_against_limit(profile),
            }
        })
        .collect()
}

/// A failure of kOps' cluster validation besides a node's (pkg/validation/validate_cluster.go): a
/// system-critical pod that is Pending, Unknown or has a container not ready (the snapshot's Ready condition
/// False; `collectPodFailures`), a Ready control-plane node without its kube-apiserver,
/// kube-controller-manager or kube-scheduler pod (`collectPodFailures`, "is missing ... pod"), or an instance
/// group with fewer nodes than its `minSize` (`validateNodes`, "did not have enough nodes"). It is tied to an
/// instance group (`pool`: a `system-node-critical` pod's node's group, a control-plane node's group, the
/// short group) or to none (`system-cluster-critical`, or a pod on no known node), which concerns every group
/// (`hasFailureRelevantToGroup`).
pub struct ValidationFailure<'a> {
    pub object: &'a Object,
    pub pool: Option<String>,
    /// The pool is a control-plane group: the failure concerns every group.
    pub control_plane: bool,
    pub what: String,
}

/// The static pods kOps validation requires on each Ready control-plane node (`masterStaticPods`).
const KOPS_STATIC_PODS: [&str; 3] = ["kube-apiserver", "kube-controller-manager", "kube-scheduler"];

/// The failures kOps validation reports besides not-Ready nodes (empty for any other distribution).
pub fn kops_validation_failures<'a>(cluster: &Cluster<'a>) -> Vec<ValidationFailure<'a>> {
    use crate::cluster::nodes::Treatment;
    use crate::model::Critical;
    if cluster.profile() != Profile::Kops || cluster.lifts("budget/unavailable-exceeds-limit") {
        return Vec::new();
    }
    let pools = pools(cluster);
    let mut out = Vec::new();
    // Read in the same pass: whether the snapshot holds kube-system's pods at all, and the control plane's
    // static pods found there by node (their `k8s-app` label).
    let mut kube_system = false;
    let mut found: Vec<(&str, &str)> = Vec::new();
    for (o, p) in cluster.pods() {
        if o.r.namespace.as_deref() == Some("kube-system") {
            kube_system = true;
            let app = o.labels.get("k8s-app").and_then(|app| KOPS_STATIC_PODS.iter().copied().find(|a| app == a));
            if let (Some(app), Some(node)) = (app, p.spec.node_name.as_deref()) {
                found.push((node, app));
            }
        }
        if p.spec.critical == Critical::No {
            continue;
        }
        let why = match p.phase.as_deref() {
            Some("Succeeded") => continue,
            Some("Pending") => "is pending",
            Some("Unknown") => "has an unknown status",
            _ if p.ready == Some(false) => "is not ready",
            _ => continue,
        };
        let class = if p.spec.critical == Critical::Node { "system-node-critical" } else { "system-cluster-critical" };
        let pool = (p.spec.critical == Critical::Node)
            .then(|| p.spec.node_name.as_deref().and_then(|n| cluster.node_index(n)))
            .flatten()
            .filter(|i| cluster.nodes.get(*i).is_some_and(|n| n.obj.labels.contains_key(KOPS_GROUP_LABEL)))
            .and_then(|i| pools.iter().find(|p| p.nodes.contains(&i)));
        out.push(ValidationFailure {
            object: o,
            pool: pool.map(|p| p.name.clone()),
            control_plane: pool.is_some_and(|p| p.role == PoolRole::ControlPlane),
            what: format!("{class} pod {} {why}", o.r.name),
        });
    }
    // The control plane's static pods (`collectPodFailures`, `masterStaticPods`): each Ready node labelled
    // node-role.kubernetes.io/control-plane runs a kube-apiserver, kube-controller-manager and kube-scheduler
    // pod, found by their `k8s-app` label in kube-system (kOps matches a pod's hostIP to the node's addresses;
    // a running pod's node is its spec.nodeName here). Only where the snapshot holds kube-system's pods at
    // all: a snapshot of other namespaces says nothing of them.
    if kube_system {
        crate::sort::sort_dedup(&mut found);
        for n in &cluster.nodes {
            let control_plane = n.obj.labels.contains_key("node-role.kubernetes.io/control-plane");
            if !control_plane || n.treatment(Profile::Kops) == Treatment::Stops {
                continue;
            }
            let group = n.obj.labels.get(KOPS_GROUP_LABEL).and_then(|g| pools.iter().find(|p| p.name == **g));
            for app in KOPS_STATIC_PODS {
                if found.binary_search(&(n.name(), app)).is_err() {
                    out.push(ValidationFailure {
                        object: n.obj,
                        pool: group.map(|p| p.name.clone()),
                        control_plane: true,
                        what: format!(
                            "control-plane node {} is missing its {app} pod (kube-system, k8s-app={app})",
                            n.name()
                        ),
                    });
                }
            }
        }
    }
    // Group sizes: only where the nodes carry the instance-group label at all.
    if cluster.nodes.iter().any(|n| n.obj.labels.contains_key(KOPS_GROUP_LABEL)) {
        for o in cluster.objects {
            let Body::KopsGroup(g) = &o.body else { continue };
            if g.role == KopsRole::Bastion {
                continue;
            }
            let Some(pool) = pools.iter().find(|p| p.name == o.r.name) else { continue };
            let have = i64::try_from(pool.nodes.len()).unwrap_or(i64::MAX);
            if have < g.min_size {
                out.push(ValidationFailure {
                    object: o,
                    pool: Some(pool.name.clone()),
                    control_plane: pool.role == PoolRole::ControlPlane,
                    what: format!(
                        "instance group {} has {have} node(s) of its minSize {} (\"did not have enough nodes\")",
                        o.r.name, g.min_size
                    ),
                });
            }
        }
    }
    out
}

/// Does the distribution refuse to start this pool's upgrade, and why? The rule
/// `budget/unavailable-exceeds-limit` reports it and the plan stops there: one decision for both.
pub fn gate(cluster: &Cluster<'_>, pool: &Pool) -> Option<Gate> {
    if cluster.lifts("budget/unavailable-exceeds-limit") {
        return None;
    }
    // RKE has no unavailable-host limit for its etcd plane (cluster/cluster.go: the etcd plane upgrades the
    // reachable etcd hosts); budget/etcd-member-unavailable reports the member.
    if matches!(cluster.profile(), Profile::Rke | Profile::RkeLegacy) && pool.role == PoolRole::Etcd {
        return None;
    }
    let limit = limit(cluster, pool);
    let nodes = unavailable(cluster, pool);
    let kind = if limit.none_may_go && nodes.is_empty() {
        GateKind::NoneMayGo
    } else if nodes.is_empty() {
        return None;
    } else {
        match cluster.profile() {
            Profile::Kops => GateKind::ValidationFails,
            Profile::Kubeadm => GateKind::HealthCheckFails,
            _ if (nodes.len() as u64) < u64::from(limit.max_unavailable) => return None,
            _ => GateKind::LimitReached,
        }
    };
    Some(Gate { nodes, limit, kind })
}

/// Why the distribution leaves a paused pool out of the upgrade, by profile.
pub fn paused_reason(profile: Profile) -> &'static str {
    match profile {
        Profile::GkeBaremetal => {
            "its spec.anthosBareMetalVersion pins it to another version: the cluster upgrade leaves its nodes where they are"
        }
        _ => "it is paused (spec.paused): the Machine Config Operator does not update its nodes until it is unpaused",
    }
}

/// The pools the upgrade leaves out ([`Pool::paused`]), with their nodes' names, sorted.
pub fn left_out(cluster: &Cluster<'_>) -> Vec<crate::report::LeftOut> {
    pools(cluster)
        .into_iter()
        .filter(|p| p.paused && !p.nodes.is_empty())
        .map(|p| {
            let mut nodes: Vec<String> =
                p.nodes.iter().filter_map(|i| cluster.nodes.get(*i)).map(|n| n.name().to_owned()).collect();
            crate::sort::sort(&mut nodes);
            crate::report::LeftOut { pool: p.name, reason: paused_reason(cluster.profile()).to_owned(), nodes }
        })
        .collect()
}

/// Each node's pool (by its position in `Cluster::nodes`, `count` of them): the one it is upgraded in, its
/// etcd pool only when it has no other (the first such pool, in pool order). One pass over the pools.
pub fn home_pools(pools: &[Pool], count: usize) -> Vec<Option<&Pool>> {
    let mut out: Vec<Option<&Pool>> = vec![None; count];
    for p in pools {
        for i in &p.nodes {
            if let Some(slot) = out.get_mut(*i) {
                if slot.is_none_or(|q| q.role == PoolRole::Etcd && p.role != PoolRole::Etcd) {
                    *slot = Some(p);
                }
            }
        }
    }
    out
}

/// The pools of the cluster for its profile, from the nodes' roles and labels and the distribution's
/// objects among the inputs.
pub fn pools(cluster: &Cluster<'_>) -> Vec<Pool> {
    let (profile, nodes, objects) = (cluster.profile(), &cluster.nodes, cluster.objects);
    let mut pools: Vec<Pool> = Vec::new();
    fn add(pools: &mut Vec<Pool>, name: impl Into<String>, role: PoolRole, i: Option<usize>) {
        let name: String = name.into();
        let p = match pools.iter().position(|p| p.name == name && p.role == role) {
            Some(k) => pools.get_mut(k),
            None => {
                pools.push(Pool {
                    name,
                    role,
                    nodes: Vec::new(),
                    settings: RollingUpdate::default(),
                    paused: false,
                    instances: 0,
                    minimum_available: None,
                    refused: None,
                });
                pools.last_mut()
            }
        };
        if let (Some(p), Some(i)) = (p, i) {
            p.nodes.push(i);
        }
    }
    let named = |kind: fn(&Body) -> bool| objects.iter().filter(move |o| kind(&o.body));
    match profile {
        Profile::Rke | Profile::RkeLegacy => {
            for (i, n) in nodes.iter().enumerate() {
                let cp = n.is_control_plane();
                if n.roles.etcd {
                    add(&mut pools, "etcd", PoolRole::Etcd, Some(i));
                }
                if cp {
                    add(&mut pools, "control-plane", PoolRole::ControlPlane, Some(i));
                }
                if n.is_worker() {
                    add(&mut pools, "workers", PoolRole::Worker, Some(i));
                }
            }
        }
        Profile::Kops => {
            let groups: Vec<(&Object, &crate::model::distro::KopsGroup)> = objects
                .iter()
                .filter_map(|o| match &o.body {
                    Body::KopsGroup(g) => Some((o, &**g)),
                    _ => None,
                })
                .collect();
            let cluster = objects.iter().find_map(|o| match &o.body {
                Body::KopsCluster(c) => Some(c.rolling),
                _ => None,
            });
            let role_of = |g: &crate::model::distro::KopsGroup| match g.role {
                KopsRole::Bastion => PoolRole::Bastion,
                KopsRole::ControlPlane => PoolRole::ControlPlane,
                KopsRole::ApiServer => PoolRole::ApiServer,
                KopsRole::Node => PoolRole::Worker,
            };
            for (i, n) in nodes.iter().enumerate() {
                let label = n.obj.labels.get(KOPS_GROUP_LABEL).cloned();
                let group = label.as_ref().and_then(|l| groups.iter().find(|(o, _)| &o.r.name == l));
                let role = match group {
                    Some((_, g)) => role_of(g),
                    None if n.is_control_plane() => PoolRole::ControlPlane,
                    None => PoolRole::Worker,
                };
                let name =
                    label.unwrap_or_else(|| if n.is_control_plane() { "control-plane".into() } else { "nodes".into() });
                add(&mut pools, name, role, Some(i));
            }
            for (o, g) in &groups {
                let role = role_of(g);
                add(&mut pools, o.r.name.clone(), role, None);
                if let Some(p) = pools.iter_mut().find(|p| p.name == o.r.name && p.role == role) {
                    // The group's own rollingUpdate, else the cluster's, for every group
                    // (pkg/instancegroups/settings.go, resolveSettings; control-plane groups then never surge).
                    let mut s = g.rolling;
                    if let Some(c) = cluster {
                        s.max_unavailable = s.max_unavailable.or(c.max_unavailable);
                        s.max_surge = s.max_surge.or(c.max_surge);
                        s.drain_and_terminate = s.drain_and_terminate.or(c.drain_and_terminate);
                    }
                    p.settings = s;
                    if role == PoolRole::Bastion {
                        p.instances = usize::try_from(g.min_size.clamp(0, MAX_BASTIONS)).unwrap_or(0);
                    }
                }
            }
            pools.retain(|p| !p.nodes.is_empty() || p.instances > 0);
        }
        Profile::Openshift => {
            let mcps: Vec<(&Object, &crate::model::distro::Mcp)> = named(|b| matches!(b, Body::Mcp(_)))
                .filter_map(|o| match &o.body {
                    Body::Mcp(m) => Some((o, &**m)),
                    _ => None,
                })
                .collect();
            for (i, n) in nodes.iter().enumerate() {
                // The MCO never manages a Windows node (helpers.go, ListPools: IsWindows).
                if n.obj.labels.get("kubernetes.io/os").is_some_and(|os| os.as_str() == "windows") {
                    continue;
                }
                if mcps.is_empty() {
                    // No pool in the snapshot: the default master and worker pools, by role.
                    if n.is_control_plane() {
                        add(&mut pools, "master", PoolRole::ControlPlane, Some(i));
                    } else {
                        add(&mut pools, "worker", PoolRole::Worker, Some(i));
                    }
                    continue;
                }
                // helpers.go, GetPoolsForNode: a pool with an empty selector selects nothing; master wins (a
                // master with a custom role stays in master, OCPBUGS-2177); one custom pool wins over worker;
                // two custom pools are an error (the node is in no pool); a node no pool selects is not
                // managed.
                let matching: Vec<&(&Object, &crate::model::distro::Mcp)> = mcps
                    .iter()
                    .filter(|(_, m)| !m.node_selector.is_empty() && m.node_selector.matches(&n.obj.labels))
                    .collect();
                let named = |name: &str| matching.iter().find(|(o, _)| o.r.name == name);
                let custom: Vec<_> =
                    matching.iter().filter(|(o, _)| o.r.name != "master" && o.r.name != "worker").collect();
                let chosen = match (custom.as_slice(), named("master"), named("worker")) {
                    ([_, _, ..], _, _) => None,
                    (_, Some(m), _) => Some((m.0.r.name.clone(), PoolRole::ControlPlane)),
                    ([one], None, _) => Some((one.0.r.name.clone(), PoolRole::Worker)),
                    ([], None, Some(w)) => Some((w.0.r.name.clone(), PoolRole::Worker)),
                    ([], None, None) => None,
                };
                if let Some((name, role)) = chosen {
                    add(&mut pools, name, role, Some(i));
                }
            }
            for p in &mut pools {
                if let Some((_, m)) = mcps.iter().find(|(o, _)| o.r.name == p.name) {
                    p.settings.max_unavailable = m.max_unavailable;
                    p.paused = m.paused;
                    p.refused = m.max_unavailable_refused.clone();
                }
            }
        }
        Profile::GkeBaremetal => {
            for (i, n) in nodes.iter().enumerate() {
                if n.is_control_plane() {
                    add(&mut pools, "control-plane", PoolRole::ControlPlane, Some(i));
                } else {
                    let name = n.obj.labels.get(GKE_POOL_LABEL).cloned().unwrap_or_else(|| "workers".into());
                    let role = if name.ends_with("-lb") { PoolRole::LoadBalancer } else { PoolRole::Worker };
                    add(&mut pools, name, role, Some(i));
                }
            }
            for p in &mut pools {
                let found = objects.iter().find_map(|o| match &o.body {
                    Body::GkePool(g) if o.r.name == p.name => Some(g),
                    _ => None,
                });
                if let Some(g) = found {
                    p.settings.max_unavailable = g.concurrent_nodes.map(IntOrPercent::count);
                    p.minimum_available = g.minimum_available;
                    // A worker pool whose spec.anthosBareMetalVersion is set to another version than the
                    // target is pinned there: the cluster upgrade leaves it out ("Upgrade clusters",
                    // selective worker node pool upgrades).
                    let pinned =
                        g.spec_version.as_deref().and_then(|v| crate::version::Version::parse_gke_baremetal(v).ok());
                    if p.role == PoolRole::Worker
                        && pinned.is_some_and(|v| v.minor != cluster.to.minor || v.patch != cluster.to.patch)
                    {
                        p.paused = true;
                    }
                }
            }
        }
        Profile::Kubeadm => {
            for (i, n) in nodes.iter().enumerate() {
                if n.is_control_plane() {
                    add(&mut pools, "control-plane", PoolRole::ControlPlane, Some(i));
                } else {
                    add(&mut pools, "workers", PoolRole::Worker, Some(i));
                }
            }
        }
    }
    crate::sort::sort_by(&mut pools, |a, b| (a.role, &a.name).cmp(&(b.role, &b.name)));
    pools
}

fn floor_at_least_one(v: IntOrPercent, size: i64) -> i64 {
    v.scaled_floor(size).max(1)
}

fn to_u32(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

/// A pool's resolved budget in this cluster. GKE on Bare Metal's `minimumAvailableNodes` caps how many
/// nodes of the pool may be out at once: at most `size - minimumAvailableNodes` (0: none may go).
pub fn limit(cluster: &Cluster<'_>, pool: &Pool) -> Limit {
    let mut size = pool.nodes.len();
    if cluster.profile() == Profile::Rke && pool.role == PoolRole::Worker {
        // RKE (cluster/hosts.go, CalculateMaxUnavailable) takes the percentage of its reachable worker hosts
        // plus its inactive hosts that have no worker role.
        let reachable = pool.nodes.iter().filter(|i| cluster.nodes.get(**i).is_some_and(|n| !n.info.unreachable));
        // (The worker pool is every host with the worker role, `NodeView::is_worker`.)
        let inactive_others = cluster.nodes.iter().filter(|n| !n.is_worker() && n.info.unreachable);
        size = reachable.count() + inactive_others.count();
    }
    let mut l = resolve(cluster.profile(), pool.role, size, cluster.options, &pool.settings, cluster.on_aws());
    if let Some(min) = pool.minimum_available.filter(|m| *m > 0) {
        let cap = to_u32(i64::try_from(size).unwrap_or(i64::MAX).saturating_sub(min));
        if cap < l.max_unavailable {
            l.max_unavailable = cap;
            l.concurrency = cap.max(1);
            l.how = "capped by minimumAvailableNodes";
            l.none_may_go = cap == 0;
        }
    }
    l
}

/// Resolve a pool's budget: the options (flags) win over the pool's own settings, which win over the
/// distribution's defaults. `aws` says the nodes run on AWS (kOps defaults maxSurge to 1 there).
pub fn resolve(
    profile: Profile,
    role: PoolRole,
    size: usize,
    o: &UpgradeOptions,
    pool: &RollingUpdate,
    aws: bool,
) -> Limit {
    let size_i = i64::try_from(size).unwrap_or(i64::MAX);
    let limit = |mu: i64, surge: i64, how| Limit {
        max_unavailable: to_u32(mu),
        max_surge: to_u32(surge),
        concurrency: to_u32((mu + surge).max(1)),
        how,
        none_may_go: false,
    };
    let option = match role {
        PoolRole::Worker | PoolRole::LoadBalancer => o.max_unavailable_worker,
        PoolRole::ControlPlane | PoolRole::ApiServer => o.max_unavailable_control_plane,
        PoolRole::Etcd | PoolRole::Bastion => None,
    }
    .or(pool.max_unavailable);
    let surge_option = o.max_surge.or(pool.max_surge);
    match (profile, role) {
        (_, PoolRole::Bastion) => limit(1, 0, "bastions one at a time"),
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
            // Control-plane groups never surge (APIServer groups do: rollingupdate.go checks the
            // ControlPlane role only).
            let mu = match option {
                Some(IntOrPercent::Int(n)) => n,
                Some(p) => floor_at_least_one(p, size_i),
                None => 1,
            };
            limit(mu, 0, "control-plane groups never surge")
        }
        (Profile::Kops, _) => {
            let surge = match surge_option {
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
        (Profile::GkeBaremetal, PoolRole::Worker | PoolRole::LoadBalancer) => {
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
            // RKE (services/node_util.go CalculateMaxUnavailable): "value must be > 0", for "0%" too.
            (Profile::Rke | Profile::RkeLegacy, Some(IntOrPercent::Percent(0))) => {
                return bad(
                    field,
                    format!("invalid input for max_unavailable: 0%, value must be > 0 ({p} refuses it)"),
                );
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

    fn r(profile: Profile, role: PoolRole, size: usize, o: &UpgradeOptions, aws: bool) -> Limit {
        resolve(profile, role, size, o, &RollingUpdate::default(), aws)
    }

    #[test]
    fn rke_seed_facts() {
        // 11 workers at 25% -> 2; 3 workers at 1% -> 1; 9 control-plane at 25% -> 2.
        assert_eq!(r(Profile::Rke, PoolRole::Worker, 11, &opts(Some(Percent(25)), None, None), false).concurrency, 2);
        assert_eq!(r(Profile::Rke, PoolRole::Worker, 3, &opts(Some(Percent(1)), None, None), false).concurrency, 1);
        assert_eq!(
            r(Profile::Rke, PoolRole::ControlPlane, 9, &opts(None, Some(Percent(25)), None), false).concurrency,
            2
        );
        // Defaults: 10% of workers, 1 control plane; capped at 50.
        assert_eq!(r(Profile::Rke, PoolRole::Worker, 35, &opts(None, None, None), false).concurrency, 3);
        assert_eq!(r(Profile::Rke, PoolRole::ControlPlane, 5, &opts(None, None, None), false).concurrency, 1);
        assert_eq!(r(Profile::Rke, PoolRole::Worker, 400, &opts(Some(Percent(50)), None, None), false).concurrency, 50);
        assert_eq!(r(Profile::RkeLegacy, PoolRole::Worker, 120, &opts(None, None, None), false).concurrency, 50);
        assert_eq!(r(Profile::RkeLegacy, PoolRole::Worker, 7, &opts(None, None, None), false).concurrency, 7);
    }

    #[test]
    fn kops_peer_facts() {
        // 10 nodes at 39% -> 3; maxSurge 31% of 10 -> 4.
        let l = r(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Percent(39)), None, None), false);
        assert_eq!((l.max_unavailable, l.max_surge, l.concurrency), (3, 0, 3));
        let l = r(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, Some(Percent(31))), false);
        assert_eq!((l.max_unavailable, l.max_surge, l.concurrency), (0, 4, 4));
        // Defaults: surge 1 on AWS (unavailable then 0), else unavailable 1.
        let l = r(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, None), true);
        assert_eq!((l.max_unavailable, l.max_surge), (0, 1));
        let l = r(Profile::Kops, PoolRole::Worker, 10, &opts(None, None, None), false);
        assert_eq!((l.max_unavailable, l.max_surge), (1, 0));
        // An explicit 0 stays 0; a percent giving 0 is 1; surge is capped at the group size.
        let l = r(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Int(0)), None, Some(Int(2))), false);
        assert_eq!((l.max_unavailable, l.concurrency), (0, 2));
        assert_eq!(
            r(Profile::Kops, PoolRole::Worker, 10, &opts(Some(Percent(5)), None, None), false).max_unavailable,
            1
        );
        assert_eq!(r(Profile::Kops, PoolRole::Worker, 3, &opts(None, None, Some(Int(10))), false).max_surge, 3);
        // Control-plane groups never surge.
        assert_eq!(r(Profile::Kops, PoolRole::ControlPlane, 3, &opts(None, None, Some(Int(2))), true).concurrency, 1);
    }

    #[test]
    fn mco_peer_facts() {
        // 4 nodes at 50% -> 2, 60% -> 2, 0 -> 1.
        assert_eq!(
            r(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Percent(50)), None, None), false).concurrency,
            2
        );
        assert_eq!(
            r(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Percent(60)), None, None), false).concurrency,
            2
        );
        assert_eq!(r(Profile::Openshift, PoolRole::Worker, 4, &opts(Some(Int(0)), None, None), false).concurrency, 1);
        assert_eq!(r(Profile::Openshift, PoolRole::ControlPlane, 3, &opts(None, None, None), false).concurrency, 1);
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
