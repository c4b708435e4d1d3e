//! capacity/: can the nodes that stay up hold what the drained ones carried?

pub mod insufficient_headroom;
