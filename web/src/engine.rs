//! What the dashboard's worker does, without the browser: read the inputs through a [`Session`] (each
//! found-file error leaves that file out and names its line and column), keep what was read, check it
//! under any options, compute the what-if curve one point at a time, render exports, and quote a file's
//! lines. The worker (`worker.rs`) only moves bytes and messages; this is tested natively.

use kube_preflight::ingest::Ingested;
use kube_preflight::parse::parse_json;
use kube_preflight::quantity::IntOrPercent;
use kube_preflight::render::{self, Format, RenderOptions};
use kube_preflight::version::Version;
use kube_preflight::{check_options, current, report_for, Report, Session, UpgradeOptions};

use crate::demo::demo_text;
use crate::protocol::{Comparison, CurvePoint, FromWorker, InputInfo, InputSpec, NodeFacts, Side, Source};

/// The size of a read, and of a progress step.
pub const CHUNK: u64 = 1 << 20;
/// Findings per `Findings` message (each part stays a short task on the page).
pub const FINDINGS_PART: usize = 400;
/// At most this many bytes of JSON in a part (a finding may carry 50 Pending pods with why: 25 KB).
pub const PART_BYTES: usize = 1 << 20;
/// Pods named per node in the replay.
pub const PODS_NAMED: usize = 50;
/// The most points of the what-if curve: every concurrency up to this, else this many spread over the pool.
pub const CURVE_POINTS: u32 = 48;

/// Reads an input's bytes (the worker: a `File` through `FileReaderSync`; tests: text).
pub trait Reader {
    fn size(&mut self, spec: &InputSpec) -> u64;
    fn read(&mut self, spec: &InputSpec, offset: u64, len: u64) -> Result<Vec<u8>, String>;
}

/// The options with their target: as given, or when none is given the minor after the current version
/// (given as `from`, else read from the control-plane nodes of what was read): the dashboard's default for
/// a cluster of the user's own, never the demo's target. Before anything is read, a stand-in target lets
/// the other options be checked. (Read with the core's own parser: no second JSON reader in the worker.)
pub fn options_for(json: &str, ingested: Option<&Ingested>) -> Result<UpgradeOptions, String> {
    let node = parse_json("options", json).map_err(|e| e.to_string())?;
    let mut o = UpgradeOptions::from_node(&node).map_err(|e| kube_preflight::Error::Options(e).to_string())?;
    if o.to.trim().is_empty() {
        // A target only there to check the other options: one every profile reads (GKE on Bare Metal takes
        // its own product versions, 1.10 and later).
        const STAND_IN: &str = "1.28";
        // The target the platform already states (an OpenShift update asked for, a GKE on Bare Metal
        // upgrade under way) comes first.
        let stated = ingested.and_then(|i| current::stated_target(i, o.profile));
        let gke = o.profile == kube_preflight::Profile::GkeBaremetal;
        let given = o.from.as_deref().and_then(|f| Version::parse_for(f, gke).ok());
        let from = given.or_else(|| ingested.and_then(|i| current(i, o.profile)).map(|c| c.version));
        o.to = match (stated, from, ingested) {
            (Some(t), _, _) => t,
            // OpenShift updates to a release the channel offers, never to a bare minor: with no update
            // asked for in the ClusterVersion, the page asks rather than invent one.
            (None, Some(_), Some(i)) if o.profile == kube_preflight::Profile::Openshift && !i.objects.is_empty() => {
                return Err("to: no target is set and the ClusterVersion asks for no update (spec.desiredUpdate):                             set Target to a release your channel offers (oc adm upgrade lists them)"
                    .to_owned())
            }
            (None, Some(f), _) => Version::minor_of(f.minor + 1, &f).to_string(),
            // Before reading, or when nothing was read (the report then says nothing was checked, whatever
            // the target).
            (None, None, None) => STAND_IN.to_owned(),
            (None, None, Some(i)) if i.objects.is_empty() => STAND_IN.to_owned(),
            (None, None, Some(_)) => {
                return Err("to: no target is set and the current version cannot be read from the inputs (no \
                            control-plane node with a kubelet version, as on EKS, GKE or AKS): set Target, and \
                            Current"
                    .to_owned())
            }
        };
    }
    check_options(&o).map_err(|e| e.to_string())?;
    Ok(o)
}

/// Options as `name=value` pairs for a comparison (their report form: the target as checked).
fn options_pairs(o: &UpgradeOptions) -> std::collections::BTreeMap<String, String> {
    let limit = |v: &Option<IntOrPercent>| v.as_ref().map(ToString::to_string);
    let mut out = std::collections::BTreeMap::new();
    let fields = [
        ("to", Some(o.to.clone())),
        ("from", o.from.clone()),
        ("profile", Some(o.profile.name().to_owned())),
        ("maxUnavailableWorker", limit(&o.max_unavailable_worker)),
        ("maxUnavailableControlPlane", limit(&o.max_unavailable_control_plane)),
        ("maxSurge", limit(&o.max_surge)),
        ("drain", o.drain.map(|d| d.to_string())),
        ("drainForce", o.drain_force.map(|d| d.to_string())),
        ("drainDeleteLocalData", o.drain_delete_local_data.map(|d| d.to_string())),
    ];
    for (k, v) in fields {
        if let Some(v) = v {
            out.insert(k.to_owned(), v);
        }
    }
    for (k, v) in &o.timings {
        out.insert(format!("timings.{k}"), v.to_string());
    }
    out
}

/// Findings as JSON arrays of at most [`FINDINGS_PART`] findings and about [`PART_BYTES`] bytes: each part
/// is read on the page in a task of its own.
fn parts(findings: &[kube_preflight::report::Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let mut part = String::from("[");
    let mut n = 0;
    for f in findings {
        if n == FINDINGS_PART || (n > 0 && part.len() >= PART_BYTES) {
            part.push(']');
            out.push(std::mem::replace(&mut part, String::from("[")));
            n = 0;
        }
        if n > 0 {
            part.push(',');
        }
        part.push_str(&serde_json::to_string(f).unwrap_or_else(|_| "null".to_owned()));
        n += 1;
    }
    if n > 0 {
        part.push(']');
        out.push(part);
    }
    out
}

#[derive(Debug, Default)]
pub struct Engine {
    pub ingested: Option<Ingested>,
    pub inputs: Vec<InputSpec>,
    pub nodes: Vec<NodeFacts>,
    pub options: UpgradeOptions,
    /// The options as the page gave them (the target may be left to [`options_for`]).
    pub given: String,
    pub report: Option<Report>,
}

impl Engine {
    /// Read every input (replacing what was read before), telling progress through `post`.
    pub fn load(
        &mut self,
        generation: u32,
        options: &str,
        inputs: Vec<InputSpec>,
        reader: &mut dyn Reader,
        post: &mut dyn FnMut(FromWorker),
    ) -> Result<Vec<InputInfo>, String> {
        self.ingested = None;
        self.report = None;
        self.nodes.clear();
        let given = options.to_owned();
        let options = options_for(options, None)?;
        let mut session = Session::new(options.clone()).map_err(|e| e.to_string())?;
        let sizes: Vec<u64> = inputs.iter().map(|i| if i.passed_over.is_some() { 0 } else { reader.size(i) }).collect();
        let total: u64 = sizes.iter().sum();
        let mut done = 0u64;
        let mut infos = Vec::new();
        for (spec, size) in inputs.iter().zip(sizes) {
            if let Some(why) = &spec.passed_over {
                session.skip(&spec.name, why).map_err(|e| e.to_string())?;
                infos.push(InputInfo {
                    name: spec.name.clone(),
                    bytes: 0,
                    objects: 0,
                    skipped: Some(why.clone()),
                    config: None,
                });
                continue;
            }
            let before = session.progress().1;
            // Read only for memory: a YAML document that runs to the file's end is held in one buffer of
            // its size.
            session.size_hint(&spec.name, size);
            let mut offset = 0u64;
            loop {
                let len = CHUNK.min(size - offset);
                let bytes = reader.read(spec, offset, len)?;
                session.push_found(&spec.name, &bytes).map_err(|e| e.to_string())?;
                offset += len;
                done += len;
                post(FromWorker::Progress {
                    generation,
                    bytes: done,
                    total,
                    objects: session.progress().1 as u64,
                    file: spec.name.clone(),
                });
                if offset >= size {
                    break;
                }
            }
            session.end_input().map_err(|e| e.to_string())?;
            let objects = session.progress().1.saturating_sub(before) as u64;
            infos.push(InputInfo { name: spec.name.clone(), bytes: size, objects, skipped: None, config: None });
        }
        let ingested = session.finish_ingested().map_err(|e| e.to_string())?;
        for info in &mut infos {
            if info.skipped.is_none() {
                info.skipped =
                    ingested.inventory.skipped.iter().find(|s| s.file == info.name).map(|s| s.reason.clone());
            }
            info.config = ingested
                .inventory
                .distribution_configs
                .iter()
                .find(|c| c.file == info.name)
                .map(|c| format!("an RKE cluster.yml: {}", c.note));
        }
        self.nodes = node_facts(&ingested);
        self.ingested = Some(ingested);
        self.inputs = inputs;
        self.options = options;
        self.given = given;
        Ok(infos)
    }

    /// Check what was read under `options` (the last ones when `None`): the report, then its findings in parts.
    pub fn check(&mut self, generation: u32, options: Option<&str>) -> Result<Vec<FromWorker>, String> {
        if let Some(json) = options {
            self.given = json.to_owned();
        }
        let ingested = self.ingested.as_ref().ok_or("nothing has been read")?;
        self.options = options_for(&self.given, Some(ingested))?;
        let mut report = report_for(ingested, &self.options).map_err(|e| e.to_string())?;
        let findings = std::mem::take(&mut report.findings);
        let revealed = report.plan.if_resolved.as_mut().map(|ir| std::mem::take(&mut ir.revealed)).unwrap_or_default();
        let mut out = vec![FromWorker::Report {
            generation,
            report: report.to_json(),
            findings: u32::try_from(findings.len()).unwrap_or(u32::MAX),
        }];
        for part in parts(&revealed) {
            out.push(FromWorker::Findings { generation, part, last: false, revealed: true });
        }
        let parts = parts(&findings);
        let count = parts.len();
        for (i, part) in parts.into_iter().enumerate() {
            out.push(FromWorker::Findings { generation, part, last: i + 1 == count, revealed: false });
        }
        if count == 0 {
            out.push(FromWorker::Findings { generation, part: "[]".to_owned(), last: true, revealed: false });
        }
        if let Some(ir) = report.plan.if_resolved.as_mut() {
            ir.revealed = revealed;
        }
        report.findings = findings;
        self.report = Some(report);
        Ok(out)
    }

    /// The what-if: the largest worker pool and the concurrencies to try on it.
    pub fn curve_plan(&self) -> Option<(String, u32, Vec<u32>)> {
        let r = self.report.as_ref()?;
        let p = r.plan.phases.iter().filter(|p| p.name == "workers").max_by_key(|p| p.nodes.len())?;
        let size = u32::try_from(p.nodes.len()).ok().filter(|s| *s > 0)?;
        let pool = p.pool.clone().unwrap_or_else(|| "workers".to_owned());
        Some((pool, size, concurrencies(size)))
    }

    /// The plan's length and the workloads' downtime with `k` workers out at once.
    pub fn curve_point(&self, k: u32) -> Option<CurvePoint> {
        let mut o = self.options.clone();
        o.max_unavailable_worker = Some(IntOrPercent::Int(i64::from(k)));
        let r = report_for(self.ingested.as_ref()?, &o).ok()?;
        Some(CurvePoint {
            concurrency: k,
            total_seconds: r.plan.total_seconds,
            downtime_seconds: r.downtime.workloads.iter().map(|w| w.seconds).sum(),
            workloads_down: u32::try_from(r.downtime.workloads.len()).unwrap_or(u32::MAX),
        })
    }

    /// The current report beside the same inputs under `options` (the page's JSON, target filled as for a check).
    pub fn compare(&self, options: &str) -> Result<Comparison, String> {
        let current = self.report.as_ref().ok_or("there is no report yet")?;
        let ingested = self.ingested.as_ref().ok_or("nothing has been read")?;
        let other_opts = options_for(options, Some(ingested))?;
        let other = report_for(ingested, &other_opts).map_err(|e| e.to_string())?;
        let side = |r: &Report| Side {
            verdict: r.summary.verdict.to_owned(),
            blocker: r.summary.blocker as u64,
            warning: r.summary.warning as u64,
            info: r.summary.info as u64,
            plan_seconds: r.plan.total_seconds,
            plan_stops: !r.plan.stops.is_empty(),
            workloads_down: r.downtime.workloads.len() as u64,
            downtime_seconds: r.downtime.workloads.iter().map(|w| w.seconds).sum(),
            path: format!(
                "{} → {} ({})",
                r.upgrade.from_shown(),
                r.upgrade.path_shown().join(" → "),
                r.upgrade.profile
            ),
            incomplete: r.coverage.incomplete.iter().map(|s| (*s).to_owned()).collect(),
        };
        // A finding is the same on both sides when its rule, object, hop, severity and message are.
        let key = |f: &kube_preflight::report::Finding| {
            let object = f.object.as_ref().map(kube_preflight::model::display_ref).unwrap_or_default();
            format!("{} {} {}: {}", f.severity.name(), f.code, object, f.message)
        };
        let of = |r: &Report| -> std::collections::BTreeSet<String> {
            r.findings.iter().filter(|f| f.suppressed.is_none()).map(key).collect()
        };
        let (a, b) = (of(current), of(&other));
        // Compared as checked: a target the page chose is the same on both sides.
        let mine = options_pairs(&self.options);
        let theirs = options_pairs(&other_opts);
        let differs = theirs.iter().filter(|(k, v)| mine.get(*k) != Some(*v)).map(|(k, v)| (k.clone(), v.clone()));
        let unset = mine.keys().filter(|k| !theirs.contains_key(*k)).map(|k| (k.clone(), "default".to_owned()));
        Ok(Comparison {
            options: differs.chain(unset).collect(),
            current: side(current),
            other: side(&other),
            only_other: b.difference(&a).cloned().collect(),
            only_current: a.difference(&b).cloned().collect(),
            other_report: serde_json::json!({
                "upgrade": other.upgrade,
                "summary": other.summary,
                "plan": other.plan,
                "downtime": other.downtime,
            })
            .to_string(),
        })
    }

    /// The last report in one of the CLI's formats.
    pub fn export(&self, format: &str) -> Result<FromWorker, String> {
        let r = self.report.as_ref().ok_or("there is no report yet")?;
        let f = Format::parse(format).ok_or_else(|| format!("unknown format {format:?}"))?;
        let (ext, mime) = match f {
            Format::Json => ("json", "application/json"),
            Format::Markdown => ("md", "text/markdown"),
            Format::Sarif => ("sarif", "application/sarif+json"),
            Format::Junit => ("xml", "application/xml"),
            Format::Text => ("txt", "text/plain"),
            Format::Timings => ("timings.json", "application/json"),
        };
        Ok(FromWorker::Export {
            format: format.to_owned(),
            file_name: format!("kube-preflight-{}.{ext}", r.upgrade.to),
            mime: mime.to_owned(),
            // As the CLI's default (`--fail-on blocker`): a blocker is a failed JUnit test case.
            text: render::render(
                r,
                f,
                RenderOptions { fail_on: Some(kube_preflight::Severity::Blocker), ..RenderOptions::default() },
            ),
        })
    }

    /// Up to three lines either side of `line` in the named input.
    pub fn lines(&self, file: &str, line: u32, reader: &mut dyn Reader) -> FromWorker {
        let first = line.saturating_sub(3).max(1);
        let last = line.saturating_add(3);
        let mut lines = Vec::new();
        if let Some(spec) = self.inputs.iter().find(|i| i.name == file || i.name.ends_with(&format!("/{file}"))) {
            let size = reader.size(spec);
            let (mut offset, mut at, mut cur) = (0u64, 1u32, Vec::new());
            'read: while offset < size && at <= last {
                let Ok(bytes) = reader.read(spec, offset, CHUNK.min(size - offset)) else { break };
                offset += bytes.len().max(1) as u64;
                for b in bytes {
                    if b == b'\n' {
                        if at >= first {
                            lines.push(String::from_utf8_lossy(&cur).into_owned());
                        }
                        cur.clear();
                        at += 1;
                        if at > last {
                            break 'read;
                        }
                    } else if at >= first && cur.len() < 400 {
                        cur.push(b);
                    }
                }
            }
            if at >= first && at <= last && !cur.is_empty() {
                lines.push(String::from_utf8_lossy(&cur).into_owned());
            }
        }
        FromWorker::Lines { file: file.to_owned(), first, lines }
    }
}

/// Every concurrency from 1 to `size` when there are few, else [`CURVE_POINTS`] of them spread
/// geometrically (dense where a step changes most), always with 1 and `size`.
pub fn concurrencies(size: u32) -> Vec<u32> {
    if size <= CURVE_POINTS {
        return (1..=size).collect();
    }
    let mut out: Vec<u32> = (0..CURVE_POINTS)
        .map(|i| {
            let x = f64::from(size).powf(f64::from(i) / f64::from(CURVE_POINTS - 1));
            (x.round() as u32).clamp(1, size)
        })
        .collect();
    out.dedup();
    out
}

/// The nodes and the pods a drain moves from each, as the core's drain picks them
/// (`Cluster::evicted_by_drain`): running pods, not static pods' mirrors (the kubelet runs them, no drain
/// evicts them), not DaemonSet pods (left alone by `--ignore-daemonsets`).
fn node_facts(ingested: &Ingested) -> Vec<NodeFacts> {
    let mut nodes: Vec<NodeFacts> = ingested
        .objects
        .iter()
        .filter(|o| o.node().is_some())
        .map(|o| NodeFacts {
            name: o.r.name.to_string(),
            control_plane: o.node_roles().control_plane,
            pods: 0,
            pod_names: Vec::new(),
        })
        .collect();
    kube_preflight::sort::sort_by(&mut nodes, |a, b| a.name.cmp(&b.name));
    nodes.dedup_by(|a, b| a.name == b.name);
    for o in &ingested.objects {
        let Some(pod) = o.pod() else { continue };
        let Some(node) = pod.spec.node_name.as_deref() else { continue };
        let finished = matches!(pod.phase.as_deref(), Some("Succeeded" | "Failed"));
        if finished || kube_preflight::cluster::eviction::is_mirror(o) || kube_preflight::cluster::drain::daemon_pod(o)
        {
            continue;
        }
        if let Ok(i) = nodes.binary_search_by(|n| n.name.as_str().cmp(node)) {
            if let Some(n) = nodes.get_mut(i) {
                n.pods += 1;
                if n.pod_names.len() < PODS_NAMED {
                    n.pod_names.push(format!("{}/{}", o.r.namespace.clone().unwrap_or_default(), o.r.name));
                }
            }
        }
    }
    nodes
}

/// The text of an input the message carries (pasted) or the page has built in (the demo); `None` for a
/// picked file, which only the worker can read.
pub fn held_text(spec: &InputSpec) -> Option<&str> {
    match &spec.source {
        Source::Text { text } => Some(text),
        Source::Demo => demo_text(&spec.name),
        Source::File { .. } => None,
    }
}

/// Reads the inputs whose text is held ([`held_text`]): the worker's for pasted text and the demo, and
/// the tests'.
pub struct Held;

impl Reader for Held {
    fn size(&mut self, spec: &InputSpec) -> u64 {
        held_text(spec).map_or(0, |t| t.len() as u64)
    }

    fn read(&mut self, spec: &InputSpec, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        let t = held_text(spec).ok_or_else(|| format!("{}: cannot be read", spec.name))?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let end = usize::try_from(offset.saturating_add(len)).unwrap_or(usize::MAX).min(t.len());
        Ok(t.as_bytes().get(start..end).unwrap_or_default().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::{demo_inputs, demo_specs, DEMO_FILES, DEMO_TARGET};
    use kube_preflight::report::Finding;
    use kube_preflight::{check, Input};

    /// Before anything is read the options are checked with a stand-in target, which every profile must
    /// read: GKE on Bare Metal takes its own product versions, and refuses those older than 1.10.
    #[test]
    fn every_profile_takes_the_stand_in_target() {
        for p in kube_preflight::Profile::ALL {
            let o = options_for(&format!(r#"{{"profile":"{}"}}"#, p.name()), None);
            assert!(o.is_ok(), "{p}: {o:?}");
        }
    }

    const PASTED: &str = "kind: Pod\nmetadata: [\n";

    const NOT_READ: &str = "not .yaml, .yml or .json: not read";

    /// The demo, pasted text that does not parse, and a file passed over.
    fn specs() -> Vec<InputSpec> {
        let mut v = demo_specs();
        v.push(InputSpec {
            name: "pasted.yaml".into(),
            source: Source::Text { text: PASTED.into() },
            passed_over: None,
        });
        let empty = Source::Text { text: String::new() };
        v.push(InputSpec { name: "notes.txt".into(), source: empty, passed_over: Some(NOT_READ.into()) });
        v
    }

    fn loaded() -> (Engine, Vec<InputInfo>, Vec<FromWorker>) {
        let mut e = Engine::default();
        let mut posts = Vec::new();
        let options = format!("{{\"to\":\"{DEMO_TARGET}\"}}");
        let infos = e.load(1, &options, specs(), &mut Held, &mut |m| posts.push(m)).unwrap();
        (e, infos, posts)
    }

    fn text_spec(name: &str, text: &str) -> Vec<InputSpec> {
        vec![InputSpec { name: name.into(), source: Source::Text { text: text.into() }, passed_over: None }]
    }

    #[test]
    fn the_findings_a_fix_reveals_come_apart_from_the_report_and_make_it_whole_again() {
        // A drain that waits for ever: the plan if resolved simulates the node after it and reveals its
        // findings. They are sent in parts after the report, never inside it.
        let text = include_str!("../../tests/fixtures/plan/kubeadm-drain-waits-for-ever/cluster.yaml");
        let mut e = Engine::default();
        let opts = "{\"to\":\"1.29.2\"}";
        e.load(1, opts, text_spec("cluster.yaml", text), &mut Held, &mut |_| {}).unwrap();
        let msgs = e.check(2, None).unwrap();
        let FromWorker::Report { report, .. } = &msgs[0] else { panic!() };
        let mut got: crate::view::ReportView = serde_json::from_str(report).unwrap();
        assert!(got.plan.if_resolved.as_ref().is_some_and(|ir| ir.revealed.is_empty()), "sent inside the report");
        let revealed_parts = msgs.iter().filter(|m| matches!(m, FromWorker::Findings { revealed: true, .. })).count();
        assert!(revealed_parts > 0);
        for m in &msgs[1..] {
            let FromWorker::Findings { part, revealed, .. } = m else { panic!() };
            got.take_part(part, *revealed).unwrap();
        }
        let expected = check(&[Input::new("cluster.yaml", text)], &options_for(opts, None).unwrap()).unwrap();
        assert!(!expected.plan.if_resolved.as_ref().unwrap().revealed.is_empty());
        let whole: crate::view::ReportView = serde_json::from_str(&expected.to_json()).unwrap();
        assert_eq!(got, whole);
        // Revealed findings with no plan if resolved to hold them: an error, never dropped.
        let mut bare = crate::view::ReportView::default();
        assert!(bare.take_part("[]", true).is_err());
    }

    #[test]
    fn a_part_holds_at_most_400_findings_and_about_a_mib() {
        let info = kube_preflight::rules::rule_infos()[0];
        let small: Vec<_> = (0..1000).map(|i| Finding::new(info, format!("f{i}"), "fix")).collect();
        let p = parts(&small);
        assert_eq!(
            p.iter().map(|s| serde_json::from_str::<Vec<serde_json::Value>>(s).unwrap().len()).collect::<Vec<_>>(),
            [400, 400, 200]
        );
        let big: Vec<_> = (0..10).map(|i| Finding::new(info, format!("{i}{}", "x".repeat(300_000)), "fix")).collect();
        let p = parts(&big);
        assert_eq!(p.len(), 3, "four findings of 300 KB to a part");
        assert!(p.iter().all(|s| s.len() < PART_BYTES + 400_000));
        assert!(parts(&[]).is_empty());
    }

    #[test]
    fn with_no_target_a_cluster_is_checked_against_the_minor_after_its_own_version() {
        let mut e = Engine::default();
        let text = include_str!("../../tests/fixtures/cli/nodes-1.30.json");
        e.load(1, "{\"to\":\"\"}", text_spec("nodes.json", text), &mut Held, &mut |_| {}).unwrap();
        e.check(1, None).unwrap();
        let r = e.report.as_ref().unwrap();
        assert_eq!((r.upgrade.from.as_deref(), r.upgrade.to.as_str()), (Some("1.30.2"), "1.31"));
        assert!(!r.findings.iter().any(|f| f.code == "version/downgrade"));
        // A target given is kept; `from` given decides the minor without reading the nodes.
        e.check(2, Some("{\"to\":\"\",\"from\":\"1.29.4\"}")).unwrap();
        assert_eq!(e.report.as_ref().unwrap().upgrade.to, "1.30");
        e.check(3, Some("{\"to\":\"1.30.2\"}")).unwrap();
        assert_eq!(e.report.as_ref().unwrap().upgrade.to, "1.30.2");
        // Nothing tells the current version (a managed cluster's nodes, or manifests): the target is asked for.
        let manifests = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n";
        e.load(4, "{\"to\":\"\"}", text_spec("m.yaml", manifests), &mut Held, &mut |_| {}).unwrap();
        let err = e.check(4, None).unwrap_err();
        assert!(err.starts_with("to: no target is set and the current version cannot be read"), "{err}");
    }

    #[test]
    fn a_comparison_gives_both_sides_and_the_findings_that_differ() {
        let (mut e, _, _) = loaded();
        e.check(1, None).unwrap();
        let c = e.compare(&format!("{{\"to\":\"{DEMO_TARGET}\",\"maxUnavailableWorker\":\"100%\"}}")).unwrap();
        assert_eq!(c.options, [("maxUnavailableWorker".to_owned(), "100%".to_owned())]);
        let r = e.report.as_ref().unwrap();
        assert_eq!((c.current.blocker, c.current.plan_seconds), (r.summary.blocker as u64, r.plan.total_seconds));
        // Every worker at once: a shorter plan, and the budget warning that the limit covers the pool.
        assert!(c.other.plan_seconds < c.current.plan_seconds, "{c:?}");
        assert!(c.only_other.iter().any(|f| f.starts_with("warning budget/limit-covers-pool")), "{:?}", c.only_other);
        // What each side stands on: the demo reads no webhooks, APIServices, CRDs or Helm releases.
        assert!(c.current.incomplete.contains(&"aggregated-apis".to_owned()), "{:?}", c.current);
        assert_eq!(c.current.verdict_words(), format!("BLOCKED (not checked: {})", c.current.incomplete.join(", ")));
        // The same options: nothing differs.
        let same = e.compare(&format!("{{\"to\":\"{DEMO_TARGET}\"}}")).unwrap();
        assert!(same.options.is_empty() && same.only_other.is_empty() && same.only_current.is_empty());
        assert_eq!(same.current, same.other);
        let err = e.compare("{\"to\":\"1.29.2\",\"maxSurge\":\"ten\"}").unwrap_err();
        assert!(err.contains("maxSurge"), "{err}");
    }

    #[test]
    fn reading_reports_progress_counts_objects_per_file_and_leaves_out_what_cannot_be_read() {
        let (e, infos, posts) = loaded();
        let total: u64 = DEMO_FILES.iter().map(|(_, t)| t.len() as u64).sum::<u64>() + PASTED.len() as u64;
        assert!(
            matches!(posts.last(), Some(FromWorker::Progress { bytes, total: t, .. }) if *bytes == total && *t == total)
        );
        assert_eq!(infos.len(), 4);
        // The same counts as reading each demo file alone.
        for (info, (name, text)) in infos.iter().zip(DEMO_FILES) {
            let alone = check(&[Input::new(name, text)], &UpgradeOptions::new(DEMO_TARGET)).unwrap();
            assert_eq!(info.objects, alone.inventory.objects as u64, "{name}");
            assert!(info.skipped.is_none());
        }
        let pasted = &infos[2];
        assert_eq!(pasted.objects, 0);
        assert!(pasted.skipped.as_deref().unwrap().contains("pasted.yaml:3:1"), "{pasted:?}");
        assert_eq!(infos[3].skipped.as_deref(), Some(NOT_READ));
        assert!(e.nodes.iter().any(|n| n.control_plane) && e.nodes.iter().any(|n| n.pods > 0));
    }

    #[test]
    fn the_report_is_the_cores_under_each_option_set_and_findings_come_in_parts() {
        let (mut e, _, _) = loaded();
        let mut inputs = demo_inputs();
        inputs.push(Input::new("pasted.yaml", PASTED).discovered());
        let mut notes = Input::new("notes.txt", "");
        notes.passed_over = Some(NOT_READ.into());
        inputs.push(notes);
        for opts in [
            format!("{{\"to\":\"{DEMO_TARGET}\"}}"),
            "{\"to\":\"1.28.4\",\"profile\":\"rke\",\"maxUnavailableWorker\":2}".to_owned(),
        ] {
            let msgs = e.check(2, Some(&opts)).unwrap();
            let expected = check(&inputs, &options_for(&opts, None).unwrap()).unwrap();
            let FromWorker::Report { report, findings, .. } = &msgs[0] else { panic!() };
            assert_eq!(*findings as usize, expected.findings.len());
            let mut got: crate::view::ReportView = serde_json::from_str(report).unwrap();
            for m in &msgs[1..] {
                let FromWorker::Findings { part, revealed, .. } = m else { panic!() };
                got.take_part(part, *revealed).unwrap();
            }
            let whole: crate::view::ReportView = serde_json::from_str(&expected.to_json()).unwrap();
            assert_eq!(got, whole);
            assert!(matches!(msgs.last(), Some(FromWorker::Findings { last: true, .. })));
        }
        let bad = e.check(3, Some("{\"to\":\"1.29\",\"maxSurge\":\"ten\"}")).unwrap_err();
        assert!(bad.contains("maxSurge"), "{bad}");
    }

    #[test]
    fn the_curve_tries_each_concurrency_of_the_largest_worker_pool() {
        let (mut e, _, _) = loaded();
        e.check(1, None).unwrap();
        let (pool, size, ks) = e.curve_plan().unwrap();
        assert_eq!(pool, "workers");
        assert_eq!(ks, (1..=size).collect::<Vec<_>>());
        let one = e.curve_point(1).unwrap();
        let all = e.curve_point(size).unwrap();
        // All workers at once is never longer than one at a time.
        assert!(all.total_seconds <= one.total_seconds, "{one:?} {all:?}");
        let inputs = demo_inputs();
        let mut o = UpgradeOptions::new(DEMO_TARGET);
        o.max_unavailable_worker = Some(IntOrPercent::Int(1));
        assert_eq!(one.total_seconds, check(&inputs, &o).unwrap().plan.total_seconds);
        assert_eq!(concurrencies(1000).first(), Some(&1));
        assert_eq!(concurrencies(1000).last(), Some(&1000));
        assert!(concurrencies(1000).len() <= CURVE_POINTS as usize);
    }

    #[test]
    fn exports_and_source_lines() {
        let (mut e, _, _) = loaded();
        e.check(1, None).unwrap();
        let FromWorker::Export { text, file_name, .. } = e.export("sarif").unwrap() else { panic!() };
        assert!(text.contains("\"version\": \"2.1.0\"") && file_name.ends_with(".sarif"), "{file_name}");
        assert!(e.export("pdf").is_err());
        // The JUnit export fails a test case per blocker, as the CLI's does.
        let blockers = e.report.as_ref().unwrap().summary.blocker;
        assert!(blockers > 0);
        let FromWorker::Export { text, .. } = e.export("junit").unwrap() else { panic!() };
        assert!(text.contains(&format!(" failures=\"{blockers}\" errors=\"0\">")), "{text}");
        let (name, text) = DEMO_FILES[1];
        let FromWorker::Lines { first, lines, .. } = e.lines(name, 5, &mut Held) else { panic!() };
        assert_eq!(first, 2);
        assert_eq!(lines, text.lines().skip(1).take(7).collect::<Vec<_>>());
    }
}
