//! `UpgradeOptions` (CONTRACT section 3): what the user asks for, from the JS API, a `--config` file or flags.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::parse::{Node, Value};
use crate::quantity::IntOrPercent;
use crate::version::Version;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    #[default]
    Kubeadm,
    Rke,
    RkeLegacy,
    Kops,
    Openshift,
    GkeBaremetal,
}

impl Profile {
    pub const ALL: [Profile; 6] =
        [Profile::Kubeadm, Profile::Rke, Profile::RkeLegacy, Profile::Kops, Profile::Openshift, Profile::GkeBaremetal];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Kubeadm => "kubeadm",
            Profile::Rke => "rke",
            Profile::RkeLegacy => "rke-legacy",
            Profile::Kops => "kops",
            Profile::Openshift => "openshift",
            Profile::GkeBaremetal => "gke-baremetal",
        }
    }

    pub fn parse(s: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == s)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An options error: names the field and says what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionsError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option `{}`: {}", self.field, self.message)
    }
}

fn opt_err(field: &str, message: impl Into<String>) -> OptionsError {
    OptionsError { field: field.to_owned(), message: message.into() }
}

/// The user's request. Build it with [`UpgradeOptions::new`] or [`UpgradeOptions::from_node`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UpgradeOptions {
    pub to: String,
    pub from: Option<String>,
    pub profile: Profile,
    pub max_unavailable_worker: Option<IntOrPercent>,
    pub max_unavailable_control_plane: Option<IntOrPercent>,
    pub max_surge: Option<IntOrPercent>,
    pub drain: Option<bool>,
    /// The drain's `--force` (RKE `node_drain_input.force`): delete pods that declare no controller.
    pub drain_force: Option<bool>,
    /// The drain's `--delete-emptydir-data` (RKE `node_drain_input.delete_local_data`).
    pub drain_delete_local_data: Option<bool>,
    /// The drain's `--ignore-daemonsets`, as RKE's `cluster.yml` sets it (`node_drain_input.ignore_daemonsets`;
    /// no option of its own: the other distributions' drains always ignore DaemonSet pods).
    pub drain_ignore_daemonsets: Option<bool>,
    /// Overrides of the planner's default times, in seconds, by name.
    pub timings: BTreeMap<String, u64>,
    /// More annotations whose value is the manifest as applied (JSON or YAML), read for the apiVersion it
    /// was written in, beside kubectl's last-applied-configuration and kapp's `kapp.k14s.io/original`
    /// (like kubent's `--additional-annotation`).
    pub additional_annotations: Vec<String>,
    /// Findings accepted by the user (`--config`'s `exemptions`): kept in the report, never gating.
    pub exemptions: Vec<Exemption>,
    /// The date exemptions' expiry is judged against. The CLI and the JS API give today's (UTC) when it is
    /// not set; without it, no exemption expires.
    pub today: Option<Date>,
    /// A previous report: the findings it holds are suppressed (`--baseline`).
    pub baseline: Option<Baseline>,
    /// The report taken before the upgrade started (`--since`): the upgrade under way is checked against
    /// its plan (`progress.since`).
    pub since: Option<Since>,
    /// Families of checks left out by the user's choice (`--skip`, ids of [`FAMILY_IDS`]):
    /// reported as skipped, never making the run incomplete.
    pub skip: Vec<String>,
}

/// A calendar date, `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// `YYYY-MM-DD`, a day that exists (2025-02-29 does not).
    pub fn parse(s: &str) -> Option<Date> {
        let (year, month, day) = crate::units::calendar_date(s)?;
        Some(Date { year, month, day })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// One accepted finding, or family of findings: a rule (a code, `category/*` or `*`) and, optionally, the
/// objects it covers (kind exactly; namespace and name as patterns with `*` and `?`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exemption {
    pub rule: String,
    pub kind: Option<String>,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub reason: Option<String>,
    /// The last day it holds: from the day after, it no longer suppresses and is itself a warning.
    pub expires: Option<Date>,
}

/// What tells a finding apart from one run to the next (the SARIF fingerprint hashes it): the rule, the
/// object (apiVersion, kind, namespace, name), the hop, the facts in `IDENTITY_DATA`, and where the object
/// was read from (`source.via`). Lines, file names and message wording are left out.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct FindingIdentity(pub String);

/// The `data` facts a finding's identity includes: the API or annotation it was read from, the node.
pub const IDENTITY_DATA: [&str; 4] = ["apiVersion", "annotation", "via", "node"];

impl FindingIdentity {
    /// Built from the finding's parts; `data` gives a fact of `IDENTITY_DATA` as text.
    pub fn new<'s>(
        code: &str,
        object: Option<[&str; 4]>,
        hop: Option<&str>,
        data: impl Fn(&str) -> Option<&'s str>,
        via: Option<&str>,
    ) -> FindingIdentity {
        let mut key = String::from(code);
        if let Some(parts) = object {
            for part in parts {
                key.push('\u{1f}');
                key.push_str(part);
            }
        }
        key.push('\u{1f}');
        key.push_str(hop.unwrap_or(""));
        for k in IDENTITY_DATA {
            if let Some(v) = data(k) {
                key.push('\u{1f}');
                key.push_str(k);
                key.push('=');
                key.push_str(v);
            }
        }
        if let Some(v) = via {
            key.push('\u{1f}');
            key.push_str("via:");
            key.push_str(v);
        }
        FindingIdentity(key)
    }

    /// The identity as a 64-bit FNV-1a hash, in hex.
    pub fn fingerprint(&self) -> String {
        let hash = self
            .0
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
        format!("{hash:016x}")
    }
}

/// The findings of a previous report (`--baseline`), by identity.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Baseline {
    /// Sorted, each once.
    pub identities: Vec<FindingIdentity>,
}

impl Baseline {
    /// Read a report (`--format json`, or the object `check` returned).
    pub fn from_node(n: &Node) -> Result<Baseline, OptionsError> {
        let not_a_report = || {
            opt_err(
                "baseline",
                "expected a kube-preflight report (the JSON of `check --format json`, schemaVersion 1, with findings)",
            )
        };
        if n.get("schemaVersion").as_i64() != Some(1) || !matches!(n.get("findings").value, Value::Seq(_)) {
            return Err(not_a_report());
        }
        let mut identities = Vec::new();
        for (i, f) in n.get("findings").as_seq().iter().enumerate() {
            let code = f
                .get("code")
                .as_str()
                .filter(|c| !c.is_empty())
                .ok_or_else(|| opt_err(&format!("baseline.findings[{i}].code"), "expected a rule code"))?;
            let o = f.get("object");
            let object = (!o.is_null()).then(|| {
                let s = |k: &str| o.get(k).as_str().unwrap_or("");
                [s("apiVersion"), s("kind"), s("namespace"), s("name")]
            });
            let data = f.get("data");
            identities.push(FindingIdentity::new(
                code,
                object,
                f.get("hop").as_str(),
                |k| data.get(k).as_str(),
                f.get("source").get("via").as_str(),
            ));
        }
        crate::sort::sort(&mut identities);
        identities.dedup();
        Ok(Baseline { identities })
    }

    pub fn contains(&self, id: &FindingIdentity) -> bool {
        self.identities.binary_search(id).is_ok()
    }
}

/// The plan of a report taken before the upgrade started (`--since`), as far as progress reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Since {
    /// `upgrade.to` of that report.
    pub to: String,
    /// `inventory.snapshotTime` of that report (RFC 3339), when it states one.
    pub snapshot_time: Option<String>,
    /// `plan.totalSeconds` and `plan.complete`.
    pub total_seconds: u64,
    pub complete: bool,
    /// `plan.steps`: (node, start, end) in plan seconds, in plan order.
    pub steps: Vec<(String, u64, u64)>,
}

impl Since {
    /// Read a report (`--format json`, or the object `check` returned).
    pub fn from_node(n: &Node) -> Result<Since, OptionsError> {
        if n.get("schemaVersion").as_i64() != Some(1) || !n.get("plan").is_map() {
            return Err(opt_err(
                "since",
                "expected a kube-preflight report (the JSON of `check --format json`, schemaVersion 1, with a plan)",
            ));
        }
        let plan = n.get("plan");
        let secs = |v: &Node, field: &str| -> Result<u64, OptionsError> {
            v.as_i64().and_then(|x| u64::try_from(x).ok()).ok_or_else(|| opt_err(field, "expected a number of seconds"))
        };
        let mut steps = Vec::new();
        for (i, st) in plan.get("steps").as_seq().iter().enumerate() {
            let field = |k: &str| format!("since.plan.steps[{i}].{k}");
            let node = st
                .get("node")
                .as_str()
                .filter(|s| !s.is_empty())
                .ok_or_else(|| opt_err(&field("node"), "expected a node name"))?;
            let start = secs(st.get("startSeconds"), &field("startSeconds"))?;
            let end = secs(st.get("endSeconds"), &field("endSeconds"))?;
            steps.push((node.to_owned(), start, end));
        }
        Ok(Since {
            to: n.get("upgrade").get("to").as_str().unwrap_or_default().to_owned(),
            snapshot_time: n.get("inventory").get("snapshotTime").as_str().map(str::to_owned),
            total_seconds: if plan.get("totalSeconds").is_null() {
                0
            } else {
                secs(plan.get("totalSeconds"), "since.plan.totalSeconds")?
            },
            complete: plan.get("complete").as_bool().unwrap_or(false),
            steps,
        })
    }
}

/// The options once checked: versions parsed.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub to: Version,
    pub from: Option<Version>,
}

const FIELDS: &[&str] = &[
    "to",
    "from",
    "profile",
    "maxUnavailableWorker",
    "maxUnavailableControlPlane",
    "maxSurge",
    "drain",
    "drainForce",
    "drainDeleteLocalData",
    "timings",
    "additionalAnnotations",
    "exemptions",
    "today",
    "baseline",
    "skip",
    "since",
];

/// Every family of checks `--skip` takes, by id, in report order (the platform's under any profile):
/// `coverage` names its families so.
pub const FAMILY_IDS: &[&str] = &[
    "current-version",
    "nodes",
    "drains",
    "budgets",
    "admission-webhooks",
    "admission-policies",
    "aggregated-apis",
    "custom-resources",
    "helm-charts",
    "api-removals",
    "plan",
    "openshift-gates",
    "bmctl-gates",
    "kops-instance-groups",
];

const EXEMPTION_FIELDS: &[&str] = &["rule", "kind", "namespace", "name", "reason", "expires"];

/// One entry of `exemptions`, the field names in errors as `exemptions[i].field`.
fn exemption(i: usize, n: &Node) -> Result<Exemption, OptionsError> {
    let field = |k: &str| format!("exemptions[{i}].{k}");
    if !n.is_map() {
        return Err(opt_err(
            &format!("exemptions[{i}]"),
            "expected an object ({rule, kind, namespace, name, reason, expires})",
        ));
    }
    for (k, _) in n.as_map() {
        if !EXEMPTION_FIELDS.contains(&k.as_str()) {
            return Err(opt_err(&field(k), format!("unknown field (known: {})", EXEMPTION_FIELDS.join(", "))));
        }
    }
    let text = |k: &str| -> Result<Option<String>, OptionsError> {
        let v = n.get(k);
        match &v.value {
            Value::Null => Ok(None),
            Value::Scalar(s, _) if !s.trim().is_empty() => Ok(Some(s.trim().to_owned())),
            _ => Err(opt_err(&field(k), "expected a non-empty string")),
        }
    };
    let rule = text("rule")?.ok_or_else(|| opt_err(&field("rule"), "required: a rule code, `category/*` or `*`"))?;
    let expires = match text("expires")? {
        None => None,
        Some(d) => Some(
            Date::parse(&d)
                .ok_or_else(|| opt_err(&field("expires"), format!("{d:?} is not a date like \"2026-12-31\"")))?,
        ),
    };
    Ok(Exemption {
        rule,
        kind: text("kind")?,
        namespace: text("namespace")?,
        name: text("name")?,
        reason: text("reason")?,
        expires,
    })
}

/// Parse an IntOrPercent limit: a count >= 0 or a percentage 0..=100.
pub fn parse_limit(field: &str, raw: &str) -> Result<IntOrPercent, OptionsError> {
    let v = IntOrPercent::parse(raw)
        .ok_or_else(|| opt_err(field, format!("{raw:?} is neither a whole number nor a percentage like \"25%\"")))?;
    match v {
        IntOrPercent::Int(n) if n < 0 => Err(opt_err(field, format!("{n} is negative"))),
        IntOrPercent::Percent(p) if !(0..=100).contains(&p) => {
            Err(opt_err(field, format!("{p}% is outside 0% to 100%")))
        }
        v => Ok(v),
    }
}

impl UpgradeOptions {
    pub fn new(to: &str) -> UpgradeOptions {
        UpgradeOptions { to: to.to_owned(), ..UpgradeOptions::default() }
    }

    /// Read options from a JSON/YAML object (the JS API's `options`, or a `--config` file).
    /// Unknown fields are an error so that a typo is not silently ignored.
    pub fn from_node(n: &Node) -> Result<UpgradeOptions, OptionsError> {
        if !n.is_map() {
            return Err(opt_err("options", "expected an object"));
        }
        for (k, _) in n.as_map() {
            if !FIELDS.contains(&k.as_str()) {
                // An empty key (`{: 1}`) still gets a name an error can show (found by `cargo xtask fuzz`).
                let field = if k.trim().is_empty() { "<empty key>" } else { k.as_str() };
                return Err(opt_err(field, format!("unknown option (known: {})", FIELDS.join(", "))));
            }
        }
        let string = |field: &str| -> Result<Option<String>, OptionsError> {
            let v = n.get(field);
            match &v.value {
                Value::Null => Ok(None),
                Value::Scalar(s, _) => Ok(Some(s.to_string())),
                _ => Err(opt_err(field, "expected a string")),
            }
        };
        let limit = |field: &str| -> Result<Option<IntOrPercent>, OptionsError> {
            string(field)?.map(|s| parse_limit(field, &s)).transpose()
        };
        let mut o =
            UpgradeOptions { to: string("to")?.unwrap_or_default(), from: string("from")?, ..Default::default() };
        if let Some(p) = string("profile")? {
            o.profile = Profile::parse(&p).ok_or_else(|| {
                let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                opt_err("profile", format!("{p:?} is not one of {}", names.join(", ")))
            })?;
        }
        o.max_unavailable_worker = limit("maxUnavailableWorker")?;
        o.max_unavailable_control_plane = limit("maxUnavailableControlPlane")?;
        o.max_surge = limit("maxSurge")?;
        let flag = |field: &str| -> Result<Option<bool>, OptionsError> {
            let d = n.get(field);
            if d.is_null() {
                return Ok(None);
            }
            d.as_bool().map(Some).ok_or_else(|| opt_err(field, "expected true or false"))
        };
        o.drain = flag("drain")?;
        o.drain_force = flag("drainForce")?;
        o.drain_delete_local_data = flag("drainDeleteLocalData")?;
        let a = n.get("additionalAnnotations");
        match &a.value {
            Value::Null => {}
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    let key = item.as_str().filter(|k| !k.is_empty()).ok_or_else(|| {
                        opt_err(&format!("additionalAnnotations[{i}]"), "expected an annotation name")
                    })?;
                    o.additional_annotations.push(key.to_owned());
                }
            }
            _ => return Err(opt_err("additionalAnnotations", "expected a list of annotation names")),
        }
        let e = n.get("exemptions");
        match &e.value {
            Value::Null => {}
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    o.exemptions.push(exemption(i, item)?);
                }
            }
            _ => {
                return Err(opt_err(
                    "exemptions",
                    "expected a list of exemptions ({rule, kind, namespace, name, reason, expires})",
                ))
            }
        }
        if let Some(t) = string("today")? {
            o.today = Some(
                Date::parse(&t).ok_or_else(|| opt_err("today", format!("{t:?} is not a date like \"2026-11-24\"")))?,
            );
        }
        let b = n.get("baseline");
        match &b.value {
            Value::Null => {}
            Value::Map(_) => o.baseline = Some(Baseline::from_node(b)?),
            _ => {
                return Err(opt_err(
                    "baseline",
                    "expected a previous report (an object); on the command line, give --baseline <report.json>",
                ))
            }
        }
        let since = n.get("since");
        match &since.value {
            Value::Null => {}
            Value::Map(_) => o.since = Some(Since::from_node(since)?),
            _ => {
                return Err(opt_err(
                    "since",
                    "expected the report taken before the upgrade started (an object); on the command line, give --since <report.json>",
                ))
            }
        }
        let sk = n.get("skip");
        match &sk.value {
            Value::Null => {}
            Value::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    let id = item.as_str().unwrap_or_default();
                    if !FAMILY_IDS.contains(&id) {
                        return Err(opt_err(
                            &format!("skip[{i}]"),
                            format!("{id:?} is not a family of checks (known: {})", FAMILY_IDS.join(", ")),
                        ));
                    }
                    if !o.skip.iter().any(|s| s == id) {
                        o.skip.push(id.to_owned());
                    }
                }
            }
            _ => return Err(opt_err("skip", "expected a list of family ids (e.g. [\"helm-charts\"])")),
        }
        let t = n.get("timings");
        match &t.value {
            Value::Null => {}
            Value::Map(entries) => {
                for (k, v) in entries {
                    let field = format!("timings.{k}");
                    let secs = v
                        .as_i64()
                        .filter(|s| *s >= 0)
                        .ok_or_else(|| opt_err(&field, "expected a whole number of seconds >= 0"))?;
                    o.timings.insert(k.to_string(), secs.unsigned_abs());
                }
            }
            _ => return Err(opt_err("timings", "expected an object of seconds")),
        }
        Ok(o)
    }

    /// Merge `over` on top of `self` (flags over a config file): any field `over` sets wins.
    pub fn overlay(mut self, over: &UpgradeOptions, profile_given: bool) -> UpgradeOptions {
        if !over.to.is_empty() {
            self.to.clone_from(&over.to);
        }
        if over.from.is_some() {
            self.from.clone_from(&over.from);
        }
        if profile_given {
            self.profile = over.profile;
        }
        self.max_unavailable_worker = over.max_unavailable_worker.or(self.max_unavailable_worker);
        self.max_unavailable_control_plane = over.max_unavailable_control_plane.or(self.max_unavailable_control_plane);
        self.max_surge = over.max_surge.or(self.max_surge);
        self.drain = over.drain.or(self.drain);
        self.drain_force = over.drain_force.or(self.drain_force);
        self.drain_delete_local_data = over.drain_delete_local_data.or(self.drain_delete_local_data);
        for a in &over.additional_annotations {
            if !self.additional_annotations.contains(a) {
                self.additional_annotations.push(a.clone());
            }
        }
        for (k, v) in &over.timings {
            self.timings.insert(k.clone(), *v);
        }
        self.exemptions.extend(over.exemptions.iter().cloned());
        for id in &over.skip {
            if !self.skip.contains(id) {
                self.skip.push(id.clone());
            }
        }
        self.today = over.today.or(self.today);
        if over.baseline.is_some() {
            self.baseline.clone_from(&over.baseline);
        }
        if over.since.is_some() {
            self.since.clone_from(&over.since);
        }
        self
    }

    /// Check the options and parse the versions.
    pub fn resolve(&self) -> Result<Resolved, OptionsError> {
        if self.to.trim().is_empty() {
            return Err(opt_err("to", "the target version is required (e.g. \"1.29.2\")"));
        }
        // GKE on Bare Metal's bmctl takes its own product versions (`1.16.0` is Kubernetes 1.27).
        let gke = self.profile == Profile::GkeBaremetal;
        let to = Version::parse_for(&self.to, gke).map_err(|e| opt_err("to", e))?;
        let from =
            self.from.as_deref().map(|f| Version::parse_for(f, gke)).transpose().map_err(|e| opt_err("from", e))?;
        // An OpenShift product version names an OpenShift release: for any other distribution it would be
        // read as a Kubernetes version it is not (4.16 is Kubernetes 1.29).
        if self.profile != Profile::Openshift {
            for (field, v) in [("to", Some(&to)), ("from", from.as_ref())] {
                if let Some(v) = v.filter(|v| v.is_openshift()) {
                    return Err(opt_err(
                        field,
                        format!(
                            "{v} is an OpenShift version, read only with profile openshift (it ships Kubernetes \
                             {}): give the Kubernetes version for profile {}",
                            v.minor_string(),
                            self.profile.name()
                        ),
                    ));
                }
            }
        }
        Ok(Resolved { to, from })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_json;

    fn opts(json: &str) -> Result<UpgradeOptions, OptionsError> {
        UpgradeOptions::from_node(&parse_json("options", json).unwrap())
    }

    #[test]
    fn reads_every_field() {
        let o = opts(r#"{"to":"1.29.2","from":"v1.28.3","profile":"rke","maxUnavailableWorker":"10%","maxUnavailableControlPlane":1,"maxSurge":"2","drain":true,"timings":{"drainSeconds":60}}"#).unwrap();
        assert_eq!(o.profile, Profile::Rke);
        assert_eq!(o.max_unavailable_worker, Some(IntOrPercent::Percent(10)));
        assert_eq!(o.max_unavailable_control_plane, Some(IntOrPercent::Int(1)));
        assert_eq!(o.drain, Some(true));
        assert_eq!(o.timings.get("drainSeconds"), Some(&60));
        assert_eq!(o.resolve().unwrap().from.unwrap().minor, 28);
    }

    #[test]
    fn nonsense_names_the_field() {
        for (json, field) in [
            (r#"{"to":"1.29","maxUnavailableWorker":-1}"#, "maxUnavailableWorker"),
            (r#"{"to":"1.29","maxSurge":"150%"}"#, "maxSurge"),
            (r#"{"to":"1.29","maxUnavailableControlPlane":"ten"}"#, "maxUnavailableControlPlane"),
            (r#"{"to":"1.29","profile":"eks"}"#, "profile"),
            (r#"{"to":"1.29","drian":true}"#, "drian"),
            (r#"{"to":"1.29","drain":"yes"}"#, "drain"),
            (r#"{"to":"1.29","":1}"#, "<empty key>"),
            (r#"{"to":"1.29","timings":{"x":-3}}"#, "timings.x"),
        ] {
            assert_eq!(opts(json).unwrap_err().field, field, "{json}");
        }
        assert_eq!(opts(r#"{"to":"latest"}"#).unwrap().resolve().unwrap_err().field, "to");
        // An OpenShift version names an OpenShift release: refused for any other profile, naming what it ships.
        let e = opts(r#"{"to":"4.16.2"}"#).unwrap().resolve().unwrap_err();
        assert_eq!(e.field, "to");
        assert!(e.message.contains("Kubernetes 1.29") && e.message.contains("openshift"), "{}", e.message);
        let e = opts(r#"{"to":"1.29.2","from":"4.15.3","profile":"rke"}"#).unwrap().resolve().unwrap_err();
        assert_eq!(e.field, "from");
        assert!(opts(r#"{"to":"4.16.2","from":"1.28.3","profile":"openshift"}"#).unwrap().resolve().is_ok());
        assert_eq!(opts(r#"{}"#).unwrap().resolve().unwrap_err().field, "to");
    }
}
