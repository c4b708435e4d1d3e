//! What the report stands on: for each family of checks, a state (checked, partial, not read, not
//! simulated, unreadable, skipped by the user's choice) with its reason, and the run's scope (a cluster,
//! or manifests alone). Computed once, here, and read by every face: nothing anywhere reads "passed" unless
//! its family is `checked` (CONTRACT section 6, docs/semantics.md "Certainty").

use std::collections::BTreeMap;

use serde::Serialize;

use crate::options::Profile;
use crate::version::Version;

/// The newest Kubernetes minor whose release notes the tables (`apis.rs`'s API removals, `runtimes.rs`)
/// were reviewed against. A target past it may meet removals and requirements the tables do not know.
pub const REVIEWED_THROUGH: u32 = 35;

/// What a family of checks stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// Every input it needs was read and understood, and (for the plan) simulated to the end.
    Checked,
    /// Checked, but a part of it is not (said in the reason): never a pass for that part.
    Partial,
    /// A kind it needs was not among the inputs.
    NotRead,
    /// The plan did not run, or stopped: what lies past the stop was not simulated.
    NotSimulated,
    /// An input it needs was read but could not be understood as its check reads it.
    Unreadable,
    /// Left out by the user (`--skip`): not checked, and said so.
    Skipped,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Checked => "checked",
            State::Partial => "partial",
            State::NotRead => "not-read",
            State::NotSimulated => "not-simulated",
            State::Unreadable => "unreadable",
            State::Skipped => "skipped",
        }
    }

    /// A family in scope in this state makes the run `incomplete` (when nothing reaches `--fail-on`).
    pub fn makes_incomplete(self) -> bool {
        matches!(self, State::NotRead | State::NotSimulated | State::Unreadable)
    }
}

/// What the verdict is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// The inputs hold a cluster's own state (a Node, a ClusterVersion, a `kubectl version` output...).
    Cluster,
    /// Manifests alone: the verdict is about the manifests for the target, not a cluster.
    Manifests,
}

/// `coverage` (an addition to the contract's fields; its `scope` and `families[].id`/`state` are section 6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Coverage {
    pub scope: Scope,
    /// `1.35`: see [`REVIEWED_THROUGH`].
    pub reviewed_through: String,
    /// The target is past `reviewedThrough`.
    pub beyond_review: bool,
    pub families: Vec<Family>,
    /// The ids of the families in scope that make the run incomplete, in order (empty: none).
    pub incomplete: Vec<&'static str>,
}

/// One family of checks: what it reads and what it stands on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Family {
    /// Stable, kebab-case: the id `--skip` takes.
    pub id: &'static str,
    /// Its name in prose.
    pub family: &'static str,
    pub state: State,
    /// Is it part of the question this run answers? (A manifests-only run leaves the families that need a
    /// cluster out of scope, unless their inputs were read anyway.)
    pub in_scope: bool,
    /// Why it is in this state; for `checked`, what it stood on where that is worth saying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The rule codes (a category ends in `/`) it covers.
    pub codes: Vec<&'static str>,
    /// Each kind it reads, and how many were read.
    pub kinds: Vec<KindRead>,
    /// `state` is `checked` (kept for the readers of earlier reports).
    pub checked: bool,
    /// The reason, when not checked (kept for the readers of earlier reports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_checked: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindRead {
    pub kind: &'static str,
    pub read: usize,
    /// Lists of it the reader could not make: `forbidden` (not visible to the user) or `not-served`, with
    /// the namespace when in one (`inventory.denied`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<Denied>,
}

/// A list the reader could not make (`inventory.denied`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Denied {
    pub kind: String,
    /// The namespace it was listed in; `None`: across the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `forbidden` (not visible to the user) or `not-served` (this cluster does not serve the kind).
    pub reason: &'static str,
}

/// The reasons a list is denied (`inventory.denied[].reason`).
pub const DENIED_REASONS: [&str; 2] = ["forbidden", "not-served"];

/// What every face says of a run of manifests alone.
pub const MANIFESTS_SCOPE: &str = "Scope: manifests. The verdict is about these manifests for the target, not about a cluster: no node, drain, plan or platform gate was judged.";

/// What Helm records as a deployed release (`sh.helm.release.v1.*` Secrets or ConfigMaps).
pub const HELM_RELEASE: &str = "Helm release record";

/// A family read from the inputs: id, name, codes and the groups of kinds it needs (one of each group).
struct Spec {
    id: &'static str,
    family: &'static str,
    codes: &'static [&'static str],
    needs: &'static [&'static [&'static str]],
}

const fn spec(
    id: &'static str,
    family: &'static str,
    codes: &'static [&'static str],
    needs: &'static [&'static [&'static str]],
) -> Spec {
    Spec { id, family, codes, needs }
}

const KINDS: &[Spec] = &[
    spec("nodes", "nodes", &["skew/", "budget/", "node/"], &[&["Node"]]),
    spec("drains", "drains", &["disruption/", "tolerations/", "scheduling/", "capacity/", "downtime"], &[&["Pod"]]),
    spec(
        "budgets",
        "budgets",
        &["disruption/pdb-blocks-drain", "disruption/overlapping-pdbs"],
        &[&["PodDisruptionBudget"]],
    ),
    spec(
        "admission-webhooks",
        "admission webhooks",
        &["admission/webhook-"],
        &[&["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"], &["EndpointSlice", "Service"]],
    ),
    spec(
        "admission-policies",
        "admission policies",
        &["admission/policy-misconfigured"],
        &[&["ValidatingAdmissionPolicy"], &["ValidatingAdmissionPolicyBinding"]],
    ),
    spec("aggregated-apis", "aggregated APIs", &["api/apiservice-unavailable"], &[&["APIService"]]),
    spec(
        "custom-resources",
        "custom resources",
        &["api/crd-conversion-unavailable", "api/crd-stored-version-unserved"],
        &[&["CustomResourceDefinition"]],
    ),
    spec("helm-charts", "Helm charts", &["helm/"], &[&[HELM_RELEASE]]),
];

fn platform(profile: Profile) -> Option<Spec> {
    match profile {
        Profile::Openshift => Some(spec(
            "openshift-gates",
            "OpenShift's update gates",
            &["platform/"],
            &[&["ClusterVersion"], &["ClusterOperator"], &["MachineConfigPool"]],
        )),
        Profile::GkeBaremetal => {
            Some(spec("bmctl-gates", "bmctl's gates", &["platform/"], &[&["Cluster"], &["NodePool"]]))
        }
        Profile::Kops => {
            Some(spec("kops-instance-groups", "kOps instance groups", &["budget/"], &[&["InstanceGroup"]]))
        }
        _ => None,
    }
}

/// How the plan went, as coverage reads it.
pub enum PlanRun<'a> {
    /// It ran to its end (or there was nothing to upgrade: the reason says so).
    Complete(Option<&'a str>),
    /// It stopped: the first stop, said in a phrase, and how many nodes it never reached.
    Stopped { at: String, pending: usize },
    /// It did not run, and why.
    NotRun(&'a str),
}

/// What coverage is computed from: the inventory, the options, what the run knew and what it could not read.
pub struct Facts<'a> {
    pub by_kind: &'a BTreeMap<String, usize>,
    pub helm_releases: usize,
    pub objects: usize,
    /// The kinds of the distribution files read as options (`kubectl-version`, `rke-cluster-yml`...).
    pub configs: Vec<&'static str>,
    pub profile: Profile,
    pub to: &'a Version,
    /// Where the current version came from (`None`: not known).
    pub from_source: Option<String>,
    /// Why that version may not be where the cluster is: a source read first that could not be read, or
    /// sources that disagree (`input/unreadable-value`, `input/conflicting-version`).
    pub version_doubts: Vec<String>,
    /// The codes of the rules that need the current version.
    pub needs_from: Vec<&'static str>,
    pub plan: PlanRun<'a>,
    /// Objects a value of which could not be read (`input/unreadable-value`): kind and name.
    pub unreadable: Vec<(&'a str, &'a str)>,
    /// Nodes that state no kubelet version.
    pub no_kubelet_version: Vec<&'a str>,
    /// `--skip`: family ids.
    pub skip: &'a [String],
    /// Lists the reader could not make (`inventory.denied`).
    pub denied: &'a [Denied],
    /// Kinds listed from the API, even when empty (`inventory.listed`).
    pub listed: &'a [String],
}

/// The families a run of manifests alone answers for (the others need a cluster).
const MANIFEST_FAMILIES: &[&str] = &["api-removals"];

/// Kinds whose presence makes a run judge a cluster (CONTRACT section 6).
const CLUSTER_STATE: &[&str] = &["Node", "ClusterVersion", "ClusterOperator", "MachineConfigPool", "Cluster"];

/// Names, at most five and how many more.
fn names(list: &[&str]) -> String {
    let shown: Vec<&str> = list.iter().take(5).copied().collect();
    let more = list.len().saturating_sub(shown.len());
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

pub fn coverage(f: &Facts<'_>) -> Coverage {
    let count = |k: &str| if k == HELM_RELEASE { f.helm_releases } else { f.by_kind.get(k).copied().unwrap_or(0) };
    let scope = if CLUSTER_STATE.iter().any(|k| count(k) > 0)
        || f.configs.iter().any(|c| matches!(*c, "kubectl-version" | "rke-cluster-yml"))
    {
        Scope::Cluster
    } else {
        Scope::Manifests
    };
    let beyond_review = f.to.minor > REVIEWED_THROUGH && !matches!(f.profile, Profile::Openshift);
    let mut families = Vec::new();

    // The current version.
    let (state, reason) = match &f.from_source {
        Some(s) if !f.version_doubts.is_empty() => {
            (State::Unreadable, Some(format!("taken from {s}, but {}", f.version_doubts.join("; "))))
        }
        Some(s) => (State::Checked, Some(format!("from {s}"))),
        None => (
            State::NotRead,
            Some(
                "the current version is not known (give --from, or the nodes, `kubectl version -o json` or the platform's own state): the checks that need it did not run"
                    .to_owned(),
            ),
        ),
    };
    families.push(family("current-version", "current version", f.needs_from.clone(), Vec::new(), state, reason));

    // What the reader could not list: a kind the cluster does not serve has nothing to check; one the API
    // refused to the user is not visible, across the cluster or in some namespaces.
    // Helm keeps its release records in Secrets (its default driver): a Secret list refused hides them.
    fn denied<'d>(all: &'d [Denied], k: &str) -> Vec<&'d Denied> {
        all.iter().filter(|d| d.kind == k || (k == HELM_RELEASE && d.kind == "Secret")).collect()
    }
    let not_served = |k: &str| denied(f.denied, k).iter().any(|d| d.reason == "not-served" && d.namespace.is_none());
    let forbidden_all = |k: &str| denied(f.denied, k).iter().any(|d| d.reason == "forbidden" && d.namespace.is_none());
    let forbidden_in = |k: &str| -> Vec<&str> {
        denied(f.denied, k)
            .into_iter()
            .filter(|d| d.reason == "forbidden")
            .filter_map(|d| d.namespace.as_deref())
            .collect()
    };
    for s in KINDS.iter().chain(platform(f.profile).as_ref()) {
        let kinds: Vec<KindRead> = s
            .needs
            .iter()
            .flat_map(|g| g.iter())
            .map(|k| KindRead { kind: k, read: count(k), denied: denied(f.denied, k).into_iter().cloned().collect() })
            .collect();
        // A group is stood on when one of its kinds was read (or listed, and there is none), or when the
        // cluster serves none of them.
        let listed = |k: &&str| f.listed.iter().any(|l| l == k);
        let unread = |g: &&&[&str]| g.iter().all(|k| count(k) == 0 && !listed(k)) && !g.iter().all(|k| not_served(k));
        let missing: Vec<&&[&str]> = s.needs.iter().filter(unread).collect();
        let hidden: Vec<&str> = missing
            .iter()
            .flat_map(|g| g.iter())
            .copied()
            .filter(|k| forbidden_all(k))
            .map(|k| if k == HELM_RELEASE { "the Secrets holding Helm release records" } else { k })
            .collect();
        let served_none: Vec<&str> = s
            .needs
            .iter()
            .filter(|g| g.iter().all(|k| count(k) == 0 && !listed(k)) && g.iter().all(|k| not_served(k)))
            .flat_map(|g| g.iter())
            .copied()
            .collect();
        let listed_none: Vec<&str> = s
            .needs
            .iter()
            .filter(|g| g.iter().all(|k| count(k) == 0) && g.iter().any(listed))
            .flat_map(|g| g.iter())
            .copied()
            .filter(listed)
            .collect();
        let partly: Vec<String> = s
            .needs
            .iter()
            .flat_map(|g| g.iter())
            .filter(|k| !forbidden_in(k).is_empty())
            .map(|k| format!("{k} in namespace(s) {}", names(&forbidden_in(k))))
            .collect();
        let (state, reason) = if !hidden.is_empty() {
            (
                State::NotRead,
                Some(format!(
                    "not visible to you: listing {} was refused (forbidden); what it holds was not checked",
                    names(&hidden)
                )),
            )
        } else if !missing.is_empty() {
            let words: Vec<String> = missing.iter().map(|g| g.join(" or ")).collect();
            (State::NotRead, Some(format!("no {} was read", words.join(", no "))))
        } else if !partly.is_empty() {
            (
                State::Partial,
                Some(format!("not visible to you: {} (listing refused): those were not checked", partly.join("; "))),
            )
        } else {
            match unreadable_part(s.id, f) {
                (State::Checked, None) if !served_none.is_empty() => (
                    State::Checked,
                    Some(format!("this cluster serves no {}: there is none to check", names(&served_none))),
                ),
                (State::Checked, None) if !listed_none.is_empty() => {
                    (State::Checked, Some(format!("listed from the API: this cluster has no {}", names(&listed_none))))
                }
                other => other,
            }
        };
        families.push(family(s.id, s.family, s.codes.to_vec(), kinds, state, reason));
    }

    // API removals: every object read is checked against the table.
    let (state, reason) = if f.objects == 0 {
        (State::NotRead, Some("no Kubernetes object was read".to_owned()))
    } else if beyond_review {
        (
            State::Partial,
            Some(format!(
                "the target is past 1.{REVIEWED_THROUGH}, the newest release the API table was reviewed through: removals announced after it are not known"
            )),
        )
    } else {
        (State::Checked, None)
    };
    families.push(family(
        "api-removals",
        "API removals",
        vec!["api/removed", "api/deprecated"],
        Vec::new(),
        state,
        reason,
    ));

    // The plan's simulation.
    let (state, reason) = match &f.plan {
        PlanRun::Complete(why) => (State::Checked, why.map(str::to_owned)),
        PlanRun::Stopped { at, pending } => (
            State::NotSimulated,
            Some(format!(
                "the plan stops {at}: {pending} node(s) past the stop were not simulated, and neither was the downtime there"
            )),
        ),
        PlanRun::NotRun(why) => (State::NotSimulated, Some(format!("the plan did not run: {why}"))),
    };
    families.push(family(
        "plan",
        "the plan's simulation",
        vec!["plan", "downtime", "capacity/", "disruption/replicas-in-one-window", "admission/webhook-down-in-window"],
        Vec::new(),
        state,
        reason,
    ));

    // Scope, then the user's choice.
    for fam in &mut families {
        let read_anyway =
            fam.kinds.iter().any(|k| k.read > 0) || (fam.id == "current-version" && fam.state == State::Checked);
        fam.in_scope = scope == Scope::Cluster || MANIFEST_FAMILIES.contains(&fam.id) || read_anyway;
        if !fam.in_scope && fam.state != State::Checked {
            fam.reason = Some(format!(
                "{}; out of scope: the inputs are manifests alone, not a cluster",
                fam.reason.as_deref().unwrap_or("not checked")
            ));
        }
        if f.skip.iter().any(|s| s == fam.id) {
            if fam.state == State::Checked {
                fam.reason = Some("asked to skip, but its inputs were read and checked".to_owned());
            } else {
                fam.reason = Some(format!(
                    "skipped by choice (--skip {}); {}",
                    fam.id,
                    fam.reason.as_deref().unwrap_or("not checked")
                ));
                fam.state = State::Skipped;
            }
        }
        fam.checked = fam.state == State::Checked;
        fam.not_checked = if fam.checked { None } else { fam.reason.clone() };
    }
    // What the user may not see is unknown, not a pass: a family partly refused (in some namespaces) makes
    // the run incomplete too, unless it was skipped by choice.
    let refused = |x: &Family| x.kinds.iter().any(|k| k.denied.iter().any(|d| d.reason == "forbidden"));
    let incomplete = families
        .iter()
        .filter(|x| x.in_scope && (x.state.makes_incomplete() || (x.state != State::Skipped && refused(x))))
        .map(|x| x.id)
        .collect();
    Coverage { scope, reviewed_through: format!("1.{REVIEWED_THROUGH}"), beyond_review, families, incomplete }
}

fn family(
    id: &'static str,
    name: &'static str,
    codes: Vec<&'static str>,
    kinds: Vec<KindRead>,
    state: State,
    reason: Option<String>,
) -> Family {
    Family { id, family: name, state, in_scope: false, reason, codes, kinds, checked: false, not_checked: None }
}

/// A family whose kinds were read: unreadable where a value its checks need did not parse.
fn unreadable_part(id: &str, f: &Facts<'_>) -> (State, Option<String>) {
    let of = |kinds: &[&str]| -> Vec<&str> {
        f.unreadable.iter().filter(|(k, _)| kinds.contains(k)).map(|(_, n)| *n).collect()
    };
    match id {
        "nodes" => {
            let bad = of(&["Node"]);
            let mut parts = Vec::new();
            if !bad.is_empty() {
                parts.push(format!("node(s) {} hold values that do not parse (input/unreadable-value)", names(&bad)));
            }
            if !f.no_kubelet_version.is_empty() {
                parts.push(format!(
                    "node(s) {} state no kubelet version (status.nodeInfo.kubeletVersion): the skew checks could not judge them",
                    names(&f.no_kubelet_version)
                ));
            }
            if parts.is_empty() {
                (State::Checked, None)
            } else {
                (State::Unreadable, Some(parts.join("; ")))
            }
        }
        "drains" => unreadable_if(
            "",
            &of(&["Pod", "Deployment", "StatefulSet", "ReplicaSet", "DaemonSet", "Job", "CronJob"]),
            "hold requests that do not parse (input/unreadable-value): counted as zero where pods are placed",
        ),
        "budgets" => unreadable_if(
            "budget(s) ",
            &of(&["PodDisruptionBudget"]),
            "do not parse (input/unreadable-value): read as allowing nothing",
        ),
        _ => (State::Checked, None),
    }
}

/// `unreadable` naming `bad` (after `label`) and what became of them, or `checked` when there are none.
fn unreadable_if(label: &str, bad: &[&str], what: &str) -> (State, Option<String>) {
    if bad.is_empty() {
        (State::Checked, None)
    } else {
        (State::Unreadable, Some(format!("{label}{} {what}", names(bad))))
    }
}

/// A family's code entry covers a rule code: equal, or a prefix ending in `/` or `-` (`admission/webhook-`).
pub fn covers(entry: &str, code: &str) -> bool {
    if entry.ends_with('/') || entry.ends_with('-') {
        code.starts_with(entry)
    } else {
        code == entry
    }
}

impl Coverage {
    /// `admission webhooks: no ValidatingWebhookConfiguration or ... was read`, one per family in scope
    /// that is not checked (skipped ones included, said as such).
    pub fn not_checked(&self) -> Vec<String> {
        self.families
            .iter()
            .filter(|f| f.in_scope && f.state != State::Checked)
            .map(|f| format!("{} ({}, {}): {}", f.family, f.id, f.state.name(), f.reason.as_deref().unwrap_or("")))
            .collect()
    }

    /// The families out of this run's scope, by id.
    pub fn out_of_scope(&self) -> Vec<&'static str> {
        self.families.iter().filter(|f| !f.in_scope).map(|f| f.id).collect()
    }

    /// The first family that covers `code` and is not checked (in or out of scope): a rule it covers has
    /// no pass to show, whatever its findings.
    pub fn unchecked_for(&self, code: &str) -> Option<&Family> {
        self.families.iter().find(|f| f.state != State::Checked && f.codes.iter().any(|c| covers(c, code)))
    }

    /// The sentence said about the scope, for a run of manifests alone.
    pub fn scope_note(&self) -> Option<&'static str> {
        (self.scope == Scope::Manifests).then_some(MANIFESTS_SCOPE)
    }

    /// The sentence said when the target is past the tables' review, if it is.
    pub fn beyond(&self, to: &str) -> Option<String> {
        self.beyond_review.then(|| {
            format!(
                "the target {to} is past {}, the newest release the API and runtime tables were reviewed through: removals and requirements announced after it are not known",
                self.reviewed_through
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(by_kind: &'a BTreeMap<String, usize>, to: &'a Version, skip: &'a [String]) -> Facts<'a> {
        Facts {
            by_kind,
            helm_releases: 0,
            objects: by_kind.values().sum(),
            configs: Vec::new(),
            profile: Profile::Kubeadm,
            to,
            from_source: Some("kubectl version".to_owned()),
            version_doubts: Vec::new(),
            needs_from: vec!["version/downgrade"],
            plan: PlanRun::Complete(None),
            unreadable: Vec::new(),
            no_kubelet_version: Vec::new(),
            skip,
            denied: &[],
            listed: &[],
        }
    }

    fn denied(kind: &str, namespace: Option<&str>, reason: &'static str) -> Denied {
        Denied { kind: kind.to_owned(), namespace: namespace.map(str::to_owned), reason }
    }

    #[test]
    fn lists_refused_or_not_served_are_said_as_such() {
        let by_kind =
            kinds(&[("Node", 3), ("Pod", 10), ("PodDisruptionBudget", 2), ("ValidatingWebhookConfiguration", 1)]);
        let to = Version::parse("1.29.2").unwrap();
        let list = [
            // Budgets read, but not in two namespaces: partial.
            denied("PodDisruptionBudget", Some("payments"), "forbidden"),
            denied("PodDisruptionBudget", Some("vault"), "forbidden"),
            // No Service or EndpointSlice visible: the webhooks' backends unknown.
            denied("EndpointSlice", None, "forbidden"),
            denied("Service", None, "forbidden"),
            // The cluster serves no admission policies at all: nothing to check there.
            denied("ValidatingAdmissionPolicy", None, "not-served"),
            denied("ValidatingAdmissionPolicyBinding", None, "not-served"),
        ];
        let mut f = facts(&by_kind, &to, &[]);
        f.denied = &list;
        let c = coverage(&f);
        let fam = |id: &str| c.families.iter().find(|x| x.id == id).unwrap();
        assert_eq!(fam("budgets").state, State::Partial);
        assert_eq!(
            fam("budgets").reason.as_deref(),
            Some("not visible to you: PodDisruptionBudget in namespace(s) payments, vault (listing refused): those were not checked")
        );
        assert_eq!(fam("admission-webhooks").state, State::NotRead);
        assert!(fam("admission-webhooks")
            .reason
            .as_deref()
            .unwrap()
            .starts_with("not visible to you: listing EndpointSlice, Service was refused"));
        assert_eq!(fam("admission-policies").state, State::Checked);
        assert_eq!(
            fam("admission-policies").reason.as_deref(),
            Some("this cluster serves no ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding: there is none to check")
        );
        assert_eq!(fam("budgets").kinds[0].denied.len(), 2);
        assert!(c.incomplete.contains(&"admission-webhooks") && !c.incomplete.contains(&"admission-policies"));
        // Partly not visible is still unknown: the run is incomplete for it.
        assert!(c.incomplete.contains(&"budgets"));
    }

    /// Facts of a run that does not know the current version, so that its plan did not run (`why`).
    fn unknown_version<'a>(by_kind: &'a BTreeMap<String, usize>, to: &'a Version, why: &'a str) -> Facts<'a> {
        let mut f = facts(by_kind, to, &[]);
        f.from_source = None;
        f.plan = PlanRun::NotRun(why);
        f
    }

    fn kinds(read: &[(&str, usize)]) -> BTreeMap<String, usize> {
        read.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
    }

    fn state(c: &Coverage, id: &str) -> State {
        c.families.iter().find(|f| f.id == id).unwrap().state
    }

    #[test]
    fn a_family_whose_kinds_were_not_read_is_not_read_and_makes_the_run_incomplete() {
        let by_kind = kinds(&[("Node", 3), ("Pod", 10), ("ValidatingWebhookConfiguration", 1)]);
        let to = Version::parse("1.29.2").unwrap();
        let c = coverage(&facts(&by_kind, &to, &[]));
        assert_eq!(c.scope, Scope::Cluster);
        assert_eq!(
            c.incomplete,
            [
                "budgets",
                "admission-webhooks",
                "admission-policies",
                "aggregated-apis",
                "custom-resources",
                "helm-charts"
            ]
        );
        assert_eq!(
            c.families.iter().find(|f| f.id == "admission-webhooks").unwrap().reason.as_deref(),
            Some("no EndpointSlice or Service was read")
        );
        assert!(!c.beyond_review);
        // What is read is checked; the rule view finds the family that is not.
        assert_eq!(state(&c, "nodes"), State::Checked);
        assert_eq!(c.unchecked_for("disruption/pdb-blocks-drain").map(|f| f.id), Some("budgets"));
        assert_eq!(c.unchecked_for("skew/kubelet-too-old").map(|f| f.id), None);
        assert_eq!(c.unchecked_for("admission/webhook-unavailable").map(|f| f.id), Some("admission-webhooks"));
        // Skipped by choice: listed, not incomplete; an id whose family was checked stays checked.
        let mut skip: Vec<String> = c.incomplete.iter().map(|id| (*id).to_owned()).collect();
        skip.push("nodes".to_owned());
        let c = coverage(&facts(&by_kind, &to, &skip));
        assert!(c.incomplete.is_empty(), "{:?}", c.incomplete);
        assert_eq!(state(&c, "budgets"), State::Skipped);
        assert_eq!(state(&c, "nodes"), State::Checked);
        assert_eq!(c.unchecked_for("disruption/pdb-blocks-drain").map(|f| f.state), Some(State::Skipped));
    }

    #[test]
    fn the_current_version_unknown_a_stopped_plan_and_unreadable_nodes_are_not_passes() {
        let by_kind = kinds(&[("Node", 2)]);
        let to = Version::parse("1.29.2").unwrap();
        let mut f = unknown_version(&by_kind, &to, "no current version");
        f.no_kubelet_version = vec!["w-1"];
        let c = coverage(&f);
        assert_eq!(state(&c, "current-version"), State::NotRead);
        assert_eq!(state(&c, "plan"), State::NotSimulated);
        assert_eq!(state(&c, "nodes"), State::Unreadable);
        assert!(c.incomplete.starts_with(&["current-version", "nodes"]));
        assert_eq!(c.unchecked_for("version/downgrade").map(|f| f.id), Some("current-version"));
        f.plan = PlanRun::Stopped { at: "on w-2".to_owned(), pending: 3 };
        let c = coverage(&f);
        assert!(c.families.iter().any(|x| x.id == "plan" && x.reason.as_deref().unwrap().contains("3 node(s)")));
    }

    #[test]
    fn manifests_alone_leave_the_cluster_families_out_of_scope() {
        let by_kind = kinds(&[("Deployment", 2)]);
        let to = Version::parse("1.36.0").unwrap();
        let mut f = unknown_version(&by_kind, &to, "no nodes");
        let c = coverage(&f);
        assert_eq!(c.scope, Scope::Manifests);
        assert!(c.incomplete.is_empty(), "{:?}", c.incomplete);
        assert!(c.out_of_scope().contains(&"nodes") && c.out_of_scope().contains(&"plan"));
        // Past the table's review, the API removals are partial: never a pass, never incomplete.
        assert_eq!(state(&c, "api-removals"), State::Partial);
        assert!(c.beyond_review);
        // A `kubectl version` output is a cluster's own state.
        f.configs = vec!["kubectl-version"];
        assert_eq!(coverage(&f).scope, Scope::Cluster);
    }

    #[test]
    fn every_family_has_a_known_id() {
        let by_kind = BTreeMap::new();
        let to = Version::parse("1.29.2").unwrap();
        for p in [Profile::Kubeadm, Profile::Openshift, Profile::GkeBaremetal, Profile::Kops, Profile::Rke] {
            let mut f = facts(&by_kind, &to, &[]);
            f.profile = p;
            for fam in coverage(&f).families {
                assert!(crate::options::FAMILY_IDS.contains(&fam.id), "{}", fam.id);
            }
        }
    }
}
