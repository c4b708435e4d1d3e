//! budget/: nodes already down against each pool's limit, and the etcd and control-plane margins.

pub mod etcd_member_unavailable;
pub mod etcd_no_fault_tolerance;
pub mod limit_covers_pool;
pub mod node_unavailable;
pub mod single_control_plane;
pub mod unavailable_exceeds_limit;

pub use crate::cluster::nodes::etcd_members;
