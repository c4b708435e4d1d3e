//! tolerations/: pods a node blink would evict at once, and the control-plane taint rename.

pub mod legacy_master_taint;
pub mod missing_eviction_toleration;
