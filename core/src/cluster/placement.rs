//! Where an evicted pod lands: kube-scheduler's filters, over the nodes that are up at one moment of the
//! plan, against what the pods already there request.
//!
//! One model for the plan, the downtime and the rules ([`Placement`]): every running pod starts on its node;
//! the plan marks nodes out and back and evicts pods, and each evicted pod is placed where the scheduler's
//! filters let it go (`pkg/scheduler/framework/plugins`), in the scheduler's order, a node failing at its
//! first failing filter:
//!
//! 1. NodeUnschedulable (a cordoned node, and every node out for the upgrade: drained nodes are cordoned);
//! 2. TaintToleration (`NoSchedule`/`NoExecute`; a node not Ready carries `node.kubernetes.io/not-ready`);
//! 3. NodeAffinity (`nodeSelector` and required node affinity, with the labels the upgrade leaves);
//! 4. NodePorts (host ports, by protocol and host IP);
//! 5. NodeResourcesFit (CPU, memory, ephemeral storage, extended resources, the pod count; every
//!    insufficient resource is a reason of its own);
//! 6. VolumeBinding and VolumeZone (the node affinity and zone of the pod's bound volumes);
//! 7. PodTopologySpread (`DoNotSchedule` constraints);
//! 8. InterPodAffinity (existing pods' required anti-affinity, the pod's own required anti-affinity and
//!    affinity).
//!
//! Among the nodes that pass, the choice is deterministic: of the [`SPREAD_CANDIDATES`] nodes with the most
//! room left (the scheduler's least-allocated score: the free share of CPU and memory, requests counted as
//! the scheduler scores them, 100m CPU and 200 MiB for a container that requests none; the first in the
//! snapshot on a tie), the one with the fewest pods of the same controller (the scheduler's default
//! spreading, PodTopologySpread's system defaults with `ScheduleAnyway`, which keeps a ReplicaSet's
//! replicas apart). The real scheduler adds other scores, scores a sample of nodes in large clusters and
//! breaks ties at random; which node takes a pod may differ, whether some node can is what this model
//! answers.
//!
//! Cost: pods of one placement (selector, affinity, tolerations) share one candidate set, kept ordered by
//! score; a pod walks its set from the best node and usually stops at the first. In a full cluster, where
//! few nodes have room, the walk stops after [`WALK`] nodes and asks the set's [`Room`] tree (the most of
//! each resource free under each subtree) for the nodes with room for the pod's requests, then checks and
//! orders those: the nodes the whole walk would find, without visiting the others. A pod that fits nowhere
//! is known from the set's [`Tally`] when one resource is short on every node in it, and its reasons are
//! counted from the tally (the static reasons counted once per set, the free amounts kept sorted) rather
//! than by a pass over the nodes, unless it has pod-level constraints, ports, volumes or extended
//! resources. Requests of a set that failed in a moment, and larger ones, are not tried again until a node
//! comes back.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use crate::parse::FastMap;
use std::rc::Rc;

use super::scheduling::{selector_matches, untolerated_taints, volume_reachable_parts};
use super::Cluster;
use crate::model::{HostPort, LabelSelector, Object, PodAffinityTerm, PodInfo, PodSpec, Resources, Taint, UNKNOWN};
use crate::parse::StringMap;

/// How many failed requests are kept to skip the walk for larger ones.
const DOMINATED: usize = 64;

/// How many failed shapes are kept, with why, until a node comes back.
const FAILED: usize = 256;

/// How many of the last FitErrors a new one is compared with, to share it ([`Placement::place`]).
const RECENT_WHY: usize = 8;

/// How many of the best-scored nodes that pass are weighed for spreading a controller's replicas.
pub const SPREAD_CANDIDATES: usize = 16;

/// What the scheduler counts for a container with no CPU request when it scores (`DefaultMilliCPURequest`).
const SCORE_CPU_DEFAULT: i64 = 100;
/// ... and with no memory request (`DefaultMemoryRequest`, 200 MiB).
const SCORE_MEMORY_DEFAULT: i64 = 200 << 20;

/// A node as the scheduler sees it at a moment: what its pods request, its host ports, whether it is out.
#[derive(Debug, Clone, Default)]
struct NodeState {
    used: Resources,
    used_extended: Vec<(String, i64)>,
    /// CPU and memory as scored (zero requests counted at the scheduler's defaults).
    scored: (i64, i64),
    ports: Vec<HostPort>,
    /// The pods on it now (positions in `pods`).
    pods: Vec<u32>,
    /// Out for the upgrade (cordoned, draining, upgrading or replaced).
    out: bool,
    /// Its key in the candidate sets while it is in them.
    key: Option<Reverse<i64>>,
}

/// A running pod of the snapshot, and where it is now.
#[derive(Debug, Clone, Copy)]
pub struct PodSlot<'a> {
    pub obj: &'a Object,
    pub info: &'a PodInfo,
    /// The node it runs on now; `None` while it is Pending.
    pub node: Option<usize>,
    /// The node it ran on in the snapshot.
    pub home: Option<usize>,
}

pub use crate::report::Unschedulable;

/// Nodes of one placement, best first.
struct CandidateSet {
    nodes: Rc<[usize]>,
    order: BTreeSet<(Reverse<i64>, usize)>,
    /// Each node's static reason (NodeUnschedulable for a cordoned node, TaintToleration, NodeAffinity)
    /// for the pods of this placement, being out aside: made the first time one of them fits nowhere.
    statics: Option<Vec<Option<String>>>,
    /// What the reasons of a pod of this placement that fits nowhere are counted from, made with `statics`.
    tally: Option<Tally>,
    /// Where the pods of this placement have room, made when a walk finds too few nodes that pass.
    room: Option<Room>,
}

/// A candidate set's counts for the scheduler's FitError without a pass over the nodes: the static
/// reasons over every node of the model, the nodes that pass them though not in the set, and the free
/// amounts of the set's nodes that are in it now.
struct Tally {
    /// Each static reason and how many nodes of the model give it (out or not).
    statics: Vec<(String, usize)>,
    /// How many nodes of the model there were when `statics` was counted (a surge node adds one).
    model_nodes: usize,
    /// Nodes that pass the static filters yet are not in the set (a tolerated not-ready node).
    loose: Vec<usize>,
    /// The free pod slots, CPU, memory and ephemeral storage of the set's nodes that are in it now.
    free: [Ranked; 4],
}

impl CandidateSet {
    /// Node `n` joins the set's order, its tally and its room tree, with its score and free amounts.
    fn join(&mut self, key: Reverse<i64>, n: usize, frees: [i64; 4]) {
        self.order.insert((key, n));
        if let Some(t) = &mut self.tally {
            t.add(frees);
        }
        if let Some(room) = &mut self.room {
            room.set(n, frees);
        }
    }

    /// Node `n` leaves them (its free amounts as they were when it joined).
    fn leave(&mut self, key: Reverse<i64>, n: usize, frees: [i64; 4]) {
        self.order.remove(&(key, n));
        if let Some(t) = &mut self.tally {
            t.take(frees);
        }
        if let Some(room) = &mut self.room {
            room.set(n, [i64::MIN; 4]);
        }
    }
}

impl Tally {
    fn add(&mut self, frees: [i64; 4]) {
        for (r, v) in self.free.iter_mut().zip(frees) {
            r.insert(v);
        }
    }

    fn take(&mut self, frees: [i64; 4]) {
        for (r, v) in self.free.iter_mut().zip(frees) {
            r.remove(v);
        }
    }
}

/// How many nodes of a candidate set a pod's walk visits before it asks the set's [`Room`] tree (two in
/// the unit tests, so that their small clusters take both ways).
#[cfg(not(test))]
const WALK: usize = 48;
#[cfg(test)]
const WALK: usize = 2;

/// How many candidate sets get a [`Room`] tree (the others walk every node).
const ROOMS: usize = 64;

/// The free amounts (as in [`Tally`]) of a candidate set's nodes, in a tree of maxima over the nodes'
/// positions (a node out holds `i64::MIN`): the nodes with room for a request are found by descending
/// only where some node may have it.
struct Room {
    /// The set's nodes, ascending (model indices).
    members: Vec<usize>,
    /// Leaves start here.
    leaves: usize,
    max: Vec<[i64; 4]>,
}

impl Room {
    fn new(members: Vec<usize>) -> Self {
        let leaves = members.len().next_power_of_two();
        Room { members, leaves, max: vec![[i64::MIN; 4]; 2 * leaves] }
    }

    fn set(&mut self, n: usize, v: [i64; 4]) {
        let Ok(i) = self.members.binary_search(&n) else { return };
        let mut k = self.leaves + i;
        if let Some(slot) = self.max.get_mut(k) {
            *slot = v;
        }
        while k > 1 {
            k /= 2;
            let (Some(a), Some(b)) = (self.max.get(2 * k), self.max.get(2 * k + 1)) else { return };
            let m = [a[0].max(b[0]), a[1].max(b[1]), a[2].max(b[2]), a[3].max(b[3])];
            if let Some(slot) = self.max.get_mut(k) {
                *slot = m;
            }
        }
    }

    /// The nodes with at least `want` of each resource asked (a resource asked as zero always fits).
    fn with_room(&self, want: [i64; 4]) -> Vec<usize> {
        let fits = |v: &[i64; 4]| v.iter().zip(want).all(|(f, w)| w <= 0 || *f >= w);
        let mut out = Vec::new();
        let mut stack = vec![1usize];
        while let Some(k) = stack.pop() {
            if !self.max.get(k).is_some_and(fits) {
                continue;
            }
            if k >= self.leaves {
                out.extend(self.members.get(k - self.leaves));
            } else {
                stack.push(2 * k + 1);
                stack.push(2 * k);
            }
        }
        out
    }
}

/// How many values of a [`Ranked`] block are kept before it is split.
const BLOCK: usize = 64;

/// A multiset of amounts kept sorted in blocks of at most `2 * BLOCK`: how many are below a bound costs a
/// step per block and a binary search, adding or removing one a binary search and a shift within a block.
#[derive(Default)]
struct Ranked {
    blocks: Vec<Vec<i64>>,
}

impl Ranked {
    /// The first block whose largest value is at least `v` (blocks are never empty).
    fn block_of(&self, v: i64) -> usize {
        self.blocks.partition_point(|b| b.last().is_some_and(|l| *l < v))
    }

    fn insert(&mut self, v: i64) {
        let b = self.block_of(v).min(self.blocks.len().saturating_sub(1));
        match self.blocks.get_mut(b) {
            None => self.blocks.push(vec![v]),
            Some(block) => {
                let i = block.partition_point(|x| *x < v);
                block.insert(i, v);
                if block.len() > 2 * BLOCK {
                    let rest = block.split_off(BLOCK);
                    self.blocks.insert(b + 1, rest);
                }
            }
        }
    }

    fn remove(&mut self, v: i64) {
        let b = self.block_of(v);
        let Some(block) = self.blocks.get_mut(b) else { return };
        if let Ok(i) = block.binary_search(&v) {
            block.remove(i);
            if block.is_empty() {
                self.blocks.remove(b);
            }
        }
    }

    /// How many values are below `v`.
    fn below(&self, v: i64) -> usize {
        let b = self.block_of(v);
        let whole: usize = self.blocks.iter().take(b).map(Vec::len).sum();
        whole + self.blocks.get(b).map_or(0, |block| block.partition_point(|x| *x < v))
    }

    fn len(&self) -> usize {
        self.blocks.iter().map(Vec::len).sum()
    }
}

/// The NodeResourcesFit reasons a [`Tally`] counts, in its `free` order, with what the pod asks of each.
const TALLIED: [&str; 4] =
    ["Too many pods", "Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"];

fn wants(r: &Resources) -> [i64; 4] {
    [1, r.cpu_millis, r.memory_bytes, r.ephemeral_bytes]
}

/// How many nodes that gained room a retry looks at before it asks again of the whole candidate set.
const GROWN_LOOKED_AT: usize = 8;

/// The placement model: nodes, pods and where each pod is, through the moments of a plan.
pub struct Placement<'c, 'a> {
    ctx: &'c Cluster<'a>,
    nodes: Vec<NodeState>,
    pub pods: Vec<PodSlot<'a>>,
    /// Each pod's controller (an index into the controllers seen; `u32::MAX` for none), for spreading.
    owner: Vec<u32>,
    /// Pods by namespace (positions in `pods`), for affinity and spread counts.
    by_namespace: FastMap<&'a str, Vec<u32>>,
    /// Pods with required anti-affinity terms (the existing pods' side of InterPodAffinity), by the
    /// namespace their terms cover: their own (terms naming no namespace), or any (`""`: terms naming
    /// namespaces or a namespace selector).
    anti: FastMap<&'a str, Vec<u32>>,
    sets: Vec<CandidateSet>,
    /// The candidate sets each node is in.
    node_sets: Vec<Vec<u32>>,
    /// Shapes of pod with extended resources that fit nowhere since the last node came back, with why.
    failed: Vec<(Shape, Unschedulable)>,
    /// The last FitErrors [`Placement::place`] gave (at most [`RECENT_WHY`]), shared with the next alike.
    recent_why: Vec<Rc<Unschedulable>>,
    /// Candidate sets and requests that fit nowhere since the last node came back: a pod of the set asking
    /// as much or more fits nowhere either (at most [`DOMINATED`] kept).
    dominated: Vec<(usize, Resources)>,
    /// Surge nodes (kOps `maxSurge`), after the snapshot's: the node each one copies (labels, taints,
    /// allocatable).
    surge: Vec<usize>,
    /// The nodes out now.
    outs: BTreeSet<usize>,
    /// Per node of the model: does it count in [`Placement::free_now`] while it is in (a worker, not of
    /// the control plane, Ready, schedulable: what its snapshot node says, which the replay never changes).
    counted: Vec<bool>,
    /// [`Placement::free_now`]'s CPU and memory, kept as nodes go out and back and pods come and go: asked
    /// at every drain that leaves pods Pending, a pass over the nodes there made the replay nodes times
    /// drains (at 150,000 pods, 1,500 nodes, the replay's own time grew 36 times for 7.5 times the pods).
    /// Wide enough that no sum of nodes' amounts overflows; reported saturated, as the pass summed.
    free: (i128, i128),
    /// How many candidate sets have a [`Room`] tree.
    rooms: usize,
    /// Per pod, once known: its candidate set and whether nothing but its set and requests decides where
    /// it fits (no volumes, no anti-affinity of others covering it). Neither changes during a replay, and a
    /// retry asks for them again and again.
    pod_set: Vec<Option<u32>>,
    plain_fit: Vec<Option<bool>>,
    /// The nodes room appeared on, in order (a node back, a surge node, a pod taken off a node that is
    /// in): a moment of the replay is a position in it.
    grown: Vec<usize>,
    /// Per candidate set, the last moment ([`Placement::grown`]) one of its nodes gained room.
    set_grew: Vec<usize>,
    /// Per pod whose fit is its candidate set and its requests alone and which fitted nowhere when last
    /// asked, what decides that: kept beside each other, so that a retry of thousands of Pending pods
    /// answers most of them without reading the pods themselves.
    nowhere: Vec<Option<Nowhere>>,
}

/// A Pending pod, as a retry list holds it ([`Placement::wait`], [`Placement::place_again`]): what decides
/// whether asking again can change anything is kept in the list itself, read in order, rather than
/// looked up pod by pod across the whole model (at 150,000 pods a retry at each returning node spent
/// its time on those lookups).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Waiting {
    pub id: u32,
    nowhere: Option<Nowhere>,
}

/// A pod that fitted nowhere, whose fit is its candidate set and its requests alone.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Nowhere {
    /// The moment ([`Placement::grown`]) it last fitted nowhere: until one of its set's nodes gains room,
    /// it fits nowhere still.
    at: usize,
    set: u32,
    /// Its requests, when it asks for no extended resource (what [`Placement::dominated`] compares).
    plain: Option<Resources>,
}

/// What decides where a pod without pod-level constraints may go: its candidate set and its requests.
#[derive(PartialEq, Eq, Clone)]
struct Shape {
    set: usize,
    requests: Resources,
    extended: Vec<(String, i64)>,
}

fn scored(r: &Resources) -> (i64, i64) {
    (
        if r.cpu_millis == 0 { SCORE_CPU_DEFAULT } else { r.cpu_millis },
        if r.memory_bytes == 0 { SCORE_MEMORY_DEFAULT } else { r.memory_bytes },
    )
}

/// The least-allocated share left, in thousandths per resource (CPU and memory, weight 1 each).
fn share_left(alloc: i64, used: i64) -> i64 {
    if alloc == UNKNOWN || alloc <= 0 {
        return if alloc == UNKNOWN { 1000 } else { 0 };
    }
    let free = alloc.saturating_sub(used).max(0);
    i64::try_from(i128::from(free) * 1000 / i128::from(alloc)).unwrap_or(0)
}

fn amount(list: &[(String, i64)], name: &str) -> i64 {
    list.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v)
}

fn add_to(list: &mut Vec<(String, i64)>, name: &str, v: i64) {
    match list.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = slot.1.saturating_add(v),
        None => list.push((name.to_owned(), v)),
    }
}

/// Do two host ports collide (same port and protocol; same IP, or either on every address)?
fn ports_conflict(a: &HostPort, b: &HostPort) -> bool {
    a.port == b.port && a.protocol == b.protocol && (a.ip == b.ip || a.ip == "0.0.0.0" || b.ip == "0.0.0.0")
}

/// Does the pod tolerate the `NoSchedule` taint with this key and no value (the taints the node
/// controllers put on a cordoned, not-Ready or unreachable node)?
fn tolerates_no_schedule(spec: &PodSpec, key: &str) -> bool {
    spec.tolerations.iter().any(|tol| tol.tolerates_parts(key, "", "NoSchedule"))
}

/// One more node with this reason.
fn bump<'s>(counts: &mut Vec<(Cow<'s, str>, usize)>, r: Cow<'s, str>) {
    bump_by(counts, r, 1);
}

/// `k` more nodes with this reason.
fn bump_by<'s>(counts: &mut Vec<(Cow<'s, str>, usize)>, r: Cow<'s, str>, k: usize) {
    if k == 0 {
        return;
    }
    match counts.iter_mut().find(|(x, _)| *x == r) {
        Some(slot) => slot.1 += k,
        None => counts.push((r, k)),
    }
}

/// A filter's one reason: handed on, and the node fails.
fn one(reason: &mut dyn FnMut(Cow<'static, str>), why: &'static str) -> bool {
    reason(Cow::Borrowed(why));
    false
}

fn untolerated_message(t: &Taint) -> String {
    format!("node(s) had untolerated taint {{{}: {}}}", t.key, t.value)
}

impl<'c, 'a> Placement<'c, 'a> {
    /// Every running pod on its node, as in the snapshot; no node out.
    pub fn new(ctx: &'c Cluster<'a>) -> Self {
        let mut p = Placement {
            ctx,
            nodes: vec![NodeState::default(); ctx.nodes.len()],
            pods: Vec::new(),
            owner: Vec::new(),
            by_namespace: FastMap::default(),
            anti: FastMap::default(),
            sets: Vec::new(),
            node_sets: vec![Vec::new(); ctx.nodes.len()],
            failed: Vec::new(),
            dominated: Vec::new(),
            surge: Vec::new(),
            outs: BTreeSet::new(),
            counted: Vec::new(),
            free: (0, 0),
            rooms: 0,
            pod_set: Vec::new(),
            plain_fit: Vec::new(),
            grown: Vec::new(),
            recent_why: Vec::new(),
            set_grew: Vec::new(),
            nowhere: Vec::new(),
        };
        for n in 0..p.nodes.len() {
            p.count_free(n);
        }
        let mut controllers: FastMap<(&str, &str, &str), u32> = FastMap::default();
        // Sized once: a model is made again at each round of the run if resolved, and vectors grown by
        // doubling leave blocks the next round's cannot use (WebAssembly's memory never shrinks).
        let running = ctx.running_pods().count();
        p.pods.reserve_exact(running);
        p.owner.reserve_exact(running);
        for (obj, info, node) in ctx.running_pods() {
            let Ok(id) = u32::try_from(p.pods.len()) else { break };
            let home = ctx.node_index(node);
            p.pods.push(PodSlot { obj, info, node: None, home });
            let owner = obj.owners.iter().find(|o| o.controller).map_or(u32::MAX, |o| {
                let next = u32::try_from(controllers.len()).unwrap_or(u32::MAX);
                let ns = obj.r.namespace.as_deref().unwrap_or("default");
                *controllers.entry((ns, o.kind.as_str(), o.name.as_str())).or_insert(next)
            });
            p.owner.push(owner);
            p.by_namespace.entry(obj.r.namespace.as_deref().unwrap_or("default")).or_default().push(id);
            if info.spec.needs.as_ref().is_some_and(|n| !n.anti_affinity.is_empty()) {
                let wide = info.spec.needs.as_ref().is_some_and(|n| {
                    n.anti_affinity.iter().any(|t| !t.namespaces.is_empty() || t.namespace_selector.is_some())
                });
                let ns = if wide { "" } else { obj.r.namespace.as_deref().unwrap_or("default") };
                p.anti.entry(ns).or_default().push(id);
            }
            if let Some(n) = home {
                p.put(id, n);
            }
        }
        // Nodes without pods have a score too.
        for n in 0..p.nodes.len() {
            p.list(n);
        }
        p.pod_set = vec![None; p.pods.len()];
        p.plain_fit = vec![None; p.pods.len()];
        p.nowhere = vec![None; p.pods.len()];
        p
    }

    /// Room appeared on node `n` (it came back, joined, or a pod left it while it is in): the pods of its
    /// candidate sets that fitted nowhere may fit now.
    fn grew(&mut self, n: usize) {
        self.grown.push(n);
        let now = self.grown.len();
        for s in self.node_sets.get(n).map_or(&[][..], Vec::as_slice) {
            if let Some(g) = self.set_grew.get_mut(*s as usize) {
                *g = now;
            }
        }
    }

    /// The snapshot node a node of the model is (itself, or the node a surge node copies).
    fn view(&self, n: usize) -> usize {
        match n.checked_sub(self.ctx.nodes.len()) {
            Some(k) => self.surge.get(k).copied().unwrap_or(n),
            None => n,
        }
    }

    /// A surge node like `template` joins, empty (kOps creates it before the drains of its group).
    pub fn add_surge(&mut self, template: usize) {
        let n = self.nodes.len();
        self.surge.push(template);
        self.nodes.push(NodeState::default());
        let sets = self.node_sets.get(template).cloned().unwrap_or_default();
        // Its sets' room trees have no place for it: made again when next asked.
        for s in &sets {
            if self.sets.get_mut(*s as usize).and_then(|s| s.room.take()).is_some() {
                self.rooms -= 1;
            }
        }
        self.node_sets.push(sets);
        self.count_free(n);
        self.list(n);
        self.grew(n);
        self.failed.clear();
        self.dominated.clear();
    }

    fn slot(&self, id: u32) -> Option<&PodSlot<'a>> {
        self.pods.get(id as usize)
    }

    fn key_of(&self, n: usize) -> Reverse<i64> {
        let (Some(st), Some(v)) = (self.nodes.get(n), self.ctx.nodes.get(self.view(n))) else { return Reverse(0) };
        let a = v.info.allocatable;
        Reverse(share_left(a.cpu_millis, st.scored.0) + share_left(a.memory_bytes, st.scored.1))
    }

    /// What node `n` has free now: pod slots, CPU, memory, ephemeral storage (`UNKNOWN` where its status
    /// gives no figure: never short).
    fn frees(&self, n: usize) -> [i64; 4] {
        let (Some(st), Some(v)) = (self.nodes.get(n), self.ctx.nodes.get(self.view(n))) else { return [0; 4] };
        let a = v.info.allocatable;
        let left = |alloc: i64, used: i64| if alloc == UNKNOWN { UNKNOWN } else { alloc.saturating_sub(used) };
        [
            left(a.pods, st.used.pods),
            left(a.cpu_millis, st.used.cpu_millis),
            left(a.memory_bytes, st.used.memory_bytes),
            left(a.ephemeral_bytes, st.used.ephemeral_bytes),
        ]
    }

    /// Take node `n` out of its candidate sets (before its usage changes, or while it is out).
    fn unlist(&mut self, n: usize) {
        let Some(key) = self.nodes.get_mut(n).and_then(|s| s.key.take()) else { return };
        let frees = self.frees(n);
        for s in self.node_sets.get(n).map_or(&[][..], Vec::as_slice) {
            if let Some(set) = self.sets.get_mut(*s as usize) {
                set.leave(key, n, frees);
            }
        }
    }

    /// Put node `n` back in its candidate sets with its current score, unless it is out.
    fn list(&mut self, n: usize) {
        if self.nodes.get(n).is_none_or(|s| s.out || s.key.is_some()) {
            return;
        }
        let key = self.key_of(n);
        let frees = self.frees(n);
        for s in self.node_sets.get(n).map_or(&[][..], Vec::as_slice) {
            if let Some(set) = self.sets.get_mut(*s as usize) {
                set.join(key, n, frees);
            }
        }
        if let Some(st) = self.nodes.get_mut(n) {
            st.key = Some(key);
        }
    }

    /// Place pod `id` on node `n` (its requests, ports and count join the node's).
    fn put(&mut self, id: u32, n: usize) {
        self.account(id, n, true);
        if let Some(st) = self.nodes.get_mut(n) {
            st.pods.push(id);
        }
        if let Some(s) = self.pods.get_mut(id as usize) {
            s.node = Some(n);
        }
        self.list(n);
    }

    /// Take pod `id` off its node.
    fn take(&mut self, id: u32) {
        let Some(n) = self.pods.get(id as usize).and_then(|s| s.node) else { return };
        self.account(id, n, false);
        if let Some(st) = self.nodes.get_mut(n) {
            if let Some(i) = st.pods.iter().position(|p| *p == id) {
                st.pods.swap_remove(i);
            }
        }
        if let Some(s) = self.pods.get_mut(id as usize) {
            s.node = None;
        }
        if !self.is_out(n) {
            self.grew(n);
        }
        self.list(n);
    }

    /// Add pod `id`'s requests, extended resources and host ports to node `n`'s, or take them away; the
    /// node leaves its candidate sets first (its score changes), and the caller lists it again.
    fn account(&mut self, id: u32, n: usize, add: bool) {
        let Some(slot) = self.pods.get(id as usize).copied() else { return };
        self.unlist(n);
        let before = self.free_of(n);
        let Some(st) = self.nodes.get_mut(n) else { return };
        let step = |v: i64, d: i64| if add { v.saturating_add(d) } else { v.saturating_sub(d) };
        let r = slot.info.spec.requests;
        st.used.cpu_millis = step(st.used.cpu_millis, r.cpu_millis);
        st.used.memory_bytes = step(st.used.memory_bytes, r.memory_bytes);
        st.used.ephemeral_bytes = step(st.used.ephemeral_bytes, r.ephemeral_bytes);
        st.used.pods = step(st.used.pods, 1);
        let (c, m) = scored(&r);
        st.scored = (step(st.scored.0, c), step(st.scored.1, m));
        self.refree(n, before);
        let Some(st) = self.nodes.get_mut(n) else { return };
        let Some(needs) = &slot.info.spec.needs else { return };
        for (k, v) in &needs.extended {
            add_to(&mut st.used_extended, k, if add { *v } else { v.saturating_neg() });
        }
        for hp in &needs.host_ports {
            if add {
                st.ports.push(hp.clone());
            } else if let Some(i) = st.ports.iter().position(|p| p == hp) {
                st.ports.swap_remove(i);
            }
        }
    }

    /// Mark node `n` out for the upgrade, or back.
    pub fn set_out(&mut self, n: usize, out: bool) {
        if out {
            self.unlist(n);
        }
        let before = self.free_of(n);
        if let Some(st) = self.nodes.get_mut(n) {
            st.out = out;
        }
        self.refree(n, before);
        if out {
            self.outs.insert(n);
        } else {
            self.outs.remove(&n);
        }
        if !out {
            self.list(n);
            self.grew(n);
            // Capacity came back: shapes that fit nowhere may fit now.
            self.failed.clear();
            self.dominated.clear();
        }
    }

    /// The CPU (millicores) and memory (bytes) free on the workers that are up, Ready and schedulable now
    /// (allocatable less what their pods request; a node whose status gives no figure adds nothing): the
    /// sum the capacity finding reports beside the pods left Pending.
    pub fn free_now(&self) -> (i64, i64) {
        let clamp = |v: i128| i64::try_from(v).unwrap_or(i64::MAX);
        (clamp(self.free.0), clamp(self.free.1))
    }

    /// Node `n`, new to the model (the next one), joins the free sums: whether it counts while it is in (a
    /// worker, not of the control plane, Ready, schedulable), and what it adds now.
    fn count_free(&mut self, n: usize) {
        let counts = self
            .ctx
            .nodes
            .get(self.view(n))
            .is_some_and(|v| v.ready() && !v.info.unschedulable && v.is_worker() && !v.is_control_plane());
        self.counted.push(counts);
        self.refree(n, (0, 0));
    }

    /// What node `n` adds to [`Placement::free_now`] now: its CPU and memory left (none below zero, none
    /// where its status gives no figure), when it counts and is in.
    fn free_of(&self, n: usize) -> (i128, i128) {
        let (Some(st), Some(v)) = (self.nodes.get(n), self.ctx.nodes.get(self.view(n))) else { return (0, 0) };
        if st.out || !self.counted.get(n).copied().unwrap_or(false) {
            return (0, 0);
        }
        let a = v.info.allocatable;
        let left =
            |alloc: i64, used: i64| if alloc == UNKNOWN { 0 } else { i128::from(alloc.saturating_sub(used).max(0)) };
        (left(a.cpu_millis, st.used.cpu_millis), left(a.memory_bytes, st.used.memory_bytes))
    }

    /// Node `n` changed: its part of the free sums, `before` what it was.
    fn refree(&mut self, n: usize, before: (i128, i128)) {
        let now = self.free_of(n);
        self.free = (self.free.0 - before.0 + now.0, self.free.1 - before.1 + now.1);
    }

    /// The snapshot's nodes out now (positions in `Cluster::nodes`, surge nodes aside), in order.
    pub fn nodes_out(&self) -> Vec<usize> {
        self.outs.iter().copied().filter(|n| *n < self.ctx.nodes.len()).collect()
    }

    pub fn is_out(&self, n: usize) -> bool {
        self.nodes.get(n).is_some_and(|s| s.out)
    }

    /// The pods on node `n` now that its drain evicts (DaemonSet and mirror pods stay), less those `keep`
    /// holds; they are taken off the node and returned.
    pub fn evict(&mut self, n: usize, keep: impl Fn(&Object) -> bool) -> Vec<u32> {
        let ids: Vec<u32> = self.nodes.get(n).map(|s| s.pods.clone()).unwrap_or_default();
        let mut out: Vec<u32> = ids
            .into_iter()
            .filter(|id| self.slot(*id).is_some_and(|s| !self.ctx.drain_leaves(s.obj) && !keep(s.obj)))
            .collect();
        crate::sort::sort(&mut out);
        for id in &out {
            self.take(*id);
        }
        out
    }

    /// The candidate set of a pod's placement (selector, affinity, tolerations), made on first use.
    fn set_of(&mut self, id: u32) -> Option<usize> {
        if let Some(&Some(known)) = self.pod_set.get(id as usize) {
            return Some(known as usize);
        }
        let set = self.find_set(id)?;
        if let Some(slot) = self.pod_set.get_mut(id as usize) {
            *slot = u32::try_from(set).ok();
        }
        Some(set)
    }

    fn find_set(&mut self, id: u32) -> Option<usize> {
        let slot = self.slot(id).copied()?;
        let nodes = self.ctx.eligible_nodes(&slot.info.spec);
        if let Some(i) = self.sets.iter().position(|s| Rc::ptr_eq(&s.nodes, &nodes)) {
            return Some(i);
        }
        let i = self.sets.len();
        let index = u32::try_from(i).ok()?;
        let mut order = BTreeSet::new();
        let surge: Vec<usize> = (0..self.surge.len())
            .filter(|k| self.surge.get(*k).is_some_and(|t| nodes.contains(t)))
            .map(|k| self.ctx.nodes.len() + k)
            .collect();
        for n in nodes.iter().copied().chain(surge) {
            if let Some(list) = self.node_sets.get_mut(n) {
                list.push(index);
            }
            if let Some(key) = self.nodes.get(n).and_then(|s| s.key) {
                order.insert((key, n));
            }
        }
        self.sets.push(CandidateSet { nodes, order, statics: None, tally: None, room: None });
        self.set_grew.push(self.grown.len());
        Some(i)
    }

    /// Place an evicted or Pending pod: on the best node that passes every filter, or not at all, with why.
    pub fn place(&mut self, id: u32) -> Result<usize, Rc<Unschedulable>> {
        self.place_explained(id, true).map_err(|why| self.shared(why.unwrap_or_default()))
    }

    /// `why`, shared with the last FitErrors alike: the pods a drain leaves Pending mostly fit nowhere for
    /// the same reasons, and a replay at 150,000 pods kept tens of thousands of copies.
    fn shared(&mut self, mut why: Unschedulable) -> Rc<Unschedulable> {
        if let Some(same) = self.recent_why.iter().find(|r| ***r == why) {
            return Rc::clone(same);
        }
        why.reasons.shrink_to_fit();
        let why = Rc::new(why);
        if self.recent_why.len() >= RECENT_WHY {
            self.recent_why.remove(0);
        }
        self.recent_why.push(Rc::clone(&why));
        why
    }

    /// Place a pod again (a retry after a node came back): the same decision as [`Placement::place`],
    /// without working out why it fails (every node's first failing filter, in words) when it does. A
    /// retry of thousands of Pending pods at each of thousands of returning nodes spent most of its time
    /// there.
    ///
    /// A pod whose fit is its candidate set and its requests alone, which fitted nowhere, is not tried again
    /// until one of its set's nodes gains room: a retry at each returning node asks again of every
    /// Pending pod, and most wait on nodes other than the one that came back.
    pub fn place_again(&mut self, w: &mut Waiting) -> Option<usize> {
        let id = w.id;
        if let Some(was) = w.nowhere {
            let set = was.set as usize;
            if self.set_grew.get(set).is_some_and(|g| *g <= was.at) {
                return None;
            }
            if let Some(r) = was.plain {
                let now = self.grown.len();
                // Its set and requests fit nowhere since the last node came back: it does not either.
                if self.is_dominated(set, &r) {
                    if let Some(n) = w.nowhere.as_mut() {
                        n.at = now;
                    }
                    return None;
                }
                // Only the nodes that gained room since may take it now: when none of its set has room
                // for it, it fits nowhere still (the same answer as a walk of the whole set), and neither
                // does a pod of its set asking as much or more, until a node gains room (as after a walk).
                let since = self.grown.get(was.at..).unwrap_or_default();
                if since.len() <= GROWN_LOOKED_AT && !since.iter().any(|m| self.may_take(*m, set, &r)) {
                    if let Some(n) = w.nowhere.as_mut() {
                        n.at = now;
                    }
                    if self.dominated.len() < DOMINATED {
                        self.dominated.push((set, r));
                    }
                    return None;
                }
            }
        }
        let placed = self.place_explained(id, false).ok();
        w.nowhere = self.nowhere.get(id as usize).copied().flatten();
        placed
    }

    /// May a pod of candidate set `set` asking `r`, which fitted nowhere at moment `at`, fit now? Only if
    /// a node of the set that gained room since has room for it ([`Placement::may_take`]): room appears
    /// nowhere else.
    fn may_have_room(&self, set: u32, r: &Resources, at: usize) -> bool {
        let s = set as usize;
        self.set_grew.get(s).is_some_and(|g| *g > at)
            && self.grown.get(at..).unwrap_or_default().iter().any(|m| self.may_take(*m, s, r))
    }

    /// Pod `id` as a retry list holds it, after it was refused or fitted nowhere.
    pub fn wait(&self, id: u32) -> Waiting {
        Waiting { id, nowhere: self.nowhere.get(id as usize).copied().flatten() }
    }

    /// Is node `m` in candidate set `set`, in, and with room for requests `r` (NodeResourcesFit: a pod
    /// slot, CPU, memory, ephemeral storage)? For a pod whose fit is its set and requests alone, the same
    /// as every filter.
    fn may_take(&self, m: usize, set: usize, r: &Resources) -> bool {
        let index = u32::try_from(set).unwrap_or(u32::MAX);
        !self.is_out(m)
            && self.node_sets.get(m).is_some_and(|l| l.contains(&index))
            && self.frees(m).iter().zip(wants(r)).all(|(free, want)| want <= 0 || *free == UNKNOWN || want <= *free)
    }

    /// Does a pod of candidate set `set` asking `r` fit nowhere now, as one of the same set asking no more
    /// did since the last node came back?
    fn is_dominated(&self, set: usize, r: &Resources) -> bool {
        self.dominated.iter().any(|(s, f)| {
            *s == set
                && f.cpu_millis <= r.cpu_millis
                && f.memory_bytes <= r.memory_bytes
                && f.ephemeral_bytes <= r.ephemeral_bytes
        })
    }

    /// No volumes, and no other pod's anti-affinity covering it (known once per pod).
    fn plain_fit(&mut self, id: u32, obj: &Object, spec: &crate::model::PodSpec) -> bool {
        if let Some(&Some(known)) = self.plain_fit.get(id as usize) {
            return known;
        }
        let yes = self.ctx.pod_volumes(obj, spec).is_empty() && !self.anti_covers(obj);
        if let Some(slot) = self.plain_fit.get_mut(id as usize) {
            *slot = Some(yes);
        }
        yes
    }

    fn place_explained(&mut self, id: u32, explain: bool) -> Result<usize, Option<Unschedulable>> {
        let (result, shape) = self.decide(id, explain);
        let at = self.grown.len();
        let nowhere = shape
            .filter(|_| result.is_err())
            .and_then(|(set, plain)| Some(Nowhere { at, set: u32::try_from(set).ok()?, plain }));
        if let Some(slot) = self.nowhere.get_mut(id as usize) {
            *slot = nowhere;
        }
        result
    }

    /// [`Placement::place_explained`]'s decision, and when the pod's fit is its candidate set and its
    /// requests alone, the set and (with no extended resource asked) the requests.
    #[allow(clippy::type_complexity)]
    fn decide(
        &mut self,
        id: u32,
        explain: bool,
    ) -> (Result<usize, Option<Unschedulable>>, Option<(usize, Option<Resources>)>) {
        let Some(slot) = self.slot(id).copied() else {
            return (Err(Some(Unschedulable::default())), None);
        };
        let set = self.set_of(id).unwrap_or(usize::MAX);
        let spec = &slot.info.spec;
        // A pod whose fit is its placement and its requests alone (no host ports, pod affinity, spread or
        // volumes) shares a failure with the pods of the same shape, and with those asking more.
        let simple = spec.needs.as_ref().is_none_or(|n| {
            n.affinity.is_empty() && n.anti_affinity.is_empty() && n.spread.is_empty() && n.host_ports.is_empty()
        });
        let shape = (simple && self.plain_fit(id, slot.obj, spec)).then(|| Shape {
            set,
            requests: spec.requests,
            extended: spec.needs.as_ref().map(|n| n.extended.clone()).unwrap_or_default(),
        });
        // Plain (no extended resources either): its failure is known from the dominated requests and its
        // reasons from the set's tally; a shape with extended resources keeps its failure, with why.
        let plain = shape.as_ref().is_some_and(|s| s.extended.is_empty());
        let shaped = shape.as_ref().map(|s| (s.set, s.extended.is_empty().then_some(spec.requests)));
        let kept = shape.as_ref().filter(|_| !plain);
        if let Some((_, why)) = kept.and_then(|s| self.failed.iter().find(|(f, _)| f == s)) {
            return (Err(Some(why.clone())), shaped);
        }
        let owner = self.owner.get(id as usize).copied().unwrap_or(u32::MAX);
        let r = spec.requests;
        let dominated = plain && self.is_dominated(set, &r);
        let nowhere = dominated || self.hopeless(set, &r);
        if nowhere && !explain {
            return (Err(None), shaped);
        }
        let domains = self.pod_constraints(id);
        let found = if nowhere {
            None
        } else {
            let k = if owner == u32::MAX { 1 } else { SPREAD_CANDIDATES };
            // The fewest replicas of its controller among the best-scored nodes (min_by_key keeps the first).
            self.passing(id, set, &domains, k).into_iter().min_by_key(|n| {
                self.nodes.get(*n).map_or(0, |st| {
                    st.pods.iter().filter(|q| owner != u32::MAX && self.owner.get(**q as usize) == Some(&owner)).count()
                })
            })
        };
        match found {
            Some(n) => {
                self.put(id, n);
                (Ok(n), shaped)
            }
            None => {
                if plain && !dominated && self.dominated.len() < DOMINATED {
                    self.dominated.push((set, r));
                }
                if !explain {
                    return (Err(None), shaped);
                }
                self.ensure_statics(set, id);
                let why = self.why(id, set, &domains, plain);
                if let Some(s) = shape.filter(|_| !plain && self.failed.len() < FAILED) {
                    self.failed.push((s, why.clone()));
                }
                (Err(Some(why)), shaped)
            }
        }
    }

    /// The static reasons of a candidate set's pods, node by node (once per set), and its [`Tally`] (its
    /// static counts again when a surge node has joined since).
    fn ensure_statics(&mut self, set: usize, id: u32) {
        if self.sets.get(set).is_some_and(|s| s.statics.is_none()) {
            let statics: Vec<Option<String>> =
                (0..self.ctx.nodes.len()).map(|n| self.static_reason(id, n).err()).collect();
            if let Some(s) = self.sets.get_mut(set) {
                s.statics = Some(statics);
            }
        }
        let Some(s) = self.sets.get(set) else { return };
        if s.tally.as_ref().is_some_and(|t| t.model_nodes == self.nodes.len()) {
            return;
        }
        let statics = s.statics.as_deref().unwrap_or(&[]);
        let mut counts: Vec<(Cow<'_, str>, usize)> = Vec::new();
        let mut loose = Vec::new();
        let index = u32::try_from(set).unwrap_or(u32::MAX);
        for n in 0..self.nodes.len() {
            match statics.get(self.view(n)) {
                Some(Some(r)) => bump(&mut counts, Cow::Borrowed(r.as_str())),
                Some(None) if !self.node_sets.get(n).is_some_and(|l| l.contains(&index)) => loose.push(n),
                _ => {}
            }
        }
        let counts: Vec<(String, usize)> = counts.into_iter().map(|(r, c)| (r.into_owned(), c)).collect();
        let listed: Vec<[i64; 4]> = s.order.iter().map(|(_, n)| self.frees(*n)).collect();
        let model_nodes = self.nodes.len();
        let Some(s) = self.sets.get_mut(set) else { return };
        match &mut s.tally {
            Some(t) => {
                t.statics = counts;
                t.loose = loose;
                t.model_nodes = model_nodes;
            }
            None => {
                let mut t = Tally { statics: counts, model_nodes, loose, free: Default::default() };
                for frees in listed {
                    t.add(frees);
                }
                s.tally = Some(t);
            }
        }
    }

    /// The first `k` nodes of the set, best-scored first, that pass every filter for pod `id`: a walk in
    /// score order, and past [`WALK`] nodes visited (a full cluster, where few have room), the nodes with
    /// room for its requests from the set's [`Room`] tree, each checked and ordered by score, the same nodes
    /// the whole walk would give.
    fn passing(&mut self, id: u32, set: usize, domains: &Constraints<'a>, k: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let Some(s) = self.sets.get(set) else { return out };
        let may_ask = s.room.is_some() || self.rooms < ROOMS;
        for (visited, (_, n)) in s.order.iter().enumerate() {
            if visited == WALK && may_ask {
                out.clear();
                break;
            }
            if self.dynamic(id, *n, domains, &mut |_| {}) {
                out.push(*n);
                if out.len() == k {
                    return out;
                }
            }
        }
        if !may_ask || s.order.len() <= WALK {
            return out;
        }
        self.ensure_room(set);
        let want = self.slot(id).map_or([1, 0, 0, 0], |slot| wants(&slot.info.spec.requests));
        let Some(room) = self.sets.get(set).and_then(|s| s.room.as_ref()) else { return out };
        let mut found: Vec<(Reverse<i64>, usize)> = room
            .with_room(want)
            .into_iter()
            .filter(|n| self.dynamic(id, *n, domains, &mut |_| {}))
            .filter_map(|n| Some((self.nodes.get(n)?.key?, n)))
            .collect();
        crate::sort::sort(&mut found);
        found.truncate(k);
        found.into_iter().map(|(_, n)| n).collect()
    }

    /// The set's [`Room`] tree, made on first use (and again once a surge node has joined the set).
    fn ensure_room(&mut self, set: usize) {
        if self.sets.get(set).is_none_or(|s| s.room.is_some()) {
            return;
        }
        let index = u32::try_from(set).unwrap_or(u32::MAX);
        let Some(s) = self.sets.get(set) else { return };
        let surge = (self.ctx.nodes.len()..self.nodes.len())
            .filter(|n| self.node_sets.get(*n).is_some_and(|l| l.contains(&index)));
        let mut room = Room::new(s.nodes.iter().copied().chain(surge).collect());
        for (_, n) in &s.order {
            room.set(*n, self.frees(*n));
        }
        self.rooms += 1;
        if let Some(s) = self.sets.get_mut(set) {
            s.room = Some(room);
        }
    }

    /// No node of the set that is in it now has room for these requests: short of one resource on each.
    fn hopeless(&self, set: usize, r: &Resources) -> bool {
        let Some(t) = self.sets.get(set).and_then(|s| s.tally.as_ref()) else { return false };
        let listed = t.free.first().map_or(0, Ranked::len);
        listed == 0 || t.free.iter().zip(wants(r)).any(|(f, w)| w > 0 && f.below(w) == listed)
    }

    /// Every node's first failing filter for this pod, as the scheduler's FitError words it. For a pod
    /// whose fit is its requests alone (`plain`: no extended resources, ports, pod affinity, spread or
    /// volumes), counted from the set's [`Tally`] (the nodes out, the static counts less theirs, the free
    /// amounts below the pod's requests) instead of a pass over the nodes.
    fn why(&self, id: u32, set: usize, domains: &Constraints<'a>, plain: bool) -> Unschedulable {
        let mut counts: Vec<(Cow<'_, str>, usize)> = Vec::new();
        let statics = self.sets.get(set).and_then(|s| s.statics.as_deref());
        let tally = self.sets.get(set).and_then(|s| s.tally.as_ref()).filter(|t| t.model_nodes == self.nodes.len());
        if let (true, Some(t), Some(statics), Some(slot)) = (plain, tally, statics, self.slot(id)) {
            let mut left: Vec<(Cow<'_, str>, usize)> =
                t.statics.iter().map(|(r, c)| (Cow::Borrowed(r.as_str()), *c)).collect();
            for n in &self.outs {
                if let Some(Some(r)) = statics.get(self.view(*n)) {
                    if let Some(slot) = left.iter_mut().find(|(x, _)| x == r) {
                        slot.1 = slot.1.saturating_sub(1);
                    }
                }
            }
            for (r, c) in left {
                bump_by(&mut counts, r, c);
            }
            bump_by(&mut counts, Cow::Borrowed("node(s) were unschedulable"), self.outs.len());
            for n in t.loose.iter().filter(|n| !self.outs.contains(n)) {
                self.dynamic(id, *n, domains, &mut |r| bump(&mut counts, r));
            }
            for ((free, want), reason) in t.free.iter().zip(wants(&slot.info.spec.requests)).zip(TALLIED) {
                if want > 0 {
                    bump_by(&mut counts, Cow::Borrowed(reason), free.below(want));
                }
            }
            return Self::fit_error(self.nodes.len(), counts);
        }
        for n in 0..self.nodes.len() {
            if self.nodes.get(n).is_some_and(|st| st.out) {
                bump(&mut counts, Cow::Borrowed("node(s) were unschedulable"));
                continue;
            }
            match statics.and_then(|v| v.get(self.view(n))) {
                Some(Some(r)) => bump(&mut counts, Cow::Borrowed(r.as_str())),
                Some(None) => {
                    self.dynamic(id, n, domains, &mut |r| bump(&mut counts, r));
                }
                None => match self.static_reason(id, n) {
                    Err(r) => bump(&mut counts, Cow::Owned(r)),
                    Ok(()) => {
                        self.dynamic(id, n, domains, &mut |r| bump(&mut counts, r));
                    }
                },
            }
        }
        Self::fit_error(self.nodes.len(), counts)
    }

    /// The FitError of these counts over `nodes` nodes.
    fn fit_error(nodes: usize, counts: Vec<(Cow<'_, str>, usize)>) -> Unschedulable {
        let mut reasons: Vec<(String, usize)> = counts.into_iter().map(|(r, c)| (r.into_owned(), c)).collect();
        crate::sort::sort(&mut reasons);
        Unschedulable { nodes: Some(nodes), reasons }
    }

    /// NodeUnschedulable, TaintToleration, NodeAffinity: the filters that do not depend on other pods.
    #[cfg(test)]
    fn passes_static(&self, id: u32, n: usize) -> Result<(), String> {
        if self.nodes.get(n).is_none_or(|st| st.out) {
            return Err("node(s) were unschedulable".to_owned());
        }
        self.static_reason(id, n)
    }

    /// [`Placement::passes_static`], being out for the upgrade aside.
    fn static_reason(&self, id: u32, n: usize) -> Result<(), String> {
        let (Some(slot), Some(v)) = (self.slot(id), self.ctx.nodes.get(self.view(n))) else {
            return Err("node(s) were unschedulable".to_owned());
        };
        let spec = &slot.info.spec;
        let tolerates = |key: &str| tolerates_no_schedule(spec, key);
        if v.info.unschedulable && !tolerates("node.kubernetes.io/unschedulable") {
            return Err("node(s) were unschedulable".to_owned());
        }
        if let Some(t) = untolerated_taints(spec, v.info).first() {
            return Err(untolerated_message(t));
        }
        if !v.ready() {
            let key =
                if v.info.unreachable { "node.kubernetes.io/unreachable" } else { "node.kubernetes.io/not-ready" };
            if !tolerates(key) {
                return Err(format!("node(s) had untolerated taint {{{key}: }}"));
            }
        }
        let after = self.ctx.nodes_after();
        if !after.get(self.view(n)).is_some_and(|a| selector_matches(spec, a)) {
            return Err("node(s) didn't match Pod's node affinity/selector".to_owned());
        }
        Ok(())
    }

    /// NodePorts, NodeResourcesFit, the volumes, PodTopologySpread, InterPodAffinity.
    #[cfg(test)]
    fn passes_dynamic(&self, id: u32, n: usize, c: &Constraints<'a>) -> Result<(), Vec<String>> {
        let mut out = Vec::new();
        if self.dynamic(id, n, c, &mut |r| out.push(r.into_owned())) {
            Ok(())
        } else {
            Err(out)
        }
    }

    /// Does node `n` pass the filters that depend on the pods already placed? Each reason it fails on is
    /// handed to `reason` (NodeResourcesFit gives one per resource short; the others one).
    fn dynamic(&self, id: u32, n: usize, c: &Constraints<'a>, reason: &mut dyn FnMut(Cow<'static, str>)) -> bool {
        let (Some(slot), Some(v), Some(st)) = (self.slot(id), self.ctx.nodes.get(self.view(n)), self.nodes.get(n))
        else {
            return false;
        };
        let spec = &slot.info.spec;
        if let Some(needs) = &spec.needs {
            if needs.host_ports.iter().any(|hp| st.ports.iter().any(|p| ports_conflict(hp, p))) {
                return one(reason, "node(s) didn't have free ports for the requested pod ports");
            }
        }
        // NodeResourcesFit (fit.go, fitsRequest): the pod count, then each requested resource.
        let a = v.info.allocatable;
        let r = spec.requests;
        let mut short = false;
        let mut lack = |r: Cow<'static, str>| {
            short = true;
            reason(r);
        };
        if st.used.pods.saturating_add(1) > a.pods {
            lack(Cow::Borrowed("Too many pods"));
        }
        let over = |want: i64, alloc: i64, used: i64| want > 0 && alloc != UNKNOWN && want > alloc.saturating_sub(used);
        if over(r.cpu_millis, a.cpu_millis, st.used.cpu_millis) {
            lack(Cow::Borrowed("Insufficient cpu"));
        }
        if over(r.memory_bytes, a.memory_bytes, st.used.memory_bytes) {
            lack(Cow::Borrowed("Insufficient memory"));
        }
        if over(r.ephemeral_bytes, a.ephemeral_bytes, st.used.ephemeral_bytes) {
            lack(Cow::Borrowed("Insufficient ephemeral-storage"));
        }
        if let Some(needs) = &spec.needs {
            for (k, want) in &needs.extended {
                let alloc = amount(&v.info.allocatable_extended, k);
                if over(*want, alloc, amount(&st.used_extended, k)) {
                    lack(Cow::Owned(format!("Insufficient {k}")));
                }
            }
        }
        if short {
            return false;
        }
        if let Some(after) = self.ctx.nodes_after().get(self.view(n)) {
            for (pv, info) in &c.volumes {
                let (affinity_ok, zone_ok) = volume_reachable_parts(pv, info.affinity.as_deref(), after);
                if !affinity_ok {
                    return one(reason, "node(s) had volume node affinity conflict");
                }
                if !zone_ok {
                    return one(reason, "node(s) had no available volume zone");
                }
            }
            // PodTopologySpread.
            for s in &c.spread {
                let Some(value) = after.labels.get(s.key.as_str()) else {
                    return one(
                        reason,
                        "node(s) didn't match pod topology spread constraints (missing required label)",
                    );
                };
                let here = s.counts.get(value.as_str()).copied().unwrap_or(0);
                if here + i64::from(s.self_match) - s.min > s.max_skew {
                    return one(reason, "node(s) didn't match pod topology spread constraints");
                }
            }
            // InterPodAffinity (filtering.go, Filter): the pod's affinity (every term's topology key on the
            // node), its anti-affinity, then the existing pods' anti-affinity.
            for (key, values, free) in &c.affinity {
                let ok =
                    after.labels.get(key.as_str()).is_some_and(|x| *free || values.iter().any(|v| v == x.as_str()));
                if !ok {
                    return one(reason, "node(s) didn't match pod affinity rules");
                }
            }
            let in_domain = |set: &[(String, String)]| {
                set.iter().any(|(k, val)| after.labels.get(k.as_str()).is_some_and(|x| x.as_str() == val))
            };
            if in_domain(&c.anti) {
                return one(reason, "node(s) didn't match pod anti-affinity rules");
            }
            if in_domain(&c.existing_anti) {
                return one(reason, "node(s) didn't satisfy existing pods anti-affinity rules");
            }
        }
        true
    }

    /// May an existing pod's anti-affinity cover this pod (a pod of its namespace, or one with wide terms)?
    fn anti_covers(&self, pod: &Object) -> bool {
        self.anti.contains_key(pod.r.namespace.as_deref().unwrap_or("default")) || self.anti.contains_key("")
    }

    /// Does an affinity term cover a pod in namespace `ns` with these labels (the term's own pod in `own`)?
    fn term_covers(&self, term: &PodAffinityTerm, own: &str, ns: &str, labels: &StringMap) -> bool {
        let ns_ok = match &term.namespace_selector {
            Some(sel) if sel.is_empty() => true,
            Some(sel) => {
                term.namespaces.iter().any(|n| n == ns)
                    || self.ctx.lookup("Namespace", "", ns).is_some_and(|o| sel.matches(&o.labels))
            }
            None if term.namespaces.is_empty() => ns == own,
            None => term.namespaces.iter().any(|n| n == ns),
        };
        ns_ok && term.selector.matches(labels)
    }

    /// The pods a term can cover, by namespace (every namespace for a namespace selector).
    fn term_pods(&self, term: &PodAffinityTerm, own: &str) -> Vec<u32> {
        let all = term.namespace_selector.is_some();
        let mut ids: Vec<u32> = if all {
            self.by_namespace.values().flatten().copied().collect()
        } else if term.namespaces.is_empty() {
            self.by_namespace.get(own).cloned().unwrap_or_default()
        } else {
            term.namespaces.iter().filter_map(|n| self.by_namespace.get(n.as_str())).flatten().copied().collect()
        };
        crate::sort::sort(&mut ids);
        ids
    }

    fn node_label(&self, n: usize, key: &str) -> Option<String> {
        self.ctx.nodes_after().get(self.view(n))?.labels.get(key).map(|v| v.as_str().to_owned())
    }

    /// The domains a pod's spread, affinity and anti-affinity allow or forbid, counted once per placement.
    fn pod_constraints(&self, id: u32) -> Constraints<'a> {
        let mut c = Constraints::default();
        let Some(slot) = self.slot(id).copied() else { return c };
        c.volumes = self.ctx.pod_volumes(slot.obj, &slot.info.spec).into_iter().map(|(o, pv, _)| (o, pv)).collect();
        let ns = slot.obj.r.namespace.as_deref().unwrap_or("default");
        let labels = &slot.obj.labels;
        // Existing pods' required anti-affinity that covers this pod: their nodes' domains are closed.
        let ns_anti = self.anti.get(ns).map_or(&[][..], Vec::as_slice);
        let wide_anti = self.anti.get("").map_or(&[][..], Vec::as_slice);
        for other in ns_anti.iter().chain(wide_anti) {
            let Some(o) = self.slot(*other) else { continue };
            let (Some(n), Some(needs)) = (o.node, &o.info.spec.needs) else { continue };
            let own = o.obj.r.namespace.as_deref().unwrap_or("default");
            for term in &needs.anti_affinity {
                if self.term_covers(term, own, ns, labels) {
                    if let Some(v) = self.node_label(n, &term.topology_key) {
                        c.existing_anti.push((term.topology_key.clone(), v));
                    }
                }
            }
        }
        let Some(needs) = &slot.info.spec.needs else { return c };
        let placed = |ids: Vec<u32>| -> Vec<(u32, usize)> {
            ids.into_iter()
                .filter(|i| *i != id)
                .filter_map(|i| Some((i, self.slot(i)?.node?)))
                .filter(|(i, _)| self.slot(*i).is_some_and(|s| !s.info.terminating))
                .collect()
        };
        for term in &needs.anti_affinity {
            for (i, n) in placed(self.term_pods(term, ns)) {
                let Some(o) = self.slot(i) else { continue };
                let o_ns = o.obj.r.namespace.as_deref().unwrap_or("default");
                if self.term_covers(term, ns, o_ns, &o.obj.labels) {
                    if let Some(v) = self.node_label(n, &term.topology_key) {
                        c.anti.push((term.topology_key.clone(), v));
                    }
                }
            }
        }
        // Required affinity: the pods that match every term (one pod must satisfy them all,
        // satisfyPodAffinity), and the domains they are in, per term.
        if !needs.affinity.is_empty() {
            let mut candidates: Vec<u32> = needs.affinity.iter().flat_map(|t| self.term_pods(t, ns)).collect();
            crate::sort::sort(&mut candidates);
            candidates.dedup();
            let matching: Vec<(u32, usize)> = placed(candidates)
                .into_iter()
                .filter(|(i, _)| {
                    self.slot(*i).is_some_and(|o| {
                        let o_ns = o.obj.r.namespace.as_deref().unwrap_or("default");
                        needs.affinity.iter().all(|term| self.term_covers(term, ns, o_ns, &o.obj.labels))
                    })
                })
                .collect();
            // The first pod of a group that selects itself may go anywhere.
            let free = matching.is_empty() && needs.affinity.iter().all(|term| self.term_covers(term, ns, ns, labels));
            for term in &needs.affinity {
                let values: Vec<String> =
                    matching.iter().filter_map(|(_, n)| self.node_label(*n, &term.topology_key)).collect();
                c.affinity.push((term.topology_key.clone(), values, free));
            }
        }
        let after = self.ctx.nodes_after();
        for s in &needs.spread {
            let mut sel: LabelSelector = s.selector.clone();
            for k in &s.match_label_keys {
                if let Some(v) = labels.get(k.as_str()) {
                    sel.match_labels.insert(k.as_str(), v.clone());
                }
            }
            // A cordoned node, or one out for the upgrade, carries node.kubernetes.io/unschedulable:NoSchedule.
            let cordoned = |n: usize| {
                let off = self.nodes.get(n).is_some_and(|st| st.out)
                    || self.ctx.nodes.get(self.view(n)).is_some_and(|v| v.info.unschedulable);
                off && !tolerates_no_schedule(&slot.info.spec, "node.kubernetes.io/unschedulable")
            };
            // The nodes counted: those with every constraint's key, the pod's node affinity honoured unless
            // the policy ignores it, taints only when the policy honours them.
            let counted = |n: usize| {
                let (Some(a), Some(v)) = (after.get(self.view(n)), self.ctx.nodes.get(self.view(n))) else {
                    return false;
                };
                needs.spread.iter().all(|x| a.labels.contains_key(x.topology_key.as_str()))
                    && (s.ignore_node_affinity || selector_matches(&slot.info.spec, a))
                    && (!s.honor_taints || (untolerated_taints(&slot.info.spec, v.info).is_empty() && !cordoned(n)))
            };
            let mut counts: BTreeMap<String, i64> = BTreeMap::new();
            for n in (0..self.nodes.len()).filter(|n| counted(*n)) {
                if let Some(v) = self.node_label(n, &s.topology_key) {
                    counts.entry(v).or_default();
                }
            }
            for i in self.by_namespace.get(ns).map_or(&[][..], Vec::as_slice) {
                let Some(o) = self.slot(*i) else { continue };
                let Some(n) = o.node else { continue };
                if *i == id || o.info.terminating || !counted(n) || !sel.matches(&o.obj.labels) {
                    continue;
                }
                if let Some(v) = self.node_label(n, &s.topology_key) {
                    *counts.entry(v).or_default() += 1;
                }
            }
            let mut min = counts.values().copied().min().unwrap_or(0);
            if s.min_domains.is_some_and(|m| (counts.len() as i64) < m) {
                min = 0;
            }
            c.spread.push(SpreadCount {
                key: s.topology_key.clone(),
                counts,
                min,
                max_skew: s.max_skew,
                self_match: sel.matches(labels),
            });
        }
        c
    }
}

/// A pod's pod-level constraints, resolved against where the other pods are at the moment, and the volumes
/// its claims are bound to.
#[derive(Default)]
struct Constraints<'a> {
    volumes: Vec<(&'a Object, &'a crate::model::PvInfo)>,
    /// (topology key, value) domains where an existing pod's anti-affinity forbids this pod.
    existing_anti: Vec<(String, String)>,
    /// Domains where the pod's own anti-affinity finds a matching pod.
    anti: Vec<(String, String)>,
    /// Per required affinity term: its key, the values with a matching pod, and whether it is free (no
    /// matching pod anywhere, the pod matching itself).
    affinity: Vec<(String, Vec<String>, bool)>,
    spread: Vec<SpreadCount>,
}

struct SpreadCount {
    key: String,
    counts: BTreeMap<String, i64>,
    min: i64,
    max_skew: i64,
    self_match: bool,
}

/// The Pending pods of a replay, oldest first, asked again as nodes come back ([`Queue::retry`]).
///
/// Most of them fit nowhere for their candidate set and requests alone (a drain of a full cluster leaves
/// tens of thousands so at 150,000 pods): those wait in one line per set and requests, and a line is asked
/// again only when a node of its set that gained room since it last fitted nowhere has room for its
/// requests. Each node back used to ask every Pending pod again (cheaply, but the pods times the nodes).
/// The order is the same as asking each pod in turn, oldest first: a merge of the lines and the other
/// pods by age, and a line that fits nowhere stops (room only shrinks while pods are placed, so the rest
/// of the line fits nowhere either).
#[derive(Debug, Default)]
pub struct Queue {
    /// The next pod's age (its place in the order).
    next: u64,
    /// The pods asked again one by one: refused ones, those with pod-level constraints, ports, volumes or
    /// extended resources, and those not yet tried.
    others: Vec<(u64, Waiting)>,
    /// One line per candidate set and requests, sorted by them.
    lines: Vec<Line>,
}

#[derive(Debug)]
struct Line {
    set: u32,
    requests: Resources,
    /// The moment ([`Placement::grown`]) by which a pod of this set asking this much last fitted nowhere.
    at: usize,
    /// Its pods (age, position in the model), oldest first, from `start` on (those before it are gone).
    pods: Vec<(u64, u32)>,
    start: usize,
}

impl Line {
    fn key(&self) -> (u32, [i64; 4]) {
        line_key(self.set, &self.requests)
    }

    fn waiting(&self) -> &[(u64, u32)] {
        self.pods.get(self.start..).unwrap_or_default()
    }
}

fn line_key(set: u32, r: &Resources) -> (u32, [i64; 4]) {
    (set, [r.cpu_millis, r.memory_bytes, r.ephemeral_bytes, r.pods])
}

/// Where a pod asked in a pass of [`Queue::retry`] comes from.
const OTHERS: usize = usize::MAX;

/// A line asked in a pass of [`Queue::retry`]: the pods asked and held back by `refused` (kept, in order),
/// and where asking stopped (the pod that fitted nowhere, or the line's end).
struct Asked {
    line: usize,
    kept: Vec<(u64, u32)>,
    end: usize,
}

impl Queue {
    /// A pod that was refused or fitted nowhere ([`Placement::wait`]), the youngest.
    pub fn push(&mut self, w: Waiting) {
        let age = self.next;
        self.next += 1;
        self.insert(age, w);
    }

    fn insert(&mut self, age: u64, w: Waiting) {
        let Some(Nowhere { at, set, plain: Some(r) }) = w.nowhere else {
            let i = self.others.partition_point(|(a, _)| *a < age);
            self.others.insert(i, (age, w));
            return;
        };
        let key = line_key(set, &r);
        let k = match self.lines.binary_search_by_key(&key, Line::key) {
            Ok(k) => k,
            Err(k) => {
                self.lines.insert(k, Line { set, requests: r, at, pods: Vec::new(), start: 0 });
                k
            }
        };
        let Some(line) = self.lines.get_mut(k) else { return };
        // It fitted nowhere at `at`: so did any pod of the line (the same set and requests).
        line.at = line.at.max(at);
        let i = line.start + line.waiting().partition_point(|(a, _)| *a < age);
        line.pods.insert(i, (age, w.id));
    }

    /// The pods waiting (positions in the model), oldest first.
    #[cfg(test)]
    fn ids(&self) -> Vec<u32> {
        let mut all: Vec<(u64, u32)> = self.others.iter().map(|(a, w)| (*a, w.id)).collect();
        for l in &self.lines {
            all.extend_from_slice(l.waiting());
        }
        crate::sort::sort(&mut all);
        all.into_iter().map(|(_, id)| id).collect()
    }

    /// Ask again, oldest first, of every pod waiting that `refused` does not hold back and that may fit
    /// now ([`Placement::place_again`]); `placed` hears of each pod placed, which leaves the queue. The same
    /// pods land on the same nodes as a pass asking each pod in turn.
    pub fn retry(
        &mut self,
        sim: &mut Placement<'_, '_>,
        refused: impl Fn(&Placement<'_, '_>, u32) -> bool,
        mut placed: impl FnMut(u32),
    ) {
        let now = sim.grown.len();
        // The next pod of each source (age, line or OTHERS, position), the oldest last: a list kept sorted
        // rather than a heap (one line per shape of pod, few at a time; less code in the wasm). A line
        // joins it when a node that gained room since it last fitted nowhere has room for it; the other
        // lines fit nowhere still.
        let mut heads: Vec<(u64, usize, usize)> = Vec::new();
        let queue = |heads: &mut Vec<(u64, usize, usize)>, head: (u64, usize, usize)| {
            let i = heads.partition_point(|h| h.0 > head.0);
            heads.insert(i, head);
        };
        for (k, line) in self.lines.iter_mut().enumerate() {
            match line.waiting().first() {
                Some((age, _)) if sim.may_have_room(line.set, &line.requests, line.at) => {
                    queue(&mut heads, (*age, k, line.start));
                }
                _ => line.at = now,
            }
        }
        if let Some((age, _)) = self.others.first() {
            queue(&mut heads, (*age, OTHERS, 0));
        }
        let mut others: Vec<(u64, Waiting)> = Vec::with_capacity(self.others.len());
        let mut to_lines: Vec<(u64, Waiting)> = Vec::new();
        let mut asked: Vec<Asked> = Vec::new();
        while let Some((age, from, i)) = heads.pop() {
            if from == OTHERS {
                let Some(&(_, mut w)) = self.others.get(i) else { continue };
                if let Some((next, _)) = self.others.get(i + 1) {
                    queue(&mut heads, (*next, OTHERS, i + 1));
                }
                if refused(sim, w.id) {
                    others.push((age, w));
                } else if sim.place_again(&mut w).is_some() {
                    placed(w.id);
                } else if w.nowhere.is_some_and(|n| n.plain.is_some()) {
                    to_lines.push((age, w));
                } else {
                    others.push((age, w));
                }
                continue;
            }
            let Some(line) = self.lines.get(from) else { continue };
            let Some(&(_, id)) = line.pods.get(i) else { continue };
            let slot = match asked.iter().position(|a| a.line == from) {
                Some(s) => s,
                None => {
                    asked.push(Asked { line: from, kept: Vec::new(), end: line.start });
                    asked.len() - 1
                }
            };
            let Some(Asked { kept, end, .. }) = asked.get_mut(slot) else { continue };
            *end = i + 1;
            let mut w =
                Waiting { id, nowhere: Some(Nowhere { at: line.at, set: line.set, plain: Some(line.requests) }) };
            let fits = if refused(sim, id) {
                kept.push((age, id));
                true
            } else if sim.place_again(&mut w).is_some() {
                placed(id);
                true
            } else {
                // It fits nowhere, and neither does the rest of its line.
                *end = i;
                false
            };
            if let (true, Some((next, _))) = (fits, line.pods.get(i + 1)) {
                queue(&mut heads, (*next, from, i + 1));
            }
        }
        self.others = others;
        for Asked { line: k, kept, end } in asked {
            let Some(line) = self.lines.get_mut(k) else { continue };
            // Asking stopped at a pod that fitted nowhere: so does the line now. At the line's end (every
            // pod placed or held back), it keeps its moment.
            if end < line.pods.len() {
                line.at = now;
            }
            // The pods asked and kept go back before `end`, in order; those placed are gone.
            let Some(first) = end.checked_sub(kept.len()) else { continue };
            for (slot, pod) in line.pods.iter_mut().skip(first).zip(kept) {
                *slot = pod;
            }
            line.start = first;
            if line.start * 2 > line.pods.len() {
                line.pods.drain(..line.start);
                line.start = 0;
            }
        }
        for (age, w) in to_lines {
            self.insert(age, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;
    use crate::options::UpgradeOptions;
    use crate::parse::parse_json;
    use crate::version::Version;

    /// A small deterministic generator (no dependency): xorshift.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n.max(1)
        }
    }

    fn object(json: &str) -> Object {
        let d = parse_json("t", json).unwrap();
        Object::from_node(&d, Source { file: "t".into(), line: None, via: None })
    }

    /// A random cluster: nodes of several sizes, zones, a tainted GPU node or two, cordoned and not-Ready
    /// ones; pods with requests, selectors, tolerations, host ports, anti-affinity and spread.
    fn cluster(r: &mut Rng) -> Vec<Object> {
        let mut out = Vec::new();
        let nodes = 2 + r.below(7) as usize;
        for i in 0..nodes {
            let zone = ["a", "b", "c"][r.below(3) as usize];
            let gpu = r.below(5) == 0;
            let taints = if gpu { r#"[{"key":"gpu","value":"true","effect":"NoSchedule"}]"# } else { "[]" };
            let ready = if r.below(10) == 0 { "False" } else { "True" };
            let cordoned = r.below(10) == 0;
            let (cpu, memory) = (500 + r.below(4000), 256 + r.below(8192));
            // Now and then a status that gives no CPU or no memory figure (never short of it).
            let amounts = match r.below(12) {
                0 => format!(r#""memory":"{memory}Mi""#),
                1 => format!(r#""cpu":"{cpu}m""#),
                _ => format!(r#""cpu":"{cpu}m","memory":"{memory}Mi""#),
            };
            out.push(object(&format!(
                r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n{i}","labels":{{"kubernetes.io/hostname":"n{i}","topology.kubernetes.io/zone":"{zone}"}}}},
                "spec":{{"taints":{taints},"unschedulable":{cordoned}}},
                "status":{{"conditions":[{{"type":"Ready","status":"{ready}"}}],"allocatable":{{{amounts},"pods":"{}","nvidia.com/gpu":"{}"}}}}}}"#,
                1 + r.below(8),
                if gpu { 2 } else { 0 }
            )));
        }
        let pods = r.below(40) as usize;
        for p in 0..pods {
            let node = r.below(nodes as u64);
            let app = ["web", "db", "cache"][r.below(3) as usize];
            let selector = if r.below(4) == 0 {
                format!(
                    r#""nodeSelector":{{"topology.kubernetes.io/zone":"{}"}},"#,
                    ["a", "b", "c"][r.below(3) as usize]
                )
            } else {
                String::new()
            };
            let tolerations =
                if r.below(3) == 0 { r#""tolerations":[{"key":"gpu","operator":"Exists"}],"# } else { "" };
            let ports = if r.below(3) == 0 {
                format!(r#","ports":[{{"containerPort":80,"hostPort":{}}}]"#, 8000 + r.below(2))
            } else {
                String::new()
            };
            let gpu = if r.below(6) == 0 { r#","nvidia.com/gpu":"1""# } else { "" };
            let affinity = match r.below(6) {
                0 => format!(
                    r#""affinity":{{"podAntiAffinity":{{"requiredDuringSchedulingIgnoredDuringExecution":[{{"labelSelector":{{"matchLabels":{{"app":"{app}"}}}},"topologyKey":"kubernetes.io/hostname"}}]}}}},"#
                ),
                1 => format!(
                    r#""topologySpreadConstraints":[{{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{{"matchLabels":{{"app":"{app}"}}}}}}],"#
                ),
                _ => String::new(),
            };
            out.push(object(&format!(
                r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p{p}","namespace":"ns","labels":{{"app":"{app}"}},"ownerReferences":[{{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs-{app}","controller":true}}]}},
                "spec":{{"nodeName":"n{node}",{selector}{tolerations}{affinity}"containers":[{{"name":"c","resources":{{"requests":{{"cpu":"{}m","memory":"{}Mi"{gpu}}}}}{ports}}}]}},
                "status":{{"phase":"Running","conditions":[{{"type":"Ready","status":"True"}}]}}}}"#,
                // Coarse requests, so that pods of one shape (placement and requests) meet.
                r.below(6) * 250,
                r.below(8) * 256
            )));
        }
        out
    }

    /// Over random clusters and random moments (nodes out and back, surges, drains), a retry of the
    /// Pending pods with [`Placement::place_again`] (which does not ask again of a pod nothing changed for),
    /// and one through a [`Queue`] (which does not ask again of a line of pods that fits nowhere), put every
    /// pod where asking each one again would, some pods held back at each retry as a webhook refuses them.
    #[test]
    fn a_retry_places_as_asking_every_pod_again_would() {
        let options = UpgradeOptions::new("1.29.2");
        for seed in 1..=600u64 {
            let mut r = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
            let objects = cluster(&mut r);
            let c = Cluster::new(&objects, &options, Version::parse("1.29.2").unwrap(), None, Vec::new());
            let (mut short, mut long, mut lined) = (Placement::new(&c), Placement::new(&c), Placement::new(&c));
            let n = c.nodes.len();
            let (mut waiting_short, mut waiting_long): (Vec<Waiting>, Vec<Waiting>) = (Vec::new(), Vec::new());
            let mut queue = Queue::default();
            for step in 0..30u64 {
                let node = r.below(n as u64) as usize;
                // A third of the seeds refuse some pods at each retry (one in five, a different fifth each time).
                let refusing = seed % 3 == 0;
                let refused = |id: u32| refusing && (u64::from(id) + step) % 5 == 0;
                match r.below(8) {
                    0..=2 => {
                        short.set_out(node, false);
                        long.set_out(node, false);
                        lined.set_out(node, false);
                        waiting_short.retain_mut(|w| refused(w.id) || short.place_again(w).is_none());
                        waiting_long.retain(|w| refused(w.id) || long.place_explained(w.id, false).is_err());
                        queue.retry(&mut lined, |_, id| refused(id), |_| {});
                    }
                    3 => {
                        short.add_surge(node);
                        long.add_surge(node);
                        lined.add_surge(node);
                    }
                    _ => {
                        for (p, waiting) in [(&mut short, &mut waiting_short), (&mut long, &mut waiting_long)] {
                            p.set_out(node, true);
                            for id in p.evict(node, |_| false) {
                                if p.place(id).is_err() {
                                    waiting.push(p.wait(id));
                                }
                            }
                        }
                        lined.set_out(node, true);
                        for id in lined.evict(node, |_| false) {
                            if lined.place(id).is_err() {
                                queue.push(lined.wait(id));
                            }
                        }
                    }
                }
                let at = |p: &Placement<'_, '_>| p.pods.iter().map(|s| s.node).collect::<Vec<_>>();
                assert_eq!(at(&short), at(&long), "seed {seed}, step {step}: the retries placed differently");
                for p in [&short, &long, &lined] {
                    assert_eq!(p.free_now(), free_summed(p), "seed {seed}, step {step}: the free sums");
                }
                assert_eq!(at(&lined), at(&long), "seed {seed}, step {step}: the queue placed differently");
                let ids = |w: &[Waiting]| w.iter().map(|w| w.id).collect::<Vec<_>>();
                assert_eq!(ids(&waiting_short), ids(&waiting_long), "seed {seed}, step {step}");
                assert_eq!(queue.ids(), ids(&waiting_long), "seed {seed}, step {step}: the queue's order");
            }
        }
    }

    /// [`Placement::free_now`] as a pass over the nodes sums it (as it was before the sums were kept).
    fn free_summed(p: &Placement<'_, '_>) -> (i64, i64) {
        let mut free = (0i64, 0i64);
        for (n, st) in p.nodes.iter().enumerate() {
            let v = &p.ctx.nodes[p.view(n)];
            if st.out || !v.ready() || v.info.unschedulable || !v.is_worker() || v.is_control_plane() {
                continue;
            }
            let a = v.info.allocatable;
            if a.cpu_millis != UNKNOWN {
                free.0 = free.0.saturating_add(a.cpu_millis.saturating_sub(st.used.cpu_millis).max(0));
            }
            if a.memory_bytes != UNKNOWN {
                free.1 = free.1.saturating_add(a.memory_bytes.saturating_sub(st.used.memory_bytes).max(0));
            }
        }
        free
    }

    /// Over random clusters and random moments (nodes out and back, drains): a pod is never placed on a node
    /// that is out or that a filter rejects, and what a placement adds never takes a node past its
    /// allocatable (for the resources the pod requests, and its pod count).
    #[test]
    fn no_placement_breaks_a_filter_or_a_node_s_allocatable() {
        let options = UpgradeOptions::new("1.29.2");
        for seed in 1..=600u64 {
            let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let objects = cluster(&mut r);
            let c = Cluster::new(&objects, &options, Version::parse("1.29.2").unwrap(), None, Vec::new());
            let mut p = Placement::new(&c);
            let n = c.nodes.len();
            let mut waiting: Vec<u32> = Vec::new();
            for _ in 0..20 {
                let node = r.below(n as u64) as usize;
                match r.below(3) {
                    0 => {
                        p.set_out(node, false);
                        waiting.retain(|id| p.place(*id).is_err());
                    }
                    1 => p.set_out(node, true),
                    _ => {
                        p.set_out(node, true);
                        for id in p.evict(node, |_| false) {
                            match p.place(id) {
                                Ok(to) => {
                                    assert!(!p.nodes[to].out, "seed {seed}: placed on {to}, which is out");
                                    // Every filter accepts the node, judged without the pod on it.
                                    p.take(id);
                                    let cons = p.pod_constraints(id);
                                    // The nodes weighed are those of a walk over the whole set.
                                    let set = p.set_of(id).unwrap();
                                    let walked: Vec<usize> = p.sets[set]
                                        .order
                                        .iter()
                                        .map(|(_, m)| *m)
                                        .filter(|m| p.dynamic(id, *m, &cons, &mut |_| {}))
                                        .take(SPREAD_CANDIDATES)
                                        .collect();
                                    assert_eq!(p.passing(id, set, &cons, SPREAD_CANDIDATES), walked, "seed {seed}");
                                    assert!(walked.contains(&to), "seed {seed}");
                                    assert!(p.passes_static(id, to).is_ok(), "seed {seed}: a filter rejects {to}");
                                    assert!(
                                        p.passes_dynamic(id, to, &cons).is_ok(),
                                        "seed {seed}: a filter rejects {to}"
                                    );
                                    p.put(id, to);
                                    let (slot, st, v) = (p.pods[id as usize], &p.nodes[to], &c.nodes[p.view(to)]);
                                    let a = v.info.allocatable;
                                    let q = slot.info.spec.requests;
                                    assert!(st.used.pods <= a.pods, "seed {seed}: pods past allocatable");
                                    assert!(
                                        q.cpu_millis == 0 || st.used.cpu_millis <= a.cpu_millis,
                                        "seed {seed}: cpu"
                                    );
                                    assert!(
                                        q.memory_bytes == 0 || st.used.memory_bytes <= a.memory_bytes,
                                        "seed {seed}: memory"
                                    );
                                }
                                Err(why) => {
                                    // The reasons counted from the tally are those of a pass over the nodes.
                                    let set = p.set_of(id).unwrap();
                                    let cons = p.pod_constraints(id);
                                    assert_eq!(*why, p.why(id, set, &cons, false), "seed {seed}: pod {id}");
                                    assert!(why
                                        .message()
                                        .starts_with(&format!("0/{} nodes are available: ", p.nodes.len())));
                                    // Every node gives a reason (NodeResourcesFit one per resource short).
                                    assert!(
                                        why.reasons.iter().map(|(_, c)| c).sum::<usize>() >= p.nodes.len(),
                                        "seed {seed}: {}",
                                        why.message()
                                    );
                                    // And no node passes every filter.
                                    let cons = p.pod_constraints(id);
                                    for m in 0..p.nodes.len() {
                                        let fits =
                                            p.passes_static(id, m).is_ok() && p.passes_dynamic(id, m, &cons).is_ok();
                                        assert!(
                                            !fits,
                                            "seed {seed}: pod {id} Pending, yet node {m} passes every filter"
                                        );
                                    }
                                    waiting.push(id);
                                }
                            }
                        }
                    }
                }
                assert_eq!(p.free_now(), free_summed(&p), "seed {seed}: the free sums");
                let outs: Vec<usize> = (0..n).filter(|m| p.is_out(*m)).collect();
                assert_eq!(p.nodes_out(), outs, "seed {seed}: the nodes out");
            }
        }
    }
}
