//! Kubernetes and OpenShift versions (DOMAIN section 1).
//!
//! `v1.29.2`, `1.29.2` and `1.29` are accepted; vendor suffixes (`-gke.1060000`, `+rke2r1`, `-eks-a5df82a`,
//! `+k3s1`) are build metadata, not pre-releases; `-alpha.N`, `-beta.N`, `-rc.N` are pre-releases.
//! OpenShift product versions (`4.14.3`) map to Kubernetes minors: 4.N is 1.(N+13). GKE on Bare Metal's
//! product versions (`1.16.0`, `1.30.100-gke.96`), read as such under that profile, map through
//! [`GKE_BAREMETAL_MINORS`] (1.16 is Kubernetes 1.27; from 1.28 on the two minors are the same).

use std::cmp::Ordering;
use std::fmt;

/// How many minors OpenShift's product minor is behind the Kubernetes minor it ships.
pub const OPENSHIFT_MINOR_OFFSET: u32 = 13;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PreKind {
    Alpha,
    Beta,
    Rc,
}

/// A distribution's own product version scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// OpenShift `4.N`.
    OpenShift,
    /// GKE on Bare Metal (Google Distributed Cloud for bare metal) `1.N`.
    GkeBaremetal,
}

/// GKE on Bare Metal's product minors before its numbering joined Kubernetes' (1.28), and the Kubernetes
/// minor each ships. Source: Google Distributed Cloud for bare metal, "Versioning" / version history
/// (1.16.x ships v1.27.x-gke; 1.15.0 v1.26.2-gke; 1.13.0 v1.24.2-gke; 1.10.x Kubernetes 1.21), the
/// release notes of each minor. Older minors (1.6 to 1.9) are left out: their mapping could not be
/// confirmed, so they are refused rather than guessed.
pub const GKE_BAREMETAL_MINORS: &[(u32, u32)] = &[(10, 21), (11, 22), (12, 23), (13, 24), (14, 25), (15, 26), (16, 27)];

/// The first GKE on Bare Metal minor numbered as the Kubernetes minor it ships.
pub const GKE_BAREMETAL_SAME_FROM: u32 = 28;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Kubernetes minor (`29` for 1.29), also for OpenShift input.
    pub minor: u32,
    /// The patch, when one was given.
    pub patch: Option<u32>,
    pub pre: Option<(PreKind, u32)>,
    /// Vendor build metadata (`gke.1060000`, `rke2r1`): ignored for ordering.
    pub vendor: Option<String>,
    /// The product scheme and minor when the version was written as a distribution's own (`4.14.3` ->
    /// OpenShift 14; `1.16.0` under gke-baremetal -> GKE on Bare Metal 16).
    pub product: Option<(Scheme, u32)>,
    /// An OpenShift or OKD version's SemVer pre-release, as given (`ec.4`, `0.nightly-2025-01-15-042159`,
    /// `okd-scos.17`, `rc.1`): ordered by SemVer precedence, as the cluster-version operator and the update
    /// service order releases (blang/semver), and printed as given.
    pub prerelease: Option<String>,
}

impl Version {
    /// Parse a version; the error quotes the value.
    pub fn parse(raw: &str) -> Result<Version, String> {
        let bad = |why: &str| format!("{raw:?} is not a Kubernetes version ({why})");
        let s = raw.trim();
        let s = s.strip_prefix('v').or_else(|| s.strip_prefix('V')).unwrap_or(s);
        if s.is_empty() {
            return Err(bad("empty"));
        }
        // Split off `+meta`, then `-suffix`.
        let (s, plus_meta) = split_off(s, '+');
        let (core, dash) = split_off(s, '-');
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(bad("expected MAJOR.MINOR or MAJOR.MINOR.PATCH"));
        }
        let num = |p: &str| -> Result<u32, String> {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 6 {
                Err(bad("each part must be a number"))
            } else {
                p.parse::<u32>().map_err(|_| bad("number out of range"))
            }
        };
        let major = num(parts.first().copied().unwrap_or_default())?;
        let minor = num(parts.get(1).copied().unwrap_or_default())?;
        let patch = match parts.get(2) {
            Some(p) => Some(num(p)?),
            None => None,
        };
        let mut pre = None;
        let mut vendor: Vec<String> = Vec::new();
        let mut prerelease = None;
        if let (4, Some(d)) = (major, dash) {
            // OpenShift and OKD write SemVer: everything between the first `-` and `+` is the pre-release.
            if d.is_empty()
                || d.split('.').any(|id| id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
            {
                return Err(bad("an OpenShift pre-release is dot-separated letters, digits and hyphens"));
            }
            prerelease = Some(d.to_owned());
        } else if let Some(d) = dash {
            if d.is_empty() {
                return Err(bad("empty suffix"));
            }
            let lower = d.to_ascii_lowercase();
            let kind =
                [("alpha", PreKind::Alpha), ("beta", PreKind::Beta), ("rc", PreKind::Rc)].into_iter().find(|(w, _)| {
                    lower.starts_with(w)
                        && lower[w.len()..].chars().next().is_none_or(|c| c == '.' || c.is_ascii_digit())
                });
            match kind {
                Some((w, k)) => {
                    let rest = lower[w.len()..].trim_start_matches('.');
                    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    pre = Some((k, n.parse().unwrap_or(0)));
                }
                None => vendor.push(d.to_owned()),
            }
        }
        if let Some(m) = plus_meta {
            if m.is_empty() {
                return Err(bad("empty build metadata"));
            }
            vendor.push(m.to_owned());
        }
        let vendor = if vendor.is_empty() { None } else { Some(vendor.join("+")) };
        match major {
            1 => Ok(Version { minor, patch, pre, vendor, product: None, prerelease: None }),
            4 => Ok(Version {
                minor: minor + OPENSHIFT_MINOR_OFFSET,
                patch,
                pre,
                vendor,
                product: Some((Scheme::OpenShift, minor)),
                prerelease,
            }),
            _ => Err(bad("Kubernetes versions start with 1, OpenShift versions with 4")),
        }
    }

    /// Parse a GKE on Bare Metal product version (`1.16.0`, `1.30.100-gke.96`): its Kubernetes minor from
    /// [`GKE_BAREMETAL_MINORS`]. A minor the product never had (1.17 to 1.27) is a Kubernetes version; one
    /// older than the table is refused.
    pub fn parse_gke_baremetal(raw: &str) -> Result<Version, String> {
        let mut v = Version::parse(raw)?;
        if v.product.is_some() {
            return Ok(v);
        }
        let product = v.minor;
        if product >= GKE_BAREMETAL_SAME_FROM {
            v.product = Some((Scheme::GkeBaremetal, product));
        } else if let Some((_, k)) = GKE_BAREMETAL_MINORS.iter().find(|(p, _)| *p == product) {
            v.minor = *k;
            v.product = Some((Scheme::GkeBaremetal, product));
        } else if product < GKE_BAREMETAL_MINORS.first().map_or(0, |m| m.0) {
            return Err(format!(
                "{raw:?} is a GKE on Bare Metal version older than 1.10, whose Kubernetes minor is not in the version \
                 table: give the Kubernetes version instead (the nodes' kubelet version)"
            ));
        }
        Ok(v)
    }

    /// Parse a kOps `spec.kubernetesVersion` as kOps reads it (`pkg/apis/kops/util/versions.go`,
    /// `ParseKubernetesVersion`): a version, or else a release URL, read for the minor in its `/v1.N.` (the
    /// patch then unknown).
    pub fn parse_kops(raw: &str) -> Result<Version, String> {
        if let Ok(v) = Version::parse(raw) {
            return Ok(v);
        }
        let minor = raw.match_indices("/v1.").find_map(|(i, m)| {
            let rest = raw.get(i + m.len()..)?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty() && rest[digits.len()..].starts_with('.')).then(|| digits.parse::<u32>().ok()).flatten()
        });
        match minor {
            Some(m) => Ok(Version { minor: m, patch: None, pre: None, vendor: None, product: None, prerelease: None }),
            None => Err(format!(
                "{raw:?} is not a Kubernetes version, nor a release URL with /v1.N. in it, as kOps reads them"
            )),
        }
    }

    /// Parse a version as the profile's own tool reads it: GKE on Bare Metal product versions under
    /// gke-baremetal, otherwise [`Version::parse`].
    pub fn parse_for(raw: &str, gke_baremetal: bool) -> Result<Version, String> {
        if gke_baremetal {
            Version::parse_gke_baremetal(raw)
        } else {
            Version::parse(raw)
        }
    }

    /// The product minor in its own scheme (`16` for GKE on Bare Metal 1.16.2), or the Kubernetes minor.
    pub fn product_minor(&self) -> u32 {
        self.product.map_or(self.minor, |(_, m)| m)
    }

    /// The Kubernetes minor as `1.N`.
    pub fn minor_string(&self) -> String {
        format!("1.{}", self.minor)
    }

    /// A version standing for a whole minor (a hop target), written the same way as `like`.
    pub fn minor_of(minor: u32, like: &Version) -> Version {
        Version {
            minor,
            patch: None,
            pre: None,
            prerelease: None,
            vendor: None,
            product: like.product.and_then(|(scheme, _)| match scheme {
                Scheme::OpenShift => Some((scheme, minor.saturating_sub(OPENSHIFT_MINOR_OFFSET))),
                Scheme::GkeBaremetal if minor >= GKE_BAREMETAL_SAME_FROM => Some((scheme, minor)),
                Scheme::GkeBaremetal => {
                    GKE_BAREMETAL_MINORS.iter().find(|(_, k)| *k == minor).map(|(p, _)| (scheme, *p))
                }
            }),
        }
    }

    fn order_key(&self) -> (u32, u32, u8, u32) {
        let (pk, pn) = match self.pre {
            Some((k, n)) => (k as u8, n),
            None => (u8::MAX, 0),
        };
        (self.minor, self.patch.unwrap_or(0), pk, pn)
    }

    /// Is this an OpenShift product version (`4.14.3`)?
    pub fn is_openshift(&self) -> bool {
        matches!(self.product, Some((Scheme::OpenShift, _)))
    }

    /// Is this a GKE on Bare Metal product version?
    pub fn is_gke_baremetal(&self) -> bool {
        matches!(self.product, Some((Scheme::GkeBaremetal, _)))
    }

    fn scheme(&self) -> Option<Scheme> {
        self.product.map(|(s, _)| s)
    }

    /// The order of two versions, each read in its own scheme: within one scheme, the usual order; across
    /// schemes (an OpenShift 4.14.3 and a Kubernetes 1.27.8), only the Kubernetes minors compare, since a
    /// product's patch says nothing of the Kubernetes patch it ships. `None`: same minor, different
    /// schemes, so not comparable.
    pub fn scheme_cmp(&self, other: &Version) -> Option<Ordering> {
        if self.scheme() == other.scheme() {
            return Some(self.cmp(other));
        }
        match self.minor.cmp(&other.minor) {
            Ordering::Equal => None,
            o => Some(o),
        }
    }

    /// This version, and in brackets the Kubernetes minor it ships when it is an OpenShift version:
    /// `4.14.3 (Kubernetes 1.27)`.
    pub fn with_kubernetes(&self) -> String {
        if self.product.is_some() {
            format!("{self} (Kubernetes {})", self.minor_string())
        } else {
            self.to_string()
        }
    }

    /// Same Kubernetes minor?
    pub fn same_minor(&self, other: &Version) -> bool {
        self.minor == other.minor
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order_key().cmp(&other.order_key()).then_with(|| match (&self.prerelease, &other.prerelease) {
            (None, None) => Ordering::Equal,
            // A pre-release comes before its release.
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => semver_prerelease_cmp(a, b),
        })
    }
}

/// SemVer 2.0.0 precedence of two pre-releases (section 11): identifier by identifier, numbers numerically,
/// a number before letters, letters in ASCII order, and a longer list after its prefix.
pub fn semver_prerelease_cmp(a: &str, b: &str) -> Ordering {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let mut xs = a.split('.');
    let mut ys = b.split('.');
    loop {
        match (xs.next(), ys.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                let o = match (numeric(x), numeric(y)) {
                    // Numbers of any length: by length once leading zeros are gone, then by digits.
                    (true, true) => {
                        let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                        x.len().cmp(&y.len()).then_with(|| x.cmp(y))
                    }
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    (false, false) => x.cmp(y),
                };
                if o != Ordering::Equal {
                    return o;
                }
            }
        }
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.product {
            Some((Scheme::OpenShift, m)) => write!(f, "4.{m}")?,
            Some((Scheme::GkeBaremetal, m)) => write!(f, "1.{m}")?,
            None => write!(f, "1.{}", self.minor)?,
        }
        if let Some(p) = self.patch {
            write!(f, ".{p}")?;
        }
        if let Some(p) = &self.prerelease {
            write!(f, "-{p}")?;
        }
        if let Some((k, n)) = self.pre {
            let w = match k {
                PreKind::Alpha => "alpha",
                PreKind::Beta => "beta",
                PreKind::Rc => "rc",
            };
            write!(f, "-{w}.{n}")?;
        }
        if let Some(v) = &self.vendor {
            // GKE on Bare Metal's build (`-gke.96`) is written as the product writes it.
            let sep = if self.is_gke_baremetal() && v.starts_with("gke.") { '-' } else { '+' };
            write!(f, "{sep}{v}")?;
        }
        Ok(())
    }
}

/// The most minor versions one upgrade may cross. Kubernetes has had about 35 minors in ten years; a path
/// longer than this is a typo (`--to 1.2900`), and would build a plan of millions of steps.
pub const MAX_HOPS: u32 = 100;

/// How many hops (minor versions) lie between two versions.
pub fn hop_count(from: &Version, to: &Version) -> u32 {
    to.minor.saturating_sub(from.minor)
}

/// The hops from `from` to `to`: one per minor, the intermediate ones as bare minors, the last the target.
/// Empty when `to` is not above `from`'s minor (a patch upgrade is one hop: `[to]`).
pub fn hop_path(from: &Version, to: &Version) -> Vec<Version> {
    match to.scheme_cmp(from) {
        Some(Ordering::Less | Ordering::Equal) => return Vec::new(),
        // Across schemes on one minor: a patch update within it (an OpenShift z-stream update).
        None => return vec![to.clone()],
        Some(Ordering::Greater) => {}
    }
    if to.minor <= from.minor {
        return vec![to.clone()];
    }
    let mut path: Vec<Version> = (from.minor + 1..to.minor).map(|m| Version::minor_of(m, to)).collect();
    path.push(to.clone());
    path
}

/// `s` cut at the first `sep`: what comes before it, and what after (`None` without one).
fn split_off(s: &str, sep: char) -> (&str, Option<&str>) {
    s.split_once(sep).map_or((s, None), |(a, b)| (a, Some(b)))
}

/// Is `raw` a version as SemVer 2.0.0 writes it, strictly: `MAJOR.MINOR.PATCH`, each a number without a
/// leading zero, then an optional `-` pre-release and `+` build, dot-separated identifiers of ASCII letters,
/// digits and hyphens, never empty (a numeric pre-release identifier without a leading zero either). No
/// `v` before it. OpenShift's cluster-version operator reads `status.desired.version` so (blang/semver's
/// `Parse`), and a release it cannot parse there only warns (`InvalidCurrentVersion`) rather than blocking.
pub fn is_strict_semver(raw: &str) -> bool {
    fn number(s: &str) -> bool {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s.len() == 1 || !s.starts_with('0'))
    }
    fn identifiers(s: &str, numeric_without_zero: bool) -> bool {
        s.split('.').all(|id| {
            !id.is_empty()
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && (!numeric_without_zero || !id.bytes().all(|b| b.is_ascii_digit()) || number(id))
        })
    }
    let (rest, build) = split_off(raw, '+');
    let (core, pre) = split_off(rest, '-');
    let mut parts = core.split('.');
    let three = (parts.next(), parts.next(), parts.next(), parts.next());
    matches!(three, (Some(a), Some(b), Some(c), None) if number(a) && number(b) && number(c))
        && pre.is_none_or(|p| identifiers(p, true))
        && build.is_none_or(|b| identifiers(b, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn parses_the_forms_of_domain_section_1() {
        assert_eq!(v("v1.29.2").minor, 29);
        assert_eq!(v("1.29").patch, None);
        assert_eq!(v("v1.29.2-gke.1060000").vendor.as_deref(), Some("gke.1060000"));
        assert_eq!(v("v1.28.9+rke2r1").vendor.as_deref(), Some("rke2r1"));
        assert_eq!(v("v1.27.6-eks-a5df82a").vendor.as_deref(), Some("eks-a5df82a"));
        assert_eq!(v("v1.26.3+k3s1").patch, Some(3));
        assert_eq!(v("1.30.0-rc.1").pre, Some((PreKind::Rc, 1)));
        assert_eq!(v("1.30.0-alpha.3").pre, Some((PreKind::Alpha, 3)));
    }

    #[test]
    fn vendor_suffix_is_not_a_prerelease() {
        assert_eq!(v("1.29.2-gke.100").cmp(&v("1.29.2")), Ordering::Equal);
        assert!(v("1.29.2-gke.100") > v("1.29.1"));
        assert!(v("1.30.0-rc.1") < v("1.30.0"));
        assert!(v("1.30.0-alpha.2") < v("1.30.0-beta.0"));
    }

    /// An OpenShift version and a Kubernetes version compare by the Kubernetes minor only: the patches
    /// belong to different products.
    #[test]
    fn versions_of_two_schemes_compare_by_minor_only() {
        assert_eq!(v("4.14.5").scheme_cmp(&v("1.27.8")), None);
        assert_eq!(v("1.27.8").scheme_cmp(&v("4.14.30")), None);
        assert_eq!(v("4.15.1").scheme_cmp(&v("1.27.8")), Some(Ordering::Greater));
        assert_eq!(v("4.13.40").scheme_cmp(&v("1.27.1")), Some(Ordering::Less));
        assert_eq!(v("4.14.5").scheme_cmp(&v("4.14.30")), Some(Ordering::Less));
        assert_eq!(hop_path(&v("1.27.8"), &v("4.14.5")).len(), 1);
        let names = |f: &str, t: &str| hop_path(&v(f), &v(t)).iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(names("1.27.8", "4.16.2"), ["4.15", "4.16.2"]);
        assert!(names("1.28.1", "4.14.5").is_empty());
        assert_eq!(v("4.14.5").with_kubernetes(), "4.14.5 (Kubernetes 1.27)");
    }

    #[test]
    fn openshift_maps_to_kubernetes_minors() {
        assert_eq!(v("4.14.3").minor, 27);
        assert_eq!(v("4.15").minor, 28);
        assert_eq!(v("4.16.0").minor, 29);
        assert_eq!(v("4.16.0").to_string(), "4.16.0");
    }

    #[test]
    fn rejects_nonsense_quoting_the_value() {
        for bad in ["1.x", "latest", "1.2.3.4", "", "v", "2.1.0", "1.29.2-", "1..2", "1.29.2+", "-1.2"] {
            let e = Version::parse(bad).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    /// GKE on Bare Metal's product versions: 1.10 to 1.16 ship Kubernetes 1.21 to 1.27, then the minors are
    /// the same (Google Distributed Cloud for bare metal, version history).
    #[test]
    fn gke_baremetal_product_versions() {
        let g = |s: &str| Version::parse_gke_baremetal(s).unwrap();
        assert_eq!(g("1.16.0").minor, 27);
        assert_eq!(g("1.16.0").to_string(), "1.16.0");
        assert_eq!(g("1.15.11").minor, 26);
        assert_eq!(g("1.30.100-gke.96").minor, 30);
        assert_eq!(g("1.30.100-gke.96").to_string(), "1.30.100-gke.96");
        assert_eq!(g("1.16.0").with_kubernetes(), "1.16.0 (Kubernetes 1.27)");
        // A minor the product never had is a Kubernetes version.
        assert!(!g("1.27.4").is_gke_baremetal());
        assert!(Version::parse_gke_baremetal("1.8.2").is_err());
        // 1.16 to 1.28 is one minor: the next product minor after 1.16 is 1.28.
        let names = |a: &str, b: &str| hop_path(&g(a), &g(b)).iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(names("1.16.3", "1.28.0-gke.435"), ["1.28.0-gke.435"]);
        assert_eq!(names("1.15.2", "1.28.100"), ["1.16", "1.28.100"]);
        assert_eq!(g("1.16.3").scheme_cmp(&v("1.27.6-gke.2500")), None);
        assert_eq!(g("1.16.3").scheme_cmp(&g("1.16.2")), Some(Ordering::Greater));
    }

    #[test]
    fn strict_semver_as_the_cvo_parses_status_desired() {
        // cluster-version-operator upgradeable_test.go: "4.1" is no Major.Minor.Patch; its other cases' forms parse.
        for ok in
            ["4.1.1", "4.16.3", "4.17.0-rc.6", "4.17.0-0.test-2024-10-07-173400-ci-ln-pwn9ngk-latest", "1.0.0+b.01"]
        {
            assert!(is_strict_semver(ok), "{ok}");
        }
        for bad in
            ["4.1", "4.2", "", "v4.1.1", "4.01.1", "4.1.1-", "4.1.1-rc.01", "4.1.1+", "4.1.1-a..b", "4.1.1.1", "4.1.x"]
        {
            assert!(!is_strict_semver(bad), "{bad}");
        }
    }

    /// OpenShift and OKD releases as the CVO and the update service order them (SemVer precedence through
    /// blang/semver): a pre-release (`ec`, `rc`, a nightly, an OKD `okd-scos.N`) before its release,
    /// identifiers compared one by one; printed as given. The SemVer specification's own precedence list
    /// (section 11), written as 4.16.0 releases, comes first.
    #[test]
    fn openshift_and_okd_versions_follow_semver_precedence() {
        let list = [
            "4.16.0-alpha",
            "4.16.0-alpha.1",
            "4.16.0-alpha.beta",
            "4.16.0-beta",
            "4.16.0-beta.2",
            "4.16.0-beta.11",
            "4.16.0-rc.1",
            "4.16.0",
            "4.16.1",
        ];
        for pair in list.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert!(v("4.16.0-ec.4") < v("4.16.0-ec.5"));
        assert!(v("4.16.0-ec.4") < v("4.16.0-rc.0"));
        assert!(v("4.20.0-0.nightly-2025-01-15-042159") < v("4.20.0"));
        assert!(v("4.20.0-0.nightly-2025-01-15-042159") < v("4.20.0-0.nightly-2025-02-01-000000"));
        assert!(v("4.19.0-okd-scos.16") < v("4.19.0-okd-scos.17"));
        assert!(v("4.19.0-okd-scos.17") > v("4.18.0-okd-scos.9"));
        assert_ne!(v("4.19.0-okd-scos.17").cmp(&v("4.19.0-okd-scos.16")), Ordering::Equal);
        // Printed as given: no `+` in a release name that has none.
        assert_eq!(v("4.19.0-okd-scos.17").to_string(), "4.19.0-okd-scos.17");
        assert_eq!(v("4.16.0-ec.4").to_string(), "4.16.0-ec.4");
        assert_eq!(v("4.20.0-0.nightly-2025-01-15-042159").to_string(), "4.20.0-0.nightly-2025-01-15-042159");
        // A nightly to its release is an update within the minor, never "nothing to upgrade".
        assert_eq!(hop_path(&v("4.20.0-0.nightly-2025-01-15-042159"), &v("4.20.0")).len(), 1);
        assert!(hop_path(&v("4.19.0-okd-scos.17"), &v("4.19.0-okd-scos.16")).is_empty());
        assert!(Version::parse("4.16.0-ec..4").is_err());
        assert!(Version::parse("4.16.0-ec_4").is_err());
    }

    /// kOps' `ParseKubernetesVersion`: a version, or a release URL read for its `/v1.N.` minor.
    #[test]
    fn kops_reads_a_release_url_for_its_minor() {
        let k = |s: &str| Version::parse_kops(s);
        assert_eq!(k("v1.29.2").unwrap().patch, Some(2));
        let url = k("https://storage.googleapis.com/kubernetes-release/release/v1.29.2/").unwrap();
        assert_eq!((url.minor, url.patch), (29, None));
        assert_eq!(k("https://example.com/ci/v1.30.0-alpha.1.123+abc/").unwrap().minor, 30);
        assert!(k("https://example.com/latest/").is_err());
        assert!(k("latest").is_err());
    }

    #[test]
    fn hop_paths() {
        let names = |a: &str, b: &str| hop_path(&v(a), &v(b)).iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(names("1.27.3", "1.29.2"), ["1.28", "1.29.2"]);
        assert_eq!(names("1.28.1", "1.29.2"), ["1.29.2"]);
        assert_eq!(names("1.29.1", "1.29.2"), ["1.29.2"]);
        assert!(names("1.29.2", "1.29.2").is_empty());
        assert!(names("1.29.2", "1.28.0").is_empty());
        assert_eq!(names("4.14.3", "4.16.1"), ["4.15", "4.16.1"]);
    }
}
