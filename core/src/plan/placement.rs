//! The plan's windows replayed through the placement model ([`crate::cluster::placement`]): nodes go out
//! and come back as the plan says, each drain evicts the pods on its node at that moment (those that
//! landed there earlier included), every evicted pod is placed as the scheduler would place it, and pods
//! that fit nowhere stay Pending until a node comes back. A pod whose re-creation a fail-closed admission
//! webhook covers while none of the webhook's backends runs ([`crate::cluster::admission`]) is refused
//! instead, until a backend runs again: a webhook whose only backends are refused with it never comes
//! back. The capacity rule, the admission rules and the downtime read the result, so the report tells one
//! story.

use std::rc::Rc;

use super::{NodeWindow, Timings};
use crate::cluster::admission::Covers;
use crate::cluster::drain::DrainEnd;
use crate::cluster::placement::{Placement, Queue, Unschedulable};
use crate::cluster::Cluster;
use crate::model::Object;
use crate::parse::FastMap;

/// Pods a drain left Pending: which window, when, which nodes were out, and why each pod fits nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The drained node's window (a position in `Outcome::windows`).
    pub window: usize,
    /// When its pods were evicted.
    pub at: u64,
    /// The nodes out at that moment (positions in `Cluster::nodes`), the drained one included.
    pub nodes_out: Vec<usize>,
    /// `namespace/name` and why, for each pod left Pending that some other node could take were it up or
    /// emptier (a pod no other node fits at all is `scheduling/no-eligible-node`'s).
    pub pods: Vec<(String, Rc<Unschedulable>)>,
    /// What those pods request (CPU millicores, memory bytes), and what the nodes up at that moment have
    /// free in all ([`Placement::free_now`]).
    pub needed: (i64, i64),
    pub free: (i64, i64),
}

/// One eviction of a pod: from which node, when, and when it was placed again (`None`: never, within
/// the plan).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    pub from: usize,
    pub evicted: u64,
    pub placed: Option<u64>,
    /// The webhook or policy (a position for `Cluster::pod_gate`) that refused its re-creation, if one did.
    pub refused: Option<usize>,
}

/// A pod's re-creation that a fail-closed webhook refused, because none of its backends ran then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The webhook or policy binding (a position for `Cluster::pod_gate`: the webhooks, then the
    /// policies).
    pub webhook: usize,
    /// The drain that evicted the pod (a position in `Outcome::windows`), and when.
    pub window: usize,
    pub at: u64,
    /// `namespace/name` of the pod whose replacement is refused.
    pub pod: String,
    /// When a backend ran again and the pod was created (for `may`: when a backend ran again); `None`:
    /// never, within the plan.
    pub until: Option<u64>,
    /// The pod is one of the webhook's own backends.
    pub own: bool,
    /// The webhook may leave the pod alone (its `matchConditions`, a Namespace that was not read): said
    /// as "may", and the pod is placed as if it were not refused.
    pub may: bool,
}

/// What the replay found.
#[derive(Debug, Clone, Default)]
pub struct Placed {
    pub pending: Vec<Pending>,
    /// Re-creations refused by admission webhooks for longer than the moment of their eviction, in the
    /// order they happened.
    pub refused: Vec<Refusal>,
    /// Every eviction, grouped by pod (a position in the model), each pod's in the order they happened.
    moves: Vec<(u32, Move)>,
    /// Per pod evicted, its object's address (the objects outlive the report's making) and where its
    /// evictions are in `moves` (start, count), by address. A map of a vector per pod took 40 MB at
    /// 150,000 pods; this, about 10.
    move_index: Vec<(usize, u32, u32)>,
}

impl Placed {
    /// The evictions of a pod, in order.
    pub fn moves_of(&self, pod: &Object) -> impl Iterator<Item = &Move> + '_ {
        let at = pod as *const Object as usize;
        let range = match self.move_index.binary_search_by_key(&at, |(a, _, _)| *a) {
            Ok(i) => self.move_index.get(i).map_or(0..0, |(_, start, n)| *start as usize..(start + n) as usize),
            Err(_) => 0..0,
        };
        self.moves.get(range).unwrap_or_default().iter().map(|(_, m)| m)
    }
}

/// The replay's evictions as they happen, and each pod's last (its placement is recorded on it).
struct MoveLog {
    log: Vec<(u32, Move)>,
    /// Per pod (a position in the model), its last eviction's position in `log` (`u32::MAX`: none).
    last: Vec<u32>,
}

impl MoveLog {
    fn new(pods: usize) -> Self {
        MoveLog { log: Vec::new(), last: vec![u32::MAX; pods] }
    }

    fn push(&mut self, id: u32, m: Move) {
        if let (Some(last), Ok(i)) = (self.last.get_mut(id as usize), u32::try_from(self.log.len())) {
            *last = i;
            self.log.push((id, m));
        }
    }

    fn last_mut(&mut self, id: u32) -> Option<&mut Move> {
        let i = *self.last.get(id as usize)?;
        self.log.get_mut(i as usize).map(|(_, m)| m)
    }

    /// The log grouped by pod (each pod's evictions kept in order), and the index by object address.
    fn into_placed(self, sim: &Placement<'_, '_>, placed: &mut Placed) {
        let mut log = self.log;
        crate::sort::sort_by_key(&mut log, |(id, _)| *id);
        log.shrink_to_fit();
        let mut index: Vec<(usize, u32, u32)> = Vec::new();
        let mut start = 0usize;
        while let Some((id, _)) = log.get(start) {
            let n = log.get(start..).unwrap_or_default().iter().take_while(|(other, _)| other == id).count();
            if let (Some(slot), Ok(s), Ok(k)) = (sim.pods.get(*id as usize), u32::try_from(start), u32::try_from(n)) {
                index.push((slot.obj as *const Object as usize, s, k));
            }
            start += n.max(1);
        }
        crate::sort::sort_by_key(&mut index, |(at, _, _)| *at);
        placed.moves = log;
        placed.move_index = index;
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// A node is back (first at one moment: its room serves the evictions of the same second).
    Back(usize),
    /// A surge node like this one joins (kOps `maxSurge`, at the start of its instance group).
    Surge(usize),
    Out(usize),
    /// A drain evicts its node's pods (a window's position).
    Evict(usize),
}

/// Replay the windows, with the plan's phases (where kOps surges its groups). A drain that never completes
/// leaves the pods a budget holds back (`Cluster::pdb_blocked_pods`) on its node.
pub fn replay(ctx: &Cluster<'_>, windows: &[NodeWindow], phases: &[crate::report::Phase], t: &Timings) -> Placed {
    let mut placed = Placed::default();
    if windows.iter().all(|w| !w.drained) {
        return placed;
    }
    let held = ctx.pdb_blocked_pods();
    let mut events: Vec<(u64, Event)> = Vec::new();
    for (k, w) in windows.iter().enumerate() {
        events.push((w.start, Event::Out(w.node)));
        if w.drained && w.stuck != Some(DrainEnd::FailsAtOnce) {
            let at = if w.stuck.is_some() { w.start + t.cordon } else { w.start + w.blocked_until.unwrap_or(t.cordon) };
            events.push((at, Event::Evict(k)));
        }
        if w.stuck.is_none() {
            events.push((w.end, Event::Back(w.node)));
        }
    }
    // kOps surges new instances of a group before draining its old ones (`maxSurge`): they stay.
    if ctx.profile() == crate::options::Profile::Kops {
        let pools = crate::budget::pools(ctx);
        for ph in phases {
            let Some(pool) = ph.pool.as_ref().and_then(|name| pools.iter().find(|p| p.name == *name)) else { continue };
            let Some(template) = pool.nodes.first().copied() else { continue };
            let surge = crate::budget::limit(ctx, pool).max_surge as usize;
            for _ in 0..surge.min(pool.nodes.len()) {
                events.push((ph.start_seconds, Event::Surge(template)));
            }
        }
    }
    crate::sort::sort(&mut events);
    let mut sim = Placement::new(ctx);
    let mut hooks = Hooks::new(ctx, &sim);
    // Pods Pending, oldest first.
    let mut waiting = Queue::default();
    let mut moves = MoveLog::new(sim.pods.len());
    for (at, e) in events {
        match e {
            Event::Out(n) => sim.set_out(n, true),
            Event::Surge(template) => sim.add_surge(template),
            Event::Back(n) => {
                sim.set_out(n, false);
                retry(&mut sim, &hooks, &mut waiting, &mut moves, at);
                hooks.close(&sim, at);
            }
            Event::Evict(k) => {
                let Some(w) = windows.get(k) else { continue };
                let stuck = w.stuck.is_some();
                let evicted = sim.evict(w.node, |o| {
                    stuck
                        && held
                            .binary_search(&(o.r.namespace.as_deref().unwrap_or("default"), o.r.name.as_str()))
                            .is_ok()
                });
                let mut left = Vec::new();
                let mut needed = (0i64, 0i64);
                let was_up = hooks.up_now(&sim);
                for id in evicted {
                    // A pod already being deleted goes with its node's drain; its controller has replaced it.
                    if sim.pods.get(id as usize).is_some_and(|s| s.info.terminating) {
                        continue;
                    }
                    if let Some(hook) = hooks.refuse(ctx, &sim, id, k, at) {
                        moves.push(id, Move { from: w.node, evicted: at, placed: None, refused: Some(hook) });
                        waiting.push(sim.wait(id));
                        continue;
                    }
                    let result = sim.place(id);
                    moves.push(
                        id,
                        Move { from: w.node, evicted: at, placed: result.is_ok().then_some(at), refused: None },
                    );
                    if let Err(why) = result {
                        waiting.push(sim.wait(id));
                        if let Some(slot) = sim.pods.get(id as usize) {
                            let spec = &slot.info.spec;
                            let fit = ctx.pod_eligible(slot.obj, spec, &ctx.eligible_nodes(spec));
                            if fit.iter().any(|n| Some(*n) != slot.home) {
                                let ns = slot.obj.r.namespace.as_deref().unwrap_or("default");
                                left.push((format!("{ns}/{}", slot.obj.r.name), why));
                                let r = spec.requests;
                                needed =
                                    (needed.0.saturating_add(r.cpu_millis), needed.1.saturating_add(r.memory_bytes));
                            }
                        }
                    }
                }
                // A backend placed again lets the pods refused meanwhile be created.
                if hooks.up_now(&sim) != was_up {
                    retry(&mut sim, &hooks, &mut waiting, &mut moves, at);
                }
                hooks.close(&sim, at);
                if !left.is_empty() {
                    crate::sort::sort_by(&mut left, |a, b| a.0.cmp(&b.0));
                    let nodes_out = sim.nodes_out();
                    let free = sim.free_now();
                    placed.pending.push(Pending { window: k, at, nodes_out, pods: left, needed, free });
                }
            }
        }
    }
    moves.into_placed(&sim, &mut placed);
    // A refusal that ended the moment it began (a backend evicted with the pod and placed again at once)
    // refused nothing that a controller's retry does not create.
    placed.refused = hooks.refusals.into_iter().map(|(_, r)| r).filter(|r| r.until != Some(r.at)).collect();
    placed
}

/// Place the pods waiting (oldest first) that no webhook refuses now, until nothing changes: a webhook's
/// backend placed lets the pods it refused be created at the same moment.
fn retry(sim: &mut Placement<'_, '_>, hooks: &Hooks, waiting: &mut Queue, moves: &mut MoveLog, at: u64) {
    loop {
        let before = hooks.up_now(sim);
        waiting.retry(
            sim,
            |sim, id| hooks.refuses_now(sim, id),
            |id| {
                if let Some(m) = moves.last_mut(id) {
                    m.placed = Some(at);
                }
            },
        );
        if hooks.up_now(sim) == before {
            break;
        }
    }
}

/// The fail-closed webhooks that cover pod creation, their backends as positions in the model, and the
/// refusals so far.
struct Hooks {
    /// Per webhook: its backend pods (positions in the model), the nodes of backends whose pod was not
    /// read, and whether some backend runs where the plan never goes.
    served: Vec<(Vec<u32>, Vec<usize>, bool)>,
    /// Per pod (position in the model), the webhooks covering its creation, made on first use.
    covering: FastMap<u32, Vec<(usize, Covers)>>,
    /// Each refusal, with the position of the pod it refused.
    refusals: Vec<(u32, Refusal)>,
    /// Pods a webhook may refuse, while that lasts: placed, yet not serving a webhook when asking whether
    /// one that may refuse has a backend (so a webhook that may refuse its own backends may never come back).
    maybe_gone: std::collections::BTreeSet<u32>,
}

impl Hooks {
    fn new(ctx: &Cluster<'_>, sim: &Placement<'_, '_>) -> Hooks {
        let ids: FastMap<usize, u32> = sim
            .pods
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((s.obj as *const Object as usize, u32::try_from(i).ok()?)))
            .collect();
        let mut served: Vec<(Vec<u32>, Vec<usize>, bool)> = ctx
            .pod_webhooks()
            .iter()
            .map(|h| {
                let pods: Vec<u32> =
                    h.backends.pods.iter().filter_map(|o| ids.get(&(*o as *const Object as usize)).copied()).collect();
                let nodes: Vec<usize> = h.backends.nodes.iter().filter_map(|n| ctx.node_index(n)).collect();
                // A ready endpoint whose pod is not running in the model, or whose node was not read, is
                // somewhere the plan does not touch.
                let elsewhere = h.backends.elsewhere > 0
                    || pods.len() < h.backends.pods.len()
                    || nodes.len() < h.backends.nodes.len();
                (pods, nodes, elsewhere)
            })
            .collect();
        // A failing policy binding has no backend to come back: it refuses for good.
        served.extend(ctx.pod_policies().iter().map(|_| (Vec::new(), Vec::new(), false)));
        Hooks { served, covering: FastMap::default(), refusals: Vec::new(), maybe_gone: Default::default() }
    }

    /// Does webhook `k` have a backend running now? `doubt`: not counting the pods a webhook may refuse.
    fn up(&self, sim: &Placement<'_, '_>, k: usize, doubt: bool) -> bool {
        self.served.get(k).is_some_and(|(pods, nodes, elsewhere)| {
            *elsewhere
                || pods.iter().any(|id| {
                    sim.pods.get(*id as usize).is_some_and(|s| s.node.is_some())
                        && !(doubt && self.maybe_gone.contains(id))
                })
                || nodes.iter().any(|n| !sim.is_out(*n))
        })
    }

    fn up_now(&self, sim: &Placement<'_, '_>) -> Vec<bool> {
        (0..self.served.len()).map(|k| self.up(sim, k, false)).collect()
    }

    fn covering(&mut self, ctx: &Cluster<'_>, sim: &Placement<'_, '_>, id: u32) -> Vec<(usize, Covers)> {
        if self.served.is_empty() {
            return Vec::new();
        }
        self.covering
            .entry(id)
            .or_insert_with(|| {
                let Some(slot) = sim.pods.get(id as usize) else { return Vec::new() };
                let ns = slot.obj.r.namespace.as_deref().unwrap_or("default");
                (0..self.served.len())
                    .map(|k| (k, ctx.gate_covers_pod(k, ns, &slot.obj.labels)))
                    .filter(|(_, c)| *c != Covers::No)
                    .collect()
            })
            .clone()
    }

    /// Is pod `id`'s re-creation refused now (a webhook sure to cover it has no backend running)? The
    /// first webhook that refuses it; each that refuses it, or may, is recorded.
    fn refuse(&mut self, ctx: &Cluster<'_>, sim: &Placement<'_, '_>, id: u32, window: usize, at: u64) -> Option<usize> {
        let mut refused = None;
        for (k, covers) in self.covering(ctx, sim, id) {
            let may = covers == Covers::May;
            if self.up(sim, k, may) {
                continue;
            }
            let Some(slot) = sim.pods.get(id as usize) else { continue };
            let ns = slot.obj.r.namespace.as_deref().unwrap_or("default");
            let own = self.served.get(k).is_some_and(|(pods, _, _)| pods.contains(&id));
            if !may && refused.is_none() {
                refused = Some(k);
            }
            if may {
                self.maybe_gone.insert(id);
            }
            let pod = format!("{ns}/{}", slot.obj.r.name);
            self.refusals.push((id, Refusal { webhook: k, window, at, pod, until: None, own, may }));
        }
        refused
    }

    /// Is pod `id` still refused (a webhook sure to cover it has no backend running)?
    fn refuses_now(&self, sim: &Placement<'_, '_>, id: u32) -> bool {
        !self.covering.is_empty()
            && self
                .covering
                .get(&id)
                .is_some_and(|v| v.iter().any(|(k, c)| *c == Covers::Yes && !self.up(sim, *k, false)))
    }

    /// Close the refusals that ended: the pod is placed (or, for `may`, the webhook has a backend again).
    fn close(&mut self, sim: &Placement<'_, '_>, at: u64) {
        if self.refusals.is_empty() {
            return;
        }
        loop {
            let doubtful: Vec<bool> = (0..self.served.len()).map(|k| self.up(sim, k, true)).collect();
            let mut changed = false;
            for (id, r) in self.refusals.iter_mut().filter(|(_, r)| r.until.is_none()) {
                let ended = if r.may {
                    doubtful.get(r.webhook).copied().unwrap_or(true)
                } else {
                    sim.pods.get(*id as usize).is_some_and(|s| s.node.is_some())
                };
                if ended {
                    r.until = Some(at);
                    changed |= r.may;
                }
            }
            // A pod no longer maybe refused may serve a webhook again.
            let open: std::collections::BTreeSet<u32> =
                self.refusals.iter().filter(|(_, r)| r.may && r.until.is_none()).map(|(id, _)| *id).collect();
            self.maybe_gone.retain(|id| open.contains(id));
            if !changed {
                break;
            }
        }
    }
}
