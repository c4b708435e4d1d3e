//! May this pod be evicted now? PodDisruptionBudgets and what they allow (DOMAIN section 6), and the
//! pods a drain never evicts.

use std::cell::RefCell;

use crate::parse::FastMap;
use std::rc::Rc;

use super::{Cluster, RunningPod};
use crate::model::{Body, Object, PdbInfo, PodInfo, StringMap};
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
    /// the eviction subresource does not support." The budgets' positions in [`Cluster::budgets`], the list
    /// shared by every pod of one labelling (a pod under 1,500 budgets costs no list of its own).
    MoreThanOneBudget(Rc<[usize]>),
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

/// What the disruption controller counts as a budget's expected pods when it needs the controllers'
/// scale (`maxUnavailable`, or a percentage `minAvailable`): the sum of the distinct controllers' replicas
/// (pkg/controller/disruption/disruption.go, getExpectedScale), or `None` for its fail-safe (a controller
/// with no scale: a Job, a DaemonSet).
type Scale = Option<i64>;

/// Evaluate a PDB against the snapshot: its status when the snapshot has it, else computed as the
/// disruption controller computes it (disruption.go, getExpectedPodCount and updatePdbStatus) from the
/// spec, the matching pods (`counted`: how many match, how many of them are healthy) and the controllers'
/// scale.
fn evaluate(pdb: &PdbInfo, counted: (i64, i64), scale: Scale) -> Budget {
    let (pods, counted_healthy) = counted;
    // (expected, desired) from the spec; `None`: the controller's fail-safe.
    let computed: Option<(i64, i64)> = match (pdb.max_unavailable, pdb.min_available) {
        (Some(mu), _) => scale.map(|e| (e, e.saturating_sub(mu.scaled_ceil(e)).max(0))),
        (None, Some(IntOrPercent::Int(n))) => Some((pods, n)),
        (None, Some(p)) => scale.map(|e| (e, p.scaled_ceil(e))),
        // Neither given: kube-preflight assumes minAvailable 1 (unverified against a live API server).
        (None, None) => Some((pods, 1)),
    };
    let (computed_expected, computed_desired) = computed.unwrap_or((0, 0));
    let st = pdb.status.as_ref();
    let expected = st.and_then(|s| s.expected_pods).unwrap_or(computed_expected);
    let healthy = st.and_then(|s| s.current_healthy).unwrap_or(counted_healthy);
    let desired = st.and_then(|s| s.desired_healthy).unwrap_or(computed_desired);
    // updatePdbStatus: no disruption when nothing is expected.
    let computed_allowed = if expected <= 0 { 0 } else { healthy.saturating_sub(desired).max(0) };
    let allowed = st.and_then(|s| s.disruptions_allowed).unwrap_or(computed_allowed);
    let never = computed.is_some_and(|(e, d)| e > 0 && e.saturating_sub(d) <= 0);
    Budget { expected, healthy, desired, allowed, never, from_status: st.and_then(|s| s.disruptions_allowed).is_some() }
}

/// Where to look for the budgets that may cover a pod, without trying every budget of its namespace on
/// every pod (150,000 pods under thousands of budgets is quadratic): per namespace, the budgets with
/// `matchLabels` filed under their first pair, and the others (expressions only, or `{}`) apart. A budget
/// with no selector matches no pod and is not filed. Candidates are then matched in full.
///
/// What a pod matches depends only on its namespace and labels, and the pods of one controller share
/// them: each distinct (namespace, labels) is matched once and remembered, so that asking again for any pod
/// costs a lookup (a pod under 100,000 budgets is matched once, not at every eviction the plan simulates).
#[derive(Default)]
pub struct BudgetIndex<'a> {
    by_ns: FastMap<&'a str, NsBudgets<'a>>,
    /// Each distinct (namespace, labels) seen: the position of its list in `lists`.
    seen: RefCell<FastMap<PodKey<'a>, u32>>,
    /// The distinct lists of budgets found, the empty one first: a pod's is kept as its position
    /// ([`Cluster::budgets_matching`]), not as one more count on a shared list per pod.
    lists: RefCell<Vec<Rc<[usize]>>>,
}

/// What decides the budgets a pod matches: its namespace and its labels (borrowed from the snapshot's
/// pod: no copy per pod).
type PodKey<'a> = (&'a str, &'a StringMap);

#[derive(Default)]
struct NsBudgets<'a> {
    by_label: FastMap<(&'a str, &'a str), Vec<usize>>,
    rest: Vec<usize>,
}

impl<'a> BudgetIndex<'a> {
    fn new(pdbs: &[(&'a Object, &'a PdbInfo)]) -> BudgetIndex<'a> {
        let mut index = BudgetIndex { lists: RefCell::new(vec![Rc::from([])]), ..BudgetIndex::default() };
        for (i, (o, pdb)) in pdbs.iter().enumerate() {
            if !pdb.selector.present {
                continue;
            }
            let ns = index.by_ns.entry(o.r.namespace.as_deref().unwrap_or("default")).or_default();
            match pdb.selector.match_labels.iter().next() {
                Some((k, v)) => ns.by_label.entry((k.as_str(), v.as_str())).or_default().push(i),
                None => ns.rest.push(i),
            }
        }
        index
    }

    /// Positions of the budgets whose selector matches a pod, in the order the budgets were read. A `{}`
    /// selector matches every pod of its namespace, as the disruption controller counts them
    /// (pkg/controller/disruption/disruption.go, getPodsForPdb: `LabelSelectorAsSelector` of an empty
    /// selector is `Everything`).
    fn matching(&self, pdbs: &[(&'a Object, &'a PdbInfo)], pod: &'a Object) -> Rc<[usize]> {
        match self.matching_at(pdbs, pod) {
            Some(at) => self.list(at),
            None => self.find(pdbs, pod),
        }
    }

    /// Where in `lists` the budgets a pod matches are ([`BudgetIndex::matching`]), found once per distinct
    /// (namespace, labels); `None` only past `u32::MAX` distinct lists (found anew then).
    fn matching_at(&self, pdbs: &[(&'a Object, &'a PdbInfo)], pod: &'a Object) -> Option<u32> {
        let namespace = pod.r.namespace.as_deref().unwrap_or("default");
        if !self.by_ns.contains_key(namespace) {
            return Some(0);
        }
        let key = (namespace, &pod.labels);
        if let Some(&at) = self.seen.borrow().get(&key) {
            return Some(at);
        }
        let found = self.find(pdbs, pod);
        let mut lists = self.lists.borrow_mut();
        let at = u32::try_from(lists.len()).ok()?;
        lists.push(found);
        self.seen.borrow_mut().insert(key, at);
        Some(at)
    }

    /// The list at `at` in `lists`, borrowed in place (no count written); `None` for a position never given.
    fn list_at(&self, at: u32) -> Option<std::cell::Ref<'_, Rc<[usize]>>> {
        let i = usize::try_from(at).ok()?;
        std::cell::Ref::filter_map(self.lists.borrow(), |lists| lists.get(i)).ok()
    }

    /// The list at `at` in `lists`, shared (the empty one for a position never given).
    fn list(&self, at: u32) -> Rc<[usize]> {
        self.list_at(at).map_or_else(|| Rc::from([]), |l| Rc::clone(&l))
    }

    /// [`BudgetIndex::matching`] found anew, remembered nowhere (for a pod that is not the snapshot's).
    fn find(&self, pdbs: &[(&'a Object, &'a PdbInfo)], pod: &Object) -> Rc<[usize]> {
        let Some(ns) = self.by_ns.get(pod.r.namespace.as_deref().unwrap_or("default")) else {
            return Rc::from([]);
        };
        let mut found: Vec<usize> = pod
            .labels
            .iter()
            .filter_map(|(k, v)| ns.by_label.get(&(k.as_str(), v.as_str())))
            .flatten()
            .chain(&ns.rest)
            .copied()
            .filter(|i| pdbs.get(*i).is_some_and(|(_, pdb)| pdb.selector.matches(&pod.labels)))
            .collect();
        crate::sort::sort(&mut found);
        Rc::from(found)
    }
}

impl<'a> Cluster<'a> {
    /// Every PodDisruptionBudget with its numbers, computed once.
    pub fn budgets(&self) -> &[(&'a Object, Budget)] {
        self.budgets.get_or_init(|| {
            // Budgets that share their list of pods (one namespace and selector, `budget_pods`) have the same
            // expected scale: computed once per list, so that many budgets over many pods stay linear in the
            // pairs they match. The list's address only keys this cache.
            // Their healthy pods likewise: counted once per list.
            let mut scales: FastMap<*const [RunningPod<'a>], (Scale, i64)> = FastMap::default();
            self.pdb_infos()
                .iter()
                .zip(self.budget_pods())
                .map(|((o, pdb), pods)| {
                    let (scale, healthy) = *scales.entry(Rc::as_ptr(pods)).or_insert_with(|| {
                        // The disruption controller counts a pod being deleted as not healthy.
                        let healthy = pods.iter().filter(|(_, p, _)| p.ready == Some(true) && !p.terminating).count();
                        (self.expected_scale(pods), i64::try_from(healthy).unwrap_or(i64::MAX))
                    });
                    let expected = i64::try_from(pods.len()).unwrap_or(i64::MAX);
                    (*o, evaluate(pdb, (expected, healthy), scale))
                })
                .collect()
        })
    }

    /// The disruption controller's expected count for these pods (disruption.go, getExpectedScale): each
    /// distinct controller's `spec.replicas` (a ReplicaSet's Deployment's, a StatefulSet's, a
    /// ReplicationController's), pods with no controller adding nothing; `None` (its fail-safe) when a
    /// controller has no scale (a Job, a DaemonSet). A custom resource's scale is its scale subresource's
    /// (`getScaleController`): the number at its CustomResourceDefinition's `specReplicasPath`, and no scale
    /// (`None`) when the definition read has none. A controller missing from the snapshot, or a custom
    /// resource whose definition or number is not in it, counts its pods.
    fn expected_scale(&self, pods: &[RunningPod<'a>]) -> Scale {
        // Each controller's pods counted: the keys sorted, then each run counted (a list rather than a
        // B-tree map: one map type less in the wasm).
        let mut keys: Vec<super::WorkloadKey> = Vec::new();
        for (pod, _, _) in pods {
            let Some(owner) = pod.owners.iter().find(|o| o.controller) else { continue };
            if matches!(owner.kind.as_str(), "Job" | "DaemonSet" | "CronJob") {
                return None;
            }
            let Some(key) = self.controller_of(pod) else { continue };
            keys.push(key);
        }
        crate::sort::sort(&mut keys);
        let mut total: i64 = 0;
        for run in keys.chunk_by(|a, b| a == b) {
            let Some(key) = run.first() else { continue };
            let count = i64::try_from(run.len()).unwrap_or(i64::MAX);
            let replicas = match self.workload_object(key) {
                None => count,
                Some(o) => match (&o.body, self.scale_path(o)) {
                    (Body::Workload(w), _) => w.replicas.unwrap_or(1),
                    // A definition without a scale subresource: no controller found, the fail-safe.
                    (_, Some(None)) => return None,
                    (Body::Custom(c), Some(Some(path))) => c.at(path).unwrap_or(count),
                    _ => count,
                },
            };
            total = total.saturating_add(replicas);
        }
        Some(total)
    }

    /// The scale subresource's `specReplicasPath` of a custom resource's version, from its
    /// CustomResourceDefinition: `Some(None)` when the definition read gives that version none, `None` when
    /// no definition of its group and kind was read.
    fn scale_path(&self, o: &Object) -> Option<Option<&'a str>> {
        let (group, version) = o.r.api_version.rsplit_once('/')?;
        let crd = self.crds().iter().find(|c| c.group == group && c.kind == *o.r.kind)?;
        Some(crd.versions.iter().find(|v| v.name == version).and_then(|v| v.scale_replicas_path.as_deref()))
    }

    /// The running pods each budget's selector matches (same positions as [`Cluster::budgets`]), found in
    /// one pass over the running pods through the [`BudgetIndex`].
    ///
    /// Budgets of one namespace with the same selector share one list, so that many budgets over many pods
    /// hold each pod once per distinct selector, not once per budget.
    pub fn budget_pods(&self) -> &[Rc<[RunningPod<'a>]>] {
        self.budget_pods.get_or_init(|| {
            let pdbs = self.pdb_infos();
            let index = self.budget_index();
            // Each budget's group: the first budget with its namespace and selector.
            let mut first: FastMap<(&str, &crate::model::LabelSelector), usize> = FastMap::default();
            let group: Vec<usize> = pdbs
                .iter()
                .enumerate()
                .map(|(i, (o, pdb))| {
                    *first.entry((o.r.namespace.as_deref().unwrap_or("default"), &pdb.selector)).or_insert(i)
                })
                .collect();
            let mut lists: Vec<Vec<RunningPod<'a>>> = vec![Vec::new(); pdbs.len()];
            // A pod is matched by every budget of a group or by none: pushed once per group. The groups of a
            // list of budgets are found once per list (pods of one labelling share it), not once per pod: 15,000
            // budgets over the same 15,000 pods walked 225 million positions.
            let mut groups_of: FastMap<*const usize, (Rc<[usize]>, Vec<usize>)> = FastMap::default();
            for pod in self.running_pods() {
                let matching = index.matching(pdbs, pod.0);
                let (_, groups) = groups_of.entry(matching.as_ptr()).or_insert_with(|| {
                    let mut g: Vec<usize> = matching.iter().map(|&i| group.get(i).copied().unwrap_or(i)).collect();
                    crate::sort::sort(&mut g);
                    g.dedup();
                    // The list is kept alive while its address is a key.
                    (Rc::clone(&matching), g)
                });
                for &g in groups.iter() {
                    if let Some(list) = lists.get_mut(g) {
                        list.push(pod);
                    }
                }
            }
            let shared: Vec<Rc<[RunningPod<'a>]>> = lists.into_iter().map(Rc::from).collect();
            group.iter().map(|&g| shared.get(g).map_or_else(|| Rc::from([]), Rc::clone)).collect()
        })
    }

    fn pdb_infos(&self) -> &[(&'a Object, &'a PdbInfo)] {
        self.pdb_infos.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    Body::Pdb(pdb) => Some((o, &**pdb)),
                    _ => None,
                })
                .collect()
        })
    }

    fn budget_index(&self) -> &BudgetIndex<'a> {
        self.budget_index.get_or_init(|| BudgetIndex::new(self.pdb_infos()))
    }

    /// The PodDisruptionBudgets that cover a pod: same namespace, a selector that matches its labels. An
    /// empty selector `{}` matches every pod of the namespace (pkg/registry/core/pod/storage/eviction.go,
    /// getPodDisruptionBudgets, since kubernetes PR 119732 in 1.28: as the disruption controller counts
    /// them); a missing selector matches nothing.
    pub fn pdbs_of(&self, pod: &Object) -> Vec<&(&'a Object, Budget)> {
        let budgets = self.budgets();
        self.budget_positions(pod).iter().filter_map(|&i| budgets.get(i)).collect()
    }

    /// The positions in [`Cluster::budgets`] of the budgets that cover a pod ([`Cluster::pdbs_of`]), the list
    /// shared by the pods of one labelling: asked of every pod at every drain, it costs no list per pod.
    pub fn budget_positions(&self, pod: &Object) -> Rc<[usize]> {
        if self.budgets().is_empty() {
            return Rc::from([]);
        }
        let known = self.position(pod).and_then(|i| self.pod_budgets.borrow().get(i).copied());
        if let Some(list) = known.and_then(|k| k.checked_sub(1)).and_then(|at| self.budget_index().list_at(at)) {
            return Rc::clone(&list);
        }
        self.budgets_matching(pod)
    }

    /// Positions of the budgets whose selector matches a pod ([`BudgetIndex::matching`]), found and kept
    /// per pod of the snapshot (`pdbs_of` reads them there): every simulation asks of every pod, the run if
    /// resolved round after round.
    fn budgets_matching(&self, pod: &Object) -> Rc<[usize]> {
        // The snapshot's own copy of the pod (the index keeps borrowing its labels); another is found anew.
        let Some((i, own)) = self.position(pod).and_then(|i| Some((i, self.objects.get(i)?))) else {
            return self.budget_index().find(self.pdb_infos(), pod);
        };
        let index = self.budget_index();
        let Some(at) = index.matching_at(self.pdb_infos(), own) else {
            return index.find(self.pdb_infos(), pod);
        };
        let mut kept = self.pod_budgets.borrow_mut();
        if kept.len() < self.objects.len() {
            kept.resize(self.objects.len(), 0);
        }
        if let (Some(slot), Some(known)) = (kept.get_mut(i), at.checked_add(1)) {
            *slot = known;
        }
        index.list(at)
    }

    /// What the eviction API answers for this pod now (pkg/registry/core/pod/storage/eviction.go).
    pub fn eviction(&self, pod: &Object, info: &PodInfo) -> Eviction<'a> {
        // canIgnorePDB: Pending, Succeeded and Failed pods, and pods already being deleted, are deleted
        // without a budget check.
        if info.terminating || matches!(info.phase.as_deref(), Some("Pending" | "Succeeded" | "Failed")) {
            return Eviction::NoBudgetCheck;
        }
        let positions = self.budget_positions(pod);
        let (o, b) = match *positions {
            [] => return Eviction::NoBudget,
            [one] => match self.budgets().get(one) {
                Some((o, b)) => (*o, b),
                None => return Eviction::NoBudget,
            },
            _ if self.lifts("disruption/overlapping-pdbs") => return Eviction::Allowed,
            _ => return Eviction::MoreThanOneBudget(positions),
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
        if b.allowed > 0 || self.lifts("disruption/pdb-blocks-drain") {
            Eviction::Allowed
        } else {
            Eviction::HeldBack(o)
        }
    }

    /// Pods a drain that honours budgets cannot evict now (held back by their budget, or under more than
    /// one): (namespace, name), sorted, each once (look one up with `binary_search`), computed once (the plan
    /// and the downtime both read it).
    pub fn pdb_blocked_pods(&self) -> &[(&'a str, &'a str)] {
        self.note_variable_read();
        self.pdb_blocked.get_or_init(|| {
            let mut blocked = Vec::new();
            // A drain never evicts DaemonSet and mirror pods: no budget over them holds a drain back.
            for (p, info, _) in self.running_pods().filter(|(p, _, _)| !self.drain_leaves(p)) {
                if matches!(self.eviction(p, info), Eviction::HeldBack(_) | Eviction::MoreThanOneBudget(_)) {
                    let ns = p.r.namespace.as_deref().unwrap_or("default");
                    blocked.push((ns, p.r.name.as_str()));
                }
            }
            crate::sort::sort_dedup(&mut blocked);
            blocked
        })
    }

    /// How many of these pods (one controller's) a PodDisruptionBudget lets be evicted at once (`None`: no
    /// budget covers them, or it allows none).
    pub fn pdb_allowance(&self, pods: &[RunningPod<'_>]) -> Option<usize> {
        let (first, _, _) = pods.first()?;
        match *self.budget_positions(first) {
            [one] => self.budgets().get(one).and_then(|(_, b)| usize::try_from(b.allowed).ok()).filter(|a| *a > 0),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{ingest, Input};
    use crate::options::UpgradeOptions;
    use crate::version::Version;

    const SNAPSHOT: &str = r#"
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop, labels: {tier: front, app: web}}
spec: {nodeName: n1}
status: {phase: Running, conditions: [{type: Ready, status: "True"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: db-1, namespace: shop, labels: {app: db}}
spec: {nodeName: n1}
status: {phase: Running, conditions: [{type: Ready, status: "False"}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: other, labels: {app: web}}
spec: {nodeName: n1}
status: {phase: Running}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: by-second-label, namespace: shop}
spec: {minAvailable: 1, selector: {matchLabels: {app: web, tier: front}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: by-expression, namespace: shop}
spec: {minAvailable: 1, selector: {matchExpressions: [{key: app, operator: In, values: [db, web]}]}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: everything, namespace: shop}
spec: {minAvailable: 1, selector: {}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: no-selector, namespace: shop}
spec: {minAvailable: 1}
"#;

    fn names<'a>(v: &[&(&'a Object, Budget)]) -> Vec<&'a str> {
        v.iter().map(|(o, _)| o.r.name.as_str()).collect()
    }

    /// The index finds what trying every budget would: a budget filed under its first matchLabels pair
    /// is found through a pod's other label, expressions are tried on every pod, and `{}` counts every
    /// pod of its namespace for the disruption controller and for eviction alike (eviction.go since 1.28),
    /// and a missing selector covers none.
    #[test]
    fn budgets_found_through_the_index_match_the_controllers() {
        let ingested = ingest(&[Input::new("s.yaml", SNAPSHOT)]).expect("reads");
        let options = UpgradeOptions::new("1.29.2");
        let to = Version::parse("1.29.2").expect("version");
        let cluster = Cluster::new(&ingested.objects, &options, to, None, Vec::new());
        let counts: Vec<(&str, i64, i64)> =
            cluster.budgets().iter().map(|(o, b)| (o.r.name.as_str(), b.expected, b.healthy)).collect();
        assert_eq!(
            counts,
            [("by-second-label", 1, 1), ("by-expression", 2, 1), ("everything", 2, 1), ("no-selector", 0, 0)]
        );
        let covered: Vec<Vec<&str>> =
            cluster.budget_pods().iter().map(|v| v.iter().map(|(o, _, _)| o.r.name.as_str()).collect()).collect();
        assert_eq!(covered, [vec!["web-1"], vec!["web-1", "db-1"], vec!["web-1", "db-1"], vec![]]);
        let pod = |ns: &str, name: &str| {
            ingested
                .objects
                .iter()
                .find(|o| o.r.kind == "Pod" && o.r.namespace.as_deref() == Some(ns) && o.r.name == name)
                .expect("pod")
        };
        assert_eq!(names(&cluster.pdbs_of(pod("shop", "web-1"))), ["by-second-label", "by-expression", "everything"]);
        assert_eq!(names(&cluster.pdbs_of(pod("shop", "db-1"))), ["by-expression", "everything"]);
        assert!(cluster.pdbs_of(pod("other", "web-1")).is_empty());
    }
    /// Many budgets over many pods stay linear in what they match (issue #33: 100,000 budgets selecting
    /// every pod ran for minutes): budgets of one namespace and selector share one list of pods, and pods
    /// with one namespace and labels share one match.
    #[test]
    fn budgets_with_one_selector_share_their_pods_and_pods_with_one_labelling_share_their_budgets() {
        let mut text = String::new();
        for i in 0..3 {
            text.push_str(&format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: web-{i}, namespace: shop, labels: {{app: web}}}}\nspec: {{nodeName: n1}}\nstatus: {{phase: Running}}\n---\n"
            ));
        }
        for (name, selector) in
            [("a", "{matchLabels: {app: web}}"), ("b", "{}"), ("c", "{matchLabels: {app: web}}"), ("d", "{}")]
        {
            text.push_str(&format!(
                "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {name}, namespace: shop}}\nspec: {{maxUnavailable: 1, selector: {selector}}}\n---\n"
            ));
        }
        let ingested = ingest(&[Input::new("s.yaml", text)]).expect("reads");
        let options = UpgradeOptions::new("1.29.2");
        let to = Version::parse("1.29.2").expect("version");
        let cluster = Cluster::new(&ingested.objects, &options, to, None, Vec::new());
        let lists = cluster.budget_pods();
        assert_eq!(lists.iter().map(|l| l.len()).collect::<Vec<_>>(), [3, 3, 3, 3]);
        assert!(Rc::ptr_eq(&lists[0], &lists[2]) && Rc::ptr_eq(&lists[1], &lists[3]));
        assert!(!Rc::ptr_eq(&lists[0], &lists[1]));
        let pods: Vec<&Object> = ingested.objects.iter().filter(|o| o.r.kind == "Pod").collect();
        let index = cluster.budget_index();
        let first = index.matching(cluster.pdb_infos(), pods[0]);
        assert_eq!(&*first, &[0, 1, 2, 3]);
        assert!(Rc::ptr_eq(&first, &index.matching(cluster.pdb_infos(), pods[2])));
        assert_eq!(names(&cluster.pdbs_of(pods[1])), ["a", "b", "c", "d"]);
    }
}
