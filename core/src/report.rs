//! The report (CONTRACT section 4). Field order and names are the contract's; the JSON is deterministic.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::model::{Object, ObjectRef, Source};
use crate::options::FindingIdentity;

pub const SCHEMA_VERSION: u32 = 1;
pub const TOOL_NAME: &str = "kube-preflight";
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Blocker,
    Warning,
    Info,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Blocker => "blocker",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A rule's identity (the rules in `rules/` each declare one). Its documentation is apart
/// (`rules::docs`), so that what only lists the rules (the dashboard's page) carries no docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    pub code: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    /// Does the rule need the current version (`from`)? Such rules are listed in `notRun` without it.
    #[serde(skip)]
    pub needs_from: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// How to fix it: most rules' is one text for all their findings, kept once.
    pub help: Cow<'static, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hop: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub data: BTreeMap<String, Data>,
    /// Accepted by the user: kept in the report, counted apart, never gating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<Suppressed>,
}

/// Why a finding is suppressed.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suppressed {
    /// `"annotation"` (`kube-preflight.io/ignore` on the object or its workload), `"config"` (an entry of
    /// `exemptions`) or `"baseline"` (the finding is in the `--baseline` report).
    pub by: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The annotated object (`Kind namespace/name`), for `by: "annotation"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The exemption's position in `exemptions`, for `by: "config"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exemption: Option<usize>,
    /// The exemption's last day, for `by: "config"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

impl Finding {
    /// A finding of `rule` at its default severity.
    pub fn new(rule: &RuleInfo, message: impl Into<String>, help: impl Into<Cow<'static, str>>) -> Finding {
        Finding {
            code: rule.code,
            severity: rule.severity,
            message: message.into(),
            help: help.into(),
            object: None,
            source: None,
            hop: None,
            data: BTreeMap::new(),
            suppressed: None,
        }
    }

    /// What tells this finding apart from one run to the next (`FindingIdentity`).
    pub fn identity(&self) -> FindingIdentity {
        let object = self
            .object
            .as_ref()
            .map(|o| [o.api_version.as_str(), o.kind.as_str(), o.namespace.as_deref().unwrap_or(""), o.name.as_str()]);
        FindingIdentity::new(
            self.code,
            object,
            self.hop.as_deref(),
            |k| self.data.get(k).and_then(Data::as_str),
            self.source.as_ref().and_then(|s| s.via).map(crate::model::Via::name),
        )
    }

    pub fn severity(mut self, s: Severity) -> Finding {
        self.severity = s;
        self
    }

    pub fn object(mut self, o: &Object) -> Finding {
        self.object = Some(o.r.clone());
        self.source = Some(o.source.clone());
        self
    }

    pub fn hop(mut self, hop: impl Into<String>) -> Finding {
        self.hop = Some(hop.into());
        self
    }

    pub fn data(mut self, key: &str, value: impl Into<serde_json::Value>) -> Finding {
        self.data.insert(key.to_owned(), Data::Value(value.into()));
        self
    }

    /// `data[key]`: pods left Pending and why, shared with the placement replay that found them.
    pub fn data_pending(mut self, key: &str, pods: Vec<(String, Rc<Unschedulable>)>) -> Finding {
        self.data.insert(key.to_owned(), Data::Pending(pods));
        self
    }
}

/// A value of a finding's `data`: any JSON value, or pods left Pending with the scheduler's FitError for
/// each, written `[{"pod", "reasons": {reason: nodes}, "why"}]`. The FitErrors are shared, not copied into
/// JSON values: at 150,000 pods, `capacity/insufficient-headroom`'s 75,000 listed pods took 130 MB as
/// values (most of them alike), about 5 MB shared.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    Value(serde_json::Value),
    Pending(Vec<(String, Rc<Unschedulable>)>),
}

impl Data {
    /// The value as a string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Data::Value(v) => v.as_str(),
            Data::Pending(_) => None,
        }
    }

    /// The JSON value, if it is one (not a list of Pending pods).
    pub fn as_value(&self) -> Option<&serde_json::Value> {
        match self {
            Data::Value(v) => Some(v),
            Data::Pending(_) => None,
        }
    }
}

impl Serialize for Data {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        /// A FitError's reasons, as a map (sorted by reason, as `Unschedulable::reasons` is).
        struct Reasons<'r>(&'r [(String, usize)]);
        impl Serialize for Reasons<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (r, c) in self.0 {
                    m.serialize_entry(r, c)?;
                }
                m.end()
            }
        }
        /// One Pending pod, its keys in the order a JSON object's are (sorted).
        #[derive(Serialize)]
        struct PendingPod<'p> {
            pod: &'p str,
            reasons: Reasons<'p>,
            why: String,
        }
        match self {
            Data::Value(v) => v.serialize(s),
            Data::Pending(pods) => {
                let mut seq = s.serialize_seq(Some(pods.len()))?;
                for (pod, why) in pods {
                    seq.serialize_element(&PendingPod { pod, reasons: Reasons(&why.reasons), why: why.message() })?;
                }
                seq.end()
            }
        }
    }
}

/// Why a pod fits nowhere, as the scheduler words it (the placement model's, `cluster::placement`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unschedulable {
    /// How many nodes were weighed (`None`: nothing is known of why).
    pub nodes: Option<usize>,
    /// Each reason and how many nodes gave it, by reason.
    pub reasons: Vec<(String, usize)>,
}

impl Unschedulable {
    /// The scheduler's FitError, `0/12 nodes are available: 3 Insufficient cpu, 9 node(s) had untolerated
    /// taint {gpu: true}.` (worded when asked: a replay at 150,000 pods keeps tens of thousands of these and
    /// shows a few).
    pub fn message(&self) -> String {
        let Some(nodes) = self.nodes else { return String::new() };
        let mut parts: Vec<String> = self.reasons.iter().map(|(r, c)| format!("{c} {r}")).collect();
        crate::sort::sort(&mut parts);
        format!("0/{nodes} nodes are available: {}.", parts.join(", "))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Upgrade {
    pub from: Option<String>,
    pub to: String,
    pub profile: crate::options::Profile,
    pub path: Vec<String>,
    /// Where `from` came from: `"options"`, what the platform states (`"kubectl version"`,
    /// `"kube-apiserver pods"`, `"ClusterVersion"`, `"GKE on Bare Metal Cluster"`, `"kubeadm-config"`,
    /// `"kOps Cluster"`, `"RKE cluster.yml"`), `"control-plane nodes"` (the oldest kubelet, a last resort),
    /// or `null` when unknown.
    pub from_source: Option<&'static str>,
    /// Which object or file stated it, and what else was seen (a cluster mid-upgrade); absent when `from`
    /// was given or is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_detail: Option<String>,
    /// The versions as people read them, when the target is a product version (OpenShift 4.N, GKE on
    /// Bare Metal): each in the target's scheme with the Kubernetes it ships, `4.15 (Kubernetes
    /// 1.28.7+6e2789b)` for a current version read from the kubelets (an addition; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Shown>,
}

/// `upgrade.shown`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shown {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub to: String,
    pub path: Vec<String>,
}

impl Upgrade {
    /// The current version as shown (`upgrade.shown.from`, else `from`), `unknown` when not known.
    pub fn from_shown(&self) -> &str {
        self.shown.as_ref().and_then(|s| s.from.as_deref()).or(self.from.as_deref()).unwrap_or("unknown")
    }

    /// The target as shown.
    pub fn to_shown(&self) -> &str {
        self.shown.as_ref().map_or(self.to.as_str(), |s| s.to.as_str())
    }

    /// The hops as shown.
    pub fn path_shown(&self) -> &[String] {
        self.shown.as_ref().map_or(self.path.as_slice(), |s| s.path.as_slice())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

/// A deployed Helm release decoded from its release record.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct HelmRelease {
    pub name: String,
    pub namespace: String,
    pub revision: i64,
    pub chart: String,
    /// The Secret or ConfigMap it was read from.
    pub record: String,
    /// The file that record was read from.
    pub file: String,
    /// Objects in its manifest (counted in `objects` and `byKind` too).
    pub objects: usize,
    /// The chart's `kubeVersion`, when it declares one (an addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kube_version: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Inventory {
    pub files: usize,
    pub objects: usize,
    pub by_kind: BTreeMap<String, usize>,
    pub skipped: Vec<Skipped>,
    /// Deployed Helm releases found among the inputs (an addition to the contract's fields).
    pub helm_releases: Vec<HelmRelease>,
    /// Distribution config files that are not Kubernetes objects (an RKE `cluster.yml`), read as options.
    pub distribution_configs: Vec<DistributionConfig>,
    /// Objects read more than once (same kind, namespace and name, or uid): counted once, every copy listed
    /// (an addition to the contract's fields).
    pub duplicates: Vec<Duplicate>,
    /// The distribution the inputs look like, and why (an addition to the contract's fields).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detected_profile: Option<Detected>,
    /// When the snapshot was taken (RFC 3339): its `Snapshot` document's `takenAt`, else the latest time it
    /// states (its nodes' last heartbeats), about when it was taken (an addition; `progress.since` compares
    /// two reports by it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_time: Option<String>,
    /// Lists the reader could not make (an addition; empty when none): the API refused them to the user
    /// (`forbidden`, a 403) or the cluster does not serve the kind (`not-served`, a 404), cluster-wide or in
    /// one namespace (`Session.pushDenied`). `coverage` says what each family could not see.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<Denied>,
    /// The kinds listed from the API, whether or not the list held any (an addition; empty when none): a
    /// typed List read (`PodDisruptionBudgetList`, as the API returns a list) or a kind a snapshot says it
    /// listed across the cluster (`Snapshot.lists`). A kind listed and empty stands as read: there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub listed: Vec<String>,
    /// Where and when the snapshot was taken, as `kube-preflight snapshot` wrote it (an addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<SnapshotTaken>,
}

pub use crate::coverage::{Denied, DENIED_REASONS};

/// `inventory.snapshot`: the `Snapshot` document (`apiVersion: kube-preflight.io/v1`) a snapshot file carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotTaken {
    pub file: String,
    pub line: u32,
    /// When the lists began (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_at: Option<String>,
    /// The kubeconfig context it was taken from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// The API server's address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The client that listed (`kubectl v1.32.4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// `inventory.detectedProfile`: what the inputs look like (an addition to the contract's fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detected {
    /// The profile whose files or marks the inputs carry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::options::Profile>,
    /// A managed service (`eks`, `gke`, `aks`): its provider upgrades the control plane, not a profile of ours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub managed: Option<&'static str>,
    /// The report was made under this profile (`rke` and `rke-legacy` count as one: the inputs cannot
    /// tell RKE's own version).
    pub matches: bool,
    /// What was seen, strongest first.
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub what: String,
    /// Where (`file:line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// An object read from more than one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Duplicate {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    /// Where each copy was read (`file:line`), the one the checks use first.
    pub copies: Vec<String>,
    /// Do all copies say the same?
    pub identical: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DistributionConfig {
    pub file: String,
    pub line: u32,
    pub kind: &'static str,
    pub note: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub blocker: usize,
    pub warning: usize,
    pub info: usize,
    pub verdict: &'static str,
    /// Suppressed findings by severity, counted apart (not in the counts above, never in the verdict).
    pub suppressed: Counts,
}

impl Summary {
    /// Findings of this severity that count (suppressed ones left out).
    pub fn of(&self, s: Severity) -> usize {
        match s {
            Severity::Blocker => self.blocker,
            Severity::Warning => self.warning,
            Severity::Info => self.info,
        }
    }
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub blocker: usize,
    pub warning: usize,
    pub info: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.blocker + self.warning + self.info
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Phase {
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hop: Option<String>,
    pub concurrency: u32,
    pub nodes: Vec<String>,
    pub start_seconds: u64,
    pub end_seconds: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub node: String,
    pub phase: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hop: Option<String>,
    pub start_seconds: u64,
    pub end_seconds: u64,
    /// Where the node's time goes, in order, adding up to its step (an addition to the contract's fields):
    /// `drain` (cordon and evictions), `budget-wait` (a drain waiting on a PodDisruptionBudget until its
    /// timeout), `upgrade` (the delay after the drain and the upgrade itself), `ready` (waiting for the node
    /// to be Ready and validated, and the pause before the next).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<Segment>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub kind: &'static str,
    pub seconds: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub phases: Vec<Phase>,
    pub steps: Vec<Step>,
    pub total_seconds: u64,
    /// Every time the simulation used, by name, after overrides (an addition to the contract's fields).
    pub timings: BTreeMap<&'static str, u64>,
    /// Does the upgrade run to its end? `false` when it stops or waits for ever somewhere (`stops`); then
    /// `totalSeconds` is where the plan ends, not the length of an upgrade (an addition).
    pub complete: bool,
    /// Where the upgrade stops or waits for ever, and why, in plan order (an addition; empty when it
    /// completes). Nothing is planned after a stop in its sequence: the nodes listed in `pending` are not
    /// upgraded.
    pub stops: Vec<Stop>,
    /// The drain the simulation assumes, when the profile drains (an addition): who drains and with
    /// which of kubectl's drain flags, stated because they decide which drains fail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drain: Option<DrainAssumed>,
    /// The nodes the simulation never reached because of a stop (`stops[].pending`, every one once,
    /// sorted): nothing is known of their drains, the pods on them or the checks that read the plan
    /// there (an addition; empty when the plan completes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_simulated: Vec<String>,
    /// Pools the distribution leaves out of this upgrade, with why and their nodes (an addition; empty
    /// when none): a paused MachineConfigPool, a GKE on Bare Metal node pool pinned to another version.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// Per pool, a node's whole step as measured rather than assumed (an addition; empty when none): from
    /// the kubelets' cordon and uncordon events in the snapshot (`source: events`), or given as
    /// `timings["pool/<name>"]` (`source: options`). The plan uses the median for the nodes of that pool (their
    /// steps' `learned` segment).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub learned: Vec<Learned>,
    /// When the plan stops: the same simulation with each stop's cause taken as resolved, said how,
    /// until it completes or a stop remains that cannot be lifted (an addition). What the fix reveals:
    /// the nodes past the stop, the warnings and the downtime there, the total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub if_resolved: Option<Box<IfResolved>>,
}

/// A pool's step time as measured (`plan.learned`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Learned {
    pub pool: String,
    /// `events` (the kubelets' NodeNotSchedulable to NodeSchedulable) or `options` (`timings["pool/<name>"]`).
    pub source: &'static str,
    /// How many steps were measured (1 for a value given in the options).
    pub samples: usize,
    /// Nearest-rank median and 90th percentile, in seconds.
    pub median_seconds: u64,
    pub p90_seconds: u64,
}

/// A pool the upgrade leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    pub pool: String,
    pub reason: String,
    pub nodes: Vec<String>,
}

/// The drain the plan assumes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DrainAssumed {
    /// `kubectl drain`, `RKE's drain`, `kops's drain`, ...
    pub by: &'static str,
    /// `--force`: pods with no controller are deleted (else they fail the drain).
    pub force: bool,
    /// `--delete-emptydir-data`: pods with emptyDir volumes are evicted and their data deleted (else
    /// they fail the drain).
    pub delete_empty_dir_data: bool,
    /// `--ignore-daemonsets`: DaemonSet pods are left on the node (else the drain refuses a node that runs
    /// one). Every distribution's drain ignores them; only RKE's `node_drain_input.ignore_daemonsets:
    /// false` turns it off (`disruption/daemonset-pod`). An addition to the contract.
    pub ignore_daemonsets: bool,
    /// Does it wait on PodDisruptionBudgets (the eviction API) rather than proceed regardless?
    pub honours_budgets: bool,
    /// Are the flags the options' (`drainForce`, `drainDeleteLocalData`; RKE's `node_drain_input`), or
    /// fixed by the distribution?
    pub flags_from_options: bool,
}

/// The plan once the blockers that stop it are resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IfResolved {
    /// Each cause taken as resolved, in the order lifted: the rule that names it, and how.
    pub lifted: Vec<Lifted>,
    pub plan: Plan,
    pub downtime: Downtime,
    /// The findings of that run, counted as the real summary is.
    pub summary: Summary,
    /// Its findings that the real report does not have (by code, object and message): what the fix
    /// will reveal.
    pub revealed: Vec<Finding>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lifted {
    pub code: String,
    pub how: &'static str,
}

/// A place where the upgrade cannot go on by itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stop {
    pub hop: String,
    pub phase: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// The node it stops on (a drain that never ends), if it is one node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// When the stuck node's step began (cordoned, its drain started): it stays out from then on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_seconds: Option<u64>,
    /// When, in plan seconds: the drain starts waiting, the drain fails, or the phase would have started.
    pub at_seconds: u64,
    /// `waits` (retried for ever: someone must intervene) or `fails` (the upgrade tool stops with an error).
    pub outcome: &'static str,
    /// The rule whose blocker explains it.
    pub code: &'static str,
    pub reason: String,
    /// The nodes of that phase that are never upgraded because of it, sorted.
    pub pending: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComponentDowntime {
    pub component: String,
    pub expected: String,
    pub when: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkloadDowntime {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub seconds: u64,
    pub reason: String,
    /// When it is down: each stretch during which no replica is Ready, in plan seconds, in order (an
    /// addition to the contract's fields; their lengths add up to `seconds`).
    pub windows: Vec<Window>,
    /// The last window does not end: the plan stops with the workload down, and it stays down until
    /// someone intervenes (`seconds` counts only up to the plan's end). An addition; absent when false.
    #[serde(rename = "untilIntervention", skip_serializing_if = "std::ops::Not::not")]
    pub until_intervention: bool,
}

/// A stretch of plan time, `[startSeconds, endSeconds)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub start_seconds: u64,
    pub end_seconds: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Downtime {
    pub components: Vec<ComponentDowntime>,
    pub workloads: Vec<WorkloadDowntime>,
    /// The plan stops: only the part of the upgrade before the stop was simulated, and the workloads on
    /// the nodes it never reached are not counted (an addition; `plan.ifResolved.downtime` counts them).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
}

/// A check that did not run, and why (for example: no current version known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotRun {
    pub code: &'static str,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema_version: u32,
    pub tool: Tool,
    pub upgrade: Upgrade,
    pub inventory: Inventory,
    pub summary: Summary,
    pub findings: Vec<Finding>,
    pub plan: Plan,
    pub downtime: Downtime,
    /// Checks that could not run on this input, with the reason (an addition to the contract's fields).
    pub not_run: Vec<NotRun>,
    /// What each family of checks read, and what it could not check (an addition to the contract's
    /// fields).
    pub coverage: crate::coverage::Coverage,
    /// An upgrade the snapshot shows under way, node by node, and with `--since` against the plan made
    /// before it started (an addition; absent when no upgrade is under way and no `--since` was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

/// `progress`: where an upgrade under way is, read as the distribution's own status tools read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// `in-progress`, `stuck` (a node's update stalls), `finished` (nothing left, with `--since`), or
    /// `not-started` (with `--since`: the cluster is still where that report found it).
    pub state: &'static str,
    /// The headline every face shows: `upgrade to 1.30.2 in-progress: 33% (2 of 6 nodes done, ...)`.
    pub summary: String,
    /// The version being upgraded to, as written where it was read.
    pub target: String,
    /// How the upgrade under way was read.
    pub read_from: String,
    /// When it started (RFC 3339), where the platform records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// Is the control plane done?
    pub control_plane_done: bool,
    /// OpenShift: the release's cluster operators, as `oc adm upgrade status` counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operators: Option<OperatorProgress>,
    /// Nodes done out of every node, rounded down (`oc adm upgrade status`'s completion).
    pub completion_percent: u32,
    pub counts: ProgressCounts,
    /// Every node: stuck and in progress first, then not started, left out, unknown, done; by name within.
    pub nodes: Vec<NodeProgress>,
    /// The nodes whose upgrade is stalled, and on what; `predicted`: the plan stops there too.
    pub stuck: Vec<Stuck>,
    /// The rest of the upgrade, planned from this snapshot (`plan.totalSeconds`), when it completes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_seconds: Option<u64>,
    /// When the rest should end (RFC 3339): the snapshot's time plus `remainingSeconds`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_end: Option<String>,
    /// What the reading could not see.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
    /// Against the plan of the report taken before the upgrade started (`--since`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<SinceProgress>,
}

/// `progress.operators`: the release's cluster operators against the update's version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorProgress {
    pub total: usize,
    /// Their `operator` version is the update's.
    pub updated: usize,
    /// Not yet, and Progressing=True: by name.
    pub updating: Vec<String>,
    /// Not yet, and Progressing=False.
    pub waiting: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressCounts {
    pub total: usize,
    pub done: usize,
    pub in_progress: usize,
    pub not_started: usize,
    pub left_out: usize,
    pub unknown: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeProgress {
    pub node: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// `done`, `in-progress`, `not-started`, `left-out`, `unknown`.
    pub stage: &'static str,
    /// In progress: `draining`, `updating`, `rebooting`, `rejoining` (done: `rejoining` while still
    /// cordoned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<&'static str>,
    /// The version it runs, as the status tool reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What else the snapshot says of it (degraded, unavailable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Its window in the plan of `--since` (plan seconds from the upgrade's start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_start_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_end_seconds: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stuck {
    pub node: String,
    pub cause: String,
    /// The rule that names the cause (`progress/node-stuck` when the plan did not predict it).
    pub code: &'static str,
    /// Does the plan stop at this node too (a cause the checks predict)?
    pub predicted: bool,
}

/// `progress.since`: the upgrade against the plan made before it started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SinceProgress {
    /// That plan's length (`plan.totalSeconds` of the earlier report).
    pub planned_seconds: u64,
    /// Seconds into the upgrade at this snapshot, when the times are known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_seconds: Option<u64>,
    /// How the elapsed time was measured.
    pub elapsed_from: String,
    /// Nodes the earlier plan had done by now, and nodes done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_done: Option<usize>,
    pub actual_done: usize,
    /// Seconds behind the plan (negative: ahead); `0` on schedule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behind_seconds: Option<i64>,
    /// Nodes the earlier plan has that the snapshot does not, and the reverse.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gone: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new: Vec<String>,
    /// In words: ahead, on schedule or behind, and the expected end.
    pub summary: String,
}

impl Report {
    /// The report as pretty JSON (two-space indent, contract field order), ending in a newline.
    /// [`Report::to_json`]'s bytes, written to `out` as they are serialized (never held whole).
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, self)?;
        out.write_all(b"\n")
    }

    pub fn to_json(&self) -> String {
        // Through `write_json`'s `dyn Write`, so the report's serializers are compiled once (a second writer
        // type would be a second copy of every one of them in the wasm).
        let mut out = Vec::new();
        match self.write_json(&mut out).map(|()| String::from_utf8(out)) {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => format!("{{\"error\":\"{e}\"}}\n"),
            Err(e) => format!("{{\"error\":\"{e}\"}}\n"),
        }
    }

    pub fn blocked(&self) -> bool {
        self.summary.blocker > 0
    }

    /// Findings at or above `level`.
    pub fn count_at_or_above(&self, level: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity <= level && f.suppressed.is_none()).count()
    }
}

/// The verdict when no Kubernetes object was read and nothing blocks: never `ready`.
pub const NOTHING_CHECKED: &str = "nothing-checked";

/// The verdict when nothing blocks but a family of checks in the run's scope was not read, not simulated
/// or unreadable, or the current version is unknown (CONTRACT section 6): never `ready`.
pub const INCOMPLETE: &str = "incomplete";

/// Sort findings (severity, code, object, then message for a total order) and count them.
pub fn finish_findings(findings: &mut Vec<Finding>) -> Summary {
    crate::sort::sort_by(findings, |a, b| {
        (a.severity, a.code, &a.object, &a.hop, &a.message, &a.source)
            .cmp(&(b.severity, b.code, &b.object, &b.hop, &b.message, &b.source))
    });
    findings.dedup();
    let count = |s, suppressed: bool| {
        findings.iter().filter(|f| f.severity == s && f.suppressed.is_some() == suppressed).count()
    };
    let blocker = count(Severity::Blocker, false);
    Summary {
        blocker,
        warning: count(Severity::Warning, false),
        info: count(Severity::Info, false),
        verdict: if blocker > 0 { "blocked" } else { "ready" },
        suppressed: Counts {
            blocker: count(Severity::Blocker, true),
            warning: count(Severity::Warning, true),
            info: count(Severity::Info, true),
        },
    }
}
