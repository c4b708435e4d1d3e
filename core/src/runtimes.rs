//! What the kubelet of each Kubernetes minor runs on: the container runtimes it dropped and the node setup
//! it refuses, with their sources (the table `docs/rules.md` shows beside the rules that read it:
//! `node/container-runtime-unsupported`, `node/legacy-cgroup`).

/// A container runtime (by `status.nodeInfo.containerRuntimeVersion`'s scheme) that the kubelet stops
/// supporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeRow {
    /// `docker`, `containerd`, as in `docker://20.10.24`.
    pub scheme: &'static str,
    /// Versions below this major are dropped (`0`: every version).
    pub below_major: u32,
    /// The last Kubernetes minor whose kubelet runs it.
    pub last_minor: u32,
    pub what: &'static str,
    pub fix: &'static str,
    pub source: &'static str,
}

/// The runtimes the kubelet dropped, oldest first.
pub const RUNTIMES: &[RuntimeRow] = &[
    RuntimeRow {
        scheme: "docker",
        below_major: 0,
        last_minor: 23,
        what: "the kubelet's dockershim (Docker Engine as the runtime) is removed in 1.24",
        fix: "Move the node to containerd or CRI-O (or install cri-dockerd and point the kubelet's --container-runtime-endpoint at it) before the hop to 1.24.",
        source: "KEP-2221 (dockershim removal), Kubernetes 1.24 release notes; https://kubernetes.io/blog/2022/02/17/dockershim-faq/",
    },
    RuntimeRow {
        scheme: "containerd",
        below_major: 2,
        last_minor: 35,
        what: "Kubernetes 1.35 is the last release to support containerd 1.x",
        fix: "Upgrade the node's containerd to 2.0 or later (its config to version 3) before the hop past 1.35.",
        source: "Kubernetes v1.35 release announcement (containerd 1.x end of support); https://kubernetes.io/blog/2025/12/17/kubernetes-v1-35-release/",
    },
];

/// From this minor the kubelet refuses to start on a cgroup v1 host unless `failCgroupV1: false`.
pub const CGROUP_V1_REFUSED_FROM: u32 = 35;

/// The source of [`CGROUP_V1_REFUSED_FROM`].
pub const CGROUP_V1_SOURCE: &str = "KEP-5573 (cgroup v1 removal), Kubernetes 1.35 release notes (failCgroupV1 defaults to true); https://kubernetes.io/docs/concepts/architecture/cgroups/";

/// OS images (`status.nodeInfo.osImage` prefixes) that boot with cgroup v1 unless reconfigured, with why.
pub const CGROUP_V1_IMAGES: &[(&str, &str)] = &[
    ("CentOS Linux 7", "CentOS 7 (kernel 3.10) has no usable cgroup v2"),
    ("Red Hat Enterprise Linux Server 7", "RHEL 7 (kernel 3.10) has no usable cgroup v2"),
    ("Red Hat Enterprise Linux 8", "RHEL 8 boots with cgroup v1 unless systemd.unified_cgroup_hierarchy=1"),
    ("Rocky Linux 8", "Rocky Linux 8 boots with cgroup v1 unless systemd.unified_cgroup_hierarchy=1"),
    ("AlmaLinux 8", "AlmaLinux 8 boots with cgroup v1 unless systemd.unified_cgroup_hierarchy=1"),
    ("Amazon Linux 2", "Amazon Linux 2 uses cgroup v1 (Amazon Linux 2023 uses v2)"),
    ("Ubuntu 18.04", "Ubuntu 18.04 boots with cgroup v1"),
    ("Ubuntu 20.04", "Ubuntu 20.04 boots with cgroup v1 (v2 is the default from 21.10)"),
    ("Debian GNU/Linux 10", "Debian 10 boots with cgroup v1 (v2 is the default from Debian 11)"),
];

/// The runtime's scheme and major version, from `containerRuntimeVersion` (`containerd://1.7.13`).
pub fn runtime_of(raw: &str) -> Option<(&str, Option<u32>)> {
    let (scheme, version) = raw.split_once("://")?;
    let major = version.trim_start_matches('v').split('.').next().and_then(|m| m.parse().ok());
    Some((scheme, major))
}

/// The row that drops this runtime, if any.
pub fn dropping(raw: &str) -> Option<&'static RuntimeRow> {
    let (scheme, major) = runtime_of(raw)?;
    RUNTIMES.iter().find(|r| r.scheme == scheme && (r.below_major == 0 || major.is_some_and(|m| m < r.below_major)))
}

/// Why an OS image likely boots with cgroup v1, if it does.
pub fn cgroup_v1_image(os_image: &str) -> Option<&'static str> {
    CGROUP_V1_IMAGES.iter().find(|(p, _)| os_image.starts_with(p)).map(|(_, why)| *why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtimes_are_read_from_the_node_s_runtime_version() {
        assert_eq!(dropping("docker://20.10.24").map(|r| r.last_minor), Some(23));
        assert_eq!(dropping("containerd://1.7.13").map(|r| r.last_minor), Some(35));
        assert_eq!(dropping("containerd://v1.6.28").map(|r| r.last_minor), Some(35));
        assert_eq!(dropping("containerd://2.0.2"), None);
        assert_eq!(dropping("cri-o://1.28.1"), None);
        assert_eq!(dropping("containerd://unknown"), None);
        assert_eq!(dropping("garbage"), None);
        assert!(cgroup_v1_image("CentOS Linux 7 (Core)").is_some());
        assert!(cgroup_v1_image("Ubuntu 22.04.4 LTS").is_none());
    }
}
