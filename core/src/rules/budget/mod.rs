//! budget/: nodes already down against each pool's limit, and the etcd and control-plane margins.

pub mod etcd_member_unavailable;
pub mod etcd_no_fault_tolerance;
pub mod limit_covers_pool;
pub mod single_control_plane;
pub mod unavailable_exceeds_limit;

use crate::options::Profile;
use crate::rules::context::NodeView;
use crate::rules::Context;

/// The etcd members: RKE's etcd-role nodes; elsewhere etcd is stacked on the control-plane nodes.
pub fn etcd_members<'c, 'a>(ctx: &'c Context<'a>) -> Vec<&'c NodeView<'a>> {
    match ctx.profile() {
        Profile::Rke | Profile::RkeLegacy => ctx.nodes.iter().filter(|n| n.roles.etcd).collect(),
        _ => {
            let explicit: Vec<_> = ctx.nodes.iter().filter(|n| n.roles.etcd).collect();
            if explicit.is_empty() {
                ctx.nodes.iter().filter(|n| n.is_control_plane()).collect()
            } else {
                explicit
            }
        }
    }
}
