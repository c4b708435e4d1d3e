//! The built-in demo cluster: a snapshot and manifests of our own making (see `tests/fixtures/demo/`).

use kube_preflight::Input;

use crate::protocol::{InputSpec, Source};

pub const DEMO_TARGET: &str = "1.29.2";

const CLUSTER: &str = include_str!("../../tests/fixtures/demo/cluster.yaml");
const MANIFESTS: &str = include_str!("../../tests/fixtures/demo/manifests.yaml");

/// The demo's inputs: name and text (the worker reads them).
pub const DEMO_FILES: [(&str, &str); 2] = [("demo/cluster.yaml", CLUSTER), ("demo/manifests.yaml", MANIFESTS)];

/// The demo's inputs: name and size in bytes (what the page shows before the worker has read them: the
/// page's own wasm carries no demo text).
pub const DEMO_SIZES: [(&str, usize); 2] =
    [("demo/cluster.yaml", CLUSTER.len()), ("demo/manifests.yaml", MANIFESTS.len())];

/// The text of the demo's input of that name.
pub fn demo_text(name: &str) -> Option<&'static str> {
    DEMO_FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The demo as the worker is asked to read it.
pub fn demo_specs() -> Vec<InputSpec> {
    DEMO_SIZES
        .iter()
        .map(|(n, _)| InputSpec { name: (*n).to_owned(), source: Source::Demo, passed_over: None })
        .collect()
}

/// The demo as `check()` reads it (what the tests compare the worker's answers with).
pub fn demo_inputs() -> Vec<Input> {
    DEMO_FILES.iter().map(|(n, t)| Input::new(*n, *t)).collect()
}
