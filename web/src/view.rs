//! The report as the page reads it (the contract's JSON, as any portal embedding the npm package would),
//! and the view models the components draw: findings filtered and grouped, the timeline's rows, the
//! replay at a moment, the what-if curve. Pure: tested natively.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::protocol::{CurvePoint, NodeFacts};

/// `Eq` (no field is a float): an `Rc<ReportView>` then compares equal to itself at once, by its pointer,
/// not field by field (a component's props hold one, and yew compares props on every render).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReportView {
    pub upgrade: UpgradeV,
    pub inventory: InventoryV,
    pub summary: SummaryV,
    pub findings: Vec<FindingV>,
    pub plan: PlanV,
    pub downtime: DowntimeV,
    pub not_run: Vec<NotRunV>,
    pub coverage: CoverageV,
    /// An upgrade under way (`report.progress`).
    pub progress: Option<crate::progress::ProgressV>,
    /// Inputs picked or pasted by name that could not be read, with why (the page's, not the report's:
    /// the CLI refuses such a file, so the verdict here is INCOMPLETE, never READY).
    #[serde(skip)]
    pub unreadable: Vec<(String, String)>,
}

/// `coverage`: what each family of checks read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CoverageV {
    /// `cluster` or `manifests`.
    pub scope: String,
    pub reviewed_through: String,
    pub beyond_review: bool,
    pub families: Vec<FamilyV>,
    /// The families in scope that make the run incomplete.
    pub incomplete: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FamilyV {
    pub id: String,
    pub family: String,
    /// `checked`, `partial`, `not-read`, `not-simulated`, `unreadable` or `skipped`.
    pub state: String,
    pub in_scope: bool,
    pub reason: Option<String>,
    pub codes: Vec<String>,
    pub checked: bool,
    pub not_checked: Option<String>,
}

impl FamilyV {
    /// The state as a reader says it (`not read`).
    pub fn state_words(&self) -> String {
        self.state.replace('-', " ")
    }
}

impl CoverageV {
    /// The first family that covers `code` and is not checked: a rule it covers shows no pass.
    pub fn unchecked_for(&self, code: &str) -> Option<&FamilyV> {
        self.families.iter().find(|f| !f.checked && f.codes.iter().any(|c| kube_preflight::coverage::covers(c, code)))
    }

    /// The families in scope that are not checked (skipped and partial ones included).
    pub fn unchecked(&self) -> Vec<&FamilyV> {
        self.families.iter().filter(|f| f.in_scope && !f.checked).collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpgradeV {
    pub from: Option<String>,
    pub to: String,
    pub profile: String,
    pub path: Vec<String>,
    pub from_source: Option<String>,
    pub from_detail: Option<String>,
    /// The versions as people read them, when the target is a product version (`upgrade.shown`).
    pub shown: Option<ShownV>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct ShownV {
    pub from: Option<String>,
    pub to: String,
    pub path: Vec<String>,
}

impl UpgradeV {
    /// `1.27.6 → 1.28 → 1.29.2`, or for a product target `4.15 (Kubernetes 1.28.7) → 4.16.3 (Kubernetes
    /// 1.29)`; `unknown` for a current version not known.
    pub fn hops(&self) -> String {
        let (from, path) = match &self.shown {
            Some(s) => (s.from.clone().or_else(|| self.from.clone()), &s.path),
            None => (self.from.clone(), &self.path),
        };
        format!("{} → {}", from.unwrap_or_else(|| "unknown".into()), path.join(" → "))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InventoryV {
    pub files: u64,
    pub objects: u64,
    pub by_kind: BTreeMap<String, u64>,
    pub skipped: Vec<SkippedV>,
    pub detected_profile: Option<DetectedV>,
}

/// `inventory.detectedProfile`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct DetectedV {
    pub profile: Option<String>,
    pub managed: Option<String>,
    pub matches: bool,
    pub evidence: Vec<EvidenceV>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct EvidenceV {
    pub what: String,
    pub at: Option<String>,
}

impl DetectedV {
    /// The strongest evidence, as a phrase.
    pub fn first(&self) -> String {
        self.evidence
            .first()
            .map(|e| match &e.at {
                Some(at) => format!("{} at {at}", e.what),
                None => e.what.clone(),
            })
            .unwrap_or_default()
    }
}

/// What the verdict card says first: the core's verdict, or `incomplete` when checks did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headline {
    Blocked,
    Ready,
    /// No blocker, but some checks could not run (the current version is unknown): not a pass.
    Incomplete,
    NothingChecked,
}

impl Headline {
    pub fn of(r: &ReportView) -> Headline {
        match r.summary.verdict.as_str() {
            "blocked" => Headline::Blocked,
            "nothing-checked" => Headline::NothingChecked,
            "incomplete" => Headline::Incomplete,
            _ if r.rules_not_run() > 0 || !r.unreadable.is_empty() => Headline::Incomplete,
            _ => Headline::Ready,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Headline::Blocked => "BLOCKED",
            Headline::Ready => "READY",
            Headline::Incomplete => "INCOMPLETE",
            Headline::NothingChecked => "NOTHING CHECKED",
        }
    }

    /// The card's class (its colour).
    pub fn class(self) -> &'static str {
        match self {
            Headline::Blocked => "blocked",
            Headline::Ready => "ready",
            Headline::Incomplete => "incomplete",
            Headline::NothingChecked => "nothing-checked",
        }
    }
}

impl ReportView {
    /// A part of the findings the worker sends after the report (`FromWorker::Findings`): the report's
    /// own, or (`revealed`) those of `plan.ifResolved.revealed`.
    pub fn take_part(&mut self, part: &str, revealed: bool) -> Result<(), String> {
        let found: Vec<FindingV> = serde_json::from_str(part).map_err(|e| e.to_string())?;
        match (revealed, self.plan.if_resolved.as_mut()) {
            (false, _) => self.findings.extend(found),
            (true, Some(ir)) => ir.revealed.extend(found),
            (true, None) => return Err("findings the fix reveals, with no plan if resolved".to_owned()),
        }
        Ok(())
    }

    /// Rules (not the plan or the inputs) that did not run.
    pub fn rules_not_run(&self) -> usize {
        self.not_run.iter().filter(|n| n.code.contains('/')).count()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct SkippedV {
    pub file: String,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct SummaryV {
    pub blocker: u64,
    pub warning: u64,
    pub info: u64,
    pub verdict: String,
    /// Suppressed findings by severity (not in the counts above).
    pub suppressed: CountsV,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct CountsV {
    pub blocker: u64,
    pub warning: u64,
    pub info: u64,
}

impl CountsV {
    pub fn total(&self) -> u64 {
        self.blocker + self.warning + self.info
    }
}

/// Why a finding is suppressed (the report's `suppressed`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct SuppressedV {
    pub by: String,
    pub reason: Option<String>,
    pub object: Option<String>,
    pub exemption: Option<u64>,
    pub expires: Option<String>,
}

impl SuppressedV {
    /// In words, as every other format says it.
    pub fn describe(&self) -> String {
        kube_preflight::render::describe_suppression(
            &self.by,
            self.reason.as_deref(),
            self.object.as_deref(),
            self.exemption.and_then(|i| usize::try_from(i).ok()),
            self.expires.as_deref(),
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectV {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectV {
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} {ns}/{}", self.kind, self.name),
            None => format!("{} {}", self.kind, self.name),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct SourceV {
    pub file: String,
    pub line: Option<u32>,
    pub via: Option<String>,
}

impl SourceV {
    pub fn location(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct FindingV {
    pub code: String,
    pub severity: String,
    pub message: String,
    pub help: String,
    pub object: Option<ObjectV>,
    pub source: Option<SourceV>,
    pub hop: Option<String>,
    pub data: BTreeMap<String, serde_json::Value>,
    /// Accepted by the user: shown, marked, never counted.
    pub suppressed: Option<SuppressedV>,
}

impl FindingV {
    /// The node it is about: a Node object, or the node named in its facts.
    pub fn node(&self) -> Option<&str> {
        match &self.object {
            Some(o) if o.kind == "Node" => Some(o.name.as_str()),
            _ => self.data.get("node").and_then(serde_json::Value::as_str),
        }
    }

    pub fn namespace(&self) -> Option<&str> {
        self.object.as_ref().and_then(|o| o.namespace.as_deref())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PhaseV {
    pub name: String,
    pub pool: Option<String>,
    pub hop: Option<String>,
    pub concurrency: u32,
    pub nodes: Vec<String>,
    pub start_seconds: u64,
    pub end_seconds: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepV {
    pub node: String,
    pub phase: String,
    pub pool: Option<String>,
    pub hop: Option<String>,
    pub start_seconds: u64,
    pub end_seconds: u64,
    pub segments: Vec<SegmentV>,
}

/// Part of a step's time (`drain`, `budget-wait`, `upgrade`, `ready`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct SegmentV {
    pub kind: String,
    pub seconds: u64,
}

/// `plan.learned`: a pool's step time as measured.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LearnedV {
    pub pool: String,
    pub source: String,
    pub samples: usize,
    pub median_seconds: u64,
    pub p90_seconds: u64,
}

impl SegmentV {
    pub fn label(&self) -> &'static str {
        match self.kind.as_str() {
            "drain" => "drain",
            "budget-wait" => "waiting on a budget",
            "upgrade" => "upgrade",
            "ready" => "ready",
            "learned" => "as measured (cordon to uncordon, less the drain)",
            _ => "other",
        }
    }
}

impl StepV {
    /// Where its time goes, in words: `drain 35s, waiting on a budget 20m00s, ...`.
    pub fn split(&self) -> String {
        let parts: Vec<String> = self
            .segments
            .iter()
            .map(|g| format!("{} {}", g.label(), kube_preflight::units::duration(g.seconds)))
            .collect();
        parts.join(", ")
    }
}

/// How the node steps are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepSort {
    #[default]
    Start,
    Longest,
    Node,
}

/// The plan's node steps whose node, pool, phase or hop holds `text`, in `sort` order (indices into steps).
pub fn step_rows(r: &ReportView, text: &str, sort: StepSort) -> Vec<usize> {
    let needle = text.trim().to_ascii_lowercase();
    let mut rows: Vec<usize> = (0..r.plan.steps.len())
        .filter(|i| {
            let Some(s) = r.plan.steps.get(*i) else { return false };
            needle.is_empty()
                || s.node.to_ascii_lowercase().contains(&needle)
                || s.phase.contains(&needle)
                || s.pool.as_deref().is_some_and(|p| p.to_ascii_lowercase().contains(&needle))
                || s.hop.as_deref().is_some_and(|h| h.contains(&needle))
        })
        .collect();
    // Keys borrowed from the steps (no name copied at each comparison).
    let key = |i: &usize| {
        r.plan.steps.get(*i).map(|s| (s.start_seconds, s.end_seconds.saturating_sub(s.start_seconds), s.node.as_str()))
    };
    match sort {
        StepSort::Start => kube_preflight::sort::sort_by(&mut rows, |a, b| {
            key(a).map(|(s, _, n)| (s, n)).cmp(&key(b).map(|(s, _, n)| (s, n)))
        }),
        StepSort::Longest => kube_preflight::sort::sort_by(&mut rows, |a, b| {
            let k = |i| key(i).map(|(s, d, n)| (std::cmp::Reverse(d), s, n));
            k(a).cmp(&k(b))
        }),
        StepSort::Node => kube_preflight::sort::sort_by(&mut rows, |a, b| {
            key(a).map(|(s, _, n)| (n, s)).cmp(&key(b).map(|(s, _, n)| (n, s)))
        }),
    }
    rows
}

/// The findings about a node: on the Node object, or naming it in their data.
pub fn findings_on_node<'a>(r: &'a ReportView, node: &str) -> Vec<&'a FindingV> {
    r.findings
        .iter()
        .filter(|f| {
            f.object.as_ref().is_some_and(|o| o.kind == "Node" && o.name == node)
                || f.data.get("node").and_then(|v| v.as_str()) == Some(node)
                || f.data
                    .get("nodes")
                    .and_then(|v| v.as_array())
                    .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(node)))
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PlanV {
    pub phases: Vec<PhaseV>,
    pub steps: Vec<StepV>,
    pub total_seconds: u64,
    pub timings: BTreeMap<String, u64>,
    /// Where the upgrade stops or waits for ever (empty when it completes).
    pub stops: Vec<StopV>,
    /// The drain the plan assumes (`plan.drain`), when the profile drains.
    pub drain: Option<DrainV>,
    /// The nodes never simulated because of a stop.
    pub not_simulated: Vec<String>,
    /// Pools the upgrade leaves out, with why.
    pub left_out: Vec<LeftOutV>,
    /// Per pool, a node's step as measured (`plan.learned`).
    pub learned: Vec<LearnedV>,
    /// The plan with the stops' causes taken as resolved.
    pub if_resolved: Option<Box<IfResolvedV>>,
}

/// The drain the plan assumes (the report's `plan.drain`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DrainV {
    pub by: String,
    pub force: bool,
    pub delete_empty_dir_data: bool,
    /// Absent from a report of an earlier version, whose drains all ignored DaemonSet pods.
    #[serde(default = "yes")]
    pub ignore_daemonsets: bool,
    pub honours_budgets: bool,
    pub flags_from_options: bool,
}

fn yes() -> bool {
    true
}

impl DrainV {
    /// `kubectl drain, without --force, without --delete-emptydir-data, waiting on PodDisruptionBudgets`.
    pub fn describe(&self) -> String {
        format!(
            "{}, {} --force, {} --delete-emptydir-data, {}{}",
            self.by,
            if self.force { "with" } else { "without" },
            if self.delete_empty_dir_data { "with" } else { "without" },
            if self.ignore_daemonsets { "" } else { "without --ignore-daemonsets (DaemonSet pods refused), " },
            if self.honours_budgets {
                "waiting on PodDisruptionBudgets"
            } else {
                "not waiting on PodDisruptionBudgets"
            }
        )
    }
}

/// A pool the upgrade leaves out (`plan.leftOut`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct LeftOutV {
    pub pool: String,
    pub reason: String,
    pub nodes: Vec<String>,
}

/// A stop's cause taken as resolved, and how.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct LiftedV {
    pub code: String,
    pub how: String,
}

/// The plan once the blockers that stop it are resolved (the report's `plan.ifResolved`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct IfResolvedV {
    pub lifted: Vec<LiftedV>,
    pub plan: PlanV,
    pub downtime: DowntimeV,
    pub summary: SummaryV,
    pub revealed: Vec<FindingV>,
}

/// A place where the plan stops (the report's `plan.stops`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StopV {
    pub hop: String,
    pub phase: String,
    pub pool: Option<String>,
    pub node: Option<String>,
    pub start_seconds: Option<u64>,
    pub at_seconds: u64,
    pub outcome: String,
    pub code: String,
    pub reason: String,
    pub pending: Vec<String>,
}

impl StopV {
    /// One line: where and why.
    pub fn describe(&self) -> String {
        let verb = if self.outcome == "waits" { "waits for ever" } else { "fails" };
        let place = match (&self.node, &self.pool) {
            (Some(n), _) => format!(" on {n}"),
            (None, Some(p)) => format!(" in pool {p}"),
            _ => String::new(),
        };
        let pending = if self.pending.is_empty() {
            String::new()
        } else {
            format!("; never upgraded: {}", self.pending.join(", "))
        };
        format!(
            "The upgrade {verb} at {}{place} ({} of hop {}): {}{pending}",
            kube_preflight::units::duration(self.at_seconds),
            self.phase,
            self.hop,
            self.reason
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct ComponentV {
    pub component: String,
    pub expected: String,
    pub when: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WindowV {
    pub start_seconds: u64,
    pub end_seconds: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct WorkloadV {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub seconds: u64,
    pub reason: String,
    pub windows: Vec<WindowV>,
    /// Down from its last window until someone intervenes (the plan stops with it down).
    #[serde(rename = "untilIntervention")]
    pub until_intervention: bool,
}

impl WorkloadV {
    pub fn display(&self) -> String {
        format!("{} {}/{}", self.kind, self.namespace, self.name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct DowntimeV {
    pub components: Vec<ComponentV>,
    pub workloads: Vec<WorkloadV>,
    /// The plan stops: only what happens before the stop was simulated.
    pub partial: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct NotRunV {
    pub code: String,
    pub reason: String,
}

pub const SEVERITIES: [&str; 3] = ["blocker", "warning", "info"];

/// The findings filter: every part must match; empty parts match all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filter {
    /// Severities hidden (all shown when empty), sorted, each once ([`Filter::toggle`]; a list rather than a
    /// B-tree set: the page's only set of strings).
    pub hidden: Vec<String>,
    pub rule: String,
    pub namespace: String,
    pub node: String,
    pub text: String,
}

impl Filter {
    /// The filter as URL pairs (`hide=info,warning`, `rule=`, `ns=`, `node=`, `q=`), only the parts set.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !self.hidden.is_empty() {
            out.push(("hide", self.hidden.join(",")));
        }
        for (k, v) in [("rule", &self.rule), ("ns", &self.namespace), ("node", &self.node), ("q", &self.text)] {
            if !v.is_empty() {
                out.push((k, v.clone()));
            }
        }
        out
    }

    /// The filter from the URL's pairs (unknown severities are ignored).
    pub fn from_pairs(pairs: &[(String, String)]) -> Filter {
        let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone()).unwrap_or_default();
        let mut hidden: Vec<String> =
            get("hide").split(',').filter(|s| SEVERITIES.contains(s)).map(str::to_owned).collect();
        kube_preflight::sort::sort_dedup(&mut hidden);
        Filter { hidden, rule: get("rule"), namespace: get("ns"), node: get("node"), text: get("q") }
    }

    /// Hide the severity `sev` if shown, show it if hidden.
    pub fn toggle(&mut self, sev: &str) {
        match self.hidden.binary_search_by(|h| h.as_str().cmp(sev)) {
            Ok(i) => {
                self.hidden.remove(i);
            }
            Err(i) => self.hidden.insert(i, sev.to_owned()),
        }
    }

    /// Is the severity `sev` hidden?
    pub fn hides(&self, sev: &str) -> bool {
        self.hidden.iter().any(|h| h == sev)
    }

    /// The finding passes every filter. The text is matched without regard to the case of ASCII letters
    /// (every Kubernetes name is ASCII, as are the rules' messages); other letters match as written, so the
    /// page carries no Unicode case tables (7 KB of its gzipped wasm for `to_uppercase` alone).
    pub fn matches(&self, f: &FindingV) -> bool {
        self.matches_lowered(f, &self.text.trim().to_ascii_lowercase())
    }

    /// [`Filter::matches`] with the text already trimmed and lowered (once for a whole list).
    fn matches_lowered(&self, f: &FindingV, text: &str) -> bool {
        !self.hides(&f.severity)
            && (self.rule.is_empty() || f.code == self.rule)
            && (self.namespace.is_empty() || f.namespace() == Some(self.namespace.as_str()))
            && (self.node.is_empty() || f.node() == Some(self.node.as_str()))
            && (text.is_empty()
                || [f.message.as_str(), f.help.as_str(), f.code.as_str()]
                    .iter()
                    .any(|s| s.to_ascii_lowercase().contains(text))
                || f.object.as_ref().is_some_and(|o| o.display().to_ascii_lowercase().contains(text))
                || f.source.as_ref().is_some_and(|s| s.file.to_ascii_lowercase().contains(text)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupBy {
    #[default]
    None,
    Rule,
    Object,
}

impl GroupBy {
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::None => "none",
            GroupBy::Rule => "rule",
            GroupBy::Object => "object",
        }
    }

    pub fn parse(s: &str) -> GroupBy {
        match s {
            "rule" => GroupBy::Rule,
            "object" => GroupBy::Object,
            _ => GroupBy::None,
        }
    }
}

/// The values the filter's lists offer: rules, namespaces and nodes that occur, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facets {
    pub rules: Vec<String>,
    pub namespaces: Vec<String>,
    pub nodes: Vec<String>,
}

pub fn facets(findings: &[FindingV]) -> Facets {
    // Borrowed while counting: one string made per distinct value, not per finding.
    let (mut rules, mut namespaces, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
    for f in findings {
        add_sorted(&mut rules, f.code.as_str());
        if let Some(ns) = f.namespace() {
            add_sorted(&mut namespaces, ns);
        }
        if let Some(n) = f.node() {
            add_sorted(&mut nodes, n);
        }
    }
    let owned = |set: Vec<&str>| set.into_iter().map(str::to_owned).collect();
    Facets { rules: owned(rules), namespaces: owned(namespaces), nodes: owned(nodes) }
}

/// Add `v` to the sorted list `set` unless it holds it already. The distinct values of a facet are few (rules,
/// namespaces, nodes) against the findings looked at: a sorted list rather than a B-tree set, one map type
/// less in the page's wasm.
fn add_sorted<'a>(set: &mut Vec<&'a str>, v: &'a str) {
    if let Err(i) = set.binary_search(&v) {
        set.insert(i, v);
    }
}

/// The findings that match, in groups (one unnamed group when not grouping), each group's members as
/// indices into `findings`, groups in order of their worst member, then by name.
pub fn grouped(findings: &[FindingV], filter: &Filter, by: GroupBy) -> Vec<(String, Vec<usize>)> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let text = filter.text.trim().to_ascii_lowercase();
    for (i, f) in findings.iter().enumerate().filter(|(_, f)| filter.matches_lowered(f, &text)) {
        let key = match by {
            GroupBy::None => String::new(),
            GroupBy::Rule => f.code.clone(),
            GroupBy::Object => f.object.as_ref().map(ObjectV::display).unwrap_or_else(|| "(the cluster)".to_owned()),
        };
        groups.entry(key).or_default().push(i);
    }
    let rank = |s: &str| SEVERITIES.iter().position(|x| *x == s).unwrap_or(SEVERITIES.len());
    // Each group's worst severity, worked out once (not at every comparison of the sort).
    let mut out: Vec<(usize, String, Vec<usize>)> = groups
        .into_iter()
        .map(|(name, members)| {
            let worst = members.iter().filter_map(|i| findings.get(*i)).map(|f| rank(&f.severity)).min().unwrap_or(9);
            (worst, name, members)
        })
        .collect();
    kube_preflight::sort::sort_by(&mut out, |a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    out.into_iter().map(|(_, name, members)| (name, members)).collect()
}

/// A node's state at one moment of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    /// Its first step has not started.
    Waiting,
    /// In a step: cordoned, drained, upgraded or rebooting.
    Out,
    /// Between two hops' steps.
    Between,
    /// Every step done.
    Done,
}

impl NodeState {
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Waiting => "waiting",
            NodeState::Out => "out",
            NodeState::Between => "between",
            NodeState::Done => "done",
        }
    }
}

pub fn node_state(steps: &[&StepV], t: u64) -> NodeState {
    if steps.iter().any(|s| s.start_seconds <= t && t < s.end_seconds) {
        NodeState::Out
    } else if steps.iter().all(|s| s.end_seconds <= t) {
        NodeState::Done
    } else if steps.iter().any(|s| s.end_seconds <= t) {
        NodeState::Between
    } else {
        NodeState::Waiting
    }
}

/// The nodes by pool, for the replay's map: a pool is the step's pool where the distribution has pools,
/// else the phase (control plane, workers); each pool's nodes sorted by name.
pub fn pools(plan: &PlanV, nodes: &[NodeFacts]) -> Vec<(String, Vec<String>)> {
    // (node, pool) in the order they are met: a node's first pool is its own. Sorted lists rather than B-tree
    // maps and sets (three map types less in the page's wasm).
    let mut met: Vec<(&str, String)> = Vec::new();
    for s in &plan.steps {
        met.push((s.node.as_str(), s.pool.clone().unwrap_or_else(|| s.phase.clone())));
    }
    // Where the plan stops: the stuck node in its pool, the nodes never reached apart.
    for st in &plan.stops {
        if let Some(node) = st.node.as_deref() {
            met.push((node, st.pool.clone().unwrap_or_else(|| st.phase.clone())));
        }
        met.extend(st.pending.iter().map(|n| (n.as_str(), "never upgraded (the plan stops)".to_owned())));
    }
    for l in &plan.left_out {
        let pool = format!("{}: left out of the upgrade", l.pool);
        met.extend(l.nodes.iter().map(|n| (n.as_str(), pool.clone())));
    }
    met.extend(nodes.iter().map(|n| (n.name.as_str(), "not in the plan".to_owned())));
    // By node, stably: each node's first pool leads its run, and is the one kept.
    kube_preflight::sort::sort_by(&mut met, |a, b| a.0.cmp(b.0));
    met.dedup_by(|later, first| later.0 == first.0);
    kube_preflight::sort::sort_by(&mut met, |a, b| (&a.1, a.0).cmp(&(&b.1, b.0)));
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (node, pool) in met {
        match out.last_mut() {
            Some((p, names)) if *p == pool => names.push(node.to_owned()),
            _ => out.push((pool, vec![node.to_owned()])),
        }
    }
    // Control-plane pools first, as they upgrade first.
    let first = |p: &str| !(p.contains("control") || p.contains("master") || p == "etcd");
    kube_preflight::sort::sort_by_key(&mut out, |(p, _)| (first(p), p.clone()));
    out
}

/// Each node's state at one moment, by name: a sorted list rather than a B-tree map (one map type less in the
/// page's wasm).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeStates(Vec<(String, NodeState)>);

impl NodeStates {
    pub fn get(&self, node: &str) -> Option<NodeState> {
        kube_preflight::sort::get_key(&self.0, node).copied()
    }

    pub fn set(&mut self, node: &str, state: NodeState) {
        kube_preflight::sort::upsert(&mut self.0, node, || (node.to_owned(), state), |s| *s = state);
    }
}

/// The plan at one moment: each node's state, the pods being moved, the workloads with no Ready replica.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Frame {
    pub states: NodeStates,
    pub out: Vec<String>,
    /// Pods on the nodes out now (those the drain moves), counted, and named up to 50 per node.
    pub moving: u64,
    pub moving_names: Vec<String>,
    pub down: Vec<String>,
}

pub fn frame(report: &ReportView, nodes: &[NodeFacts], t: u64) -> Frame {
    // The steps by node (stably: each node's in plan order), each node's run judged at once.
    let mut steps: Vec<&StepV> = report.plan.steps.iter().collect();
    kube_preflight::sort::sort_by(&mut steps, |a, b| a.node.cmp(&b.node));
    let mut f = Frame::default();
    for run in steps.chunk_by(|a, b| a.node == b.node) {
        let Some(node) = run.first().map(|s| s.node.as_str()) else { continue };
        let st = node_state(run, t);
        if st == NodeState::Out {
            f.out.push(node.to_owned());
        }
        f.states.set(node, st);
    }
    // A node whose drain never completes is out from its step's start for ever.
    for st in &report.plan.stops {
        if let (Some(node), Some(start)) = (&st.node, st.start_seconds) {
            if t >= start {
                if !f.out.contains(node) {
                    f.out.push(node.clone());
                }
                f.states.set(node, NodeState::Out);
            }
        }
    }
    // A profile that does not drain upgrades in place: nothing is moved; nor does a drain that fails at
    // once (a pod it refuses, an eviction refused): only one a budget holds waits after evicting the rest.
    let drains = report.plan.drain.is_some();
    let refused =
        |node: &str| {
            report.plan.stops.iter().any(|s| {
                s.node.as_deref() == Some(node) && s.outcome == "fails" && s.code != "disruption/pdb-blocks-drain"
            })
        };
    for n in nodes.iter().filter(|n| drains && !refused(&n.name) && f.states.get(&n.name) == Some(NodeState::Out)) {
        f.moving += u64::from(n.pods);
        f.moving_names.extend(n.pod_names.iter().map(|p| format!("{p} (from {})", n.name)));
    }
    f.down = report
        .downtime
        .workloads
        .iter()
        .filter(|w| w.windows.iter().any(|x| x.start_seconds <= t && t < x.end_seconds))
        .map(WorkloadV::display)
        .collect();
    f
}

/// How many of a phase's nodes are out at each change, as `(time, count)` steps, for the timeline.
pub fn in_flight(steps: &[&StepV]) -> Vec<(u64, u32)> {
    let mut events: Vec<(u64, i32)> = steps.iter().flat_map(|s| [(s.start_seconds, 1), (s.end_seconds, -1)]).collect();
    kube_preflight::sort::sort(&mut events);
    let mut out: Vec<(u64, u32)> = Vec::new();
    let mut n: i32 = 0;
    for (t, d) in events {
        n += d;
        let c = u32::try_from(n.max(0)).unwrap_or(0);
        match out.last_mut() {
            Some(last) if last.0 == t => last.1 = c,
            _ => out.push((t, c)),
        }
    }
    out
}

/// The steps of a phase row (same name, pool and hop).
pub fn phase_steps<'a>(plan: &'a PlanV, p: &PhaseV) -> Vec<&'a StepV> {
    plan.steps.iter().filter(|s| s.phase == p.name && s.pool == p.pool && s.hop == p.hop).collect()
}

/// The what-if points that are best: no other point is both shorter and with less downtime.
pub fn pareto(points: &[CurvePoint]) -> Vec<u32> {
    points
        .iter()
        .filter(|p| {
            !points.iter().any(|q| {
                q.total_seconds <= p.total_seconds
                    && q.downtime_seconds <= p.downtime_seconds
                    && (q.total_seconds < p.total_seconds || q.downtime_seconds < p.downtime_seconds)
            })
        })
        .map(|p| p.concurrency)
        .collect()
}

/// "Nice" axis ticks for `0..=max` seconds: about `n` of them at round durations.
pub fn ticks(max: u64, n: u64) -> Vec<u64> {
    const STEPS: [u64; 12] = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
    let want = max / n.max(1);
    let step = STEPS.iter().copied().find(|s| *s >= want).unwrap_or_else(|| want.div_ceil(86400).max(1) * 86400);
    (0..=max / step).map(|i| i * step).collect()
}

/// A rule's outcome on this report (the Checks view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Findings that count, by severity.
    Failed {
        blocker: u64,
        warning: u64,
        info: u64,
    },
    /// Only suppressed findings.
    Accepted(u64),
    NotRun(String),
    /// No finding, but a family of checks it stands on was not checked (not read, not simulated,
    /// unreadable, partial or skipped): never a pass.
    NotChecked(String),
    Passed,
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Failed { blocker, .. } if *blocker > 0 => "failed",
            Outcome::Failed { .. } => "flagged",
            Outcome::Accepted(_) => "accepted",
            Outcome::NotRun(_) => "not run",
            Outcome::NotChecked(_) => "not checked",
            Outcome::Passed => "passed",
        }
    }

    /// Worst first: failed, flagged, not run or not checked, accepted, passed.
    fn rank(&self) -> u8 {
        match self.name() {
            "failed" => 0,
            "flagged" => 1,
            "not run" | "not checked" => 2,
            "accepted" => 3,
            _ => 4,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRow {
    pub code: &'static str,
    pub title: &'static str,
    pub outcome: Outcome,
}

/// How the Checks view is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckSort {
    #[default]
    Outcome,
    Code,
}

/// Every rule, with what it did on this report; `text` keeps the rows whose code, title or outcome holds it.
pub fn checks(r: &ReportView, text: &str, sort: CheckSort) -> Vec<CheckRow> {
    let needle = text.trim().to_ascii_lowercase();
    // One pass over the findings (a large report has hundreds of thousands): counts by rule.
    // By code, sorted (a hundred codes at most: a sorted list rather than a B-tree map, one map type less).
    let mut counts: Vec<(&str, [u64; 4])> = Vec::new();
    for f in &r.findings {
        let count = |c: &mut [u64; 4]| match (f.suppressed.is_some(), f.severity.as_str()) {
            (true, _) => c[3] += 1,
            (false, "blocker") => c[0] += 1,
            (false, "warning") => c[1] += 1,
            _ => c[2] += 1,
        };
        let first = || {
            let mut c = [0; 4];
            count(&mut c);
            (f.code.as_str(), c)
        };
        kube_preflight::sort::upsert(&mut counts, f.code.as_str(), first, count);
    }
    let mut rows: Vec<CheckRow> = kube_preflight::rules()
        .into_iter()
        .map(|rule| {
            let [b, w, i, accepted] = kube_preflight::sort::get_key(&counts, rule.code).copied().unwrap_or_default();
            let outcome = if b + w + i > 0 {
                Outcome::Failed { blocker: b, warning: w, info: i }
            } else if let Some(n) = r.not_run.iter().find(|n| n.code == rule.code) {
                Outcome::NotRun(n.reason.clone())
            } else if accepted > 0 {
                Outcome::Accepted(accepted)
            } else if let Some(f) = r.coverage.unchecked_for(rule.code) {
                Outcome::NotChecked(format!("{} {}: {}", f.id, f.state_words(), f.reason.clone().unwrap_or_default()))
            } else {
                Outcome::Passed
            };
            CheckRow { code: rule.code, title: rule.title, outcome }
        })
        .filter(|row| {
            needle.is_empty()
                || row.code.contains(&needle)
                || row.title.to_ascii_lowercase().contains(&needle)
                || row.outcome.name().contains(&needle)
        })
        .collect();
    match sort {
        CheckSort::Outcome => {
            kube_preflight::sort::sort_by(&mut rows, |a, b| (a.outcome.rank(), a.code).cmp(&(b.outcome.rank(), b.code)))
        }
        CheckSort::Code => kube_preflight::sort::sort_by_key(&mut rows, |r| r.code),
    }
    rows
}

/// `x` with `digits` decimals (at most 3), as an SVG attribute takes it: rounded half away from zero, no
/// exponent, `-` only before a non-zero value. Not `format!("{x:.1}")`: the standard library's float
/// formatting (and its tables) was 4 KB of the page's gzipped wasm for a few dozen coordinates.
pub fn fixed(x: f64, digits: u32) -> String {
    let digits = digits.min(3);
    let scale = 10u64.pow(digits);
    // A coordinate is far inside i64; a NaN or an infinity (never drawn) is written as 0.
    let n = if x.is_finite() { (x * scale as f64).round() as i64 } else { 0 };
    let (sign, a) = (if n < 0 { "-" } else { "" }, n.unsigned_abs());
    if digits == 0 {
        format!("{sign}{a}")
    } else {
        format!("{sign}{}.{:0w$}", a / scale, a % scale, w = digits as usize)
    }
}

/// `x` with at most two decimals and no trailing zeros (`17`, `17.5`, `0.33`): an SVG length.
pub fn num(x: f64) -> String {
    let s = fixed(x, 2);
    match s.strip_suffix(".00") {
        Some(whole) => whole.to_owned(),
        None => s.strip_suffix('0').map_or(s.clone(), str::to_owned),
    }
}

/// The mark drawn over a node's cell at (x, y) besides its colour (`None`: the colour alone).
pub fn state_mark(st: NodeState, x: f64, y: f64) -> Option<String> {
    let (x, y) = (|dx: f64| fixed(x + dx, 1), |dy: f64| fixed(y + dy, 1));
    match st {
        NodeState::Out => Some(format!("M{} {}L{} {}", x(2.0), y(9.0), x(9.0), y(2.0))),
        NodeState::Between => Some(format!("M{} {}H{}", x(2.0), y(5.5), x(9.0))),
        NodeState::Done => Some(format!("M{} {}L{} {}L{} {}", x(2.0), y(6.0), x(4.5), y(8.5), x(9.0), y(3.0))),
        NodeState::Waiting => None,
    }
}

/// The node map's cells as SVG text, and the height they take: parsed by the browser in one go
/// (`Html::from_html_unchecked`), since at 2,000 nodes a virtual node per cell, its title and its mark (6,000
/// of them) made opening the view take 0.2 s and each replay frame diff them all. Every name is escaped for
/// XML: node and pool names come from the inputs.
pub fn node_cells(groups: &[(String, Vec<String>)], states: &NodeStates) -> (String, f64) {
    use std::fmt::Write as _;
    const CELL: f64 = 14.0;
    let esc = kube_preflight::render::xml_escape;
    let mut y = 0.0;
    let mut svg = String::new();
    for (pool, names) in groups {
        let _ = write!(
            svg,
            r#"<text class="pool-label" x="0" y="{}">{} ({})</text>"#,
            fixed(y + 11.0, 0),
            esc(pool),
            names.len()
        );
        y += 16.0;
        for (i, n) in names.iter().enumerate() {
            let st = states.get(n).unwrap_or(NodeState::Waiting);
            let (x, yy) = ((i % MAP_PER_ROW) as f64 * CELL, y + (i / MAP_PER_ROW) as f64 * CELL);
            let name = esc(n);
            let _ = write!(
                svg,
                r#"<rect class="node {}" x="{}" y="{}" width="11" height="11" rx="2" data-node="{name}"><title>{name}: {}</title></rect>"#,
                st.name(),
                fixed(x, 0),
                fixed(yy, 0),
                st.name()
            );
            // A mark besides the colour: a slash on a node out, a bar between hops, a tick when done.
            if let Some(d) = state_mark(st, x, yy) {
                let _ = write!(svg, r#"<path class="node-mark" d="{d}"/>"#);
            }
        }
        y += names.len().div_ceil(MAP_PER_ROW) as f64 * CELL + 6.0;
    }
    (svg, y)
}

/// A filter's options as HTML text ("all", then every value; the one set is selected), parsed by the
/// browser in one go: at 150,000 pods the Node filter alone has 2,000 options, and a virtual node each made
/// a third of opening the Findings view and was diffed again on every render (opening a finding). Values
/// come from the inputs: escaped for HTML (only `&`, `<`, `>` and `"`, so that the value read back is the
/// value given: `render::xml_escape`, which `node_cells` uses, replaces control characters).
pub fn options_html(value: &str, values: &[String]) -> String {
    use std::fmt::Write as _;
    let esc = |v: &str| v.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let sel = |on: bool| if on { " selected" } else { "" };
    let mut out = format!(r#"<option value=""{}>all</option>"#, sel(value.is_empty()));
    for v in values {
        let _ = write!(out, r#"<option value="{0}"{1}>{0}</option>"#, esc(v), sel(v == value));
    }
    out
}

/// Cells per row of the node map.
pub const MAP_PER_ROW: usize = 64;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kube_preflight::{check, UpgradeOptions};

    #[test]
    fn filter_options_escape_values_and_select_the_one_set() {
        let values = vec!["a<b".to_owned(), "ns \"x\" & y".to_owned()];
        assert_eq!(
            options_html("a<b", &values),
            r#"<option value="">all</option><option value="a&lt;b" selected>a&lt;b</option><option value="ns &quot;x&quot; &amp; y">ns &quot;x&quot; &amp; y</option>"#
        );
        assert!(options_html("", &values).starts_with(r#"<option value="" selected>all</option>"#));
    }

    #[test]
    fn fixed_and_num_write_numbers_as_format_does_for_coordinates() {
        for (x, d) in [(0.0, 1), (14.0, 0), (5.4321, 2), (-2.27, 1), (1234.56, 1), (0.04, 1), (-0.04, 1), (99.95, 0)] {
            assert_eq!(fixed(x, d), format!("{x:.*}", d as usize).replace("-0.0", "0.0"), "{x} {d}");
        }
        assert_eq!([fixed(2.5, 0), fixed(-2.25, 1)], ["3", "-2.3"], "an exact half away from zero");
        assert_eq!(fixed(f64::NAN, 1), "0.0");
        assert_eq!([num(17.0), num(17.5), num(1.0 / 3.0), num(-4.0)], ["17", "17.5", "0.33", "-4"]);
    }

    pub fn demo_view() -> ReportView {
        let inputs = crate::demo::demo_inputs();
        let r = check(&inputs, &UpgradeOptions::new(crate::demo::DEMO_TARGET)).unwrap();
        serde_json::from_str(&r.to_json()).unwrap()
    }

    #[test]
    fn the_contract_json_reads_into_the_view() {
        let v = demo_view();
        assert_eq!(v.summary.verdict, "blocked");
        assert_eq!(v.upgrade.path, ["1.28", "1.29.2"]);
        assert!(!v.plan.steps.is_empty() && v.plan.total_seconds > 0);
        let w = v.downtime.workloads.first().unwrap();
        assert_eq!(w.windows.iter().map(|x| x.end_seconds - x.start_seconds).sum::<u64>(), w.seconds);
    }

    #[test]
    fn every_rule_is_listed_once_as_failed_flagged_not_run_accepted_or_passed() {
        let v = demo_view();
        let rows = checks(&v, "", CheckSort::Outcome);
        assert_eq!(rows.len(), kube_preflight::rules().len());
        // The counts of the failed rows are the report's.
        let (mut b, mut w) = (0, 0);
        for r in &rows {
            if let Outcome::Failed { blocker, warning, .. } = r.outcome {
                b += blocker;
                w += warning;
            }
        }
        assert_eq!((b, w), (v.summary.blocker, v.summary.warning));
        // Worst first; a rule with no finding passed.
        assert_eq!(rows[0].outcome.name(), "failed");
        assert!(rows.iter().any(|r| r.outcome == Outcome::Passed));
        let ranks: Vec<u8> = rows.iter().map(|r| r.outcome.rank()).collect();
        assert!(ranks.windows(2).all(|p| p[0] <= p[1]));
        // Without the current version, the rules that need it did not run, with the report's reason.
        let mut nf = v.clone();
        nf.findings.retain(|f| f.code != "skew/kubelet-too-old");
        nf.not_run.push(NotRunV { code: "skew/kubelet-too-old".into(), reason: "no current version".into() });
        let row = checks(&nf, "kubelet-too-old", CheckSort::Code);
        assert_eq!(row.len(), 1);
        assert_eq!(row[0].outcome, Outcome::NotRun("no current version".into()));
        // A rule of a family that was not read is never a pass: the demo reads no APIService.
        let row = checks(&v, "api/apiservice-unavailable", CheckSort::Code);
        assert_eq!(row[0].outcome, Outcome::NotChecked("aggregated-apis not read: no APIService was read".into()));
        // Searching by outcome, sorting by code.
        let passed = checks(&v, "passed", CheckSort::Code);
        assert!(!passed.is_empty() && passed.iter().all(|r| r.outcome == Outcome::Passed));
        assert!(passed.windows(2).all(|p| p[0].code <= p[1].code));
    }

    #[test]
    fn node_steps_sort_and_search_and_their_segments_add_up() {
        let v = demo_view();
        let all = step_rows(&v, "", StepSort::Start);
        assert_eq!(all.len(), v.plan.steps.len());
        for i in &all {
            let s = &v.plan.steps[*i];
            assert_eq!(
                s.segments.iter().map(|g| g.seconds).sum::<u64>(),
                s.end_seconds - s.start_seconds,
                "{}",
                s.node
            );
        }
        let longest = step_rows(&v, "", StepSort::Longest);
        let len = |i: &usize| v.plan.steps[*i].end_seconds - v.plan.steps[*i].start_seconds;
        assert!(longest.windows(2).all(|p| len(&p[0]) >= len(&p[1])));
        let one = &v.plan.steps[all[0]].node;
        let found = step_rows(&v, &one.to_uppercase(), StepSort::Node);
        assert!(!found.is_empty() && found.iter().all(|i| v.plan.steps[*i].node.contains(one.as_str())));
        // The demo's findings that name a node are found from it.
        let named = v.findings.iter().find_map(|f| f.data.get("node").and_then(|n| n.as_str())).unwrap();
        assert!(!findings_on_node(&v, named).is_empty());
    }

    #[test]
    fn a_filter_goes_into_the_url_and_back() {
        let f = Filter {
            hidden: vec!["info".to_owned(), "warning".to_owned()],
            rule: "api/removed".into(),
            namespace: String::new(),
            node: "w-1".into(),
            text: "a b&c".into(),
        };
        let pairs: Vec<(String, String)> = f.pairs().into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        assert_eq!(pairs[0], ("hide".to_owned(), "info,warning".to_owned()));
        assert_eq!(Filter::from_pairs(&pairs), f);
        assert_eq!(Filter::from_pairs(&[("hide".into(), "bogus,info".into())]).hidden.len(), 1);
        assert!(Filter::default().pairs().is_empty());
    }

    #[test]
    fn filters_and_groups() {
        let v = demo_view();
        let all = grouped(&v.findings, &Filter::default(), GroupBy::None);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].1.len(), v.findings.len());
        let mut only_blockers = Filter::default();
        only_blockers.toggle("warning");
        only_blockers.toggle("info");
        assert_eq!(only_blockers.hidden, ["info", "warning"]);
        let mut f = only_blockers.clone();
        f.toggle("info");
        assert_eq!(f.hidden, ["warning"]);
        assert_eq!(Filter::from_pairs(&[("hide".into(), "warning,info,warning".into())]).hidden, ["info", "warning"]);
        let b = grouped(&v.findings, &only_blockers, GroupBy::Rule);
        assert!(b.iter().flat_map(|g| &g.1).all(|i| v.findings[*i].severity == "blocker"));
        assert_eq!(b.iter().map(|g| g.1.len()).sum::<usize>() as u64, v.summary.blocker);
        let by_rule = grouped(&v.findings, &Filter::default(), GroupBy::Rule);
        assert_eq!(by_rule.len(), facets(&v.findings).rules.len());
        // Groups come worst first.
        assert_eq!(v.findings[by_rule[0].1[0]].severity, "blocker");
        let text = Filter { text: "AUTOSCALING/V2BETA2".into(), ..Filter::default() };
        let t = grouped(&v.findings, &text, GroupBy::Object);
        assert!(!t.is_empty() && t.iter().all(|(name, _)| name.starts_with("HorizontalPodAutoscaler")), "{t:?}");
        let ns = Filter { namespace: "nowhere".into(), ..Filter::default() };
        assert!(grouped(&v.findings, &ns, GroupBy::None).is_empty());
    }

    fn step(node: &str, s: u64, e: u64) -> StepV {
        StepV { node: node.into(), phase: "workers".into(), start_seconds: s, end_seconds: e, ..StepV::default() }
    }

    #[test]
    fn a_node_is_out_during_its_steps_and_between_hops() {
        let a = step("a", 10, 20);
        let b = step("a", 50, 60);
        let steps = [&a, &b];
        assert_eq!(node_state(&steps, 0), NodeState::Waiting);
        assert_eq!(node_state(&steps, 10), NodeState::Out);
        assert_eq!(node_state(&steps, 20), NodeState::Between);
        assert_eq!(node_state(&steps, 59), NodeState::Out);
        assert_eq!(node_state(&steps, 60), NodeState::Done);
    }

    #[test]
    fn in_flight_counts_overlapping_steps() {
        let (a, b, c) = (step("a", 0, 10), step("b", 0, 10), step("c", 10, 30));
        assert_eq!(in_flight(&[&a, &b, &c]), [(0, 2), (10, 1), (30, 0)]);
    }

    #[test]
    fn a_frame_names_the_nodes_out_their_pods_and_the_workloads_down() {
        let mut v = demo_view();
        let w = v.downtime.workloads[0].clone();
        let t = w.windows[0].start_seconds;
        let out_node = v.plan.steps.iter().find(|s| s.start_seconds <= t && t < s.end_seconds).unwrap().node.clone();
        let nodes =
            vec![NodeFacts { name: out_node.clone(), control_plane: false, pods: 3, pod_names: vec!["ns/p".into()] }];
        let f = frame(&v, &nodes, t);
        assert!(f.out.contains(&out_node));
        assert_eq!(f.moving, 3);
        assert_eq!(f.moving_names, [format!("ns/p (from {out_node})")]);
        assert!(f.down.contains(&w.display()));
        assert!(!frame(&v, &nodes, w.windows[0].end_seconds).down.contains(&w.display()) || w.windows.len() > 1);
        v.downtime.workloads.clear();
        assert!(frame(&v, &nodes, t).down.is_empty());
        let p = pools(&v.plan, &nodes);
        assert!(p.iter().map(|(_, n)| n.len()).sum::<usize>() >= 1);
        assert!(p[0].0.contains("control"), "{p:?}");
    }

    /// A plan that stops (kubeadm's drain waits for ever on w-1): w-1 is out from its step's start for ever,
    /// w-2 is listed as never upgraded, and the stop reads as one line.
    #[test]
    fn a_stuck_node_stays_out_and_the_rest_is_never_upgraded() {
        let text = include_str!("../../tests/fixtures/plan/kubeadm-drain-waits-for-ever/cluster.yaml");
        let r = check(&[kube_preflight::Input::new("cluster.yaml", text)], &UpgradeOptions::new("1.29.2")).unwrap();
        let v: ReportView = serde_json::from_str(&r.to_json()).unwrap();
        let st = v.plan.stops.first().unwrap();
        let start = st.start_seconds.unwrap();
        let nodes: Vec<NodeFacts> = ["cp-1", "w-1", "w-2"]
            .iter()
            .map(|n| NodeFacts { name: (*n).into(), control_plane: *n == "cp-1", pods: 0, pod_names: Vec::new() })
            .collect();
        assert!(!frame(&v, &nodes, start.saturating_sub(1)).out.contains(&"w-1".to_owned()));
        for t in [start, st.at_seconds, st.at_seconds * 10] {
            assert_eq!(frame(&v, &nodes, t).states.get("w-1"), Some(NodeState::Out), "at {t}");
        }
        let p = pools(&v.plan, &nodes);
        assert!(p.contains(&("never upgraded (the plan stops)".to_owned(), vec!["w-2".to_owned()])), "{p:?}");
        assert!(p.iter().any(|(_, n)| n.contains(&"w-1".to_owned())));
        assert!(st.describe().starts_with("The upgrade waits for ever at "), "{}", st.describe());
    }

    /// Each node in one pool, the first it is met in: its steps' (a pool, else the phase), the stuck node's, the
    /// nodes never reached, those left out, then the rest; pools sorted by name, control-plane ones first,
    /// each pool's nodes sorted by name.
    #[test]
    fn each_node_is_in_the_first_pool_it_is_met_in() {
        let at = |node: &str, pool: Option<&str>, phase: &str| StepV {
            node: node.into(),
            phase: phase.into(),
            pool: pool.map(str::to_owned),
            ..StepV::default()
        };
        let plan = PlanV {
            steps: vec![
                at("w-2", Some("blue"), "workers"),
                at("cp-1", None, "control-plane"),
                at("w-1", Some("blue"), "workers"),
                // A second hop's step of w-1 in another pool: w-1 stays in the first.
                at("w-1", Some("green"), "workers"),
            ],
            stops: vec![StopV {
                node: Some("g-1".into()),
                pool: Some("green".into()),
                phase: "workers".into(),
                pending: vec!["g-3".into(), "w-2".into(), "g-2".into(), "g-3".into()],
                ..StopV::default()
            }],
            left_out: vec![LeftOutV {
                pool: "gpu".into(),
                reason: String::new(),
                nodes: vec!["x-1".into(), "g-2".into()],
            }],
            ..PlanV::default()
        };
        let facts = |n: &str| NodeFacts { name: n.into(), control_plane: false, pods: 0, pod_names: Vec::new() };
        let nodes = vec![facts("z-1"), facts("w-1"), facts("a-1"), facts("z-1")];
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            pools(&plan, &nodes),
            vec![
                ("control-plane".to_owned(), owned(&["cp-1"])),
                ("blue".to_owned(), owned(&["w-1", "w-2"])),
                ("gpu: left out of the upgrade".to_owned(), owned(&["x-1"])),
                ("green".to_owned(), owned(&["g-1"])),
                ("never upgraded (the plan stops)".to_owned(), owned(&["g-2", "g-3"])),
                ("not in the plan".to_owned(), owned(&["a-1", "z-1"])),
            ]
        );
    }

    #[test]
    fn node_states_are_found_by_name_and_set_once_each() {
        let mut st = NodeStates::default();
        st.set("b", NodeState::Out);
        st.set("a", NodeState::Done);
        st.set("c", NodeState::Waiting);
        st.set("b", NodeState::Between);
        assert_eq!(st.get("a"), Some(NodeState::Done));
        assert_eq!(st.get("b"), Some(NodeState::Between));
        assert_eq!(st.get("c"), Some(NodeState::Waiting));
        assert_eq!(st.get("d"), None);
        assert_eq!(st.0.len(), 3);
    }

    #[test]
    fn the_best_points_and_the_ticks() {
        let pt = |c, t, d| CurvePoint { concurrency: c, total_seconds: t, downtime_seconds: d, workloads_down: 0 };
        assert_eq!(pareto(&[pt(1, 100, 0), pt(2, 60, 10), pt(3, 60, 20), pt(4, 40, 10)]), [1, 4]);
        assert_eq!(ticks(3600, 6), [0, 600, 1200, 1800, 2400, 3000, 3600]);
        assert_eq!(ticks(0, 6), [0]);
    }

    #[test]
    fn node_map_cells_escape_names_and_mark_states() {
        let groups = vec![
            ("pool <&>".to_owned(), vec!["n\"><script>alert(1)</script>".to_owned(), "w-1".to_owned()]),
            ("b".to_owned(), (0..65).map(|i| format!("b-{i}")).collect()),
        ];
        let mut states = NodeStates::default();
        states.set("w-1", NodeState::Out);
        let (svg, height) = node_cells(&groups, &states);
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains(r#"data-node="n&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;""#), "{svg}");
        assert!(svg.contains("pool &lt;&amp;&gt; (2)"));
        assert!(svg.contains(r#"<rect class="node out" x="14" y="16""#), "{svg}");
        assert_eq!(svg.matches("<rect ").count(), 67);
        assert_eq!(svg.matches(r#"class="node-mark""#).count(), 1);
        // Two pools: a label and a row, then a label and two rows (65 cells, 64 a row).
        assert_eq!(height, 16.0 + 14.0 + 6.0 + 16.0 + 28.0 + 6.0);
    }
}
