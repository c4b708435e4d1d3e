//! disruption/: what the drains do to workloads: budgets that stall them, replicas that all go at once,
//! pods that are deleted for good or lose their data.

pub mod daemonset_pod;
pub mod in_place_restart;
pub mod local_storage;
pub mod overlapping_pdbs;
pub mod pdb_blocks_drain;
pub mod replicas_in_one_window;
pub mod single_replica;
pub mod unmanaged_pod;

pub use crate::cluster::is_mirror;
