//! May this pod be evicted now? PodDisruptionBudgets and what they allow (DOMAIN section 6), and the
//! pods a drain never evicts.

use std::collections::{BTreeSet, HashMap};

use super::{Cluster, RunningPod};
use crate::model::{Body, Object, PdbInfo, PodInfo};
use crate::quantity::IntOrPercent;

/// A static pod's mirror: the kubelet owns it; drains skip it.
pub fn is_mirror(o: &Object) -> bool {
    o.annotations.contains_key("kubernetes.io/config.mirror")
}

/// What the eviction subresource does with a pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Eviction<'a> {
    /// Pending, Succeeded or Failed: deleted without looking at any budget.
    NoBudgetCheck,
    /// No budget covers it.
    NoBudget,
    /// Its budget lets it go now.
    Allowed,
    /// Its budget allows no disruption now: HTTP 429, retried.
    HeldBack(&'a Object),
    /// Covered by more than one budget: HTTP 500, "This pod has more than one PodDisruptionBudget, which
    /// the eviction subresource does not support."
    MoreThanOneBudget(Vec<&'a Object>),
}

/// A PodDisruptionBudget's numbers.
pub struct Budget {
    pub expected: i64,
    pub healthy: i64,
    pub desired: i64,
    pub allowed: i64,
    /// Could it ever allow a disruption with every pod healthy?
    pub never: bool,
    pub from_status: bool,
}

fn desired_for(pdb: &PdbInfo, expected: i64) -> i64 {
    match (pdb.max_unavailable, pdb.min_available) {
        (Some(mu), _) => expected.saturating_sub(mu.scaled_ceil(expected).min(expected)),
        (None, Some(IntOrPercent::Int(n))) => n,
        (None, Some(p)) => p.scaled_ceil(expected),
        // Neither given: the API server defaults to minAvailable 1.
        (None, None) => 1,
    }
}

/// Evaluate a PDB against the snapshot: its status when the snapshot has it, else computed from the spec
/// and the matching running pods.
fn evaluate(cluster: &Cluster<'_>, o: &Object, pdb: &PdbInfo) -> Budget {
    let ns = o.r.namespace.as_deref().unwrap_or("default");
    let pods: Vec<_> = cluster.running_pods_in(ns).iter().filter(|(p, _, _)| pdb.selector.matches(&p.labels)).collect();
    let counted_expected = i64::try_from(pods.len()).unwrap_or(i64::MAX);
    let counted_healthy =
        i64::try_from(pods.iter().filter(|(_, p, _)| p.ready == Some(true)).count()).unwrap_or(i64::MAX);
    let st = pdb.status.as_ref();
    let expected = st.and_then(|s| s.expected_pods).unwrap_or(counted_expected);
    let healthy = st.and_then(|s| s.current_healthy).unwrap_or(counted_healthy);
    let desired = st.and_then(|s| s.desired_healthy).unwrap_or_else(|| desired_for(pdb, expected));
    let allowed = st.and_then(|s| s.disruptions_allowed).unwrap_or(healthy.saturating_sub(desired).max(0));
    let never = expected > 0 && expected.saturating_sub(desired_for(pdb, expected)) <= 0;
    Budget { expected, healthy, desired, allowed, never, from_status: st.and_then(|s| s.disruptions_allowed).is_some() }
}

impl<'a> Cluster<'a> {
    /// Every PodDisruptionBudget with its numbers, computed once.
    pub fn budgets(&self) -> &[(&'a Object, Budget)] {
        self.budgets.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    Body::Pdb(pdb) => Some((o, evaluate(self, o, pdb))),
                    _ => None,
                })
                .collect()
        })
    }

    /// The PodDisruptionBudgets that cover a pod: same namespace, a selector that matches its labels. An
    /// empty selector matches nothing (pkg/registry/core/pod/storage/eviction.go,
    /// getPodDisruptionBudgets).
    pub fn pdbs_of(&self, pod: &Object) -> Vec<&(&'a Object, Budget)> {
        let budgets = self.budgets();
        let by_ns = self.budgets_by_ns.get_or_init(|| {
            let mut m: HashMap<&'a str, Vec<usize>> = HashMap::new();
            for (i, (o, _)) in budgets.iter().enumerate() {
                m.entry(o.r.namespace.as_deref().unwrap_or("default")).or_default().push(i);
            }
            m
        });
        let ns = pod.r.namespace.as_deref().unwrap_or("default");
        by_ns
            .get(ns)
            .into_iter()
            .flatten()
            .filter_map(|i| budgets.get(*i))
            .filter(|(o, _)| match &o.body {
                Body::Pdb(pdb) => !pdb.selector.is_empty() && pdb.selector.matches(&pod.labels),
                _ => false,
            })
            .collect()
    }

    /// What the eviction API answers for this pod now (pkg/registry/core/pod/storage/eviction.go).
    pub fn eviction(&self, pod: &Object, info: &PodInfo) -> Eviction<'a> {
        // canIgnorePDB: Pending, Succeeded and Failed pods are deleted without a budget check.
        if matches!(info.phase.as_deref(), Some("Pending" | "Succeeded" | "Failed")) {
            return Eviction::NoBudgetCheck;
        }
        let pdbs = self.pdbs_of(pod);
        let (o, b) = match pdbs.as_slice() {
            [] => return Eviction::NoBudget,
            [one] => (one.0, &one.1),
            _ => return Eviction::MoreThanOneBudget(pdbs.iter().map(|(o, _)| *o).collect()),
        };
        let policy = match &o.body {
            Body::Pdb(pdb) => pdb.unhealthy_pod_eviction_policy.as_deref(),
            _ => None,
        };
        if info.ready != Some(true) {
            // An unhealthy pod: AlwaysAllow lets it go; IfHealthyBudget (the default) only while the budget
            // is met (currentHealthy >= desiredHealthy > 0); else it needs a disruption like any other.
            if policy == Some("AlwaysAllow") || (b.healthy >= b.desired && b.desired > 0) {
                return Eviction::Allowed;
            }
        }
        if b.allowed > 0 {
            Eviction::Allowed
        } else {
            Eviction::HeldBack(o)
        }
    }

    /// Pods a drain that honours budgets cannot evict now (held back by their budget, or under more than
    /// one): (namespace, name).
    pub fn pdb_blocked_pods(&self) -> BTreeSet<(String, String)> {
        let mut blocked = BTreeSet::new();
        for (p, info, _) in self.running_pods() {
            if matches!(self.eviction(p, info), Eviction::HeldBack(_) | Eviction::MoreThanOneBudget(_)) {
                let ns = p.r.namespace.as_deref().unwrap_or("default");
                blocked.insert((ns.to_owned(), p.r.name.clone()));
            }
        }
        blocked
    }

    /// How many of these pods (one controller's) a PodDisruptionBudget lets be evicted at once (`None`: no
    /// budget covers them, or it allows none).
    pub fn pdb_allowance(&self, pods: &[RunningPod<'_>]) -> Option<usize> {
        let (first, _, _) = pods.first()?;
        match self.pdbs_of(first).as_slice() {
            [(_, b)] => usize::try_from(b.allowed).ok().filter(|a| *a > 0),
            _ => None,
        }
    }
}
