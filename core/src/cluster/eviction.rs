//! May this pod be evicted now? PodDisruptionBudgets and what they allow (DOMAIN section 6), and the
//! pods a drain never evicts.

use std::collections::BTreeSet;

use super::{Cluster, RunningPod};
use crate::model::{Body, Object, PdbInfo};
use crate::quantity::IntOrPercent;

/// A static pod's mirror: the kubelet owns it; drains skip it.
pub fn is_mirror(o: &Object) -> bool {
    o.annotations.contains_key("kubernetes.io/config.mirror")
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

    /// Pods whose PodDisruptionBudget allows no disruption now: (namespace, name).
    pub fn pdb_blocked_pods(&self) -> BTreeSet<(String, String)> {
        let mut blocked = BTreeSet::new();
        for (o, b) in self.budgets() {
            let Body::Pdb(pdb) = &o.body else { continue };
            if b.expected > 0 && b.allowed == 0 {
                let ns = o.r.namespace.as_deref().unwrap_or("default");
                for (p, _, _) in self.running_pods_in(ns) {
                    if pdb.selector.matches(&p.labels) {
                        blocked.insert((ns.to_owned(), p.r.name.clone()));
                    }
                }
            }
        }
        blocked
    }

    /// How many of these pods (one controller's) a PodDisruptionBudget lets be evicted at once (`None`: no
    /// budget covers them, or it allows none).
    pub fn pdb_allowance(&self, pods: &[RunningPod<'_>]) -> Option<usize> {
        let (first, _, _) = pods.first()?;
        let ns = first.r.namespace.as_deref().unwrap_or("default");
        self.budgets().iter().find_map(|(o, b)| match &o.body {
            Body::Pdb(pdb)
                if o.r.namespace.as_deref().unwrap_or("default") == ns && pdb.selector.matches(&first.labels) =>
            {
                usize::try_from(b.allowed).ok().filter(|a| *a > 0)
            }
            _ => None,
        })
    }
}
