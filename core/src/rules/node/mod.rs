//! node/: what the target's kubelet needs of the host it runs on (the container runtime, cgroups), read
//! from `status.nodeInfo` against the table in `runtimes.rs`. Judged under `--profile kubeadm`, where the
//! nodes are upgraded in place and keep their host: kOps replaces nodes with its own images, RKE runs the
//! kubelet against its own Docker (through cri-dockerd from 1.24), OpenShift and GKE on Bare Metal manage
//! the runtime with the release.

pub mod container_runtime_unsupported;
pub mod legacy_cgroup;

use crate::options::Profile;
use crate::rules::Context;
use crate::version::Version;

/// Are the hosts kept through the upgrade, with the runtime their owner installed?
pub fn judged(ctx: &Context<'_>) -> bool {
    ctx.profile() == Profile::Kubeadm
}

/// The first hop whose minor is past `last_minor`, if the path goes there.
pub fn first_hop_past<'c>(ctx: &'c Context<'_>, last_minor: u32) -> Option<&'c Version> {
    ctx.path.iter().find(|v| v.minor > last_minor)
}
