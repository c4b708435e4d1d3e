//! The upgrade plan: hop by hop, phase by phase, node by node, in the order and with the concurrency each
//! distribution really uses (DOMAIN section 5 and the seeds), as a simulation: a sliding window releases
//! its slot when a node finishes, batches wait for the whole batch.
//!
//! A node's step = drain (the longest pod shutdown, plus the drain timeout when a PodDisruptionBudget allows
//! nothing) + the upgrade or replacement + readiness + the profile's intervals. Every time comes from
//! [`Timings`]. The same simulation feeds the expected downtime ([`downtime`]).

pub mod downtime;
pub mod placement;
pub mod progress;
pub mod timings;

use crate::budget::{self, Gate, GateKind, Pool, PoolRole};
use crate::cluster::drain::{DrainEnd, DrainStall};
use crate::cluster::platform::GateStop;
use crate::cluster::{Cluster, NodeView};
use crate::model::{Object, PodInfo};
use crate::options::Profile;
use crate::report::{Phase, Plan, Segment, Step, Stop};

pub use timings::{Timings, MAX_SECONDS};

/// What happens to a node in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// The first control-plane node (kubeadm `upgrade apply`, and the like).
    ControlPlaneFirst,
    ControlPlane,
    /// RKE: the etcd plane only.
    Etcd,
    Worker,
}

/// When a node was out, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeWindow {
    pub node: usize,
    pub hop: String,
    pub phase: &'static str,
    pub start: u64,
    pub end: u64,
    /// Were its pods evicted (a drain), or did they stay through an in-place upgrade?
    pub drained: bool,
    /// Seconds into the step at which PDB-blocked pods finally go (the drain timeout), if any.
    pub blocked_until: Option<u64>,
    /// The node's drain never completes, and how it ends (`end` is when the plan stops on it): it stays
    /// cordoned until someone intervenes; the pods its drain cannot evict keep running.
    pub stuck: Option<DrainEnd>,
}

/// The simulation's outcome.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub plan: Plan,
    pub windows: Vec<NodeWindow>,
    /// The windows replayed through the placement model ([`placement::replay`], which the pipeline runs
    /// after [`build`]): where evicted pods land, which stay Pending.
    pub placed: placement::Placed,
}

/// How nodes of a phase are scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A sliding window: a slot is released when a node finishes.
    Sliding,
    /// Fixed batches: the next batch waits for the whole batch (RKE < 1.1).
    Batch,
    /// kOps: one node alone first (validated), then the sliding window.
    StartWithOne,
}

/// A node's time in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dur {
    /// It takes this long and frees its slot.
    Done(u64),
    /// After this long it is known never to finish (a drain that waits for ever or fails): its slot is
    /// never freed.
    Stuck(u64),
}

impl Dur {
    fn seconds(self) -> u64 {
        match self {
            Dur::Done(d) | Dur::Stuck(d) => d,
        }
    }
}

/// Schedule `durations` (in order) with `concurrency` slots from `start`; returns (start, end) per node.
pub fn schedule(durations: &[u64], concurrency: u32, mode: Mode, start: u64) -> Vec<(u64, u64)> {
    let items: Vec<Dur> = durations.iter().map(|d| Dur::Done(*d)).collect();
    schedule_stalling(&items, concurrency, mode, start, false).into_iter().flatten().collect()
}

/// Schedule nodes some of which may never finish; `None` for a node that never starts. A stuck node keeps
/// its slot for ever; with `halt`, nothing starts once a stuck node has failed (kOps stops the rolling
/// update on a failed drain). A batch with a stuck node never ends, nor does the node started alone.
pub fn schedule_stalling(
    items: &[Dur],
    concurrency: u32,
    mode: Mode,
    start: u64,
    halt: bool,
) -> Vec<Option<(u64, u64)>> {
    // More slots than nodes change nothing: never allocate more (a budget of 4,000,000,000 is legal input).
    let c = usize::try_from(concurrency).unwrap_or(usize::MAX).clamp(1, items.len().max(1));
    let mut out: Vec<Option<(u64, u64)>> = Vec::with_capacity(items.len());
    match mode {
        Mode::Batch => {
            let mut t = Some(start);
            for chunk in items.chunks(c) {
                let Some(at) = t else {
                    out.extend(chunk.iter().map(|_| None));
                    continue;
                };
                out.extend(chunk.iter().map(|d| Some((at, at + d.seconds()))));
                let end = chunk.iter().map(|d| at + d.seconds()).max().unwrap_or(at);
                t = (!chunk.iter().any(|d| matches!(d, Dur::Stuck(_)))).then_some(end);
            }
        }
        Mode::Sliding | Mode::StartWithOne => {
            let (rest, t0) = match (mode, items.split_first()) {
                (Mode::StartWithOne, Some((d, rest))) => {
                    out.push(Some((start, start + d.seconds())));
                    if matches!(d, Dur::Stuck(_)) {
                        out.extend(rest.iter().map(|_| None));
                        return out;
                    }
                    (rest, start + d.seconds())
                }
                _ => (items, start),
            };
            // Each slot's next free time; `None` once a stuck node holds it for ever.
            let mut free: Vec<Option<u64>> = vec![Some(t0); c];
            let mut halt_at: Option<u64> = None;
            for d in rest {
                // The slot that frees first (the lowest index on a tie: deterministic).
                let next = free.iter().enumerate().filter_map(|(i, t)| t.map(|t| (t, i))).min();
                let Some((t, slot)) = next.filter(|(t, _)| halt_at.is_none_or(|h| *t < h)) else {
                    out.push(None);
                    continue;
                };
                out.push(Some((t, t + d.seconds())));
                let freed = match d {
                    Dur::Done(len) => Some(t + len),
                    Dur::Stuck(len) => {
                        if halt {
                            halt_at = Some(halt_at.map_or(t + len, |h| h.min(t + len)));
                        }
                        None
                    }
                };
                if let Some(f) = free.get_mut(slot) {
                    *f = freed;
                }
            }
        }
    }
    out
}

struct Builder<'c, 'a> {
    ctx: &'c Cluster<'a>,
    t: Timings,
    drains: bool,
    /// Pods whose PodDisruptionBudget allows no disruption: (namespace, name).
    /// Sorted, each once.
    blocked: &'c [(&'a str, &'a str)],
    out: Outcome,
    /// The hop being planned.
    hop: String,
    /// The Kubernetes minor of the hop being planned.
    hop_minor: u32,
    pool_names: bool,
    /// Where the last phase of nodes ended (the last node out, a stuck one at its stop), complete or not.
    last_end: u64,
    /// The hop being planned finishes an upgrade under way (`Cluster::finishing`): only the nodes not done
    /// yet go through it, those being upgraded first.
    finishing: bool,
    /// Each node's whole step as measured for its pool (`plan.learned`), by position in `Cluster::nodes`.
    step_times: Vec<Option<u64>>,
}

impl<'c, 'a> Builder<'c, 'a> {
    fn node(&self, i: usize) -> Option<&'c NodeView<'a>> {
        self.ctx.nodes.get(i)
    }

    /// Pods a drain of node `i` evicts.
    fn evictable(&self, i: usize) -> Vec<(&'a Object, &'a PodInfo)> {
        self.ctx.evicted_by_drain(i)
    }

    /// How the drain of node `i` goes: its seconds (until it is known stuck, for a drain that never
    /// completes), the seconds into the step when PDB-blocked pods go (a drain that gives up and proceeds),
    /// and why it never completes, if it does not.
    fn drain(&self, i: usize) -> (u64, Option<u64>, Option<DrainStall<'a>>) {
        if !self.drains {
            return (self.t.cordon, None, None);
        }
        if let Some(stall) = self.ctx.drain_stall(i) {
            let waited = match stall.end {
                DrainEnd::FailsAfterTimeout => self.t.cordon + self.t.drain_timeout,
                DrainEnd::WaitsForEver | DrainEnd::FailsAtOnce => self.t.cordon,
            };
            return (waited, None, Some(stall));
        }
        let pods = self.evictable(i);
        if pods.is_empty() {
            return (self.t.cordon, None, None);
        }
        let grace = pods
            .iter()
            .map(|(_, p)| {
                p.spec.termination_grace_seconds.map_or(self.t.pod_eviction, |g| g.clamp(0, MAX_SECONDS).unsigned_abs())
            })
            .max()
            .unwrap_or(self.t.pod_eviction);
        // GKE on Bare Metal drains by taints up to 1.28 (budgets are not consulted) and through the eviction
        // API from 1.29, which waits on a budget until its 20-minute limit (maintenance mode docs).
        let consults_budgets = self.ctx.profile() != Profile::GkeBaremetal || self.hop_minor >= 29;
        let blocked = consults_budgets
            && pods.iter().any(|(o, _)| {
                self.blocked.binary_search(&(o.r.namespace.as_deref().unwrap_or("default"), o.r.name.as_str())).is_ok()
            });
        // GKE on Bare Metal gives a node's drain at most its 20 minutes, a long grace period included, then
        // upgrades the node anyway (pods may still be Terminating).
        let gke_cap = |secs: u64| {
            if self.ctx.profile() == Profile::GkeBaremetal {
                secs.min(self.t.cordon + self.t.drain_timeout)
            } else {
                secs
            }
        };
        if blocked {
            (gke_cap(self.t.cordon + self.t.drain_timeout + grace), Some(self.t.cordon + self.t.drain_timeout), None)
        } else {
            (gke_cap(self.t.cordon + grace), None, None)
        }
    }

    fn duration(&self, i: usize, work: Work) -> NodeTime<'a> {
        let t = &self.t;
        match work {
            Work::Etcd => NodeTime {
                dur: Dur::Done(t.etcd_member),
                segments: segments(&[("upgrade", t.etcd_member)]),
                blocked: None,
                drained: false,
                stall: None,
            },
            _ => {
                let (drain, blocked, stall) = self.drain(i);
                let upgrade = match work {
                    Work::ControlPlaneFirst => t.control_plane_first,
                    Work::ControlPlane => t.control_plane_node,
                    _ => t.node_upgrade,
                };
                // A drain held by a budget waits out the drain timeout before it goes on.
                let wait = if blocked.is_some() { t.drain_timeout.min(drain) } else { 0 };
                // A step measured for the node's pool: the drain as simulated (its pods), the rest as measured.
                if let (Some(measured), None) = (self.step_times.get(i).copied().flatten(), &stall) {
                    let segments = segments(&[
                        ("drain", drain - wait),
                        ("budget-wait", wait),
                        ("learned", measured.saturating_sub(drain)),
                    ]);
                    return NodeTime {
                        dur: Dur::Done(drain.max(measured)),
                        segments,
                        blocked,
                        drained: self.drains,
                        stall,
                    };
                }
                let dur = match stall {
                    Some(_) => Dur::Stuck(drain),
                    None => {
                        Dur::Done(drain + t.post_drain_delay + upgrade + t.node_interval + t.node_ready + t.validate)
                    }
                };
                let segments = segments(&[
                    ("drain", drain - wait),
                    ("budget-wait", wait),
                    ("upgrade", t.post_drain_delay + upgrade),
                    ("ready", t.node_interval + t.node_ready + t.validate),
                ]);
                NodeTime { dur, segments, blocked, drained: self.drains, stall }
            }
        }
    }

    fn names(&self, nodes: &[usize]) -> Vec<String> {
        let mut v: Vec<String> = nodes.iter().filter_map(|i| self.node(*i)).map(|n| n.name().to_owned()).collect();
        crate::sort::sort(&mut v);
        v
    }

    fn stop(&mut self, phase: &'static str, pool: Option<String>, at: u64, why: Why, pending: &[usize]) {
        let pending = self.names(pending);
        self.out.plan.stops.push(Stop {
            hop: self.hop.clone(),
            phase,
            pool,
            node: why.node,
            start_seconds: why.start,
            at_seconds: at,
            outcome: why.outcome,
            code: why.code,
            reason: why.reason,
            pending,
        });
    }

    /// A phase of nodes; returns its end, or `None` when it never completes (a node stuck, a node never
    /// picked): nothing after it in its sequence is planned.
    fn nodes_phase(&mut self, ph: PhaseSpec, nodes: &[usize], start: u64) -> Option<u64> {
        let left;
        let nodes = if self.finishing {
            left = left_to_upgrade(self.ctx, nodes);
            &left[..]
        } else {
            nodes
        };
        if nodes.is_empty() {
            return Some(start);
        }
        let times: Vec<NodeTime<'a>> =
            nodes.iter().enumerate().map(|(k, i)| self.duration(*i, if k == 0 { ph.first } else { ph.rest })).collect();
        // kOps stops the rolling update when a drain fails; the others keep their other slots going.
        let halt = self.ctx.profile() == Profile::Kops;
        let slots =
            schedule_stalling(&times.iter().map(|d| d.dur).collect::<Vec<_>>(), ph.concurrency, ph.mode, start, halt);
        let hop = self.hop.clone();
        let mut end = start;
        let mut upgraded = Vec::new();
        let mut never = Vec::new();
        let mut stalls = Vec::new();
        for ((i, slot), time) in nodes.iter().zip(slots).zip(times) {
            let Some(n) = self.node(*i) else { continue };
            let Some((s, e)) = slot else {
                never.push(*i);
                continue;
            };
            end = end.max(e);
            self.out.windows.push(NodeWindow {
                node: *i,
                hop: hop.clone(),
                phase: ph.name,
                start: s,
                end: e,
                drained: time.drained,
                blocked_until: time.blocked,
                stuck: time.stall.as_ref().map(|st| st.end),
            });
            match time.stall {
                Some(stall) => stalls.push((n.name().to_owned(), s, e, stall)),
                None => {
                    self.out.plan.steps.push(Step {
                        node: n.name().to_owned(),
                        phase: ph.name,
                        pool: ph.pool.clone(),
                        hop: Some(hop.clone()),
                        start_seconds: s,
                        end_seconds: e,
                        segments: time.segments,
                    });
                    upgraded.push(*i);
                }
            }
        }
        self.out.plan.phases.push(Phase {
            name: ph.name,
            pool: ph.pool.clone(),
            hop: Some(hop),
            concurrency: ph.concurrency.max(1),
            nodes: upgraded.iter().filter_map(|i| self.node(*i)).map(|n| n.name().to_owned()).collect(),
            start_seconds: start,
            end_seconds: end,
        });
        let complete = stalls.is_empty() && never.is_empty();
        self.last_end = end;
        for (k, (node, began, at, stall)) in stalls.into_iter().enumerate() {
            let outcome = if stall.end == DrainEnd::WaitsForEver { "waits" } else { "fails" };
            let why = Why { node: Some(node), start: Some(began), outcome, code: stall.code, reason: stall.reason };
            // The nodes that never start are listed once, with the first stop.
            let pending = if k == 0 { std::mem::take(&mut never) } else { Vec::new() };
            self.stop(ph.name, ph.pool.clone(), at, why, &pending);
        }
        complete.then_some(end)
    }

    /// Instances that are not nodes (kOps bastions): replaced one at a time, nothing to drain.
    fn instances_phase(&mut self, name: &'static str, pool: &str, count: usize, start: u64) -> u64 {
        let each = self.t.node_upgrade + self.t.node_interval;
        let mut t = start;
        let mut names = Vec::new();
        for k in 1..=count {
            let node = format!("{pool}-{k}");
            self.out.plan.steps.push(Step {
                node: node.clone(),
                phase: name,
                pool: Some(pool.to_owned()),
                hop: Some(self.hop.clone()),
                start_seconds: t,
                end_seconds: t + each,
                segments: segments(&[("upgrade", self.t.node_upgrade), ("ready", self.t.node_interval)]),
            });
            names.push(node);
            t += each;
        }
        self.out.plan.phases.push(Phase {
            name,
            pool: Some(pool.to_owned()),
            hop: Some(self.hop.clone()),
            concurrency: 1,
            nodes: names,
            start_seconds: start,
            end_seconds: t,
        });
        t
    }

    /// A phase with no node of its own (add-ons, the CVO's manifests, load balancers); returns its end.
    fn fixed_phase(&mut self, name: &'static str, pool: &str, seconds: u64, start: u64) -> u64 {
        self.out.plan.phases.push(Phase {
            name,
            pool: Some(pool.to_owned()),
            hop: Some(self.hop.clone()),
            concurrency: 1,
            nodes: Vec::new(),
            start_seconds: start,
            end_seconds: start + seconds,
        });
        start + seconds
    }

    fn sorted_by_name(&self, nodes: &[usize]) -> Vec<usize> {
        let mut v = nodes.to_vec();
        crate::sort::sort_by(&mut v, |a, b| self.node(*a).map(|n| n.name()).cmp(&self.node(*b).map(|n| n.name())));
        v
    }

    /// A pool's nodes by name, with its resolved concurrency; `None` when it never completes (the
    /// distribution refuses to start it, or a node in it never finishes).
    fn pool_phase(&mut self, p: &Pool, name: &'static str, work: Work, mode: Mode, start: u64) -> Option<u64> {
        let pool = self.pool_names.then(|| p.name.clone());
        if self.refused(p, name, pool.clone(), start, &p.nodes) {
            return None;
        }
        let order = self.sorted_by_name(&p.nodes);
        let concurrency = budget::limit(self.ctx, p).concurrency;
        self.nodes_phase(PhaseSpec { name, pool, concurrency, mode, first: work, rest: work }, &order, start)
    }

    /// Does the distribution refuse to start this pool ([`budget::gate`])? Then the plan stops there, at
    /// `at`, with `pending` never upgraded.
    fn refused(&mut self, p: &Pool, phase: &'static str, pool: Option<String>, at: u64, pending: &[usize]) -> bool {
        let Some(g) = budget::gate(self.ctx, p) else { return false };
        let why = self.gate_why(p, &g);
        self.stop(phase, pool, at, why, pending);
        true
    }

    /// Why the distribution refuses to start a pool (the finding `budget/unavailable-exceeds-limit` says the
    /// same).
    fn gate_why(&self, p: &Pool, g: &Gate) -> Why {
        let down = self.names(&g.nodes).join(", ");
        let (outcome, reason) = match g.kind {
            GateKind::NoneMayGo => (
                "waits",
                format!(
                    "minimumAvailableNodes {} of pool {}'s {} node(s): no node may go",
                    p.minimum_available.unwrap_or(0),
                    p.name,
                    p.nodes.len()
                ),
            ),
            GateKind::ValidationFails => {
                ("fails", format!("cluster validation fails before the group ({down} not Ready or NetworkUnavailable)"))
            }
            GateKind::HealthCheckFails => {
                ("fails", format!("kubeadm upgrade apply's health check fails ({down} not Ready)"))
            }
            GateKind::LimitReached => (
                if matches!(self.ctx.profile(), Profile::Rke | Profile::RkeLegacy) { "fails" } else { "waits" },
                format!(
                    "{down} already unavailable, at or over pool {}'s limit of {}",
                    p.name, g.limit.max_unavailable
                ),
            ),
        };
        Why { node: None, start: None, outcome, code: "budget/unavailable-exceeds-limit", reason }
    }

    /// One hop; returns its end, or `None` when it does not complete (the plan stops in it).
    fn hop(&mut self, start: u64) -> Option<u64> {
        let ctx = self.ctx;
        let pools = budget::pools(ctx);
        let of = |role: PoolRole| pools.iter().filter(move |p| p.role == role && !p.paused);
        let mut t = start;
        match ctx.profile() {
            Profile::Kubeadm => {
                // `kubeadm upgrade apply` on the first control-plane node, `upgrade node` on the others; its
                // health check (every control-plane node Ready) runs first.
                for p in of(PoolRole::ControlPlane) {
                    let every: Vec<usize> = (0..ctx.nodes.len()).collect();
                    if self.refused(p, "control-plane", None, t, &every) {
                        return None;
                    }
                    let order = self.sorted_by_name(&p.nodes);
                    // Finishing: `kubeadm upgrade apply` has run (the API server is at the version), so
                    // every control-plane node left runs `kubeadm upgrade node`.
                    let first = if self.finishing { Work::ControlPlane } else { Work::ControlPlaneFirst };
                    let ph = PhaseSpec::serial("control-plane", first, Work::ControlPlane);
                    t = self.nodes_phase(ph, &order, t)?;
                }
                for p in of(PoolRole::Worker) {
                    t = self.pool_phase(p, "workers", Work::Worker, Mode::Sliding, t)?;
                }
            }
            Profile::Rke | Profile::RkeLegacy => {
                let legacy = ctx.profile() == Profile::RkeLegacy;
                let mode = if legacy { Mode::Batch } else { Mode::Sliding };
                // The reachable etcd hosts one by one (no limit for the etcd plane: an unreachable host is
                // left out; budget/etcd-member-unavailable reports it).
                let reachable = |i: &usize| ctx.nodes.get(*i).is_some_and(|n| !n.info.unreachable);
                let etcd: Vec<usize> = of(PoolRole::Etcd).flat_map(|p| p.nodes.clone()).collect();
                let etcd = self.sorted_by_name(&etcd);
                let etcd_reachable: Vec<usize> = etcd.iter().copied().filter(reachable).collect();
                let ph = PhaseSpec::serial("etcd", Work::Etcd, Work::Etcd);
                t = self.nodes_phase(ph, &etcd_reachable, t)?;
                // RKE (cluster/cluster.go): hosts it cannot reach are skipped and subtracted from the limit
                // (ResetMaxUnavailable); NotReady control-plane hosts go first (RKE >= 1.1); a
                // control-plane host's worker plane is upgraded with its control plane, never again.
                let inactive = |nodes: &[usize]| nodes.iter().filter(|i| !reachable(i)).count();
                let window = |p: &Pool, inactive: usize| {
                    let limit = budget::limit(ctx, p).concurrency;
                    limit.saturating_sub(u32::try_from(inactive).unwrap_or(u32::MAX)).max(1)
                };
                for p in of(PoolRole::ControlPlane) {
                    if self.refused(p, "control-plane", None, t, &p.nodes) {
                        return None;
                    }
                    let mut order: Vec<usize> =
                        self.sorted_by_name(&p.nodes).into_iter().filter(|i| legacy || reachable(i)).collect();
                    if !legacy {
                        crate::sort::sort_by_key(&mut order, |i| self.node(*i).is_some_and(|n| n.ready()));
                    }
                    let concurrency =
                        if legacy { budget::limit(ctx, p).concurrency } else { window(p, inactive(&p.nodes)) };
                    let ph = PhaseSpec {
                        name: "control-plane",
                        pool: None,
                        concurrency,
                        mode,
                        first: Work::ControlPlane,
                        rest: Work::ControlPlane,
                    };
                    t = self.nodes_phase(ph, &order, t)?;
                }
                // RKE >= 1.1: the worker plane of etcd hosts, one by one, then worker-only hosts.
                let etcd_workers: Vec<usize> = etcd
                    .iter()
                    .copied()
                    .filter(|i| self.node(*i).is_some_and(|n| !n.is_control_plane()) && reachable(i))
                    .collect();
                if !legacy {
                    let ph = PhaseSpec {
                        name: "workers",
                        pool: Some("etcd".into()),
                        concurrency: 1,
                        mode,
                        first: Work::Worker,
                        rest: Work::Worker,
                    };
                    t = self.nodes_phase(ph, &etcd_workers, t)?;
                }
                for p in of(PoolRole::Worker) {
                    if self.refused(p, "workers", None, t, &p.nodes) {
                        return None;
                    }
                    let (concurrency, nodes) = if legacy {
                        (budget::limit(ctx, p).concurrency, p.nodes.clone())
                    } else {
                        let own: Vec<usize> = p
                            .nodes
                            .iter()
                            .copied()
                            .filter(|i| self.node(*i).is_some_and(|n| !n.is_control_plane()))
                            .collect();
                        let nodes =
                            own.iter().copied().filter(|i| !etcd.contains(i) && reachable(i)).collect::<Vec<usize>>();
                        (window(p, budget::unavailable(ctx, p).len()), nodes)
                    };
                    // RKE >= 1.1 upgrades NotReady (reachable) worker hosts first, as it does control hosts.
                    let mut order = self.sorted_by_name(&nodes);
                    if !legacy {
                        crate::sort::sort_by_key(&mut order, |i| self.node(*i).is_some_and(|n| n.ready()));
                    }
                    let ph = PhaseSpec {
                        name: "workers",
                        pool: None,
                        concurrency,
                        mode,
                        first: Work::Worker,
                        rest: Work::Worker,
                    };
                    t = self.nodes_phase(ph, &order, t)?;
                }
                // Add-ons one by one.
                t = self.fixed_phase("addons", "network, dns, ingress, metrics-server", 4 * self.t.addon, t);
            }
            Profile::Kops => {
                // Bastions, control-plane groups (serially), apiserver groups, node groups; alphabetical
                // within a role; validation before each group (a node not Ready anywhere fails it); each
                // group starts with one instance.
                let finishing = self.finishing;
                for p in of(PoolRole::Bastion).filter(|p| p.settings.drain_and_terminate != Some(false) && !finishing) {
                    t = self.instances_phase("bastions", &p.name, p.instances, t);
                }
                // kOps validates before each group and ignores a failure that is not relevant to it
                // (pkg/instancegroups/rollingupdate.go, hasFailureRelevantToGroup): one in the group itself,
                // in a control-plane group, or tied to no group (a node without the instance-group label).
                let failing: Vec<(&Pool, Gate)> =
                    pools.iter().filter_map(|p| budget::gate(ctx, p).map(|g| (p, g))).collect();
                let ungrouped =
                    |i: &usize| ctx.nodes.get(*i).is_some_and(|n| !n.obj.labels.contains_key(budget::KOPS_GROUP_LABEL));
                let relevant = |p: &Pool| {
                    failing.iter().find(|(q, g)| {
                        q.name == p.name || q.role == PoolRole::ControlPlane || g.nodes.iter().any(ungrouped)
                    })
                };
                let groups: Vec<(&Pool, &'static str, Work)> = [
                    (PoolRole::ControlPlane, "control-plane", Work::ControlPlane),
                    (PoolRole::ApiServer, "control-plane", Work::ControlPlane),
                    (PoolRole::Worker, "workers", Work::Worker),
                ]
                .into_iter()
                .flat_map(|(role, name, work)| of(role).map(move |p| (p, name, work)))
                .filter(|(p, _, _)| p.settings.drain_and_terminate != Some(false))
                .collect();
                // A failing system-critical pod: tied to its node's group, or to none.
                let other_failures = budget::kops_validation_failures(ctx);
                let failing_pod = |p: &Pool| {
                    other_failures
                        .iter()
                        .find(|f| f.control_plane || f.pool.as_ref().is_none_or(|name| *name == p.name))
                };
                let mut complete = true;
                for (k, (p, name, work)) in groups.iter().enumerate() {
                    let why = match (relevant(p), failing_pod(p)) {
                        (Some((bad, g)), _) => Some(self.gate_why(bad, g)),
                        (None, Some(f)) => Some(Why {
                            node: None,
                            start: None,
                            outcome: "fails",
                            code: "budget/unavailable-exceeds-limit",
                            reason: format!("cluster validation fails before the group ({})", f.what),
                        }),
                        (None, None) => None,
                    };
                    if let Some(why) = why {
                        let rest: Vec<usize> =
                            groups.iter().skip(k).flat_map(|(q, _, _)| q.nodes.iter().copied()).collect();
                        self.stop(name, Some(p.name.clone()), t, why, &rest);
                        return None;
                    }
                    t += self.t.validate;
                    match self.pool_phase(p, name, *work, Mode::StartWithOne, t) {
                        Some(end) => t = end,
                        // A failed drain in a node group is not an exitable error
                        // (rollingupdate.go, isExitableError): kops goes on with the next node group, and
                        // the rolling update fails at its end. In a control-plane group it stops there.
                        None if p.role == PoolRole::Worker => {
                            complete = false;
                            t = self.last_end;
                        }
                        None => return None,
                    }
                }
                if !complete {
                    return None;
                }
            }
            Profile::Openshift => {
                // A ClusterOperator that is not Available or is Degraded holds the CVO at its runlevel: the
                // control plane is part-updated, no pool is (the MCO comes last).
                if t == 0 {
                    if let Some(g) = ctx.platform_gates().iter().find(|g| g.stop == Some(GateStop::Waits)) {
                        let all: Vec<usize> = (0..ctx.nodes.len()).collect();
                        let why =
                            Why { node: None, start: None, outcome: "waits", code: g.code, reason: g.message.clone() };
                        self.stop("control-plane", Some("cluster-version-operator".to_owned()), t, why, &all);
                        return None;
                    }
                }
                // The CVO applies the manifests runlevel by runlevel; the MCO updates the pools at the end,
                // all pools in parallel, nodes sorted by zone then age (oldest first). With an arbiter
                // (controlPlaneTopology HighlyAvailableArbiter) the arbiter pool is synced with the master
                // pool and only after every master is updated (node_controller.go, updatePools).
                // Finishing an update whose ClusterVersion is Completed: the operators are done, the pools not.
                if !(self.finishing && ctx.underway.as_ref().is_some_and(|u| u.control_plane_done)) {
                    t = self.fixed_phase("control-plane", "cluster-version-operator", self.t.cluster_operators, t);
                }
                let arbiter = ctx.arbiter_topology();
                let merge = |a: Option<u64>, b: Option<u64>| match (a, b) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                let mut end = Some(t);
                let mut master_end = None;
                let with_master = |p: &&Pool| arbiter && p.name == "arbiter";
                for p in pools.iter().filter(|p| !p.paused).filter(|p| !with_master(p)) {
                    let done = if arbiter && p.name == "master" {
                        let done = self.arbiter_master_pool(p, &pools, t);
                        master_end = Some(done);
                        done
                    } else {
                        self.mco_pool(p, t)
                    };
                    end = merge(end, done);
                }
                if let Some(a) = pools.iter().find(|p| arbiter && p.name == "arbiter" && !p.paused) {
                    let done = self.arbiter_pool(a, &pools, master_end, t);
                    end = merge(end, done);
                }
                t = end?;
            }
            Profile::GkeBaremetal => {
                // Control-plane load balancers, the control-plane node pool; then in parallel GKE Connect
                // and the add-ons, and the load-balancer node pool; worker pools after the LB pool.
                t = self.fixed_phase("load-balancers", "control-plane load balancers", self.t.load_balancer, t);
                for p in of(PoolRole::ControlPlane) {
                    if self.refused(p, "control-plane", Some(p.name.clone()), t, &p.nodes) {
                        return None;
                    }
                    let order = self.sorted_by_name(&p.nodes);
                    let ph = PhaseSpec {
                        name: "control-plane",
                        pool: Some(p.name.clone()),
                        concurrency: 1,
                        mode: Mode::Sliding,
                        first: Work::ControlPlane,
                        rest: Work::ControlPlane,
                    };
                    t = self.nodes_phase(ph, &order, t)?;
                }
                let addons_end =
                    self.fixed_phase("addons", "GKE Connect and cluster add-ons", self.t.addons_upgrade, t);
                let mut w = t;
                for p in of(PoolRole::LoadBalancer) {
                    w = self.pool_phase(p, "load-balancers", Work::Worker, Mode::Sliding, w)?;
                }
                for p in of(PoolRole::Worker) {
                    w = self.pool_phase(p, "workers", Work::Worker, Mode::Sliding, w)?;
                }
                t = w.max(addons_end);
            }
        }
        Some(t)
    }

    /// After a hop that stopped (its stops from `first` on): the nodes of its [`scope`] that no
    /// phase reached (nothing is planned after a stop in its sequence) join the first stop's `pending`, so
    /// that every node of the hop is upgraded, stuck, or said never started.
    fn unreached(&mut self, first: usize) {
        let hop = self.hop.clone();
        let plan = &self.out.plan;
        // Sorted, each once (a list rather than a B-tree set: one set type less in the wasm).
        let mut known: Vec<&str> =
            plan.steps.iter().filter(|s| s.hop.as_deref() == Some(hop.as_str())).map(|s| s.node.as_str()).collect();
        for st in plan.stops.iter().skip(first) {
            known.extend(st.node.as_deref());
            known.extend(st.pending.iter().map(String::as_str));
        }
        crate::sort::sort_dedup(&mut known);
        let more: Vec<usize> = hop_scope(self.ctx, self.finishing)
            .into_iter()
            .filter(|i| self.node(*i).is_some_and(|n| known.binary_search(&n.name()).is_err()))
            .collect();
        let names = self.names(&more);
        if let Some(st) = self.out.plan.stops.get_mut(first) {
            st.pending.extend(names);
            crate::sort::sort(&mut st.pending);
            st.pending.dedup();
        }
    }

    /// The first node of `pool` the MCO never picks (not Ready, NetworkUnavailable, DiskPressure, cordoned),
    /// as `mco_pool` leaves them, unless the run if resolved takes them as back.
    fn first_never_picked(&self, pool: &Pool) -> Option<String> {
        if self.ctx.lifts("budget/node-unavailable") {
            return None;
        }
        pool.nodes
            .iter()
            .filter_map(|i| self.ctx.nodes.get(*i))
            .find(|n| n.treatment(Profile::Openshift) == crate::cluster::nodes::Treatment::Stops)
            .map(|n| n.name().to_owned())
    }

    /// Stops pool `held` at `start`, none of its nodes started, while a node of pool `other` is one the MCO
    /// never picks (`reason` says why, given that node's name): `true` when it does.
    fn held_by_unavailable(
        &mut self,
        held: &Pool,
        other: &Pool,
        start: u64,
        reason: impl FnOnce(&str) -> String,
    ) -> bool {
        let Some(first) = self.first_never_picked(other) else { return false };
        let why = Why {
            node: Some(first.clone()),
            start: None,
            outcome: "waits",
            code: "budget/node-unavailable",
            reason: reason(&first),
        };
        self.stop("control-plane", Some(held.name.clone()), start, why, &held.nodes);
        true
    }

    /// The master pool with an arbiter: while an arbiter node is unavailable the MCO gives the master pool
    /// no capacity ("to prevent simultaneous updates", node_controller.go updatePools), so nothing in it
    /// starts; else as any pool.
    fn arbiter_master_pool(&mut self, master: &Pool, pools: &[Pool], start: u64) -> Option<u64> {
        if let Some(arbiter) = pools.iter().find(|p| p.name == "arbiter") {
            let held = self.held_by_unavailable(master, arbiter, start, |node| {
                format!(
                    "arbiter node {node} is unavailable: with an arbiter (HighlyAvailableArbiter) the MCO gives \
                     pool {} no capacity while an arbiter node is, so none of its nodes starts",
                    master.name
                )
            });
            if held {
                return None;
            }
        }
        self.mco_pool(master, start)
    }

    /// The arbiter pool with an arbiter topology: after the master pool has updated every node (`master_end`,
    /// `None` when it never completes), or, when the master pool is paused, at once unless a master node is
    /// unavailable (the MCO then defers it to keep etcd's quorum: node_controller.go syncMachineConfigPool).
    fn arbiter_pool(
        &mut self,
        arbiter: &Pool,
        pools: &[Pool],
        master_end: Option<Option<u64>>,
        start: u64,
    ) -> Option<u64> {
        let master = pools.iter().find(|p| p.name == "master");
        let begin = match (master, master_end) {
            (Some(m), _) if m.paused => {
                let held = self.held_by_unavailable(arbiter, m, start, |node| {
                    format!(
                        "master node {node} is unavailable and pool {} is paused: the MCO defers pool {} to keep \
                         etcd's quorum, so none of its nodes starts",
                        m.name, arbiter.name
                    )
                });
                if held {
                    return None;
                }
                start
            }
            (_, Some(end)) => end?,
            (_, None) => start,
        };
        self.mco_pool(arbiter, begin)
    }

    /// One machine config pool, as the MCO's node controller updates it
    /// (pkg/controller/node/node_controller.go, status.go): nodes already unavailable (not Ready,
    /// NetworkUnavailable, unschedulable) use up `maxUnavailable` and are never picked, so the pool does not
    /// complete; candidates sorted by zone label, then age (oldest first), nodes without
    /// a zone label last; in the `master` pool, the node running the machine-config-operator pod last.
    fn mco_pool(&mut self, p: &Pool, start: u64) -> Option<u64> {
        let ctx = self.ctx;
        let (name, work) = if p.role == PoolRole::ControlPlane {
            ("control-plane", Work::ControlPlane)
        } else {
            ("workers", Work::Worker)
        };
        if let Some(raw) = &p.refused {
            let why = Why {
                node: None,
                start: None,
                outcome: "waits",
                code: "input/unreadable-value",
                reason: format!("the MCO refuses pool {}'s maxUnavailable {raw:?} and never updates it", p.name),
            };
            self.stop(name, Some(p.name.clone()), start, why, &p.nodes);
            return None;
        }
        if self.refused(p, name, Some(p.name.clone()), start, &p.nodes) {
            return None;
        }
        let never_picked = |i: &usize| {
            !ctx.lifts("budget/node-unavailable")
                && ctx
                    .nodes
                    .get(*i)
                    .is_some_and(|n| n.treatment(Profile::Openshift) == crate::cluster::nodes::Treatment::Stops)
        };
        let unavailable = budget::unavailable(ctx, p).len();
        let mut order: Vec<usize> = p.nodes.iter().copied().filter(|i| !never_picked(i)).collect();
        crate::sort::sort_by_key(&mut order, |i| {
            self.node(*i).map(|n| {
                let zone = n.obj.labels.get("topology.kubernetes.io/zone");
                (
                    zone.is_none(),
                    zone.cloned().unwrap_or_default(),
                    n.info.creation_timestamp.clone().unwrap_or_default(),
                    n.name().to_owned(),
                )
            })
        });
        // The master pool defers the node running the machine-config-operator pod while another master is
        // a candidate (updateCandidateMachines, filterControlPlaneCandidateNodes; getOperatorNodeName: the
        // one pod labelled k8s-app=machine-config-operator; none deferred when there are several or none):
        // it goes last, started once it is the only candidate left. The controller lists pods in every
        // namespace (its informer is the cluster-wide one: cmd/machine-config-controller/start.go).
        if p.name == "master" {
            let mut operators =
                ctx.pods().filter(|(o, _)| o.labels.get("k8s-app").is_some_and(|v| v == "machine-config-operator"));
            let node = match (operators.next(), operators.next()) {
                (Some((_, info)), None) => info.spec.node_name.as_deref(),
                _ => None,
            };
            if let Some(at) =
                node.and_then(|name| order.iter().position(|i| self.node(*i).is_some_and(|n| n.name() == name)))
            {
                let deferred = order.remove(at);
                order.push(deferred);
            }
        }
        // Capacity: maxUnavailable less the nodes already unavailable.
        let limit = budget::limit(ctx, p).concurrency;
        let concurrency = limit.saturating_sub(u32::try_from(unavailable).unwrap_or(u32::MAX)).max(1);
        let ph =
            PhaseSpec { name, pool: Some(p.name.clone()), concurrency, mode: Mode::Sliding, first: work, rest: work };
        let end = self.nodes_phase(ph, &order, start);
        let left: Vec<usize> = p.nodes.iter().copied().filter(never_picked).collect();
        for i in &left {
            let Some(n) = self.node(*i) else { continue };
            let why = Why {
                node: Some(n.name().to_owned()),
                start: None,
                outcome: "waits",
                code: "budget/node-unavailable",
                reason: format!(
                    "{} is cordoned: the MCO never picks an unschedulable node, so pool {} does not complete",
                    n.name(),
                    p.name
                ),
            };
            self.stop(name, Some(p.name.clone()), end.unwrap_or(start), why, &[]);
        }
        if left.is_empty() {
            end
        } else {
            None
        }
    }
}

/// The nodes a hop goes through when nothing stops it, as each hop of the plan picks them: a stop lists
/// those of them it leaves never started (`pending`), past its own phase too. A completed hop steps
/// exactly these (the tests check it on random clusters).
pub fn scope(ctx: &Cluster<'_>) -> Vec<usize> {
    let pools = budget::pools(ctx);
    let of = |role: PoolRole| pools.iter().filter(move |p| p.role == role && !p.paused);
    let reachable = |i: &usize| ctx.nodes.get(*i).is_some_and(|n| !n.info.unreachable);
    let control_plane = |i: &usize| ctx.nodes.get(*i).is_some_and(|n| n.is_control_plane());
    let mut out: Vec<usize> = Vec::new();
    match ctx.profile() {
        Profile::Kubeadm => {
            for p in of(PoolRole::ControlPlane).chain(of(PoolRole::Worker)) {
                out.extend(&p.nodes);
            }
        }
        Profile::Rke | Profile::RkeLegacy => {
            let legacy = ctx.profile() == Profile::RkeLegacy;
            let etcd: Vec<usize> = of(PoolRole::Etcd).flat_map(|p| p.nodes.clone()).collect();
            out.extend(etcd.iter().copied().filter(reachable));
            for p in of(PoolRole::ControlPlane) {
                out.extend(p.nodes.iter().copied().filter(|i| legacy || reachable(i)));
            }
            if !legacy {
                out.extend(etcd.iter().copied().filter(|i| !control_plane(i) && reachable(i)));
            }
            for p in of(PoolRole::Worker) {
                if legacy {
                    out.extend(&p.nodes);
                } else {
                    out.extend(
                        p.nodes.iter().copied().filter(|i| !control_plane(i) && !etcd.contains(i) && reachable(i)),
                    );
                }
            }
        }
        Profile::Kops => {
            for p in of(PoolRole::ControlPlane).chain(of(PoolRole::ApiServer)).chain(of(PoolRole::Worker)) {
                if p.settings.drain_and_terminate != Some(false) {
                    out.extend(&p.nodes);
                }
            }
        }
        Profile::Openshift => {
            for p in pools.iter().filter(|p| !p.paused) {
                out.extend(&p.nodes);
            }
        }
        Profile::GkeBaremetal => {
            for p in of(PoolRole::ControlPlane).chain(of(PoolRole::LoadBalancer)).chain(of(PoolRole::Worker)) {
                out.extend(&p.nodes);
            }
        }
    }
    crate::sort::sort(&mut out);
    out.dedup();
    out
}

/// The nodes of `nodes` an upgrade under way has still to upgrade (every one but those done), in their
/// order, those it is at now first.
pub fn left_to_upgrade(ctx: &Cluster<'_>, nodes: &[usize]) -> Vec<usize> {
    use crate::cluster::progress::Stage;
    let Some(u) = &ctx.underway else { return nodes.to_vec() };
    let stage = |i: usize| u.of(i).map_or(Stage::Unknown, |p| p.stage);
    let mut out: Vec<usize> = nodes.iter().copied().filter(|i| stage(*i) != Stage::Done).collect();
    crate::sort::sort_by_key(&mut out, |i| stage(*i) != Stage::InProgress);
    out
}

/// [`scope`] of one hop: when it finishes an upgrade under way, without the nodes already done.
pub fn hop_scope(ctx: &Cluster<'_>, finishing: bool) -> Vec<usize> {
    let all = scope(ctx);
    if finishing {
        let mut left = left_to_upgrade(ctx, &all);
        crate::sort::sort(&mut left);
        left
    } else {
        all
    }
}

/// Every node the upgrade leaves where it is, by pool, with why (`plan.leftOut`): the paused or pinned
/// pools ([`budget::left_out`]), then the nodes of the other pools that no hop goes through ([`scope`]):
/// RKE's hosts it cannot reach (`rke up` skips them and reports success), kOps instance groups with
/// `rollingUpdate.drainAndTerminate: false`. Nothing is left out in silence: `platform/pool-not-updated`
/// names each.
pub fn left_out(ctx: &Cluster<'_>) -> Vec<crate::report::LeftOut> {
    let mut out = budget::left_out(ctx);
    let pools = budget::pools(ctx);
    let scoped = scope(ctx);
    let home = budget::home_pools(&pools, ctx.nodes.len());
    let mut by_pool: Vec<(String, Vec<String>)> = Vec::new();
    for (i, n) in ctx.nodes.iter().enumerate() {
        if scoped.binary_search(&i).is_ok() {
            continue;
        }
        // Its pool: the one it is upgraded in (its etcd pool only when it has no other); a node of a paused
        // pool is already there, and a node in no pool is no hop's.
        let Some(pool) = home.get(i).copied().flatten().filter(|p| !p.paused) else { continue };
        match by_pool.iter_mut().find(|(name, _)| *name == pool.name) {
            Some((_, nodes)) => nodes.push(n.name().to_owned()),
            None => by_pool.push((pool.name.clone(), vec![n.name().to_owned()])),
        }
    }
    let reason = match ctx.profile() {
        Profile::Rke | Profile::RkeLegacy => {
            "RKE cannot reach it (its Ready condition is Unknown): `rke up` skips the hosts it cannot reach and still reports success, so it stays on its old version"
        }
        Profile::Kops => {
            "its instance group sets rollingUpdate.drainAndTerminate: false: kops rolling-update does not replace its instances, which keep their version"
        }
        _ => "no phase of this distribution's upgrade goes through it: it keeps its version",
    };
    for (pool, mut nodes) in by_pool {
        crate::sort::sort(&mut nodes);
        out.push(crate::report::LeftOut { pool, reason: reason.to_owned(), nodes });
    }
    out
}

/// The non-empty parts of a step's time.
fn segments(parts: &[(&'static str, u64)]) -> Vec<Segment> {
    parts.iter().filter(|(_, s)| *s > 0).map(|(kind, seconds)| Segment { kind, seconds: *seconds }).collect()
}

/// A node's time in its phase.
struct NodeTime<'a> {
    dur: Dur,
    /// Where a completed step's time goes (see [`Segment`]).
    segments: Vec<Segment>,
    blocked: Option<u64>,
    drained: bool,
    stall: Option<DrainStall<'a>>,
}

/// Why the plan stops somewhere.
struct Why {
    node: Option<String>,
    /// When the stuck node's step began.
    start: Option<u64>,
    outcome: &'static str,
    code: &'static str,
    reason: String,
}

/// What a phase of nodes is.
struct PhaseSpec {
    name: &'static str,
    pool: Option<String>,
    concurrency: u32,
    mode: Mode,
    first: Work,
    rest: Work,
}

impl PhaseSpec {
    /// One node at a time, no named pool.
    fn serial(name: &'static str, first: Work, rest: Work) -> PhaseSpec {
        PhaseSpec { name, pool: None, concurrency: 1, mode: Mode::Sliding, first, rest }
    }
}

/// Plan every hop of the path. Empty when there is nothing to upgrade. When a hop does not complete,
/// the plan ends there (`plan.complete` false, `plan.stops` says where and why).
pub fn build(ctx: &Cluster<'_>, timings: Timings) -> Outcome {
    let blocked = ctx.pdb_blocked_pods();
    // Pools are named where the distribution has them (instance groups, machine config pools, node pools).
    let pool_names = matches!(ctx.profile(), Profile::Kops | Profile::Openshift | Profile::GkeBaremetal);
    let mut b = Builder {
        ctx,
        t: timings,
        drains: ctx.drains(),
        blocked,
        out: Outcome::default(),
        hop: String::new(),
        hop_minor: 0,
        pool_names,
        last_end: 0,
        finishing: false,
        step_times: Vec::new(),
    };
    let (learned, step_times) = progress::learned(ctx);
    b.step_times = step_times;
    b.out.plan.learned = learned;
    let mut t = 0;
    let mut complete = true;
    // The distribution's own tool refuses to start (`cluster::platform`): nothing is upgraded.
    let refused = ctx.platform_gates().iter().filter(|g| g.stop == Some(GateStop::Refused)).collect::<Vec<_>>();
    if let (Some(g), Some(hop)) = (refused.first(), ctx.finishing.iter().chain(&ctx.path).next()) {
        b.hop = hop.to_string();
        let more = match refused.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more refusal(s): see the platform findings)"),
        };
        let all: Vec<usize> = (0..ctx.nodes.len()).collect();
        let why = Why {
            node: None,
            start: None,
            outcome: "fails",
            code: g.code,
            reason: format!("{}{more}; the upgrade does not start", g.message),
        };
        b.stop("preconditions", None, 0, why, &all);
        b.out.plan.complete = false;
        return b.out;
    }
    for (k, hop) in ctx.finishing.iter().chain(&ctx.path).enumerate() {
        b.hop = hop.to_string();
        b.hop_minor = hop.minor;
        // A hop that finishes an upgrade under way (its target is the one the platform records as under way,
        // or the one the API server already runs) goes through the nodes not done only.
        b.finishing = (k == 0 && ctx.finishing.is_some())
            || ctx.underway.as_ref().is_some_and(|u| u.platform && u.version.as_ref() == Some(hop));
        let first = b.out.plan.stops.len();
        match b.hop(t) {
            Some(end) => t = end,
            None => {
                b.unreached(first);
                complete = false;
                break;
            }
        }
    }
    if !complete {
        // The plan ends where the last thing that happens ends.
        let plan = &b.out.plan;
        t = plan
            .phases
            .iter()
            .map(|p| p.end_seconds)
            .chain(plan.stops.iter().map(|s| s.at_seconds))
            .chain(b.out.windows.iter().map(|w| w.end))
            .max()
            .unwrap_or(t);
    }
    b.out.plan.total_seconds = t;
    b.out.plan.complete = complete;
    b.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliding_window_releases_slots_as_nodes_finish() {
        // The MCO seed: 5 nodes, maxUnavailable 3; node 2 finishes first, then 1, then 3; 5 before 4.
        let d = [100, 50, 130, 120, 60];
        let s = schedule(&d, 3, Mode::Sliding, 0);
        assert_eq!(s, vec![(0, 100), (0, 50), (0, 130), (50, 170), (100, 160)]);
    }

    #[test]
    fn batches_wait_for_the_whole_batch() {
        assert_eq!(schedule(&[10, 30, 20], 2, Mode::Batch, 5), vec![(5, 15), (5, 35), (35, 55)]);
    }

    #[test]
    fn start_with_one_then_the_window() {
        assert_eq!(schedule(&[10, 10, 10, 10], 3, Mode::StartWithOne, 0), vec![(0, 10), (10, 20), (10, 20), (10, 20)]);
        assert!(schedule(&[], 3, Mode::StartWithOne, 0).is_empty());
    }
}
