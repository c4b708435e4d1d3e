//! What manifests alone can show about disruption budgets, when no pod was read (a run of manifests, a
//! chart rendered for review): each budget judged against the replicas its workloads declare, every pod
//! taken as healthy, as the disruption controller would count them once they run
//! (pkg/controller/disruption/disruption.go: getExpectedPodCount, getExpectedScale, updatePdbStatus).

use super::Cluster;
use crate::model::{Body, Object, PdbInfo, WorkloadInfo};
use crate::parse::FastMap;
use crate::quantity::IntOrPercent;

/// The kinds whose pods a drain evicts and whose manifests declare how many there are (the controllers
/// `getExpectedScale` reads a scale from). DaemonSet pods are left by every drain; Jobs have no scale.
const SCALED: &[&str] = &["Deployment", "StatefulSet", "ReplicaSet", "ReplicationController"];

/// A workload as its manifest declares it: its object and replicas (1 when not given, as the API server
/// defaults it).
pub struct Declared<'a> {
    pub obj: &'a Object,
    pub replicas: i64,
}

fn namespace(o: &Object) -> &str {
    o.r.namespace.as_deref().unwrap_or("default")
}

/// Every live budget, in the order read, with the scaled workloads of its namespace whose pod template it
/// selects (in the order read): one pass over the objects and, per budget, over its namespace's workloads.
pub fn selections<'a>(c: &Cluster<'a>) -> Vec<(&'a Object, &'a PdbInfo, Vec<Declared<'a>>)> {
    let mut by_ns: FastMap<&str, Vec<(&'a Object, &'a WorkloadInfo)>> = FastMap::default();
    let mut budgets = Vec::new();
    for o in c.live_objects() {
        match &o.body {
            Body::Workload(w) if SCALED.contains(&o.r.kind.as_str()) => {
                by_ns.entry(namespace(o)).or_default().push((o, w));
            }
            Body::Pdb(p) => budgets.push((o, p.as_ref())),
            _ => {}
        }
    }
    budgets
        .into_iter()
        .map(|(o, pdb)| {
            let workloads = by_ns
                .get(namespace(o))
                .map(|ws| {
                    ws.iter()
                        .filter(|(_, w)| pdb.selector.matches(&w.template_labels))
                        .map(|(obj, w)| Declared { obj, replicas: w.replicas.unwrap_or(1).max(0) })
                        .collect()
                })
                .unwrap_or_default();
            (o, pdb, workloads)
        })
        .collect()
}

/// With `expected` pods all healthy, the pods the budget keeps (`desiredHealthy`) and whether it can never
/// allow an eviction (`disruptionsAllowed` = healthy - desired, 0 at most). `None` when nothing is expected.
pub fn never_allows(pdb: &PdbInfo, expected: i64) -> Option<(i64, bool)> {
    if expected <= 0 {
        return None;
    }
    let desired = match (pdb.max_unavailable, pdb.min_available) {
        (Some(mu), _) => expected.saturating_sub(mu.scaled_ceil(expected)).max(0),
        (None, Some(IntOrPercent::Int(n))) => n,
        (None, Some(p)) => p.scaled_ceil(expected),
        // Neither given: what the API server makes of it is not verified here, so nothing is claimed.
        (None, None) => return None,
    };
    Some((desired, expected.saturating_sub(desired) <= 0))
}

/// Were no pods read at all (so that what the manifests declare is all there is to judge)?
pub fn no_pods(c: &Cluster<'_>) -> bool {
    c.pods().next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pdb(min: Option<IntOrPercent>, max: Option<IntOrPercent>) -> PdbInfo {
        PdbInfo { min_available: min, max_unavailable: max, ..PdbInfo::default() }
    }

    /// The disruption controller's arithmetic with every pod healthy (getExpectedPodCount: percentages
    /// rounded up; disruptionsAllowed = healthy - desired).
    #[test]
    fn a_budget_never_allows_an_eviction_exactly_when_it_keeps_every_declared_pod() {
        use IntOrPercent::{Int, Percent};
        assert_eq!(never_allows(&pdb(None, Some(Int(0))), 3), Some((3, true)));
        assert_eq!(never_allows(&pdb(None, Some(Percent(0))), 3), Some((3, true)));
        assert_eq!(never_allows(&pdb(None, Some(Percent(1))), 3), Some((2, false)));
        assert_eq!(never_allows(&pdb(Some(Int(3)), None), 3), Some((3, true)));
        assert_eq!(never_allows(&pdb(Some(Int(2)), None), 3), Some((2, false)));
        assert_eq!(never_allows(&pdb(Some(Percent(100)), None), 5), Some((5, true)));
        assert_eq!(never_allows(&pdb(Some(Percent(67)), None), 3), Some((3, true)));
        assert_eq!(never_allows(&pdb(Some(Percent(66)), None), 3), Some((2, false)));
        assert_eq!(never_allows(&pdb(Some(Int(1)), None), 0), None);
        assert_eq!(never_allows(&pdb(None, None), 3), None);
    }
}
