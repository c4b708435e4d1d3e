//! Expected downtime, from the plan's simulation (DOMAIN section 7).
//!
//! Components: what the distribution itself takes down (the GKE on Bare Metal table; the API for a single
//! control-plane node or etcd member; RKE < 1.1's iptables flush). Workloads: for each controller, the
//! seconds during which none of its replicas is Ready, given where its pods run and when each node is out.

use super::{NodeWindow, Outcome, Timings};
use crate::cluster::nodes::etcd_members;
use crate::cluster::{Cluster, WorkloadKey};
use crate::options::Profile;
use crate::report::{ComponentDowntime, Downtime, Window, WorkloadDowntime};
use crate::units::duration;

/// The outcome of one workload that is down at some time in the plan (`seconds > 0`, or `open`), kept for
/// the rules that read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadOutcome<'a> {
    pub key: WorkloadKey<'a>,
    pub replicas: usize,
    pub seconds: u64,
    pub reason: String,
    /// Were all replicas on nodes out at the same time (two or more replicas)?
    pub same_window: bool,
    pub nodes: Vec<String>,
    /// Why pods could not simply move (`cannot move: ...`, the iptables flush).
    pub causes: Vec<String>,
    /// When no replica is Ready, in order.
    pub windows: Vec<(u64, u64)>,
    /// The last window does not end: the plan stops with the workload down.
    pub open: bool,
}

/// The length of an eviction that never ends (a pod that cannot move off a node that never returns).
const OPEN: u64 = u64::MAX;

fn merge(mut v: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    crate::sort::sort(&mut v);
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (s, e) in v {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The stretches during which every replica is down at once, in order.
fn all_down(replicas: &[Vec<(u64, u64)>]) -> Vec<(u64, u64)> {
    let mut events: Vec<(u64, i64)> = Vec::new();
    for r in replicas {
        for (s, e) in merge(r.clone()) {
            events.push((s, 1));
            events.push((e, -1));
        }
    }
    crate::sort::sort(&mut events);
    let n = i64::try_from(replicas.len()).unwrap_or(i64::MAX);
    let (mut down, mut since) = (0i64, 0u64);
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (t, d) in events {
        if down == n && n > 0 && t > since {
            match out.last_mut() {
                Some(last) if last.1 == since => last.1 = t,
                _ => out.push((since, t)),
            }
        }
        down += d;
        if down == n && n > 0 {
            since = t;
        }
    }
    out
}

/// Why a pod cannot move when its node is drained, if it cannot. `fit` lists the nodes its spec fits,
/// `reach` those of them that can also reach its volumes.
fn stuck_reason(node: usize, fit: &[usize], reach: &[usize]) -> Option<String> {
    // A hostPath volume ties the pod to no node: the drain evicts it (kubectl's drain filters refuse only
    // emptyDir, `localStorageFilter`) and the scheduler places it anywhere (a hostPath adds no node
    // affinity); its data stays behind (`disruption/local-storage` says so).
    let elsewhere = |nodes: &[usize]| nodes.iter().any(|i| *i != node);
    if !elsewhere(fit) {
        return Some("no other node satisfies its selector, affinity and taints".to_owned());
    }
    (!elsewhere(reach)).then(|| "no other node it fits can reach its volumes (their node or zone)".to_owned())
}

/// The rows of RKE's add-ons (cluster.yml's `ingress`, `network`, `dns`, `monitoring`), from each one's
/// `update_strategy` as RKE resolves it: rolled after the worker plane on `rke up`.
pub fn rke_addon_rows(cfg: &crate::model::distro::RkeConfig) -> Vec<ComponentDowntime> {
    use crate::quantity::IntOrPercent;
    cfg.addons
        .iter()
        .map(|a| {
            let set = if a.given { "update_strategy" } else { "RKE's default" };
            let expected = match (a.strategy.as_str(), a.kind) {
                ("OnDelete", _) => format!("not replaced by rke up: its pods keep the old version until each is deleted ({set}: OnDelete)"),
                ("Recreate", _) => format!("down while its pods are replaced: every replica is stopped before the new ones start ({set}: Recreate)"),
                (_, "DaemonSet") => format!(
                    "one node's pod at a time ({set}: RollingUpdate, maxUnavailable {}); none where clients reach it on several nodes",
                    a.max_unavailable
                ),
                _ => {
                    let surge = a.max_surge.map_or_else(String::new, |s| format!(", maxSurge {s}"));
                    let none_left = matches!(a.max_unavailable, IntOrPercent::Percent(100));
                    format!(
                        "{} ({set}: RollingUpdate, maxUnavailable {}{surge})",
                        if none_left { "down while every replica is replaced at once" } else { "none with two or more replicas: rolled a few at a time" },
                        a.max_unavailable
                    )
                }
            };
            ComponentDowntime {
                component: format!("{} ({}, cluster.yml {})", a.what, a.kind, a.key),
                expected,
                when: "after the worker plane, as rke up deploys the add-ons".into(),
            }
        })
        .collect()
}

/// The downtime, and the outcome of each workload that is down at some time.
pub fn compute<'a>(ctx: &Cluster<'a>, outcome: &Outcome, t: &Timings) -> (Downtime, Vec<WorkloadOutcome<'a>>) {
    let placed = &outcome.placed;
    // The distribution's tool refuses to start (`cluster::platform`): nothing is touched, nothing is down.
    if outcome.plan.stops.iter().any(|s| s.phase == "preconditions") {
        return (Downtime::default(), Vec::new());
    }
    let mut components = Vec::new();
    let cps: Vec<_> = ctx.nodes.iter().filter(|n| n.is_control_plane()).collect();
    let cp_step: Vec<&NodeWindow> = outcome.windows.iter().filter(|w| w.phase == "control-plane").collect();
    if cps.len() == 1 {
        let secs: u64 = cp_step.iter().map(|w| w.end - w.start).sum();
        components.push(ComponentDowntime {
            component: "kube-apiserver (single control-plane node)".into(),
            expected: format!(
                "down for the whole control-plane step, about {} per hop",
                duration(secs / ctx.path.len().max(1) as u64)
            ),
            when: "while the control-plane node upgrades".into(),
        });
    }
    let etcd = etcd_members(ctx);
    if etcd.len() == 1 {
        components.push(ComponentDowntime {
            component: "etcd (single member)".into(),
            expected: format!(
                "the API cannot read or write while the member restarts, about {}",
                duration(t.etcd_member)
            ),
            // RKE has an etcd plane of its own; elsewhere etcd is stacked on the control-plane node.
            when: if matches!(ctx.profile(), Profile::Rke | Profile::RkeLegacy) {
                "during the etcd step".into()
            } else {
                "while its control-plane node upgrades".into()
            },
        });
    }
    match ctx.profile() {
        Profile::GkeBaremetal => {
            let after_cp = "after the control-plane nodes are upgraded";
            for (c, e, w) in [
                ("kube-apiserver, etcd, scheduler", "none (HA control plane)", ""),
                ("lifecycle controllers, ansible-runner job (admin clusters)", "none", ""),
                ("control-plane load balancer (haproxy, keepalived)", "brief, under 1-2 min, while the load balancer moves traffic", "at the start of the upgrade"),
                ("observability (log pipeline, metrics-server)", "operator drained and upgraded, under 5 min; DaemonSets keep running", after_cp),
                ("CNI", "none for existing routes; operator under 5 min", after_cp),
                ("MetalLB (user clusters)", "operator under 5 min; existing services keep working", after_cp),
                ("CoreDNS and DNS autoscaling (user clusters)", "usually none (several replicas, autoscaled)", after_cp),
                ("local volume provisioner", "none for existing PVs; operator up to 5 min", after_cp),
                ("Istio / ingress", "operator about 5 min; configured ingress keeps working", after_cp),
                ("other operators", "5 min while drained and upgraded", after_cp),
                ("user workloads", "depends on their setup (replicas, PDBs): see the workloads below", "while worker nodes upgrade"),
            ] {
                // The table assumes an HA control plane (seed: "assumes several cluster nodes and a
                // control plane for high availability"): with one control-plane node or one etcd member
                // the rows above say what is down instead, and the controllers that run on it go too.
                let ha_only = c.starts_with("kube-apiserver") || c.starts_with("lifecycle controllers");
                if ha_only && (cps.len() <= 1 || etcd.len() <= 1) {
                    continue;
                }
                components.push(ComponentDowntime { component: c.into(), expected: e.into(), when: w.into() });
            }
        }
        Profile::RkeLegacy => components.push(ComponentDowntime {
            component: "kube-proxy (iptables flush)".into(),
            expected: format!("every pod on a worker is unreachable for about {} while kube-proxy restarts and flushes iptables", duration(t.iptables_flush)),
            when: "as each worker batch upgrades".into(),
        }),
        Profile::Openshift => components.push(ComponentDowntime {
            component: "cluster operators".into(),
            expected: format!("Progressing for about {} (60-120 min) while the CVO applies the release; the API stays up with an HA control plane", duration(t.cluster_operators)),
            when: "before the machine config pools update".into(),
        }),
        _ => {}
    }

    // Workloads.
    let mut windows_of: Vec<Vec<&NodeWindow>> = vec![Vec::new(); ctx.nodes.len()];
    for w in &outcome.windows {
        if let Some(v) = windows_of.get_mut(w.node) {
            v.push(w);
        }
    }
    let plan_end = outcome.plan.total_seconds;
    // The hops (as windows name them) whose kubelet restarts every container when upgraded in place, and
    // the source that says so ([`crate::cluster::upgrade::restarts_containers`]): found once, not per pod.
    let restarts: Vec<(String, &str)> = ctx
        .path
        .iter()
        .filter_map(|h| crate::cluster::upgrade::restarts_containers(h.minor).map(|s| (h.to_string(), s)))
        .collect();
    let restart_hop = |hop: &str| restarts.iter().find(|(h, _)| h == hop).map(|(_, s)| *s);
    let mut results = Vec::new();
    for (key, pods) in ctx.pods_by_controller() {
        if key.kind == "DaemonSet" || key.kind == "Node" {
            continue;
        }
        let mut replicas: Vec<Vec<(u64, u64)>> = Vec::new();
        // Evictions (start, length, replica): a PodDisruptionBudget may hold them back.
        let mut evictions: Vec<(u64, u64, usize)> = Vec::new();
        // Sorted and each once at the end (a list rather than a B-tree map: one map type less in the wasm).
        let mut reasons: Vec<String> = Vec::new();
        let mut nodes: Vec<String> = Vec::new();
        // The pods of one controller share a spec: where it fits is computed once.
        let fit: std::rc::Rc<[usize]> = match pods.first() {
            Some((_, p0, _)) => ctx.eligible_nodes(&p0.spec),
            None => std::rc::Rc::from([]),
        };
        // A replica that is not Ready in the snapshot serves nothing: down from the start (and a workload
        // with no Ready replica is down before the upgrade begins: not the upgrade's downtime).
        if !pods.iter().any(|(_, p, _)| p.ready != Some(false)) {
            continue;
        }
        // A replacement an admission webhook refused: the replicas are down together for that, not for
        // their nodes being out together.
        let mut refused = false;
        for (r, (pod_obj, pod, node_name)) in pods.iter().enumerate() {
            let mut down = Vec::new();
            if pod.ready == Some(false) {
                down.push((0, OPEN));
            }
            let home = ctx.node_index(node_name);
            if home.is_some() {
                nodes.push((*node_name).to_owned());
            }
            // Every eviction of the pod, from its node or from one it landed on earlier, as the placement
            // replay saw it.
            for (k, m) in placed.moves_of(pod_obj).enumerate() {
                if k > 0 && Some(m.from) != home {
                    if let Some(n) = ctx.nodes.get(m.from) {
                        reasons.push(format!(
                            "{} lands on {}, drained later in the plan, and is evicted again",
                            pod_obj.r.name,
                            n.name()
                        ));
                    }
                }
                let w = windows_of
                    .get(m.from)
                    .and_then(|ws| ws.iter().find(|w| w.drained && w.start <= m.evicted && m.evicted <= w.end));
                let back_of_node = w.and_then(|w| (w.stuck.is_none()).then_some(w.end));
                match stuck_reason(m.from, &fit, &ctx.pod_eligible(pod_obj, &pod.spec, &fit)) {
                    Some(why) => {
                        // It comes back only with its node (never, when the node's drain never ends).
                        let len = back_of_node.map_or(OPEN, |e| (e + t.pod_start).saturating_sub(m.evicted));
                        evictions.push((m.evicted, len, r));
                        reasons.push(format!("{} cannot move: {why}", pod_obj.r.name));
                    }
                    None => {
                        // A StatefulSet creates the replacement of a pod (same name, same identity) only
                        // once the old one is gone (stateful_set_control.go: it waits while a pod is
                        // terminating): the grace period, taken in full, before the replacement starts.
                        let gone = if key.kind == "StatefulSet" {
                            let grace = pod
                                .spec
                                .termination_grace_seconds
                                .map_or(t.pod_eviction, |g| g.clamp(0, super::MAX_SECONDS).unsigned_abs());
                            if grace > 0 {
                                reasons.push(
                                    format!(
                                        "{}'s replacement is created only once it is gone (a StatefulSet keeps one pod per identity): its {} grace period, taken in full",
                                        pod_obj.r.name,
                                        duration(grace)
                                    ));
                            }
                            m.evicted.saturating_add(grace)
                        } else {
                            m.evicted
                        };
                        let len = m.placed.map_or(OPEN, |p| (p.max(gone) + t.pod_start).saturating_sub(m.evicted));
                        if let Some(g) = m.refused.and_then(|k| ctx.pod_gate(k)) {
                            refused = true;
                            let how = match g {
                                crate::cluster::admission::PodGate::Webhook(_) => "while it has no backend",
                                crate::cluster::admission::PodGate::Policy(_) => "whose parameters fail",
                            };
                            reasons.push(format!(
                                "{}'s replacement is refused by {} {how} ({})",
                                pod_obj.r.name,
                                g.name(),
                                g.code()
                            ));
                        } else if m.placed != Some(m.evicted) {
                            reasons.push(format!(
                                "{} stays Pending: no node that is up has room for it (capacity/insufficient-headroom)",
                                pod_obj.r.name
                            ));
                        }
                        evictions.push((m.evicted, len, r));
                    }
                }
            }
            if let Some(ni) = home {
                for w in windows_of.get(ni).map_or(&[][..], Vec::as_slice) {
                    if w.drained {
                        continue;
                    }
                    if let Some(source) = restart_hop(&w.hop) {
                        // Upgraded in place across a container-hash change: the new kubelet restarts
                        // every container on its node as it comes up.
                        let up = w.end;
                        down.push((up.saturating_sub(t.pod_start).max(w.start), up));
                        reasons.push(format!(
                            "the kubelet upgraded in place to {} restarts every container on its node ({source})",
                            w.hop
                        ));
                    } else if t.iptables_flush > 0 && w.phase == "workers" {
                        down.push((w.start, w.start + t.iptables_flush));
                        reasons.push("kube-proxy flushes iptables on its node".into());
                    }
                }
            }
            replicas.push(down);
        }
        // A drain that honours budgets evicts no more replicas at once than the budget allows: a later
        // eviction waits until an earlier replica is back (the node's drain takes that much longer).
        let budget = ctx.pdb_allowance(pods).filter(|_| ctx.drain_honours_pdbs());
        crate::sort::sort(&mut evictions);
        let mut active: Vec<u64> = Vec::new();
        for (start, len, r) in evictions {
            let mut s = start;
            if let Some(allowed) = budget {
                loop {
                    active.retain(|end| *end > s);
                    if active.len() < allowed {
                        break;
                    }
                    s = active.iter().copied().min().unwrap_or(s);
                }
            }
            // The plan's drains end by its end: an eviction the budget pushes past it (a pod evicted again
            // from the node it landed on, late in the plan) is counted up to the plan's end.
            let s = s.min(plan_end);
            let e =
                if len >= OPEN / 2 { s.saturating_add(len) } else { s.saturating_add(len).min(plan_end + t.pod_start) };
            active.push(e);
            if let Some(d) = replicas.get_mut(r) {
                d.push((s, e));
            }
        }
        let mut windows = all_down(&replicas);
        // A window that never ends is counted up to the plan's end and said to last until someone intervenes.
        let open = windows.last().is_some_and(|(_, e)| *e >= OPEN / 2);
        if let Some(last) = windows.last_mut().filter(|_| open) {
            last.1 = plan_end.max(last.0);
        }
        let seconds: u64 = windows.iter().map(|(s, e)| e - s).sum();
        // A workload never down is in no report and no rule: nothing of it is kept (at 150,000 pods, the
        // words and node lists of every workload were 60 MB).
        if seconds == 0 && !open {
            continue;
        }
        crate::sort::sort(&mut nodes);
        nodes.dedup();
        let same_window = replicas.len() >= 2 && seconds > 0 && !refused;
        let not_ready = pods.iter().filter(|(_, p, _)| p.ready == Some(false)).count();
        let mut reason = if replicas.len() == 1 {
            format!("a single replica, on {}", nodes.join(", "))
        } else if same_window && not_ready > 0 {
            format!(
                "{not_ready} of its {} replicas are not Ready in the snapshot and serve nothing; the others are on {}",
                replicas.len(),
                nodes.join(", ")
            )
        } else if same_window {
            format!("all {} replicas are on nodes out at the same time ({})", replicas.len(), nodes.join(", "))
        } else if refused && seconds > 0 {
            format!("all {} replicas are down at the same time (on {})", replicas.len(), nodes.join(", "))
        } else {
            String::new()
        };
        crate::sort::sort_dedup(&mut reasons);
        let causes = reasons;
        for r in &causes {
            if !reason.is_empty() {
                reason.push_str("; ");
            }
            reason.push_str(r);
        }
        if let Some((at, _)) = windows.first() {
            reason.push_str(&format!("; first down at {}", duration(*at)));
        }
        if open {
            reason.push_str("; still down when the plan ends: down until someone intervenes");
        }
        let replicas = replicas.len();
        results.push(WorkloadOutcome {
            key: *key,
            replicas,
            seconds,
            reason,
            same_window,
            nodes,
            causes,
            windows,
            open,
        });
    }
    let mut workloads: Vec<WorkloadDowntime> = results
        .iter()
        .filter(|r| r.seconds > 0 || r.open)
        .map(|r| WorkloadDowntime {
            kind: r.key.kind.to_string(),
            namespace: r.key.namespace.to_string(),
            name: r.key.name.to_string(),
            seconds: r.seconds,
            reason: r.reason.clone(),
            windows: r.windows.iter().map(|(s, e)| Window { start_seconds: *s, end_seconds: *e }).collect(),
            until_intervention: r.open,
        })
        .collect();
    crate::sort::sort_by(&mut workloads, |a, b| {
        (b.seconds, &a.namespace, &a.kind, &a.name).cmp(&(a.seconds, &b.namespace, &b.kind, &b.name))
    });
    (Downtime { components, workloads, partial: !outcome.plan.complete }, results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn down_only_while_every_replica_is() {
        assert_eq!(all_down(&[vec![(0, 10)], vec![(5, 20)]]), [(5, 10)]);
        assert_eq!(all_down(&[vec![(0, 10)], vec![(10, 20)]]), []);
        assert_eq!(all_down(&[vec![(0, 10), (30, 40)]]), [(0, 10), (30, 40)]);
        assert_eq!(all_down(&[vec![(0, 10)], vec![]]), []);
        // Touching stretches of one replica are one window; two replicas down over two stretches.
        assert_eq!(all_down(&[vec![(0, 10), (10, 15)]]), [(0, 15)]);
        assert_eq!(all_down(&[vec![(0, 10), (20, 30)], vec![(5, 25)]]), [(5, 10), (20, 25)]);
    }
}
