//! The whole check, top to bottom: options, ingestion, the distribution's config, the cluster, the plan
//! and its downtime, the rules, the report. The top layer: it uses every other and nothing uses it but
//! `session` and the crate root.

use crate::budget;
use crate::cluster::Cluster;
use crate::error::Error;
use crate::ingest::{self, Input};
use crate::model::distro::RkeConfig;
use crate::model::Object;
use crate::options::{self, Profile, UpgradeOptions};
use crate::plan;
use crate::report::{self, NotRun, Report, RuleInfo, Tool, Upgrade};
use crate::rules::{rule_infos, suppression, Context, RULES};
use crate::version::{self, Version};

/// Why the checks that need the current version did not run, in words for every face: the CLI's flag, the
/// options' field, the dashboard's field (a snapshot of a managed cluster, EKS, GKE or AKS, lists no
/// control-plane node).
const FROM_UNKNOWN: &str = "the current version is unknown (the snapshot has no control-plane node, as on EKS, GKE \
     or AKS): give it (--from on the command line, `from` in the options, Current in the dashboard), or include \
     the control-plane nodes";

/// The current control-plane version from the control-plane nodes' kubelets: the lowest one (an HA
/// control plane mid-upgrade is only as far as its oldest member). What the platform states comes first:
/// [`crate::current::current`].
pub fn infer_from(objects: &[Object]) -> Option<Version> {
    crate::current::oldest_control_plane_kubelet(objects).map(|(v, _)| v)
}

/// Check inputs against the options and build the report.
pub fn check(inputs: &[Input], options: &UpgradeOptions) -> Result<Report, Error> {
    // Options first, so that bad options are reported before any input is read.
    check_options(options)?;
    let ingested = ingest::ingest(inputs)?;
    report_from(ingested, options)
}

/// Refuse bad options before reading anything.
pub fn check_options(options: &UpgradeOptions) -> Result<(), Error> {
    options.resolve()?;
    suppression::validate(options)?;
    budget::validate(options)?;
    plan::Timings::resolve(options)?;
    Ok(())
}

/// The report for what was read.
pub fn report_from(ingested: ingest::Ingested, options: &UpgradeOptions) -> Result<Report, Error> {
    report_for(&ingested, options)
}

/// The report for what was read, which stays as it is: check the same inputs again under other options
/// (the dashboard's what-if) without reading them again.
pub fn report_for(ingested: &ingest::Ingested, options: &UpgradeOptions) -> Result<Report, Error> {
    report_for_staged(ingested, options, &mut |_| {})
}

/// The stages of a check after reading, in order: `mark` is called with each one's name as it ends (the
/// bench times them; the core itself reads no clock). `simulate` (the plan) and `placement` (its windows
/// replayed through the scheduler's filters) are marked only when there is a plan; `plan` ends the
/// downtime and what follows it. When the plan stops, each round of the run if resolved marks
/// `resolved-plan` (its simulation, placement and downtime) and `resolved-rules` (the rules it runs again).
pub const STAGES: [&str; 8] =
    ["index", "simulate", "placement", "plan", "rules", "resolved-plan", "resolved-rules", "report"];

/// [`report_for`], calling `mark` at the end of each of [`STAGES`].
pub fn report_for_staged(
    ingested: &ingest::Ingested,
    options: &UpgradeOptions,
    mark: &mut dyn FnMut(&'static str),
) -> Result<Report, Error> {
    report_with(ingested, options, mark, true)
}

/// [`report_for`] with the run if resolved done the long way: each round indexes the cluster again and
/// runs every rule, nothing taken from the real run. The same report, byte for byte (the tests compare
/// the two on every fixture and on random clusters); not for use but to check the short way.
#[doc(hidden)]
pub fn report_for_unshared(ingested: &ingest::Ingested, options: &UpgradeOptions) -> Result<Report, Error> {
    report_with(ingested, options, &mut |_| {}, false)
}

fn report_with(
    ingested: &ingest::Ingested,
    options: &UpgradeOptions,
    mark: &mut dyn FnMut(&'static str),
    share: bool,
) -> Result<Report, Error> {
    let given = options;
    let options = &with_distribution_config(options, ingested.rke.as_ref());
    // An error in a value that came from the cluster's own cluster.yml (not from an option) names the file.
    let rke_file = ingested
        .inventory
        .distribution_configs
        .iter()
        .find(|c| c.kind == "rke-cluster-yml")
        .map(|c| format!("{}:{}", c.file, c.line));
    let from_config = |mut e: options::OptionsError| {
        let set_by_user = match e.field.as_str() {
            "maxUnavailableWorker" => given.max_unavailable_worker.is_some(),
            "maxUnavailableControlPlane" => given.max_unavailable_control_plane.is_some(),
            f => f.strip_prefix("timings.").is_some_and(|t| given.timings.contains_key(t)),
        };
        if let (Some(file), false) = (&rke_file, set_by_user) {
            if options.profile == Profile::Rke || options.profile == Profile::RkeLegacy {
                e.message.push_str(&format!(" (from {file}, the RKE cluster.yml's upgrade_strategy)"));
            }
        }
        Error::Options(e)
    };
    let resolved = options.resolve()?;
    suppression::validate(options)?;
    let stated = crate::current::current(ingested, options.profile);
    if let Some(from) = resolved.from.clone().or_else(|| stated.as_ref().map(|c| c.version.clone())) {
        let hops = version::hop_count(&from, &resolved.to);
        if hops > version::MAX_HOPS {
            return Err(Error::Options(options::OptionsError {
                field: "to".to_owned(),
                message: format!(
                    "{} is {hops} minor versions after {from}: more than the {} one upgrade may cross (a typo?)",
                    resolved.to,
                    version::MAX_HOPS
                ),
            }));
        }
    }
    // The distribution's own config may carry values it refuses itself (RKE's max_unavailable: 0).
    budget::validate(options).map_err(from_config)?;
    let timings = plan::Timings::resolve(options).map_err(from_config)?;
    Ok(build_report(ingested, options, resolved, stated, timings, mark, share))
}

/// The versions in the target's product scheme with their Kubernetes (`upgrade.shown`), when the target
/// is a product version: a current version read as Kubernetes (the kubelets) is named by its product
/// minor, `4.15 (Kubernetes 1.28.7+6e2789b)`.
fn shown(from: Option<&Version>, to: &Version, path: &[Version]) -> Option<report::Shown> {
    if !(to.is_openshift() || to.is_gke_baremetal()) {
        return None;
    }
    let from = from.map(|f| {
        if f.is_openshift() || f.is_gke_baremetal() {
            f.with_kubernetes()
        } else {
            format!("{} (Kubernetes {f})", Version::minor_of(f.minor, to))
        }
    });
    Some(report::Shown { from, to: to.with_kubernetes(), path: path.iter().map(Version::with_kubernetes).collect() })
}

/// One simulation and what follows from it: the plan, its replay, the downtime.
struct Simulated<'a> {
    plan: report::Plan,
    downtime: report::Downtime,
    workloads: Option<Vec<plan::downtime::WorkloadOutcome<'a>>>,
    placed: plan::placement::Placed,
    windows: Vec<plan::NodeWindow>,
}

/// Simulate the upgrade of `cluster`: nothing when there is nothing to plan, a stop before anything
/// starts when RKE refuses its `cluster.yml`, else the plan, its windows replayed through the placement
/// model, and the downtime from both.
fn simulate<'a>(
    cluster: &Cluster<'a>,
    ingested: &ingest::Ingested,
    options: &UpgradeOptions,
    timings: &plan::Timings,
    rke_refused: Option<&RkeConfig>,
    mark: &mut dyn FnMut(&'static str),
) -> Simulated<'a> {
    let empty = |plan: report::Plan| Simulated {
        plan,
        downtime: report::Downtime::default(),
        workloads: None,
        placed: plan::placement::Placed::default(),
        windows: Vec::new(),
    };
    if (cluster.path.is_empty() && cluster.finishing.is_none()) || cluster.nodes.is_empty() {
        return empty(report::Plan::default());
    }
    if let Some(rke) = rke_refused {
        let mut pending: Vec<String> = cluster.nodes.iter().map(|n| n.name().to_owned()).collect();
        crate::sort::sort(&mut pending);
        let fields: Vec<&str> = rke.problems.iter().map(|(_, field, _)| field.as_str()).collect();
        let stop = report::Stop {
            hop: cluster.finishing.iter().chain(&cluster.path).next().map(ToString::to_string).unwrap_or_default(),
            phase: "config",
            pool: None,
            node: None,
            start_seconds: None,
            at_seconds: 0,
            outcome: "fails",
            code: crate::rules::input::unreadable_value::INFO.code,
            reason: format!("RKE refuses cluster.yml ({}): rke up stops before the upgrade starts", fields.join(", ")),
            pending: pending.clone(),
        };
        return empty(report::Plan {
            complete: false,
            stops: vec![stop],
            not_simulated: pending,
            ..report::Plan::default()
        });
    }
    let outcome = plan::build(cluster, *timings);
    mark("simulate");
    simulated(cluster, ingested, options, timings, outcome, mark)
}

/// What follows the plan's build in [`simulate`]: its windows replayed through the placement model, the
/// downtime from both, and what the plan assumed.
fn simulated<'a>(
    cluster: &Cluster<'a>,
    ingested: &ingest::Ingested,
    options: &UpgradeOptions,
    timings: &plan::Timings,
    mut outcome: plan::Outcome,
    mark: &mut dyn FnMut(&'static str),
) -> Simulated<'a> {
    // Where every evicted pod lands, window by window: the capacity rule and the downtime read it.
    outcome.placed = plan::placement::replay(cluster, &outcome.windows, &outcome.plan.phases, timings);
    mark("placement");
    let (mut downtime, workloads) = plan::downtime::compute(cluster, &outcome, timings);
    // RKE's add-ons roll by their own update strategies, once the worker plane is through.
    if let (Some(rke), Profile::Rke | Profile::RkeLegacy, true) =
        (ingested.rke.as_ref(), options.profile, outcome.plan.complete)
    {
        downtime.components.extend(plan::downtime::rke_addon_rows(rke));
    }
    let mut plan = outcome.plan;
    plan.drain = cluster.drain_flags().map(|f| report::DrainAssumed {
        by: f.who,
        force: f.force,
        delete_empty_dir_data: f.delete_emptydir_data,
        ignore_daemonsets: f.ignore_daemonsets,
        honours_budgets: cluster.drain_honours_pdbs(),
        flags_from_options: matches!(options.profile, Profile::Kubeadm | Profile::Rke | Profile::RkeLegacy),
    });
    plan.left_out = plan::left_out(cluster);
    let mut never: Vec<String> = plan.stops.iter().flat_map(|s| s.pending.iter().cloned()).collect();
    crate::sort::sort(&mut never);
    never.dedup();
    plan.not_simulated = never;
    Simulated { plan, downtime, workloads: Some(workloads), placed: outcome.placed, windows: outcome.windows }
}

/// The rules that read nothing the run if resolved changes (neither the simulation's outcome nor a lifted
/// cause: [`crate::cluster::Cluster::take_variable_read`]): the run if resolved runs only the others, and
/// takes these rules' findings from the real run's (each round applies its own suppression to them).
struct Steady {
    /// By rule, in [`RULES`] order: did it read something the run if resolved changes?
    varies: Vec<bool>,
    /// Where the findings of each rule that does not vary are in the real run's findings, as the rules
    /// gave them (before they are sorted). Positions, not copies: at 150,000 pods a copy was 8 MB of the
    /// peak.
    ranges: Vec<(usize, usize)>,
}

/// Every rule over one context: the findings, and the rules that could not run (they need the current
/// version, which is not known). With `keep`, also what the run if resolved can take as it is; given
/// `steady` (and the real run's findings, in the order the rules gave them), the rules it names as steady
/// are not run again and their findings are taken from the real run's.
fn run_rules(
    ctx: &Context<'_>,
    keep: bool,
    steady: Option<(&Steady, &[report::Finding])>,
) -> (Vec<report::Finding>, Vec<NotRun>, Option<Steady>) {
    let mut findings = Vec::new();
    let mut not_run = Vec::new();
    let mut kept = keep.then(|| Steady { varies: Vec::with_capacity(RULES.len()), ranges: Vec::new() });
    for (i, rule) in RULES.iter().enumerate() {
        if rule.info.needs_from && ctx.from.is_none() {
            not_run.push(NotRun { code: rule.info.code, reason: FROM_UNKNOWN.to_owned() });
            if let Some(k) = kept.as_mut() {
                k.varies.push(false);
            }
            continue;
        }
        if steady.is_some_and(|(s, _)| s.varies.get(i) == Some(&false)) {
            continue;
        }
        let start = findings.len();
        ctx.take_variable_read();
        (rule.check)(ctx, &mut findings);
        let varies = ctx.take_variable_read();
        if let Some(k) = kept.as_mut() {
            k.varies.push(varies);
            if !varies {
                k.ranges.push((start, findings.len()));
            }
        }
    }
    // As the real run had them: their suppression is set again by the round's (`suppression::apply` sets
    // it on every finding).
    if let Some((s, real)) = steady {
        for &(start, end) in &s.ranges {
            findings.extend(real.get(start..end).unwrap_or_default().iter().cloned());
        }
    }
    (findings, not_run, kept)
}

/// The findings of the run if resolved that the real report does not have, by what makes two the same (code,
/// object, message): looked up by the key's hash in a sorted list (a list rather than a set: one set type
/// less in the wasm), the keys compared only where the hashes are equal. A binary search of the keys
/// themselves compared fifteen messages and object names a lookup, each far from the last.
fn revealed(found: Vec<report::Finding>, real: &[report::Finding]) -> Vec<report::Finding> {
    fn key(f: &report::Finding) -> (&str, Option<&crate::model::ObjectRef>, &str) {
        (f.code, f.object.as_ref(), f.message.as_str())
    }
    let hash = |f: &report::Finding| {
        use core::hash::BuildHasher;
        crate::parse::FastHash::default().hash_one(key(f))
    };
    let mut real_keys: Vec<(u64, usize)> = real.iter().enumerate().map(|(i, g)| (hash(g), i)).collect();
    crate::sort::sort(&mut real_keys);
    let is_real = |f: &report::Finding| {
        let h = hash(f);
        let from = real_keys.partition_point(|(k, _)| *k < h);
        real_keys
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|(k, _)| *k == h)
            .any(|(_, i)| real.get(*i).is_some_and(|g| key(g) == key(f)))
    };
    found.into_iter().filter(|f| !is_real(f)).collect()
}

/// How many times the causes of stops are lifted, at most, before the plan "if resolved" is given as it
/// stands (each round lifts at least one more cause; there are fewer kinds than this).
const LIFT_ROUNDS: usize = 12;

/// What the run if resolved starts from: the real run's plan and findings, and what it may take as it is.
struct RealRun<'r> {
    plan: &'r report::Plan,
    findings: &'r [report::Finding],
    steady: Option<&'r Steady>,
}

/// The plan once each stop's cause is taken as resolved ([`crate::cluster::LIFTS`]), round after round
/// (a resolved stop may reveal the next), until it completes or a stop remains that cannot be lifted:
/// `None` when the first stop already cannot be.
fn if_resolved<'a>(
    real_cluster: crate::cluster::Cluster<'a>,
    ingested: &'a ingest::Ingested,
    options: &'a UpgradeOptions,
    timings: &plan::Timings,
    real: RealRun<'_>,
    mark: &mut dyn FnMut(&'static str),
) -> Option<report::IfResolved> {
    let RealRun { plan, findings, steady } = real;
    let how = |code: &str| {
        crate::cluster::LIFTS
            .iter()
            .find(|(c, _)| *c == code || (c.ends_with('/') && code.starts_with(c)))
            .map(|(_, how)| *how)
    };
    // The causes among `stops` that can be lifted and are not yet.
    let liftable = |stops: &[report::Stop], lifted: &[&'static str]| -> Vec<&'static str> {
        stops.iter().map(|s| s.code).filter(|c| how(c).is_some() && !lifted.contains(c)).collect()
    };
    let mut lifted: Vec<&'static str> = Vec::new();
    let mut new = liftable(&plan.stops, &lifted);
    // The real run's index, kept from round to round: only what the lifts change is found again.
    let mut kept = real_cluster;
    for round in 0..LIFT_ROUNDS {
        if new.is_empty() {
            break;
        }
        for c in new {
            if !lifted.contains(&c) {
                lifted.push(c);
            }
        }
        // The long way (nothing taken from the real run: `report_for_unshared`) starts each round anew.
        let cluster = if steady.is_some() {
            kept
        } else {
            Cluster::new(kept.objects, options, kept.to.clone(), kept.from.clone(), kept.path.clone())
        }
        .lifting(&lifted);
        // A round's plan alone says whether another round follows (its stops): only the last round, the
        // answer, replays its windows, weighs the downtime and runs the rules.
        let outcome = plan::build(&cluster, *timings);
        mark("resolved-plan");
        new = liftable(&outcome.plan.stops, &lifted);
        if !(outcome.plan.complete || new.is_empty() || round + 1 == LIFT_ROUNDS) {
            kept = cluster;
            continue;
        }
        let sim = simulated(&cluster, ingested, options, timings, outcome, &mut |_| {});
        mark("resolved-plan");
        let (mut p, downtime) = (sim.plan, sim.downtime);
        p.timings = timings.to_map();
        let ctx =
            Context::new(cluster, sim.workloads, sim.placed, sim.windows, ingested.inventory.helm_releases.clone());
        let (mut found, _, _) = run_rules(&ctx, false, steady.map(|s| (s, findings)));
        suppression::apply(&ctx, &mut found);
        mark("resolved-rules");
        let summary = report::finish_findings(&mut found);
        let revealed = revealed(found, findings);
        let lifted =
            lifted.iter().map(|c| report::Lifted { code: (*c).to_owned(), how: how(c).unwrap_or_default() }).collect();
        return Some(report::IfResolved { lifted, plan: p, downtime, summary, revealed });
    }
    None
}

/// An RKE `cluster.yml`'s upgrade strategy fills what the options leave open (flags win).
fn with_distribution_config(options: &UpgradeOptions, rke: Option<&RkeConfig>) -> UpgradeOptions {
    let mut o = options.clone();
    if let (Some(r), Profile::Rke | Profile::RkeLegacy) = (rke, o.profile) {
        o.max_unavailable_worker = o.max_unavailable_worker.or(r.max_unavailable_worker);
        o.max_unavailable_control_plane = o.max_unavailable_control_plane.or(r.max_unavailable_control_plane);
        o.drain = o.drain.or(r.drain);
        o.drain_force = o.drain_force.or(r.drain_force);
        o.drain_delete_local_data = o.drain_delete_local_data.or(r.drain_delete_local_data);
        o.drain_ignore_daemonsets = o.drain_ignore_daemonsets.or(r.drain_ignore_daemonsets);
        if let Some(t) = r.drain_timeout {
            o.timings.entry("drainTimeoutSeconds".to_owned()).or_insert(t);
        }
    }
    o
}

fn build_report(
    ingested: &ingest::Ingested,
    options: &UpgradeOptions,
    resolved: options::Resolved,
    stated: Option<crate::current::Current>,
    timings: plan::Timings,
    mark: &mut dyn FnMut(&'static str),
    share: bool,
) -> Report {
    let objects = &ingested.objects;
    // Sources of the current version that disagree (said unless the options state it).
    let disagree: Option<(String, Vec<String>)> = stated
        .as_ref()
        .filter(|c| resolved.from.is_none() && !c.disagree.is_empty())
        .map(|c| (format!("{} ({}: {})", c.version, c.source, c.detail), c.disagree.clone()));
    let (from, from_source, from_detail) = match (resolved.from, stated) {
        (Some(f), _) => (Some(f), Some(crate::current::FROM_OPTIONS), None),
        (None, Some(c)) => (Some(c.version), Some(c.source), Some(c.detail)),
        (None, None) => (None, None, None),
    };
    let path = from.as_ref().map(|f| version::hop_path(f, &resolved.to)).unwrap_or_default();
    let cluster = Cluster::new(objects, options, resolved.to.clone(), from.clone(), path);
    mark("index");
    // RKE refuses a cluster.yml it cannot read into its types: `rke up` stops before any node is touched
    // (the finding input/unreadable-value says the same).
    let rke_refused = ingested
        .rke
        .as_ref()
        .filter(|r| !r.problems.is_empty() && matches!(options.profile, Profile::Rke | Profile::RkeLegacy));
    let sim = simulate(&cluster, ingested, options, &timings, rke_refused, mark);
    let (mut plan, downtime) = (sim.plan, sim.downtime);
    // When the snapshot says when it was taken, that is its time; else its nodes' heartbeats.
    let taken = ingested.inventory.snapshot.as_ref().and_then(|s| s.taken_at.as_deref());
    let snapshot_time = taken
        .and_then(crate::units::timestamp)
        .map(crate::units::format_timestamp)
        .or_else(|| plan::progress::snapshot_time(&cluster));
    let progress = plan::progress::progress(&cluster, &plan, options.since.as_ref(), snapshot_time.as_deref());
    let ctx = Context::new(cluster, sim.workloads, sim.placed, sim.windows, ingested.inventory.helm_releases.clone());
    plan.timings = timings.to_map();
    mark("plan");
    // The run if resolved follows when the plan stops short (and RKE did not refuse its config).
    let resolve = !plan.complete && rke_refused.is_none();
    let (mut findings, mut not_run, steady) = run_rules(&ctx, resolve && share, None);
    if let Some(rke) = rke_refused {
        let file = ingested.inventory.distribution_configs.iter().find(|c| c.kind == "rke-cluster-yml");
        if let Some(f) = crate::rules::input::unreadable_value::rke_config(rke, file) {
            findings.push(f);
        }
    }
    if let Some(f) =
        disagree.as_ref().and_then(|(chosen, d)| crate::rules::input::conflicting_version::finding(chosen, d))
    {
        findings.push(f);
    }
    suppression::apply(&ctx, &mut findings);
    mark("rules");
    if ingested.inventory.objects == 0 {
        // Never a silent "no findings".
        not_run.push(NotRun {
            code: "input",
            reason: "no Kubernetes object was read from the inputs: nothing was checked".to_owned(),
        });
    }
    if ctx.from.is_none() {
        not_run.push(NotRun { code: "plan", reason: FROM_UNKNOWN.to_owned() });
    } else if ctx.nodes.is_empty() {
        not_run.push(NotRun { code: "plan", reason: "there are no nodes in the inputs to plan for".to_owned() });
    } else if ctx.path.is_empty() && ctx.finishing.is_none() {
        not_run.push(NotRun {
            code: "plan",
            reason: "the target is not newer than the current version: nothing to upgrade".to_owned(),
        });
    }
    let path = ctx.path_strings();
    let shown_path = shown(from.as_ref(), &resolved.to, &ctx.path);
    // The plan had nothing to do (its `notRun` reason says so): what it covers is checked, not unknown.
    let nothing_to_upgrade =
        ctx.from.is_some() && !ctx.nodes.is_empty() && ctx.path.is_empty() && ctx.finishing.is_none();
    // Nodes that state no kubelet version (kept by name: the context is let go below).
    let no_kubelet: Vec<&str> = ctx
        .nodes
        .iter()
        .filter(|n| n.info.kubelet_version.is_none())
        .map(|n| {
            let o = n.obj;
            o.r.name.as_str()
        })
        .collect();
    if resolve {
        // The real run's simulated outcome is let go before the run if resolved simulates its own: the two
        // never take memory at once (at 150,000 pods each is hundreds of megabytes). Its index stays.
        let cluster = ctx.into_cluster();
        // The real findings as the rules gave them (`Steady` points into them): sorted only after.
        let real = RealRun { plan: &plan, findings: &findings, steady: steady.as_ref() };
        plan.if_resolved = if_resolved(cluster, ingested, options, &timings, real, mark).map(Box::new);
    }
    let mut summary = report::finish_findings(&mut findings);
    let coverage = coverage_of(
        ingested,
        options,
        &resolved.to,
        (from_source, &from_detail, disagree.as_ref().map(|(_, d)| d.as_slice())),
        (&plan, nothing_to_upgrade),
        &not_run,
        &findings,
        no_kubelet,
    );
    // A report of nothing is not a pass: with no blocker and no object read, nothing was checked.
    if summary.blocker == 0 && ingested.inventory.objects == 0 {
        summary.verdict = report::NOTHING_CHECKED;
    } else if summary.blocker == 0 && !coverage.incomplete.is_empty() {
        // Unknown is never a pass (CONTRACT section 6).
        summary.verdict = report::INCOMPLETE;
    }
    let report = Report {
        schema_version: report::SCHEMA_VERSION,
        tool: Tool { name: report::TOOL_NAME, version: report::TOOL_VERSION },
        upgrade: Upgrade {
            from: from.as_ref().map(ToString::to_string),
            to: resolved.to.to_string(),
            profile: options.profile,
            path,
            from_source,
            from_detail,
            shown: shown_path,
        },
        inventory: report::Inventory {
            detected_profile: crate::detect::detect(ingested, options.profile),
            snapshot_time,
            ..ingested.inventory.clone()
        },
        summary,
        findings,
        plan,
        downtime,
        not_run,
        coverage,
        progress,
    };
    mark("report");
    report
}

/// What each family of checks stands on (`coverage`), from what the run read, knew and simulated.
#[allow(clippy::too_many_arguments)]
fn coverage_of(
    ingested: &crate::ingest::Ingested,
    options: &UpgradeOptions,
    to: &version::Version,
    (from_source, from_detail, disagree): (Option<&'static str>, &Option<String>, Option<&[String]>),
    (plan, nothing_to_upgrade): (&report::Plan, bool),
    not_run: &[NotRun],
    findings: &[report::Finding],
    no_kubelet_version: Vec<&str>,
) -> crate::coverage::Coverage {
    use crate::coverage::PlanRun;
    let plan_run = match (not_run.iter().find(|n| n.code == "plan"), plan.stops.first()) {
        (Some(n), _) if nothing_to_upgrade => PlanRun::Complete(Some(n.reason.as_str())),
        (Some(n), _) => PlanRun::NotRun(n.reason.as_str()),
        (None, Some(stop)) if !plan.complete => PlanRun::Stopped {
            at: match &stop.node {
                Some(node) => format!("on node {node} ({}, {})", stop.code, stop.outcome),
                None => format!("before the {} phase ({}, {})", stop.phase, stop.code, stop.outcome),
            },
            pending: plan.stops.iter().map(|s| s.pending.len()).sum(),
        },
        _ => PlanRun::Complete(None),
    };
    let unreadable: Vec<(&str, &str)> = findings
        .iter()
        .filter(|f| f.code == crate::rules::input::unreadable_value::INFO.code)
        .filter_map(|f| f.object.as_ref().map(|o| (o.kind.as_str(), o.name.as_str())))
        .collect();
    // Why the version taken may not be where the cluster is: a source the profile reads first that could not
    // be read, or sources that disagree. Not when the options state it: then no record decides it.
    let mut version_doubts: Vec<String> = Vec::new();
    if from_source != Some(crate::current::FROM_OPTIONS) {
        if let Some((kind, field)) = crate::current::platform_version_field(options.profile) {
            version_doubts.extend(
                findings
                    .iter()
                    .filter(|f| f.code == crate::rules::input::unreadable_value::INFO.code)
                    .filter_map(|f| f.object.as_ref().filter(|o| o.kind.as_str() == kind && f.message.contains(field)))
                    .map(|o| format!("{field} of {kind} {} could not be read", o.name)),
            );
        }
        version_doubts.extend(disagree.unwrap_or_default().iter().map(|d| format!("sources disagree: {d}")));
    }
    let from_source = from_source.map(|s| match from_detail {
        Some(d) => format!("{s}: {d}"),
        None => s.to_owned(),
    });
    crate::coverage::coverage(&crate::coverage::Facts {
        by_kind: &ingested.inventory.by_kind,
        helm_releases: ingested.inventory.helm_releases.len(),
        objects: ingested.inventory.objects,
        configs: ingested.inventory.distribution_configs.iter().map(|c| c.kind).collect(),
        profile: options.profile,
        to,
        from_source,
        version_doubts,
        needs_from: rule_infos().into_iter().filter(|r| r.needs_from).map(|r| r.code).collect(),
        plan: plan_run,
        unreadable,
        no_kubelet_version,
        skip: &options.skip,
        denied: &ingested.inventory.denied,
        listed: &ingested.inventory.listed,
    })
}

/// Every rule's identity, in code order (its docs: `rules::docs`).
pub fn rules() -> Vec<&'static RuleInfo> {
    rule_infos()
}

/// The core's version.
pub fn version() -> &'static str {
    report::TOOL_VERSION
}
