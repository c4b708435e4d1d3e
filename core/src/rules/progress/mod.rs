//! progress/: an upgrade the snapshot shows under way, read as the distribution's own status tools read it
//! (`cluster::progress`, the report's `progress` section).

pub mod node_stuck;
