//! `progress`: the upgrade the snapshot shows under way ([`crate::cluster::progress`]), put beside the
//! plan made from the same snapshot (its remaining work, where it stops) and, with `--since`, beside the
//! plan of the report taken before the upgrade started: what is done, what is stuck and on what, how far
//! ahead or behind, and when it should end.

use crate::budget;
use crate::cluster::progress::{Stage, Underway};
use crate::cluster::Cluster;
use crate::options::Since;
use crate::report::{NodeProgress, Plan, Progress, ProgressCounts, SinceProgress, Stuck};
use crate::units::{duration, format_timestamp, timestamp};

/// The rule that names a stalled node the plan does not predict.
pub const NODE_STUCK: &str = "progress/node-stuck";

/// The latest time the snapshot states: its nodes' last heartbeats (`inventory.snapshotTime`).
pub fn snapshot_time(ctx: &Cluster<'_>) -> Option<String> {
    ctx.nodes
        .iter()
        .filter_map(|n| n.info.heartbeat.as_deref())
        .filter_map(|t| Some((timestamp(t)?, t)))
        .max_by_key(|(s, _)| *s)
        .map(|(s, _)| format_timestamp(s))
}

/// The stalled nodes of an upgrade under way: a Machine Config Daemon that reports Degraded (oc: "Update
/// Stalled"), or a node being upgraded where the plan stops (its drain never ends).
pub fn stuck(ctx: &Cluster<'_>, u: &Underway, plan: &Plan) -> Vec<Stuck> {
    let mut out = Vec::new();
    for p in &u.nodes {
        let Some(n) = ctx.nodes.get(p.node) else { continue };
        let stop = plan.stops.iter().find(|s| s.node.as_deref() == Some(n.name()));
        let in_progress = p.stage == Stage::InProgress;
        match (&p.degraded, stop) {
            (Some(reason), Some(s)) => out.push(Stuck {
                node: n.name().to_owned(),
                cause: format!("{reason}; the plan stops here too: {}", s.reason),
                code: s.code,
                predicted: true,
            }),
            (Some(reason), None) => out.push(Stuck {
                node: n.name().to_owned(),
                cause: format!(
                    "{reason} (the Machine Config Daemon reports Degraded; nothing the checks read predicts it)"
                ),
                code: NODE_STUCK,
                predicted: false,
            }),
            (None, Some(s)) if in_progress => {
                out.push(Stuck { node: n.name().to_owned(), cause: s.reason.clone(), code: s.code, predicted: true })
            }
            _ => {}
        }
    }
    for (i, over, end) in overdue(ctx) {
        let Some(n) = ctx.nodes.get(i) else { continue };
        if out.iter().any(|s| s.node == n.name()) {
            continue;
        }
        out.push(Stuck {
            node: n.name().to_owned(),
            cause: format!(
                "still being upgraded {} past its planned end ({} into the upgrade); nothing the checks read explains it",
                duration(over),
                duration(end)
            ),
            code: NODE_STUCK,
            predicted: false,
        });
    }
    out
}

/// The `progress` section: `None` when no upgrade is under way and no `--since` was given.
pub fn progress(ctx: &Cluster<'_>, plan: &Plan, since: Option<&Since>, now: Option<&str>) -> Option<Progress> {
    let u = ctx.underway.as_ref();
    if u.is_none() && since.is_none() {
        return None;
    }
    let pools = budget::pools(ctx);
    let home = budget::home_pools(&pools, ctx.nodes.len());
    let mut left_out: Vec<String> = crate::plan::left_out(ctx).into_iter().flat_map(|l| l.nodes).collect();
    crate::sort::sort(&mut left_out);
    let stuck = u.map(|u| stuck(ctx, u, plan)).unwrap_or_default();
    let planned = since.map(windows).unwrap_or_default();
    let finished = since.is_some_and(|s| reached(ctx, &s.to));
    let mut nodes: Vec<((bool, Stage), NodeProgress)> = Vec::new();
    let mut counts = ProgressCounts { total: ctx.nodes.len(), ..ProgressCounts::default() };
    for (i, n) in ctx.nodes.iter().enumerate() {
        let p = u.and_then(|u| u.of(i));
        let name = n.name();
        // Without an upgrade under way (only `--since`), every node is where the current version is: done when
        // that is the earlier report's target, else not started.
        let mut stage = p.map_or(
            match u {
                Some(_) => Stage::Unknown,
                None if finished => Stage::Done,
                None => Stage::NotStarted,
            },
            |p| p.stage,
        );
        if stage != Stage::Done && left_out.binary_search_by(|l| l.as_str().cmp(name)).is_ok() {
            stage = Stage::Excluded;
        }
        match stage {
            Stage::Done => counts.done += 1,
            Stage::InProgress => counts.in_progress += 1,
            Stage::NotStarted => counts.not_started += 1,
            Stage::Excluded => counts.left_out += 1,
            Stage::Unknown => counts.unknown += 1,
        }
        let is_stuck = stuck.iter().any(|s| s.node == name);
        let detail = p.and_then(|p| {
            p.degraded
                .as_ref()
                .map(|d| format!("degraded: {d}"))
                .or_else(|| p.unavailable.as_ref().map(|w| format!("unavailable: {w}")))
        });
        let window = planned.window(name);
        nodes.push((
            // Stuck first, then in the order of `Stage` (in progress, not started, left out, unknown, done).
            (!is_stuck, stage),
            NodeProgress {
                node: name.to_owned(),
                pool: home.get(i).copied().flatten().map(|p| p.name.clone()),
                stage: stage.as_str(),
                step: p.and_then(|p| p.step).map(|s| s.as_str()),
                version: p.and_then(|p| p.version.clone()).or_else(|| n.info.kubelet_version.clone()),
                detail,
                planned_start_seconds: window.map(|w| w.0),
                planned_end_seconds: window.map(|w| w.1),
            },
        ));
    }
    crate::sort::sort_by(&mut nodes, |a, b| a.0.cmp(&b.0).then_with(|| a.1.node.cmp(&b.1.node)));
    let nodes: Vec<NodeProgress> = nodes.into_iter().map(|(_, n)| n).collect();
    let remaining = counts.in_progress + counts.not_started + counts.unknown;
    let state = match (u, since) {
        (Some(_), _) if !stuck.is_empty() => "stuck",
        (Some(_), _) => "in-progress",
        (None, Some(_)) if finished => "finished",
        (None, _) => "not-started",
    };
    let remaining_seconds =
        (plan.complete && remaining > 0).then_some(plan.total_seconds).or((remaining == 0).then_some(0));
    let now_secs = now.and_then(timestamp);
    let expected_end = match (now_secs, remaining_seconds) {
        (Some(t), Some(r)) => Some(format_timestamp(t.saturating_add(i64::try_from(r).unwrap_or(i64::MAX)))),
        _ => None,
    };
    let completion_percent = u32::try_from(counts.done * 100 / counts.total.max(1)).unwrap_or(100);
    let target = u.map_or_else(|| since.map(|s| s.to.clone()).unwrap_or_default(), |u| u.target.clone());
    let started = u.and_then(|u| u.started.clone());
    let since = since
        .map(|s| against(s, &planned, &nodes, started.as_deref(), now, remaining_seconds, expected_end.as_deref()));
    let mut p = Progress {
        state,
        summary: String::new(),
        target,
        read_from: u.map_or_else(
            || {
                if finished {
                    "no upgrade under way: every node is at the earlier report's target".to_owned()
                } else {
                    "no upgrade under way: the cluster is where the earlier report found it, not at its target"
                        .to_owned()
                }
            },
            |u| u.read_from.clone(),
        ),
        started,
        control_plane_done: u.is_none_or(|u| u.control_plane_done),
        operators: u.and_then(|u| u.operators.as_ref()).map(|o| crate::report::OperatorProgress {
            total: o.total,
            updated: o.updated,
            updating: o.updating.clone(),
            waiting: o.waiting,
        }),
        completion_percent,
        counts,
        nodes,
        stuck,
        remaining_seconds,
        expected_end,
        caveat: u.and_then(|u| u.caveat.clone()),
        since,
    };
    p.summary = headline(&p);
    Some(p)
}

/// Each node's window in the `--since` plan (its first start, its last end), in that plan's order, and by
/// name for lookups.
#[derive(Default)]
struct Windows<'s> {
    in_order: Vec<(&'s str, u64, u64)>,
    /// (name, position in `in_order`), sorted by name.
    by_name: Vec<(&'s str, usize)>,
}

impl Windows<'_> {
    fn window(&self, node: &str) -> Option<(u64, u64)> {
        let k = self.by_name.binary_search_by(|(n, _)| (*n).cmp(node)).ok()?;
        let (_, at) = self.by_name.get(k)?;
        self.in_order.get(*at).map(|(_, s, e)| (*s, *e))
    }
}

fn windows(since: &Since) -> Windows<'_> {
    let mut w = Windows::default();
    for (node, s, e) in &since.steps {
        let found = w.by_name.binary_search_by(|(n, _)| (*n).cmp(node.as_str()));
        match found.ok().and_then(|k| w.by_name.get(k)).and_then(|(_, at)| w.in_order.get_mut(*at)) {
            Some(win) => {
                win.1 = win.1.min(*s);
                win.2 = win.2.max(*e);
            }
            None => {
                let at = w.in_order.len();
                w.in_order.push((node.as_str(), *s, *e));
                let k = found.unwrap_or_else(|k| k);
                w.by_name.insert(k, (node.as_str(), at));
            }
        }
    }
    w
}

/// Is the cluster at (or past) `to`, the earlier report's target?
fn reached(ctx: &Cluster<'_>, to: &str) -> bool {
    let Ok(to) = crate::version::Version::parse_for(to, ctx.profile() == crate::options::Profile::GkeBaremetal) else {
        return false;
    };
    ctx.from.as_ref().is_some_and(|f| f.scheme_cmp(&to) != Some(std::cmp::Ordering::Less))
}

/// How long the upgrade has run at this snapshot (`now`), and how that was measured: from the update's
/// recorded start, else from the earlier report's snapshot time.
fn elapsed(since: &Since, started: Option<&str>, now: Option<&str>) -> (Option<u64>, String) {
    match (now.and_then(timestamp), started.and_then(timestamp), since.snapshot_time.as_deref().and_then(timestamp)) {
        (Some(n), Some(s), _) => (
            u64::try_from(n - s).ok(),
            "since the update started (ClusterVersion status.history[0].startedTime) to this snapshot's time"
                .to_owned(),
        ),
        (Some(n), None, Some(b)) => (
            u64::try_from(n - b).ok(),
            "from the earlier report's snapshot time (taken as the upgrade's start) to this snapshot's time".to_owned(),
        ),
        _ => (None, "unknown: a snapshot states no time (inventory.snapshotTime: its nodes' heartbeats)".to_owned()),
    }
}

/// A node being upgraded that has run past its window in the `--since` plan by more than its planned step
/// (and ten minutes): its position in `Cluster::nodes`, the seconds past its planned end, and that end.
pub fn overdue(ctx: &Cluster<'_>) -> Vec<(usize, u64, u64)> {
    let (Some(u), Some(since)) = (&ctx.underway, &ctx.options.since) else { return Vec::new() };
    let now = snapshot_time(ctx);
    let Some(t) = elapsed(since, u.started.as_deref(), now.as_deref()).0 else { return Vec::new() };
    let planned = windows(since);
    let mut out = Vec::new();
    for p in u.nodes.iter().filter(|p| p.stage == Stage::InProgress) {
        let Some(n) = ctx.nodes.get(p.node) else { continue };
        let Some((start, end)) = planned.window(n.name()) else { continue };
        let slack = (end - start).max(600);
        if t > end.saturating_add(slack) {
            out.push((p.node, t - end, end));
        }
    }
    out
}

/// The upgrade against the earlier plan: how long it has run, how many nodes that plan had done by then,
/// how far ahead or behind.
fn against(
    since: &Since,
    planned: &Windows<'_>,
    nodes: &[NodeProgress],
    started: Option<&str>,
    now: Option<&str>,
    remaining: Option<u64>,
    expected_end: Option<&str>,
) -> SinceProgress {
    let (elapsed, elapsed_from) = elapsed(since, started, now);
    let mut now_names: Vec<(&str, bool)> =
        nodes.iter().map(|n| (n.node.as_str(), n.stage == Stage::Done.as_str())).collect();
    crate::sort::sort(&mut now_names);
    let now_has = |name: &str| now_names.binary_search_by(|(n, _)| n.cmp(&name)).ok().and_then(|k| now_names.get(k));
    let actual_done = planned.in_order.iter().filter(|(n, _, _)| now_has(n).is_some_and(|(_, done)| *done)).count();
    let mut ends: Vec<u64> = planned.in_order.iter().map(|(_, _, e)| *e).collect();
    crate::sort::sort(&mut ends);
    let planned_done = elapsed.map(|t| ends.iter().filter(|e| **e <= t).count());
    // On schedule while the plan's k-th node end <= t < its (k+1)-th, k the nodes done.
    let behind = elapsed.map(|t| {
        let reached = actual_done.checked_sub(1).and_then(|k| ends.get(k)).copied().unwrap_or(0);
        match ends.get(actual_done) {
            Some(next) if t > *next => i64::try_from(t - next).unwrap_or(i64::MAX),
            _ if t < reached => -i64::try_from(reached - t).unwrap_or(i64::MAX),
            _ => 0,
        }
    });
    let gone: Vec<String> =
        planned.in_order.iter().filter(|(n, _, _)| now_has(n).is_none()).map(|(n, _, _)| (*n).to_owned()).collect();
    let new: Vec<String> = nodes.iter().filter(|x| planned.window(&x.node).is_none()).map(|x| x.node.clone()).collect();
    let pace = match behind {
        Some(b) if b > 0 => format!("{} behind the plan", duration(b.unsigned_abs())),
        Some(b) if b < 0 => format!("{} ahead of the plan", duration(b.unsigned_abs())),
        Some(_) => "on schedule".to_owned(),
        None => "its pace unknown (no times to compare)".to_owned(),
    };
    let at = match (elapsed, planned_done) {
        (Some(t), Some(p)) => {
            format!(
                " after {}: {actual_done} of {} planned node(s) done, the plan had {p}",
                duration(t),
                planned.in_order.len()
            )
        }
        _ => format!(": {actual_done} of {} planned node(s) done", planned.in_order.len()),
    };
    let end = match (remaining, expected_end) {
        (Some(0), _) => "; nothing left".to_owned(),
        (Some(r), Some(e)) => format!("; the rest takes {} from this snapshot, to end about {e}", duration(r)),
        (Some(r), None) => format!("; the rest takes {} from this snapshot", duration(r)),
        (None, _) => "; the rest does not complete as planned now (plan.stops)".to_owned(),
    };
    SinceProgress {
        planned_seconds: since.total_seconds,
        elapsed_seconds: elapsed,
        elapsed_from,
        planned_done,
        actual_done,
        behind_seconds: behind,
        gone,
        new,
        summary: format!("{pace}{at}{end}"),
    }
}

/// The control plane's operators in words (`progress.operators`): `2 of 33 operators updated, 1 updating
/// (kube-apiserver), 30 waiting`.
pub fn operators_line(o: &crate::report::OperatorProgress) -> String {
    let updating = if o.updating.is_empty() {
        "0 updating".to_owned()
    } else {
        format!("{} updating ({})", o.updating.len(), o.updating.join(", "))
    };
    format!("{} of {} operators updated, {updating}, {} waiting", o.updated, o.total, o.waiting)
}

/// The progress in one line (`progress.summary`, which every face shows).
fn headline(p: &Progress) -> String {
    let c = &p.counts;
    let mut s = format!(
        "upgrade to {} {}: {}% ({} of {} nodes done, {} in progress, {} not started",
        p.target, p.state, p.completion_percent, c.done, c.total, c.in_progress, c.not_started
    );
    if c.left_out > 0 {
        s.push_str(&format!(", {} left out", c.left_out));
    }
    if c.unknown > 0 {
        s.push_str(&format!(", {} unknown", c.unknown));
    }
    s.push(')');
    match (p.remaining_seconds, &p.expected_end) {
        (Some(0), _) => {}
        (Some(r), Some(e)) => s.push_str(&format!("; the rest takes {} (ends about {e})", duration(r))),
        (Some(r), None) => s.push_str(&format!("; the rest takes {}", duration(r))),
        (None, _) if c.in_progress + c.not_started > 0 => s.push_str("; the rest does not complete as planned now"),
        (None, _) => {}
    }
    s
}

/// The nearest-rank percentile `p` (1-100) of sorted values.
fn percentile(sorted: &[u64], p: usize) -> u64 {
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or(0)
}

/// Per pool, a node's whole step as measured (`plan.learned`): given in the options
/// (`timings["pool/<name>"]`), else from the kubelets' events in the snapshot
/// ([`Cluster::observed_steps`]), each node's step counted for the pool it is upgraded in; and each node's
/// step time for its pool, by its position in `Cluster::nodes` (what the plan takes).
pub fn learned(ctx: &Cluster<'_>) -> (Vec<crate::report::Learned>, Vec<Option<u64>>) {
    let pools = budget::pools(ctx);
    let home = budget::home_pools(&pools, ctx.nodes.len());
    let mut out: Vec<crate::report::Learned> = Vec::new();
    for (name, v) in &ctx.options.timings {
        if let Some(pool) = name.strip_prefix(crate::plan::timings::POOL_STEP).filter(|p| !p.is_empty()) {
            out.push(crate::report::Learned {
                pool: pool.to_owned(),
                source: "options",
                samples: 1,
                median_seconds: *v,
                p90_seconds: *v,
            });
        }
    }
    let mut by_pool: Vec<(&str, Vec<u64>)> = Vec::new();
    for o in ctx.observed_steps() {
        let Some(pool) = home.get(o.node).copied().flatten() else { continue };
        if out.iter().any(|l| l.pool == pool.name) {
            continue;
        }
        match by_pool.iter_mut().find(|(p, _)| *p == pool.name) {
            Some((_, secs)) => secs.push(o.seconds),
            None => by_pool.push((pool.name.as_str(), vec![o.seconds])),
        }
    }
    for (pool, mut secs) in by_pool {
        crate::sort::sort(&mut secs);
        out.push(crate::report::Learned {
            pool: pool.to_owned(),
            source: "events",
            samples: secs.len(),
            median_seconds: percentile(&secs, 50),
            p90_seconds: percentile(&secs, 90),
        });
    }
    crate::sort::sort_by(&mut out, |a, b| a.pool.cmp(&b.pool));
    let per_node =
        home.iter().map(|p| p.and_then(|p| out.iter().find(|l| l.pool == p.name)).map(|l| l.median_seconds)).collect();
    (out, per_node)
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!((percentile(&[600], 50), percentile(&[600], 90)), (600, 600));
        assert_eq!((percentile(&[1, 2, 3, 4], 50), percentile(&[1, 2, 3, 4], 90)), (2, 4));
        let ten: Vec<u64> = (1..=10).collect();
        assert_eq!((percentile(&ten, 50), percentile(&ten, 90)), (5, 9));
    }
}
