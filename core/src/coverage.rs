//! What the report could not see: for each family of checks, the kinds it reads and how many of each were
//! read, and the newest release the tables were reviewed through. Unknown is never a pass: a family whose
//! kinds were not read is "not checked", said beside the verdict in every output.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::options::Profile;
use crate::version::Version;

/// The newest Kubernetes minor whose release notes the tables (`apis.rs`'s API removals, `runtimes.rs`)
/// were reviewed against. A target past it may meet removals and requirements the tables do not know.
pub const REVIEWED_THROUGH: u32 = 35;

/// `coverage` (an addition to the contract's fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Coverage {
    /// `1.35`: see [`REVIEWED_THROUGH`].
    pub reviewed_through: String,
    /// The target is past `reviewedThrough`.
    pub beyond_review: bool,
    pub families: Vec<Family>,
}

/// One family of checks and what it reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Family {
    pub family: &'static str,
    /// The rule codes (a category ends in `/`) it covers.
    pub codes: Vec<&'static str>,
    /// Each kind it reads, and how many were read.
    pub kinds: Vec<KindRead>,
    /// Every group of kinds it needs has at least one object read.
    pub checked: bool,
    /// `no ValidatingWebhookConfiguration or MutatingWebhookConfiguration was read`, when not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_checked: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KindRead {
    pub kind: &'static str,
    pub read: usize,
}

/// A family: its name, codes, and the groups of kinds it needs (one of each group).
type Spec = (&'static str, &'static [&'static str], &'static [&'static [&'static str]]);

const COMMON: &[Spec] = &[
    ("nodes", &["skew/", "budget/", "node/", "plan"], &[&["Node"]]),
    ("drains", &["disruption/", "tolerations/", "scheduling/", "capacity/", "downtime"], &[&["Pod"]]),
    ("budgets", &["disruption/pdb-blocks-drain", "disruption/overlapping-pdbs"], &[&["PodDisruptionBudget"]]),
    (
        "admission webhooks",
        &["admission/webhook-"],
        &[&["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"], &["EndpointSlice", "Service"]],
    ),
    (
        "admission policies",
        &["admission/policy-misconfigured"],
        &[&["ValidatingAdmissionPolicy"], &["ValidatingAdmissionPolicyBinding"]],
    ),
    ("aggregated APIs", &["api/apiservice-unavailable"], &[&["APIService"]]),
    ("Helm charts", &["helm/", "api/"], &[&[HELM_RELEASE]]),
    (
        "custom resources",
        &["api/crd-conversion-unavailable", "api/crd-stored-version-unserved"],
        &[&["CustomResourceDefinition"]],
    ),
];

fn platform(profile: Profile) -> &'static [Spec] {
    match profile {
        Profile::Openshift => &[(
            "OpenShift's update gates",
            &["platform/"],
            &[&["ClusterVersion"], &["ClusterOperator"], &["MachineConfigPool"]],
        )],
        Profile::GkeBaremetal => &[("bmctl's gates", &["platform/"], &[&["Cluster"], &["NodePool"]])],
        Profile::Kops => &[("kOps instance groups", &["budget/"], &[&["InstanceGroup"]])],
        _ => &[],
    }
}

/// What Helm records as a deployed release (`sh.helm.release.v1.*` Secrets or ConfigMaps).
pub const HELM_RELEASE: &str = "Helm release record";

/// What each family read, from the inventory's count by kind and of Helm releases.
pub fn coverage(by_kind: &BTreeMap<String, usize>, helm_releases: usize, profile: Profile, to: &Version) -> Coverage {
    let count = |k: &str| if k == HELM_RELEASE { helm_releases } else { by_kind.get(k).copied().unwrap_or(0) };
    let families = COMMON
        .iter()
        .chain(platform(profile))
        .map(|(family, codes, groups)| {
            let kinds: Vec<KindRead> =
                groups.iter().flat_map(|g| g.iter()).map(|k| KindRead { kind: k, read: count(k) }).collect();
            let missing: Vec<String> =
                groups.iter().filter(|g| g.iter().all(|k| count(k) == 0)).map(|g| g.join(" or ")).collect();
            Family {
                family,
                codes: codes.to_vec(),
                kinds,
                checked: missing.is_empty(),
                not_checked: (!missing.is_empty()).then(|| format!("no {} was read", missing.join(", no "))),
            }
        })
        .collect();
    Coverage {
        reviewed_through: format!("1.{REVIEWED_THROUGH}"),
        beyond_review: to.minor > REVIEWED_THROUGH && !matches!(profile, Profile::Openshift),
        families,
    }
}

impl Coverage {
    /// `admission webhooks: no ValidatingWebhookConfiguration or ... was read`, one per family not checked.
    pub fn not_checked(&self) -> Vec<String> {
        self.families.iter().filter_map(|f| f.not_checked.as_ref().map(|why| format!("{}: {why}", f.family))).collect()
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

    #[test]
    fn a_family_whose_kinds_were_not_read_is_not_checked() {
        let mut by_kind = BTreeMap::new();
        by_kind.insert("Node".to_owned(), 3);
        by_kind.insert("Pod".to_owned(), 10);
        by_kind.insert("ValidatingWebhookConfiguration".to_owned(), 1);
        let c = coverage(&by_kind, 0, Profile::Kubeadm, &Version::parse("1.29.2").unwrap());
        let not: Vec<String> = c.not_checked();
        assert_eq!(
            not,
            [
                "budgets: no PodDisruptionBudget was read",
                "admission webhooks: no EndpointSlice or Service was read",
                "admission policies: no ValidatingAdmissionPolicy, no ValidatingAdmissionPolicyBinding was read",
                "aggregated APIs: no APIService was read",
                "Helm charts: no Helm release record was read",
                "custom resources: no CustomResourceDefinition was read",
            ]
        );
        assert!(!c.beyond_review);
        assert!(coverage(&by_kind, 1, Profile::Kubeadm, &Version::parse("1.36.0").unwrap()).beyond_review);
    }
}
