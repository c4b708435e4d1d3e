//! The built-in demo cluster: a snapshot and manifests of our own making (see `tests/fixtures/demo/`).

use crate::state::LoadedFile;

pub const DEMO_TARGET: &str = "1.29.2";

pub fn demo_files() -> Vec<LoadedFile> {
    vec![
        LoadedFile {
            name: "demo/cluster.yaml".into(),
            content: include_str!("../../tests/fixtures/demo/cluster.yaml").into(),
        },
        LoadedFile {
            name: "demo/manifests.yaml".into(),
            content: include_str!("../../tests/fixtures/demo/manifests.yaml").into(),
        },
    ]
}
