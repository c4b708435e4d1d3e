//! The gates the distribution's own tooling checks before it upgrades, and those that hold it during the
//! upgrade: OpenShift's cluster-version operator (CVO) and `oc adm upgrade` (the update service's edges and
//! risks, `Upgradeable`, admin acks, ClusterOperators that are not Available or are Degraded), the MCO's
//! and OLM's `Upgradeable=False`, GKE on Bare Metal's `bmctl` (its version rules, its preflight checks).
//!
//! Decided once, here: the plan stops on a gate that stops ([`GateStop`]) and the `platform/*` rules report
//! every gate, so the two never tell different stories. Sources, each followed by the fixture that pins it,
//! are in docs/semantics.md ("The platform's own gates").

use crate::model::distro::{condition, ClusterOperator, ClusterVersion, Condition, Csv, GkePreflight};
use crate::model::{Body, Object};
use crate::options::Profile;
use crate::parse::parse_json;
use crate::version::Version;

use super::{live, Cluster};

/// How a gate holds the upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateStop {
    /// The distribution's tool refuses to start: nothing is upgraded (`oc adm upgrade` / the CVO's
    /// preconditions, `bmctl upgrade cluster`).
    Refused,
    /// The CVO starts, then waits at the runlevel of a ClusterOperator that is not Available or is
    /// Degraded: the control plane is part-updated and no node is (the MCO comes last).
    Waits,
}

/// One gate that holds: what a `platform/*` finding says, and whether (and how) the plan stops on it.
#[derive(Debug, Clone)]
pub struct Gate<'a> {
    /// The rule that reports it.
    pub code: &'static str,
    /// A blocker, or a warning (it holds nothing).
    pub blocker: bool,
    pub object: Option<&'a Object>,
    pub message: String,
    pub help: String,
    pub data: Vec<(&'static str, String)>,
    pub stop: Option<GateStop>,
}

pub const UPDATE_NOT_RECOMMENDED: &str = "platform/update-not-recommended";
pub const UPDATE_NOT_OFFERED: &str = "platform/update-not-offered";
pub const UPGRADEABLE_FALSE: &str = "platform/upgradeable-false";
pub const ADMIN_ACK_REQUIRED: &str = "platform/admin-ack-required";
pub const UPDATE_IN_PROGRESS: &str = "platform/update-in-progress";
pub const OPERATOR_DEGRADED: &str = "platform/operator-degraded";
pub const POOL_DEGRADED: &str = "platform/pool-degraded";
pub const OPERATOR_INCOMPATIBLE: &str = "platform/operator-incompatible";
pub const VERSION_REFUSED: &str = "platform/version-refused";
pub const PREFLIGHT_FAILED: &str = "platform/preflight-failed";
pub const CLUSTER_VERSION_FAILING: &str = "platform/cluster-version-failing";

/// The annotation OLM writes on an installed ClusterServiceVersion with its bundle's properties (a JSON
/// object with a `properties` list), which its incompatible-operators check reads
/// (operator-lifecycle-manager `pkg/controller/operators/openshift/helpers.go`).
pub const OLM_PROPERTIES: &str = "operatorframework.io/properties";
/// The annotation bundle authors write the same properties in (a JSON list): read when the installed
/// one is absent (a CSV manifest rather than a live object).
pub const OLM_AUTHOR_PROPERTIES: &str = "olm.properties";
/// The annotation that lets bmctl skip a minor (targets 1.33 and later).
pub const GKE_SKIP_ANNOTATION: &str = "preview.baremetal.cluster.gke.io/skip-minor-version-cluster-upgrade";

fn gate<'a>(code: &'static str, object: Option<&'a Object>, message: String, help: impl Into<String>) -> Gate<'a> {
    Gate { code, blocker: true, object, message, help: help.into(), data: Vec::new(), stop: Some(GateStop::Refused) }
}

impl Gate<'_> {
    fn warning(mut self) -> Self {
        self.blocker = false;
        self.stop = None;
        self
    }

    fn data(mut self, k: &'static str, v: impl Into<String>) -> Self {
        self.data.push((k, v.into()));
        self
    }
}

/// Every gate that holds for this cluster and request, in a stable order (by code, then as found).
pub fn gates<'a>(c: &Cluster<'a>) -> Vec<Gate<'a>> {
    let mut out = Vec::new();
    let Some(from) = &c.from else { return out };
    match c.profile() {
        // Nothing to update: no gate to pass (a downgrade is `version/downgrade`'s).
        Profile::Openshift if c.path.is_empty() => {}
        Profile::Openshift => openshift(c, from, &mut out),
        Profile::GkeBaremetal => gke_baremetal(c, from, &mut out),
        _ => {}
    }
    crate::sort::sort_by_key(&mut out, |g| g.code);
    out
}

fn objects<'a, 'c>(c: &'c Cluster<'a>) -> impl Iterator<Item = &'a Object> + 'c {
    c.objects.iter().filter(|o| live(o))
}

/// The live ClusterVersion, if one was read.
pub fn cluster_version<'a>(c: &Cluster<'a>) -> Option<(&'a Object, &'a ClusterVersion)> {
    objects(c).find_map(|o| match &o.body {
        Body::ClusterVersion(cv) => Some((o, cv.as_ref())),
        _ => None,
    })
}

/// The cluster-version operator's Rollback precondition (`pkg/payload/precondition/clusterversion/rollback.go`)
/// for a target older than `from` on its minor: it refuses unless the target is the cluster's previous
/// release within that minor (the first `status.history` entry that is not the release being reconciled:
/// another version, or the same version from another image). `Some` when it refuses: the ClusterVersion, and
/// the previous release it would allow (`None`: there is none).
pub fn rollback_refused<'a>(c: &Cluster<'a>, from: &Version) -> Option<(Option<&'a Object>, Option<String>)> {
    let cv = cluster_version(c);
    let previous = cv.and_then(|(_, cv)| {
        let current = cv.desired.as_deref()?;
        cv.history.iter().find(|h| h.version != current || h.image != cv.desired_image).map(|h| h.version.clone())
    });
    let allowed =
        previous.as_deref().and_then(|p| Version::parse(p).ok()).is_some_and(|p| p == c.to && p.minor == from.minor);
    (!allowed).then(|| (cv.map(|(o, _)| o), previous))
}

fn is_true(c: Option<&Condition>) -> bool {
    c.is_some_and(|c| c.status == "True")
}

/// `reason: message` of a condition, or what there is of it.
fn said(c: &Condition) -> String {
    match (c.reason.is_empty(), c.message.is_empty()) {
        (false, false) => format!("{}: {}", c.reason, c.message),
        (false, true) => c.reason.clone(),
        (true, false) => c.message.clone(),
        (true, true) => format!("{}={}", c.kind, c.status),
    }
}

fn openshift<'a>(c: &Cluster<'a>, from: &Version, out: &mut Vec<Gate<'a>>) {
    let to = &c.to;
    // `Upgradeable=False` holds back a minor (or major) update, not a z-stream one (cluster-version-operator
    // pkg/payload/precondition/clusterversion/upgradeable.go: against status.desired, the release being
    // reconciled).
    let minor = to.minor > from.minor;
    let cv = cluster_version(c);
    // What explains the ClusterVersion's own Upgradeable=False (it sums the operators' conditions, the
    // admin acks and an update in progress): each cause is reported once, on the object that causes it.
    let pools_degraded = pools(c, minor, out);
    let incompatible = minor && csvs(c, to, out);
    let (by_update, by_acks) = cv.map_or((false, false), |(o, cv)| {
        failing(o, cv, out);
        update_edges(c, o, cv, out);
        requested(o, cv, to, out);
        (in_progress(o, cv, from, to, minor, out), admin_acks(c, cv, from, minor, out))
    });
    let mut by_operators = pools_degraded || incompatible;
    // The operators' own Upgradeable=False reasons: the CVO passes one cause's reason through to the
    // ClusterVersion and writes MultipleReasons for several (pkg/cvo/upgradeable.go).
    let mut operator_reasons: Vec<&str> = Vec::new();
    for o in objects(c) {
        if let Body::ClusterOperator(co) = &o.body {
            by_operators |= operator(o, co, minor, pools_degraded, incompatible, out);
            if let Some(u) = condition(&co.conditions, "Upgradeable").filter(|u| u.status == "False") {
                operator_reasons.push(u.reason.as_str());
            }
        }
    }
    if let Some((o, cv)) = cv {
        let up = condition(&cv.conditions, "Upgradeable");
        let explained = match up.map(|u| u.reason.as_str()) {
            Some(
                "AdminAckRequired"
                | "AdminAckConfigMapGateValueError"
                | "AdminAckConfigMapGateNameError"
                | "UnableToAccessAdminAcksConfigMap",
            ) => by_acks,
            Some("ClusterOperatorNotUpgradeable" | "ClusterOperatorsNotUpgradeable") => by_operators,
            Some("UpdateInProgress" | "ClusterVersionUpdating") => by_update,
            Some("MultipleReasons" | "RiskNameNotCompatibleWithReasonProperty") => by_operators || by_acks || by_update,
            Some(r) => by_operators && operator_reasons.contains(&r),
            None => false,
        };
        // The CVO reads the release it reconciles (`status.desired.version`) as strict SemVer before it
        // weighs the condition: one it cannot parse (`4.1`, or none) only warns (`InvalidCurrentVersion`,
        // "do not block on issues that require an update to fix"; upgradeable.go), so nothing is refused.
        let parsed = cv.desired.as_deref().is_some_and(crate::version::is_strict_semver);
        if let Some(up) = up.filter(|u| minor && parsed && u.status == "False" && !explained) {
            out.push(not_upgradeable(o, up, &format!("the CVO refuses the minor update to {to}")));
        }
    }
}

/// The target against the update service's graph as the CVO stored it: `status.availableUpdates` (recommended)
/// and `status.conditionalUpdates` (with risks; `Recommended=False` is refused by `oc adm upgrade --to` unless
/// `--allow-not-recommended`, or the risks are accepted in `spec.desiredUpdate.acceptRisks`). A version that is
/// neither is no update edge: the CVO refuses a version-only desired update ("when image is empty the update
/// must be an available update").
fn update_edges<'a>(c: &Cluster<'a>, o: &'a Object, cv: &ClusterVersion, out: &mut Vec<Gate<'a>>) {
    let to = &c.to;
    // Without any status (a manifest, not the live object), there is nothing to judge against.
    if cv.desired.is_none() && cv.available.is_none() && cv.conditional.is_empty() {
        return;
    }
    let same = |v: &str| Version::parse(v).ok().is_some_and(|v| v.is_openshift() && v == *to && v.patch == to.patch);
    // For a path of several minors, the first hop's minor must be offered at all.
    let first_hop = c.path.first().filter(|_| c.path.len() > 1);
    let on_minor = |v: &str| {
        first_hop.is_some_and(|h| Version::parse(v).ok().is_some_and(|v| v.is_openshift() && v.minor == h.minor))
    };
    let available = cv.available.as_deref().unwrap_or_default();
    if let Some(u) = cv.conditional.iter().find(|u| same(&u.version)) {
        let rec = u.recommended.as_ref();
        if rec.is_some_and(|r| r.status == "True") {
            return;
        }
        let risks: Vec<String> = u.risks.iter().map(|r| r.name.clone()).collect();
        let accepted = !risks.is_empty() && risks.iter().all(|r| cv.accepted_risks.contains(r));
        if accepted {
            return;
        }
        // The condition's message repeats the risks', listed after it: its reason is enough here.
        let why = rec.map_or_else(
            || "no Recommended condition evaluated".to_owned(),
            |r| if r.reason.is_empty() || u.risks.is_empty() { said(r) } else { r.reason.clone() },
        );
        let details: Vec<String> = u
            .risks
            .iter()
            .map(|r| {
                let mut s = r.name.clone();
                if !r.message.is_empty() {
                    s.push_str(": ");
                    s.push_str(&r.message);
                }
                if !r.url.is_empty() {
                    s.push_str(&format!(" ({})", r.url));
                }
                s
            })
            .collect();
        let mut g = gate(
            UPDATE_NOT_RECOMMENDED,
            Some(o),
            format!(
                "{to} is a supported but not recommended update for this cluster (Recommended={}, {why}){}",
                rec.map_or("Unknown", |r| r.status.as_str()),
                if details.is_empty() { String::new() } else { format!("; risks: {}", details.join("; ")) }
            ),
            format!(
                "Pick a recommended update (`oc adm upgrade` lists them), wait for a release that fixes the risk, or \
                 accept it knowingly: `oc adm upgrade --to {to} --allow-not-recommended`, or name the risks in \
                 spec.desiredUpdate.acceptRisks where the API has it."
            ),
        )
        .data("risks", risks.join(","));
        if let Some(r) = rec {
            g = g.data("reason", r.reason.clone());
        }
        out.push(g);
        return;
    }
    if available.iter().any(|v| same(v)) {
        return;
    }
    if first_hop.is_some()
        && (available.iter().any(|v| on_minor(v)) || cv.conditional.iter().any(|u| on_minor(&u.version)))
    {
        return;
    }
    let channel = cv.channel.as_deref().unwrap_or("");
    let offered: Vec<&str> = available.iter().map(String::as_str).collect();
    let message = if channel.is_empty() {
        format!("{to} is not offered: spec.channel is empty, so the update service offers no update to this cluster")
    } else if let Some(h) = first_hop {
        format!(
            "{to} is {} minors ahead and channel {channel} offers no update to {} first: the CVO updates one minor at a time along the update service's edges",
            c.path.len(),
            h
        )
    } else {
        format!(
            "{to} is not an update edge from {} in channel {channel} (offered: {}): `oc adm upgrade --to {to}` is refused",
            cv.desired.as_deref().unwrap_or("the current release"),
            if offered.is_empty() { "none".to_owned() } else { offered.join(", ") }
        )
    };
    out.push(
        gate(
            UPDATE_NOT_OFFERED,
            Some(o),
            message,
            "Choose a target the channel offers (`oc adm upgrade`), or set the channel that carries it \
             (`oc adm upgrade channel <channel>`); for several minors, update through each in turn.",
        )
        .data("channel", channel),
    );
}

/// An update already asked for (`spec.desiredUpdate.version`) that the CVO has not reached: the cluster is
/// headed there, whatever target is checked here.
fn requested<'a>(o: &'a Object, cv: &ClusterVersion, to: &Version, out: &mut Vec<Gate<'a>>) {
    let Some(asked) = cv.desired_update.as_deref() else { return };
    if cv.desired.as_deref() == Some(asked) || cv.history.first().is_some_and(|h| h.version == asked) {
        return;
    }
    let same = Version::parse(asked).ok().is_some_and(|a| a == *to && a.patch == to.patch);
    out.push(
        gate(
            UPDATE_IN_PROGRESS,
            Some(o),
            if same {
                format!("An update to {asked} is already asked for (spec.desiredUpdate) and not yet accepted by the CVO")
            } else {
                format!(
                    "The ClusterVersion already asks for {asked} (spec.desiredUpdate), not {to}: the CVO is headed for {asked}"
                )
            },
            "Check why the CVO has not accepted the desired update (`oc adm upgrade`: ReleaseAccepted, Invalid), or clear it before asking for another.",
        )
        .warning()
        .data("desiredUpdate", asked),
    );
}

/// `oc adm upgrade --to` refuses to request an update while the ClusterVersion is `Invalid=True` (its spec
/// cannot be acted on) or `Failing=True` (the CVO cannot reconcile the current release: an operator down, a
/// manifest it cannot apply), unless `--allow-upgrade-with-warnings` (oc `pkg/cli/admin/upgrade/upgrade.go`,
/// `checkForUpgrade`). The update does not start.
fn failing<'a>(o: &'a Object, cv: &ClusterVersion, out: &mut Vec<Gate<'a>>) {
    let current = cv.desired.clone().unwrap_or_else(|| "its current release".to_owned());
    if let Some(c) = condition(&cv.conditions, "Invalid").filter(|c| c.status == "True") {
        out.push(
            gate(
                CLUSTER_VERSION_FAILING,
                Some(o),
                format!(
                    "The ClusterVersion is Invalid ({}): `oc adm upgrade` refuses to request an update until the invalid state is corrected",
                    said(c)
                ),
                "Correct what the Invalid condition names (`oc describe clusterversion`); --allow-upgrade-with-warnings bypasses the check, the CVO still cannot act on an invalid spec.",
            )
            .data("condition", "Invalid")
            .data("reason", c.reason.clone()),
        );
    }
    if let Some(c) = condition(&cv.conditions, "Failing").filter(|c| c.status == "True") {
        out.push(
            gate(
                CLUSTER_VERSION_FAILING,
                Some(o),
                format!(
                    "The ClusterVersion is Failing ({}): the cluster is experiencing an error reconciling {current}, and `oc adm upgrade` refuses to request an update",
                    said(c)
                ),
                "Fix what the Failing condition names first (`oc adm upgrade`, the ClusterOperators' Available and Degraded conditions); only then update, or pass --allow-upgrade-with-warnings knowing the current release is not reconciled.",
            )
            .data("condition", "Failing")
            .data("reason", c.reason.clone()),
        );
    }
}

/// The last update did not complete (`status.history[0]` is `Partial`). While it progresses
/// (`Progressing=True`), the CVO's own Upgradeable is False (`UpdateInProgress`): a minor update beyond the
/// release being reconciled is refused; a retarget within its minor is allowed.
fn in_progress<'a>(
    o: &'a Object,
    cv: &ClusterVersion,
    from: &Version,
    to: &Version,
    minor: bool,
    out: &mut Vec<Gate<'a>>,
) -> bool {
    let progressing = is_true(condition(&cv.conditions, "Progressing"));
    // Progressing=True is the CVO's own sign of an update under way (its Upgradeable is then False); a
    // Partial head of the history with nothing progressing is an update that never completed.
    let Some(head) = cv.history.first().filter(|h| h.state == "Partial" || progressing) else { return false };
    let completed = cv.last_completed().unwrap_or("no completed release");
    if progressing && minor {
        out.push(
            gate(
                UPDATE_IN_PROGRESS,
                Some(o),
                format!(
                    "An update to {} is in progress (Progressing=True; last completed {completed}): the CVO refuses a \
                     minor update to {to} until it completes (Upgradeable=False, UpdateInProgress)",
                    head.version
                ),
                format!(
                    "Let the update to {} complete (`oc adm upgrade` shows its progress), then update to {to}.",
                    head.version
                ),
            )
            .data("inProgress", head.version.clone())
            .data("lastCompleted", completed),
        );
        return true;
    }
    out.push(
        gate(
            UPDATE_IN_PROGRESS,
            Some(o),
            if progressing {
                format!(
                    "An update to {} is in progress (last completed {completed}): `oc adm upgrade --to {to}` refuses while \
                     it progresses (\"Already upgrading\") unless given --allow-upgrade-with-warnings, and the CVO then \
                     takes a retarget within the minor; the plan starts from {from}, where the CVO is now",
                    head.version
                )
            } else {
                format!(
                    "The update to {} never completed (status.history: Partial; last completed {completed}): parts of the \
                     control plane may still run {completed}",
                    head.version
                )
            },
            "Find why the last update did not complete (`oc adm upgrade`, the ClusterOperators' conditions) before starting another.",
        )
        .warning()
        .data("inProgress", head.version.clone())
        .data("lastCompleted", completed),
    );
    false
}

/// Admin gates (`openshift-config-managed/admin-gates`): each key `ack-4.N-...` whose minor is the cluster's
/// current minor must be acknowledged with `"true"` in `openshift-config/admin-acks`, else Upgradeable=False
/// (`AdminAckRequired`) for a minor update (cluster-version-operator `pkg/cvo/upgradeable.go`).
fn admin_acks<'a>(c: &Cluster<'a>, cv: &ClusterVersion, from: &Version, minor: bool, out: &mut Vec<Gate<'a>>) -> bool {
    if !minor {
        return false;
    }
    let cm = |ns: &str, name: &str| {
        objects(c).find_map(|o| match &o.body {
            Body::ConfigData(d) if o.r.namespace.as_deref() == Some(ns) && o.r.name == name => Some((o, d.as_ref())),
            _ => None,
        })
    };
    let Some((gates_obj, gates)) = cm("openshift-config-managed", "admin-gates") else { return false };
    let acks = cm("openshift-config", "admin-acks");
    // The gates of the release the cluster runs (the last completed one, as the CVO reads them).
    let current = cv.last_completed().and_then(|v| Version::parse(v).ok()).unwrap_or_else(|| from.clone());
    let Some(current_minor) = current.product.map(|(_, m)| m) else { return false };
    let mut any = false;
    // A gate the CVO fails on, acknowledged or not: Upgradeable=False with a reason of its own.
    let broken = |key: &str, what: &str, help: &str, out: &mut Vec<Gate<'a>>| {
        out.push(
            gate(
                ADMIN_ACK_REQUIRED,
                Some(gates_obj),
                format!("Admin gate {key} {what}, Upgradeable=False, and refuses the minor update to {}", c.to),
                help,
            )
            .data("gate", key.to_owned()),
        );
    };
    for (key, description) in gates.iter() {
        let (gate_major, gate_minor) = match admin_gate_version(key) {
            Ok(v) => v,
            Err(why) => {
                any = true;
                broken(
                    key,
                    &format!("is invalid as the CVO reads it ({why}): it reports it (AdminAckConfigMapGateNameError)"),
                    "Fix the key in openshift-config-managed/admin-gates (it is managed by the release: an unexpected key is a sign of a broken release payload).",
                    out,
                );
                continue;
            }
        };
        // The CVO compares the gate's major and minor with the current version's: the releases read here are
        // all 4.x.
        if (gate_major, gate_minor) != (4, u64::from(current_minor)) {
            continue;
        }
        if description.is_empty() {
            any = true;
            broken(
                key,
                "has no description: the CVO reports it (AdminAckConfigMapGateValueError)",
                "The gate's value is set by the release payload: check openshift-config-managed/admin-gates.",
                out,
            );
            continue;
        }
        let acked = acks.is_some_and(|(_, a)| a.get(key).is_some_and(|v| v.as_str() == "true"));
        if acked {
            continue;
        }
        any = true;
        let why = match acks {
            None => "openshift-config/admin-acks is not in the inputs (or does not exist)".to_owned(),
            Some(_) => "openshift-config/admin-acks does not set it to \"true\"".to_owned(),
        };
        out.push(
            gate(
                ADMIN_ACK_REQUIRED,
                Some(gates_obj),
                format!(
                    "Admin gate {key} is not acknowledged ({why}): {description}. The CVO sets Upgradeable=False \
                     (AdminAckRequired) and refuses the minor update to {}",
                    c.to
                ),
                format!(
                    "Do what the gate asks, then acknowledge it: oc -n openshift-config patch cm admin-acks \
                     --patch '{{\"data\":{{\"{key}\":\"true\"}}}}' --type=merge"
                ),
            )
            .data("gate", key.to_string()),
        );
    }
    any
}

/// The OpenShift major and minor of an admin gate's key (`ack-4.15-kube-1.29-api-removals-in-4.16` -> 4.15),
/// as the CVO reads it (cluster-version-operator `pkg/risk/adminack/adminack.go`,
/// `gateApplicableToCurrentVersion`): the key must match `^ack-([4-5][.][0-9]{1,})-[^-]`, and its capture
/// with `.0` appended must parse as SemVer (no leading zero in the minor, a minor that fits 64 bits); either
/// failing, the gate is invalid (and blocks), never passed over.
pub fn admin_gate_version(key: &str) -> Result<(u64, u64), &'static str> {
    const FORMAT: &str = "not of the form ^ack-([4-5][.][0-9]{1,})-[^-]";
    let rest = key.strip_prefix("ack-").ok_or(FORMAT)?;
    let (major, rest) = rest.split_at_checked(1).ok_or(FORMAT)?;
    let major: u64 = match major {
        "4" => 4,
        "5" => 5,
        _ => return Err(FORMAT),
    };
    let rest = rest.strip_prefix('.').ok_or(FORMAT)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (minor, after) = rest.split_at_checked(digits).ok_or(FORMAT)?;
    let mut tail = after.bytes();
    if minor.is_empty() || tail.next() != Some(b'-') || matches!(tail.next(), None | Some(b'-')) {
        return Err(FORMAT);
    }
    if minor.len() > 1 && minor.starts_with('0') {
        return Err("its minor has a leading zero, which SemVer forbids");
    }
    let minor = minor.parse::<u64>().map_err(|_| "its minor does not fit SemVer's 64 bits")?;
    Ok((major, minor))
}

/// A ClusterOperator: not Available or Degraded holds the CVO at its runlevel during any update (a missing
/// Available counts as not available; Degraded is tolerated for a while, then the update is Failing);
/// `Upgradeable=False` refuses a minor update.
/// The MCO's `DegradedPool` and OLM's `IncompatibleOperatorsInstalled` are reported on the pools and the
/// operators they name (`pools_degraded`, `incompatible`), not again on the ClusterOperator.
fn operator<'a>(
    o: &'a Object,
    co: &ClusterOperator,
    minor: bool,
    pools_degraded: bool,
    incompatible: bool,
    out: &mut Vec<Gate<'a>>,
) -> bool {
    let available = condition(&co.conditions, "Available");
    let degraded = condition(&co.conditions, "Degraded");
    let mut bad = Vec::new();
    // `Type=Status`, and its reason and message where it has them.
    let state = |c: &Condition| match (c.reason.is_empty(), c.message.is_empty()) {
        (true, true) => format!("{}={}", c.kind, c.status),
        _ => format!("{}={} ({})", c.kind, c.status, said(c)),
    };
    if !is_true(available) {
        bad.push(available.map_or_else(|| "without an Available condition".to_owned(), state));
    }
    if let Some(d) = degraded.filter(|d| d.status == "True") {
        bad.push(state(d));
    }
    // An operator with no conditions at all is a manifest, not a live object: nothing to judge.
    if !bad.is_empty() && !co.conditions.is_empty() {
        let mut g = gate(
            OPERATOR_DEGRADED,
            Some(o),
            format!(
                "ClusterOperator {} is {}: the CVO waits at its runlevel until it is Available=True and Degraded=False, \
                 so the update stops in the control plane and no node is updated (the MCO comes last)",
                o.r.name,
                bad.join(", ")
            ),
            format!("Fix {} first (`oc describe clusteroperator {}`, its operator's logs), then start the update.", o.r.name, o.r.name),
        );
        g.stop = Some(GateStop::Waits);
        out.push(g);
    }
    let up = condition(&co.conditions, "Upgradeable");
    let named_elsewhere = match up.map(|u| u.reason.as_str()) {
        Some("DegradedPool") => pools_degraded,
        Some("IncompatibleOperatorsInstalled") => incompatible,
        _ => false,
    };
    if let Some(up) = up.filter(|u| minor && u.status == "False" && !named_elsewhere) {
        out.push(not_upgradeable(o, up, "the CVO refuses minor updates while it is"));
        return true;
    }
    false
}

/// `platform/upgradeable-false` on a ClusterVersion or ClusterOperator whose condition is `up`.
fn not_upgradeable<'a>(o: &'a Object, up: &Condition, consequence: &str) -> Gate<'a> {
    gate(
        UPGRADEABLE_FALSE,
        Some(o),
        format!("{} {} is Upgradeable=False ({}): {consequence}", o.r.kind, o.r.name, said(up)),
        "Resolve what the condition names (`oc adm upgrade` prints it); a z-stream update within the current minor is still allowed.",
    )
    .data("reason", up.reason.clone())
}

/// MachineConfigPools that are Degraded or BuildInterrupted: the MCO reports Upgradeable=False (`DegradedPool`,
/// `InterruptedBuild`, machine-config-operator `pkg/operator/status.go`), which refuses a minor update; within a
/// minor, the pool's degraded nodes are not updated until fixed.
fn pools<'a>(c: &Cluster<'a>, minor: bool, out: &mut Vec<Gate<'a>>) -> bool {
    let mut any = false;
    for o in objects(c) {
        let Body::Mcp(p) = &o.body else { continue };
        // The MCO reads the pool's conditions: Degraded (which a degraded machine sets through NodeDegraded)
        // and BuildInterrupted (an on-cluster image build that was interrupted).
        let degraded = condition(&p.conditions, "Degraded").filter(|d| d.status == "True");
        let interrupted = condition(&p.conditions, "BuildInterrupted").filter(|d| d.status == "True");
        let what = match (degraded, interrupted) {
            (Some(d), _) => format!("Degraded ({})", said(d)),
            (None, Some(b)) => format!("BuildInterrupted ({})", said(b)),
            (None, None) => continue,
        };
        let g = gate(
            POOL_DEGRADED,
            Some(o),
            if minor {
                format!(
                    "MachineConfigPool {} is {what}: the machine-config operator reports Upgradeable=False (DegradedPool) \
                     and the CVO refuses the minor update to {}",
                    o.r.name, c.to
                )
            } else {
                format!("MachineConfigPool {} is {what}: its degraded nodes are not updated until they are fixed", o.r.name)
            },
            format!("Fix the degraded node(s) (`oc get mcp {} -o yaml`, the machine-config-daemon's logs) first.", o.r.name),
        )
        .data("degradedMachineCount", p.degraded_machines.to_string());
        if minor {
            any = true;
            out.push(g);
        } else {
            out.push(g.warning());
        }
    }
    any
}

/// The `olm.maxOpenShiftVersion` a CSV declares: `Ok(None)` when none, `Err` when OLM cannot read it (OLM
/// then blocks too): more than one, not `MAJOR.MINOR` (a non-zero patch, a pre-release), not a version.
pub fn max_openshift_version(o: &Object) -> Result<Option<(u32, u32)>, String> {
    let (annotation, list_path) = match o.annotations.get(OLM_PROPERTIES) {
        Some(v) => (v, true),
        None => match o.annotations.get(OLM_AUTHOR_PROPERTIES) {
            Some(v) => (v, false),
            None => return Ok(None),
        },
    };
    let doc = parse_json("properties", annotation).map_err(|e| format!("its properties are not JSON ({e})"))?;
    let list = if list_path { doc.get("properties") } else { &doc };
    let values: Vec<String> = list
        .as_seq()
        .iter()
        .filter(|p| p.get("type").as_str() == Some("olm.maxOpenShiftVersion"))
        .map(|p| {
            let v = p.get("value");
            v.as_str().map(str::to_owned).unwrap_or_else(|| match &v.value {
                crate::parse::Value::Scalar(s, _) => s.to_string(),
                _ => String::new(),
            })
        })
        .collect();
    match values.as_slice() {
        [] => Ok(None),
        [one] => {
            let raw = one.trim().trim_matches('"');
            if raw.is_empty() {
                return Err("olm.maxOpenShiftVersion is empty".to_owned());
            }
            let core = raw.strip_prefix('v').unwrap_or(raw);
            let core = core.split('+').next().unwrap_or(core);
            if core.contains('-') {
                return Err(format!("olm.maxOpenShiftVersion {raw:?} has a pre-release"));
            }
            let parts: Vec<&str> = core.split('.').collect();
            let num =
                |s: &str| s.parse::<u32>().map_err(|_| format!("olm.maxOpenShiftVersion {raw:?} is not a version"));
            match parts.as_slice() {
                [major] => Ok(Some((num(major)?, 0))),
                [major, minor] => Ok(Some((num(major)?, num(minor)?))),
                [major, minor, patch] if num(patch)? == 0 => Ok(Some((num(major)?, num(minor)?))),
                [_, _, _] => Err(format!("olm.maxOpenShiftVersion {raw:?} names a patch: only MAJOR.MINOR is read")),
                _ => Err(format!("olm.maxOpenShiftVersion {raw:?} is not a version")),
            }
        }
        _ => Err(format!("{} olm.maxOpenShiftVersion properties (OLM reads one)", values.len())),
    }
}

/// Installed operators (not OLM's copies of them in other namespaces) whose `olm.maxOpenShiftVersion` is
/// below the target's minor: OLM's ClusterOperator is Upgradeable=False (`IncompatibleOperatorsInstalled`).
fn csvs<'a>(c: &Cluster<'a>, to: &Version, out: &mut Vec<Gate<'a>>) -> bool {
    let Some(target) = to.product.filter(|_| to.is_openshift()).map(|(_, m)| m) else { return false };
    let mut any = false;
    for o in objects(c) {
        let Body::Csv(csv) = &o.body else { continue };
        if is_copy(o, csv) {
            continue;
        }
        let (message, max) = match max_openshift_version(o) {
            Ok(None) => continue,
            Ok(Some((4, m))) if m >= target => continue,
            Ok(Some((major, m))) if major > 4 && m.saturating_add(23) >= target => continue,
            Ok(Some((major, m))) => (
                format!(
                    "Operator {} declares olm.maxOpenShiftVersion {major}.{m}: OLM reports Upgradeable=False \
                     (IncompatibleOperatorsInstalled) and the CVO refuses the update to {to}",
                    o.r.name
                ),
                format!("{major}.{m}"),
            ),
            Err(why) => (
                format!(
                    "Operator {}: {why}: OLM cannot tell its compatibility and reports Upgradeable=False, so the CVO \
                     refuses the update to {to}",
                    o.r.name
                ),
                String::new(),
            ),
        };
        any = true;
        out.push(
            gate(
                OPERATOR_INCOMPATIBLE,
                Some(o),
                message,
                format!(
                    "Update the operator to a version that supports {to} (its channel in OperatorHub), or uninstall it, before the update."
                ),
            )
            .data("maxOpenShiftVersion", max),
        );
    }
    any
}

/// A copy OLM writes of a CSV into every namespace it watches: not an installed operator.
fn is_copy(o: &Object, csv: &Csv) -> bool {
    o.labels.get("olm.copiedFrom").is_some()
        || csv.reason.as_deref() == Some("Copied")
        || o.annotations.get("olm.operatorNamespace").is_some_and(|ns| Some(ns.as_str()) != o.r.namespace.as_deref())
}

/// bmctl's version rules (Google Distributed Cloud for bare metal, "Upgrade clusters" and "Lifecycle and
/// stages of cluster upgrades"): no downgrade, a patch included; one minor at a time (two only to 1.33 or
/// later with the skip annotation); an admin (or hybrid) cluster at most one minor ahead of the user
/// clusters it manages (two from 1.30 on), and never behind them. Then its preflight checks.
fn gke_baremetal<'a>(c: &Cluster<'a>, from: &Version, out: &mut Vec<Gate<'a>>) {
    let to = &c.to;
    let me = crate::current::gke_self(c.objects);
    let obj = me.map(|(o, _)| o);
    let help_versions = "bmctl upgrades one minor at a time and never down: give a target one minor after the current version (see `upgrade.path`), and run `bmctl upgrade cluster` once per minor.";
    if to.scheme_cmp(from) == Some(std::cmp::Ordering::Less) {
        out.push(
            gate(
                VERSION_REFUSED,
                obj,
                format!(
                    "bmctl refuses to downgrade {} to {}: clusters cannot be downgraded, not even by a patch",
                    from.with_kubernetes(),
                    to.with_kubernetes()
                ),
                help_versions,
            )
            .data("rule", "downgrade"),
        );
    }
    let skip = to.minor.saturating_sub(from.minor);
    if skip >= 2 {
        let annotated =
            me.is_some_and(|(o, _)| o.annotations.get(GKE_SKIP_ANNOTATION).is_some_and(|v| v.as_str() == "enable"));
        let allowed = skip == 2 && to.product_minor() >= 33 && annotated;
        if !allowed {
            out.push(
                gate(
                    VERSION_REFUSED,
                    obj,
                    format!(
                        "bmctl refuses {} -> {}: {skip} minors in one upgrade (one at a time; two only to 1.33 or later with \
                         the annotation {GKE_SKIP_ANNOTATION}: enable)",
                        from.with_kubernetes(),
                        to.with_kubernetes()
                    ),
                    help_versions,
                )
                .data("rule", "minor-skip"),
            );
        }
    }
    preflight(c, out);
    node_pools(c, to, out);
    let Some((me_obj, me)) = me else { return };
    // `spec.anthosBareMetalVersion` is set when an upgrade starts and copied to status when it succeeds:
    // the two differ while one is under way (or after one failed).
    if let (Some(spec), Some(status)) = (me.spec_version.as_deref(), me.status_version.as_deref()) {
        if spec != status {
            out.push(
                gate(
                    UPDATE_IN_PROGRESS,
                    Some(me_obj),
                    format!(
                        "Cluster {} is being upgraded to {spec} (spec.anthosBareMetalVersion) and is at {status} \
                         (status): an upgrade is under way or did not complete; the plan starts from {status}",
                        me_obj.r.name
                    ),
                    "Let the running upgrade finish (`bmctl upgrade cluster` again resumes it), or find why it stopped, before another.",
                )
                .warning()
                .data("inProgress", spec)
                .data("lastCompleted", status),
            );
        }
    }
    let managing = matches!(me.kind.as_deref(), Some("admin" | "hybrid"));
    for o in objects(c) {
        let Body::GkeCluster(user) = &o.body else { continue };
        if std::ptr::eq(o, me_obj) || user.kind.as_deref() != Some("user") || !managing {
            continue;
        }
        let Some(uv) = user.status_version.as_deref().and_then(|v| Version::parse_gke_baremetal(v).ok()) else {
            continue;
        };
        let allowed = if to.minor >= 30 { 2 } else { 1 };
        let lag = to.minor.saturating_sub(uv.minor);
        if lag > allowed {
            out.push(
                gate(
                    VERSION_REFUSED,
                    Some(o),
                    format!(
                        "User cluster {} runs {}: upgrading its admin cluster {} to {to} would put it {lag} minors ahead \
                         (at most {allowed}): bmctl halts the admin cluster's upgrade",
                        o.r.name,
                        uv.with_kubernetes(),
                        me_obj.r.name
                    ),
                    format!("Upgrade user cluster {} first, to within {allowed} minor(s) of {to}.", o.r.name),
                )
                .data("rule", "admin-user-skew")
                .data("userCluster", o.r.name.to_string()),
            );
        }
    }
}

/// Worker node pools against the target ("Upgrade clusters", two-minor node pool version skew): before a
/// cluster upgrade every worker node pool must be within two minors of the target (from 1.29; one before
/// 1.28's annotated preview, taken as one up to 1.28), and none may be newer than it.
fn node_pools<'a>(c: &Cluster<'a>, to: &Version, out: &mut Vec<Gate<'a>>) {
    for o in objects(c) {
        let Body::GkePool(p) = &o.body else { continue };
        let Some(v) = p.status_version.as_deref().and_then(|v| Version::parse_gke_baremetal(v).ok()) else {
            continue;
        };
        let allowed = if to.minor >= 29 { 2 } else { 1 };
        let lag = to.minor.saturating_sub(v.minor);
        let newer = v.scheme_cmp(to) == Some(std::cmp::Ordering::Greater);
        if lag <= allowed && !newer {
            continue;
        }
        out.push(
            gate(
                VERSION_REFUSED,
                Some(o),
                if newer {
                    format!("Node pool {} runs {}, newer than the target {to}: a node pool is never newer than its cluster", o.r.name, v.with_kubernetes())
                } else {
                    format!(
                        "Node pool {} runs {}: {lag} minors behind the target {to} (at most {allowed}): bmctl refuses the cluster upgrade until the pool is brought up",
                        o.r.name,
                        v.with_kubernetes()
                    )
                },
                format!("Upgrade node pool {} first (its spec.anthosBareMetalVersion), to within {allowed} minor(s) of {to}.", o.r.name),
            )
            .data("rule", "node-pool-skew")
            .data("nodePool", o.r.name.to_string()),
        );
    }
}

/// The newest `PreflightCheck` of each namespace that did not pass: `bmctl upgrade` does not proceed past a
/// failed preflight check.
fn preflight<'a>(c: &Cluster<'a>, out: &mut Vec<Gate<'a>>) {
    // By namespace, sorted (a list rather than a B-tree map: one map type less in the wasm).
    let mut newest: Vec<(&str, (&'a Object, &'a GkePreflight))> = Vec::new();
    for o in objects(c) {
        let Body::GkePreflight(p) = &o.body else { continue };
        let ns = o.r.namespace.as_deref().unwrap_or("");
        // Newest by creation time, read as a time (an offset such as `+03:00` is not text order); then by name.
        let key = |x: &(&Object, &GkePreflight)| {
            (x.1.created.as_deref().and_then(crate::units::timestamp), x.0.r.name.to_string())
        };
        crate::sort::upsert(
            &mut newest,
            ns,
            || (ns, (o, p)),
            |prev| {
                if key(prev) < key(&(o, p)) {
                    *prev = (o, p);
                }
            },
        );
    }
    for (_, (o, p)) in newest {
        if p.pass != Some(false) && p.failed.is_empty() {
            continue;
        }
        let failed: Vec<String> =
            p.failed.iter().map(|(n, m)| if m.is_empty() { n.clone() } else { format!("{n}: {m}") }).collect();
        out.push(
            gate(
                PREFLIGHT_FAILED,
                Some(o),
                format!(
                    "PreflightCheck {} did not pass{}: bmctl does not proceed with the upgrade while its preflight checks fail",
                    o.r.name,
                    if failed.is_empty() { String::new() } else { format!(" ({})", failed.join("; ")) }
                ),
                "Fix what the failed checks name (`kubectl describe preflightcheck`), then run `bmctl check preflight` again.",
            )
            .data("failed", p.failed.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>().join(",")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admin gate keys as the CVO reads them: the cases of `Test_gateApplicableToCurrentVersion`
    /// (cluster-version-operator `pkg/risk/adminack/adminack_test.go`), then SemVer's own limits.
    #[test]
    fn admin_gate_keys() {
        let v = admin_gate_version;
        for invalid in [
            "ack-4>8-foo",
            "ack-4..8-foo",
            "ck-4.8-foo",
            "ack-3.8-foo",
            "ack-4.x-foo",
            "ack-4.8.1-foo",
            "ack-4.x--foo",
            "ack-4.x-",
        ] {
            assert!(v(invalid).is_err(), "{invalid}");
        }
        assert_eq!(v("ack-4.8-foo"), Ok((4, 8)));
        assert_eq!(v("ack-4.123456-foo"), Ok((4, 123_456)));
        assert_eq!(v("ack-4.15-kube-1.29-api-removals-in-4.16"), Ok((4, 15)));
        assert!(v("ack-4.8--x").is_err());
        assert!(v("ack-4.8").is_err());
        // A 5.x gate is 5.x's (the major compared as is), a large minor a number like any other; a leading zero
        // or a minor past 64 bits fails SemVer's parse: invalid.
        assert_eq!(v("ack-5.0-x"), Ok((5, 0)));
        assert_eq!(v("ack-4.99999999999-x"), Ok((4, 99_999_999_999)));
        assert!(v("ack-4.015-x").is_err());
        assert!(v("ack-4.18446744073709551616-x").is_err());
    }

    /// `olm.maxOpenShiftVersion` as OLM reads it: quotes stripped, MAJOR.MINOR (a zero patch allowed),
    /// anything else an error that blocks.
    #[test]
    fn max_openshift_versions() {
        let csv = |props: &str| {
            let mut o = crate::model::Object::from_node(
                &crate::parse::parse_json("csv", r#"{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"x"}}"#).unwrap(),
                crate::model::Source::default(),
            );
            o.annotations.insert_if_absent(OLM_PROPERTIES, || props.to_owned());
            max_openshift_version(&o)
        };
        let one = |v: &str| csv(&format!(r#"{{"properties":[{{"type":"olm.maxOpenShiftVersion","value":{v}}}]}}"#));
        assert_eq!(one(r#""4.15""#), Ok(Some((4, 15))));
        assert_eq!(one(r#""\"4.15\"""#), Ok(Some((4, 15))));
        assert_eq!(one(r#""v4.15.0""#), Ok(Some((4, 15))));
        assert_eq!(one("4.15"), Ok(Some((4, 15))));
        assert!(one(r#""4.15.1""#).is_err());
        assert!(one(r#""4.16.0-rc.1""#).is_err());
        assert!(one(r#""""#).is_err());
        assert!(one(r#""99999999999.1""#).is_err());
        assert_eq!(csv(r#"{"properties":[]}"#), Ok(None));
        assert!(csv("not json").is_err());
        assert!(csv(r#"{"properties":[{"type":"olm.maxOpenShiftVersion","value":"4.15"},{"type":"olm.maxOpenShiftVersion","value":"4.16"}]}"#).is_err());
    }
}
