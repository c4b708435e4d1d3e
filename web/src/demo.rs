//! The built-in demo cluster: a snapshot and manifests of our own making (see `tests/fixtures/demo/`).

pub const DEMO_TARGET: &str = "1.29.2";

/// The demo's inputs: name and text.
pub const DEMO_FILES: [(&str, &str); 2] = [
    ("demo/cluster.yaml", include_str!("../../tests/fixtures/demo/cluster.yaml")),
    ("demo/manifests.yaml", include_str!("../../tests/fixtures/demo/manifests.yaml")),
];
