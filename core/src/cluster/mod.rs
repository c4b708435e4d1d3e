//! The cluster: the snapshot indexed once, judged against the upgrade that was asked for, and the
//! Kubernetes semantics every layer above asks about. One file per concern, each the one place that
//! answers its question:
//!
//! | question | file |
//! |---|---|
//! | is this node available to the upgrade? which nodes are etcd members? | [`nodes`] |
//! | which nodes can this pod move to (selectors, affinity, taints, tolerations)? | [`scheduling`] |
//! | may this pod be evicted now? what does a PodDisruptionBudget allow? | [`eviction`] |
//! | does this distribution drain, and what does its drain do with each pod? | [`drain`] |
//! | which workload owns this pod? | [`workloads`] |
//! | what will a node's labels be after the upgrade? | [`upgrade`] |
//! | does the distribution's own tooling refuse or hold the upgrade (OpenShift, bmctl)? | [`platform`] |
//! | which fail-closed admission webhooks cover the pods a drain re-creates, and who serves them? | [`admission`] |
//!
//! Built on `model`, `options` and `version`; used by `budget`, `plan`, `rules`. Nothing here knows of
//! plans, findings or rendering.

pub mod admission;
pub mod declared;
pub mod drain;
pub mod eviction;
pub mod nodes;
pub mod placement;
pub mod platform;
pub mod progress;
pub mod scheduling;
pub mod upgrade;
pub mod workloads;

use std::cell::OnceCell;

use crate::model::{Body, Object, PdbInfo, PodInfo, Via, WorkloadInfo};
use crate::options::{Profile, UpgradeOptions};
use crate::parse::FastMap;
use crate::version::Version;

pub use eviction::{is_mirror, Budget};
pub use nodes::NodeView;
pub use workloads::{Group, PodsByController, WorkloadKey};

/// A running pod: the object, its pod fields, its node's name.
pub type RunningPod<'a> = (&'a Object, &'a PodInfo, &'a str);

/// An object's lookup key: (kind, namespace or `""`, name).
fn key_at(objects: &[Object], at: u32) -> Option<(&str, &str, &str)> {
    let o = objects.get(at as usize)?;
    Some((o.r.kind.as_str(), o.r.namespace.as_deref().unwrap_or(""), o.r.name.as_str()))
}

/// A lookup key hashed: the index is sorted by it first, so that sorting it and looking an object up
/// compare numbers held in the index rather than three strings in each object passed (the objects are
/// large and far apart: at 150,000 pods the index's sort was most of the time it took to build).
/// Its upper half (the better mixed): keys that share one are told apart by the key itself.
fn key_hash(key: (&str, &str, &str)) -> u32 {
    let mut h = crate::parse::ShortHasher::default();
    std::hash::Hash::hash(&key, &mut h);
    (std::hash::Hasher::finish(&h) >> 32) as u32
}

/// The run of the index a hash is in: its top `bits` bits.
fn run_of(hash: u32, bits: u32) -> usize {
    hash.checked_shr(32 - bits).unwrap_or(0) as usize
}

/// Where each run of the sorted index starts ([`Cluster::runs`]), with its last end, and how many bits of
/// the hash tell the runs apart: about one entry a run.
fn runs_of(index: &[(u32, u32)]) -> (Vec<u32>, u32) {
    let bits = index.len().next_power_of_two().trailing_zeros().min(24);
    let mut runs = Vec::with_capacity((1usize << bits) + 1);
    let mut at = 0usize;
    for run in 0..1usize << bits {
        while index.get(at).is_some_and(|(h, _)| run_of(*h, bits) < run) {
            at += 1;
        }
        runs.push(u32::try_from(at).unwrap_or(u32::MAX));
    }
    runs.push(u32::try_from(index.len()).unwrap_or(u32::MAX));
    (runs, bits)
}

/// The objects read, indexed once, with the upgrade they are judged against.
pub struct Cluster<'a> {
    pub objects: &'a [Object],
    pub options: &'a UpgradeOptions,
    pub to: Version,
    /// The current control-plane version, when given or inferable.
    pub from: Option<Version>,
    /// Each hop's target, in order (empty when there is nothing to upgrade or `from` is unknown).
    pub path: Vec<Version>,
    pub nodes: Vec<NodeView<'a>>,
    /// The upgrade the snapshot shows under way, if any ([`progress`]).
    pub underway: Option<progress::Underway>,
    /// The version an upgrade under way is finishing when nothing newer is asked (`to` is where the API
    /// server already is, and nodes are not yet): the plan's first hop, over the nodes not done.
    pub finishing: Option<Version>,
    /// The live objects' positions with their key's hash ([`key_hash`]), sorted by it and then by
    /// (kind, namespace, name), the first read of a key first: 8 bytes an object (a hash map of the keys
    /// was 64).
    index: Vec<(u32, u32)>,
    /// Where each run of hashes sharing their top [`Cluster::index_bits`] bits starts in `index` (one more
    /// at the end): a lookup searches the few entries of its run, not the whole index (a binary search of
    /// 200,000 entries read 18 of them, each far from the last: at 150,000 pods, lookups grew 2.3 times as
    /// fast as the snapshot). 4 bytes an object.
    runs: Vec<u32>,
    index_bits: u32,
    /// Nodes by name.
    node_index: FastMap<&'a str, usize>,
    by_controller: OnceCell<PodsByController<'a>>,
    budgets: OnceCell<Vec<(&'a Object, Budget)>>,
    /// The budgets as read (same positions as `budgets`) and where to find those covering a pod: who
    /// covers a pod is asked of every running pod.
    pdb_infos: OnceCell<Vec<(&'a Object, &'a PdbInfo)>>,
    budget_index: OnceCell<eviction::BudgetIndex<'a>>,
    budget_pods: OnceCell<Vec<std::rc::Rc<[RunningPod<'a>]>>>,
    /// The budgets matching each pod, by the pod's position in `objects` (`budgets_matching`): 0 when not
    /// known yet, else one more than its list's position in the budget index's distinct lists.
    pod_budgets: std::cell::RefCell<Vec<u32>>,
    eligible: std::cell::RefCell<scheduling::EligibleCache>,
    after: OnceCell<Vec<Object>>,
    by_node: OnceCell<Vec<Vec<RunningPod<'a>>>>,
    /// The running pods in object order (`running_pods`: asked by a dozen rules and stages, each a pass
    /// over every object before).
    running: OnceCell<Vec<RunningPod<'a>>>,
    /// Does the snapshot hold DaemonSet objects at all (so that a missing one is known to be gone)?
    has_daemonsets: OnceCell<bool>,
    /// Per object (its position in `objects`): a pod a drain leaves where it is ([`Cluster::drain_leaves`]),
    /// asked of every pod by each simulated drain, the rules and each round of the run if resolved.
    drain_leaves: OnceCell<Vec<bool>>,
    /// The CustomResourceDefinitions read, in the order read (`eviction::scale_path`).
    crds: OnceCell<Vec<&'a crate::model::admission::CrdInfo>>,
    /// Pods whose eviction a budget refuses (`pdb_blocked_pods`).
    pdb_blocked: OnceCell<Vec<(&'a str, &'a str)>>,
    /// PersistentVolumes by the claim they are bound to (namespace, name).
    pv_by_claim: OnceCell<FastMap<(String, String), &'a Object>>,
    /// Manifests recorded in annotations, read once per distinct text (`recorded_head`).
    recorded: std::cell::RefCell<Recorded>,
    /// The distribution's own gates (`platform_gates`).
    gates: OnceCell<Vec<platform::Gate<'a>>>,
    /// The nodes' steps the kubelets' events record (`observed_steps`).
    observed: OnceCell<Vec<progress::Observed>>,
    /// The admission webhooks that cover pod creation (`pod_webhooks`).
    admission: admission::Admission<'a>,
    /// The causes of stops taken as resolved, by the code of the rule that names them: the plan "if the
    /// blockers were resolved" (`plan.ifResolved`) is this cluster with them lifted ([`Cluster::lifts`]).
    lifted: Vec<&'static str>,
    /// Has anything been asked since [`Cluster::take_variable_read`] whose answer a lifted cause can
    /// change (a lift, an eviction's budget, a platform gate, the simulation's outcome)? A rule that read
    /// none gives the same findings in the run if resolved, which takes them from the real run's.
    variable_read: std::cell::Cell<bool>,
}

/// The causes of a stop that can be taken as resolved, by the code of the rule that names them, and how
/// (`plan.ifResolved.lifted`): a stop whose code is not here (a config the distribution refuses) stays.
pub const LIFTS: &[(&str, &str)] = &[
    (
        "disruption/pdb-blocks-drain",
        "each PodDisruptionBudget that allows no disruption allows one (more replicas, or a lower minAvailable)",
    ),
    ("disruption/overlapping-pdbs", "each pod is under one PodDisruptionBudget"),
    ("disruption/unmanaged-pod", "the drain runs with force: the pods with no controller are deleted for good"),
    ("disruption/local-storage", "the drain deletes emptyDir data (delete-emptydir-data)"),
    ("disruption/daemonset-pod", "the drain ignores DaemonSet pods (ignore_daemonsets: true, RKE's default)"),
    ("admission/webhook-unavailable", "the fail-closed webhooks on pods/eviction have a ready endpoint"),
    ("budget/unavailable-exceeds-limit", "the nodes already unavailable are back, so the pool's gate passes"),
    ("budget/node-unavailable", "the cordoned nodes are uncordoned, so the MCO picks them"),
    ("platform/", "the platform's own gate is cleared (its finding says how)"),
];

/// A recorded manifest's `kind` and `apiVersion`.
pub type RecordedHead = Option<(String, String)>;

/// What `recorded_head` has read: each distinct annotation text once, and what is left of the YAML alias
/// budget all annotations share.
struct Recorded {
    heads: FastMap<String, RecordedHead>,
    alias_budget: usize,
}

impl Default for Recorded {
    fn default() -> Recorded {
        Recorded { heads: FastMap::default(), alias_budget: ANNOTATIONS_ALIAS_BYTES }
    }
}

/// What YAML aliases may expand to in one recorded manifest: the API server keeps at most 256 KiB of
/// annotations on an object, so a manifest recorded in one is never larger.
pub const ANNOTATION_ALIAS_BYTES: usize = 256 << 10;
/// What YAML aliases may expand to across all the recorded manifests read.
pub const ANNOTATIONS_ALIAS_BYTES: usize = 16 << 20;

impl<'a> Cluster<'a> {
    pub fn new(
        objects: &'a [Object],
        options: &'a UpgradeOptions,
        to: Version,
        from: Option<Version>,
        path: Vec<Version>,
    ) -> Self {
        let mut nodes: Vec<NodeView<'a>> = objects.iter().filter(|o| live(o)).filter_map(NodeView::of).collect();
        // Kubelets behind the API server with a newer version asked and no node being upgraded are
        // stragglers (the skew rules say so), not an upgrade under way.
        let underway = progress::read(objects, &nodes, options.profile, from.as_ref()).filter(|u| {
            u.platform || path.is_empty() || u.nodes.iter().any(|p| p.stage == progress::Stage::InProgress)
        });
        if let Some(u) = &underway {
            for p in &u.nodes {
                let own = p.stage == progress::Stage::InProgress || p.step == Some(progress::Step::Rejoining);
                if let (true, Some(n)) = (own, nodes.get_mut(p.node)) {
                    n.upgrading = true;
                }
            }
        }
        // Nothing newer asked than where the API server is, and nodes not there yet: the plan finishes it.
        let finishing = match (&underway, &from) {
            (Some(u), Some(f))
                if path.is_empty() && u.remaining() && to.scheme_cmp(f) != Some(std::cmp::Ordering::Less) =>
            {
                Some(f.clone())
            }
            _ => None,
        };
        let mut index: Vec<(u32, u32)> = (0..objects.len())
            .filter(|&i| objects.get(i).is_some_and(live))
            .filter_map(|i| u32::try_from(i).ok())
            .filter_map(|i| Some((key_hash(key_at(objects, i)?), i)))
            .collect();
        // Stable: among objects with one key, the first read stays first, and is the one kept. By hash in
        // linear time, then by key within each run of one hash (rare: two keys hashing alike).
        let key_order = |a: &(u32, u32), b: &(u32, u32)| {
            a.0.cmp(&b.0).then_with(|| key_at(objects, a.1).cmp(&key_at(objects, b.1)))
        };
        crate::sort::sort_by_number(&mut index);
        for run in index.chunk_by_mut(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            crate::sort::sort_by(run, key_order);
        }
        index.dedup_by(|later, first| key_order(later, first).is_eq());
        let (runs, index_bits) = runs_of(&index);
        let node_index =
            nodes.iter().enumerate().map(|(i, n): (usize, &NodeView<'a>)| (n.obj.r.name.as_str(), i)).collect();
        Cluster {
            objects,
            options,
            to,
            from,
            path,
            nodes,
            underway,
            finishing,
            index,
            runs,
            index_bits,
            node_index,
            pdb_blocked: OnceCell::new(),
            admission: admission::Admission::default(),
            pv_by_claim: OnceCell::new(),
            has_daemonsets: OnceCell::new(),
            drain_leaves: OnceCell::new(),
            crds: OnceCell::new(),
            by_controller: OnceCell::new(),
            budgets: OnceCell::new(),
            pdb_infos: OnceCell::new(),
            budget_index: OnceCell::new(),
            budget_pods: OnceCell::new(),
            pod_budgets: std::cell::RefCell::default(),
            eligible: std::cell::RefCell::default(),
            after: OnceCell::new(),
            by_node: OnceCell::new(),
            running: OnceCell::new(),
            recorded: std::cell::RefCell::default(),
            gates: OnceCell::new(),
            observed: OnceCell::new(),
            lifted: Vec::new(),
            variable_read: std::cell::Cell::new(false),
        }
    }

    /// The `kind` and `apiVersion` of a manifest recorded in an annotation (JSON or YAML:
    /// `kubectl.kubernetes.io/last-applied-configuration`, `kapp.k14s.io/original`), `None` when it does
    /// not read. Each distinct text is read once, however many objects and rules ask (pods of one
    /// controller carry the same), and YAML aliases expand to at most [`ANNOTATION_ALIAS_BYTES`] in one
    /// and [`ANNOTATIONS_ALIAS_BYTES`] in all.
    pub fn recorded_head(&self, text: &str) -> RecordedHead {
        let mut r = self.recorded.borrow_mut();
        if let Some(h) = r.heads.get(text) {
            return h.clone();
        }
        let allowed = r.alias_budget.min(ANNOTATION_ALIAS_BYTES);
        let mut budget = allowed;
        let read = crate::parse::parse_documents_budgeted("annotation", text, &mut budget);
        // A manifest whose aliases would expand past its allowance costs the whole allowance.
        if read.as_ref().is_err_and(|e| e.message.contains("MAX_ALIAS_BYTES")) {
            budget = 0;
        }
        let head = read.ok().and_then(|docs| {
            let doc = docs.into_iter().next()?;
            Some((doc.get("kind").as_string()?, doc.get("apiVersion").as_string()?))
        });
        r.alias_budget = r.alias_budget.saturating_sub(allowed.saturating_sub(budget));
        r.heads.insert(text.to_owned(), head.clone());
        head
    }

    pub fn profile(&self) -> Profile {
        self.options.profile
    }

    /// What the distribution's own tooling refuses or waits on ([`platform::gates`]), found once: the plan
    /// stops on them and the `platform/*` rules report them.
    /// Each node's steps as the kubelets' events record them ([`progress::observed_steps`]), found once.
    pub fn observed_steps(&self) -> &[progress::Observed] {
        self.observed.get_or_init(|| progress::observed_steps(self.objects, &self.nodes))
    }

    pub fn platform_gates(&self) -> &[platform::Gate<'a>] {
        self.note_variable_read();
        self.gates.get_or_init(|| {
            let mut g = platform::gates(self);
            g.retain(|g| !self.lifts(g.code));
            g
        })
    }

    /// This cluster with the causes of stops named by `codes` taken as resolved ([`LIFTS`]), instead of
    /// those it had: what the lifts change is found again, the rest of the index is kept.
    pub fn lifting(mut self, codes: &[&'static str]) -> Self {
        self.lifted = codes.to_vec();
        self.gates = OnceCell::new();
        self.pdb_blocked = OnceCell::new();
        self
    }

    /// Note that what is being worked out depends on the lifted causes or on the simulation.
    pub fn note_variable_read(&self) {
        self.variable_read.set(true);
    }

    /// Was anything asked since the last call whose answer depends on the lifted causes or on the
    /// simulation ([`Cluster::note_variable_read`])? Clears the mark.
    pub fn take_variable_read(&self) -> bool {
        self.variable_read.replace(false)
    }

    /// The position in `objects` of an object of this snapshot (`None` for one built elsewhere).
    pub fn position(&self, o: &Object) -> Option<usize> {
        let size = std::mem::size_of::<Object>().max(1);
        let offset = (o as *const Object as usize).checked_sub(self.objects.as_ptr() as usize)?;
        (offset % size == 0).then_some(offset / size).filter(|i| *i < self.objects.len())
    }

    /// Does OpenShift run a two-node control plane with an arbiter (the `cluster` Infrastructure's
    /// `status.controlPlaneTopology: HighlyAvailableArbiter`, which the MCO's node controller reads through
    /// its ControllerConfig)?
    pub fn arbiter_topology(&self) -> bool {
        self.live_objects().any(|o| {
            o.r.name == "cluster"
                && matches!(&o.body, Body::Infrastructure(t) if t.as_str() == "HighlyAvailableArbiter")
        })
    }

    /// The CustomResourceDefinitions read, in the order read.
    pub fn crds(&self) -> &[&'a crate::model::admission::CrdInfo] {
        self.crds.get_or_init(|| {
            self.live_objects()
                .filter_map(|o| match &o.body {
                    Body::Crd(c) => Some(&**c),
                    _ => None,
                })
                .collect()
        })
    }

    /// Is the cause of stops that rule `code` names taken as resolved here?
    pub fn lifts(&self, code: &str) -> bool {
        self.note_variable_read();
        self.lifted.iter().any(|c| *c == code || (c.ends_with('/') && code.starts_with(c)))
    }

    /// The control-plane node the current version was read from (the oldest), for findings about it.
    pub fn from_node(&self) -> Option<&'a Object> {
        self.nodes
            .iter()
            .filter(|n| n.is_control_plane())
            .filter_map(|n| Some((n.kubelet.clone()?, n.obj)))
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, o)| o)
    }

    /// Does the cluster run on AWS? kOps defaults its surge to 1 there, deciding from its `Cluster` object
    /// (`spec.cloudProvider`, pkg/instancegroups/settings.go); without one, from the nodes' `spec.providerID`.
    pub fn on_aws(&self) -> bool {
        let declared = self.live_objects().find_map(|o| match &o.body {
            Body::KopsCluster(c) => c.aws,
            _ => None,
        });
        declared.unwrap_or_else(|| {
            self.nodes.iter().any(|n| n.info.provider_id.as_deref().is_some_and(|p| p.starts_with("aws://")))
        })
    }

    pub fn node(&self, name: &str) -> Option<&NodeView<'a>> {
        self.nodes.get(self.node_index(name)?)
    }

    /// The position of a node in `nodes`.
    pub fn node_index(&self, name: &str) -> Option<usize> {
        self.node_index.get(name).copied()
    }

    /// A live object by kind, namespace (`""` for none) and name.
    pub fn lookup(&self, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        let key = (kind, namespace, name);
        let hash = key_hash(key);
        let run = run_of(hash, self.index_bits);
        let (from, to) = (*self.runs.get(run)? as usize, *self.runs.get(run + 1)? as usize);
        let entries = self.index.get(from..to)?;
        let i = entries
            .binary_search_by(|(h, p)| h.cmp(&hash).then_with(|| key_at(self.objects, *p).cmp(&Some(key))))
            .ok()?;
        self.objects.get(entries.get(i)?.1 as usize)
    }

    /// Objects as they are in the cluster or the manifests (Helm release contents left out).
    pub fn live_objects(&self) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects.iter().filter(|o| live(o))
    }

    pub fn pods(&self) -> impl Iterator<Item = (&'a Object, &'a PodInfo)> + 'a {
        self.live_objects().filter_map(|o| Some((o, o.pod()?)))
    }

    /// Pods bound to a node and not finished.
    pub fn running_pods(&self) -> std::iter::Copied<std::slice::Iter<'_, RunningPod<'a>>> {
        self.running
            .get_or_init(|| {
                self.pods()
                    .filter_map(|(o, p)| {
                        let node = p.spec.node_name.as_deref()?;
                        let done = matches!(p.phase.as_deref(), Some("Succeeded" | "Failed"));
                        (!done).then_some((o, p, node))
                    })
                    .collect()
            })
            .iter()
            .copied()
    }

    /// Running pods on the node at `index`.
    pub fn running_pods_on(&self, index: usize) -> &[RunningPod<'a>] {
        let v = self.by_node.get_or_init(|| {
            let mut v: Vec<Vec<RunningPod<'a>>> = vec![Vec::new(); self.nodes.len()];
            for p in self.running_pods() {
                if let Some(slot) = self.node_index(p.2).and_then(|i| v.get_mut(i)) {
                    slot.push(p);
                }
            }
            v
        });
        v.get(index).map_or(&[], Vec::as_slice)
    }

    pub fn workloads(&self) -> impl Iterator<Item = (&'a Object, &'a WorkloadInfo)> + 'a {
        self.live_objects().filter_map(|o| match &o.body {
            Body::Workload(w) => Some((o, &**w)),
            _ => None,
        })
    }

    pub fn path_strings(&self) -> Vec<String> {
        self.path.iter().map(ToString::to_string).collect()
    }
}

/// Not read out of a Helm release record (those are manifests, not cluster state).
pub fn live(o: &Object) -> bool {
    o.source.via != Some(Via::HelmRelease)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lookups through the hashed index: every object is found, the first read of a key is the one kept,
    /// and two keys whose hashes are equal (found by search) are told apart by the key itself.
    #[test]
    fn the_index_finds_every_object_and_tells_equal_hashes_apart() {
        let mut seen: FastMap<u32, String> = FastMap::default();
        let mut pair = None;
        for i in 0..1_000_000u32 {
            let name = format!("p-{i}");
            if let Some(other) = seen.insert(key_hash(("Pod", "ns", &name)), name.clone()) {
                pair = Some((other, name));
                break;
            }
        }
        let (a, b) = pair.expect("two names whose keys hash alike");
        let mut text = String::new();
        for (name, node) in [(a.as_str(), "n1"), ("web", "n1"), (b.as_str(), "n2"), (a.as_str(), "n3"), ("x", "n1")] {
            text.push_str(&format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: ns}}\nspec: {{nodeName: {node}}}\n---\n"
            ));
        }
        text.push_str("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: ns}\n");
        let ingested = crate::ingest::ingest(&[crate::Input::new("s.yaml", text)]).expect("reads");
        let options = UpgradeOptions::new("1.29.2");
        let c = Cluster::new(&ingested.objects, &options, Version::parse("1.29.2").unwrap(), None, Vec::new());
        let node = |kind: &str, name: &str| {
            c.lookup(kind, "ns", name)
                .and_then(|o| o.pod())
                .and_then(|p| p.spec.node_name.as_deref().map(str::to_owned))
        };
        assert_eq!(node("Pod", &a).as_deref(), Some("n1"), "the first read of {a}");
        assert_eq!(node("Pod", &b).as_deref(), Some("n2"), "{b}, whose key hashes as {a}'s");
        assert_eq!(node("Pod", "web").as_deref(), Some("n1"));
        assert_eq!(c.lookup("ConfigMap", "ns", "web").map(|o| o.r.kind.as_str()), Some("ConfigMap"));
        assert!(c.lookup("Pod", "ns", "missing").is_none());
        assert!(c.lookup("Pod", "other", "web").is_none());
        assert_eq!(c.index.len(), 5, "one entry per key");
    }

    /// The index's runs at every size (none, one, and up to past a power of two): every object is found,
    /// and no key that is not there.
    #[test]
    fn the_index_runs_find_every_object_at_every_size() {
        let options = UpgradeOptions::new("1.29.2");
        for n in [0usize, 1, 2, 3, 4, 5, 63, 64, 65, 1000, 3000] {
            let text: String = (0..n)
                .map(|i| format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c-{i}, namespace: ns}}\n---\n"))
                .collect();
            let ingested = crate::ingest::ingest(&[crate::Input::new("s.yaml", text)]).expect("reads");
            let c = Cluster::new(&ingested.objects, &options, Version::parse("1.29.2").unwrap(), None, Vec::new());
            assert_eq!(c.runs.len(), (1 << c.index_bits) + 1, "{n} objects");
            for i in 0..n {
                let name = format!("c-{i}");
                assert_eq!(c.lookup("ConfigMap", "ns", &name).map(|o| o.r.name.as_str()), Some(name.as_str()));
            }
            assert!(c.lookup("ConfigMap", "ns", &format!("c-{n}")).is_none());
            assert!(c.lookup("Secret", "ns", "c-0").is_none());
        }
    }

    /// A YAML alias bomb of `levels` levels, each doubling: about 2^levels copies of a short string.
    fn bomb(levels: usize, tag: &str) -> String {
        let mut s = format!("kind: Pod\napiVersion: v1\na0: &a0 [\"{tag}-xxxxxxxxxxxxxxxxxxxxxxxx\"]\n");
        for i in 1..=levels {
            s.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}]\n", p = i - 1));
        }
        s
    }

    /// Annotations are read once per text, and aliases expand within a budget per annotation and across
    /// all: a small alias bomb in every pod's annotation costs its budget once, not once per pod and rule.
    #[test]
    fn recorded_manifests_are_read_once_and_within_their_alias_budgets() {
        let options = UpgradeOptions::new("1.29.2");
        let to = Version::parse("1.29.2").unwrap();
        let c = Cluster::new(&[], &options, to, None, Vec::new());
        let head = Some(("Pod".to_owned(), "v1".to_owned()));
        assert_eq!(c.recorded_head(r#"{"kind": "Pod", "apiVersion": "v1"}"#), head);
        // Within one annotation's budget: read.
        assert_eq!(c.recorded_head(&bomb(6, "small")), head);
        // Past 256 KiB: not read, and only that much of the shared budget spent.
        let before = c.recorded.borrow().alias_budget;
        assert_eq!(c.recorded_head(&bomb(20, "big")), None);
        assert_eq!(before - c.recorded.borrow().alias_budget, ANNOTATION_ALIAS_BYTES);
        // The same text again: from the cache, nothing more spent.
        let left = c.recorded.borrow().alias_budget;
        assert_eq!(c.recorded_head(&bomb(20, "big")), None);
        assert_eq!(c.recorded.borrow().alias_budget, left);
        // Distinct bombs use up the shared budget; JSON (no aliases) is still read after.
        for i in 0..ANNOTATIONS_ALIAS_BYTES / ANNOTATION_ALIAS_BYTES + 2 {
            assert_eq!(c.recorded_head(&bomb(20, &format!("b{i}"))), None);
        }
        assert_eq!(c.recorded.borrow().alias_budget, 0);
        assert_eq!(c.recorded_head(&bomb(2, "tiny")), None, "no alias budget left");
        assert_eq!(c.recorded_head(r#"{"kind": "Pod", "apiVersion": "v1", "x": 1}"#), head);
    }
}
