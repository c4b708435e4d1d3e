//! The plan's windows replayed through the placement model ([`crate::cluster::placement`]): nodes go out
//! and come back as the plan says, each drain evicts the pods on its node at that moment (those that
//! landed there earlier included), every evicted pod is placed as the scheduler would place it, and pods
//! that fit nowhere stay Pending until a node comes back. The capacity rule and the downtime read the
//! result, so the report tells one story.

use std::collections::HashMap;

use super::{NodeWindow, Timings};
use crate::cluster::drain::DrainEnd;
use crate::cluster::placement::{Placement, Unschedulable};
use crate::cluster::Cluster;
use crate::model::Object;

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
    pub pods: Vec<(String, Unschedulable)>,
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
}

/// What the replay found.
#[derive(Debug, Clone, Default)]
pub struct Placed {
    pub pending: Vec<Pending>,
    /// Every eviction, by the pod object's address (the objects outlive the report's making).
    moves: HashMap<usize, Vec<Move>>,
}

impl Placed {
    /// The evictions of a pod, in order.
    pub fn moves_of(&self, pod: &Object) -> &[Move] {
        self.moves.get(&(pod as *const Object as usize)).map_or(&[], Vec::as_slice)
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
    events.sort_unstable();
    let mut sim = Placement::new(ctx);
    // Pods Pending, oldest first.
    let mut waiting: Vec<u32> = Vec::new();
    let mut moves: Vec<Vec<Move>> = vec![Vec::new(); sim.pods.len()];
    for (at, e) in events {
        match e {
            Event::Out(n) => sim.set_out(n, true),
            Event::Surge(template) => sim.add_surge(template),
            Event::Back(n) => {
                sim.set_out(n, false);
                waiting.retain(|id| match sim.place(*id) {
                    Ok(_) => {
                        if let Some(m) = moves.get_mut(*id as usize).and_then(|v| v.last_mut()) {
                            m.placed = Some(at);
                        }
                        false
                    }
                    Err(_) => true,
                });
            }
            Event::Evict(k) => {
                let Some(w) = windows.get(k) else { continue };
                let stuck = w.stuck.is_some();
                let evicted = sim.evict(w.node, |o| {
                    stuck && held.contains(&(o.r.namespace.as_deref().unwrap_or("default"), o.r.name.as_str()))
                });
                let mut left = Vec::new();
                let mut needed = (0i64, 0i64);
                for id in evicted {
                    // A pod already being deleted goes with its node's drain; its controller has replaced it.
                    if sim.pods.get(id as usize).is_some_and(|s| s.info.terminating) {
                        continue;
                    }
                    let result = sim.place(id);
                    if let Some(v) = moves.get_mut(id as usize) {
                        v.push(Move { from: w.node, evicted: at, placed: result.is_ok().then_some(at) });
                    }
                    if let Err(why) = result {
                        waiting.push(id);
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
                if !left.is_empty() {
                    left.sort_by(|a, b| a.0.cmp(&b.0));
                    let nodes_out = (0..ctx.nodes.len()).filter(|n| sim.is_out(*n)).collect();
                    let free = sim.free_now();
                    placed.pending.push(Pending { window: k, at, nodes_out, pods: left, needed, free });
                }
            }
        }
    }
    for (slot, v) in sim.pods.iter().zip(moves).filter(|(_, v)| !v.is_empty()) {
        placed.moves.insert(slot.obj as *const Object as usize, v);
    }
    placed
}
